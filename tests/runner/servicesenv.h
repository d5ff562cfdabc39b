#pragma once
// The env file that tests/services/services.sh writes once the Kafka broker and
// redis-server are up (KEY=VALUE lines). Integration tests read their endpoints from it.

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>

namespace plimsoll::test {

class ServicesEnv
{
public:
    // ctest passes the path in PLIMSOLL_SERVICES_ENV; the build tree's default otherwise.
    static std::string path()
    {
        if (const char *fromEnvironment = std::getenv("PLIMSOLL_SERVICES_ENV"); fromEnvironment && *fromEnvironment)
            return fromEnvironment;
        return PLIMSOLL_SERVICES_ENV_FILE;
    }

    // Fails the test (never skips it) when the file or a key is missing: a missing
    // service must show up as a failure.
    static void load(ServicesEnv &env)
    {
        const std::string file = path();
        std::ifstream in(file);
        ASSERT_TRUE(in) << "no services env file at " << file
                        << ": run the tests through ctest (fixture services.start), or start the services "
                           "with tests/services/services.sh start <build>/services";
        std::string line;
        while (std::getline(in, line)) {
            if (line.empty() || line.front() == '#')
                continue;
            const auto equals = line.find('=');
            if (equals != std::string::npos)
                env.m_values[line.substr(0, equals)] = line.substr(equals + 1);
        }
        env.m_path = file;
    }

    std::string value(const std::string &key) const
    {
        auto it = m_values.find(key);
        return it == m_values.end() ? std::string() : it->second;
    }
    const std::string &file() const { return m_path; }

private:
    std::string m_path;
    std::map<std::string, std::string> m_values;
};

} // namespace plimsoll::test
