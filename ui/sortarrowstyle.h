#pragma once
// The window's style: the platform's (Fusion on most desktops), with a table header's sort arrow
// pointing the way the rows run — down when the largest or newest come first, up when the
// smallest or oldest do, as file managers and spreadsheets draw it. (QHeaderView hands the style
// SortUp for a descending order, and Fusion draws SortUp as an up arrow.)

#include <QProxyStyle>

namespace plimsoll {

class SortArrowStyle : public QProxyStyle
{
public:
    using QProxyStyle::QProxyStyle;
    void drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                       const QWidget *widget = nullptr) const override;
};

} // namespace plimsoll
