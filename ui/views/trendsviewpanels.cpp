// The Trends view's panels around the chart: the legend of its marks, the list of changes, the
// date range and target, and the pointer's hover and click on the chart.
#include "ui/views/trendsview.h"

#include "model/trends/downsample.h"
#include "ui/backgroundpool.h"
#include "ui/latesttask.h"

#include "model/core/catalog.h"
#include "ui/charts/trendmarkstyle.h"
#include "ui/formatting.h"
#include "ui/models/trendchangestablemodel.h"
#include "ui/widgets/elidinglabel.h"

#include <QChart>
#include <QPolygonF>
#include <QChartView>
#include <QComboBox>
#include <QDateEdit>
#include <QDateTimeAxis>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QTableView>
#include <QValueAxis>
#include <QStringList>
#include <QRubberBand>
#include <QStyle>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <cmath>

namespace plimsoll {

namespace {

constexpr double kDayMs = 24.0 * 3600 * 1000;
// How far from a drawn point the pointer may be and still hover or pick it: a marker's radius
// and a little more, so a point under a contract line or beside the line is still caught.
constexpr double kPickPixels = 12;

enum class Swatch { Line, Square, VerticalDash, HorizontalDash, Ring, Diamond, Slope };

QPixmap swatch(Swatch kind, const QColor &color, qreal dpr)
{
    const QSize size(22, 14);
    QPixmap pixmap(size * dpr);
    pixmap.setDevicePixelRatio(dpr);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    switch (kind) {
    case Swatch::Line:
        p.setPen(QPen(color, 2));
        p.drawLine(QPointF(1, 7), QPointF(21, 7));
        p.setPen(QPen(Qt::white, 1));
        p.setBrush(color);
        p.drawEllipse(QPointF(11, 7), 4, 4);
        break;
    case Swatch::Square:
        p.setPen(QPen(Qt::black, 1));
        p.setBrush(color);
        p.drawRect(QRectF(6, 2, 10, 10));
        break;
    case Swatch::VerticalDash:
        p.setPen(QPen(color, 1.5, Qt::DashLine));
        p.drawLine(QPointF(11, 0), QPointF(11, 14));
        break;
    case Swatch::HorizontalDash:
        p.setPen(QPen(color, 1.5, Qt::DashLine));
        p.drawLine(QPointF(1, 7), QPointF(21, 7));
        break;
    case Swatch::Ring:
        p.setPen(QPen(color, 2));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(QPointF(11, 7), 5.5, 5.5);
        break;
    case Swatch::Diamond:
        p.setPen(QPen(color, 2));
        p.setBrush(Qt::NoBrush);
        p.drawPolygon(QPolygonF({QPointF(11, 1), QPointF(17, 7), QPointF(11, 13), QPointF(5, 7)}));
        break;
    case Swatch::Slope:
        p.setPen(QPen(color, 2.5, Qt::DashDotLine));
        p.drawLine(QPointF(1, 12), QPointF(21, 2));
        break;
    }
    return pixmap;
}

} // namespace

QWidget *TrendsView::makeLegend()
{
    auto *legend = new QWidget(this);
    legend->setObjectName(QStringLiteral("trendLegend"));
    auto *rows = new QVBoxLayout(legend);
    rows->setContentsMargins(0, 0, 0, 0);
    rows->setSpacing(2); // two rows of entries: as tight as one line of text to the next
    struct Entry
    {
        Swatch kind;
        QColor color;
        QString text;
        QString tip;
    };
    const Entry entries[] = {
        {Swatch::Line, trendLineColor(), tr("Runs"), tr("One point per run that measured the metric")},
        {Swatch::Square, trendVerdictColor(Verdict::Regression), tr("Regression"),
         tr("A change point where the metric got worse")},
        {Swatch::Square, trendVerdictColor(Verdict::Improvement), tr("Improvement"),
         tr("A change point where the metric got better")},
        {Swatch::Square, trendVerdictColor(Verdict::Changed), tr("Neutral change"),
         tr("A change point of a metric that is neither better nor worse when it moves")},
        {Swatch::Ring, trendVerdictColor(Verdict::Regression), tr("Outlier"),
         tr("One run far outside the noise of the runs either side: flagged, and left out of the "
            "change points")},
        {Swatch::Diamond, trendNoiseColor(), tr("Noise change"),
         tr("The runs' spread changes from here (the level need not): hover for the ratio")},
        {Swatch::Slope, trendVerdictColor(Verdict::Changed), tr("Drift"),
         tr("A steady slope over a stretch of runs, fitted as one line instead of many small "
            "changes; coloured by its verdict")},
        {Swatch::VerticalDash, trendContractColor(), tr("Contract change"),
         tr("The tuning contract changed here: a new baseline, not a change")},
        {Swatch::HorizontalDash, trendBaselineColor(), tr("Baseline"),
         tr("The level of the run chosen with Use as baseline")},
    };
    const qreal dpr = devicePixelRatioF();
    // Two rows, so that the entries keep their words at 1024 pixels: the change points, then
    // what is not a level change.
    QHBoxLayout *row = nullptr;
    for (const Entry &e : entries) {
        if (row == nullptr || &e == &entries[4]) {
            if (row != nullptr)
                row->addStretch();
            row = new QHBoxLayout;
            rows->addLayout(row);
        }
        auto *icon = new QLabel(legend);
        icon->setPixmap(swatch(e.kind, e.color, dpr));
        auto *text = new QLabel(e.text, legend);
        text->setObjectName(QStringLiteral("legendEntry"));
        // The entries are short words: never squeezed, so never clipped.
        text->setMinimumWidth(text->sizeHint().width());
        icon->setToolTip(e.tip);
        text->setToolTip(e.tip);
        row->addWidget(icon);
        row->addWidget(text);
        row->addSpacing(10);
    }
    row->addStretch();
    // The overlays' entries, two to a row so that long scenario names keep their room: what
    // each dashed line is, and a button that removes it; shown while there is one.
    m_overlayLegend = new QWidget(legend);
    m_overlayLegend->setObjectName(QStringLiteral("overlayLegend"));
    auto *grid = new QGridLayout(m_overlayLegend);
    grid->setContentsMargins(0, 0, 0, 0);
    for (int i = 0; i < kMaxTrendOverlays; ++i) {
        OverlaySlot &slot = m_overlays[size_t(i)];
        slot.entry = new QWidget(m_overlayLegend);
        slot.entry->setObjectName(QStringLiteral("overlayEntry"));
        auto *entryRow = new QHBoxLayout(slot.entry);
        entryRow->setContentsMargins(0, 0, 0, 0);
        auto *icon = new QLabel(slot.entry);
        icon->setObjectName(QStringLiteral("legendOverlayIcon"));
        icon->setPixmap(swatch(Swatch::HorizontalDash, trendOverlayColor(i), dpr));
        auto *text = new ElidingLabel(QString(), slot.entry, Qt::ElideRight);
        text->setObjectName(QStringLiteral("legendOverlay"));
        auto *remove = new QToolButton(slot.entry);
        remove->setObjectName(QStringLiteral("removeOverlay"));
        remove->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
        remove->setAutoRaise(true);
        remove->setToolTip(tr("Remove this overlay"));
        connect(remove, &QToolButton::clicked, this, [this, i] { removeOverlay(m_overlays[size_t(i)].key); });
        entryRow->addWidget(icon);
        entryRow->addWidget(text, 1); // all the column's room: elided only when it is too narrow
        entryRow->addWidget(remove);
        grid->addWidget(slot.entry, i / 2, i % 2);
        slot.entry->hide();
    }
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    rows->addWidget(m_overlayLegend);
    m_overlayLegend->hide();
    return legend;
}

QTableView *TrendsView::makeChangeList()
{
    m_changes = new TrendChangesTableModel(this);
    m_changeSummary = new QLabel(this);
    m_changeSummary->setObjectName(QStringLiteral("changeSummary"));
    m_changeSummary->setWordWrap(true);
    auto *list = new QTableView(this);
    list->setObjectName(QStringLiteral("changeList"));
    list->setModel(m_changes);
    list->setSelectionBehavior(QAbstractItemView::SelectRows);
    list->setSelectionMode(QAbstractItemView::SingleSelection);
    list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    list->verticalHeader()->hide();
    list->setWordWrap(false);
    list->setMinimumHeight(120);
    QHeaderView *header = list->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(TrendChangesTableModel::Change, QHeaderView::Stretch);
    connect(list->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (!m_syncingList && current.isValid())
                    selectPoint(current.data(TrendChangesTableModel::PointRole).toInt());
            });
    return list;
}

void TrendsView::summarizeChanges()
{
    int regressions = 0, improvements = 0, neutral = 0, contracts = 0, outliers = 0, noise = 0, drifts = 0;
    for (int r = 0; r < m_changes->rowCount(); ++r) {
        const QModelIndex row = m_changes->index(r, TrendChangesTableModel::Verdict);
        const QString verdict = row.data().toString();
        switch (row.data(TrendChangesTableModel::KindRole).toInt()) {
        case TrendChangesTableModel::NewBaseline:
            ++contracts;
            break;
        case TrendChangesTableModel::Outlier:
            ++outliers;
            break;
        case TrendChangesTableModel::NoiseChange:
            ++noise;
            break;
        case TrendChangesTableModel::Drift:
            ++drifts;
            break;
        default:
            if (verdict == tr("regression"))
                ++regressions;
            else if (verdict == tr("improvement"))
                ++improvements;
            else
                ++neutral;
        }
    }
    QStringList parts;
    const auto count = [&parts](int n, const QString &one, const QString &many) {
        if (n > 0)
            parts << (n == 1 ? one : many.arg(n));
    };
    count(regressions, tr("1 regression"), tr("%1 regressions"));
    count(improvements, tr("1 improvement"), tr("%1 improvements"));
    count(neutral, tr("1 neutral change"), tr("%1 neutral changes"));
    count(outliers, tr("1 outlier"), tr("%1 outliers"));
    count(noise, tr("1 noise change"), tr("%1 noise changes"));
    count(drifts, tr("1 drift"), tr("%1 drifts"));
    count(contracts, tr("1 new baseline"), tr("%1 new baselines"));
    const bool narrowed = std::isfinite(m_fromMs) || std::isfinite(m_toMs) || m_target >= 0 || m_load >= 0;
    if (parts.isEmpty())
        m_changeSummary->setText(m_series->points.empty() ? tr("Changes: none (no runs)")
                                 : narrowed ? tr("Changes: none among the runs shown")
                                            : tr("Changes: none in this series"));
    else
        m_changeSummary->setText(tr("Changes: %1").arg(parts.join(QStringLiteral(", "))));
}

QString TrendsView::changeSummaryText() const
{
    return m_changeSummary->text();
}

QLayout *TrendsView::makeRangeRow()
{
    m_rangeCombo = new QComboBox(this);
    m_rangeCombo->setObjectName(QStringLiteral("rangeCombo"));
    m_rangeCombo->addItem(tr("All runs"), 0);
    m_rangeCombo->addItem(tr("Last 30 days"), 30);
    m_rangeCombo->addItem(tr("Last 90 days"), 90);
    m_rangeCombo->addItem(tr("From – To"), -1);
    m_rangeCombo->setToolTip(tr("The last days end at the series' latest run"));
    const auto dateEdit = [this](const char *name) {
        auto *edit = new QDateEdit(this);
        edit->setObjectName(QLatin1String(name));
        edit->setCalendarPopup(true);
        edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));
        return edit;
    };
    m_fromEdit = dateEdit("rangeFrom");
    m_toEdit = dateEdit("rangeTo");
    m_resetRange = new QPushButton(tr("Reset"), this);
    m_resetRange->setObjectName(QStringLiteral("resetRange"));
    m_resetRange->setToolTip(tr("Show every run of the series"));

    connect(m_rangeCombo, &QComboBox::currentIndexChanged, this, [this] {
        applyPreset();
        showRange();
    });
    const auto edited = [this] { setDateRange(m_fromEdit->date(), m_toEdit->date()); };
    connect(m_fromEdit, &QDateEdit::dateChanged, this, edited);
    connect(m_toEdit, &QDateEdit::dateChanged, this, edited);
    connect(m_resetRange, &QPushButton::clicked, this, &TrendsView::resetRange);

    m_targetCombo = new QComboBox(this);
    m_targetCombo->setObjectName(QStringLiteral("targetCombo"));
    m_targetCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_targetCombo->setToolTip(tr("The runs of one target (each target has its own change points)"));
    m_targetLabel = new QLabel(tr("Target"), this);
    connect(m_targetCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_target = index - 1; // the first entry is every target
        showRange();
    });

    m_loadCombo = new QComboBox(this);
    m_loadCombo->setObjectName(QStringLiteral("loadCombo"));
    m_loadCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_loadCombo->setToolTip(tr("The runs at one load (offered rate, load factors): each load is a series "
                               "of its own, and runs at several loads are a sweep, not a history"));
    m_loadLabel = new QLabel(tr("Load"), this);
    connect(m_loadCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_load = index - 1; // the first entry is every load
        showRange();
    });

    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Dates"), this));
    row->addWidget(m_rangeCombo);
    row->addSpacing(8);
    row->addWidget(new QLabel(tr("From"), this));
    row->addWidget(m_fromEdit);
    row->addWidget(new QLabel(tr("To"), this));
    row->addWidget(m_toEdit);
    row->addWidget(m_resetRange);
    row->addSpacing(12);
    row->addWidget(m_targetLabel);
    row->addWidget(m_targetCombo);
    row->addWidget(m_loadLabel);
    row->addWidget(m_loadCombo);
    row->addStretch();
    return row;
}

void TrendsView::refillTargets()
{
    // Keeps the chosen target when the new series has it too.
    const QString previous = m_target >= 0 ? m_targetCombo->currentText() : QString();
    const std::vector<std::string> &targets = m_series->targets;
    const QSignalBlocker blocker(m_targetCombo);
    m_targetCombo->clear();
    m_targetCombo->addItem(tr("All targets"));
    for (const std::string &t : targets)
        m_targetCombo->addItem(QString::fromStdString(t));
    const int index = previous.isEmpty() ? -1 : m_targetCombo->findText(previous);
    m_targetCombo->setCurrentIndex(std::max(index, 0));
    m_target = index > 0 ? index - 1 : -1;
    const bool several = targets.size() > 1;
    m_targetLabel->setVisible(several);
    m_targetCombo->setVisible(several);
}

void TrendsView::refillLoads()
{
    const AnnotatedSeries &data = *m_series;
    const QString previous = m_load >= 0 ? m_loadCombo->currentData().toString() : QString();
    const QSignalBlocker blocker(m_loadCombo);
    m_loadCombo->clear();
    m_loadCombo->addItem(tr("All loads (a sweep, not a history)"), QString());
    for (std::size_t i = 0; i < data.loads.size(); ++i) {
        const QString load = QString::fromStdString(data.loads[i]);
        const int runs = data.pointsPerLoad[i];
        m_loadCombo->addItem((load.isEmpty() ? tr("none stated") : load) +
                                 (runs == 1 ? tr(" (1 run)") : tr(" (%1 runs)").arg(runs)),
                             load);
    }
    const bool several = data.loads.size() > 1;
    int index = previous.isEmpty() ? -1 : m_loadCombo->findData(previous);
    if (index < 0 && several && !data.points.empty()) // the latest run's load
        index = 1 + data.loadOfContract[std::size_t(data.marks.back().contract)];
    m_loadCombo->setCurrentIndex(several ? std::max(index, 0) : 0);
    m_load = several && index > 0 ? index - 1 : -1;
    m_loadLabel->setVisible(several);
    m_loadCombo->setVisible(several);
}

void TrendsView::applyPreset()
{
    const int days = m_rangeCombo->currentData().toInt();
    const AnnotatedSeries &data = *m_series;
    if (days == 0) {
        m_fromMs = -std::numeric_limits<double>::infinity();
        m_toMs = std::numeric_limits<double>::infinity();
    } else if (days > 0) {
        m_toMs = data.points.empty() ? std::numeric_limits<double>::infinity() : data.lastMs;
        m_fromMs = data.points.empty() ? -std::numeric_limits<double>::infinity()
                                       : data.lastMs - days * kDayMs;
    }
    if (data.points.empty())
        return;
    // The fields show the dates in force (a preset's, or the whole series' for All runs).
    const auto dateOf = [](double ms) {
        return QDateTime::fromMSecsSinceEpoch(qint64(ms)).toLocalTime().date();
    };
    const QSignalBlocker fromBlocker(m_fromEdit), toBlocker(m_toEdit);
    m_fromEdit->setDate(dateOf(std::max(m_fromMs, data.firstMs)));
    m_toEdit->setDate(dateOf(std::min(m_toMs, data.lastMs)));
}

void TrendsView::setDateRange(const QDate &from, const QDate &to)
{
    const QDate first = std::min(from, to), last = std::max(from, to);
    {
        const QSignalBlocker comboBlocker(m_rangeCombo), fromBlocker(m_fromEdit), toBlocker(m_toEdit);
        m_rangeCombo->setCurrentIndex(m_rangeCombo->findData(-1));
        m_fromEdit->setDate(first);
        m_toEdit->setDate(last);
    }
    m_fromMs = double(QDateTime(first, QTime(0, 0)).toMSecsSinceEpoch());
    m_toMs = double(QDateTime(last.addDays(1), QTime(0, 0)).toMSecsSinceEpoch() - 1);
    showRange();
}

void TrendsView::resetRange()
{
    const QSignalBlocker blocker(m_rangeCombo);
    m_rangeCombo->setCurrentIndex(0);
    applyPreset();
    showRange();
}

int TrendsView::drawnPointAt(const QPoint &viewportPos) const
{
    if (m_line->count() == 0)
        return -1;
    const QPointF inChart = m_chart->mapFromScene(m_chartView->mapToScene(viewportPos));
    if (!m_chart->plotArea().adjusted(-kPickPixels, -kPickPixels, kPickPixels, kPickPixels).contains(inChart))
        return -1;
    double pixels = 0;
    const int index = drawnPointNear(m_chart->mapToValue(inChart, m_line), &pixels);
    return pixels <= kPickPixels ? index : -1;
}

double TrendsView::timeAt(int viewportX) const
{
    const QPointF scene = m_chartView->mapToScene(QPoint(viewportX, m_chartView->viewport()->height() / 2));
    return m_chart->mapToValue(m_chart->mapFromScene(scene), m_line).x();
}

void TrendsView::zoomTime(double fromMs, double toMs)
{
    const AnnotatedSeries &data = *m_series;
    if (data.points.empty())
        return;
    if (fromMs <= data.firstMs && toMs >= data.lastMs) {
        resetRange();
        return;
    }
    const auto day = [](double ms) { return QDateTime::fromMSecsSinceEpoch(qint64(ms)).toLocalTime().date(); };
    setDateRange(day(std::max(fromMs, data.firstMs)), day(std::min(toMs, data.lastMs)));
}

bool TrendsView::zoomEvent(QEvent *event)
{
    switch (event->type()) {
    case QEvent::MouseButtonPress: {
        const auto *mouse = static_cast<QMouseEvent *>(event);
        if (mouse->button() != Qt::LeftButton || drawnPointAt(mouse->position().toPoint()) >= 0)
            return false;
        m_dragFromX = mouse->position().toPoint().x();
        return false;
    }
    case QEvent::MouseMove: {
        if (m_dragFromX < 0)
            return false;
        const int x = static_cast<QMouseEvent *>(event)->position().toPoint().x();
        if (!m_zoomBand)
            m_zoomBand = new QRubberBand(QRubberBand::Rectangle, m_chartView->viewport());
        const QRect plot = m_chartView->mapFromScene(m_chart->mapToScene(m_chart->plotArea())).boundingRect();
        m_zoomBand->setGeometry(QRect(QPoint(std::min(x, m_dragFromX), plot.top()),
                                      QPoint(std::max(x, m_dragFromX), plot.bottom())));
        m_zoomBand->setVisible(std::abs(x - m_dragFromX) > 8);
        return false;
    }
    case QEvent::MouseButtonRelease: {
        if (m_dragFromX < 0)
            return false;
        const int x = static_cast<QMouseEvent *>(event)->position().toPoint().x();
        const int from = std::exchange(m_dragFromX, -1);
        if (m_zoomBand)
            m_zoomBand->hide();
        if (std::abs(x - from) > 8)
            zoomTime(timeAt(std::min(x, from)), timeAt(std::max(x, from)));
        return false;
    }
    case QEvent::MouseButtonDblClick:
        resetRange();
        return true;
    case QEvent::Wheel: {
        const auto *wheel = static_cast<QWheelEvent *>(event);
        const int steps = wheel->angleDelta().y() / 120;
        if (steps == 0 || m_series->points.empty())
            return false;
        const double at = timeAt(int(wheel->position().x()));
        const double from = double(m_timeAxis->min().toMSecsSinceEpoch());
        const double to = double(m_timeAxis->max().toMSecsSinceEpoch());
        const double scale = std::pow(steps > 0 ? 0.8 : 1.25, std::abs(steps));
        zoomTime(at - (at - from) * scale, at + (to - at) * scale);
        return true;
    }
    default:
        return false;
    }
}

bool TrendsView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_chartView->viewport() && zoomEvent(event))
        return true;
    if (watched == m_chartView->viewport()) {
        if (event->type() == QEvent::MouseMove) {
            const auto *mouse = static_cast<QMouseEvent *>(event);
            const int index = drawnPointAt(mouse->position().toPoint());
            if (index >= 0)
                QToolTip::showText(mouse->globalPosition().toPoint(), hoverText(std::size_t(index)),
                                   m_chartView);
            else
                QToolTip::hideText();
        } else if (event->type() == QEvent::MouseButtonPress) {
            const auto *mouse = static_cast<QMouseEvent *>(event);
            if (mouse->button() == Qt::LeftButton) {
                const int index = drawnPointAt(mouse->position().toPoint());
                if (index >= 0)
                    selectPoint(index);
            }
        } else if (event->type() == QEvent::Leave) {
            QToolTip::hideText();
        }
    }
    return StoreView::eventFilter(watched, event);
}

int TrendsView::drawnPointNear(const QPointF &chartValue, double *pixels) const
{
    // Nearest in screen space, so a tall value axis does not dwarf the time distance. The line
    // holds the drawn points in the order of m_series->drawn.
    const QPointF clicked = m_chart->mapToPosition(chartValue, m_line);
    int best = -1;
    double bestDistance = std::numeric_limits<double>::max();
    for (qsizetype i = 0; i < m_line->count(); ++i) {
        const QPointF pos = m_chart->mapToPosition(m_line->at(i), m_line);
        const double distance = std::hypot(pos.x() - clicked.x(), pos.y() - clicked.y());
        if (distance < bestDistance) {
            bestDistance = distance;
            best = static_cast<int>(i);
        }
    }
    if (best < 0 || size_t(best) >= m_drawn.size())
        return -1;
    if (pixels)
        *pixels = bestDistance;
    return static_cast<int>(m_drawn[size_t(best)]);
}

void TrendsView::selectPointNear(const QPointF &chartValue)
{
    const int index = drawnPointNear(chartValue);
    if (index >= 0)
        selectPoint(index);
}

} // namespace plimsoll
