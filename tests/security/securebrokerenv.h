#pragma once
// The env files of the two brokers the service suites use: the shared one (fixture
// "services") and the security suites' own (fixture "securebroker", securebroker.sh).
#include "security/securitysupport.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QJsonDocument>
#include <QJsonArray>
#include <QJsonObject>

#include <fstream>
#include <map>
#include <string>

namespace plimsoll::test {

inline std::map<std::string, std::string> readEnvFile(const std::string &path)
{
    std::map<std::string, std::string> values;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        const auto eq = line.find('=');
        if (!line.empty() && line[0] != '#' && eq != std::string::npos)
            values[line.substr(0, eq)] = line.substr(eq + 1);
    }
    return values;
}

// Fails (never skips) when the fixture did not start the broker.
inline std::map<std::string, std::string> secureBroker()
{
    auto env = readEnvFile(PLIMSOLL_SECURE_ENV_FILE);
    EXPECT_FALSE(env.empty()) << "no env file at " << PLIMSOLL_SECURE_ENV_FILE
                              << ": run through ctest (fixture securebroker.start)";
    return env;
}

inline std::map<std::string, std::string> sharedBroker()
{
    const char *fromEnv = std::getenv("PLIMSOLL_SERVICES_ENV");
    auto env = readEnvFile(fromEnv && *fromEnv ? fromEnv : PLIMSOLL_SERVICES_ENV_FILE);
    EXPECT_FALSE(env.empty()) << "no services env file: run through ctest (fixture services.start)";
    return env;
}

inline QJsonObject readJsonObject(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// What Plimsoll itself said, without librdkafka's own log lines ("%3|…|FAIL|…"): a verdict
// must name the cause by itself, not leave it to a log line above it.
inline std::string plimsollLines(const std::string &text)
{
    std::string out;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        if (text[pos] != '%')
            out += text.substr(pos, end - pos) + "\n";
        pos = end + 1;
    }
    return out;
}

inline std::string lowered(std::string s)
{
    for (char &c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

} // namespace plimsoll::test
