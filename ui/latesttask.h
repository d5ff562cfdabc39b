#pragma once
// Runs one-shot background work where only the latest request matters.
//
// Threading contract: start() and the callbacks run on the thread that owns this object (the
// UI thread). `work` runs on QThreadPool::globalInstance() and must capture only values (paths,
// copies of settings) — never widgets or a Store opened on another thread. A result that
// arrives after a newer start() is dropped, so the views never flicker back to stale data.

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <type_traits>
#include <utility>

namespace plimsoll {

class LatestTask : public QObject
{
public:
    explicit LatestTask(QObject *parent = nullptr) : QObject(parent) {}

    // `apply(const T &)` receives the result of the latest request; `fail(const QString &)`
    // its exception text. Results are plain values, so no connection outlives this object.
    template <typename Work, typename Apply, typename Fail>
    void start(Work work, Apply apply, Fail fail)
    {
        using T = std::invoke_result_t<Work>;
        struct Outcome
        {
            T value{};
            QString error;
        };
        const quint64 generation = ++m_generation;
        ++m_running;
        auto *watcher = new QFutureWatcher<Outcome>(this);
        connect(watcher, &QFutureWatcherBase::finished, this,
                [this, watcher, generation, apply = std::move(apply), fail = std::move(fail)] {
                    watcher->deleteLater();
                    --m_running;
                    if (generation != m_generation)
                        return;
                    const Outcome outcome = watcher->result();
                    if (outcome.error.isEmpty())
                        apply(outcome.value);
                    else
                        fail(outcome.error);
                });
        watcher->setFuture(QtConcurrent::run([work = std::move(work)]() -> Outcome {
            try {
                return Outcome{work(), {}};
            } catch (const std::exception &e) {
                return Outcome{T{}, QString::fromUtf8(e.what())};
            }
        }));
    }

    // Makes any result still in flight stale.
    void cancel() { ++m_generation; }
    bool isRunning() const { return m_running > 0; }

private:
    quint64 m_generation = 0;
    int m_running = 0;
};

} // namespace plimsoll
