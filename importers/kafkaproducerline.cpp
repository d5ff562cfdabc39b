#include "importers/kafkaproducerline.h"

#include "importers/textsource.h"

#include <QDateTime>

#include <regex>

namespace plimsoll {

namespace {

// ProducerPerformance's periodic window (its reporting interval is fixed at 5000 ms).
constexpr double kWindowSeconds = 5.0;

const std::regex &resultPattern()
{
    static const std::regex re(
        R"((\d+)( steady state)? records sent, ([0-9.]+|NaN) records/sec \(([0-9.]+|NaN) MB/sec\), )"
        R"(([0-9.]+|NaN) ms avg latency, ([0-9.]+|NaN) (?:ms )?max latency)");
    return re;
}

std::optional<int64_t> percentile(const std::string &rest, const char *label)
{
    const std::regex re(std::string(R"((\d+) ms )") + label + R"((?:\b|$))");
    std::smatch m;
    if (!std::regex_search(rest, m, re))
        return std::nullopt;
    return parseInteger(m.str(1));
}

double seconds(const std::string &iso)
{
    return double(QDateTime::fromString(QString::fromStdString(iso), Qt::ISODateWithMs)
                      .toMSecsSinceEpoch()) /
           1000.0;
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
    const std::string line(text);
    std::smatch m;
    if (!std::regex_search(line, m, resultPattern()))
        return std::nullopt;
    ProducerPerfLine r;
    const auto records = parseInteger(m.str(1));
    const auto rate = parseNumber(m.str(3));
    const auto mb = parseNumber(m.str(4));
    const auto avg = parseNumber(m.str(5));
    const auto max = parseNumber(m.str(6));
    if (!records || !rate || !mb || !avg || !max)
        return std::nullopt; // NaN: a window with nothing in it
    r.records = *records;
    r.recordsPerSec = *rate;
    r.mbPerSec = *mb;
    r.avgMs = *avg;
    r.maxMs = *max;
    r.steadyState = m[2].matched;
    r.column = int64_t(m.position(0)) + 1;
    r.prefix = std::string(trimmed(line.substr(0, size_t(m.position(0)))));
    if (!r.prefix.empty() && r.prefix.back() == ',')
        r.prefix.pop_back();
    r.prefixTime = localTimeAsUtc(r.prefix);

    const std::string rest = m.suffix().str();
    const std::string_view restView = trimmed(rest);
    if (startsWith(restView, ",")) {
        r.final = true;
        r.p50 = percentile(rest, "50th");
        r.p95 = percentile(rest, "95th");
        r.p99 = percentile(rest, "99th");
        r.p999 = percentile(rest, R"(99\.9th)");
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
    const double t0 = stamped ? seconds(*interim.front().prefixTime) : 0;
    SeriesRecord rate{"records_per_s", {}}, bytes{"bytes_per_s", {}};
    SeriesRecord avg{"latency_avg_s", {}}, max{"latency_max_s", {}};
    for (size_t i = 0; i < interim.size(); ++i) {
        const ProducerPerfLine &l = interim[i];
        const double t = stamped ? seconds(*l.prefixTime) - t0 : double(i) * kWindowSeconds;
        rate.samples.push_back({t, l.recordsPerSec});
        bytes.samples.push_back({t, l.mbPerSec * kMiB});
        avg.samples.push_back({t, l.avgMs * 1e-3});
        max.samples.push_back({t, l.maxMs * 1e-3});
    }
    return {rate, bytes, avg, max};
}

} // namespace plimsoll
