#pragma once
// plimsoll export --format csv|json|jsonl|hlog: the store's runs, scenarios and metrics for
// other tools. Hooked into the `export` command that app/trendcommands.cpp defines (its
// otava-csv format stays there); this file owns the other formats and their selection options.
//
//   csv   one row per metric (run fields, scenario, topology, metric, value); text cells that a
//         spreadsheet would read as a formula are escaped with a leading apostrophe
//   json  an array of runs as `plimsoll show --json` prints them, each scenario with its series
//   jsonl Plimsoll trend records (plimsoll-trend/1): `plimsoll import` reads them back into the
//         same runs, scenarios and metrics (per-window series are not part of that format)
//   hlog  HdrHistogram interval log; the store keeps percentiles, not histograms, so each
//         interval is a histogram rebuilt from one scenario's stored percentiles (said in the
//         log's header)

#include "app/command.h"

#include <memory>
#include <string>
#include <vector>

namespace plimsoll {

struct DataExportSelection
{
    std::vector<std::string> runs; // by id or key; empty: every run
    std::string since;             // ISO-8601, inclusive
    std::vector<std::string> metrics; // only these metrics (csv, json, jsonl); empty: every one
};

bool isDataExportFormat(const std::string &format);
// Adds --run and --since to the export command.
std::shared_ptr<DataExportSelection> addDataExportOptions(CLI::App *exportCommand);
int runDataExport(const CliContext &context, const std::string &format,
                  const std::string &scenarioContains, const std::string &out,
                  const DataExportSelection &selection);

// CSV cell: quoted when needed (RFC 4180); a text cell starting with =, +, -, @, tab or CR gets
// a leading apostrophe so that no spreadsheet runs it as a formula.
std::string csvText(const std::string &text);

} // namespace plimsoll
