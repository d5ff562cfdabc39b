#pragma once
// One Prometheus scrape as `--scrapes` reads each of its two files (importers/prometheus/scrapepair.h):
// the single snapshot a file must hold, and its samples indexed the ways a pair is compared.

#include "importers/importer.h"
#include "model/formats/prometheustext.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plimsoll {

struct OneScrape
{
    PromSnapshot snap;
    std::vector<ImportWarning> warnings;
};

// The single scrape `bytes` hold, or why they are not one (the message without the file name).
std::optional<ImportError> readOneScrape(const std::string &bytes, OneScrape &out);

// Every sample by its series name (name and labels), buckets included. Points into the snapshot.
using ScrapeSeries = std::map<std::string, const PromSample *>;
ScrapeSeries scrapeSeries(const PromSnapshot &s);

// The families that have samples, by name.
std::map<std::string, const PromFamily *> scrapeFamilies(const PromSnapshot &s);

// `instance` label values (empty for samples without one) and the first line of each.
std::map<std::string, int64_t> scrapeInstances(const PromSnapshot &s);

// The product a scrape comes from ("korvet", "redis", "kafka"), by its families' prefixes, and
// the line that says so; empty when none of them.
std::pair<std::string, int64_t> scrapeProduct(const PromSnapshot &s);

// process_start_time_seconds when the scrape has exactly one: (value, line).
std::optional<std::pair<double, int64_t>> scrapeProcessStart(const PromSnapshot &s);

bool isBucketSample(const PromSample &s);

// `before` with a zero for every counter, histogram or summary series that first appears in
// `after`: exporters create a labelled series on its first event, so one missing from the
// earlier scrape was created inside the interval and all of its value was counted there.
PromSnapshot withNewSeriesAtZero(const PromSnapshot &before, const PromSnapshot &after,
                                 const ScrapeSeries &beforeSeries);

} // namespace plimsoll
