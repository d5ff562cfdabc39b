// File > Import… shows what each source will become before anything is written; Import then
// commits only the readable ones.
#include "importers/samples.h"
#include "model/store.h"
#include "ui/importpreviewdialog.h"
#include "ui/mainwindow.h"
#include "ui/messagebanner.h"
#include "ui/models/runstablemodel.h"
#include "ui/views/libraryview.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QThreadPool>

using namespace plimsoll;
using plimsoll::test::waitUntil;

namespace {

const char kTrend[] =
    R"({"format":"plimsoll-trend/1","run_key":"night-1","timestamp":"2026-08-11T03:00:00Z","scenario":"p/step-1","metrics":{"records_per_s":74506}}
{"format":"plimsoll-trend/1","run_key":"night-2","timestamp":"2026-08-12T03:00:00Z","scenario":"p/step-1","metrics":{"records_per_s":75001},"note":"x"}
)";

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    QFile f(dir.filePath(name));
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(bytes);
    return f.fileName();
}

int64_t runCount(const QString &path)
{
    Store store(path.toStdString());
    return store.runCount();
}

} // namespace

TEST(ImportPreview, ShowsWhatEachSourceBecomesAndImportsOnlyTheReadable)
{
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings"));
    const QString storePath = dir.filePath("store.db");
    {
        Store store(storePath.toStdString());
        installSamples(store);
    }
    const int64_t before = runCount(storePath);
    const QString good = writeFile(dir, "nightly.jsonl", kTrend);
    const QString broken = writeFile(dir, "broken.json", "{\"korvetVersion\": \"1\", \"timestamp\": 5}");

    {
        MainWindow window(storePath);
        window.resize(1200, 760);
        window.show();
        window.start(false);
        ASSERT_TRUE(waitUntil([&] { return window.libraryView()->runsModel()->rowCount() == before; }));

        ImportPreviewDialog *dialog = nullptr;
        QObject::connect(&window, &MainWindow::importPreviewOpened,
                         [&](ImportPreviewDialog *d) { dialog = d; });
        window.previewAndImport({good, broken});
        ASSERT_NE(dialog, nullptr);
        ASSERT_TRUE(waitUntil([&] { return dialog->previewReady(); }));

        auto *table = dialog->findChild<QTableWidget *>(QStringLiteral("previewTable"));
        ASSERT_EQ(table->rowCount(), 2);
        // Row order follows the sources as chosen.
        EXPECT_EQ(table->item(0, 1)->text(), "plimsoll-trend");
        EXPECT_EQ(table->item(0, 3)->data(Qt::DisplayRole).toLongLong(), 2); // runs
        EXPECT_EQ(table->item(0, 6)->data(Qt::DisplayRole).toLongLong(), 1); // the "note" warning
        EXPECT_EQ(table->item(1, 2)->text(), "cannot be read");
        EXPECT_TRUE(table->item(1, 2)->toolTip().contains("timestamp")) << table->item(1, 2)->toolTip().toStdString();
        EXPECT_EQ(dialog->importableSources(), QStringList{good});
        EXPECT_TRUE(dialog->findChild<QPushButton *>(QStringLiteral("importButton"))->isEnabled());
        // The preview wrote nothing.
        EXPECT_EQ(runCount(storePath), before);

        dialog->resize(900, 420);
        QDir().mkpath(QStringLiteral(PLIMSOLL_ARTIFACT_DIR));
        EXPECT_TRUE(dialog->grab().save(QStringLiteral(PLIMSOLL_ARTIFACT_DIR "/import-preview.png")));

        dialog->accept();
        ASSERT_TRUE(waitUntil([&] { return window.libraryView()->runsModel()->rowCount() == before + 2; }))
            << window.libraryView()->runsModel()->rowCount();
        EXPECT_TRUE(window.banner()->findChild<QLabel *>() != nullptr);
    }
    QThreadPool::globalInstance()->waitForDone();
    EXPECT_EQ(runCount(storePath), before + 2);
}

TEST(ImportPreview, NothingReadableMeansNothingToImport)
{
    QTemporaryDir dir;
    const QString storePath = dir.filePath("store.db");
    const QString notes = writeFile(dir, "notes.txt", "just some notes\n");
    ImportPreviewDialog dialog(storePath, {notes}, false);
    ASSERT_TRUE(waitUntil([&] { return dialog.previewReady(); }));
    EXPECT_TRUE(dialog.importableSources().isEmpty());
    EXPECT_FALSE(dialog.findChild<QPushButton *>(QStringLiteral("importButton"))->isEnabled());
    EXPECT_TRUE(dialog.findChild<QLabel *>(QStringLiteral("previewStatus"))->text().contains("cannot be read"));
    QThreadPool::globalInstance()->waitForDone();
}
