#pragma once
// How subcommands plug into `plimsoll`: each family of commands lives in
// app/<family>commands.cpp and exposes `void add<Family>Commands(CLI::App &, Commands &)`,
// listed once in cli.cpp. A command's action runs after parsing, with the chosen store.

#include "model/store/store.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace plimsoll {

// Exit codes every command shares.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1; // something failed: a source, a run not found, a gate
inline constexpr int kExitUsage = 2;   // the command line itself is wrong

struct CliContext
{
    std::string storePath;
    bool defaultStore = true;

    // Opens (creating when missing) the store; on failure prints why and returns nullptr.
    // For commands that write: import, bench, samples install.
    std::unique_ptr<Store> openStore() const;
    // Opens a store that exists; a missing one is said to be missing (and nothing is created).
    // For commands that only read.
    std::unique_ptr<Store> openExistingStore() const;
};

class Commands
{
public:
    using Action = std::function<int(const CliContext &)>;
    void add(CLI::App *subcommand, Action action) { m_entries.push_back({subcommand, std::move(action)}); }
    // The action of the subcommand that was parsed, or nullptr.
    const Action *chosen() const;

private:
    struct Entry
    {
        CLI::App *subcommand;
        Action action;
    };
    std::vector<Entry> m_entries;
};

// "plimsoll: <message>" on stderr.
void printError(const std::string &message);

} // namespace plimsoll
