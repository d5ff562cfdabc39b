#pragma once
// The plimsoll executable on a store of a test's own, as a user's shell runs it: PLIMSOLL_DB
// unset, the store given by --db, its exit code and both streams kept. For test targets that
// define PLIMSOLL_BINARY.
#include <nlohmann/json.hpp>

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

#include <gtest/gtest.h>

#include <string>

namespace plimsoll::test {

struct CliRun
{
    int exitCode = -1;
    std::string out;
    std::string err;
    nlohmann::json json() const { return nlohmann::json::parse(out); }
};

inline CliRun runPlimsoll(const QString &db, const QStringList &args, int timeoutMs = 120000)
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.remove(QStringLiteral("PLIMSOLL_DB"));
    p.setProcessEnvironment(e);
    p.start(QStringLiteral(PLIMSOLL_BINARY), QStringList{QStringLiteral("--db"), db} + args);
    EXPECT_TRUE(p.waitForFinished(timeoutMs)) << "plimsoll did not finish";
    return {p.exitCode(), p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
}

// Writes `text` to `path` whole; gives the path.
inline QString writeTestFile(const QString &path, const std::string &text)
{
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly)) << path.toStdString();
    f.write(text.data(), qint64(text.size()));
    return f.fileName();
}

} // namespace plimsoll::test
