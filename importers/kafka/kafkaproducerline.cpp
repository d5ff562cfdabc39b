#include "importers/kafka/kafkaproducerline.h"

#include "importers/textsource.h"

namespace plimsoll {

namespace {

// ProducerPerformance's periodic window before Kafka 4.x's --reporting-interval (KIP-1147): a line
// without a rate to time it by is taken to span this.
constexpr double kWindowSeconds = 5.0;

// A periodic line's own window: the records it counts over their rate (the tool computes the
// rate from that window), so lines printed at any reporting interval keep their time axis.
double windowSeconds(const ProducerPerfLine &l)
{
    return l.recordsPerSec > 0 && l.records > 0 ? double(l.records) / l.recordsPerSec : kWindowSeconds;
}

// The result part of a line, as the pattern
//   (\d+)( steady state)? records sent, ([0-9.]+|NaN) records/sec \(([0-9.]+|NaN) MB/sec\),
//   ([0-9.]+|NaN) ms avg latency, ([0-9.]+|NaN) (?:ms )?max latency
// finds it leftmost in the line; scanned by hand, as every periodic line is one.
struct ResultMatch
{
    size_t begin = 0, end = 0; // of the whole result
    bool steadyState = false;
    std::string_view records, rate, mb, avg, max;
};

class Scanner
{
public:
    Scanner(std::string_view s, size_t at) : m_s(s), m_at(at) {}
    bool literal(std::string_view text)
    {
        if (m_s.substr(m_at, text.size()) != text)
            return false;
        m_at += text.size();
        return true;
    }
    // [0-9.]+ or NaN
    bool number(std::string_view &out)
    {
        const size_t from = m_at;
        while (m_at < m_s.size() && ((m_s[m_at] >= '0' && m_s[m_at] <= '9') || m_s[m_at] == '.'))
            ++m_at;
        if (m_at == from && !literal("NaN"))
            return false;
        out = m_s.substr(from, m_at - from);
        return true;
    }
    size_t at() const { return m_at; }

private:
    std::string_view m_s;
    size_t m_at;
};

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

std::optional<ResultMatch> findResult(std::string_view line)
{
    static constexpr std::string_view kSent = " records sent, ", kSteady = " steady state";
    for (size_t at = line.find(kSent); at != std::string_view::npos;
         at = line.find(kSent, at + 1)) {
        ResultMatch m;
        size_t digitsEnd = at;
        if (at >= kSteady.size() && line.substr(at - kSteady.size(), kSteady.size()) == kSteady) {
            m.steadyState = true;
            digitsEnd = at - kSteady.size();
        }
        m.begin = digitsEnd;
        while (m.begin > 0 && isDigit(line[m.begin - 1]))
            --m.begin;
        if (m.begin == digitsEnd)
            continue;
        m.records = line.substr(m.begin, digitsEnd - m.begin);
        Scanner sc(line, at + kSent.size());
        if (!sc.number(m.rate) || !sc.literal(" records/sec (") || !sc.number(m.mb) ||
            !sc.literal(" MB/sec), ") || !sc.number(m.avg) || !sc.literal(" ms avg latency, ") ||
            !sc.number(m.max) || !sc.literal(" "))
            continue;
        (void)sc.literal("ms ");
        if (!sc.literal("max latency"))
            continue;
        m.end = sc.at();
        return m;
    }
    return std::nullopt;
}

bool isWordChar(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// "P ms 99th" in the final line's tail, `label` being " ms 99th": the leftmost digits followed by
// the label that a word does not go on after (the pattern (\d+) ms 99th\b, scanned by hand as
// every final line has four).
std::optional<int64_t> percentile(std::string_view rest, std::string_view label)
{
    for (size_t at = rest.find(label); at != std::string_view::npos;
         at = rest.find(label, at + 1)) {
        const size_t after = at + label.size();
        if (at == 0 || !isDigit(rest[at - 1]) || (after < rest.size() && isWordChar(rest[after])))
            continue;
        size_t begin = at;
        while (begin > 0 && isDigit(rest[begin - 1]))
            --begin;
        return parseInteger(rest.substr(begin, at - begin));
    }
    return std::nullopt;
}

} // namespace

bool looksLikeProducerPerfLine(std::string_view line)
{
    return line.find("records sent,") != std::string_view::npos;
}

std::optional<ProducerPerfLine> parseProducerPerfLine(std::string_view text)
{
    if (!looksLikeProducerPerfLine(text))
        return std::nullopt;
    const std::string_view line = text;
    const std::optional<ResultMatch> m = findResult(line);
    if (!m)
        return std::nullopt;
    ProducerPerfLine r;
    const auto records = parseInteger(m->records);
    const auto rate = parseNumber(m->rate);
    const auto mb = parseNumber(m->mb);
    const auto avg = parseNumber(m->avg);
    const auto max = parseNumber(m->max);
    if (!records || !rate || !mb || !avg || !max)
        return std::nullopt; // NaN: a window with nothing in it
    r.records = *records;
    r.recordsPerSec = *rate;
    r.mbPerSec = *mb;
    r.avgMs = *avg;
    r.maxMs = *max;
    r.steadyState = m->steadyState;
    r.column = int64_t(m->begin) + 1;
    r.prefix = std::string(trimmed(line.substr(0, m->begin)));
    if (!r.prefix.empty() && r.prefix.back() == ',')
        r.prefix.pop_back();
    r.prefixTime = localTimeAsUtc(r.prefix);

    const std::string_view rest = line.substr(m->end);
    const std::string_view restView = trimmed(rest);
    if (startsWith(restView, ",")) {
        r.final = true;
        r.p50 = percentile(rest, " ms 50th");
        r.p95 = percentile(rest, " ms 95th");
        r.p99 = percentile(rest, " ms 99th");
        r.p999 = percentile(rest, " ms 99.9th");
        r.truncated = !r.p50 || !r.p95 || !r.p99 || !r.p999 ||
                      restView.find("99.9th") == std::string_view::npos;
    }
    return r;
}

void appendProducerMetrics(const ProducerPerfLine &line, std::vector<MetricValue> &out)
{
    out.push_back({"records_per_s", line.recordsPerSec});
    out.push_back({"bytes_per_s", line.mbPerSec * kMiB});
    out.push_back({"latency_avg_s", line.avgMs * 1e-3});
    if (line.p50)
        out.push_back({"latency_p50_s", double(*line.p50) * 1e-3});
    if (line.p95)
        out.push_back({"latency_p95_s", double(*line.p95) * 1e-3});
    if (line.p99)
        out.push_back({"latency_p99_s", double(*line.p99) * 1e-3});
    if (line.p999)
        out.push_back({"latency_p999_s", double(*line.p999) * 1e-3});
    out.push_back({"latency_max_s", line.maxMs * 1e-3});
}

std::vector<SeriesRecord> producerSeries(const std::vector<ProducerPerfLine> &interim)
{
    if (interim.empty())
        return {};
    bool stamped = true;
    for (const auto &l : interim)
        stamped = stamped && l.prefixTime.has_value();
    const double t0 = stamped ? utcSeconds(*interim.front().prefixTime) : 0;
    SeriesRecord rate{"records_per_s", {}}, bytes{"bytes_per_s", {}};
    SeriesRecord avg{"latency_avg_s", {}}, max{"latency_max_s", {}};
    double elapsed = 0; // unstamped: the windows since the first line, each the line's own
    for (size_t i = 0; i < interim.size(); ++i) {
        const ProducerPerfLine &l = interim[i];
        if (i > 0)
            elapsed += windowSeconds(l);
        const double t = stamped ? utcSeconds(*l.prefixTime) - t0 : elapsed;
        rate.samples.push_back({t, l.recordsPerSec});
        bytes.samples.push_back({t, l.mbPerSec * kMiB});
        avg.samples.push_back({t, l.avgMs * 1e-3});
        max.samples.push_back({t, l.maxMs * 1e-3});
    }
    return {rate, bytes, avg, max};
}

} // namespace plimsoll
