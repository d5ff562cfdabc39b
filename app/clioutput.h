#pragma once
// What the CLI prints: JSON shapes that scripts rely on (documented in docs/command-line.md) and the
// plain-text forms for people.

#include "export/runexport.h"
#include "importers/importservice.h"
#include "importers/prometheus/scrapepairimport.h"
#include "model/sizing/budgetrequest.h"
#include "model/store/store.h"

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

namespace plimsoll {

nlohmann::json runsToJson(const std::vector<RunSummary> &runs);

void printImportReport(std::ostream &out, std::ostream &err, const SourceReport &report);
// A pair of scrapes: the interval and how it is known; each warning names the file its line is in.
void printScrapePairReport(std::ostream &out, std::ostream &err, const ScrapePairReport &pair);
void printRunsTable(std::ostream &out, const std::vector<RunSummary> &runs);
void printRunDetail(std::ostream &out, const RunDetail &detail);
// The best point within the budget per product and configuration, then the points left out
// (they measured nothing), each with its run and scenario when `origins` names them.
void printBudget(std::ostream &out, const LatencyBudget &budget, const BudgetResult &result,
                 const std::vector<LatencyPointOrigin> &origins = {});
void printCatalog(std::ostream &out, bool json);
void printFormats(std::ostream &out, bool json);

} // namespace plimsoll
