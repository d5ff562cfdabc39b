// Plimsoll trend records (resources/schemas/plimsoll-trend-record.schema.json): JSON Lines, one
// scenario per line; lines sharing run_key form one run and must agree on every run-level
// field. Streamed line by line into a RunSink: only the run being read is in memory, so a
// year of nightly records imports in bounded memory.

#include "export/trendrecordwriter.h"
#include "importers/importers.h"

#include "importers/jsonlocator.h"
#include "importers/jsonnesting.h"
#include "model/core/catalog.h"
#include "model/store/runlabels.h"
#include "model/store/store.h"

#include <QIODevice>

#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace plimsoll {

namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

// Progress is reported at least this often; small enough for a smooth bar, large enough
// that the callback (often a cross-thread signal) stays cheap.
constexpr int64_t kProgressStep = 64 * 1024;

const std::set<std::string> kKnownFields = {
    "format", "run_key", "timestamp", "commit",   "image_digest", "tool",     "tool_version",
    "target", "environment", "tuning", "sample", "scenario",     "kind",     "provenance",
    "topology", "metrics", "run_provenance", "run_name", "run_tags"};

struct Failure
{
    ImportError error;
};

// Metrics keep the order the line gives them, so reading parses into ordered_json; the
// run-level objects become plain json, which is what RunRecord holds.
json toPlain(const ojson &v)
{
    switch (v.type()) {
    case ojson::value_t::object: {
        json out = json::object();
        for (const auto &[key, value] : v.items())
            out[key] = toPlain(value);
        return out;
    }
    case ojson::value_t::array: {
        json out = json::array();
        for (const auto &item : v)
            out.push_back(toPlain(item));
        return out;
    }
    case ojson::value_t::string:
        return v.get<std::string>();
    case ojson::value_t::boolean:
        return v.get<bool>();
    case ojson::value_t::number_integer:
        return v.get<int64_t>();
    case ojson::value_t::number_unsigned:
        return v.get<uint64_t>();
    case ojson::value_t::number_float:
        return v.get<double>();
    default:
        return nullptr;
    }
}

bool hasZoneDesignator(const std::string &text)
{
    const auto t = text.find_first_of("Tt ");
    return t != std::string::npos && text.find_first_of("Zz+-", t + 1) != std::string::npos;
}

std::string quoted(const json &v)
{
    return v.is_null() ? std::string("absent") : v.dump();
}

// The topology keys of plimsoll-trend-record.schema.json, for the "unknown key" message.
constexpr const char *kTopologyKeys =
    "brokers, shards, partitions, producers, consumers, clients, connections, threads, pipeline, "
    "record_size_bytes, batch_bytes, agents, compression, acks, inferred";

// The run-level part of a line, in the form RunRecord keeps it.
struct RunFields
{
    std::string runKey;
    std::string rawTimestamp;
    std::string timestamp;
    std::string commit;
    std::string imageDigest;
    std::string tool;
    std::string toolVersion;
    std::string target;
    json environment = json::object();
    json tuning = json::object();
    bool sample = false;
    // The run's own provenance; absent: the run's first line's "provenance" stands for it.
    std::optional<std::string> provenance;
    std::string name;
    std::vector<std::string> tags; // sorted, each once
};

class LineReader
{
public:
    LineReader(const std::string &text, int64_t lineNo, int64_t offset)
        : m_text(text), m_lineNo(lineNo), m_offset(offset)
    {
    }

    [[noreturn]] void fail(const std::string &pointer, const std::string &message)
    {
        const JsonPosition pos = locator().locate(pointer);
        throw Failure{ImportError{message, m_lineNo, pos.offset, JsonLocator::fieldName(pointer)}};
    }

    const ojson &require(const ojson &doc, const char *key)
    {
        const auto it = doc.find(key);
        if (it == doc.end())
            fail(JsonLocator::pointer({key}), "is missing; every trend record has it");
        return *it;
    }

    std::string string(const ojson &doc, const char *key, bool required, bool nonEmpty = false)
    {
        const auto it = doc.find(key);
        if (it == doc.end()) {
            if (required)
                require(doc, key);
            return {};
        }
        if (!it->is_string())
            fail(JsonLocator::pointer({key}), "is " + jsonTypePhrase(*it) + ", not a string");
        if (nonEmpty && it->get_ref<const std::string &>().empty())
            fail(JsonLocator::pointer({key}), "is empty");
        return it->get<std::string>();
    }

    const ojson *object(const ojson &doc, const char *key)
    {
        const auto it = doc.find(key);
        if (it == doc.end())
            return nullptr;
        if (!it->is_object())
            fail(JsonLocator::pointer({key}), "is " + jsonTypePhrase(*it) + ", not an object");
        return &*it;
    }

    RunFields runFields(const ojson &doc);
    Topology topology(const ojson &value);

private:
    const JsonLocator &locator()
    {
        if (!m_locator)
            m_locator.emplace(m_text, m_lineNo, m_offset);
        return *m_locator;
    }

    const std::string &m_text;
    int64_t m_lineNo;
    int64_t m_offset;
    std::optional<JsonLocator> m_locator;
};

RunFields LineReader::runFields(const ojson &doc)
{
    RunFields f;
    f.runKey = string(doc, "run_key", true, true);
    const ojson &ts = require(doc, "timestamp");
    if (!ts.is_string())
        fail("/timestamp", "is " + jsonTypePhrase(ts) + ", not an ISO-8601 time");
    f.rawTimestamp = ts.get<std::string>();
    const auto normalized = normalizeTimestamp(f.rawTimestamp);
    if (!normalized)
        fail("/timestamp", "'" + f.rawTimestamp + "' is not an ISO-8601 time");
    f.timestamp = *normalized;
    f.commit = string(doc, "commit", false);
    f.imageDigest = string(doc, "image_digest", false);
    f.tool = string(doc, "tool", false);
    f.toolVersion = string(doc, "tool_version", false);
    f.target = string(doc, "target", false);
    if (const ojson *env = object(doc, "environment"))
        f.environment = toPlain(*env);
    if (const ojson *tuning = object(doc, "tuning")) {
        for (const auto &[key, value] : tuning->items()) {
            if (!value.is_string() && !value.is_number() && !value.is_boolean())
                fail(JsonLocator::pointer({"tuning", key}),
                     "is " + jsonTypePhrase(value) +
                         "; tuning values are strings, numbers or booleans");
        }
        f.tuning = toPlain(*tuning);
    }
    if (const auto it = doc.find("sample"); it != doc.end()) {
        if (!it->is_boolean())
            fail("/sample", "is " + jsonTypePhrase(*it) + ", not true or false");
        f.sample = it->get<bool>();
    }
    if (doc.contains("run_provenance"))
        f.provenance = string(doc, "run_provenance", false);
    f.name = string(doc, "run_name", false);
    if (!f.name.empty())
        if (const std::string problem = runNameProblem(f.name); !problem.empty())
            fail("/run_name", problem);
    if (const auto it = doc.find("run_tags"); it != doc.end()) {
        if (!it->is_array())
            fail("/run_tags", "is " + jsonTypePhrase(*it) + ", not an array of tags");
        std::set<std::string> tags;
        for (size_t i = 0; i < it->size(); ++i) {
            const ojson &tag = (*it)[i];
            const std::string pointer = "/run_tags/" + std::to_string(i);
            if (!tag.is_string())
                fail(pointer, "is " + jsonTypePhrase(tag) + ", not a string");
            if (const std::string problem = runTagProblem(tag.get<std::string>()); !problem.empty())
                fail(pointer, problem);
            tags.insert(tag.get<std::string>());
        }
        if (tags.size() > kMaxTagsPerRun)
            fail("/run_tags", "holds " + std::to_string(tags.size()) + " tags; a run has at most " +
                                  std::to_string(kMaxTagsPerRun));
        f.tags.assign(tags.begin(), tags.end());
    }
    return f;
}

Topology LineReader::topology(const ojson &value)
{
    if (!value.is_object())
        fail("/topology", "is " + jsonTypePhrase(value) + ", not an object");
    const json plain = toPlain(value);
    try {
        return Topology::fromJson(plain);
    } catch (const std::invalid_argument &) {
        // fromJson names the key in its message; try keys one at a time to point at it.
        for (const auto &[key, v] : plain.items()) {
            try {
                Topology::fromJson(json{{key, v}});
            } catch (const std::invalid_argument &e) {
                std::string message = e.what();
                const std::string prefix = "topology key '" + key + "' ";
                if (message.rfind(prefix, 0) == 0)
                    message.erase(0, prefix.size());
                if (message == "is not a known factor")
                    message += std::string(" (known: ") + kTopologyKeys + ")";
                fail(JsonLocator::pointer({"topology", key}), message);
            }
        }
        fail("/topology", "is not a valid topology");
    }
}

// Compares a later line's run-level fields with those the run's first line set.
void checkAgreement(LineReader &reader, const RunFields &f, const RunRecord &run, int64_t firstLine,
                    const ojson &doc)
{
    auto check = [&](const char *key, const json &mine, const json &theirs) {
        if (mine == theirs)
            return;
        const auto it = doc.find(key);
        reader.fail(JsonLocator::pointer({key}),
                    "is " + (it == doc.end() ? std::string("absent") : quoted(toPlain(*it))) +
                        ", but line " + std::to_string(firstLine) + " gave run '" + run.runKey +
                        "' " + quoted(theirs) + "; all lines of a run must agree");
    };
    auto opt = [](const std::string &s) { return s.empty() ? json() : json(s); };
    check("timestamp", f.timestamp, run.timestamp);
    check("commit", opt(f.commit), opt(run.commit));
    check("image_digest", opt(f.imageDigest), opt(run.imageDigest));
    check("tool", opt(f.tool), opt(run.tool));
    check("tool_version", opt(f.toolVersion), opt(run.toolVersion));
    check("target", opt(f.target), opt(run.target));
    check("environment", f.environment, run.environment);
    check("tuning", f.tuning, run.tuning);
    check("sample", f.sample, run.sample);
    check("run_name", opt(f.name), opt(run.name));
    check("run_tags", f.tags.empty() ? json() : json(f.tags), run.tags.empty() ? json() : json(run.tags));
    if (f.provenance)
        check("run_provenance", *f.provenance, run.provenance);
}

// A run's lines are handed to the sink in pieces of at most this many scenarios, so that
// neither a long file nor one huge run is ever held whole.
constexpr size_t kScenariosPerPiece = 256;
// Warnings of one kind beyond this are counted, not listed.
constexpr int64_t kMaxWarningsPerKind = 100;

// Reads lines into runs and hands them to the sink as soon as another run's line comes (or
// a piece is full). Only the run being read is in memory; a run key that comes back later
// is checked against what the sink already holds.
class FileReader
{
public:
    FileReader(ImportResult &result, RunSink &sink) : m_result(result), m_sink(sink) {}
    void readLine(const std::string &text, int64_t lineNo, int64_t offset);
    // Hands over the last run and adds the summaries of suppressed warnings.
    void finish();
    int64_t runs() const { return m_runs; }

private:
    void warn(const std::string &kind, int64_t line, const std::string &detail)
    {
        if (++m_warningCounts[kind] <= kMaxWarningsPerKind)
            m_result.warnings.push_back({kind, line, detail});
    }
    void warnOnce(std::set<std::string> &seen, const std::string &key, const std::string &kind,
                  int64_t line, const std::string &detail)
    {
        if (m_warningCounts[kind] < kMaxWarningsPerKind && seen.insert(key).second)
            warn(kind, line, detail);
    }
    void startRun(LineReader &reader, RunFields &fields, const ScenarioRecord &scenario,
                  const ojson &doc, int64_t lineNo);
    void flush();

    ImportResult &m_result;
    RunSink &m_sink;
    // The run being read: its run-level fields and the scenarios not yet handed over.
    std::optional<RunRecord> m_pending;
    bool m_pendingInSink = false; // part of it is in the sink already (an earlier piece or line)
    std::unordered_map<std::string, int64_t> m_pendingScenarioLines;
    int64_t m_runs = 0;
    std::map<std::string, int64_t> m_warningCounts;
    std::set<std::string> m_unknownFields;
    std::set<std::string> m_unknownMetrics;
};

void FileReader::flush()
{
    if (!m_pending || (m_pendingInSink && m_pending->scenarios.empty()))
        return;
    // The store refusing a run (its key taken by another source) points at the run's line.
    const int64_t line = m_pendingInSink ? m_pending->scenarios.front().line : m_pending->line;
    try {
        if (m_pendingInSink) {
            m_sink.append(m_pending->runKey, std::move(m_pending->scenarios));
        } else {
            m_sink.put(*m_pending);
            m_pendingInSink = true;
        }
    } catch (const RunRefused &e) {
        // An earlier run of its batch (a team store writes runs in batches).
        throw Failure{ImportError{e.what(), e.line() > 0 ? e.line() : line, -1, "run_key"}};
    } catch (const StoreError &e) {
        throw Failure{ImportError{e.what(), line, -1, "run_key"}};
    }
    m_pending->scenarios.clear();
    m_pendingScenarioLines.clear();
}

void FileReader::startRun(LineReader &reader, RunFields &fields, const ScenarioRecord &scenario,
                          const ojson &doc, int64_t lineNo)
{
    flush();
    m_pending.reset();
    m_pendingScenarioLines.clear();
    if (std::optional<RunRecord> earlier = m_sink.earlierRun(fields.runKey)) {
        // A sink that marks the whole source as samples reports every run as one.
        if (earlier->sample && !fields.sample)
            earlier->sample = false;
        checkAgreement(reader, fields, *earlier, earlier->line, doc);
        m_pending = std::move(*earlier);
        m_pendingInSink = true;
        return;
    }
    RunRecord run;
    run.runKey = fields.runKey;
    run.timestamp = fields.timestamp;
    run.commit = fields.commit;
    run.imageDigest = fields.imageDigest;
    run.tool = fields.tool;
    run.toolVersion = fields.toolVersion;
    run.target = fields.target;
    run.environment = std::move(fields.environment);
    run.tuning = std::move(fields.tuning);
    run.sample = fields.sample;
    run.provenance = fields.provenance ? *fields.provenance : scenario.provenance;
    run.name = std::move(fields.name);
    run.tags = std::move(fields.tags);
    run.line = lineNo;
    m_pending = std::move(run);
    m_pendingInSink = false;
    ++m_runs;
    if (!hasZoneDesignator(fields.rawTimestamp))
        warn("timestamp-without-zone", lineNo,
             "timestamp '" + fields.rawTimestamp + "' of run '" + fields.runKey +
                 "' has no zone designator; read as UTC");
}

void FileReader::finish()
{
    flush();
    for (const auto &[kind, count] : m_warningCounts)
        if (count > kMaxWarningsPerKind)
            m_result.warnings.push_back(
                {kind, 0,
                 std::to_string(count - kMaxWarningsPerKind) + " more '" + kind +
                     "' warnings like those above"});
}

void FileReader::readLine(const std::string &text, int64_t lineNo, int64_t offset)
{
    LineReader reader(text, lineNo, offset);
    if (auto tooDeep = checkJsonNesting(text, lineNo, offset))
        throw Failure{*tooDeep};
    ojson doc;
    try {
        doc = ojson::parse(text);
    } catch (const ojson::parse_error &e) {
        const int64_t column = std::max<int64_t>(1, int64_t(e.byte));
        throw Failure{ImportError{"is not valid JSON: " + jsonParseErrorDetail(e) + " (column " +
                                      std::to_string(column) + ")",
                                  lineNo, offset + column - 1, {}}};
    } catch (const ojson::out_of_range &) {
        throw Failure{ImportError{kJsonNumberOutOfRange, lineNo, offset, {}}}; // see jsonnesting.h
    }
    if (!doc.is_object())
        reader.fail("", "is " + jsonTypePhrase(doc) + ", not a trend record object");

    // The format tag first: a file of another version should say so, not list missing fields.
    const ojson &format = reader.require(doc, "format");
    if (!format.is_string() || format.get<std::string>() != kTrendRecordFormat)
        reader.fail("/format", "is " + quoted(toPlain(format)) + "; Plimsoll reads " +
                                   kTrendRecordFormat);

    RunFields fields = reader.runFields(doc);

    ScenarioRecord scenario;
    scenario.line = lineNo;
    scenario.name = reader.string(doc, "scenario", true, true);
    scenario.kind = reader.string(doc, "kind", false);
    scenario.provenance = reader.string(doc, "provenance", false);
    if (const auto it = doc.find("topology"); it != doc.end())
        scenario.topology = reader.topology(*it);

    const ojson &metrics = reader.require(doc, "metrics");
    if (!metrics.is_object())
        reader.fail("/metrics", "is " + jsonTypePhrase(metrics) + ", not an object");
    for (const auto &[name, value] : metrics.items()) {
        const std::string pointer = JsonLocator::pointer({"metrics", name});
        if (name.empty())
            reader.fail(pointer, "has an empty metric name");
        if (!value.is_number())
            reader.fail(pointer, "is " + jsonTypePhrase(value) + ", not a number");
        scenario.metrics.push_back({name, value.get<double>()});
        // Dotted names are tool-specific by convention ("kafka.batch-size-avg").
        if (name.find('.') == std::string::npos && !findMetric(name))
            warnOnce(m_unknownMetrics, name, "unknown-metric", lineNo,
                     "metric '" + name +
                         "' is not in the catalog (`plimsoll metrics`); kept as is");
    }

    for (const auto &[key, value] : doc.items()) {
        if (!kKnownFields.contains(key))
            warnOnce(m_unknownFields, key, "ignored-field", lineNo,
                     "field '" + key + "' is not part of " + kTrendRecordFormat +
                         "; ignored");
    }

    if (!m_pending || m_pending->runKey != fields.runKey)
        startRun(reader, fields, scenario, doc, lineNo);
    else
        checkAgreement(reader, fields, *m_pending, m_pending->line, doc);

    const auto [dup, fresh] = m_pendingScenarioLines.try_emplace(scenario.name, lineNo);
    std::optional<int64_t> firstLine;
    if (!fresh)
        firstLine = dup->second;
    else if (m_pendingInSink)
        firstLine = m_sink.earlierScenarioLine(fields.runKey, scenario.name);
    if (firstLine)
        reader.fail("/scenario", "'" + scenario.name + "' appears twice in run '" +
                                     fields.runKey + "' (first on line " +
                                     std::to_string(*firstLine) + ")");
    m_pending->scenarios.push_back(std::move(scenario));
    if (m_pending->scenarios.size() >= kScenariosPerPiece)
        flush();
}

// The longest line a trend record may take. A record is one scenario of a run: a few hundred
// bytes, a few KiB with a large environment. The bound is checked before a line is held or
// parsed, so a file that is not one record per line (a whole document on one line, a binary)
// is refused in the memory of its bound rather than in some multiple of its size.
constexpr int64_t kMaxRecordBytes = 1024 * 1024;

// "1,048,576": byte counts in messages, grouped so that their size reads at a glance.
std::string groupedBytes(int64_t n)
{
    const std::string digits = std::to_string(n);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

// The rest of a line longer than the bound, read and dropped in pieces: how long it is without
// its line end, with `held` bytes of it read already. Memory stays that of one piece.
int64_t skipRestOfLine(QIODevice &in, int64_t held)
{
    int64_t length = held;
    char buffer[64 * 1024];
    while (!in.atEnd()) {
        const qint64 n = in.readLine(buffer, sizeof buffer);
        if (n <= 0)
            break;
        length += n;
        if (buffer[n - 1] == '\n')
            return length - (n > 1 && buffer[n - 2] == '\r' ? 2 : 1);
    }
    return length;
}

bool isSkippable(const std::string &line)
{
    const auto first = line.find_first_not_of(" \t\r\n");
    return first == std::string::npos || line[first] == '#';
}

// Not a TextImporter: it streams the source line by line into the sink (parseInto).
class TrendRecordsImporter final : public Importer
{
public:
    TrendRecordsImporter();
    int sniff(std::string_view head) const override;
    ImportResult parse(QIODevice &in, const ImportOptions &options,
                       const Progress &progress) const override;
    ImportResult parseInto(QIODevice &in, const ImportOptions &options, const Progress &progress,
                           RunSink &sink) const override;
};

} // namespace

TrendRecordsImporter::TrendRecordsImporter()
    : Importer({"plimsoll-trend", "2",
                "Plimsoll trend records (JSON Lines, plimsoll-trend/1): one scenario per line, "
                "lines sharing run_key form a run",
                "the first record line is a JSON object with \"format\": \"plimsoll-trend/…\""})
{
}

int TrendRecordsImporter::sniff(std::string_view head) const
{
    if (head.substr(0, 3) == "\xEF\xBB\xBF")
        head.remove_prefix(3);
    size_t pos = 0;
    while (pos < head.size()) {
        size_t end = head.find('\n', pos);
        if (end == std::string_view::npos)
            end = head.size();
        const std::string_view line = head.substr(pos, end - pos);
        pos = end + 1;
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string_view::npos || line[first] == '#')
            continue;
        if (line[first] != '{' || line.find("\"format\"") == std::string_view::npos)
            return 0;
        if (line.find(std::string("\"") + kTrendRecordFormat + "\"") != std::string_view::npos)
            return 95;
        // Another version of the format: claim it, so the user hears which version it is.
        return line.find("\"plimsoll-trend/") != std::string_view::npos ? 60 : 0;
    }
    return 0;
}

ImportResult TrendRecordsImporter::parse(QIODevice &in, const ImportOptions &options,
                                         const Progress &progress) const
{
    VectorRunSink sink;
    ImportResult result = parseInto(in, options, progress, sink);
    if (result.ok())
        result.runs = std::move(sink.runs);
    return result;
}

ImportResult TrendRecordsImporter::parseInto(QIODevice &in, const ImportOptions &,
                                             const Progress &progress, RunSink &sink) const
{
    ImportResult result;
    FileReader reader(result, sink);
    const int64_t total = in.isSequential() ? -1 : in.size();
    int64_t done = 0;
    int64_t reported = 0;
    int64_t lineNo = 0;
    try {
        while (!in.atEnd()) {
            // Past the bound (and the line's end), so that a line over it is told from one at it.
            const QByteArray raw = in.readLine(kMaxRecordBytes + 3);
            if (raw.isEmpty())
                break;
            ++lineNo;
            const int64_t offset = done;
            done += raw.size();
            int64_t length = raw.size();
            while (length > 0 && (raw.at(qsizetype(length - 1)) == '\n' || raw.at(qsizetype(length - 1)) == '\r'))
                --length;
            if (!raw.endsWith('\n') && !in.atEnd())
                length = skipRestOfLine(in, raw.size());
            if (length > kMaxRecordBytes)
                throw Failure{ImportError{
                    "is " + groupedBytes(length) + " bytes long; a trend record is one line of at most " +
                        groupedBytes(kMaxRecordBytes) + " bytes (1 MiB), so this is not one (a whole "
                        "document on one line?): write one record per line, as `plimsoll export "
                        "--format jsonl` does",
                    lineNo, offset, {}}};
            std::string text(raw.constData(), size_t(raw.size()));
            if (lineNo == 1 && text.rfind("\xEF\xBB\xBF", 0) == 0)
                text.replace(0, 3, "   "); // keep columns and offsets of the file
            while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
                text.pop_back();
            if (!isSkippable(text))
                reader.readLine(text, lineNo, offset);
            if (progress && done - reported >= kProgressStep) {
                reported = done;
                if (!progress(done, total))
                    throw Failure{ImportError{"import cancelled", lineNo, done, {}}};
            }
        }
        reader.finish();
    } catch (const Failure &f) {
        result.error = f.error;
        return result;
    }
    if (progress)
        progress(done, total);
    if (reader.runs() == 0)
        result.warnings.push_back({"no-records", 0, "the file holds no trend records"});
    return result;
}

const Importer &trendRecordsImporter()
{
    static const TrendRecordsImporter importer;
    return importer;
}

} // namespace plimsoll
