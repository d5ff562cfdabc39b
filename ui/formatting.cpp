#include "ui/formatting.h"

#include "model/core/catalog.h"

#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace plimsoll {

QDateTime parseStoredTimestamp(std::string_view timestamp)
{
    const QString text = qtext(timestamp);
    QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!time.isValid())
        time = QDateTime::fromString(text, Qt::ISODate);
    return time;
}

QString displayTimestamp(std::string_view timestamp)
{
    const QDateTime time = parseStoredTimestamp(timestamp);
    if (!time.isValid())
        return qtext(timestamp);
    return time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString shortCommit(const std::string &commit)
{
    // Ten hex digits stay unambiguous in any repository a benchmark is likely to come from.
    return QString::fromStdString(commit).left(10);
}

QString compactJson(const nlohmann::json &object)
{
    if (object.is_null() || (object.is_object() && object.empty()))
        return QStringLiteral("—");
    if (!object.is_object())
        return QString::fromStdString(object.dump());
    QStringList parts;
    for (const auto &[key, value] : object.items()) {
        std::string text = value.is_string() ? value.get<std::string>() : value.dump();
        // A whole number written as a float by its tool ("producerRate": 1000000.0) reads as
        // the number it is; other floats keep the shortest text that reads back exactly.
        if (value.is_number_float()) {
            const double number = value.get<double>();
            if (std::isfinite(number) && number == std::floor(number) && std::fabs(number) < 1e15)
                text = std::to_string(static_cast<long long>(number));
        }
        parts << QStringLiteral("%1=%2").arg(QString::fromStdString(key),
                                             QString::fromStdString(text));
    }
    return parts.join(QStringLiteral(", "));
}

QString displayMetric(const std::string &name, double value)
{
    return QString::fromStdString(formatMetric(name, value));
}

namespace {

// A percentile to four significant digits of its distance to the nearer end of 0 … 100, in
// fixed notation: 99.99999171901807 reads "99.999991719" (not "100", which six significant
// digits round it to), the lowest bucket OpenMessaging Benchmark reports, 2.7852e-07, reads
// "0.0000002785", and 37.5012 reads "37.5". Four, because HdrHistogram's percentile iteration
// puts neighbouring buckets 0.007 apart at p98.5: with three, rows of the same run read alike.
// Trailing zeros go: "99.9", "50", "100".
QString percentileText(double p)
{
    const double nearerEnd = std::min(p, 100 - p);
    int decimals = 0;
    if (nearerEnd > 0)
        decimals = std::clamp(3 - int(std::floor(std::log10(nearerEnd))), 0, 12);
    QString text = QString::number(p, 'f', decimals);
    if (text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    return text;
}

} // namespace

QString displayMetricName(const std::string &name)
{
    static constexpr std::string_view kQuantile = ".quantile.";
    const size_t at = name.find(kQuantile);
    if (at == std::string::npos)
        return QString::fromStdString(name);
    const std::string number = name.substr(at + kQuantile.size());
    char *end = nullptr;
    const double p = std::strtod(number.c_str(), &end);
    if (end == number.c_str() || *end != '\0')
        return QString::fromStdString(name);
    if (!(p >= 0 && p <= 100))
        return QString::fromStdString(name);
    return QString::fromStdString(name.substr(0, at)) + QStringLiteral(" p") + percentileText(p);
}

AxisScale axisScaleFor(std::string_view unit, double maxAbsValue)
{
    const QString label = QString::fromUtf8(unit.data(), static_cast<qsizetype>(unit.size()));
    if (unit == "s") {
        if (maxAbsValue > 0 && maxAbsValue < 1e-3)
            return {1e6, QStringLiteral("µs")};
        if (maxAbsValue > 0 && maxAbsValue < 1)
            return {1e3, QStringLiteral("ms")};
        return {1, label};
    }
    if (unit == "fraction")
        return {100, QStringLiteral("%")};
    if (unit == "bytes" || unit == "bytes/s") {
        const QString rate = unit == "bytes/s" ? QStringLiteral("/s") : QString();
        if (maxAbsValue >= std::pow(1024.0, 3))
            return {1 / std::pow(1024.0, 3), QStringLiteral("GiB") + rate};
        if (maxAbsValue >= std::pow(1024.0, 2))
            return {1 / std::pow(1024.0, 2), QStringLiteral("MiB") + rate};
        if (maxAbsValue >= 1024)
            return {1 / 1024.0, QStringLiteral("KiB") + rate};
        return {1, label};
    }
    // Rates and counts: thousands and millions keep tick labels out of exponent notation.
    const QString base = label.isEmpty() ? QString() : QLatin1Char(' ') + label;
    if (maxAbsValue >= 1e6)
        return {1e-6, QStringLiteral("M") + base};
    if (maxAbsValue >= 1e4)
        return {1e-3, QStringLiteral("k") + base};
    return {1, label.isEmpty() ? QStringLiteral("value") : label};
}

QString plainNumber(double value, int significant)
{
    if (std::isnan(value))
        return QStringLiteral("—");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
    if (value == 0)
        return QStringLiteral("0");
    // Digits after the point so that `significant` digits show; none for large values, which
    // then show every digit rather than an exponent.
    const int magnitude = int(std::floor(std::log10(std::fabs(value))));
    if (magnitude < -4) // past 0.0000…: a power of ten
        return powerOfTenText(value, significant);
    const int decimals = std::clamp(significant - 1 - magnitude, 0, 12);
    return QString::number(value, 'f', decimals);
}

QString powerOfTenText(double value, int significant)
{
    const int exponent = int(std::floor(std::log10(std::fabs(value))));
    static const char32_t kSuperscripts[] = {U'⁰', U'¹', U'²', U'³', U'⁴', U'⁵', U'⁶', U'⁷', U'⁸', U'⁹'};
    QString power = exponent < 0 ? QStringLiteral("⁻") : QString();
    for (const QChar c : QString::number(std::abs(exponent)))
        power += QString::fromUcs4(&kSuperscripts[c.digitValue()], 1);
    return QStringLiteral("%1 × 10%2").arg(QLocale().toString(value / std::pow(10, exponent), 'g', significant), power);
}

} // namespace plimsoll
