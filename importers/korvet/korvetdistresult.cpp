// A per-test result file of korvet-dist's run-comprehensive-benchmark.sh.
#include "importers/kafka/kafkaproducerline.h"
#include "importers/korvet/korvetdistparts.h"
#include "importers/textsource.h"
#include "model/core/textpattern.h"

#include <algorithm>
#include <cstdint>

namespace plimsoll {

namespace {

enum class Section { Header, Configuration, Producers, Aggregate, Korvet, Redis, RedisCpu };

struct ProducerResult
{
    int index = 0;
    int64_t headerLine = 0;
    std::optional<ProducerPerfLine> line;
    int64_t lineNumber = 0;
};

// The section a title line opens, or nullopt when the line is not a title.
std::optional<Section> sectionTitled(std::string_view t)
{
    static const std::pair<std::string_view, Section> titles[] = {
        {"Configuration:", Section::Configuration},
        {"=== Individual Producer Results ===", Section::Producers},
        {"=== Aggregate Results ===", Section::Aggregate},
        {"=== Korvet Metrics ===", Section::Korvet},
        {"=== Redis Enterprise Metrics ===", Section::Redis},
        {"Redis Enterprise CPU Usage:", Section::RedisCpu}};
    for (const auto &[title, section] : titles)
        if (t == title)
            return section;
    return std::nullopt;
}

// One "Key: value" line of a section, with the conversions its fields need; each refuses a
// value it cannot read with the line, the value's column and the field.
struct Field
{
    const TextLine &line;
    const std::string &value;

    double number(const char *field) const
    {
        const auto v = korvetDistNumber(value);
        if (!v)
            korvetDistFail(line, value, field, "'" + value + "' is not a number");
        return *v;
    }
    // A count as a whole number; out-of-range values are refused, not converted (a double
    // past int64's range converts to undefined behaviour).
    int64_t count(const char *field) const
    {
        const double v = number(field);
        if (!(v >= 0 && v < 9.0e18))
            korvetDistFail(line, value, field, "'" + value + "' is out of range");
        return int64_t(v);
    }
    int64_t integer(const std::string &text, const std::string &field) const
    {
        const auto v = parseInteger(text);
        if (!v || *v < 0 || *v > INT32_MAX)
            korvetDistFail(line, text, field, "'" + text + "' is out of range");
        return *v;
    }
    // A size in the unit the value states, `bareUnit` for a bare number.
    double bytes(const char *field, double bareUnit) const
    {
        const auto v = korvetDistBytes(value, bareUnit);
        if (!v)
            korvetDistFail(line, value, field,
                           "'" + value + "' is not a size (a number and B, KB, MB or GB)");
        return *v;
    }
};

// Reads the file section by section into one scenario named by the test (the aggregate) and
// one per producer, then puts the headline numbers first: the single producer's final line,
// or the script's aggregate with the producers' latency range.
class ResultReader
{
public:
    ResultReader(RunRecord &run, std::vector<ImportWarning> &warnings)
        : m_run(run), m_warnings(warnings)
    {
        m_aggregate.kind = "benchmark";
    }

    void read(const std::vector<TextLine> &lines)
    {
        for (const TextLine &line : lines)
            readLine(line);
        if (m_aggregate.name.empty())
            korvetDistFail(lines.front(), "", "Test", "the file names no test");
        m_run.tuning["test"] = m_aggregate.name;
        std::vector<ScenarioRecord> perProducer = producerScenarios();
        const std::vector<MetricValue> head = headlineMetrics();
        m_aggregate.metrics.insert(m_aggregate.metrics.begin(), head.begin(), head.end());
        addShardMetrics();
        std::vector<double> rates;
        for (const auto &m : m_aggregate.metrics)
            if (m.name == "records_per_s")
                rates.push_back(m.value);
        warnIfZeroOnly(rates, 0, "throughput", m_warnings);
        m_run.scenarios.reserve(m_run.scenarios.size() + 1 + perProducer.size());
        m_run.scenarios.push_back(std::move(m_aggregate));
        for (auto &sc : perProducer)
            m_run.scenarios.push_back(std::move(sc));
    }

private:
    void readLine(const TextLine &line)
    {
        const std::string_view t = trimmed(line.text);
        if (const auto section = sectionTitled(t)) {
            m_section = *section;
            return;
        }
        if (t.empty())
            return;
        // The block's lines are indented; the single-producer case tees the tool's output
        // right after it, unindented.
        if (m_section == Section::Configuration && !startsWith(line.text, " "))
            m_section = Section::Producers;
        if (m_section == Section::Producers) // most of a file's lines, and none a "Key: value"
            return readProducerLine(line, t);
        const auto [key, value] = korvetDistKeyValue(t);
        const Field field{line, value};
        switch (m_section) {
        case Section::Header:
            if (key == "Test")
                m_aggregate.name = value;
            else if (key == "Timestamp")
                setTiming(line, value);
            break;
        case Section::Configuration:
            readConfiguration(key, field);
            break;
        case Section::Producers:
            break;
        case Section::Aggregate:
            readAggregate(key, field);
            break;
        case Section::Korvet:
            readKorvet(key, field);
            break;
        case Section::Redis:
        case Section::RedisCpu:
            readRedis(t, key, field);
            break;
        }
    }

    void setTiming(const TextLine &line, const std::string &value)
    {
        const auto t = localTimeAsUtc(value);
        if (!t)
            korvetDistFail(line, value, "Timestamp",
                           "'" + value + "' is not a time like 2026-01-15 10:23:45");
        m_run.timestamp = *t;
        m_warnings.push_back({"timestamp-without-zone", line.number,
                              "the script writes local time without a zone; read as UTC"});
    }

    void readConfiguration(const std::string &key, const Field &f)
    {
        static const TextPattern batchValue(R"(^(\d+) messages \((\d+) bytes\)$)");
        Topology &topo = m_aggregate.topology;
        if (key == "Partitions") {
            topo.partitions = f.count("Partitions");
        } else if (key == "Producers") {
            topo.producers = f.count("Producers");
        } else if (key == "Record size") {
            const double bytes = f.bytes("Record size", 1);
            if (!(bytes >= 0 && bytes < 9.0e18))
                korvetDistFail(f.line, f.value, "Record size",
                               "'" + f.value + "' is not a size (a number and B, KB, MB or GB)");
            topo.recordSizeBytes = int64_t(bytes);
        } else if (key == "Acks") {
            topo.acks = f.value;
        } else if (key == "Compression") {
            topo.compression = f.value;
        } else if (key == "Batch size") {
            PatternMatch m;
            if (!batchValue.fullMatch(f.value, &m))
                korvetDistFail(f.line, f.value, "Batch size",
                               "'" + f.value + "' is not \"N messages (B bytes)\"");
            topo.batchBytes = f.integer(m.str(2), "Batch size");
            m_run.tuning["batch.messages"] = f.integer(m.str(1), "Batch size");
            m_run.tuning["batch.size"] = f.integer(m.str(2), "Batch size");
        } else if (key == "Pool size") {
            m_run.tuning["korvet.redis.pool-size"] = f.count("Pool size");
        } else if (key == "Topic") {
            m_run.tuning["topic"] = f.value;
        } else if (key == "Messages per producer") {
            m_run.tuning["num-records"] = f.count("Messages per producer");
        } else if (key != "Total messages") {
            m_warnings.push_back(
                {"ignored-field", f.line.number,
                 "configuration '" + key + "' is not one Plimsoll reads; ignored"});
        }
    }

    // "Producer N:" headers each followed by that producer's final line, or (one producer)
    // the tool's output teed in place: its periodic lines and its final one.
    void readProducerLine(const TextLine &line, std::string_view t)
    {
        static const TextPattern producerHeader(R"(^Producer (\d+):$)");
        PatternMatch m;
        if (startsWith(t, "Producer ") && producerHeader.fullMatch(t, &m)) {
            const std::string number = m.str(1);
            const Field f{line, number};
            m_producers.push_back({int(f.integer(number, "Producer")), line.number, std::nullopt, 0});
            return;
        }
        const auto parsed = parseProducerPerfLine(line.text);
        if (!parsed) {
            if (looksLikeProducerPerfLine(line.text))
                korvetDistFail(line, "records sent", "records sent",
                               "is not a kafka-producer-perf-test result line");
            return; // the tool's warnings and log lines
        }
        if (!m_producers.empty() && !m_producers.back().line) {
            m_producers.back().line = parsed;
            m_producers.back().lineNumber = line.number;
        } else if (m_producers.empty()) {
            if (parsed->final) {
                m_single.push_back(*parsed);
                m_singleFinalLine = line.number;
            } else {
                m_singleInterim.push_back(*parsed);
            }
        }
    }

    void readAggregate(const std::string &key, const Field &f)
    {
        if (key == "Total messages")
            m_aggregate.metrics.push_back(
                {"korvet_dist.total_messages", f.number("Total messages")});
        else if (key == "Total duration")
            m_aggregate.metrics.push_back({"korvet_dist.duration_s", f.number("Total duration")});
        else if (key == "Aggregate throughput")
            m_aggregateThroughput.push_back(f.number("Aggregate throughput"));
    }

    void readKorvet(const std::string &key, const Field &f)
    {
        if (f.value.empty()) {
            m_warnings.push_back({"missing-value", f.line.number,
                                  "'" + key + "' has no value (the actuator did not answer?)"});
            return;
        }
        auto &metrics = m_aggregate.metrics;
        if (key == "Messages produced")
            metrics.push_back({"korvet.messages_produced", f.number("Messages produced")});
        else if (key == "Bytes produced")
            metrics.push_back({"korvet.bytes_produced", f.number("Bytes produced")});
        else if (key == "Korvet Process CPU")
            metrics.push_back({"korvet.process_cpu", f.number("Korvet Process CPU") / 100});
        else if (key == "System CPU")
            metrics.push_back({"korvet.system_cpu", f.number("System CPU") / 100});
        else if (key == "JVM Memory Used") // the unit the line states (MB now, maybe GB later)
            metrics.push_back({"korvet.jvm_memory_bytes", f.bytes("JVM Memory Used", kMiB)});
    }

    void readRedis(std::string_view t, const std::string &key, const Field &f)
    {
        static const TextPattern shardLine(R"(^Shard (\S+): (\d+) MB, (\d+) keys$)");
        static const TextPattern shardCpuLine(R"(^Shard (\S+): ([-0-9.eE+]+)%$)");
        PatternMatch m;
        const bool shard = startsWith(t, "Shard ");
        if (shard && shardLine.fullMatch(t, &m)) {
            const auto memory = parseNumber(m[2]);
            const auto keys = parseNumber(m[3]);
            if (!memory || !keys)
                korvetDistFail(f.line, m.str(0), "Shard " + m.str(1), "is not memory and keys");
            m_shardMemory.emplace_back(m.str(1), *memory * kMiB);
            m_shardKeys.emplace_back(m.str(1), *keys);
        } else if (shard && shardCpuLine.fullMatch(t, &m)) {
            const auto cpu = parseNumber(m[2]);
            if (!cpu)
                korvetDistFail(f.line, m.str(2), "Shard " + m.str(1), "is not a CPU percentage");
            m_shardCpu.emplace_back(m.str(1), *cpu / 100);
        } else if (key == "Total CPU across all shards") {
            m_aggregate.metrics.push_back(
                {"redis.total_cpu", f.number("Total CPU across all shards") / 100});
        }
    }

    // One scenario per producer that left a result line; the latency range over them is
    // kept for the aggregate.
    std::vector<ScenarioRecord> producerScenarios()
    {
        std::vector<ScenarioRecord> out;
        out.reserve(m_producers.size());
        for (const ProducerResult &p : m_producers) {
            ScenarioRecord sc;
            sc.name = m_aggregate.name + "/producer-" + std::to_string(p.index);
            sc.kind = "producer";
            sc.line = p.headerLine;
            sc.topology = m_aggregate.topology;
            sc.topology.producers = 1;
            if (!p.line) {
                m_warnings.push_back({"no-result", p.headerLine,
                                      "producer " + std::to_string(p.index) +
                                          " left no result line (it failed?)"});
                continue;
            }
            warnOfProducerLine(p);
            appendProducerMetrics(*p.line, sc.metrics);
            sc.metrics.push_back({"producer.records_sent", double(p.line->records)});
            sc.provenance = "line " + std::to_string(p.lineNumber);
            m_latency.add(*p.line);
            out.push_back(std::move(sc));
        }
        return out;
    }

    void warnOfProducerLine(const ProducerResult &p)
    {
        if (!p.line->final)
            m_warnings.push_back({"no-final-line", p.lineNumber,
                                  "producer " + std::to_string(p.index) +
                                      "'s last line is a periodic one (killed?): its numbers are "
                                      "the last 5-s window's"});
        else if (p.line->truncated)
            m_warnings.push_back({"truncated-final-line", p.lineNumber,
                                  "producer " + std::to_string(p.index) +
                                      "'s final line is cut short"});
    }

    // The aggregate's own numbers: the single producer's final line, else its last periodic
    // line, else the script's aggregate results with the producers' latency range.
    std::vector<MetricValue> headlineMetrics()
    {
        std::vector<MetricValue> head;
        if (!m_single.empty()) {
            appendProducerMetrics(m_single.back(), head);
            head.push_back({"producer.records_sent", double(m_single.back().records)});
            m_aggregate.series = producerSeries(m_singleInterim);
            m_aggregate.line = m_singleFinalLine;
            m_aggregate.provenance =
                "the single producer's final line " + std::to_string(m_singleFinalLine);
            if (m_single.back().truncated)
                m_warnings.push_back(
                    {"truncated-final-line", m_singleFinalLine, "the final line is cut short"});
        } else if (!m_singleInterim.empty() && m_producers.empty()) {
            appendProducerMetrics(m_singleInterim.back(), head);
            m_aggregate.series = producerSeries(m_singleInterim);
            m_aggregate.provenance = "the last periodic line (no final line)";
            m_warnings.push_back({"no-final-line", 0,
                                  "the producer output has no final line (killed?): numbers are "
                                  "the last 5-s window's"});
        } else {
            head = scriptAggregate();
        }
        return head;
    }

    std::vector<MetricValue> scriptAggregate()
    {
        std::vector<MetricValue> head;
        if (m_aggregateThroughput.size() >= 1)
            head.push_back({"records_per_s", m_aggregateThroughput[0]});
        if (m_aggregateThroughput.size() >= 2)
            head.push_back({"bytes_per_s", m_aggregateThroughput[1] * kMiB});
        if (m_latency.any) {
            head.push_back({"latency_max_s", m_latency.maxMs * 1e-3});
            head.push_back({"producers.latency_avg_min_s", m_latency.avgLo * 1e-3});
            head.push_back({"producers.latency_avg_max_s", m_latency.avgHi * 1e-3});
        }
        m_aggregate.provenance = "Aggregate Results: total messages over the whole seconds of "
                                 "the run, as the script computes it; latency as the producers' "
                                 "range";
        if (m_aggregateThroughput.empty())
            m_warnings.push_back(
                {"no-aggregate", 0,
                 "no aggregate throughput (the run took under a second, or failed)"});
        return head;
    }

    // Per-shard memory, keys and CPU, their sum and hottest shard; the shard count is the
    // number of shards listed (inferred: the file does not state it).
    void addShardMetrics()
    {
        if (m_shardMemory.empty() && m_shardCpu.empty())
            return;
        auto &metrics = m_aggregate.metrics;
        double memory = 0, hottest = 0;
        for (const auto &[uid, bytes] : m_shardMemory) {
            metrics.push_back({"redis.shard." + uid + ".memory_bytes", bytes});
            memory += bytes;
        }
        for (const auto &[uid, keys] : m_shardKeys)
            metrics.push_back({"redis.shard." + uid + ".keys", keys});
        for (const auto &[uid, cpu] : m_shardCpu) {
            metrics.push_back({"redis.shard." + uid + ".cpu", cpu});
            hottest = std::max(hottest, cpu);
        }
        if (!m_shardMemory.empty())
            metrics.push_back({"memory_bytes", memory});
        if (!m_shardCpu.empty())
            metrics.push_back({"shard_cpu_max", hottest});
        Topology &topo = m_aggregate.topology;
        topo.shards = int64_t(std::max(m_shardMemory.size(), m_shardCpu.size()));
        topo.inferred.push_back("shards");
    }

    // The producers' latency: the highest max and the range of their averages, in ms.
    struct LatencyRange
    {
        double maxMs = 0, avgLo = 0, avgHi = 0;
        bool any = false;
        void add(const ProducerPerfLine &line)
        {
            maxMs = std::max(maxMs, line.maxMs);
            avgLo = any ? std::min(avgLo, line.avgMs) : line.avgMs;
            avgHi = any ? std::max(avgHi, line.avgMs) : line.avgMs;
            any = true;
        }
    };

    RunRecord &m_run;
    std::vector<ImportWarning> &m_warnings;
    ScenarioRecord m_aggregate;
    Section m_section = Section::Header;
    std::vector<ProducerResult> m_producers;
    std::vector<ProducerPerfLine> m_single; // one producer: its output, teed in place
    std::vector<ProducerPerfLine> m_singleInterim;
    int64_t m_singleFinalLine = 0;
    std::vector<double> m_aggregateThroughput; // rec/sec then MB/sec
    std::vector<std::pair<std::string, double>> m_shardMemory, m_shardKeys, m_shardCpu;
    LatencyRange m_latency;
};

} // namespace

void readKorvetDistResult(const std::vector<TextLine> &lines, RunRecord &run,
                          std::vector<ImportWarning> &warnings)
{
    ResultReader(run, warnings).read(lines);
}

} // namespace plimsoll
