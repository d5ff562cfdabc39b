#include "model/formats/prometheusdiff.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <unordered_map>

namespace plimsoll {

namespace {

bool isCounterLike(const PromFamily &f, const PromSample &s)
{
    switch (f.type) {
    case PromType::Counter:
        return true;
    case PromType::Histogram:
    case PromType::Summary:
        return s.name.ends_with("_count") || s.name.ends_with("_sum");
    case PromType::Untyped:
        // Without a TYPE line the naming convention is all there is.
        return s.name.ends_with("_total");
    case PromType::Gauge:
        break;
    }
    return false;
}

// An le label as the double it spells; from_chars because strtod follows the locale a Qt
// application sets.
std::optional<double> boundOf(const std::string &le)
{
    if (le == "+Inf" || le == "Inf" || le == "+inf")
        return INFINITY;
    double v = 0;
    const char *begin = le.data() + (le.starts_with('+') ? 1 : 0);
    const auto [ptr, ec] = std::from_chars(begin, le.data() + le.size(), v);
    if (ec != std::errc() || ptr != le.data() + le.size())
        return std::nullopt;
    return v;
}

// Histogram series of one family keyed by their labels without le.
struct HistogramSeries
{
    std::map<double, double> buckets; // le -> cumulative count
    double count = 0, sum = 0;
};

std::map<std::string, HistogramSeries> histogramSeries(const PromFamily &f)
{
    static const std::vector<std::string> withoutLe{"le"};
    const std::string bucketName = f.name + "_bucket", countName = f.name + "_count",
                      sumName = f.name + "_sum";
    std::map<std::string, HistogramSeries> out;
    HistogramSeries *last = nullptr; // a series' samples come together: its buckets, sum, count
    std::string lastKey;
    for (const PromSample &s : f.samples) {
        std::string key = promSeriesName(f.name, s.labels, withoutLe);
        if (!last || key != lastKey) {
            last = &out[key];
            lastKey = std::move(key);
        }
        HistogramSeries &h = *last;
        if (s.name == bucketName) {
            const auto le = s.label("le");
            if (!le)
                continue;
            // "+Inf" and float-noise bounds ("8.999999999999998") read as the doubles they are.
            const auto bound = boundOf(*le);
            if (bound)
                h.buckets[*bound] = s.value;
        } else if (s.name == countName) {
            h.count = s.value;
        } else if (s.name == sumName) {
            h.sum = s.value;
        }
    }
    return out;
}

} // namespace

std::optional<double> histogramQuantile(double q, std::vector<PromBucket> buckets)
{
    if (buckets.size() < 2 || std::isnan(q))
        return std::nullopt;
    std::sort(buckets.begin(), buckets.end(),
              [](const PromBucket &x, const PromBucket &y) { return x.le < y.le; });
    if (!std::isinf(buckets.back().le))
        return std::nullopt;
    if (q < 0)
        return -INFINITY;
    if (q > 1)
        return INFINITY;
    for (size_t i = 1; i < buckets.size(); ++i)
        buckets[i].count = std::max(buckets[i].count, buckets[i - 1].count);
    const double total = buckets.back().count;
    if (total <= 0)
        return std::nullopt;
    const double rank = q * total;
    size_t b = 0;
    while (b < buckets.size() - 1 && buckets[b].count < rank)
        ++b;
    if (b == buckets.size() - 1)
        return buckets[buckets.size() - 2].le;
    if (b == 0 && buckets[0].le <= 0)
        return buckets[0].le;
    double start = 0, end = buckets[b].le, inBucket = buckets[b].count, r = rank;
    if (b > 0) {
        start = buckets[b - 1].le;
        inBucket -= buckets[b - 1].count;
        r -= buckets[b - 1].count;
    }
    if (inBucket <= 0)
        return end;
    return start + (end - start) * (r / inBucket);
}

std::optional<PromHistogramWindow> PromDiff::mergedHistogram(const std::string &family) const
{
    std::optional<PromHistogramWindow> out;
    std::map<double, double> sum;
    for (const PromHistogramWindow &h : histograms) {
        if (h.family != family)
            continue;
        if (!out) {
            out = PromHistogramWindow{};
            out->family = family;
            out->series = family;
        }
        out->count += h.count;
        out->sum += h.sum;
        out->reset |= h.reset;
        for (const PromBucket &bk : h.buckets)
            sum[bk.le] += bk.count;
    }
    if (out)
        for (const auto &[le, count] : sum)
            out->buckets.push_back({le, count});
    return out;
}

PromDiff diffSnapshots(const PromSnapshot &a, const PromSnapshot &b, double seconds)
{
    PromDiff d;
    d.seconds = seconds;
    const double per = seconds > 0 ? 1.0 / seconds : 0;
    // a.family(name) for every family of b, without a search through a's families for each:
    // the first of a's families by each name, as family() finds it.
    std::unordered_map<std::string_view, const PromFamily *> earlierFamilies;
    for (const PromFamily &f : a.families)
        earlierFamilies.emplace(f.name, &f);
    for (const PromFamily &fb : b.families) {
        const auto found = earlierFamilies.find(fb.name);
        const PromFamily *fa = found == earlierFamilies.end() ? nullptr : found->second;
        if (fb.type == PromType::Histogram) {
            const auto later = histogramSeries(fb);
            const auto earlier = fa ? histogramSeries(*fa) : std::map<std::string, HistogramSeries>{};
            for (const auto &[key, hb] : later) {
                auto it = earlier.find(key);
                if (it == earlier.end()) {
                    d.missing.push_back(key);
                    continue;
                }
                const HistogramSeries &ha = it->second;
                PromHistogramWindow w;
                w.family = fb.name;
                w.series = key;
                // Every cumulative count only grows; a drop anywhere means a restart, after
                // which the later scrape alone is the window (Prometheus' rate() does the same).
                w.reset = hb.count < ha.count;
                for (const auto &[le, count] : hb.buckets) {
                    if (auto at = ha.buckets.find(le); at != ha.buckets.end() && count < at->second)
                        w.reset = true;
                }
                for (const auto &[le, count] : hb.buckets) {
                    const auto at = ha.buckets.find(le);
                    const double before = (w.reset || at == ha.buckets.end()) ? 0 : at->second;
                    w.buckets.push_back({le, count - before});
                }
                w.count = w.reset ? hb.count : hb.count - ha.count;
                w.sum = w.reset ? hb.sum : hb.sum - ha.sum;
                d.histograms.push_back(std::move(w));
            }
        }
        std::unordered_map<std::string, double> before; // only looked up: no order needed
        if (fa)
            before.reserve(fa->samples.size());
        if (fa)
            for (const PromSample &s : fa->samples) {
                // Of a histogram only the _count and _sum series are looked up below.
                if (fb.type == PromType::Histogram && s.name.ends_with("_bucket"))
                    continue;
                before[promSeriesName(s.name, s.labels)] = s.value;
            }
        for (const PromSample &s : fb.samples) {
            if (fb.type == PromType::Histogram && s.name.ends_with("_bucket"))
                continue;
            const std::string series = promSeriesName(s.name, s.labels);
            if (!isCounterLike(fb, s)) {
                d.gauges.push_back({fb.name, series, s.value});
                continue;
            }
            auto it = before.find(series);
            if (it == before.end()) {
                d.missing.push_back(series);
                continue;
            }
            PromRate r;
            r.family = fb.name;
            r.series = series;
            r.reset = s.value < it->second;
            r.delta = r.reset ? s.value : s.value - it->second;
            r.perSecond = r.delta * per;
            d.rates.push_back(std::move(r));
        }
    }
    return d;
}

} // namespace plimsoll
