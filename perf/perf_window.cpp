// The window on a large store, under the offscreen platform: cold start to first paint, the
// Library and the Trends view filled from it, the trend chart's redraw with every record of
// one metric in its series, and the longest stall of the UI thread meanwhile.
//
//   perf_window STORE OUT.json [PNG]   writes one JSON object (rewritten after each milestone,
//                                      so a view that freezes still leaves what was measured)
#include "ui/mainwindow.h"
#include "ui/views/libraryview.h"
#include "ui/views/trendsview.h"

#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPixmap>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

QElapsedTimer g_clock; // since the first line of main: what a user waits for

class FirstPaint : public QObject
{
public:
    qint64 ms = -1;
    std::function<void()> onFirst; // saved at once: the loop may not return soon after
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (ms < 0 && event->type() == QEvent::Paint) {
            ms = g_clock.elapsed();
            if (onFirst)
                onFirst();
        }
        return QObject::eventFilter(watched, event);
    }
};

// Runs the event loop until `done` or the deadline; false on timeout.
template <typename Done> bool waitUntil(QApplication &app, Done done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs)
            return false;
        app.processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 50);
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
    qint64 lastTick = g_clock.elapsed(), longestStall = 0;
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const qint64 now = g_clock.elapsed();
        longestStall = std::max(longestStall, now - lastTick);
        lastTick = now;
    });
    ticker.start(10);

    FirstPaint firstPaint;
    plimsoll::MainWindow window(store);
    window.installEventFilter(&firstPaint);
    qint64 libraryMs = -1, libraryRows = 0, seriesMs = -1, seriesPoints = 0;
    QObject::connect(window.libraryView(), &plimsoll::LibraryView::runsLoaded, [&](int rows, qint64) {
        libraryMs = g_clock.elapsed();
        libraryRows = rows;
    });
    plimsoll::TrendsView *trends = window.trendsView();
    QObject::connect(trends, &plimsoll::TrendsView::seriesLoaded, [&](int points) {
        if (points > 0) {
            seriesMs = g_clock.elapsed();
            seriesPoints = points;
        }
    });
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
    firstPaint.onFirst = [&] {
        out[QStringLiteral("first_paint_ms")] = double(firstPaint.ms);
        save();
    };
    bool ok = waitUntil(app, [&] { return firstPaint.ms >= 0; }, 60'000);
    out[QStringLiteral("first_paint_ms")] = double(firstPaint.ms);
    save();
    ok = waitUntil(app, [&] { return libraryMs >= 0; }, waitMs) && ok;
    out[QStringLiteral("library_loaded_ms")] = double(libraryMs);
    out[QStringLiteral("library_rows")] = double(libraryRows);
    out[QStringLiteral("longest_ui_stall_ms")] = double(longestStall);
    save();
    window.showView(QStringLiteral("trends"));
    const bool seriesShown = waitUntil(app, [&] { return seriesMs >= 0; }, waitMs);
    ok = ok && seriesShown;
    out[QStringLiteral("trend_series_loaded_ms")] = double(seriesMs);
    out[QStringLiteral("trend_points")] = double(trends->points().size());
    out[QStringLiteral("trend_points_drawn")] = double(seriesPoints);
    out[QStringLiteral("longest_ui_stall_ms")] = double(longestStall);

    // A redraw: the whole chart rendered again, as a resize or an expose does. Median of 7.
    QChartView *chart = trends->chartView();
    std::vector<double> redraws;
    QPixmap image;
    for (int i = 0; seriesShown && i < 7; ++i) {
        QElapsedTimer t;
        t.start();
        image = chart->grab();
        redraws.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    if (!redraws.empty()) {
        std::sort(redraws.begin(), redraws.end());
        out[QStringLiteral("trend_redraw_ms")] = redraws[redraws.size() / 2];
    }
    if (argc > 3 && !image.isNull())
        image.save(QString::fromLocal8Bit(argv[3]));
    out[QStringLiteral("ok")] = ok;
    save();
    // Leave without tearing down the views' background readers one by one.
    std::_Exit(ok ? 0 : 1);
}
