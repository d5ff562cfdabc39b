#pragma once
// Series colours for every chart of the window and the report: a qualitative palette whose
// colours never repeat within a chart (after its twelve, hues spread by the golden angle), none
// of them the red that marks budgets and hottest bars.

#include <QColor>

namespace plimsoll {

// The colour of the index-th series of a chart.
QColor seriesColor(int index);

// The red of budget lines and highlighted bars, never a series colour.
inline QColor highlightColor()
{
    return QColor(0xd6, 0x27, 0x28);
}

} // namespace plimsoll
