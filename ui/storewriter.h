#pragma once
// Every write the window makes to the store: the first open (schema migration, optional
// sample install), imports of files, installing and removing the sample runs, removing runs,
// naming and tagging runs. Each write ends by reading the store's change token (Store::changeToken)
// as the write left it (wrote), so the window tells its own writes from others'.
//
// Threading contract: call from the UI thread; signals are emitted on the UI thread. Each
// write runs on the window's own pool (backgroundPool(), never Qt's global one, which painting
// needs) with a Store of its own opened on the path, and the writes run one after another
// (queued), so two of them never contend for SQLite's write lock and the first open — which
// migrates a new file — finishes before anything reads.

#include "model/store/runlabels.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <QStringList>

#include <deque>
#include <functional>

namespace plimsoll {

struct ImportBatchSummary
{
    int files = 0;     // sources read, whatever their outcome
    int imported = 0;  // written to the store
    int unchanged = 0; // already present with the same bytes
    qint64 runs = 0;
    qint64 scenarios = 0;
    int warnings = 0;
    QStringList failures; // one full message per failed file, with file and line/field

    bool failed() const { return !failures.isEmpty(); }
    // "Imported 2 files: 1 run, 7 scenarios", or the failures first when there were any.
    QString message() const;
};

class StoreWriter : public QObject
{
    Q_OBJECT
public:
    explicit StoreWriter(const QString &storePath, QObject *parent = nullptr);
    ~StoreWriter() override;

    const QString &storePath() const { return m_storePath; }
    bool isBusy() const { return m_watcher != nullptr; }

    // Creates the parent directory and the store (or migrates it); installs the bundled
    // samples first when `installSamples` is set. Emits storeReady, or writeFailed.
    void prepareStore(bool installSamples);
    // Files, directories (each file its own source) or http(s) URLs; `insecure` skips TLS
    // verification of URLs, as the user chose.
    void importFiles(const QStringList &paths, bool insecure = false);
    // Two Prometheus scrapes of one target as one source and run (importers/prometheus/scrapepair.h).
    void importScrapePair(const QString &before, const QString &after);
    void removeSamples();
    // Installs the bundled sample runs again (importFinished; unchanged when they are there).
    void installSamples();
    // Removes these runs (by id) in one write; emits runsRemoved with how many were there.
    void removeRuns(const QList<qint64> &runIds);
    // Names or tags a run as `plimsoll name` and `plimsoll tag` do (applyRunLabels); emits
    // labelsWritten with the run as it now is, or writeFailed with the request's refusal.
    void setRunLabels(const RunLabelRequest &request);

signals:
    void busyChanged(bool busy);
    // Progress of the running write, value in [0, maximum].
    void progressChanged(int value, int maximum);
    void storeReady(const plimsoll::ImportBatchSummary &samples);
    void importFinished(const plimsoll::ImportBatchSummary &summary);
    void samplesRemoved(qint64 runs);
    void runsRemoved(qint64 runs);
    void labelsWritten(const plimsoll::RunSummary &run);
    void writeFailed(const QString &message);
    // After each write that got as far as the store (also a failed one, which may have written
    // some sources): the store's change token as it then was; empty when it could not be read.
    void wrote(const QString &changeToken);

private:
    struct Outcome
    {
        enum class Kind { Prepared, Imported, Removed, RemovedRuns, Labels } kind = Kind::Prepared;
        ImportBatchSummary summary;
        qint64 removed = 0;
        RunSummary labelled;
        QString error;
        QString changeToken;
    };
    using Job = std::function<Outcome(QPromise<Outcome> &)>;
    struct Queued
    {
        Outcome::Kind kind;
        Job job;
    };

    void enqueue(Outcome::Kind kind, Job job);
    void startNext();
    void finishCurrent();

    QString m_storePath;
    std::deque<Queued> m_queue;
    Outcome::Kind m_currentKind = Outcome::Kind::Prepared;
    QFutureWatcher<Outcome> *m_watcher = nullptr;
};

} // namespace plimsoll
