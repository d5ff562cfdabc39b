#include "model/sizing/budgetrequest.h"

#include "model/store/store.h"

namespace plimsoll {

BudgetPoints readBudgetPoints(const Store &store, const std::vector<std::string> &runs)
{
    BudgetPoints out;
    if (runs.empty()) {
        out.points = readLatencyPoints(store, &out.origins);
        return out;
    }
    out.points = latencyPoints(readRunRecords(store, runs), &out.origins);
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
