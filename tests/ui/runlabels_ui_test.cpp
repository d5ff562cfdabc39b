// Naming and tagging runs in the window (and a sizing saved from it, the other write a view makes): the Library's Name cell (F2) and Tags…, written off the
// UI thread through the same request as `plimsoll name` and `plimsoll tag`, shown at once in the
// Library and then in the run pickers of Compare and Scaling; a bad name is refused in the banner;
// the window's own write is never announced as one made elsewhere, a rename by another process is.
#include "importers/samples.h"
#include "model/store/runlabels.h"
#include "model/store/store.h"
#include "ui/backgroundpool.h"
#include "ui/mainwindow.h"
#include "ui/messagebanner.h"
#include "ui/models/runpickerlistmodel.h"
#include "ui/models/runsfilterproxymodel.h"
#include "ui/models/runstablemodel.h"
#include "ui/storewriter.h"
#include "ui/views/compareview.h"
#include "ui/views/libraryview.h"
#include "ui/views/rundetailpanel.h"
#include "ui/views/scalingview.h"
#include "ui/views/sizingview.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

using namespace plimsoll;
using plimsoll::test::nightlyRun;
using plimsoll::test::waitUntil;

namespace {

constexpr const char *kSampleRamp = "sample:korvet-pipeline-produce-2026-08-11";

class RunLabelsWindow : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
        m_storePath = m_dir.filePath(QStringLiteral("store.plimsoll"));
        Store store(m_storePath.toStdString());
        installSamples(store);
        std::vector<RunRecord> runs;
        for (int day = 1; day <= 3; ++day)
            runs.push_back(nightlyRun(day, "c0ffee" + std::to_string(day), 600000 + day * 1000));
        store.importSource({"test:nightly", "plimsoll-trend", "sha-nightly", "test", "1", "2026-09-07T00:00:00Z", false},
                           runs);
        m_runs = store.runCount();
    }
    void TearDown() override
    {
        m_window.reset();
        QThreadPool::globalInstance()->waitForDone();
        backgroundPool()->waitForDone();
    }

    MainWindow &openWindow()
    {
        m_window = std::make_unique<MainWindow>(m_storePath);
        m_window->resize(1280, 780);
        m_window->setChangePollInterval(100);
        m_window->show();
        m_window->start(false);
        return *m_window;
    }

    // The Library's row (of its proxy) of the run with this key, -1 when not shown.
    static int rowOf(LibraryView *library, const QString &key)
    {
        for (int row = 0; row < library->runsProxy()->rowCount(); ++row)
            if (library->runsProxy()->index(row, 0).data(RunsTableModel::RunKeyRole).toString() == key)
                return row;
        return -1;
    }
    static QString cell(LibraryView *library, const QString &key, int column)
    {
        const int row = rowOf(library, key);
        return row < 0 ? QString() : library->runsProxy()->index(row, column).data().toString();
    }

    QTemporaryDir m_dir;
    QString m_storePath;
    int64_t m_runs = 0;
    std::unique_ptr<MainWindow> m_window;
};

} // namespace

TEST_F(RunLabelsWindow, RenameAndTagInTheLibraryShowInThePickersAndAreNotAnnouncedAsElsewhere)
{
    MainWindow &window = openWindow();
    LibraryView *library = window.libraryView();
    QAbstractItemModelTester tester(library->runsModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    ASSERT_TRUE(waitUntil([&] { return library->runsModel()->rowCount() == m_runs; }));
    QSignalSpy elsewhere(&window, &MainWindow::storeChangedElsewhere);
    QSignalSpy written(window.storeWriter(), &StoreWriter::labelsWritten);
    const QString key = QStringLiteral("nightly-2026-09-02");

    // F2 on the Name cell opens its editor; Enter writes the name.
    const int row = rowOf(library, key);
    ASSERT_GE(row, 0);
    QTableView *table = library->table();
    table->setFocus();
    table->setCurrentIndex(library->runsProxy()->index(row, RunsTableModel::NameColumn));
    QTest::keyClick(table, Qt::Key_F2);
    auto *editor = table->viewport()->findChild<QLineEdit *>();
    ASSERT_NE(editor, nullptr) << "F2 opens no editor on the Name cell";
    editor->setText(QStringLiteral("before upgrade"));
    QTest::keyClick(editor, Qt::Key_Return);
    ASSERT_TRUE(written.wait(10000));
    EXPECT_EQ(cell(library, key, RunsTableModel::NameColumn), QStringLiteral("before upgrade"));
    EXPECT_EQ(window.banner()->text(), QStringLiteral("Run %1 is named “before upgrade”.").arg(key));
    EXPECT_EQ(Store(m_storePath.toStdString()).run(key.toStdString())->summary.name, "before upgrade");

    // Tags… takes the whole list, separated by spaces; the Tags column shows once a run has tags.
    EXPECT_TRUE(table->isColumnHidden(RunsTableModel::TagsColumn));
    EXPECT_FALSE(table->isColumnHidden(RunsTableModel::NameColumn));
    library->requestTags(rowOf(library, key));
    auto *tags = library->findChild<QInputDialog *>(QStringLiteral("runTagsDialog"));
    ASSERT_NE(tags, nullptr);
    tags->setTextValue(QStringLiteral("rf3 nightly"));
    tags->accept();
    ASSERT_TRUE(written.wait(10000));
    EXPECT_EQ(cell(library, key, RunsTableModel::TagsColumn), QStringLiteral("nightly rf3"));
    EXPECT_FALSE(table->isColumnHidden(RunsTableModel::TagsColumn));
    // The details heading names the run and its tags.
    library->selectRow(rowOf(library, key));
    ASSERT_TRUE(waitUntil([&] {
        return library->detailPanel()->findChild<QLabel *>(QStringLiteral("runDetailHeading"))->text() ==
               QStringLiteral("before upgrade (%1)  ·  tags: nightly rf3").arg(key);
    })) << library->detailPanel()->findChild<QLabel *>(QStringLiteral("runDetailHeading"))->text().toStdString();

    // Rename… on the sample ramp: the Scaling view's run picker names it.
    library->requestRename(rowOf(library, QString::fromLatin1(kSampleRamp)));
    auto *rename = library->findChild<QInputDialog *>(QStringLiteral("renameRunDialog"));
    ASSERT_NE(rename, nullptr);
    rename->setTextValue(QStringLiteral("produce ramp"));
    rename->accept();
    ASSERT_TRUE(written.wait(10000));

    // The window's own writes: the probe (every 100 ms here) says nothing of them.
    QTest::qWait(600);
    EXPECT_EQ(elsewhere.count(), 0);

    // The pickers name the runs by name and key.
    ASSERT_TRUE(window.showView(QStringLiteral("compare")));
    auto *compare = static_cast<CompareView *>(window.view(QStringLiteral("compare")));
    ASSERT_TRUE(waitUntil([&] { return compare->runList()->rowOfKey(key) >= 0; }));
    const QModelIndex picked = compare->runList()->index(compare->runList()->rowOfKey(key));
    EXPECT_TRUE(picked.data().toString().startsWith(QStringLiteral("before upgrade (%1)  (").arg(key)))
        << picked.data().toString().toStdString();
    ASSERT_TRUE(window.showView(QStringLiteral("scaling")));
    auto *scaling = static_cast<ScalingView *>(window.view(QStringLiteral("scaling")));
    ASSERT_TRUE(waitUntil([&] { return scaling->runCombo()->count() > 0; }));
    const int ramp = scaling->runCombo()->findData(QString::fromLatin1(kSampleRamp));
    ASSERT_GE(ramp, 0);
    EXPECT_EQ(scaling->runCombo()->itemText(ramp), QStringLiteral("produce ramp (%1)").arg(kSampleRamp));

    // An empty name removes it.
    ASSERT_TRUE(window.showView(QStringLiteral("library")));
    library->requestRename(rowOf(library, key));
    rename = library->findChild<QInputDialog *>(QStringLiteral("renameRunDialog"));
    ASSERT_NE(rename, nullptr);
    EXPECT_EQ(rename->textValue(), QStringLiteral("before upgrade")) << "the dialog starts from the name it has";
    rename->setTextValue(QString());
    rename->accept();
    ASSERT_TRUE(written.wait(10000));
    EXPECT_EQ(cell(library, key, RunsTableModel::NameColumn), QString());
    EXPECT_EQ(window.banner()->text(), QStringLiteral("Run %1 has no name now.").arg(key));
    QTest::qWait(400);
    EXPECT_EQ(elsewhere.count(), 0);
}

TEST_F(RunLabelsWindow, ABadNameIsRefusedInTheBannerAndARenameElsewhereIsNoticed)
{
    MainWindow &window = openWindow();
    LibraryView *library = window.libraryView();
    ASSERT_TRUE(waitUntil([&] { return library->runsModel()->rowCount() == m_runs; }));
    const QString key = QStringLiteral("nightly-2026-09-01");

    library->requestRename(rowOf(library, key));
    auto *rename = library->findChild<QInputDialog *>(QStringLiteral("renameRunDialog"));
    ASSERT_NE(rename, nullptr);
    rename->setTextValue(QStringLiteral("evil\u202Egnp.exe"));
    rename->accept();
    EXPECT_TRUE(window.banner()->text().startsWith(QStringLiteral("name holds the bidirectional control U+202E at "
                                                                  "character 5")))
        << window.banner()->text().toStdString();
    library->requestTags(rowOf(library, key));
    auto *tags = library->findChild<QInputDialog *>(QStringLiteral("runTagsDialog"));
    ASSERT_NE(tags, nullptr);
    tags->setTextValue(QStringLiteral("ok a,b"));
    tags->accept();
    EXPECT_TRUE(window.banner()->text().startsWith(QStringLiteral("tag 'a,b' holds a space or a comma")))
        << window.banner()->text().toStdString();
    EXPECT_EQ(Store(m_storePath.toStdString()).run(key.toStdString())->summary.name, "");

    // Another process names a run: the probe notices, and the Library shows the name.
    QSignalSpy elsewhere(&window, &MainWindow::storeChangedElsewhere);
    {
        Store other(m_storePath.toStdString());
        RunLabelRequest request;
        request.run = key.toStdString();
        request.name = "named by CI";
        applyRunLabels(other, request);
    }
    ASSERT_TRUE(waitUntil([&] { return elsewhere.count() >= 1; }, 10000));
    EXPECT_TRUE(waitUntil([&] { return cell(library, key, RunsTableModel::NameColumn) == QStringLiteral("named by CI"); }));
}

// Save sizing… writes to the store from the Sizing view: the window's own write, never announced
// as one made elsewhere (the issue saw "The store changed (written elsewhere)" after it).
TEST_F(RunLabelsWindow, ASavedSizingIsNotAnnouncedAsAWriteElsewhere)
{
    MainWindow &window = openWindow();
    ASSERT_TRUE(waitUntil([&] { return window.libraryView()->runsModel()->rowCount() == m_runs; }));
    ASSERT_TRUE(window.showView(QStringLiteral("sizing")));
    auto *sizing = static_cast<SizingView *>(window.view(QStringLiteral("sizing")));
    ASSERT_TRUE(waitUntil([&] { return sizing->modelsReady() && sizing->result().ok; }));
    QTest::qWait(300); // a probe of the store as it was before
    QSignalSpy elsewhere(&window, &MainWindow::storeChangedElsewhere);
    auto *save = sizing->findChild<QPushButton *>(QStringLiteral("saveSizingButton"));
    ASSERT_NE(save, nullptr);
    save->click();
    auto *ask = sizing->findChild<QInputDialog *>(QStringLiteral("saveSizingName"));
    ASSERT_NE(ask, nullptr);
    ask->setTextValue(QStringLiteral("own write"));
    ask->accept();
    auto *status = sizing->findChild<QLabel *>(QStringLiteral("savedSizingStatus"));
    ASSERT_NE(status, nullptr);
    ASSERT_TRUE(waitUntil([&] { return status->text() == QStringLiteral("Saved “own write” in the store."); }))
        << status->text().toStdString();
    QTest::qWait(600); // several probes (every 100 ms here)
    EXPECT_EQ(elsewhere.count(), 0);
}
