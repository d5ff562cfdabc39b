#pragma once
// The colours of the Trends chart's marks, shared by the chart, its legend and the list of
// change points so that a red row is the red square on the chart.

#include "model/trends/trendchanges.h"

#include <QColor>

#include <iterator>

namespace plimsoll {

inline QColor trendLineColor()
{
    return QColor(0x1f, 0x77, 0xb4);
}

inline QColor trendVerdictColor(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Regression:
        return QColor(0xd6, 0x27, 0x28);
    case Verdict::Improvement:
        return QColor(0x2c, 0xa0, 0x2c);
    default:
        return QColor(0x7f, 0x7f, 0x7f);
    }
}

inline QColor trendContractColor()
{
    return QColor(0xff, 0x7f, 0x0e);
}

inline QColor trendBaselineColor()
{
    return QColor(0x94, 0x67, 0xbd);
}

// A noise change's hollow diamond: a colour of its own, not a verdict's (its hover text says
// whether the runs got noisier or quieter).
inline QColor trendNoiseColor()
{
    return QColor(0x33, 0x33, 0x33);
}

// The overlays' dashed lines (and a metric overlay's right axis), one colour per overlay slot:
// colours none of the marks use, distinct from each other on light and dark backgrounds.
inline QColor trendOverlayColor(int slot)
{
    static const QColor kColors[] = {QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf),
                                     QColor(0x8c, 0x56, 0x4b), QColor(0xbc, 0xbd, 0x22)};
    return kColors[static_cast<unsigned>(slot) % std::size(kColors)];
}

} // namespace plimsoll
