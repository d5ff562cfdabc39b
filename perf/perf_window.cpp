// The window on a large store, under the offscreen platform: cold start to first paint (the
// first frame painted and flushed, not merely begun), the Library's first rows, the Trends view
// filled from it, the trend chart's redraw with every record of one metric in its series (drawn
// downsampled: whether the series' minimum and maximum are among the drawn points is checked),
// and the longest stall of the UI thread meanwhile. Then every other view in turn, as a user
// opens it from the sidebar: its first useful frame (painted with what it read, not a "Loading"
// or empty state) from the moment it was chosen, and the longest UI-thread stall meanwhile.
//
//   perf_window STORE OUT.json [PNG]   writes one JSON object (rewritten after each milestone,
//                                      so a view that freezes still leaves what was measured)
#include "perf/perfdata.h"
#include "ui/mainwindow.h"
#include "ui/views/compareview.h"
#include "ui/views/latencybudgetview.h"
#include "ui/views/libraryview.h"
#include "ui/views/placementview.h"
#include "ui/views/scalingview.h"
#include "ui/views/sizingview.h"
#include "ui/views/trendsview.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineSeries>
#include <QPixmap>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <vector>

namespace {

QElapsedTimer g_clock; // since the first line of main: what a user waits for

// The first frame: the window's first paint event starts it; the frame is done when the event
// loop runs again (the whole widget tree is painted and flushed in one pass), which a zero timer
// started from the paint event sees. A paint that waits (for a thread pool, say) counts in full.
class FirstPaint : public QObject
{
public:
    qint64 startedMs = -1;
    qint64 ms = -1;
    std::function<void()> onFirst; // saved at once: the loop may not return soon after
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (startedMs < 0 && event->type() == QEvent::Paint) {
            startedMs = g_clock.elapsed();
            QTimer::singleShot(0, this, [this] {
                ms = g_clock.elapsed();
                if (onFirst)
                    onFirst();
            });
        }
        return QObject::eventFilter(watched, event);
    }
};

// Every frame the window paints: when its first paint event came and when the pass was done
// (the next time the event loop ran), as FirstPaint sees the first one.
class FrameLog : public QObject
{
public:
    struct Frame
    {
        qint64 startedMs, doneMs;
    };
    std::vector<Frame> frames;
    // The first frame begun at or after `ms`, or none yet.
    const Frame *firstFrom(qint64 ms) const
    {
        for (const Frame &f : frames)
            if (f.startedMs >= ms)
                return &f;
        return nullptr;
    }
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && !m_pending) {
            m_pending = true;
            const qint64 started = g_clock.elapsed();
            QTimer::singleShot(0, this, [this, started] {
                m_pending = false;
                frames.push_back({started, g_clock.elapsed()});
            });
        }
        return QObject::eventFilter(watched, event);
    }

private:
    bool m_pending = false;
};

// Runs the event loop until `done` or the deadline; false on timeout. Waits for events as the
// window's own loop does (the stall ticker's 10 ms timer wakes it): processEvents() with a time
// limit ignores WaitForMoreEvents and would spin, taking a core from the views' readers.
template <typename Done> bool waitUntil(QApplication &app, Done done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs)
            return false;
        app.processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    }
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    g_clock.start();
    if (argc < 3) {
        std::fprintf(stderr, "usage: perf_window STORE OUT.json [PNG]\n");
        return 2;
    }
    if (!std::getenv("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QString store = QString::fromLocal8Bit(argv[1]);

    // The longest gap between ticks of a 10 ms timer on the UI thread: the worst freeze.
    // `stallSince` is the same since the last reset, per view opened.
    qint64 lastTick = g_clock.elapsed(), longestStall = 0, stallSince = 0;
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const qint64 now = g_clock.elapsed();
        longestStall = std::max(longestStall, now - lastTick);
        stallSince = std::max(stallSince, now - lastTick);
        lastTick = now;
    });
    ticker.start(10);

    FirstPaint firstPaint;
    FrameLog frameLog;
    plimsoll::MainWindow window(store);
    window.installEventFilter(&firstPaint);
    app.installEventFilter(&frameLog); // paints go to the widgets, not the window itself
    qint64 libraryMs = -1, libraryRows = 0, libraryTotal = 0, seriesMs = -1, seriesPoints = 0;
    QObject::connect(window.libraryView(), &plimsoll::LibraryView::runsLoaded, [&](int rows, qint64 total) {
        if (libraryMs < 0) {
            libraryMs = g_clock.elapsed();
            libraryRows = rows;
            libraryTotal = total;
        }
    });
    qint64 scenariosMs = -1, metricsMs = -1;
    window.show();
    window.start(false);

    // Bound on each wait (s): a view that reads the whole store may take minutes at 1M records.
    const int timeoutS = qEnvironmentVariableIntValue("PLIMSOLL_PERF_WINDOW_TIMEOUT_S");
    const int waitMs = 1000 * (timeoutS > 0 ? timeoutS : 240);
    QJsonObject out;
    const auto save = [&] {
        QFile file(QString::fromLocal8Bit(argv[2]));
        if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            file.write(QJsonDocument(out).toJson(QJsonDocument::Compact) + "\n");
    };
    // A view's first useful frame: the first frame begun once it had what it read (`readyMs`),
    // counted from `fromMs`; and the longest UI-thread stall since `stallSince` was reset, a
    // moment after that frame included (a table sizing its columns is the view's stall too).
    QJsonObject views;
    const auto recordView = [&](const QString &key, qint64 fromMs, qint64 readyMs, bool reached) {
        std::optional<FrameLog::Frame> frame;
        if (reached)
            waitUntil(
                app,
                [&] {
                    if (const FrameLog::Frame *f = frameLog.firstFrom(readyMs))
                        frame = *f;
                    return frame.has_value();
                },
                2000);
        waitUntil(app, [] { return false; }, 300);
        QJsonObject v;
        v[QStringLiteral("ready_ms")] = reached ? double(readyMs - fromMs) : -1.0;
        v[QStringLiteral("first_useful_frame_ms")] = frame ? double(frame->doneMs - fromMs) : -1.0;
        v[QStringLiteral("longest_ui_stall_ms")] = double(stallSince);
        views[key] = v;
        out[QStringLiteral("views")] = views;
        save();
    };
    firstPaint.onFirst = [&] {
        out[QStringLiteral("first_paint_started_ms")] = double(firstPaint.startedMs);
        out[QStringLiteral("first_paint_ms")] = double(firstPaint.ms);
        save();
    };
    bool ok = waitUntil(app, [&] { return firstPaint.ms >= 0; }, waitMs);
    out[QStringLiteral("first_paint_started_ms")] = double(firstPaint.startedMs);
    out[QStringLiteral("first_paint_ms")] = double(firstPaint.ms);
    save();
    ok = waitUntil(app, [&] { return libraryMs >= 0; }, waitMs) && ok;
    out[QStringLiteral("library_loaded_ms")] = double(libraryMs);
    out[QStringLiteral("library_rows")] = double(libraryRows);
    out[QStringLiteral("library_store_runs")] = double(libraryTotal);
    out[QStringLiteral("longest_ui_stall_ms")] = double(longestStall);
    save();
    // The Library opens with the window: its frame counts from process start.
    recordView(QStringLiteral("library"), 0, libraryMs, libraryMs >= 0);
    const qint64 trendsShownMs = g_clock.elapsed();
    stallSince = 0;
    lastTick = trendsShownMs;
    // A view is built when first shown: its building counts in its figures.
    plimsoll::TrendsView *trends = window.trendsView();
    QObject::connect(trends, &plimsoll::TrendsView::scenariosLoaded, [&](int) {
        if (scenariosMs < 0)
            scenariosMs = g_clock.elapsed();
    });
    QObject::connect(trends, &plimsoll::TrendsView::metricsLoaded, [&](int) {
        if (metricsMs < 0)
            metricsMs = g_clock.elapsed();
    });
    QObject::connect(trends, &plimsoll::TrendsView::seriesLoaded, [&](int points) {
        if (points > 0) {
            seriesMs = g_clock.elapsed();
            seriesPoints = points;
        }
    });
    window.showView(QStringLiteral("trends"));
    // The metric of the generated history (the view opens on the first in name order).
    const QString metric = QString::fromLatin1(plimsoll::perf::kPerfMetric);
    bool seriesShown =
        waitUntil(app, [&] { return trends->metricCombo()->findText(metric) >= 0; }, waitMs);
    if (seriesShown && trends->metricCombo()->currentText() != metric) {
        seriesMs = -1;
        trends->metricCombo()->setCurrentIndex(trends->metricCombo()->findText(metric));
    }
    seriesShown = seriesShown && waitUntil(
                                     app, [&] { return seriesMs >= 0 && trends->plottedMetric() == metric; },
                                     waitMs);
    ok = ok && seriesShown;
    out[QStringLiteral("trend_series_loaded_ms")] = double(seriesMs);
    // Milestones of the Trends view from the moment it was shown (-1: not reached).
    const auto sinceShown = [&](qint64 ms) { return ms >= 0 ? double(ms - trendsShownMs) : -1.0; };
    out[QStringLiteral("trend_scenarios_loaded_ms")] = sinceShown(scenariosMs);
    out[QStringLiteral("trend_metrics_loaded_ms")] = sinceShown(metricsMs);
    out[QStringLiteral("trend_series_load_ms")] = sinceShown(seriesMs);
    out[QStringLiteral("trend_points")] = double(seriesPoints);
    recordView(QStringLiteral("trends"), trendsShownMs, seriesMs, seriesShown);
    out[QStringLiteral("trend_points_drawn")] = double(trends->drawnIndexes().size());
    // Downsampling must not hide what a user looks for: the series' lowest and highest values are
    // among the drawn points (each a value of a run, so the first index reaching it counts).
    if (seriesShown) {
        const auto &points = trends->points();
        const auto &drawn = trends->drawnIndexes();
        const auto byValue = [](const plimsoll::ChartPoint &a, const plimsoll::ChartPoint &b) {
            return a.value < b.value;
        };
        const auto [low, high] = std::minmax_element(points.begin(), points.end(), byValue);
        int kept = 0;
        for (const double extreme : {low->value, high->value})
            kept += std::any_of(drawn.begin(), drawn.end(),
                                [&](std::size_t i) { return points[i].value == extreme; });
        out[QStringLiteral("trend_extremes_drawn")] = double(kept);
    }
    out[QStringLiteral("longest_ui_stall_ms")] = double(longestStall);
    save();

    // A redraw as a resize does it: the chart laid out at a new size (axes, the series mapped to
    // pixels again, every cached item invalidated) and rendered. A grab at an unchanged size may
    // be served from Qt Charts' item caches, so it is reported apart. Median of 7 each.
    QChartView *chart = trends->chartView();
    const auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    std::vector<double> redraws, repaints;
    QPixmap image;
    const QSize size = chart->size();
    for (int i = 0; seriesShown && i < 7; ++i) {
        QElapsedTimer t;
        t.start();
        chart->resize(size + QSize(i % 2 ? 0 : -8, 0));
        app.processEvents(QEventLoop::ExcludeUserInputEvents); // the chart's deferred layout
        image = chart->grab();
        redraws.push_back(double(t.nsecsElapsed()) / 1e6);
        t.restart();
        image = chart->grab();
        repaints.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    if (!redraws.empty()) {
        out[QStringLiteral("trend_redraw_ms")] = median(redraws);
        out[QStringLiteral("trend_repaint_ms")] = median(repaints);
    }
    if (argc > 3 && !image.isNull())
        image.save(QString::fromLocal8Bit(argv[3]));
    save();

    // What the downsampling saves: the same chart size drawing every point of the series as one
    // line (the same pen, no markers), rendered after a resize as above. Median of 3.
    if (seriesShown) {
        auto *full = new QChart;
        full->legend()->hide();
        full->setAnimationOptions(QChart::NoAnimation);
        auto *line = new QLineSeries(full);
        QList<QPointF> all;
        all.reserve(qsizetype(trends->points().size()));
        for (const plimsoll::ChartPoint &p : trends->points())
            all.append(QPointF(p.timeMs, p.value));
        line->replace(all);
        line->setPen(QPen(QColor(0x1f, 0x77, 0xb4), 1));
        full->addSeries(line);
        full->createDefaultAxes();
        QChartView fullView(full);
        fullView.setRenderHint(QPainter::Antialiasing);
        fullView.resize(size);
        std::vector<double> fullRedraws;
        for (int i = 0; i < 3; ++i) {
            QElapsedTimer t;
            t.start();
            fullView.resize(size + QSize(i % 2 ? 0 : -8, 0));
            app.processEvents(QEventLoop::ExcludeUserInputEvents);
            fullView.grab();
            fullRedraws.push_back(double(t.nsecsElapsed()) / 1e6);
        }
        out[QStringLiteral("trend_redraw_every_point_ms")] = median(fullRedraws);
    }
    // Every other view in turn, from the click in the sidebar until it shows what it read. A view
    // that reads nothing is useful at its first frame.
    const auto connectReady = [](plimsoll::StoreView *view, const std::function<void()> &ready) {
        using namespace plimsoll;
        if (auto *v = qobject_cast<CompareView *>(view))
            return QObject::connect(v, &CompareView::comparisonReady, ready);
        if (auto *v = qobject_cast<ScalingView *>(view))
            return QObject::connect(v, &ScalingView::runsLoaded, ready);
        if (auto *v = qobject_cast<SizingView *>(view))
            return QObject::connect(v, &SizingView::modelsLoaded, ready);
        if (auto *v = qobject_cast<PlacementView *>(view))
            return QObject::connect(v, &PlacementView::measuredLoaded, ready);
        if (auto *v = qobject_cast<LatencyBudgetView *>(view))
            return QObject::connect(v, &LatencyBudgetView::pointsLoaded, ready);
        return QMetaObject::Connection();
    };
    for (const QString &key : window.viewKeys()) {
        if (key == QLatin1String("library") || key == QLatin1String("trends"))
            continue;
        qint64 readyMs = -1;
        const qint64 shownMs = g_clock.elapsed();
        stallSince = 0;
        lastTick = shownMs;
        // Built when first shown: its building counts in its figures.
        const QMetaObject::Connection c = connectReady(window.view(key), [&] {
            if (readyMs < 0)
                readyMs = g_clock.elapsed();
        });
        window.showView(key);
        if (!c)
            readyMs = shownMs;
        const bool reached = waitUntil(app, [&] { return readyMs >= 0; }, waitMs);
        ok = ok && reached;
        recordView(key, shownMs, readyMs, reached);
        QObject::disconnect(c);
    }
    out[QStringLiteral("ok")] = ok;
    save();
    // Leave without tearing down the views' background readers one by one.
    std::_Exit(ok ? 0 : 1);
}
