#pragma once
// The headless front end: `plimsoll <subcommand>`. Runs without a display; every capability
// the window has gets a subcommand here, calling the same services.

#include <string>
#include <vector>

namespace plimsoll {

struct CliOutcome
{
    bool window = false;     // no subcommand: the caller opens the window
    bool defaultStore = true; // no --db / PLIMSOLL_DB given
    std::string storePath;
    int exitCode = 0;
};

// Parses and, for a subcommand, runs it. Writes to stdout/stderr. Needs a QCoreApplication
// only for the subcommands, which the caller creates after a first parse (see main.cpp).
CliOutcome runCli(int argc, char **argv);

// The store used when neither --db nor PLIMSOLL_DB says otherwise: the user's data directory.
std::string defaultStorePath();

} // namespace plimsoll
