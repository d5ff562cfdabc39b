#include "importers/hdr/hlogimporter.h"

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

} // namespace

std::string HlogImporter::description() const
{
    return "HdrHistogram interval log (.hlog, format 1.01-1.3; V0/V1/V2 histograms): a merged "
           "latency distribution per tag and per-interval series";
}

std::string HlogImporter::detectionRule() const
{
    return "a \"#[Histogram log format version …]\" line, or interval lines ending in a base64 "
           "histogram starting \"HIST\"";
}

int HlogImporter::sniff(std::string_view head) const
{
    if (head.find("#[Histogram log format version") != std::string_view::npos)
        return 95;
    static const TextPattern data(R"((^|\n)(Tag=[^,\s]+,)?[0-9.]+,[0-9.]+,[0-9.]+,HIST)");
    const std::string text(head.substr(0, 16384));
    return data.search(text) ? 90 : 0;
}

Resemblance HlogImporter::resemblance(std::string_view head) const
{
    if (head.find("HIST") != std::string_view::npos &&
        head.find("Interval") != std::string_view::npos)
        return {50, "mentions intervals and HIST but has no \"start,length,max,HIST…\" line"};
    return {};
}

ImportResult HlogImporter::parse(QIODevice &in, const ImportOptions &options,
                                 const Progress &progress) const
{
    ImportResult result;
    std::string text;
    if (!readWholeSource(in, progress, kMaxBytes, "HdrHistogram log", text, result))
        return result;
    const std::vector<TextLine> lines = splitLines(text);
    const auto unit = resolveLatencyUnit(options.latencyUnit, lines, "ns", result);
    if (!unit)
        return result;
    const bool endsWithNewline = !text.empty() && (text.back() == '\n' || text.back() == '\r');

    std::optional<double> startTime, baseTime;
    std::string formatVersion, writer;
    bool legacyEndTimestamp = false;
    std::map<std::string, TagData> tags;
    std::vector<std::string> tagOrder;
    double firstStart = NAN;

    for (const TextLine &line : lines) {
        const std::string_view t = trimmed(line.text);
        if (t.empty())
            continue;
        if (t.front() == '#') {
            if (auto v = bracketNumber(t, "#[StartTime:"))
                startTime = v;
            else if (auto b = bracketNumber(t, "#[BaseTime:"))
                baseTime = b;
            else if (startsWith(t, "#[Histogram log format version "))
                formatVersion = std::string(trimmed(t.substr(31, t.find(']') - 31)));
            else if (startsWith(t, "#[Logged with "))
                writer = std::string(t.substr(14, t.find(']') - 14));
            continue;
        }
        if (t.front() == '"') {
            legacyEndTimestamp = startsWith(t, "\"EndTimestamp\"");
            continue;
        }
        std::string_view rest = t;
        const size_t indent = size_t(t.data() - line.text.data());
        std::string tag;
        if (startsWith(rest, "Tag=")) {
            const size_t comma = rest.find(',');
            if (comma == std::string_view::npos)
                continue;
            tag = std::string(rest.substr(4, comma - 4));
            rest.remove_prefix(comma + 1);
        }
        // Fields are separated by commas (or, in some writers, spaces).
        std::vector<std::pair<std::string_view, size_t>> fields;
        size_t pos = 0;
        while (pos <= rest.size() && fields.size() < 4) {
            const size_t end = fields.size() < 3 ? rest.find_first_of(", ", pos) : rest.size();
            const size_t stop = end == std::string_view::npos ? rest.size() : end;
            fields.push_back({rest.substr(pos, stop - pos),
                              indent + size_t(rest.data() - t.data()) + pos});
            pos = stop + 1;
        }
        const bool last = &line == &lines.back();
        static const char *names[] = {"StartTimestamp", "Interval_Length", "Interval_Max",
                                      "Interval_Compressed_Histogram"};
        std::optional<double> nums[3];
        for (size_t i = 0; i < 3 && i < fields.size(); ++i)
            nums[i] = parseNumber(fields[i].first);
        if (fields.size() < 4 || !nums[0] || !nums[1] || !nums[2]) {
            if (last && !endsWithNewline) {
                result.warnings.push_back({"truncated-final-line", line.number,
                                           "the last interval line is incomplete; skipped"});
                break;
            }
            size_t bad = 0;
            while (bad < 3 && bad < fields.size() && nums[bad])
                ++bad;
            const size_t column = bad < fields.size() ? fields[bad].second : line.text.size();
            result.error = errorAt(line, column, names[std::min<size_t>(bad, 3)],
                                   bad < fields.size() ? "is not a number"
                                                       : "is missing (an interval line has four fields)");
            return result;
        }
        const QByteArray raw = QByteArray::fromStdString(std::string(trimmed(fields[3].first)));
        const auto decoded = QByteArray::fromBase64Encoding(raw, QByteArray::AbortOnBase64DecodingErrors);
        std::string decodeError = "is not base64";
        std::optional<HdrHistogram> h;
        if (decoded)
            h = HdrHistogram::decode(std::string_view(decoded.decoded.constData(), size_t(decoded.decoded.size())),
                                     &decodeError);
        if (!h) {
            if (last && !endsWithNewline) {
                result.warnings.push_back({"truncated-final-line", line.number,
                                           "the last interval's histogram is incomplete; skipped"});
                break;
            }
            result.error = errorAt(line, fields[3].second, names[3], decodeError);
            return result;
        }
        double length = *nums[1];
        if (legacyEndTimestamp && *nums[0] > 1e9 && *nums[1] >= *nums[0])
            length = *nums[1] - *nums[0]; // HdrHistogram_c's legacy writer: an absolute end
        if (*nums[0] < 0 || length < 0)
            result.warnings.push_back({"negative-time", line.number,
                                       "interval start or length is negative"});
        if (std::isnan(firstStart))
            firstStart = *nums[0];
        if (!tags.count(tag))
            tagOrder.push_back(tag);
        TagData &data = tags[tag];
        mergeInto(data.merged, *h);
        data.intervals.push_back({line.number, *nums[0], length, *nums[2], h->valueAtPercentile(50),
                                  h->valueAtPercentile(99), h->max(), h->totalCount()});
    }
    if (tags.empty()) {
        result.error = ImportError{"holds no interval line", 0, -1, {}};
        return result;
    }

    // HistogramLogReader's rule: with no BaseTime, stamps more than a year before StartTime
    // are relative to it; otherwise they are absolute epoch seconds.
    if (!startTime)
        startTime = baseTime ? *baseTime + firstStart : firstStart;
    double base = 0;
    if (baseTime)
        base = *baseTime;
    else if (firstStart < *startTime - kOneYearS)
        base = *startTime;
    const double runStart = std::min(*startTime, base + firstStart);

    RunRecord run;
    run.line = 1;
    run.tool = writer.empty() ? "HdrHistogram" : writer;
    run.runKey = contentRunKey(name(), text);
    if (*startTime > 1e9)
        run.timestamp = isoOfEpoch(*startTime);
    else
        run.timestamp = inferredRunTime(in, result.warnings);
    run.tuning["hlog_format_version"] = formatVersion;
    run.tuning["value_unit"] = unit->name;
    run.provenance = "merged interval histograms per tag; values in " + unit->name +
                     (unit->statedAt > 0 ? " as line " + std::to_string(unit->statedAt) + " states"
                      : unit->assumed    ? " (assumed)"
                                         : " (--hlog-unit)");

    double ratioSum = 0;
    int ratioCount = 0;
    std::vector<double> counts;
    for (const std::string &tag : tagOrder) {
        const TagData &data = tags[tag];
        ScenarioRecord sc;
        sc.name = tag.empty() ? "latency" : "latency/" + tag;
        sc.kind = "latency-distribution";
        sc.line = data.intervals.front().line;
        sc.metrics = latencyMetrics(*data.merged, *unit);
        double first = INFINITY, end = -INFINITY;
        SeriesRecord p50{"latency_p50_s", {}}, p99{"latency_p99_s", {}}, mx{"latency_max_s", {}},
            count{"hdr.count", {}};
        for (const Interval &iv : data.intervals) {
            const double t = (base - runStart) + iv.start;
            first = std::min(first, base + iv.start);
            end = std::max(end, base + iv.start + iv.length);
            p50.samples.push_back({t, double(iv.p50) * unit->toSeconds});
            p99.samples.push_back({t, double(iv.p99) * unit->toSeconds});
            mx.samples.push_back({t, double(iv.max) * unit->toSeconds});
            count.samples.push_back({t, double(iv.count)});
            if (iv.intervalMax > 0 && iv.max > 0) {
                ratioSum += std::log10(double(iv.max) / iv.intervalMax);
                ++ratioCount;
            }
        }
        sc.metrics.push_back({"hdr.duration_s", end - first});
        if (end > first)
            sc.metrics.push_back(
                {"hdr.count_per_s", double(data.merged->totalCount()) / (end - first)});
        sc.series = {p50, p99, mx, count};
        sc.provenance = std::to_string(data.intervals.size()) + " intervals merged";
        counts.push_back(double(data.merged->totalCount()));
        run.scenarios.push_back(std::move(sc));
    }
    // Interval_Max is the max divided by the writer's unit ratio (Java: 1e6 for ns -> ms):
    // say what the ratio suggests beside the assumed unit.
    std::string why = "HdrHistogram logs hold the writer's integers";
    if (ratioCount > 0) {
        const double decade = std::round(ratioSum / ratioCount);
        why += "; histogram max / Interval_Max is about 1e" + std::to_string(int(decade)) +
               (decade == 6 ? ", as for nanoseconds with Interval_Max in ms"
                : decade == 3 ? ", as for microseconds with Interval_Max in ms"
                              : "");
    }
    warnIfAssumed(*unit, why, result.warnings);
    warnIfZeroOnly(counts, 0, "recorded values", result.warnings);
    result.runs.push_back(std::move(run));
    return result;
}

} // namespace plimsoll
