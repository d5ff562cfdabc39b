#pragma once
// Two runs side by side: per scenario and metric the delta, judged against the noise of the
// recent history of the same series (same target, scenario, metric and tuning contract); and,
// for ramps (scenarios of one family whose load factor varies), the fitted USL parameters, so
// that a loss of scalability shows even when peak throughput holds.
//
// A scenario whose tuning contract differs between the runs is incompatible: it lists the
// differing keys and carries no delta at all.
//
// How a metric's delta is judged. Baseline and current are two single runs of a series whose
// run-to-run spread s comes from its last N earlier values (since its last change point), so
// under "nothing changed" delta / (s·√2) is Student's t with N − 1 degrees of freedom: that
// gives each metric a two-sided p-value. The p-values of every metric compared are corrected
// together by Holm–Bonferroni (model/trends/multipletesting.h) at α (default 0.05): the chance that a
// comparison in which nothing changed flags anything at all stays below α however many metrics
// it holds. A delta is a regression or an improvement only when its corrected p-value is at
// most α and it is larger than a floor (1 % of the baseline): its noise band, in the metric's
// own unit, is the larger of the two. A metric with fewer than two earlier values has no noise
// estimate and no p-value: only the floor judges it.
//
// Two more rules make a verdict depend on what else moved. Throughput of runs at different
// offered rates (model/core/metricroles.h) is not comparable: no verdict, no part in the gate. A
// resource metric (CPU, memory) of a scenario whose throughput changed (or whose offered rate
// differs) is judged per record: within its band per record it "follows throughput" — lower
// broker CPU while throughput fell is no improvement.
//
// Threading: compareRuns() is a pure function over an immutable TrendHistory (the USL fits
// make it too slow for the UI thread: call it from a worker).

#include "model/core/metricroles.h"
#include "model/trends/trendchanges.h"
#include "model/scaling/usl.h"

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct ComparisonOptions
{
    // Recent points of the series since its last change point or noise change, outliers left out.
    int historyRuns = 10;
                                   // the noise is taken from
    double alpha = 0.05;           // family-wise error rate over all metrics compared (Holm)
    double minRelativeBand = 0.01; // a band is never narrower than this fraction of the baseline
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
    double noiseBand = 0;               // |delta| within this is unchanged (SI units, corrected)
    int historyPoints = 0;              // how many earlier runs the noise came from
    double historyStddev = 0;           // their sample standard deviation, SI units
    std::optional<double> pValue;       // two-sided; none without a noise estimate
    std::optional<double> adjustedPValue; // Holm-corrected over every metric with a p-value
    std::optional<double> perRecordChangePercent; // resource metrics, when throughput moved
    std::string note;                   // why the verdict is what it is, when not plain
    Verdict verdict = Verdict::Unchanged;
};

struct ScenarioComparison
{
    std::string scenario;        // the baseline's
    std::string currentScenario; // its counterpart in the current run (the same name when aligned by name)
    bool compatible = true;
    std::string contract;                         // canonical, when compatible
    std::optional<OfferedRate> offeredBaseline;   // what each run's load generator was asked for
    std::optional<OfferedRate> offeredCurrent;
    bool offeredDiffers = false;                  // then throughput metrics are NotComparable
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
    int tested = 0; // metrics whose p-values the correction covered (its m)

    int count(Verdict v) const; // metrics and parameters with this verdict (scenarios for Incompatible)
    bool hasRegression() const { return count(Verdict::Regression) > 0; }
};

// Which scenario of the current run each scenario of the baseline is compared with, when their
// names differ (model/trends/scenarioalignment.h): the pairs, and the load factors that differ
// within them by design ("partitions", or kOfferedRateKey), which leave the contract so that a
// run at 100 partitions and one at 5,000 compare. Empty: scenarios pair by name.
struct ScenarioPairing
{
    std::vector<std::pair<std::string, std::string>> pairs; // baseline scenario, current scenario
    std::vector<std::string> looseFactors;
    bool byName() const { return pairs.empty(); }
};

// Throws std::invalid_argument naming a run that is not in the history.
RunComparison compareRuns(const TrendHistory &history, const std::string &baselineRun,
                          const std::string &currentRun, const ContractPolicies &policies,
                          const ComparisonOptions &options = {}, const ScenarioPairing &pairing = {});

} // namespace plimsoll
