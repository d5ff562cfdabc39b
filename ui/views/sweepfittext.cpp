#include "ui/views/sweepfittext.h"

#include "model/core/catalog.h"
#include "ui/formatting.h"

#include <QObject>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <functional>

namespace plimsoll {

namespace {

QString tr(const char *text) { return QObject::tr(text); }

QString metricText(const std::string &metric, double v)
{
    return std::isfinite(v) ? displayMetric(metric, v) : plainNumber(v);
}

// "per broker", "per record/s offered", "per byte of record size".
QString perUnit(const std::string &factor)
{
    if (factor == kOfferedRateFactor)
        return tr("per record/s offered");
    if (factor == "record_size_bytes")
        return tr("per byte of record size");
    if (factor.size() > 1 && factor.back() == 's')
        return tr("per %1").arg(QString::fromStdString(factor.substr(0, factor.size() - 1)));
    return tr("per unit of %1").arg(QString::fromStdString(factor));
}

// " [lo, hi]"; nothing when the fit has no intervals at all (sweepIntervalNote() says why once),
// " (no interval)" when this parameter alone has none.
QString interval(const UslInterval &ci, const QString &reason, const std::function<QString(double)> &format)
{
    if (!reason.isEmpty())
        return {};
    if (!std::isfinite(ci.lo) || !std::isfinite(ci.hi))
        return tr(" (no interval)");
    return QStringLiteral(" [%1, %2]").arg(format(ci.lo), format(ci.hi));
}

QString reasonOf(const SweepFitResult &r, const SweepFitRequest &request)
{
    return QString::fromStdString(noIntervalReason(r.fit.usl, request.usl));
}

} // namespace

QString factorValueText(double x, const std::string &factor)
{
    if (factor == kOfferedRateFactor)
        return metricText("records_per_s", x);
    if (x == std::floor(x) && std::fabs(x) < 1e15)
        return QString::number(qlonglong(x));
    return plainNumber(x, 4);
}

QString sweepAnswerText(const SweepFitResult &r)
{
    QStringList lines{QString::fromStdString(r.fit.headline)};
    for (const std::string &l : r.fit.leftOut)
        lines << QString::fromStdString(l);
    for (const std::string &f : r.sweep.sameAsX)
        lines << tr("%1 equals %2 at every point: the same load, not a setting that differs")
                     .arg(QString::fromStdString(f), QString::fromStdString(r.sweep.factor));
    return lines.join(QLatin1Char('\n'));
}

QString sweepParametersText(const SweepFitResult &r, const SweepFitRequest &request)
{
    const UslFit &fit = r.fit.usl;
    const std::string &metric = request.spec.metric;
    const QString reason = reasonOf(r, request);
    auto rate = [&](double v) { return metricText(metric, v); };
    auto plain = [](double v) { return plainNumber(v); };
    QStringList parts{tr("λ %1 %2").arg(rate(fit.params.lambda), perUnit(request.spec.factor)) +
                      interval(fit.lambdaCi, reason, rate)};
    if (fit.model != UslModel::Linear)
        parts << tr("σ %1").arg(plain(fit.params.sigma)) + interval(fit.sigmaCi, reason, plain);
    if (fit.model == UslModel::Full)
        parts << tr("κ %1").arg(plain(fit.params.kappa)) + interval(fit.kappaCi, reason, plain);
    parts << (reason.isEmpty() ? tr("%1 % intervals from %2 bootstrap refits")
                                     .arg(QString::number(fit.confidenceLevel * 100, 'g', 3))
                                     .arg(fit.resamples)
                               : tr("no interval (%1)").arg(reason));
    return parts.join(QStringLiteral(" · "));
}

QString sweepShapeText(const SweepFitResult &r, const SweepFitRequest &request)
{
    const UslFit &fit = r.fit.usl;
    const std::string &metric = request.spec.metric;
    // The peak's number only where measured points bracket it; otherwise the headline already
    // says where it lies (sweepAnswerText()).
    QString text = tr("R² %1").arg(QString::number(fit.r2, 'f', 4));
    if (fit.peakMeasured())
        text += tr(" · N* %1 (%2 at the peak), between measured points")
                    .arg(plainNumber(fit.nStar), metricText(metric, fit.xAtNStar));
    text += QStringLiteral(" · ") + QString::fromUtf8(toString(fit.limit));
    if (fit.weak)
        text += tr("\nWeak fit: %1").arg(QString::fromStdString(fit.weakReason));
    return text;
}

QString sweepKneeText(const SweepFitResult &r)
{
    if (!r.fit.knee) {
        const auto missing = std::count_if(r.sweep.points.begin(), r.sweep.points.end(),
                                           [](const SweepPoint &p) { return !p.offered || !p.achieved; });
        return tr("Knee: none — %1 of %2 points state no offered rate (a fixed-rate sweep has one: "
                  "choose the load factor %3)")
            .arg(missing)
            .arg(r.sweep.points.size())
            .arg(QString::fromUtf8(kOfferedRateFactor));
    }
    const KneeResult &k = *r.fit.knee;
    if (!k.ok)
        return tr("Knee: none (%1)").arg(QString::fromStdString(k.error));
    const QString rule = QString::fromUtf8(toString(k.rule));
    if (!k.bounded)
        return tr("Knee: none, every step kept up; capacity at least %1")
            .arg(metricText("records_per_s", k.capacity));
    if (k.kneeStep == 0)
        return tr("Knee at the first step (%1 rule): the sweep started above capacity; measure lower "
                  "offered rates")
            .arg(rule);
    return tr("Knee (%1 rule) at %2 offered, %3 achieved: capacity %4, ceiling %5")
        .arg(rule, metricText("records_per_s", k.kneeOffered), metricText("records_per_s", k.kneeAchieved),
             metricText("records_per_s", k.capacity), metricText("records_per_s", k.ceiling));
}

QString sweepP99Text(const SweepFitResult &r, const QString &factor)
{
    if (r.p99AgainstLoad.empty())
        return tr("p99 against load: no point states a p99");
    QStringList parts;
    for (const P99AtLoad &p : r.p99AgainstLoad)
        parts << tr("%1 → %2%3")
                     .arg(factorValueText(p.x, factor.toStdString()), metricText("latency_p99_s", p.p99),
                          p.points > 1 ? tr(" (median of %1)").arg(p.points) : QString());
    return tr("p99 against %1: %2").arg(factor, parts.join(QStringLiteral(" · ")));
}

QString sweepContractText(const SweepFitResult &r)
{
    const Sweep &sw = r.sweep;
    QString text = tr("Shared contract (%1 left out): %2")
                       .arg(QString::fromStdString(sw.factor),
                            sw.contract.empty() ? tr("no settings") : QString::fromStdString(sw.contract));
    QStringList leftOut;
    for (const SweepKeyDifference &d : sw.leftOut)
        leftOut << QString::fromStdString(d.describe());
    text += leftOut.isEmpty() ? tr("\nLeft out of the contract: no key differs among the points")
                              : tr("\nLeft out of the contract, differing among the points: %1")
                                    .arg(leftOut.join(QStringLiteral("; ")));
    return text;
}

} // namespace plimsoll
