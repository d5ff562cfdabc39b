#include "importers/kafka/kafkametrics.h"

#include <set>

namespace plimsoll {

bool isKafkaMetricsHeader(std::string_view line)
{
    const std::string_view t = trimmed(line);
    return startsWith(t, "Metric Name") && t.size() > 11 &&
           trimmed(t.substr(11)) == "Value";
}

std::string kafkaMetricName(std::string_view group, std::string_view name, std::string_view tags)
{
    std::string g(group);
    constexpr std::string_view kSuffix = "-metrics";
    if (g.size() > kSuffix.size() && g.compare(g.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0)
        g.erase(g.size() - kSuffix.size());
    std::string out = "kafka." + g + "." + std::string(name);

    // Tags other than client-id tell series apart (node-id, topic, partition).
    std::string_view inner = trimmed(tags);
    if (startsWith(inner, "{") && inner.size() >= 2 && inner.back() == '}')
        inner = inner.substr(1, inner.size() - 2);
    std::string kept;
    size_t pos = 0;
    while (pos <= inner.size()) {
        size_t comma = inner.find(',', pos);
        if (comma == std::string_view::npos)
            comma = inner.size();
        const std::string_view tag = trimmed(inner.substr(pos, comma - pos));
        if (!tag.empty() && !startsWith(tag, "client-id=")) {
            kept += kept.empty() ? "" : ",";
            kept += tag;
        }
        pos = comma + 1;
    }
    if (!kept.empty())
        out += "{" + kept + "}";
    return out;
}

size_t readKafkaMetrics(const std::vector<TextLine> &lines, size_t header, KafkaMetricsBlock &block,
                        std::vector<ImportWarning> &warnings)
{
    block.headerLine = lines[header].number;
    std::set<std::string> seen;
    int skipped = 0;
    size_t i = header + 1;
    for (; i < lines.size(); ++i) {
        const std::string_view line = trimmed(lines[i].text);
        if (line.empty())
            break;
        // "group:name:{tags} : value"; the value is separated by " : " after the tag braces.
        const size_t close = line.find('}');
        const size_t sep = line.find(" : ", close == std::string_view::npos ? 0 : close);
        if (sep == std::string_view::npos)
            break;
        const std::string_view key = trimmed(line.substr(0, sep));
        const std::string_view value = trimmed(line.substr(sep + 3));
        const size_t first = key.find(':');
        const size_t second = first == std::string_view::npos ? first : key.find(':', first + 1);
        if (second == std::string_view::npos)
            break;
        const std::string_view group = key.substr(0, first);
        const std::string_view name = key.substr(first + 1, second - first - 1);
        const std::string_view tags = key.substr(second + 1);
        if (group == "app-info" && name == "version") {
            block.clientVersion = std::string(value);
            continue;
        }
        const auto number = parseNumber(value);
        if (!number) {
            // NaN and ±Infinity (a max with no samples) and strings (commit ids) say nothing
            // a comparison could use.
            ++skipped;
            continue;
        }
        const std::string metric = kafkaMetricName(group, name, tags);
        if (!seen.insert(metric).second) {
            warnings.push_back({"duplicate-metric", lines[i].number,
                                "metric '" + metric + "' is printed twice; the first is kept"});
            continue;
        }
        block.metrics.push_back({metric, *number});
    }
    if (skipped > 0)
        warnings.push_back({"ignored-metrics", block.headerLine,
                            std::to_string(skipped) +
                                " client metrics without a finite number (NaN, Infinity, text) "
                                "were left out"});
    return i;
}

} // namespace plimsoll
