#include "ui/storewriter.h"

#include "importers/importservice.h"
#include "importers/samples.h"
#include "importers/prometheus/scrapepairimport.h"
#include "model/store/store.h"
#include "ui/backgroundpool.h"

#include <QDir>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <exception>

namespace plimsoll {

namespace {

// Progress resolution per file: fine enough for a smooth bar, coarse enough to keep the
// number of queued progress notifications small on large files.
constexpr int kStepsPerFile = 1000;

QString plural(qint64 n, const char *one, const char *many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

void addReport(ImportBatchSummary &summary, const SourceReport &report)
{
    ++summary.files;
    summary.warnings += static_cast<int>(report.warnings.size());
    if (report.status == "failed") {
        QString text = QString::fromStdString(report.errorText);
        if (text.isEmpty() && report.error)
            text = QString::fromStdString(report.error->describe(report.uri));
        if (!text.startsWith(QLatin1String("Failed"), Qt::CaseInsensitive))
            text = QStringLiteral("Failed to import %1").arg(text);
        summary.failures << text;
        return;
    }
    if (report.status == "unchanged")
        ++summary.unchanged;
    else
        ++summary.imported;
    summary.runs += report.runs;
    summary.scenarios += report.scenarios;
}

} // namespace

QString ImportBatchSummary::message() const
{
    const int read = imported + unchanged;
    QString done;
    if (read > 0) {
        done = QStringLiteral("Imported %1: %2, %3")
                   .arg(plural(read, "file", "files"), plural(runs, "run", "runs"),
                        plural(scenarios, "scenario", "scenarios"));
        if (unchanged > 0)
            done += QStringLiteral(" (%1 already in the store)")
                        .arg(plural(unchanged, "file was", "files were"));
        if (warnings > 0)
            done += QStringLiteral(", %1").arg(plural(warnings, "warning", "warnings"));
    }
    if (failures.isEmpty())
        return done.isEmpty() ? QStringLiteral("Nothing to import") : done;
    QString text = failures.join(QLatin1Char('\n'));
    if (!done.isEmpty())
        text += QLatin1Char('\n') + done;
    return text;
}

StoreWriter::StoreWriter(const QString &storePath, QObject *parent)
    : QObject(parent), m_storePath(storePath)
{
}

StoreWriter::~StoreWriter()
{
    // A running write finishes on its own (it holds only copies); nobody is left to notify.
    m_queue.clear();
    if (m_watcher)
        m_watcher->disconnect(this);
}

void StoreWriter::prepareStore(bool installSamples)
{
    const std::string path = m_storePath.toStdString();
    enqueue(Outcome::Kind::Prepared, [path, installSamples](QPromise<Outcome> &) {
        Outcome outcome;
        outcome.kind = Outcome::Kind::Prepared;
        QDir().mkpath(QFileInfo(QString::fromStdString(path)).absolutePath());
        Store store(path);
        if (installSamples) {
            for (const SourceReport &report : plimsoll::installSamples(store))
                addReport(outcome.summary, report);
        }
        return outcome;
    });
}

void StoreWriter::importFiles(const QStringList &paths, bool insecure)
{
    if (paths.isEmpty())
        return;
    const std::string path = m_storePath.toStdString();
    enqueue(Outcome::Kind::Imported, [path, paths, insecure](QPromise<Outcome> &promise) {
        Outcome outcome;
        outcome.kind = Outcome::Kind::Imported;
        promise.setProgressRange(0, static_cast<int>(paths.size()) * kStepsPerFile);
        Store store(path);
        ImportService service(store);
        for (int i = 0; i < paths.size(); ++i) {
            const int base = i * kStepsPerFile;
            promise.setProgressValue(base);
            const Progress progress = [&promise, base](int64_t done, int64_t total) {
                if (total > 0) {
                    const auto step = static_cast<int>(done * kStepsPerFile / total);
                    promise.setProgressValue(base + std::clamp(step, 0, kStepsPerFile));
                }
                return !promise.isCanceled();
            };
            ImportRequest request;
            request.path = paths[i].toStdString();
            request.insecure = insecure;
            try {
                for (const SourceReport &report : service.importPath(request, progress))
                    addReport(outcome.summary, report);
            } catch (const std::exception &e) {
                // The service reports parse errors itself; this is the store refusing the
                // write (e.g. a run key taken by another source), still this file's failure.
                ++outcome.summary.files;
                outcome.summary.failures << QStringLiteral("Failed to import %1: %2")
                                                .arg(QFileInfo(paths[i]).fileName(),
                                                     QString::fromUtf8(e.what()));
            }
        }
        promise.setProgressValue(static_cast<int>(paths.size()) * kStepsPerFile);
        return outcome;
    });
}

void StoreWriter::installSamples()
{
    const std::string path = m_storePath.toStdString();
    enqueue(Outcome::Kind::Imported, [path](QPromise<Outcome> &) {
        Outcome outcome;
        outcome.kind = Outcome::Kind::Imported;
        Store store(path);
        for (const SourceReport &report : plimsoll::installSamples(store))
            addReport(outcome.summary, report);
        return outcome;
    });
}

void StoreWriter::removeRuns(const QList<qint64> &runIds)
{
    const std::string path = m_storePath.toStdString();
    enqueue(Outcome::Kind::RemovedRuns, [path, runIds](QPromise<Outcome> &) {
        Outcome outcome;
        outcome.kind = Outcome::Kind::RemovedRuns;
        Store store(path);
        for (const qint64 id : runIds)
            outcome.removed += store.removeRun(std::to_string(id));
        return outcome;
    });
}

void StoreWriter::setRunLabels(const RunLabelRequest &request)
{
    const std::string path = m_storePath.toStdString();
    enqueue(Outcome::Kind::Labels, [path, request](QPromise<Outcome> &) {
        Outcome outcome;
        outcome.kind = Outcome::Kind::Labels;
        Store store(path);
        outcome.labelled = applyRunLabels(store, request).run;
        return outcome;
    });
}

void StoreWriter::importScrapePair(const QString &before, const QString &after)
{
    const std::string path = m_storePath.toStdString();
    ScrapePairRequest request;
    request.before = before.toStdString();
    request.after = after.toStdString();
    enqueue(Outcome::Kind::Imported, [path, request](QPromise<Outcome> &promise) {
        Outcome outcome;
        outcome.kind = Outcome::Kind::Imported;
        promise.setProgressRange(0, 2);
        Store store(path);
        ImportService service(store);
        const Progress progress = [&promise](int64_t done, int64_t) {
            promise.setProgressValue(static_cast<int>(done));
            return !promise.isCanceled();
        };
        try {
            addReport(outcome.summary,
                      plimsoll::importScrapePair(service, request, progress).report);
        } catch (const std::exception &e) {
            ++outcome.summary.files;
            outcome.summary.failures << QStringLiteral("Failed to import %1 + %2: %3")
                                            .arg(QString::fromStdString(request.before),
                                                 QString::fromStdString(request.after),
                                                 QString::fromUtf8(e.what()));
        }
        return outcome;
    });
}

void StoreWriter::removeSamples()
{
    const std::string path = m_storePath.toStdString();
    enqueue(Outcome::Kind::Removed, [path](QPromise<Outcome> &) {
        Outcome outcome;
        outcome.kind = Outcome::Kind::Removed;
        Store store(path);
        outcome.removed = store.removeSamples();
        return outcome;
    });
}

void StoreWriter::enqueue(Outcome::Kind kind, Job job)
{
    m_queue.push_back({kind, std::move(job)});
    if (!m_watcher)
        startNext();
}

void StoreWriter::startNext()
{
    if (m_queue.empty())
        return;
    Job job = std::move(m_queue.front().job);
    m_currentKind = m_queue.front().kind;
    m_queue.pop_front();

    auto *watcher = new QFutureWatcher<Outcome>(this);
    m_watcher = watcher;
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this, watcher](int value) {
        emit progressChanged(value - watcher->progressMinimum(),
                             watcher->progressMaximum() - watcher->progressMinimum());
    });
    connect(m_watcher, &QFutureWatcherBase::finished, this, &StoreWriter::finishCurrent);
    // On the window's own pool: an import of a large file or a slow URL on Qt's global pool would
    // hold the threads the raster engine paints with (ui/backgroundpool.h).
    m_watcher->setFuture(QtConcurrent::run(
        backgroundPool(),
        [path = m_storePath.toStdString()](QPromise<Outcome> &promise, const Job &work) {
            Outcome outcome;
            try {
                outcome = work(promise);
            } catch (const std::exception &e) {
                outcome.error = QString::fromUtf8(e.what());
            }
            // The store as this write left it: what the window's probe compares with next.
            try {
                outcome.changeToken = QString::fromStdString(Store(path).changeToken());
            } catch (const std::exception &) {
                outcome.changeToken.clear(); // the next probe takes the store as it is then
            }
            promise.addResult(std::move(outcome));
        },
        std::move(job)));
    emit busyChanged(true);
}

void StoreWriter::finishCurrent()
{
    QFutureWatcher<Outcome> *watcher = m_watcher;
    m_watcher = nullptr;
    watcher->deleteLater();
    const Outcome outcome = watcher->future().resultCount() > 0 ? watcher->result() : Outcome{};

    if (!outcome.error.isEmpty()) {
        switch (m_currentKind) {
        case Outcome::Kind::Prepared:
            emit writeFailed(tr("Cannot open the store: %1").arg(outcome.error));
            break;
        case Outcome::Kind::Imported:
            emit writeFailed(tr("Failed to import: %1").arg(outcome.error));
            break;
        case Outcome::Kind::Removed:
            emit writeFailed(tr("Failed to remove the sample runs: %1").arg(outcome.error));
            break;
        case Outcome::Kind::RemovedRuns:
            emit writeFailed(tr("Failed to remove the runs: %1").arg(outcome.error));
            break;
        case Outcome::Kind::Labels:
            emit writeFailed(tr("Cannot name or tag the run: %1").arg(outcome.error));
            break;
        }
    } else {
        switch (outcome.kind) {
        case Outcome::Kind::Prepared:
            emit storeReady(outcome.summary);
            break;
        case Outcome::Kind::Imported:
            emit importFinished(outcome.summary);
            break;
        case Outcome::Kind::Removed:
            emit samplesRemoved(outcome.removed);
            break;
        case Outcome::Kind::RemovedRuns:
            emit runsRemoved(outcome.removed);
            break;
        case Outcome::Kind::Labels:
            emit labelsWritten(outcome.labelled);
            break;
        }
    }
    emit wrote(outcome.changeToken);
    if (m_queue.empty())
        emit busyChanged(false);
    else
        startNext();
}

} // namespace plimsoll
