#pragma once
// The sizing inputs as command-line options, shared by `plimsoll size` and `plimsoll report` so
// that a report is sized from exactly what `size` would be given.

#include "model/placement.h"
#include "model/sizing.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace plimsoll {

struct SizeArgs
{
    std::string rate, recordSize = "700B", retention = "60s", p99 = "250ms", headroom = "0",
                localRetention = "60s", trimTick = "1s";
    double compression = 1, cpuLimit = 0.90;
    int replication = 2;
    bool nodeLoss = false, flex = false, tiered = false;
    std::string topic = "logs";
    std::vector<std::string> runs;
    std::string brokerModel = "auto"; // auto, fitted, cpu or rule
    std::string keyPattern = kKorvetStreamKeyPattern;
};

// Adds --rate (required), --record-size, --retention, ..., --run to `command`, writing into
// `args` (which must outlive parsing).
void addSizingOptions(CLI::App *command, SizeArgs &args);

struct ParsedSizing
{
    SizingInputs inputs;
    SizingModelOptions options;
};

// The parsed inputs, or nullopt with the reason in *error (a usage error).
std::optional<ParsedSizing> parseSizingArgs(const SizeArgs &args, std::string *error);

// nullopt when `pattern` is a usable stream-key pattern, else the message (it must name
// {partition}, or every partition would share one key).
std::optional<std::string> keyPatternError(const std::string &pattern);

} // namespace plimsoll
