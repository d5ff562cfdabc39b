#include "ui/charts/chartpalette.h"

#include <array>
#include <cmath>

namespace plimsoll {

QColor seriesColor(int index)
{
    // Tableau's ten without its red, then two of its light tones: distinct on light and dark
    // backgrounds alike.
    static const std::array<QColor, 12> kPalette = {
        QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
        QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2),
        QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22), QColor(0x17, 0xbe, 0xcf),
        QColor(0x39, 0x3b, 0x79), QColor(0xaa, 0xdc, 0x32), QColor(0xff, 0xbb, 0x78)};
    if (index >= 0 && index < int(kPalette.size()))
        return kPalette[size_t(index)];
    // Beyond the palette: the golden angle keeps each new hue far from all before it, and a
    // stepped value keeps neighbours apart when hues come close.
    const double hue = std::fmod(0.1 + index * 0.6180339887498949, 1.0);
    return QColor::fromHsvF(float(hue), 0.7f, index % 2 ? 0.65f : 0.9f);
}

} // namespace plimsoll
