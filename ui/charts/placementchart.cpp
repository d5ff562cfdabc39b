#include "ui/charts/placementchart.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCursor>
#include <QToolTip>
#include <QLegend>
#include <QLocale>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace plimsoll {

PlacementChart::PlacementChart()
{
    setAnimationOptions(QChart::NoAnimation);
    legend()->hide();
    m_series = new QBarSeries(this);
    addSeries(m_series);
    m_x = new QBarCategoryAxis(this);
    m_x->setTitleText(tr("shard"));
    m_y = new QValueAxis(this);
    m_y->setTitleText(tr("partitions"));
    m_y->setLabelFormat(QStringLiteral("%d"));
    addAxis(m_x, Qt::AlignBottom);
    addAxis(m_y, Qt::AlignLeft);
    m_series->attachAxis(m_x);
    m_series->attachAxis(m_y);
}

void PlacementChart::showPlacement(const PlacementResult &placement, const PlacementLoadComparison *measured)
{
    m_series->clear();
    legend()->setVisible(measured != nullptr);
    if (!placement.ok)
        return;
    auto *set = new QBarSet(tr("partitions"));
    set->setColor(QColor(0x1f, 0x77, 0xb4));
    QStringList categories;
    for (size_t i = 0; i < placement.shards.size(); ++i) {
        *set << double(placement.shards[i].partitions.size());
        categories << QString::number(i + 1);
        // The hottest shards stand out: they set the ceiling.
        if (int(placement.shards[i].partitions.size()) == placement.maxPerShard)
            set->selectBar(int(i));
    }
    set->setSelectedColor(QColor(0xd6, 0x27, 0x28));
    // Hovering a bar names its shard and count (and whether it is one of the hottest).
    connect(set, &QBarSet::hovered, set, [set, hottest = placement.maxPerShard](bool on, int index) {
        if (!on) {
            QToolTip::hideText();
            return;
        }
        const int count = int(set->at(index));
        QString text = count == 1 ? tr("shard %1: 1 partition").arg(index + 1)
                                  : tr("shard %1: %2 partitions").arg(index + 1).arg(count);
        if (count == hottest)
            text += tr(" — among the hottest");
        QToolTip::showText(QCursor::pos(), text);
    });
    m_series->append(set);
    double tallest = placement.maxPerShard;
    if (measured && measured->total > 0 && placement.partitions > 0) {
        const double perPartition = measured->total / placement.partitions;
        auto *load = new QBarSet(tr("measured load (records/s in mean partitions)"));
        load->setColor(QColor(0xff, 0x7f, 0x0e));
        for (const ShardMeasuredLoad &s : measured->shards) {
            *load << s.recordsPerS / perPartition;
            tallest = std::max(tallest, s.recordsPerS / perPartition);
        }
        connect(load, &QBarSet::hovered, load, [measured = *measured, perPartition](bool on, int index) {
            if (!on || index < 0 || index >= int(measured.shards.size())) {
                QToolTip::hideText();
                return;
            }
            const ShardMeasuredLoad &s = measured.shards[std::size_t(index)];
            QToolTip::showText(QCursor::pos(),
                               tr("shard %1: %2 records/s measured, %3 × the shards' mean")
                                   .arg(index + 1)
                                   .arg(QLocale().toString(s.recordsPerS, 'f', 0))
                                   .arg(s.recordsPerS / (measured.total / double(measured.shards.size())), 0, 'f',
                                        2));
        });
        set->setLabel(tr("partitions placed"));
        m_series->append(load);
    }
    m_x->setCategories(categories);
    // Partitions are whole: ticks a whole 1, 2 or 5 × 10^k apart, at most ten steps, so every
    // label is the count at its line.
    const IntegerTicks ticks = integerTicks(std::max(1, int(std::ceil(tallest)) + 1));
    m_y->setRange(0, ticks.top);
    m_y->setTickCount(ticks.count);
}

IntegerTicks integerTicks(int atLeast, int maxSteps)
{
    int step = 1;
    for (int decade = 1;; decade *= 10) {
        for (const int m : {1, 2, 5}) {
            step = m * decade;
            if ((atLeast + step - 1) / step <= maxSteps) {
                const int steps = std::max(1, (atLeast + step - 1) / step);
                return {steps * step, steps + 1};
            }
        }
    }
}

} // namespace plimsoll
