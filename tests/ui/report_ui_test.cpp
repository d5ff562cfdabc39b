// The window's File > Export Report…: the dialog previews the PDF's pages for the Sizing
// view's inputs and saves each format from a worker; the preview is saved as a PNG.
#include "importers/importservice.h"
#include "importers/samples.h"
#include "model/store/store.h"
#include "ui/mainwindow.h"
#include "ui/report/reportdialog.h"
#include "ui/views/sizingview.h"
#include "ui/backgroundpool.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QComboBox>
#include <QLabel>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThreadPool>

#include <memory>

namespace {

using namespace plimsoll;
using plimsoll::test::waitUntil;

class ReportUiTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_storePath = m_dir.filePath(QStringLiteral("store.db"));
        Store store(m_storePath.toStdString());
        installSamples(store);
    }
    void TearDown() override
    {
        QThreadPool::globalInstance()->waitForDone();
        backgroundPool()->waitForDone();
    }

    QTemporaryDir m_dir;
    QString m_storePath;
};

TEST_F(ReportUiTest, ExportReportActionPreviewsAndSavesEveryFormat)
{
    MainWindow window(m_storePath);
    window.resize(1280, 780);
    window.show();
    window.start(false);
    auto *action = window.findChild<QAction *>(QStringLiteral("exportReportAction"));
    ASSERT_NE(action, nullptr);
    action->trigger();
    ReportDialog *dialog = nullptr;
    ASSERT_TRUE(waitUntil([&] { return (dialog = window.findChild<ReportDialog *>()) != nullptr; }));
    ASSERT_TRUE(waitUntil([&] { return dialog->ready() && dialog->pageCount() > 0; }, 60000))
        << dialog->statusLabel()->text().toStdString();
    EXPECT_GE(dialog->pageCount(), 3);
    EXPECT_TRUE(dialog->statusLabel()->text().contains(QStringLiteral("brokers")));
    dialog->resize(900, 1000);
    QTest::qWait(200); // let the new page labels lay out before the grab
    QDir().mkpath(QStringLiteral(PLIMSOLL_ARTIFACT_DIR));
    dialog->grab().save(QStringLiteral(PLIMSOLL_ARTIFACT_DIR "/report-dialog.png"));

    for (const char *name : {"pdf", "html", "md"}) {
        const QString format = QString::fromLatin1(name);
        QSignalSpy saved(dialog, &ReportDialog::saved);
        const QString path = m_dir.filePath(QStringLiteral("r.") + format);
        dialog->saveTo(path, format);
        ASSERT_TRUE(saved.wait(30000)) << format.toStdString();
        EXPECT_TRUE(saved.first().at(1).toBool()) << saved.first().at(2).toString().toStdString();
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        if (format == QLatin1String("pdf"))
            EXPECT_TRUE(bytes.startsWith("%PDF-"));
        else
            EXPECT_TRUE(bytes.contains("Korvet brokers"));
    }
    dialog->close();
}

// A store with the sample runs and one nightly ramp of one's own without CPU (the case):
// the Sizing view sizes, and File ▸ Export Report previews the same sizing from the same runs —
// the view's selection, shown above the preview and changeable there with the same controls.
TEST_F(ReportUiTest, TheReportRendersTheSizingTheViewShowsFromTheViewsRuns)
{
    {
        Store store(m_storePath.toStdString());
        ImportRequest request;
        request.path = PLIMSOLL_TEST_DATA_DIR "/trend-records.jsonl";
        const SourceReport r = ImportService(store).importFile(request);
        ASSERT_NE(r.status, "failed") << r.errorText;
    }
    MainWindow window(m_storePath);
    window.resize(1280, 780);
    window.show();
    window.start(false);
    ASSERT_TRUE(window.showView(QStringLiteral("sizing")));
    auto *view = qobject_cast<SizingView *>(window.view(QStringLiteral("sizing")));
    ASSERT_NE(view, nullptr);
    ASSERT_TRUE(waitUntil([&] { return view->modelsReady() && view->result().ok; }, 60000));
    EXPECT_EQ(view->resultEvidence(QStringLiteral("shards")), QStringLiteral("samples"));

    window.findChild<QAction *>(QStringLiteral("exportReportAction"))->trigger();
    ReportDialog *dialog = nullptr;
    ASSERT_TRUE(waitUntil([&] { return (dialog = window.findChild<ReportDialog *>()) != nullptr; }));
    ASSERT_TRUE(waitUntil([&] { return dialog->ready() && dialog->pageCount() > 0; }, 60000))
        << dialog->statusLabel()->text().toStdString();
    ASSERT_TRUE(dialog->data()->ok) << dialog->data()->error;
    EXPECT_EQ(dialog->evidenceSelection(), view->evidenceSelection());
    EXPECT_TRUE(dialog->evidenceLabel()->text().contains(QStringLiteral("replace the 6 sample runs")))
        << dialog->evidenceLabel()->text().toStdString();
    const SizingResult &shown = view->result(), &reported = dialog->data()->sizing;
    ASSERT_EQ(shown.lines.size(), reported.lines.size());
    for (size_t i = 0; i < shown.lines.size(); ++i) {
        EXPECT_EQ(shown.lines[i].display, reported.lines[i].display) << shown.lines[i].key;
        EXPECT_EQ(shown.lines[i].evidence, reported.lines[i].evidence) << shown.lines[i].key;
    }
    EXPECT_DOUBLE_EQ(dialog->data()->memory.provisionBytes, shown.memoryTotalBytes);
    const QByteArray md = dialog->render(QStringLiteral("md"));
    EXPECT_TRUE(md.contains("| Redis shards | " + QByteArray::number(shown.shards) + " | samples |")) << md.toStdString();
    dialog->resize(1024, 700);
    QTest::qWait(200);
    dialog->grab().save(QStringLiteral(PLIMSOLL_ARTIFACT_DIR "/report-dialog-evidence-1024x700.png"));

    // Leaving the samples out there leaves the own ramp alone, which has no CPU: the report says
    // why it cannot size, and the choice is the dialog's own (the view keeps auto).
    dialog->samplesCombo()->setCurrentIndex(dialog->samplesCombo()->findData(int(SampleRuns::Exclude)));
    ASSERT_TRUE(waitUntil([&] { return dialog->ready(); }, 60000));
    EXPECT_FALSE(dialog->data()->ok);
    EXPECT_TRUE(dialog->evidenceLabel()->text().contains(QStringLiteral("sample runs left out")))
        << dialog->evidenceLabel()->text().toStdString();
    EXPECT_EQ(view->evidenceSelection().samples, SampleRuns::Auto);
    dialog->close();
}

} // namespace
