// The window's File > Export Report…: the dialog previews the PDF's pages for the Sizing
// view's inputs and saves each format from a worker; the preview is saved as a PNG.
#include "importers/samples.h"
#include "model/store/store.h"
#include "ui/mainwindow.h"
#include "ui/report/reportdialog.h"
#include "ui/backgroundpool.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
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

} // namespace
