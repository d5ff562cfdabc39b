#pragma once
// Prometheus text exposition 0.0.4 (a saved /metrics response, or a file holding several
// scrapes one after another; model/formats/prometheustext.h says how scrapes are told apart).
//
// One scrape: one scenario "prometheus/snapshot" (or "prometheus/<instance>" per target when
// samples carry an `instance` label, as federation output does) with every finite sample as
// a dotted metric "prom.<series>" (Prometheus' own series spelling, values in the exporter's
// units), plus "prom.<histogram series>.p50|p99|p999" since the target started.
//
// Two or more scrapes of the same target: one scenario per consecutive pair,
// "prometheus[/<instance>]/window-<n>" of kind "interval", holding
//   prom.<counter series>.rate_per_s       increase / interval (a reset counts from zero)
//   prom.<gauge series>                    the later value
//   prom.<histogram series>.p50|p90|p99|p999|avg|rate_per_s   of the bucket difference
// and for korvet_broker_produce_seconds (summed over its label sets) the shared names
// latency_p50_s, latency_p95_s, latency_p99_s, latency_p999_s, latency_avg_s and
// korvet.produce_requests_per_s, the way the Korvet pipeline reports broker-side latency.
// Percentiles interpolate linearly within the bucket holding the rank, as Prometheus'
// histogram_quantile (model/formats/prometheusdiff.h). The interval comes from the scrapes' times;
// without them the window keeps increases ("….increase") and percentiles, with a warning.
// Two scrapes saved to two files pair into one such interval through importers/prometheus/scrapepair.h
// (`plimsoll import --scrapes BEFORE AFTER`). The importer itself: prometheusImporter()
// (importers/importers.h).

#include "importers/importer.h"
#include "model/formats/prometheustext.h"

namespace plimsoll {

// Scrapes already parsed, in time order (from one file or several): the run described
// above. `text` keys the run to the bytes it came from.
ImportResult prometheusRunFromSnapshots(const std::vector<PromSnapshot> &snapshots,
                                         const std::string &text, QIODevice *in);

// One interval between two scrapes the caller has paired and timed (two files, a "before"
// and an "after": importers/prometheus/scrapepair.h): one run with the "…/window-1" scenarios above,
// over `seconds` (> 0), each with `provenance`. The run's timestamp is the later scrape's
// time when it states one, else empty for the caller to fill. Counters that went down are
// not warned about here: the caller names them with their file and line.
ImportResult prometheusRunFromInterval(const PromSnapshot &earlier, const PromSnapshot &later,
                                       double seconds, const std::string &provenance,
                                       const std::string &text);

} // namespace plimsoll
