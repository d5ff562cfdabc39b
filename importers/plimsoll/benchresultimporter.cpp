// Plimsoll's own bench result (`plimsoll bench --result-file` / `--output json`, format
// "plimsoll-bench/1"): one run per file, the same RunRecord the bench stores when it runs
// (model/formats/benchrunrecord.h holds the one mapping both use).

#include "importers/importers.h"
#include "importers/textimporter.h"

#include "importers/jsonlocator.h"
#include "importers/jsonnesting.h"
#include "importers/textsource.h"
#include "model/formats/benchrunrecord.h"

#include <QIODevice>

namespace plimsoll {

namespace {

using nlohmann::json;

// A result with base64 histograms of a long ramp is megabytes; this bound only keeps a
// mistaken multi-gigabyte file from being read whole into memory.
constexpr int64_t kMaxBytes = 256LL * 1024 * 1024;
// What this importer is called and how its source is read (importers/textimporter.h).
constexpr TextFormat kFormat{{"plimsoll-bench-result", "1",
                          "Plimsoll's own bench result (plimsoll bench --result-file / --output json): one run, the same record the bench stores",
                          "a JSON object with \"format\": \"plimsoll-bench/1\" (or run_id, workload and scenarios with \"type\": \"result\")"},
                         "a bench result", kMaxBytes, TextInput::Whole};

bool has(std::string_view head, std::string_view key) { return head.find(key) != std::string_view::npos; }

bool startsWithObject(std::string_view head)
{
    if (head.substr(0, 3) == "\xEF\xBB\xBF")
        head.remove_prefix(3);
    const auto first = head.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && head[first] == '{';
}

} // namespace

namespace {

int sniff(std::string_view head)
{
    if (!startsWithObject(head))
        return 0;
    // The format tag is the distinctive mark; keys are sorted, so it sits in the first lines.
    if (has(head, "\"plimsoll-bench/1\"") && has(head, "\"format\""))
        return 95;
    if (has(head, "\"run_id\"") && has(head, "\"workload\"") && has(head, "\"exit_code\"")
        && has(head, "\"result\""))
        return 60;
    return 0;
}

Resemblance resemblance(std::string_view head)
{
    if (!startsWithObject(head) || !has(head, "\"run_id\""))
        return {};
    if (has(head, "\"plimsoll-bench/"))
        return {70, "has a plimsoll-bench format tag of a version this build does not read (it reads "
                    "plimsoll-bench/1)"};
    return {30, "has a 'run_id' key but no \"format\": \"plimsoll-bench/1\""};
}

ImportResult parse(const std::string &text, QIODevice &, const ImportOptions &,
                   ImportResult result)
{
    if (auto refused = checkJsonNesting(text)) { // a key given twice, or nesting past 256
        result.error = std::move(refused);
        return result;
    }
    json doc;
    try {
        // Nesting is bounded by the parser callback: a bench result is at most 4 levels deep,
        // so anything past 64 is not one (and must not exhaust the stack).
        doc = json::parse(text, [](int depth, json::parse_event_t, json &) {
            if (depth > 64)
                throw std::length_error("nested deeper than 64 levels");
            return true;
        });
    } catch (const json::parse_error &e) {
        const JsonPosition pos = JsonLocator(text).positionOf(int64_t(e.byte) - 1);
        result.error = ImportError{std::string("is not valid JSON: ") + e.what(), pos.line, pos.offset, {}, pos.column};
        return result;
    } catch (const std::exception &e) {
        // Numbers past a double's range, or nesting past the bound.
        result.error = ImportError{std::string("is not a readable JSON document: ") + e.what(), 0, -1, {}};
        return result;
    }
    try {
        result.runs.push_back(benchRunRecordFromJson(doc, doc.value("tool_version", std::string())));
    } catch (const BenchDocumentError &e) {
        const JsonPosition pos = JsonLocator(text).locate(e.pointer);
        result.error = ImportError{e.what(), pos.line, pos.offset, e.pointer.empty() ? std::string() : e.pointer,
                                   pos.column};
    } catch (const json::exception &e) {
        result.error = ImportError{std::string("is not a bench result: ") + e.what(), 0, -1, {}};
    }
    if (!result.runs.empty() && doc.contains("warnings") && doc["warnings"].is_array())
        for (const auto &w : doc["warnings"])
            if (w.is_string())
                result.warnings.push_back({"bench-warning", 0, w.get<std::string>()});
    return result;
}

} // namespace

std::optional<std::string> benchResultIdentity(std::string_view text)
{
    if (text.size() > size_t(kMaxBytes) || checkJsonNesting(text))
        return std::nullopt;
    try {
        return json::parse(text, [](int depth, json::parse_event_t, json &) {
                   if (depth > 64)
                       throw std::length_error("nested deeper than 64 levels");
                   return true;
               }).dump();
    } catch (const std::exception &) {
        return std::nullopt;
    }
}

const Importer &benchResultImporter()
{
    static const TextImporter importer(kFormat, {sniff, resemblance, parse});
    return importer;
}

} // namespace plimsoll
