#pragma once
// Runs one-shot background work where only the latest request matters.
//
// Threading contract: start() and the callbacks run on the thread that owns this object (the
// UI thread). `work` runs on backgroundPool() (never the global pool, which painting needs) and
// must capture only values (paths, copies of settings) — never widgets or a Store opened on
// another thread. A result that
// arrives after a newer start() is dropped, so the views never flicker back to stale data.

#include "ui/backgroundpool.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <exception>
#include <memory>
#include <type_traits>
#include <utility>

namespace plimsoll {

class LatestTask : public QObject
{
public:
    explicit LatestTask(QObject *parent = nullptr) : QObject(parent) {}

    // Tells a running work whether a newer request (or cancel()) made its result stale. Long
    // work takes one (`work(const Staleness &)`) and gives up early when it turns true — by
    // throwing, say: a stale outcome, result or failure, is dropped unseen. Any thread may ask.
    class Staleness
    {
    public:
        bool operator()() const
        {
            return m_latest->load(std::memory_order_relaxed) != m_generation;
        }

    private:
        friend class LatestTask;
        Staleness(std::shared_ptr<const std::atomic<quint64>> latest, quint64 generation)
            : m_latest(std::move(latest)), m_generation(generation)
        {
        }
        std::shared_ptr<const std::atomic<quint64>> m_latest;
        quint64 m_generation;
    };

    // `apply(const T &)` receives the result of the latest request; `fail(const QString &)`
    // its exception text. Results are plain values, so no connection outlives this object.
    template <typename Work, typename Apply, typename Fail>
    void start(Work work, Apply apply, Fail fail)
    {
        using T = decltype(call(work, std::declval<const Staleness &>()));
        struct Outcome
        {
            T value{};
            QString error;
        };
        const quint64 generation = ++*m_latest;
        ++m_running;
        auto *watcher = new QFutureWatcher<Outcome>(this);
        connect(watcher, &QFutureWatcherBase::finished, this,
                [this, watcher, generation, apply = std::move(apply), fail = std::move(fail)] {
                    watcher->deleteLater();
                    --m_running;
                    if (generation != m_latest->load())
                        return;
                    const Outcome outcome = watcher->result();
                    if (outcome.error.isEmpty())
                        apply(outcome.value);
                    else
                        fail(outcome.error);
                });
        auto run = [work = std::move(work),
                    stale = Staleness(m_latest, generation)]() mutable -> Outcome {
            try {
                return Outcome{call(work, stale), {}};
            } catch (const std::exception &e) {
                return Outcome{T{}, QString::fromUtf8(e.what())};
            }
        };
        watcher->setFuture(QtConcurrent::run(backgroundPool(), std::move(run)));
    }

    // Makes any result still in flight stale.
    void cancel() { ++*m_latest; }
    bool isRunning() const { return m_running > 0; }

private:
    template <typename Work> static auto call(Work &work, const Staleness &stale)
    {
        if constexpr (std::is_invocable_v<Work &, const Staleness &>)
            return work(stale);
        else
            return work();
    }

    // The latest request's generation, shared with the work in flight (see Staleness).
    std::shared_ptr<std::atomic<quint64>> m_latest = std::make_shared<std::atomic<quint64>>(0);
    int m_running = 0;
};

} // namespace plimsoll
