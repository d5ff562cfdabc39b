#include "app/sizingoptions.h"

#include "model/sizing/placementrequest.h"

#include "app/optiondomain.h"
#include "model/core/units.h"

#include <chrono>
#include <cmath>

namespace plimsoll {

namespace {

std::optional<double> seconds(const std::string &text, const char *what, std::string *error)
{
    const auto d = parseDuration(text, error);
    if (!d) {
        *error = std::string(what) + ": " + *error;
        return std::nullopt;
    }
    return std::chrono::duration<double>(*d).count();
}

// "20%", "0.2" → 0.2. A bare number is a fraction as it stands: its domain says whether it fits.
std::optional<double> fraction(std::string text)
{
    const bool percent = !text.empty() && text.back() == '%';
    if (percent)
        text.pop_back();
    if (const auto v = parseDecimal(text))
        return percent ? *v / 100 : *v;
    return std::nullopt;
}

void addConsumeOptions(CLI::App *cmd, SizeArgs &a)
{
    const SizingInputs defaults;
    addNumber(cmd, "--consumer-groups", a.consumerGroups, SizingInputs::kConsumerGroups,
              "Consumer groups, each reading the whole stream (fan-out)")
        ->capture_default_str();
    cmd->add_option("--consume-rate", a.consumeRate,
                    "Records/s each group reads, with k/M (or bytes/s, ÷ --record-size); default: the target rate");
    cmd->add_option("--consume-from", a.consumeFrom,
                    std::string("Where the groups read: tail or backlog (default ") + toString(defaults.consumeFrom) + ")");
    cmd->add_flag("--tiered-reads", a.tieredReads, "The backlog is read from the remote tier (needs --tiered)");
    cmd->add_option("--consume-margin", a.consumeMargin,
                    "CPU held back for consumer traffic where no consume ramp measured it, a fraction or a percentage (" +
                        SizingInputs::kConsumeMargin.describe() + ", default " + domainNumber(defaults.consumeMargin) + ")");
    cmd->add_option("--fetch-p99", a.fetchP99,
                    "Fetch delivery p99 budget (default: the Korvet benchmark page's limit, 500ms, 5s with --tiered-reads)");
}

// The consume options into `in`; false with the usage error in *error.
bool parseConsumeArgs(const SizeArgs &a, SizingInputs &in, std::string *error)
{
    in.consumerGroups = a.consumerGroups;
    in.tieredReads = a.tieredReads;
    if (!a.consumeRate.empty()) {
        double bytes = 0;
        const auto records = parseRate(a.consumeRate, &bytes, error);
        if (!records) {
            *error = "--consume-rate: " + *error;
            return false;
        }
        in.consumeRate = bytes > 0 ? bytes / in.recordBytes : *records; // its domain is checked with the others
    }
    if (!a.consumeFrom.empty()) {
        const auto from = consumeFromFromString(a.consumeFrom);
        if (!from) {
            *error = "--consume-from must be tail or backlog (got '" + a.consumeFrom + "')";
            return false;
        }
        in.consumeFrom = *from;
    }
    if (!a.consumeMargin.empty()) {
        const auto margin = fraction(a.consumeMargin);
        if (!margin) {
            *error = "--consume-margin '" + a.consumeMargin + "' is not a fraction or a percentage (e.g. 30%)";
            return false;
        }
        in.consumeMargin = *margin;
    }
    if (!a.fetchP99.empty()) {
        const auto budget = seconds(a.fetchP99, "--fetch-p99", error);
        if (!budget)
            return false;
        in.fetchP99Budget = *budget;
    }
    return true;
}

} // namespace

std::optional<std::string> keyPatternError(const std::string &pattern)
{
    if (const auto problem = keyPatternProblem(pattern))
        return "--key-pattern '" + pattern + "' " + *problem;
    return std::nullopt;
}

void addSizingOptions(CLI::App *cmd, SizeArgs &a)
{
    cmd->add_option("--rate", a.rate, "Target: records/s with k/M (600k) or bytes/s (40MB/s)")
        ->required();
    cmd->add_option("--record-size", a.recordSize, "Bytes per record as produced")->capture_default_str();
    cmd->add_option("--retention", a.retention, "Time kept in Redis")->capture_default_str();
    addNumber(cmd, "--compression", a.compression, SizingInputs::kCompressionRatio, "Produced ÷ wire bytes")
        ->capture_default_str();
    addNumber(cmd, "--replication", a.replication, SizingInputs::kReplication, "Copies of each shard")
        ->capture_default_str();
    cmd->add_option("--p99", a.p99, "Produce p99 budget")->capture_default_str();
    cmd->add_option("--headroom", a.headroom, "Extra capacity, a fraction or a percentage: 0.2 or 20% (" +
                                                  SizingInputs::kHeadroom.describe() + ")")
        ->capture_default_str();
    cmd->add_flag("--tolerate-node-loss", a.nodeLoss, "One broker and one Redis node more");
    cmd->add_flag("--flex", a.flex, "Redis Flex (auto-tiering) database");
    cmd->add_flag("--tiered", a.tiered, "Remote-tier offload on");
    cmd->add_option("--local-retention", a.localRetention, "Local retention when tiered (needs --tiered)")
        ->capture_default_str()
        ->each([&a](const std::string &) { a.localRetentionGiven = true; });
    cmd->add_option("--trim-tick", a.trimTick, "Storage-worker trim interval")->capture_default_str();
    addNumber(cmd, "--cpu-limit", a.cpuLimit, SizingModelOptions::kCpuLimit,
              "CPU fraction at which a component saturates")
        ->capture_default_str();
    cmd->add_option("--topic", a.topic, "Topic name, for partition placement")->capture_default_str();
    addRunSelectionOptions(cmd, a.select, a.samples, "Size from runs having a scenario whose name contains this");
    cmd->add_option("--broker-model", a.brokerModel,
                    "Broker count from: auto, fitted (a fit across runs over the broker count), "
                    "cpu (the ramp's CPU per record) or rule (+1 broker per ~200k)")
        ->capture_default_str();
    cmd->add_option("--skew-target", a.skewTarget,
                    "Largest placement skew the partition count may have (" + SizingInputs::kSkewTarget.describe() + ")")
        ->capture_default_str();
    cmd->add_option("--key-pattern", a.keyPattern,
                    "Stream key of a partition, for placement ({topic}, {partition})")
        ->capture_default_str();
    addConsumeOptions(cmd, a);
}

void addRunSelectionOptions(CLI::App *cmd, RunSelection &select, std::string &samples,
                            const std::string &scenarioHelp)
{
    cmd->add_option("--run", select.runs, "Run id or key (repeatable; default: every run the filter selects)");
    cmd->add_option("--scenario", select.scenario, scenarioHelp);
    cmd->add_option("--tool", select.tool, "Only runs of this tool");
    cmd->add_option("--target", select.target, "Only runs against this target");
    cmd->add_option("--since", select.since, "Only runs at or after this ISO-8601 time or date")
        ->transform(isoTime("--since"));
    cmd->add_option("--until", select.until, "Only runs before this ISO-8601 time or date")
        ->transform(isoTime("--until"));
    cmd->add_option("--samples", samples,
                    "Sample runs: auto (left out once the selection holds real runs; runs picked "
                    "with --run always count), include or exclude")
        ->check(CLI::IsMember({"auto", "include", "exclude"}))
        ->capture_default_str();
}

std::optional<EvidenceSelection> parseRunSelection(const RunSelection &select, const std::string &samples,
                                                   std::string *error)
{
    EvidenceSelection out;
    std::string why;
    const auto runs = normalizedSelection(select, &why);
    if (!runs) {
        *error = why + " (--since/--until)";
        return std::nullopt;
    }
    out.runs = *runs;
    const auto s = sampleRunsFromString(samples);
    if (!s) {
        *error = "--samples must be auto, include or exclude (got '" + samples + "')";
        return std::nullopt;
    }
    out.samples = *s;
    return out;
}

std::optional<ParsedSizing> parseSizingArgs(const SizeArgs &a, std::string *error)
{
    ParsedSizing out;
    const auto evidence = parseRunSelection(a.select, a.samples, error);
    if (!evidence)
        return std::nullopt;
    out.evidence = *evidence;
    SizingInputs &in = out.inputs;
    const auto rate = parseRate(a.rate, &in.bytesPerS, error);
    if (!rate)
        return std::nullopt;
    const auto record = parseByteSize(a.recordSize, error);
    if (!record) {
        *error = "--record-size: " + *error;
        return std::nullopt;
    }
    in.rate = *rate;
    in.recordBytes = double(*record);
    const auto retention = seconds(a.retention, "--retention", error);
    if (!retention)
        return std::nullopt;
    const auto p99 = seconds(a.p99, "--p99", error);
    if (!p99)
        return std::nullopt;
    // An option with no use is refused, not ignored (as bench refuses its unused options).
    if (a.localRetentionGiven && !a.tiered) {
        *error = "--local-retention applies with --tiered only (the retention kept locally when older "
                 "data is offloaded): add --tiered, or leave --local-retention out";
        return std::nullopt;
    }
    const auto local = seconds(a.localRetention, "--local-retention", error);
    if (!local)
        return std::nullopt;
    const auto tick = seconds(a.trimTick, "--trim-tick", error);
    if (!tick)
        return std::nullopt;
    const auto headroom = fraction(a.headroom);
    if (!headroom) {
        *error = "--headroom '" + a.headroom + "' is not a percentage (e.g. 20%)";
        return std::nullopt;
    }
    in.retentionS = *retention;
    in.p99Budget = *p99;
    in.localRetentionS = *local;
    in.trimTickS = *tick;
    in.headroom = *headroom;
    in.compressionRatio = a.compression;
    in.replication = a.replication;
    in.tolerateNodeLoss = a.nodeLoss;
    in.flex = a.flex;
    in.tiered = a.tiered;
    in.topic = a.topic;
    if (const auto problem = SizingModelOptions::kCpuLimit.check("--cpu-limit", a.cpuLimit)) {
        *error = *problem;
        return std::nullopt;
    }
    const auto brokerModel = brokerModelFromString(a.brokerModel);
    if (!brokerModel) {
        *error = "--broker-model must be auto, fitted, cpu or rule (not '" + a.brokerModel + "')";
        return std::nullopt;
    }
    in.brokerModel = *brokerModel;
    if (const auto bad = keyPatternError(a.keyPattern)) {
        *error = *bad;
        return std::nullopt;
    }
    in.keyPattern = a.keyPattern;
    in.skewTarget = a.skewTarget;
    if (!parseConsumeArgs(a, in, error))
        return std::nullopt;
    out.options.cpuLimit = a.cpuLimit;
    out.options.saturation.cpuLimit = a.cpuLimit;
    if (std::string problem = in.validate("--"); !problem.empty()) {
        *error = problem;
        return std::nullopt;
    }
    return out;
}

} // namespace plimsoll
