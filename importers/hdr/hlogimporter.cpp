// HdrHistogram interval logs (.hlog), log format versions 1.01 to 1.3, as written by
// HdrHistogram's HistogramLogWriter (Java, C), jHiccup, YCSB, memtier and Plimsoll's runner:
//   #[Histogram log format version 1.3]
//   #[StartTime: 1441812279.474 (seconds since epoch), ...]   #[BaseTime: ...]
//   "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
//   [Tag=<tag>,]<start s>,<length s>,<max>,<base64 of a V0/V1/V2, usually DEFLATEd, histogram>
//
// Each tag becomes one scenario whose percentiles come from the merge of its intervals'
// histograms (never an average of interval percentiles), with per-interval series.
// The histograms hold raw integers in the writer's unit. A header comment stating it
// ("#[Values in us (microseconds); Interval_Max in ms]", as Plimsoll writes) is obeyed
// (latencyunit.h); most writers state none: ImportOptions::latencyUnit, default nanoseconds
// (HdrHistogram Java's and jHiccup's convention: ns recorded, Interval_Max printed in ms).

#include "importers/importers.h"
#include "importers/textimporter.h"

#include "importers/latencyunit.h"
#include "importers/textsource.h"
#include "model/core/hdrhistogram.h"
#include "model/core/textpattern.h"

#include <QByteArray>
#include <QDateTime>
#include <QIODevice>

#include <cmath>
#include <map>

namespace plimsoll {

namespace {

constexpr int64_t kMaxBytes = 256LL * 1024 * 1024;
// What this importer is called and how its source is read (importers/textimporter.h).
constexpr TextFormat kFormat{{"hdrhistogram-log", "2",
                          "HdrHistogram interval log (.hlog, format 1.01-1.3; V0/V1/V2 histograms): a merged latency distribution per tag and per-interval series",
                          "a \"#[Histogram log format version …]\" line, or interval lines ending in a base64 histogram starting \"HIST\""},
                         "HdrHistogram log", kMaxBytes, TextInput::Whole};
constexpr double kOneYearS = 365.0 * 24 * 3600;

struct Interval
{
    int64_t line = 0;
    double start = 0;  // as written (relative or absolute seconds)
    double length = 0; // seconds
    double intervalMax = 0;
    // What the series need of the interval's histogram, kept instead of the histogram: a
    // long log holds hundreds of thousands of intervals.
    int64_t p50 = 0, p99 = 0, max = 0, count = 0;
};

struct TagData
{
    std::vector<Interval> intervals;
    std::optional<HdrHistogram> merged;
};

// Merges as HdrHistogram's own log tests and tools do, into an accumulating
// Histogram(3): unit resolution, at least 3 significant digits, each source bucket
// re-recorded at its lowest value. A coarse (e.g. 2-digit) interval histogram then reports
// the bottom of its bucket at the finer resolution, which is what HdrHistogram's reference
// numbers for the same logs say.
constexpr int kMergeDigits = 3;

void mergeInto(std::optional<HdrHistogram> &merged, const HdrHistogram &h)
{
    const int64_t highest = std::max<int64_t>(h.highestTrackableValue(), 2);
    const int digits = std::max(kMergeDigits, h.significantDigits());
    if (!merged) {
        merged.emplace(1, highest, digits);
    } else if (highest > merged->highestTrackableValue() || digits > merged->significantDigits()) {
        HdrHistogram wider(1, std::max(highest, merged->highestTrackableValue()),
                           std::max(digits, merged->significantDigits()));
        wider.add(*merged);
        merged = std::move(wider);
    }
    merged->add(h);
}

std::optional<double> bracketNumber(std::string_view line, std::string_view key)
{
    const size_t at = line.find(key);
    if (at == std::string_view::npos)
        return std::nullopt;
    std::string_view rest = trimmed(line.substr(at + key.size()));
    const size_t end = rest.find_first_of(" ]");
    return parseNumber(rest.substr(0, end));
}

std::string isoOfEpoch(double seconds)
{
    return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(std::llround(seconds * 1000)),
                                          Qt::UTC)
        .toString(Qt::ISODateWithMs)
        .toStdString();
}

ImportError errorAt(const TextLine &line, size_t column, const std::string &field,
                    const std::string &message)
{
    ImportError e;
    e.message = message;
    e.line = line.number;
    e.column = int64_t(column) + 1;
    e.offset = line.offset + int64_t(column);
    e.field = field;
    return e;
}

// An interval line's fields after its tag: start, length, max and the histogram, each with
// its column in the line. Commas separate them (or, in some writers, spaces).
std::vector<std::pair<std::string_view, size_t>> intervalFields(std::string_view rest,
                                                                size_t column)
{
    std::vector<std::pair<std::string_view, size_t>> fields;
    size_t pos = 0;
    while (pos <= rest.size() && fields.size() < 4) {
        const size_t end = fields.size() < 3 ? rest.find_first_of(", ", pos) : rest.size();
        const size_t stop = end == std::string_view::npos ? rest.size() : end;
        fields.push_back({rest.substr(pos, stop - pos), column + pos});
        pos = stop + 1;
    }
    return fields;
}

// Where the interval stamps count from, by HistogramLogReader's rule: with no BaseTime,
// stamps more than a year before StartTime are relative to it; otherwise they are absolute
// epoch seconds.
struct TimeBase
{
    double startTime = 0; // the log's start, epoch seconds when it states one
    double base = 0;      // added to each stamp
    double runStart = 0;  // series times count from here

    TimeBase(std::optional<double> stated, std::optional<double> baseTime, double firstStart)
    {
        startTime = stated ? *stated : baseTime ? *baseTime + firstStart : firstStart;
        if (baseTime)
            base = *baseTime;
        else if (firstStart < startTime - kOneYearS)
            base = startTime;
        runStart = std::min(startTime, base + firstStart);
    }
};

// The log's lines read: its header comments, and per tag the merged histogram and what the
// series need of each interval. Stops at the first line it cannot read (result.error), or at
// an incomplete last line, which is warned and skipped.
class HlogReader
{
public:
    HlogReader(const std::string &text, ImportResult &result)
        : m_endsWithNewline(!text.empty() && (text.back() == '\n' || text.back() == '\r')),
          m_result(result)
    {
    }

    // False when a line is refused.
    bool read(const std::vector<TextLine> &lines)
    {
        for (const TextLine &line : lines) {
            const std::string_view t = trimmed(line.text);
            if (t.empty())
                continue;
            if (t.front() == '#') {
                readComment(t);
                continue;
            }
            if (t.front() == '"') {
                legacyEndTimestamp = startsWith(t, "\"EndTimestamp\"");
                continue;
            }
            const Step step = readInterval(line, t, &line == &lines.back());
            if (step == Step::Refused)
                return false;
            if (step == Step::Stop)
                break;
        }
        return true;
    }

    std::optional<double> startTime, baseTime;
    std::string formatVersion, writer;
    bool legacyEndTimestamp = false;
    std::map<std::string, TagData> tags;
    std::vector<std::string> tagOrder;
    double firstStart = NAN;

private:
    enum class Step { Read, Skipped, Stop, Refused };

    void readComment(std::string_view t)
    {
        if (auto v = bracketNumber(t, "#[StartTime:"))
            startTime = v;
        else if (auto b = bracketNumber(t, "#[BaseTime:"))
            baseTime = b;
        else if (startsWith(t, "#[Histogram log format version "))
            formatVersion = std::string(trimmed(t.substr(31, t.find(']') - 31)));
        else if (startsWith(t, "#[Logged with "))
            writer = std::string(t.substr(14, t.find(']') - 14));
    }

    // An incomplete last line is what a log still being written ends with: warned, not refused.
    bool skipTruncatedLast(const TextLine &line, bool last, const char *what)
    {
        if (!last || m_endsWithNewline)
            return false;
        m_result.warnings.push_back({"truncated-final-line", line.number,
                                     std::string("the last interval") + what +
                                         " is incomplete; skipped"});
        return true;
    }

    Step readInterval(const TextLine &line, std::string_view t, bool last)
    {
        static const char *names[] = {"StartTimestamp", "Interval_Length", "Interval_Max",
                                      "Interval_Compressed_Histogram"};
        std::string_view rest = t;
        const size_t indent = size_t(t.data() - line.text.data());
        std::string tag;
        if (startsWith(rest, "Tag=")) {
            const size_t comma = rest.find(',');
            if (comma == std::string_view::npos)
                return Step::Skipped;
            tag = std::string(rest.substr(4, comma - 4));
            rest.remove_prefix(comma + 1);
        }
        const auto fields = intervalFields(rest, indent + size_t(rest.data() - t.data()));
        std::optional<double> nums[3];
        for (size_t i = 0; i < 3 && i < fields.size(); ++i)
            nums[i] = parseNumber(fields[i].first);
        if (fields.size() < 4 || !nums[0] || !nums[1] || !nums[2]) {
            if (skipTruncatedLast(line, last, " line"))
                return Step::Stop;
            size_t bad = 0;
            while (bad < 3 && bad < fields.size() && nums[bad])
                ++bad;
            const size_t column = bad < fields.size() ? fields[bad].second : line.text.size();
            m_result.error = errorAt(line, column, names[std::min<size_t>(bad, 3)],
                                     bad < fields.size()
                                         ? "is not a number"
                                         : "is missing (an interval line has four fields)");
            return Step::Refused;
        }
        std::string decodeError = "is not base64";
        if (!decodeHistogram(fields[3].first, decodeError)) {
            if (skipTruncatedLast(line, last, "'s histogram"))
                return Step::Stop;
            m_result.error = errorAt(line, fields[3].second, names[3], decodeError);
            return Step::Refused;
        }
        addInterval(line, tag, *nums[0], *nums[1], *nums[2], *m_histogram);
        return Step::Read;
    }

    // Into m_histogram, which every line reuses.
    bool decodeHistogram(std::string_view field, std::string &error)
    {
        const std::string_view base64 = trimmed(field);
        // A view of the line, not a copy: decoding makes the only new bytes.
        const QByteArray raw = QByteArray::fromRawData(base64.data(), qsizetype(base64.size()));
        const auto decoded =
            QByteArray::fromBase64Encoding(raw, QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return false;
        return HdrHistogram::decodeInto(
            std::string_view(decoded.decoded.constData(), size_t(decoded.decoded.size())),
            m_histogram, &error);
    }

    void addInterval(const TextLine &line, const std::string &tag, double start, double second,
                     double intervalMax, const HdrHistogram &h)
    {
        double length = second;
        if (legacyEndTimestamp && start > 1e9 && second >= start)
            length = second - start; // HdrHistogram_c's legacy writer: an absolute end
        if (start < 0 || length < 0)
            m_result.warnings.push_back({"negative-time", line.number,
                                         "interval start or length is negative"});
        if (std::isnan(firstStart))
            firstStart = start;
        if (!tags.count(tag))
            tagOrder.push_back(tag);
        TagData &data = tags[tag];
        mergeInto(data.merged, h);
        data.intervals.push_back({line.number, start, length, intervalMax,
                                  h.valueAtPercentile(50), h.valueAtPercentile(99), h.max(),
                                  h.totalCount()});
    }

    bool m_endsWithNewline;
    ImportResult &m_result;
    std::optional<HdrHistogram> m_histogram; // the line's interval, decoded
};

// Interval_Max is the max divided by the writer's unit ratio (Java: 1e6 for ns -> ms), so the
// ratio over the intervals says which unit the histograms hold.
struct UnitRatio
{
    double logSum = 0;
    int count = 0;

    void add(const Interval &iv)
    {
        if (iv.intervalMax > 0 && iv.max > 0) {
            logSum += std::log10(double(iv.max) / iv.intervalMax);
            ++count;
        }
    }
    // What the ratio suggests, said beside an assumed unit.
    std::string why() const
    {
        std::string out = "HdrHistogram logs hold the writer's integers";
        if (count > 0) {
            const double decade = std::round(logSum / count);
            out += "; histogram max / Interval_Max is about 1e" + std::to_string(int(decade)) +
                   (decade == 6   ? ", as for nanoseconds with Interval_Max in ms"
                    : decade == 3 ? ", as for microseconds with Interval_Max in ms"
                                  : "");
        }
        return out;
    }
};

// One tag's scenario: percentiles of its merged histogram, per-interval series.
ScenarioRecord scenarioOfTag(const std::string &tag, const TagData &data, const LatencyUnit &unit,
                             const TimeBase &time, UnitRatio &ratio)
{
    ScenarioRecord sc;
    sc.name = tag.empty() ? "latency" : "latency/" + tag;
    sc.kind = "latency-distribution";
    sc.line = data.intervals.front().line;
    sc.metrics = latencyMetrics(*data.merged, unit);
    double first = INFINITY, end = -INFINITY;
    SeriesRecord p50{"latency_p50_s", {}}, p99{"latency_p99_s", {}}, mx{"latency_max_s", {}},
        count{"hdr.count", {}};
    for (const Interval &iv : data.intervals) {
        const double t = (time.base - time.runStart) + iv.start;
        first = std::min(first, time.base + iv.start);
        end = std::max(end, time.base + iv.start + iv.length);
        p50.samples.push_back({t, double(iv.p50) * unit.toSeconds});
        p99.samples.push_back({t, double(iv.p99) * unit.toSeconds});
        mx.samples.push_back({t, double(iv.max) * unit.toSeconds});
        count.samples.push_back({t, double(iv.count)});
        ratio.add(iv);
    }
    sc.metrics.push_back({"hdr.duration_s", end - first});
    if (end > first)
        sc.metrics.push_back(
            {"hdr.count_per_s", double(data.merged->totalCount()) / (end - first)});
    sc.series = {p50, p99, mx, count};
    sc.provenance = std::to_string(data.intervals.size()) + " intervals merged";
    return sc;
}

} // namespace

namespace {

int sniff(std::string_view head)
{
    if (head.find("#[Histogram log format version") != std::string_view::npos)
        return 95;
    static const TextPattern data(R"((^|\n)(Tag=[^,\s]+,)?[0-9.]+,[0-9.]+,[0-9.]+,HIST)");
    const std::string text(head.substr(0, 16384));
    return data.search(text) ? 90 : 0;
}

Resemblance resemblance(std::string_view head)
{
    if (head.find("HIST") != std::string_view::npos &&
        head.find("Interval") != std::string_view::npos)
        return {50, "mentions intervals and HIST but has no \"start,length,max,HIST…\" line"};
    return {};
}

ImportResult parse(const std::string &text, QIODevice &in, const ImportOptions &options,
                   ImportResult result)
{
    const std::vector<TextLine> lines = splitLines(text);
    const auto unit = resolveLatencyUnit(options.latencyUnit, lines, "ns", result);
    if (!unit)
        return result;
    HlogReader log(text, result);
    if (!log.read(lines))
        return result;
    if (log.tags.empty()) {
        result.error = ImportError{"holds no interval line", 0, -1, {}};
        return result;
    }
    const TimeBase time(log.startTime, log.baseTime, log.firstStart);

    RunRecord run;
    run.line = 1;
    run.tool = log.writer.empty() ? "HdrHistogram" : log.writer;
    run.runKey = contentRunKey(kFormat.identity.name, text);
    if (time.startTime > 1e9)
        run.timestamp = isoOfEpoch(time.startTime);
    else
        dateByInference(run, in, result.warnings);
    run.tuning["hlog_format_version"] = log.formatVersion;
    run.tuning["value_unit"] = unit->name;
    run.provenance = "merged interval histograms per tag; values in " + unit->name +
                     (unit->statedAt > 0 ? " as line " + std::to_string(unit->statedAt) + " states"
                      : unit->assumed    ? " (assumed)"
                                         : " (--hlog-unit)");
    UnitRatio ratio;
    std::vector<double> counts;
    for (const std::string &tag : log.tagOrder) {
        const TagData &data = log.tags[tag];
        run.scenarios.push_back(scenarioOfTag(tag, data, *unit, time, ratio));
        counts.push_back(double(data.merged->totalCount()));
    }
    warnIfAssumed(*unit, ratio.why(), result.warnings);
    warnIfZeroOnly(counts, 0, "recorded values", result.warnings);
    result.runs.push_back(std::move(run));
    return result;
}

} // namespace

const Importer &hlogImporter()
{
    static const TextImporter importer(kFormat, {sniff, resemblance, parse});
    return importer;
}

} // namespace plimsoll
