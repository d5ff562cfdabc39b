#include "importers/latencyunit.h"

#include "model/core/textpattern.h"

#include <cctype>

namespace plimsoll {

namespace {

// "us", "µs", "microseconds" -> "us"; empty for a word that is no unit.
std::string normalizedUnit(std::string word)
{
    for (char &c : word)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    if (word == "ns" || word == "nanosecond" || word == "nanoseconds")
        return "ns";
    if (word == "us" || word == "\xC2\xB5s" || word == "\xCE\xBCs" || word == "microsecond" || word == "microseconds")
        return "us";
    if (word == "ms" || word == "millisecond" || word == "milliseconds")
        return "ms";
    if (word == "s" || word == "second" || word == "seconds")
        return "s";
    return {};
}

} // namespace

std::optional<LatencyUnit> latencyUnitOf(const std::string &requested, const std::string &usual)
{
    const std::string name = requested.empty() ? usual : normalizedUnit(requested);
    LatencyUnit unit;
    unit.name = name;
    unit.assumed = requested.empty();
    if (name == "ns")
        unit.toSeconds = 1e-9;
    else if (name == "us")
        unit.toSeconds = 1e-6;
    else if (name == "ms")
        unit.toSeconds = 1e-3;
    else if (name == "s")
        unit.toSeconds = 1;
    else
        return std::nullopt;
    return unit;
}

std::optional<LatencyUnit> statedLatencyUnit(const std::vector<TextLine> &lines)
{
    static const TextPattern statement(
        R"(\bvalues?\s+(?:are\s+|in\s+|unit:?\s*)(nanoseconds?|microseconds?|milliseconds?|seconds?|ns|us|\xC2\xB5s|\xCE\xBCs|ms|s)\b)",
        TextPattern::Case::Insensitive);
    for (const TextLine &line : lines) {
        const std::string_view t = trimmed(line.text);
        if (t.empty())
            continue;
        if (t.front() != '#')
            break; // the header is over: a unit is stated before the first value
        const std::string_view s = t;
        PatternMatch m;
        std::string name;
        if (statement.search(s, &m))
            name = normalizedUnit(m.str(1));
        else if (startsWith(t, "#Plimsoll export") && t.find("(microseconds") != std::string_view::npos)
            name = "us"; // the export header before the unit statement had its own line
        if (name.empty())
            continue;
        auto unit = latencyUnitOf(name, name);
        unit->assumed = false;
        unit->statedAt = line.number;
        return unit;
    }
    return std::nullopt;
}

std::optional<LatencyUnit> resolveLatencyUnit(const std::string &requested,
                                              const std::vector<TextLine> &lines,
                                              const std::string &usual, ImportResult &result)
{
    const auto given = latencyUnitOf(requested, usual);
    if (!given) {
        result.error = ImportError{"unknown latency unit '" + requested + "' (ns, us, ms or s)",
                                   0, -1, "hlog-unit"};
        return std::nullopt;
    }
    const auto stated = statedLatencyUnit(lines);
    if (!stated)
        return given;
    if (!requested.empty() && given->name != stated->name) {
        result.error = ImportError{"states its values are " + stated->name +
                                       ", but --hlog-unit says " + given->name +
                                       " (leave --hlog-unit out to read them as stated)",
                                   stated->statedAt, -1, "hlog-unit"};
        return std::nullopt;
    }
    return stated;
}

void warnIfAssumed(const LatencyUnit &unit, const std::string &why,
                   std::vector<ImportWarning> &warnings)
{
    if (!unit.assumed)
        return;
    warnings.push_back({"unit-assumed", 0,
                        "values read as " + unit.name + ": the file does not state its unit (" +
                            why + "); --hlog-unit ns|us|ms|s says otherwise"});
}

std::vector<MetricValue> latencyMetrics(const HdrHistogram &h, const LatencyUnit &unit)
{
    auto at = [&](double p) { return static_cast<double>(h.valueAtPercentile(p)) * unit.toSeconds; };
    return {{"latency_p50_s", at(50)},
            {"latency_p95_s", at(95)},
            {"latency_p99_s", at(99)},
            {"latency_p999_s", at(99.9)},
            {"hdr.latency_p9999_s", at(99.99)},
            {"latency_max_s", static_cast<double>(h.max()) * unit.toSeconds},
            {"latency_avg_s", h.mean() * unit.toSeconds},
            {"hdr.latency_min_s", static_cast<double>(h.min()) * unit.toSeconds},
            {"hdr.total_count", static_cast<double>(h.totalCount())}};
}

} // namespace plimsoll
