#pragma once
// `plimsoll export --format csv|json|jsonl|hlog|steps` as one request: the store's runs, scenarios and
// metrics for other tools. The command translates its options into an ExportRequest; the
// selection and every format are here.
//
//   csv   one row per metric (run fields, scenario, topology, metric, value); text cells that a
//         spreadsheet would read as a formula are escaped with a leading apostrophe
//   json  an array of runs as `plimsoll show --json` prints them, each scenario with its series
//   jsonl Plimsoll trend records (plimsoll-trend/1): `plimsoll import` reads them back into the
//         same runs, scenarios and metrics (per-window series are not part of that format)
//   hlog  HdrHistogram interval log; the store keeps percentiles, not histograms, so each
//         interval is a histogram rebuilt from one scenario's stored percentiles (said in the
//         log's header)
//   steps one run's step table (export/steptable.h): a row per scenario, a column per load
//         factor and metric, units in the header, as the run detail in the window shows it
// Otava's CSV (export/otavacsv.h) is one series per file and has a request of its own.

#include "model/store/store.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace plimsoll {

struct ExportRequest
{
    std::string format;               // csv, json, jsonl, hlog or steps
    std::string scenarioContains;     // only scenarios whose name contains this; empty: every one
    std::vector<std::string> runs;    // by id or key; empty: every run
    std::string since;                // ISO-8601 time or date, inclusive; empty: no bound
    std::vector<std::string> metrics; // only these metrics (csv, json, jsonl); empty: every one
};

struct ExportResult
{
    std::string text;       // the whole file: written whole or not at all by the caller
    std::size_t runs = 0;   // runs exported, oldest first (then by key): the same store gives the same bytes
    int histograms = 0;     // hlog: intervals rebuilt from stored percentiles
};

// A request that cannot be answered: an unknown format, a run that is not in the store, a
// --since that is no time, --metric with hlog, a metric that JSON cannot hold.
class ExportError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

bool isRunExportFormat(const std::string &format);
// What makes the request unanswerable before any run is read (an unknown format, --metric with
// hlog), as the message says it; empty when there is nothing.
std::string exportRequestProblem(const ExportRequest &request);
// Throws ExportError.
ExportResult exportRuns(const Store &store, const ExportRequest &request);

// The JSON form of a run, as `plimsoll show --json` prints it.
nlohmann::json runDetailToJson(const RunDetail &detail);

} // namespace plimsoll
