#pragma once
// The sizing inputs as command-line options, shared by `plimsoll size` and `plimsoll report` so
// that a report is sized from exactly what `size` would be given.

#include "model/scaling/evidence.h"
#include "model/sizing/placement.h"
#include "model/sizing/sizing.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct SizeArgs
{
    std::string rate, recordSize = "700B", retention = "60s", p99 = "250ms", headroom = "0",
                localRetention = "60s", trimTick = "1s";
    double compression = 1, cpuLimit = 0.90, skewTarget = 0;
    int replication = 2;
    bool nodeLoss = false, flex = false, tiered = false;
    bool localRetentionGiven = false; // --local-retention on the command line: it needs --tiered
    std::string topic = "logs";
    RunSelection select;             // --run, --scenario, --tool, --target, --since, --until
    std::string samples = "auto";    // --samples
    std::string brokerModel = "auto"; // auto, fitted, cpu or rule
    std::string keyPattern = kKorvetStreamKeyPattern;
    // The consume side; an empty text leaves SizingInputs' default.
    int consumerGroups = SizingInputs{}.consumerGroups;
    std::string consumeRate, consumeFrom, consumeMargin, fetchP99;
    bool tieredReads = false;
};

// Adds --rate (required), --record-size, --retention, ..., the run selection to `command`, writing into
// `args` (which must outlive parsing).
void addSizingOptions(CLI::App *command, SizeArgs &args);

struct ParsedSizing
{
    SizingInputs inputs;
    SizingModelOptions options;
    EvidenceSelection evidence;
};

// --run (repeatable), --scenario, --tool, --target, --since, --until and --samples: the runs an
// operation rests on, as the window's evidence chooser picks them (model/scaling/evidence.h).
void addRunSelectionOptions(CLI::App *command, RunSelection &select, std::string &samples,
                            const std::string &scenarioHelp);
// The selection with since/until normalized, or nullopt with the usage error in *error.
std::optional<EvidenceSelection> parseRunSelection(const RunSelection &select, const std::string &samples,
                                                   std::string *error);

// The parsed inputs, or nullopt with the reason in *error (a usage error).
std::optional<ParsedSizing> parseSizingArgs(const SizeArgs &args, std::string *error);

// nullopt when `pattern` is a usable stream-key pattern, else the message (it must name
// {partition}, or every partition would share one key).
std::optional<std::string> keyPatternError(const std::string &pattern);

} // namespace plimsoll
