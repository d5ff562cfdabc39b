#pragma once
// Guards shared by the JSON importers (korvet-result, omb, plimsoll-trend, memtier JSON).
//
// Depth, checked on the text before nlohmann parses it.
//
// nlohmann's parser is iterative, but copying, comparing or printing a parsed value recurses
// once per level: a file of 100,000 '[' parses fine and then overflows the stack the first
// time the importer copies a field. No benchmark result nests more than a dozen levels, so
// anything past kMaxJsonNesting is refused with its position instead.

#include "importers/importer.h"

#include <optional>
#include <string>
#include <string_view>

namespace plimsoll {

inline constexpr int kMaxJsonNesting = 256;

// The refusal of a number beyond a double's range ("1e400", 400 digits): nlohmann throws
// out_of_range for it rather than parse_error, so every JSON importer catches both.
inline constexpr const char *kJsonNumberOutOfRange =
    "is not valid JSON for Plimsoll: it holds a number beyond the range of a double";

// The refusal when `text` (a document, or one JSON Lines record starting at `firstLine` and
// byte `baseOffset` of its file) opens more than kMaxJsonNesting arrays and objects at once, or
// gives one key twice in an object (a parser would keep the last value silently: a result's
// timestamp, a record's metric). Brackets inside strings do not count. Keys are compared as
// written (an escaped spelling of the same key is not caught).
std::optional<ImportError> checkJsonNesting(std::string_view text, int64_t firstLine = 1,
                                            int64_t baseOffset = 0);

// The document `text` holds, or nullopt with `error` set: nested too deep (checkJsonNesting), a
// syntax error at its line and column (the message: `syntaxPrefix` and nlohmann's detail), or
// a number out of range.
std::optional<nlohmann::json> parseJsonDocument(const std::string &text,
                                                const std::string &syntaxPrefix,
                                                std::optional<ImportError> &error);

} // namespace plimsoll
