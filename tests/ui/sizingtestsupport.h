#pragma once
// Shared by the modelling views' tests: a store holding the sample runs, the CLI run on it as
// a user runs it (`plimsoll COMMAND ... --json`), and screenshots for a person to look at.
#include "importers/samples.h"
#include "model/store/store.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

#include <nlohmann/json.hpp>

namespace plimsoll::test {

inline QString artifactDir()
{
    const QString dir = qEnvironmentVariableIsSet("PLIMSOLL_ARTIFACT_DIR")
                            ? qEnvironmentVariable("PLIMSOLL_ARTIFACT_DIR")
                            : QStringLiteral(PLIMSOLL_ARTIFACT_DIR);
    QDir().mkpath(dir);
    return dir;
}

inline void savePng(QWidget *w, const QString &name, QSize size = {1200, 760})
{
    w->resize(size);
    w->show();
    QTest::qWait(50); // one layout pass, so the grab shows what a user sees
    EXPECT_TRUE(w->grab().save(QDir(artifactDir()).filePath(name))) << name.toStdString();
}

// `plimsoll --db STORE COMMAND ARGS... --json`, as a user runs it; expects exit 0.
inline nlohmann::json cliJson(const QString &store, const QString &command, QStringList args)
{
    args = QStringList{QStringLiteral("--db"), store, command} + args;
    args << QStringLiteral("--json");
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("PLIMSOLL_DB"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(PLIMSOLL_BINARY), args);
    EXPECT_TRUE(p.waitForFinished(120000));
    EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
    return nlohmann::json::parse(p.readAllStandardOutput().toStdString(), nullptr, false);
}

inline nlohmann::json cliSize(const QString &store, const QStringList &args)
{
    return cliJson(store, QStringLiteral("size"), args);
}

// A fresh store holding the bundled sample runs.
class SampleStoreTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("store.plimsoll"));
        Store store(m_path.toStdString());
        for (const auto &r : installSamples(store))
            ASSERT_NE(r.status, "failed") << r.uri;
    }
    QTemporaryDir m_dir;
    QString m_path;
};

} // namespace plimsoll::test
