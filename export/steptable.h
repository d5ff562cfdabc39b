#pragma once
// A run's step table, as the Korvet page's "Performance Results" table reads: one row per
// scenario (a ramp's steps, a sweep's points); columns for the load factors that differ between
// scenarios (a ramp's producers), then each metric any scenario measured in the order first met,
// then the load factors every scenario states alike (the run's brokers). Cells are in SI units
// and the header names each unit, so a spreadsheet can compute with them.
//
// The run detail shows it, copies it (tab-separated) and saves it; `plimsoll export --format
// steps` writes the same CSV for every selected run.

#include "model/core/records.h"

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct StepTable
{
    struct Column
    {
        std::string name; // a load factor ("producers") or a metric ("latency_p99_s")
        std::string unit; // the catalog's unit ("s", "records/s"); empty when it has none
        bool factor = false;
    };
    struct Row
    {
        std::string scenario;
        std::vector<std::optional<double>> cells; // one per column; none: not stated
    };
    std::vector<Column> columns;
    std::vector<Row> rows;
};

StepTable stepTable(const RunRecord &run);

// "scenario,producers,records_per_s (records/s),…" and one line per row; a cell the scenario
// does not state is empty. With '\t' the same as tab-separated text for the clipboard.
std::string stepTableText(const StepTable &table, char separator = ',');

} // namespace plimsoll
