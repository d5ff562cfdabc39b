// The window on a team store and on a store others write: the status bar names a read-only role,
// runs imported by another process (a CI job, a colleague) show without a restart, and Open Team
// Store refuses a URI with a password before any window or recent entry keeps it. The
// PostgreSQL cases run in the fixture "postgres" (tests/services/postgres.sh).
#include "importers/importservice.h"
#include "model/store/store.h"
#include "support/teststore.h"
#include "ui/mainwindow.h"
#include "ui/messagebanner.h"
#include "ui/storewriter.h"
#include "ui/models/runsfilterproxymodel.h"
#include "ui/views/libraryview.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace plimsoll;
using plimsoll::test::StoreBackend;
using plimsoll::test::TestStoreLocation;
using plimsoll::test::waitUntil;

namespace {

RunRecord nightly(int day)
{
    RunRecord r;
    r.runKey = "nightly-" + std::to_string(day);
    r.timestamp = "2026-11-" + std::string(day < 10 ? "0" : "") + std::to_string(day) + "T03:00:00Z";
    r.tool = "korvet-pipeline-benchmark";
    r.target = "korvet";
    ScenarioRecord s;
    s.name = "pipeline/produce/step-16";
    s.metrics = {{"records_per_s", 640000.0 + day}};
    r.scenarios.push_back(s);
    return r;
}

// What another process does: its own connection, its own transaction.
void importElsewhere(const std::string &location, int day)
{
    Store other(location);
    other.importSource({"/ci/night-" + std::to_string(day) + ".jsonl", "plimsoll-trend", "sha-" + std::to_string(day),
                        "plimsoll-trend", "1", "2026-12-01T00:00:00Z", false},
                       {nightly(day)});
}

class TeamStoreWindow : public ::testing::TestWithParam<StoreBackend>
{
protected:
    void SetUp() override
    {
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.filePath("settings"));
        importElsewhere(m_store.location(), 1);
    }
    QTemporaryDir m_settings;
    TestStoreLocation m_store{GetParam()};
};

} // namespace

TEST_P(TeamStoreWindow, RunsWrittenElsewhereShowWithoutARestart)
{
    MainWindow window(QString::fromStdString(m_store.location()));
    window.setChangePollInterval(100);
    window.show();
    window.start(false);
    auto *count = window.findChild<QLabel *>(QStringLiteral("runCountLabel"));
    ASSERT_NE(count, nullptr);
    ASSERT_TRUE(waitUntil([&] { return count->text().startsWith(QStringLiteral("1 run")); })) << count->text().toStdString();
    EXPECT_FALSE(window.accessLabel()->isVisible()) << "the writer may write: nothing to say";
    for (const char *name : {"importAction", "importUrlAction", "removeSamplesAction", "installSamplesAction"})
        EXPECT_TRUE(window.findChild<QAction *>(QString::fromLatin1(name))->isEnabled()) << name;

    QSignalSpy noticed(&window, &MainWindow::storeChangedElsewhere);
    importElsewhere(m_store.location(), 2);
    ASSERT_TRUE(waitUntil([&] { return noticed.count() >= 1; }, 10000));
    EXPECT_TRUE(waitUntil([&] { return count->text().startsWith(QStringLiteral("2 runs")); }))
        << count->text().toStdString();

    // The window's own import is its own: read once, not announced as someone else's.
    noticed.clear();
    QSignalSpy ownImport(window.storeWriter(), &StoreWriter::importFinished);
    window.importFiles({QStringLiteral(PLIMSOLL_TEST_DATA_DIR "/trend-records.jsonl")});
    ASSERT_TRUE(waitUntil([&] { return ownImport.count() == 1; }, 20000));
    QTest::qWait(500);
    EXPECT_EQ(noticed.count(), 0);
}

// The title names the store as a user knows it: a file by its name, a team store by its database
// and server (the URI's options and search path are the status bar's, in full).
TEST_P(TeamStoreWindow, TheTitleNamesTheStore)
{
    MainWindow window(QString::fromStdString(m_store.location()));
    if (GetParam() == StoreBackend::SQLite) {
        EXPECT_EQ(window.windowTitle().toStdString(), "store.db");
        return;
    }
    const auto &env = plimsoll::test::postgresEnv();
    EXPECT_EQ(window.windowTitle().toStdString(), env.at("PLIMSOLL_TEST_PG_DB") + " on " +
                                                      env.at("PLIMSOLL_TEST_PG_HOST") + ":" +
                                                      env.at("PLIMSOLL_TEST_PG_PORT"));
}

// A read-only role is a team store's (a read-only file cannot be made here: the tests run as root).
class TeamStoreReaderWindow : public TeamStoreWindow
{
};

TEST_P(TeamStoreReaderWindow, TheStatusBarSaysWhenTheStoreIsReadOnly)
{
    MainWindow window(QString::fromStdString(m_store.readerLocation()));
    window.setChangePollInterval(100);
    window.show();
    window.start(false);
    ASSERT_TRUE(waitUntil([&] { return window.accessLabel()->isVisible(); }, 10000));
    EXPECT_EQ(window.accessLabel()->text().toStdString(), "read-only for user " + TestStoreLocation::reader());
    // Nothing that writes is offered: each write action is disabled and says why, no drop is
    // taken, and the Library asks nothing about removing a run.
    const std::string why = "This store is read-only for user " + TestStoreLocation::reader() + ".";
    for (const char *name : {"importAction", "importUrlAction", "removeSamplesAction", "installSamplesAction"}) {
        const auto *action = window.findChild<QAction *>(QString::fromLatin1(name));
        ASSERT_NE(action, nullptr) << name;
        EXPECT_FALSE(action->isEnabled()) << name;
        EXPECT_EQ(action->toolTip().toStdString(), why) << name;
    }
    auto *library = window.findChild<LibraryView *>();
    ASSERT_NE(library, nullptr);
    ASSERT_TRUE(waitUntil([&] { return library->runsProxy()->rowCount() == 1; }, 10000));
    library->requestRemoval(0);
    QCoreApplication::processEvents();
    EXPECT_EQ(window.findChild<QMessageBox *>(QStringLiteral("confirmRemoveRun")), nullptr);
    // It still notices what the writer adds.
    QSignalSpy noticed(&window, &MainWindow::storeChangedElsewhere);
    importElsewhere(m_store.location(), 3);
    EXPECT_TRUE(waitUntil([&] { return noticed.count() >= 1; }, 10000));
}

INSTANTIATE_TEST_SUITE_P(Backends, TeamStoreWindow,
                         ::testing::Values(StoreBackend::SQLite, StoreBackend::PostgreSQL),
                         plimsoll::test::backendName);
INSTANTIATE_TEST_SUITE_P(Backends, TeamStoreReaderWindow, ::testing::Values(StoreBackend::PostgreSQL),
                         plimsoll::test::backendName);

TEST(TeamStoreOpen, AUriWithAPasswordIsRefusedBeforeAnyWindowKeepsIt)
{
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings"));
    MainWindow window(dir.filePath("store.db"));
    window.start(false);
    ASSERT_TRUE(waitUntil([&] { return !window.storeWriter()->isBusy(); }));
    EXPECT_EQ(window.openTeamStore(QStringLiteral("postgresql://ci:hunter2@db.example.com/plimsoll")), nullptr);
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("~/.pgpass"))) << window.banner()->text().toStdString();
    EXPECT_FALSE(window.banner()->text().contains(QStringLiteral("hunter2")));
    for (const QString &recent : MainWindow::recentStores())
        EXPECT_FALSE(recent.contains(QStringLiteral("hunter2"))) << recent.toStdString();
    EXPECT_EQ(window.openTeamStore(QStringLiteral("/tmp/a-file.db")), nullptr);
    EXPECT_TRUE(window.banner()->text().contains(QStringLiteral("not a team store's URI")));
}
