// memtier_benchmark --json-out-file: written by memtier's own JSON writer (tabs, leading
// commas) but valid JSON. Top level "configuration" (the options), "run information"
// ("Threads", "Connections per thread", "Format version"), and result blocks ("ALL STATS", or
// "BEST RUN RESULTS", "WORST RUN RESULTS", "AGGREGATED AVERAGE RESULTS (N runs)"), each with
// "Runtime" and one object per command type ("Sets", "Gets", "Waits", "Totals", …).
#include "importers/jsonlocator.h"
#include "importers/jsonnesting.h"
#include "importers/redis/memtierimporter.h"
#include "importers/textsource.h"
#include "model/core/textpattern.h"

#include <QDateTime>


namespace plimsoll {

namespace {

// memtier writes most options as numbers; a few versions quote them.
std::optional<int64_t> integerOf(const nlohmann::json &j)
{
    if (j.is_number_integer())
        return j.get<int64_t>();
    if (j.is_number())
        return int64_t(j.get<double>());
    if (j.is_string())
        return parseInteger(j.get<std::string>());
    return std::nullopt;
}

std::optional<int64_t> member(const nlohmann::json &obj, std::initializer_list<const char *> keys)
{
    if (!obj.is_object())
        return std::nullopt;
    for (const char *key : keys)
        if (auto it = obj.find(key); it != obj.end())
            if (auto v = integerOf(*it))
                return v;
    return std::nullopt;
}

} // namespace

bool parseMemtierJson(const std::string &text, std::vector<MemtierSection> &sections,
                      MemtierConfig &config, std::string &timestamp, ImportResult &result)
{
    if (auto tooDeep = checkJsonNesting(text)) {
        result.error = std::move(tooDeep);
        return false;
    }
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error &e) {
        const JsonPosition at = JsonLocator(text).positionOf(int64_t(e.byte) - 1);
        ImportError error{jsonParseErrorDetail(e), at.line, at.offset, {}};
        error.column = at.column;
        result.error = error;
        return false;
    } catch (const nlohmann::json::out_of_range &) {
        result.error = ImportError{kJsonNumberOutOfRange, 0, -1, {}}; // see jsonnesting.h
        return false;
    }
    if (!doc.is_object()) {
        result.error = ImportError{"is JSON but not an object", 1, 0, {}};
        return false;
    }
    const JsonLocator locator(text);
    const nlohmann::json &cfg = doc.value("configuration", nlohmann::json::object());
    const nlohmann::json &info = doc.value("run information", nlohmann::json::object());
    config.threads = member(info, {"Threads"});
    if (!config.threads)
        config.threads = member(cfg, {"threads"});
    config.clients = member(info, {"Connections per thread"});
    if (!config.clients)
        config.clients = member(cfg, {"clients"});
    config.pipeline = member(cfg, {"pipeline"});
    config.dataSize = member(cfg, {"data_size"});
    config.runs = member(cfg, {"run_count"});

    static const TextPattern blockRe(
        R"(^(ALL STATS|BEST RUN RESULTS|WORST RUN RESULTS|AGGREGATED AVERAGE RESULTS \((\d{1,18}) runs?\))$)");
    for (const auto &[key, block] : doc.items()) {
        PatternMatch m;
        if (!blockRe.fullMatch(key, &m) || !block.is_object())
            continue;
        const std::string blockPointer = JsonLocator::pointer({key});
        MemtierSection section{key, {}, locator.locate(blockPointer).line};
        if (m.matched(2))
            config.runs = std::stoll(m.str(2));
        if (auto rt = block.find("Runtime"); rt != block.end() && rt->is_object()) {
            const auto start = member(*rt, {"Start time"});
            const auto finish = member(*rt, {"Finish time"});
            const auto duration = member(*rt, {"Total duration"});
            const int64_t line = locator.locate(JsonLocator::child(blockPointer, "Runtime")).line;
            if (start && *start > 0 && timestamp.empty()) {
                const QString iso = QDateTime::fromMSecsSinceEpoch(*start, Qt::UTC)
                                        .toString(Qt::ISODateWithMs);
                timestamp = normalizeTimestamp(iso.toStdString()).value_or("");
            }
            if ((duration && *duration < 0) || (finish && *finish == 0) ||
                rt->value("Interrupted", false))
                result.warnings.push_back(
                    {"negative-time", line,
                     key + ": the run was interrupted (Finish time " +
                         std::to_string(finish.value_or(0)) + ", Total duration " +
                         std::to_string(duration.value_or(0)) + " ms)"});
        }
        for (const auto &[type, stats] : block.items()) {
            if (type == "Runtime" || !stats.is_object() || !stats.contains("Ops/sec"))
                continue;
            const std::string pointer = JsonLocator::child(blockPointer, type);
            MemtierRow row;
            row.command = memtierCommand(type);
            row.line = locator.locate(pointer).line;
            for (const auto &[name, value] : stats.items()) {
                if (name == "Percentile Latencies" && value.is_object()) {
                    for (const auto &[p, v] : value.items())
                        if (v.is_number())
                            addMemtierValue(p, v.get<double>(), row);
                    continue;
                }
                if (!value.is_number()) {
                    if (value.is_string() || value.is_boolean()) {
                        const JsonPosition at = locator.locate(JsonLocator::child(pointer, name));
                        ImportError e{"is not a number", at.line, at.offset,
                                      JsonLocator::fieldName(JsonLocator::child(pointer, name))};
                        e.column = at.column;
                        if (name == "Ops/sec" || name == "KB/sec" || name.ends_with("Latency")) {
                            result.error = e;
                            return false;
                        }
                    }
                    continue;
                }
                if (value.get<double>() < 0 && name.find("Latency") != std::string::npos)
                    result.warnings.push_back({"negative-time", row.line,
                                               key + " " + type + " " + name + " is negative"});
                addMemtierValue(name, value.get<double>(), row);
            }
            section.rows.push_back(std::move(row));
        }
        sections.push_back(std::move(section));
    }
    return true;
}

} // namespace plimsoll
