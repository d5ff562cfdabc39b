#pragma once
// Two scrapes of one Prometheus target saved to two files, the way users capture a workload:
//
//     curl -s http://broker:9404/metrics > before.prom
//     <the workload>
//     curl -s http://broker:9404/metrics > after.prom
//     plimsoll import --scrapes before.prom after.prom
//
// They become ONE source (uri "<before> + <after>", sha256 over the bytes of both files in
// that order) and one run, tool "prometheus", committed in one transaction
// (importers/prometheus/scrapepairimport.h; this file is the pure part). Its scenario
// "prometheus[/<instance>]/window-1" (kind "interval") holds what happened between the scrapes:
// counter rates = increase / interval, histogram percentiles of the bucket difference with
// Prometheus' histogram_quantile interpolation (linear within the bucket holding the rank:
// model/formats/prometheusdiff.h), and for korvet_broker_produce_seconds the shared latency names
// (importers/prometheus/prometheusimporter.h lists every metric).
//
// The interval, first that applies:
//   1. --interval, as given ("interval_from": "--interval");
//   2. the scrapes' own times when both files state one: a time line a harness wrote before
//      the scrape (`date; curl …`) or sample timestamps — read ("scrape times");
//   3. the files' modification times (curl writes the file as the scrape ends) — inferred
//      ("file modification times"), with an "interval-inferred" warning.
// The run records it in its environment: scrape_files, interval_s, interval_from, and
// "inferred": ["interval_s", "timestamp"] for what was inferred rather than read. The run is
// dated by the later scrape's time, else by the after file's modification time (inferred).
// A counter or histogram series that only the after scrape has was created during the
// interval (exporters create a labelled series on its first event): it counts from zero.
//
// Refused (nothing written; the message names the file and line): a file that is not one
// Prometheus scrape; the same file or the same bytes twice; an after scrape that is not later
// than the before scrape (by the scrapes' times, by process_start_time_seconds, by the files'
// modification times when they give the interval, or every counter going down within one
// process); scrapes of different targets (disjoint `instance` labels, a Korvet broker against
// a Redis or Kafka exporter, fewer than half of the metric families in common). Warned:
// counters that went down (the target restarted: their increase counts from zero, as
// Prometheus' rate() does), series in one file only, an --interval that disagrees with the
// scrapes' times, two scrapes with the same values.

#include "importers/importer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace plimsoll {

// One of the two files, read.
struct ScrapeFile
{
    std::string name;  // as the user gave it, for messages ("before.prom")
    std::string uri;   // absolute path
    std::string bytes; // the whole file
    std::optional<int64_t> modifiedNs; // modification time, ns since the Unix epoch
};

// Which file a warning's line or the error's line is in.
enum class ScrapeSide { Neither = -1, Before = 0, After = 1 };

struct ScrapePair
{
    ImportResult result;                  // one run, or the error
    std::vector<ScrapeSide> warningSides; // one per result.warnings
    ScrapeSide errorSide = ScrapeSide::Neither;
    double intervalS = 0;     // when paired
    std::string intervalFrom; // "--interval", "scrape times", "file modification times"
};

// The pure part: two files' bytes to one run or a precise refusal. `intervalS` (> 0) is the
// --interval option when given.
ScrapePair pairScrapes(const ScrapeFile &before, const ScrapeFile &after,
                       std::optional<double> intervalS = std::nullopt);

// "<before uri> + <after uri>": the source uri of a pair.
std::string scrapePairUri(const std::string &beforeUri, const std::string &afterUri);

// A number as the pair's messages write it: the shortest text that reads back as it, in no
// locale.
std::string scrapeNumberText(double v);

} // namespace plimsoll
