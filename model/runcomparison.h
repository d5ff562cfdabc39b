#pragma once
// Two runs side by side: per scenario and metric the delta, judged against the noise of the
// recent history of the same series (same target, scenario, metric and tuning contract); and,
// for ramps (scenarios of one family whose load factor varies), the fitted USL parameters, so
// that a loss of scalability shows even when peak throughput holds.
//
// A scenario whose tuning contract differs between the runs is incompatible: it lists the
// differing keys and carries no delta at all.
//
// Threading: compareRuns() is a pure function over an immutable TrendHistory (the USL fits
// make it too slow for the UI thread: call it from a worker).

#include "model/trendchanges.h"
#include "model/usl.h"

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct ComparisonOptions
{
    int historyRuns = 10;        // recent points of the series (since its last change point)
                                 // the noise band is taken from
    double bandSigmas = 2;       // the band is this many standard deviations of that history
    double minRelativeBand = 0.01; // and never narrower than this fraction of the baseline
    bool scalability = true;     // fit and compare USL parameters of ramps
    int bootstrapResamples = 200; // for the parameters' confidence intervals
};

struct MetricComparison
{
    std::string metric;
    Direction direction = Direction::Neutral;
    double baseline = 0;
    double current = 0;
    double delta = 0;                   // current − baseline, SI units
    std::optional<double> deltaPercent; // none when the baseline is 0
    double noiseBand = 0;               // |delta| within this is unchanged
    int historyPoints = 0;              // how many earlier runs the band came from
    Verdict verdict = Verdict::Unchanged;
};

struct ScenarioComparison
{
    std::string scenario;
    bool compatible = true;
    std::string contract;                         // canonical, when compatible
    std::vector<ContractDifference> differences;  // when incompatible
    std::vector<MetricComparison> metrics;        // empty when incompatible
};

struct ParameterComparison
{
    std::string name; // "lambda", "sigma", "kappa", "n_star"
    Direction direction = Direction::Neutral;
    double baseline = 0;
    double current = 0;
    UslInterval baselineCi;
    UslInterval currentCi;
    Verdict verdict = Verdict::Unchanged;
};

struct RampComparison
{
    std::string family; // scenario-name prefix, e.g. "pipeline/produce/"
    std::string factor; // the load factor that varies, e.g. "producers"
    std::string metric; // throughput fitted: records_per_s or bytes_per_s
    bool compatible = true;
    std::vector<ContractDifference> differences;
    std::string note; // why there are no parameters (a fit failed), else empty
    int baselineSteps = 0;
    int currentSteps = 0;
    std::vector<ParameterComparison> parameters; // empty when incompatible or not fitted
};

struct RunIdentity
{
    std::string runKey;
    std::string timestamp;
    std::string commit;
    std::string imageDigest;
    std::string target;
    nlohmann::json tuning;
};

struct RunComparison
{
    RunIdentity baseline;
    RunIdentity current;
    ComparisonOptions options;
    std::vector<ScenarioComparison> scenarios;
    std::vector<RampComparison> ramps;
    std::vector<std::string> onlyInBaseline;
    std::vector<std::string> onlyInCurrent;

    int count(Verdict v) const; // metrics and parameters with this verdict (scenarios for Incompatible)
    bool hasRegression() const { return count(Verdict::Regression) > 0; }
};

// Throws std::invalid_argument naming a run that is not in the history.
RunComparison compareRuns(const TrendHistory &history, const std::string &baselineRun,
                          const std::string &currentRun, const ContractPolicies &policies,
                          const ComparisonOptions &options = {});

} // namespace plimsoll
