#include "ui/charts/placementchart.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QLegend>
#include <QValueAxis>

#include <algorithm>

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

void PlacementChart::showPlacement(const PlacementResult &placement)
{
    m_series->clear();
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
    m_series->append(set);
    m_x->setCategories(categories);
    m_y->setRange(0, std::max(1, placement.maxPerShard + 1));
    m_y->setTickCount(std::min(placement.maxPerShard + 2, 11));
}

} // namespace plimsoll
