#include "ui/backgroundpool.h"

#include <QThread>

#include <algorithm>

namespace plimsoll {

QThreadPool *backgroundPool()
{
    // At least two threads, so a short read (a page of the Library, a run's detail) never waits
    // behind a long one on a two-core machine. Destroyed after main(), waiting for what runs.
    static QThreadPool *const pool = [] {
        static QThreadPool instance;
        instance.setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
        return &instance;
    }();
    return pool;
}

} // namespace plimsoll
