#pragma once
// Display helpers shared by the views. Values stay in SI units in the store; these only
// decide how a number, a time or a JSON object reads on screen.

#include <QDateTime>
#include <QString>

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace plimsoll {

// Parses a stored ISO-8601 UTC timestamp; invalid QDateTime when it is not one.
QDateTime parseStoredTimestamp(std::string_view timestamp);
// "2024-05-01 03:12:45" in local time, or the raw text when it does not parse.
QString displayTimestamp(std::string_view timestamp);
// UTF-8 text held outside a std::string (a trend point's fields) as a QString.
inline QString qtext(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}
// Commit hashes are shown abbreviated in tables; the full hash stays in tooltips and details.
QString shortCommit(const std::string &commit);
// Tuning and environment objects as "key=value, key=value"; "—" when empty.
QString compactJson(const nlohmann::json &object);
// A metric value as the catalog formats it (tool-specific names included).
QString displayMetric(const std::string &name, double value);
// A metric's name for reading: a quantile key written with float noise
// ("publish.quantile.99.90000000000001") as its percentile ("publish p99.9").
QString displayMetricName(const std::string &name);

// How to scale a catalog unit for a chart axis so the tick labels stay short: latencies in
// seconds become ms or µs, fractions percent, byte quantities KiB/MiB/GiB (1 KiB = 1024 B, as
// the seed page does), rates and counts thousands (k) or millions (M).
struct AxisScale
{
    double factor = 1; // displayed = stored * factor
    QString unit;      // label for the axis, e.g. "ms"
};
AxisScale axisScaleFor(std::string_view unit, double maxAbsValue);

// A dimensionless number to `significant` digits without exponent notation: "0.0800",
// "0.000123", "12.3", "0"; below 0.0001, a power of ten ("3.97 × 10⁻⁸", powerOfTenText());
// "∞" for infinity, "—" for NaN.
QString plainNumber(double value, int significant = 3);
// A value below 0.001 in magnitude as a power of ten a reader takes in at once: "3.97 × 10⁻⁸"
// (`significant` digits), where a decimal would need more than three leading zeros.
QString powerOfTenText(double value, int significant = 3);

} // namespace plimsoll
