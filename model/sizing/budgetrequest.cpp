#include "model/sizing/budgetrequest.h"

#include "model/store/store.h"

namespace plimsoll {

BudgetPoints readBudgetPoints(const Store &store, const std::vector<std::string> &runs, PointOrigins origins)
{
    BudgetPoints out;
    std::vector<LatencyPointOrigin> *from = origins == PointOrigins::Named ? &out.origins : nullptr;
    if (runs.empty()) {
        out.points = readLatencyPoints(store, from, &out.leftOut);
        return out;
    }
    out.points = latencyPoints(readRunRecords(store, runs), from, &out.leftOut);
    return out;
}

BudgetAnswer runBudget(const Store &store, const BudgetRequest &request)
{
    BudgetAnswer answer;
    answer.read = readBudgetPoints(store, request.runs);
    answer.result = LatencyBudgetSelector(request.budget).select(answer.read.points);
    return answer;
}

} // namespace plimsoll
