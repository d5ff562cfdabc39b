#pragma once
// Files that interleave the command that produced each block of output with the output and
// the user's notes, the way a sweep is usually saved:
//   $ redis-benchmark -c 50 -d 1024 -P 16 --threads 4 --csv -t set,get
//   "test","rps",…
//   saturated at P16, see the CPU graph
//   $ redis-benchmark -c 100 -d 1024 -P 16 --threads 4 --csv -t set,get
//   …
// The importers of the tools that appear so (redis-benchmark, memtier_benchmark,
// kafka-producer-perf-test) read each block on its own and take the load factors its command
// line states (clients, value size, pipeline, threads, offered rate) as the topology of the
// block's scenarios.

#include "importers/textsource.h"
#include "model/core/textpattern.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace plimsoll {

struct CommandBlock
{
    std::string command;           // the command line without its prompt, "" before the first
    std::vector<std::string> args; // the words after the tool's name, shell quotes removed
    int64_t line = 0;              // the command's line (1-based); 0 for the part before it
    size_t begin = 0, end = 0;     // the block's bytes in the text, its command line included
};

// The words after the tool when `line` runs one of `tools` ("redis-benchmark"; a path before it
// and a ".sh" after it are allowed), behind an optional shell prompt ("$ ", "user@host:~$ ",
// "# ", "+ "), sudo, env assignments or `time`. Without a prompt the tool's first argument
// must be an option ("redis-benchmark -c 50"), so that a note naming the tool is no command.
std::optional<std::vector<std::string>> commandArgs(std::string_view line,
                                                    std::initializer_list<std::string_view> tools);

// The blocks of `text`, split at its command lines; empty when it has none. The part before
// the first command line, when it holds more than blank lines, is a block with line 0.
std::vector<CommandBlock> commandBlocks(std::string_view text,
                                        std::initializer_list<std::string_view> tools);

// Whether the first bytes of a source hold such a command line (for sniffing).
bool hasCommandLine(std::string_view head, std::initializer_list<std::string_view> tools);

// The lines of `lines` (splitLines of the text the block is in) that belong to `block`, its
// command line included: a block parses on its own with the line numbers and offsets of the
// whole file. Found by binary search, so reading every block stays linear in the file.
std::span<const TextLine> blockLines(const std::vector<TextLine> &lines, const CommandBlock &block);

// The value of an option given as "-c 50", "-c50" (single-letter short options), "--clients 50"
// or "--clients=50"; the last occurrence wins, as in getopt.
std::optional<std::string> optionValue(const std::vector<std::string> &args,
                                       std::initializer_list<std::string_view> names);
// The same, as a whole number; nullopt when absent or not a number.
std::optional<int64_t> integerOption(const std::vector<std::string> &args,
                                     std::initializer_list<std::string_view> names);

// A load factor a sweep states in its file names instead ("memtier-c50.txt", "rb-P16.csv"): the
// first group `pattern` matches in the last path component of `uri`, as a number.
std::optional<int64_t> numberInFileName(const std::string &uri, const TextPattern &pattern);

} // namespace plimsoll
