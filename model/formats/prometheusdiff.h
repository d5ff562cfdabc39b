#pragma once
// What happened between two scrapes of the same target: counter rates over the interval and
// the distribution of histogram observations made inside it (the difference of the cumulative
// buckets). Shared by the "prometheus" importer and the bench runner, which scrapes a broker's
// /metrics before and after a step and reports that step's latency from the difference, as
// the Korvet pipeline reports broker-side p50/p99 from korvet_broker_produce_seconds.
//
// Percentiles are never averaged across windows: a window's percentile comes from that
// window's bucket difference only.

#include "model/formats/prometheustext.h"

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct PromBucket
{
    double le = 0;    // upper bound, in the histogram's unit; +Inf for the last bucket
    double count = 0; // cumulative count of observations <= le
};

// Prometheus' histogram_quantile(q, …), 0 <= q <= 1: find the bucket whose cumulative count
// first reaches rank = q * total, then interpolate linearly between its lower bound (the
// previous bucket's le, or 0 for the first bucket when its le > 0) and its upper bound, by
// the rank's position among that bucket's observations. A rank in the +Inf bucket returns
// the highest finite bound. Buckets are sorted by le; counts that decrease by float noise are
// made monotonic first, as Prometheus does. nullopt when there are no observations or no
// +Inf bucket.
std::optional<double> histogramQuantile(double q, std::vector<PromBucket> buckets);

struct PromRate
{
    std::string family;
    std::string series;    // promSeriesName(sample name, labels)
    double delta = 0;      // increase over the interval (after a reset: the later value)
    double perSecond = 0;  // delta / seconds
    bool reset = false;    // the counter went down: the target restarted between the scrapes
};

struct PromGaugeValue
{
    std::string family;
    std::string series;
    double value = 0; // the later scrape's value
};

struct PromHistogramWindow
{
    std::string family;
    std::string series;              // the family name with its labels except le
    std::vector<PromBucket> buckets; // cumulative counts of the observations in the interval
    double count = 0;                // observations in the interval
    double sum = 0;                  // their sum, in the histogram's unit
    bool reset = false;
};

struct PromDiff
{
    double seconds = 0; // the interval, as given
    std::vector<PromRate> rates; // counters, untyped *_total, histogram/summary _count and _sum
    std::vector<PromGaugeValue> gauges; // gauges, untyped others, summary quantiles
    std::vector<PromHistogramWindow> histograms;
    std::vector<std::string> missing; // series of `b` absent from `a` (new since): left out

    // The windows of one histogram family summed over its label sets (histograms are
    // additive): the target-wide distribution. nullopt when the family is absent.
    std::optional<PromHistogramWindow> mergedHistogram(const std::string &family) const;
};

// `a` is the earlier scrape, `b` the later, `seconds` the time between them (> 0).
PromDiff diffSnapshots(const PromSnapshot &a, const PromSnapshot &b, double seconds);

} // namespace plimsoll
