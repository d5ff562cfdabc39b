#pragma once
// Choosing an operating point from a concurrency sweep by a latency budget: of the measured
// points whose p99 (and optionally p99.9) fit the budget, the highest-throughput one, per
// configuration, per product and overall. Only sampled points are selected, never an
// interpolated limit: a budget met between two samples was not measured.
//
// Little's law (L = λW) checks each point: in a closed-loop sweep the requests in flight,
// throughput × average latency, should match connections × pipeline depth. A large gap means
// the numbers describe different request populations (client think time, a rate limit,
// dropped connections, or a transcription error).
//
// A point that measured nothing — no throughput, or no latency (p99 zero: an OpenMessaging
// Benchmark run whose windows are all zero stores both as 0) — is no operating point: it is
// left out of every pick and every line, and listed with its reason (degenerateReason()).
//
// Pure computation; no shared state.

#include "model/core/domain.h"

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct LatencyPoint
{
    std::string product;       // e.g. "Redis 8.8.0"
    std::string configuration; // e.g. "16 io-threads"; empty when the product has one
    int connections = 0;
    int pipeline = 1;       // requests in flight per connection
    double throughput = 0;  // operations (or records) per second
    std::optional<double> avgLatency; // seconds; needed only for the Little's law check
    double p99 = 0;                   // seconds
    std::optional<double> p999;       // seconds (p99.9)
    // A Kafka producer or consumer (counted as producers/consumers): asynchronous, with as many
    // requests in flight per connection as its batches allow, so Little's law against connections
    // × pipeline does not apply (that check is for closed-loop clients: redis-benchmark, memtier).
    bool asynchronousClient = false;
};

// Why a point is no measurement a budget can choose, in words ("measured nothing: throughput 0/s
// and p99 0 (empty windows)"); empty when it is one. Zero, negative or non-finite throughput or p99.
std::string degenerateReason(const LatencyPoint &point);
// degenerateReason(point) is not empty, without making its words (a chart tests every point).
bool isDegenerate(const LatencyPoint &point);

struct LatencyBudget
{
    double p99 = 0;              // seconds; a point qualifies when its p99 ≤ this
    std::optional<double> p999;  // seconds; when set, p99.9 ≤ this too (a point without p99.9
                                 // then does not qualify: unmeasured is not within budget)
    // |throughput × avg latency ÷ (connections × pipeline) − 1| above this flags a point.
    double littleTolerance = 0.10;

    static constexpr Domain kP99 = Domain::above(0, "s");
    static constexpr Domain kP999 = Domain::above(0, "s");
    static constexpr Domain kLittleTolerance =
        Domain::between(0, 1).withNote("the fraction by which L = λW may miss; 0.1 = 10 %");
};

struct LittleCheck
{
    bool checked = false;   // false when the point has no average latency or no connections,
                            // or is an asynchronous client's (notApplicable)
    bool notApplicable = false; // an asynchronous client: in flight is not connections × pipeline
    double outstanding = 0; // throughput × avg latency: requests in flight by Little's law
    double expected = 0;    // connections × pipeline
    double ratio = 0;       // outstanding ÷ expected
    bool flagged = false;   // |ratio − 1| > tolerance
};

struct BudgetedPoint
{
    LatencyPoint point;
    std::size_t index = 0; // the point's place in the input (BudgetResult::points)
    bool qualifies = false;
    // Measured nothing (degenerateReason()): never qualifies, never a nearest miss.
    bool leftOut = false;
    std::string reason; // why it does or does not qualify (or was left out), in words
    LittleCheck little;
};

struct BudgetSelection
{
    std::string product;
    std::string configuration; // empty in the per-product and overall selections
    bool found = false;        // false: no point of this group met the budget
    BudgetedPoint best;        // the highest-throughput qualifying point, when found
    // When none qualifies, why the nearest did not: of the points within the p99 budget the
    // fastest (its p99.9 missed or was not measured), else the lowest p99; when every point of
    // the group was left out, that and why. Empty when found.
    std::string missedBecause;
    bool allLeftOut = false; // every point of the group measured nothing (missedBecause says what)
};

struct BudgetResult
{
    std::vector<BudgetedPoint> points;             // every input point, in input order
    std::vector<BudgetSelection> perConfiguration; // product + configuration, first-seen order
    std::vector<BudgetSelection> perProduct;       // best across a product's configurations
    BudgetSelection overall;
    int flaggedPoints = 0; // points failing the Little's law check
    int leftOutPoints = 0; // points that measured nothing (BudgetedPoint::leftOut)
};

class LatencyBudgetSelector
{
public:
    explicit LatencyBudgetSelector(LatencyBudget budget);
    // Budgets in seconds, default Little's law tolerance.
    explicit LatencyBudgetSelector(double p99, std::optional<double> p999 = std::nullopt);

    static LittleCheck littleCheck(const LatencyPoint &point, double tolerance = 0.10);
    BudgetResult select(const std::vector<LatencyPoint> &points) const;

    const LatencyBudget &budget() const { return m_budget; }

private:
    LatencyBudget m_budget;
};

} // namespace plimsoll
