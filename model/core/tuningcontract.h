#pragma once
// The tuning contract of one scenario of one run: the settings that make two measurements
// comparable. Two runs whose contracts differ are an incompatible baseline — never a
// performance delta (a changed batch size or partition count is not a regression).
//
// Keys, each with a canonical text value (absent settings have no key):
//   tuning.<name>      every entry of the run's tuning JSON (nested objects flattened by '.')
//   tool, tool_major   the benchmark tool and the major part of its version ("1.4.2" -> "1")
//   topology.<factor>  brokers, shards, partitions, producers, consumers, clients, connections,
//                      threads, pipeline, record_size_bytes, agents, replication, batch_bytes, acks
//   compression
//   offered_rate       the offered rate a metric of the scenario states (a ramp step's
//                      ramp.offered_records_per_s, a command's or a harness path's
//                      …offered_records_per_s: metricroles.h; the first by name when several
//                      do), records/s to ten significant digits. A rate the run's tuning states
//                      is under tuning.* already.
// The offered rate and the topology's load factors (catalog.h: factorCatalog()) are the load a
// scenario ran at (isLoadKey()): runs at two loads are two series, never one history.
// Which keys count is chosen per scenario family (a scenario-name prefix): a family policy
// lists keys (or "prefix.*" patterns) left out of the contract. Policies are kept in the store
// (model/store/sharedsettings.h) so that every window, command and CI job on it — a team's
// included — reads the same choice.

#include "model/core/records.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct ContractPolicy
{
    std::string family;                // scenario-name prefix, e.g. "pipeline/produce/"
    std::vector<std::string> excluded; // keys or "prefix.*" patterns left out

    bool excludes(const std::string &key) const;
};

// The family a scenario belongs to when none is configured: its name up to and including the
// last '/' ("pipeline/produce/step-16" -> "pipeline/produce/"), or the whole name.
std::string scenarioFamily(const std::string &scenario);

class ContractPolicies
{
public:
    ContractPolicies() = default;
    explicit ContractPolicies(std::vector<ContractPolicy> policies);

    // The policy of the longest configured family that prefixes `scenario` (an empty one when
    // none does). Command-line exclusions are added on top of it.
    ContractPolicy forScenario(const std::string &scenario) const;
    const std::vector<ContractPolicy> &policies() const { return m_policies; }
    // The exclusions configured for exactly this family (not a longer or shorter prefix's).
    std::vector<std::string> excludedOf(const std::string &family) const;
    // Replaces (or, with no exclusions, removes) the policy of `family`.
    void set(const std::string &family, std::vector<std::string> excluded);
    // Exclusions applied to every family (from --contract-exclude), not persisted.
    void addGlobalExclusions(const std::vector<std::string> &keys);

private:
    std::vector<ContractPolicy> m_policies; // sorted by family
    std::vector<std::string> m_global;
};

struct ContractDifference
{
    std::string key;
    std::optional<std::string> baseline; // nullopt: the setting is absent
    std::optional<std::string> current;
};

class TuningContract
{
public:
    TuningContract() = default;
    // Every key (before the policy) of a scenario of a run.
    static std::map<std::string, std::string> allSettings(const RunRecord &run,
                                                          const ScenarioRecord &scenario);
    static TuningContract of(const RunRecord &run, const ScenarioRecord &scenario,
                             const ContractPolicy &policy);
    static TuningContract fromSettings(std::map<std::string, std::string> settings,
                                       const ContractPolicy &policy);

    const std::map<std::string, std::string> &settings() const { return m_settings; }
    // "key=value" pairs sorted by key, separated by single spaces; values with spaces, '=' or
    // quotes are double-quoted with '"' and '\' escaped. Equal strings <=> equal contracts.
    std::string canonical() const;
    std::vector<ContractDifference> differences(const TuningContract &current) const;
    // The load keys alone (isLoadKey()), as canonical() writes them: "" when none is stated.
    // Runs of one workload with different load texts are different loads (a sweep's steps).
    std::string loadText() const;
    std::map<std::string, std::string> loadSettings() const;
    bool compatibleWith(const TuningContract &other) const { return m_settings == other.m_settings; }
    bool operator==(const TuningContract &) const = default;

private:
    std::map<std::string, std::string> m_settings;
};

// The contract key of a metric-stated offered rate.
inline constexpr const char *kOfferedRateKey = "offered_rate";
// Whether a contract key is the load the scenario ran at: offered_rate, or topology.<factor> of
// a load factor of factorCatalog(). A contract change in these keys alone is another load of the
// same workload (a sweep's step), not a retuning.
bool isLoadKey(const std::string &key);
// The canonical text of an offered rate in a contract: ten significant digits ("19531.25").
std::string offeredRateText(double recordsPerS);

// "1.4.2" -> "1", "v2-rc1" -> "2"; the text up to the first '.', without a leading 'v'.
std::string toolMajorVersion(const std::string &version);

} // namespace plimsoll
