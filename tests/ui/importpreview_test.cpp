// File > Import… shows what each source will become before anything is written; Import then
// commits only the readable ones.
#include "importers/samples.h"
#include "model/store/store.h"
#include "ui/backgroundpool.h"
#include "ui/importpreviewdialog.h"
#include "ui/mainwindow.h"
#include "ui/messagebanner.h"
#include "ui/storewriter.h"
#include "ui/models/runstablemodel.h"
#include "ui/views/libraryview.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QSignalSpy>
#include <QThreadPool>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

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

// A harness's `date` line, then a broker's /metrics: before and after a 20 s workload.
const char kScrapeBefore[] = "2026-08-11 03:00:00\n"
                             "# TYPE korvet_records_produced_total counter\n"
                             "korvet_records_produced_total 1000\n"
                             "# TYPE korvet_broker_produce_seconds histogram\n"
                             "korvet_broker_produce_seconds_bucket{le=\"0.01\"} 10\n"
                             "korvet_broker_produce_seconds_bucket{le=\"0.1\"} 10\n"
                             "korvet_broker_produce_seconds_bucket{le=\"+Inf\"} 10\n"
                             "korvet_broker_produce_seconds_sum 0.05\n"
                             "korvet_broker_produce_seconds_count 10\n";
const char kScrapeAfter[] = "2026-08-11 03:00:20\n"
                            "# TYPE korvet_records_produced_total counter\n"
                            "korvet_records_produced_total 401000\n"
                            "# TYPE korvet_broker_produce_seconds histogram\n"
                            "korvet_broker_produce_seconds_bucket{le=\"0.01\"} 90\n"
                            "korvet_broker_produce_seconds_bucket{le=\"0.1\"} 110\n"
                            "korvet_broker_produce_seconds_bucket{le=\"+Inf\"} 110\n"
                            "korvet_broker_produce_seconds_sum 1.05\n"
                            "korvet_broker_produce_seconds_count 110\n";

int64_t runCount(const QString &path)
{
    Store store(path.toStdString());
    return store.runCount();
}

// An HTTP server on loopback that never answers: a connection waits in its backlog (the kernel
// completes it; nobody accepts), so a fetch of its URL hangs until the server closes, and a
// request has reached it when the listening socket turns readable.
class SilentServer
{
public:
    SilentServer()
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof addr;
        EXPECT_EQ(::bind(m_fd, reinterpret_cast<sockaddr *>(&addr), len), 0);
        EXPECT_EQ(::listen(m_fd, 4), 0);
        EXPECT_EQ(::getsockname(m_fd, reinterpret_cast<sockaddr *>(&addr), &len), 0);
        m_port = ntohs(addr.sin_port);
    }
    ~SilentServer() { close(); }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1/runs.jsonl").arg(m_port); }
    bool requested() const
    {
        pollfd p{m_fd, POLLIN, 0};
        return m_fd >= 0 && ::poll(&p, 1, 0) > 0;
    }
    // Resets every waiting connection: the fetch fails at once.
    void close()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }

private:
    int m_fd = -1;
    int m_port = 0;
};

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

TEST(ImportPreview, TwoScrapesChosenTogetherAreOfferedAsOneInterval)
{
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings"));
    const QString storePath = dir.filePath("store.db");
    // Chosen in the wrong order (file dialogs sort by name): the scrapes' times put them right.
    const QString after = writeFile(dir, "a-after.prom", kScrapeAfter);
    const QString before = writeFile(dir, "b-before.prom", kScrapeBefore);
    {
        MainWindow window(storePath);
        window.show();
        window.start(false);
        ImportPreviewDialog *dialog = nullptr;
        QObject::connect(&window, &MainWindow::importPreviewOpened,
                         [&](ImportPreviewDialog *d) { dialog = d; });
        window.previewAndImport({after, before});
        ASSERT_NE(dialog, nullptr);
        ASSERT_TRUE(waitUntil([&] { return dialog->previewReady(); }));

        auto *pair = dialog->findChild<QCheckBox *>(QStringLiteral("pairScrapes"));
        ASSERT_NE(pair, nullptr);
        EXPECT_TRUE(dialog->pairOffered());
        EXPECT_TRUE(pair->isChecked());
        EXPECT_TRUE(pair->text().contains("b-before.prom (before)")) << pair->text().toStdString();
        auto *table = dialog->findChild<QTableWidget *>(QStringLiteral("previewTable"));
        ASSERT_EQ(table->rowCount(), 1);
        EXPECT_EQ(table->item(0, 0)->text(), before + " + " + after);
        EXPECT_EQ(table->item(0, 2)->text(), "ready");
        EXPECT_EQ(table->item(0, 3)->data(Qt::DisplayRole).toLongLong(), 1);
        EXPECT_TRUE(dialog->findChild<QPlainTextEdit *>(QStringLiteral("previewDetails"))
                        ->toPlainText()
                        .contains("Interval 20 s, from the scrape times"));
        ASSERT_TRUE(dialog->pairedScrapes());
        EXPECT_EQ(dialog->pairedScrapes()->first, before);

        // Unpaired, they are two snapshots again.
        pair->setChecked(false);
        EXPECT_EQ(table->rowCount(), 2);
        EXPECT_FALSE(dialog->pairedScrapes());
        EXPECT_EQ(dialog->importableSources().size(), 2);
        pair->setChecked(true);
        EXPECT_EQ(runCount(storePath), 0);

        dialog->accept();
        ASSERT_TRUE(waitUntil([&] { return window.libraryView()->runsModel()->rowCount() == 1; }));
    }
    QThreadPool::globalInstance()->waitForDone();
    Store store(storePath.toStdString());
    const auto runs = store.runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].sourceUri, (before + " + " + after).toStdString());
    const auto detail = store.run(runs[0].runKey);
    ASSERT_TRUE(detail);
    const ScenarioRecord &w = detail->record.scenarios.at(0);
    EXPECT_DOUBLE_EQ(*w.metric("prom.korvet_records_produced_total.rate_per_s"), 400000.0 / 20);
    // 100 requests in the interval, 80 <= 10 ms, 20 in (10, 100] ms: p99 at rank 99 is 19 of 20.
    EXPECT_DOUBLE_EQ(*w.metric("latency_p99_s"), 0.01 + 0.09 * (19.0 / 20));
}

// A preview or an import waiting on a slow URL waits on the window's own pool: Qt's global pool,
// whose threads the raster engine paints large areas with, stays free, so the window keeps
// painting while it waits.
TEST(ImportPreview, ASlowUrlLeavesQtsGlobalPoolToPainting)
{
    QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.filePath("settings"));
    const QString storePath = dir.filePath("store.db");
    MainWindow window(storePath);
    window.show();
    window.start(false);
    ASSERT_TRUE(waitUntil([&] { return !window.storeWriter()->isBusy(); }));

    SilentServer preview;
    ImportPreviewDialog *dialog = nullptr;
    QObject::connect(&window, &MainWindow::importPreviewOpened, [&](ImportPreviewDialog *d) { dialog = d; });
    window.previewAndImport({preview.url()});
    ASSERT_NE(dialog, nullptr);
    ASSERT_TRUE(waitUntil([&] { return preview.requested(); }));
    // Painting may hold a global thread for a moment; the wait must not: the global pool goes idle
    // while the preview still waits.
    EXPECT_TRUE(waitUntil([] { return QThreadPool::globalInstance()->activeThreadCount() == 0; }));
    EXPECT_FALSE(dialog->previewReady());
    EXPECT_GE(backgroundPool()->activeThreadCount(), 1);
    EXPECT_FALSE(window.grab().isNull());
    preview.close();
    ASSERT_TRUE(waitUntil([&] { return dialog->previewReady(); }));
    EXPECT_TRUE(dialog->importableSources().isEmpty());
    dialog->reject();

    SilentServer import;
    QSignalSpy finished(window.storeWriter(), &StoreWriter::importFinished);
    QSignalSpy failed(window.storeWriter(), &StoreWriter::writeFailed);
    window.storeWriter()->importFiles({import.url()});
    ASSERT_TRUE(waitUntil([&] { return import.requested(); }));
    EXPECT_TRUE(window.storeWriter()->isBusy());
    EXPECT_EQ(QThreadPool::globalInstance()->activeThreadCount(), 0);
    EXPECT_GE(backgroundPool()->activeThreadCount(), 1);
    import.close();
    ASSERT_TRUE(waitUntil([&] { return finished.count() + failed.count() > 0; }));
    if (finished.count() > 0) {
        EXPECT_TRUE(finished.front().front().value<ImportBatchSummary>().failed());
    }
    backgroundPool()->waitForDone();
}
