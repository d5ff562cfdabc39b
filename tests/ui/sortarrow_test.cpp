// A table sorted newest first shows its sort arrow pointing down, as file managers and
// spreadsheets draw it; sorted oldest first, up.
#include "ui/sortarrowstyle.h"
#include <gtest/gtest.h>
#include <QHeaderView>
#include <QImage>
#include <QPainter>
#include <QStyleFactory>
#include <QStyleOptionHeader>
#include <QTableWidget>

#include <vector>

using namespace plimsoll;

namespace {

// The width of the top and bottom rows of the arrow the style draws for `order`, as QHeaderView
// asks for it.
std::pair<int, int> arrowInk(QStyle &style, Qt::SortOrder order)
{
    QImage image(24, 24, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QStyleOptionHeader option;
    option.rect = image.rect();
    option.palette.setColor(QPalette::ButtonText, Qt::black);
    option.palette.setColor(QPalette::Text, Qt::black);
    option.palette.setColor(QPalette::WindowText, Qt::black);
    // What QHeaderView::paintSection hands the style.
    option.sortIndicator = order == Qt::AscendingOrder ? QStyleOptionHeader::SortDown : QStyleOptionHeader::SortUp;
    QPainter painter(&image);
    style.drawPrimitive(QStyle::PE_IndicatorHeaderArrow, &option, &painter);
    painter.end();
    // The widths of the arrow's first and last rows of ink.
    std::vector<int> widths;
    for (int y = 0; y < image.height(); ++y) {
        int ink = 0;
        for (int x = 0; x < image.width(); ++x)
            ink += qGray(image.pixel(x, y)) < 160;
        if (ink > 0)
            widths.push_back(ink);
    }
    const int top = widths.empty() ? 0 : widths.front(), bottom = widths.empty() ? 0 : widths.back();
    return {top, bottom};
}

} // namespace

TEST(SortArrow, NewestFirstPointsDownOldestFirstUp)
{
    SortArrowStyle style(QStyleFactory::create(QStringLiteral("Fusion")));
    const auto [descTop, descBottom] = arrowInk(style, Qt::DescendingOrder);
    ASSERT_GT(descTop + descBottom, 0) << "the style drew no arrow";
    EXPECT_GT(descTop, descBottom) << "▼: its wide side on top";
    const auto [ascTop, ascBottom] = arrowInk(style, Qt::AscendingOrder);
    EXPECT_LT(ascTop, ascBottom) << "▲: its wide side below";
}
