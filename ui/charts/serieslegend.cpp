#include "ui/charts/serieslegend.h"

#include <QAbstractSeries>
#include <QAreaSeries>
#include <QPainter>
#include <QPixmap>
#include <QScrollBar>
#include <QXYSeries>

#include <algorithm>

namespace plimsoll {

namespace {

// A line series' swatch is its pen (dashed stays dashed); an area's is its fill.
QIcon swatch(QAbstractSeries *series, int size)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    if (auto *xy = qobject_cast<QXYSeries *>(series)) {
        QPen pen = xy->pen();
        pen.setColor(xy->color());
        pen.setWidthF(std::max<qreal>(2, pen.widthF()));
        painter.setPen(pen);
        painter.drawLine(QPointF(0, size / 2.0), QPointF(size, size / 2.0));
        painter.setPen(Qt::NoPen);
        painter.setBrush(xy->color());
        painter.drawEllipse(QPointF(size / 2.0, size / 2.0), size / 5.0, size / 5.0);
    } else if (auto *area = qobject_cast<QAreaSeries *>(series)) {
        painter.fillRect(pixmap.rect(), area->brush());
    }
    return QIcon(pixmap);
}

// Past this width a name wraps onto a second line rather than widening the list further.
constexpr int kMaxTextWidth = 220;

} // namespace

SeriesLegend::SeriesLegend(QWidget *parent) : QListWidget(parent)
{
    setWordWrap(true);
    setTextElideMode(Qt::ElideNone);
    setSelectionMode(QAbstractItemView::NoSelection);
    setFocusPolicy(Qt::NoFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setResizeMode(QListView::Adjust);
    setFrameShape(QFrame::NoFrame);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
    connect(this, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        const int row = QListWidget::row(item);
        if (row >= 0 && row < m_series.size())
            m_series[row]->setVisible(item->checkState() == Qt::Checked);
    });
}

void SeriesLegend::setSeries(const QList<QAbstractSeries *> &series)
{
    const QSignalBlocker block(this);
    clear();
    m_series = series;
    const int icon = fontMetrics().height();
    setIconSize(QSize(icon, icon));
    for (QAbstractSeries *s : series) {
        auto *item = new QListWidgetItem(swatch(s, icon), s->name(), this);
        item->setToolTip(s->name());
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(s->isVisible() ? Qt::Checked : Qt::Unchecked);
    }
    updateGeometry();
}

QSize SeriesLegend::sizeHint() const
{
    int text = 0;
    for (int i = 0; i < count(); ++i)
        text = std::max(text, fontMetrics().horizontalAdvance(item(i)->text()));
    // Check box, swatch, the spacing between them and the scroll bar a long list shows.
    const int chrome = 2 * iconSize().width() + 6 * spacing() + 24 +
                       verticalScrollBar()->sizeHint().width();
    return {std::min(text, kMaxTextWidth) + chrome, QListWidget::sizeHint().height()};
}

} // namespace plimsoll
