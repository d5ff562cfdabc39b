#include "ui/sortarrowstyle.h"

#include <QStyleOptionHeader>

namespace plimsoll {

void SortArrowStyle::drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                                   const QWidget *widget) const
{
    if (element == PE_IndicatorHeaderArrow)
        if (const auto *header = qstyleoption_cast<const QStyleOptionHeader *>(option)) {
            QStyleOptionHeader flipped(*header);
            if (header->sortIndicator == QStyleOptionHeader::SortUp)
                flipped.sortIndicator = QStyleOptionHeader::SortDown;
            else if (header->sortIndicator == QStyleOptionHeader::SortDown)
                flipped.sortIndicator = QStyleOptionHeader::SortUp;
            QProxyStyle::drawPrimitive(element, &flipped, painter, widget);
            return;
        }
    QProxyStyle::drawPrimitive(element, option, painter, widget);
}

} // namespace plimsoll
