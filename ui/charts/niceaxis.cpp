#include "ui/charts/niceaxis.h"

#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace plimsoll {

void setNiceAxis(QValueAxis *axis, double most, int maxSteps)
{
    maxSteps = std::max(1, maxSteps);
    most = std::isfinite(most) && most > 0 ? most : 1;
    // The tolerance keeps a `most` of exactly 1000 at 5 × 200, not 6 × 200.
    constexpr double kSlack = 1e-9;
    double step = std::pow(10.0, std::floor(std::log10(most / maxSteps)));
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        if (std::ceil(most / (m * step) - kSlack) <= maxSteps) {
            step *= m;
            break;
        }
    }
    const int steps = std::max(1, static_cast<int>(std::ceil(most / step - kSlack)));
    const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + kSlack)));
    axis->setRange(0, steps * step);
    axis->setTickCount(steps + 1);
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
}

} // namespace plimsoll
