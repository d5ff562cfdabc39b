#pragma once
// What `plimsoll compare` prints: the JSON report (documented in docs/trends.md) and the text
// table for people, which folds a tool's per-quantile metrics (`publish.quantile.50`, …) into
// one row per family unless asked for every row.

#include "model/trends/runcomparison.h"
#include "model/trends/runscomparison.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace plimsoll {

const char *directionWord(Direction d);
nlohmann::json differencesJson(const std::vector<ContractDifference> &diffs);

nlohmann::json comparisonJson(const RunComparison &r);
// allRows: every metric on a row of its own, quantile families unfolded.
void printComparison(std::ostream &out, const RunComparison &r, bool allRows);

// Any number of runs (app/comparerunsoutput.cpp): the metric × run table and how scenarios were
// aligned; two runs print and report as comparisonJson()/printComparison(), with these beside.
nlohmann::json runsComparisonJson(const RunsComparison &r);
void printRunsComparison(std::ostream &out, const RunsComparison &r, bool allRows);

// "publish.quantile.*" for "publish.quantile.99.9"; empty for a metric of no quantile family.
std::string quantileFamily(const std::string &metric);

} // namespace plimsoll
