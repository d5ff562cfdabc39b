#pragma once
// The thread pool the window's background work runs on: store reads, fits, reports.
//
// Not QThreadPool::globalInstance(): Qt's raster paint engine splits large fills into pieces it
// runs on the global pool, and the UI thread waits for them (Qt 6.4). With one pool thread per
// core, two long reads of a large store there left no thread to paint with, and the window's
// first frame waited minutes for them. Work on this pool never holds up a paint.
//
// Threading contract: start work here only with values (see LatestTask); wait for it with
// backgroundPool()->waitForDone() before removing files it may still read.

#include <QThreadPool>

#include <memory>
#include <utility>

namespace plimsoll {

QThreadPool *backgroundPool();

// Drops `data` on the pool: the last reference to a view's previous result (a million points of
// a trend) is freed there, not on the UI thread that replaced it.
template <typename T> void releaseInBackground(std::shared_ptr<T> data)
{
    if (data && data.use_count() == 1)
        backgroundPool()->start([data = std::move(data)]() mutable { data.reset(); });
}

} // namespace plimsoll
