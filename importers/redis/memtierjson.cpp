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

// The document, or nullopt with result.error set when the text is not a JSON object.
std::optional<nlohmann::json> parseDocument(const std::string &text, ImportResult &result)
{
    std::optional<nlohmann::json> doc = parseJsonDocument(text, "", result.error);
    if (!doc)
        return std::nullopt;
    if (!doc->is_object()) {
        result.error = ImportError{"is JSON but not an object", 1, 0, {}};
        return std::nullopt;
    }
    return doc;
}

// "run information" states what ran; "configuration" what was asked for.
void readConfig(const nlohmann::json &doc, MemtierConfig &config)
{
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
}

// The result blocks of the document, read with their positions in the text. A value that
// must be a number and is not throws its ImportError.
class BlockReader
{
public:
    BlockReader(const std::string &text, std::vector<ImportWarning> &warnings)
        : m_locator(text), m_warnings(warnings)
    {
    }
    MemtierSection readBlock(const std::string &key, const nlohmann::json &block,
                             std::string &timestamp);

private:
    void readRuntime(const std::string &key, const nlohmann::json &runtime, int64_t line,
                     std::string &timestamp);
    MemtierRow readRow(const std::string &key, const std::string &type,
                       const nlohmann::json &stats, const std::string &pointer);

    const JsonLocator m_locator;
    std::vector<ImportWarning> &m_warnings;
};

MemtierSection BlockReader::readBlock(const std::string &key, const nlohmann::json &block,
                                      std::string &timestamp)
{
    const std::string blockPointer = JsonLocator::pointer({key});
    MemtierSection section{key, {}, m_locator.locate(blockPointer).line};
    if (auto rt = block.find("Runtime"); rt != block.end() && rt->is_object())
        readRuntime(key, *rt, m_locator.locate(JsonLocator::child(blockPointer, "Runtime")).line,
                    timestamp);
    for (const auto &[type, stats] : block.items()) {
        if (type == "Runtime" || !stats.is_object() || !stats.contains("Ops/sec"))
            continue;
        section.rows.push_back(readRow(key, type, stats, JsonLocator::child(blockPointer, type)));
    }
    return section;
}

// The run's time from the first block's start; a warning when the run was interrupted.
void BlockReader::readRuntime(const std::string &key, const nlohmann::json &runtime, int64_t line,
                              std::string &timestamp)
{
    const auto start = member(runtime, {"Start time"});
    const auto finish = member(runtime, {"Finish time"});
    const auto duration = member(runtime, {"Total duration"});
    if (start && *start > 0 && timestamp.empty()) {
        const QString iso =
            QDateTime::fromMSecsSinceEpoch(*start, Qt::UTC).toString(Qt::ISODateWithMs);
        timestamp = normalizeTimestamp(iso.toStdString()).value_or("");
    }
    if ((duration && *duration < 0) || (finish && *finish == 0) ||
        runtime.value("Interrupted", false))
        m_warnings.push_back({"negative-time", line,
                              key + ": the run was interrupted (Finish time " +
                                  std::to_string(finish.value_or(0)) + ", Total duration " +
                                  std::to_string(duration.value_or(0)) + " ms)"});
}

MemtierRow BlockReader::readRow(const std::string &key, const std::string &type,
                                const nlohmann::json &stats, const std::string &pointer)
{
    MemtierRow row;
    row.command = memtierCommand(type);
    row.line = m_locator.locate(pointer).line;
    for (const auto &[name, value] : stats.items()) {
        if (name == "Percentile Latencies" && value.is_object()) {
            for (const auto &[p, v] : value.items())
                if (v.is_number())
                    addMemtierValue(p, v.get<double>(), row);
            continue;
        }
        if (!value.is_number()) {
            // A figure memtier writes as a number, written otherwise: the file is not its own.
            const bool figure = name == "Ops/sec" || name == "KB/sec" || name.ends_with("Latency");
            if ((value.is_string() || value.is_boolean()) && figure) {
                const std::string at = JsonLocator::child(pointer, name);
                const JsonPosition pos = m_locator.locate(at);
                ImportError e{"is not a number", pos.line, pos.offset, JsonLocator::fieldName(at)};
                e.column = pos.column;
                throw e;
            }
            continue;
        }
        if (value.get<double>() < 0 && name.find("Latency") != std::string::npos)
            m_warnings.push_back(
                {"negative-time", row.line, key + " " + type + " " + name + " is negative"});
        addMemtierValue(name, value.get<double>(), row);
    }
    return row;
}

} // namespace

bool parseMemtierJson(const std::string &text, std::vector<MemtierSection> &sections,
                      MemtierConfig &config, std::string &timestamp, ImportResult &result)
{
    const std::optional<nlohmann::json> doc = parseDocument(text, result);
    if (!doc)
        return false;
    readConfig(*doc, config);
    static const TextPattern blockRe(
        R"(^(ALL STATS|BEST RUN RESULTS|WORST RUN RESULTS|AGGREGATED AVERAGE RESULTS \((\d{1,18}) runs?\))$)");
    BlockReader reader(text, result.warnings);
    for (const auto &[key, block] : doc->items()) {
        PatternMatch m;
        if (!blockRe.fullMatch(key, &m) || !block.is_object())
            continue;
        if (m.matched(2))
            config.runs = std::stoll(m.str(2));
        try {
            sections.push_back(reader.readBlock(key, block, timestamp));
        } catch (const ImportError &e) {
            result.error = e;
            return false;
        }
    }
    return true;
}

} // namespace plimsoll
