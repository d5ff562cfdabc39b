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

void setTiming(RunRecord &run, const TextLine &line, const std::string &value,
               std::vector<ImportWarning> &warnings)
{
    const auto t = localTimeAsUtc(value);
    if (!t)
        korvetDistFail(line, value, "Timestamp", "'" + value + "' is not a time like 2026-01-15 10:23:45");
    run.timestamp = *t;
    warnings.push_back({"timestamp-without-zone", line.number,
                        "the script writes local time without a zone; read as UTC"});
}

} // namespace

void readKorvetDistTest(const std::vector<TextLine> &lines, RunRecord &run,
                        std::vector<ImportWarning> &warnings)
{
    ScenarioRecord aggregate;
    aggregate.kind = "benchmark";
    Topology &topo = aggregate.topology;
    Section section = Section::Header;
    std::vector<ProducerResult> producers;
    std::vector<ProducerPerfLine> single;       // one producer: its output, teed in place
    std::vector<ProducerPerfLine> singleInterim;
    int64_t singleFinalLine = 0;
    std::vector<double> aggregateThroughput;    // rec/sec then MB/sec
    std::vector<std::pair<std::string, double>> shardMemory, shardKeys, shardCpu;
    static const TextPattern shardLine(R"(^Shard (\S+): (\d+) MB, (\d+) keys$)");
    static const TextPattern shardCpuLine(R"(^Shard (\S+): ([-0-9.eE+]+)%$)");
    static const TextPattern batchValue(R"(^(\d+) messages \((\d+) bytes\)$)");

    for (const TextLine &line : lines) {
        const std::string_view t = trimmed(line.text);
        if (t == "Configuration:") { section = Section::Configuration; continue; }
        if (t == "=== Individual Producer Results ===") { section = Section::Producers; continue; }
        if (t == "=== Aggregate Results ===") { section = Section::Aggregate; continue; }
        if (t == "=== Korvet Metrics ===") { section = Section::Korvet; continue; }
        if (t == "=== Redis Enterprise Metrics ===") { section = Section::Redis; continue; }
        if (t == "Redis Enterprise CPU Usage:") { section = Section::RedisCpu; continue; }
        if (t.empty())
            continue;
        const auto [key, value] = korvetDistKeyValue(t);
        auto number = [&](const char *field) {
            const auto v = korvetDistNumber(value);
            if (!v)
                korvetDistFail(line, value, field, "'" + value + "' is not a number");
            return *v;
        };
        // A count as a whole number; out-of-range values are refused, not converted (a
        // double past int64's range converts to undefined behaviour).
        auto count = [&](const char *field) {
            const double v = number(field);
            if (!(v >= 0 && v < 9.0e18))
                korvetDistFail(line, value, field, "'" + value + "' is out of range");
            return int64_t(v);
        };
        auto integer = [&](const std::string &text, const std::string &field) {
            const auto v = parseInteger(text);
            if (!v || *v < 0 || *v > INT32_MAX)
                korvetDistFail(line, text, field, "'" + text + "' is out of range");
            return *v;
        };

        if (section == Section::Header) {
            if (key == "Test")
                aggregate.name = value;
            else if (key == "Timestamp")
                setTiming(run, line, value, warnings);
            continue;
        }
        // The block's lines are indented; the single-producer case tees the tool's output
        // right after it, unindented.
        if (section == Section::Configuration && !startsWith(line.text, " "))
            section = Section::Producers;
        if (section == Section::Configuration) {
            if (key == "Partitions")
                topo.partitions = count("Partitions");
            else if (key == "Producers")
                topo.producers = count("Producers");
            else if (key == "Record size") {
                const auto bytes = korvetDistBytes(value, 1);
                if (!bytes || !(*bytes >= 0 && *bytes < 9.0e18))
                    korvetDistFail(line, value, "Record size",
                                   "'" + value + "' is not a size (a number and B, KB, MB or GB)");
                topo.recordSizeBytes = int64_t(*bytes);
            }
            else if (key == "Acks")
                topo.acks = value;
            else if (key == "Compression")
                topo.compression = value;
            else if (key == "Batch size") {
                PatternMatch m;
                if (!batchValue.fullMatch(value, &m))
                    korvetDistFail(line, value, "Batch size",
                                   "'" + value + "' is not \"N messages (B bytes)\"");
                topo.batchBytes = integer(m.str(2), "Batch size");
                run.tuning["batch.messages"] = integer(m.str(1), "Batch size");
                run.tuning["batch.size"] = integer(m.str(2), "Batch size");
            } else if (key == "Pool size")
                run.tuning["korvet.redis.pool-size"] = count("Pool size");
            else if (key == "Topic")
                run.tuning["topic"] = value;
            else if (key == "Messages per producer")
                run.tuning["num-records"] = count("Messages per producer");
            else if (key != "Total messages")
                warnings.push_back({"ignored-field", line.number,
                                    "configuration '" + key + "' is not one Plimsoll reads; ignored"});
            continue;
        }
        if (section == Section::Producers) {
            static const TextPattern producerHeader(R"(^Producer (\d+):$)");
            PatternMatch m;
            const std::string_view s = t;
            if (producerHeader.fullMatch(s, &m)) {
                producers.push_back({int(integer(m.str(1), "Producer")), line.number, std::nullopt, 0});
                continue;
            }
            const auto parsed = parseProducerPerfLine(line.text);
            if (!parsed) {
                if (looksLikeProducerPerfLine(line.text))
                    korvetDistFail(line, "records sent", "records sent",
                                   "is not a kafka-producer-perf-test result line");
                continue; // the tool's warnings and log lines
            }
            if (!producers.empty() && !producers.back().line) {
                producers.back().line = parsed;
                producers.back().lineNumber = line.number;
            } else if (producers.empty()) {
                if (parsed->final) {
                    single.push_back(*parsed);
                    singleFinalLine = line.number;
                } else {
                    singleInterim.push_back(*parsed);
                }
            }
            continue;
        }
        if (section == Section::Aggregate) {
            if (key == "Total messages")
                aggregate.metrics.push_back({"korvet_dist.total_messages", number("Total messages")});
            else if (key == "Total duration")
                aggregate.metrics.push_back({"korvet_dist.duration_s", number("Total duration")});
            else if (key == "Aggregate throughput")
                aggregateThroughput.push_back(number("Aggregate throughput"));
            continue;
        }
        if (section == Section::Korvet) {
            if (value.empty()) {
                warnings.push_back({"missing-value", line.number,
                                    "'" + key + "' has no value (the actuator did not answer?)"});
                continue;
            }
            if (key == "Messages produced")
                aggregate.metrics.push_back({"korvet.messages_produced", number("Messages produced")});
            else if (key == "Bytes produced")
                aggregate.metrics.push_back({"korvet.bytes_produced", number("Bytes produced")});
            else if (key == "Korvet Process CPU")
                aggregate.metrics.push_back({"korvet.process_cpu", number("Korvet Process CPU") / 100});
            else if (key == "System CPU")
                aggregate.metrics.push_back({"korvet.system_cpu", number("System CPU") / 100});
            else if (key == "JVM Memory Used") {
                // The unit the line states (the script prints MB, a later one may print GB).
                const auto bytes = korvetDistBytes(value, kMiB);
                if (!bytes)
                    korvetDistFail(line, value, "JVM Memory Used",
                                   "'" + value + "' is not a size (a number and B, KB, MB or GB)");
                aggregate.metrics.push_back({"korvet.jvm_memory_bytes", *bytes});
            }
            continue;
        }
        if (section == Section::Redis || section == Section::RedisCpu) {
            const std::string_view s = t;
            PatternMatch m;
            if (shardLine.fullMatch(s, &m)) {
                const auto memory = parseNumber(m[2]);
                const auto keys = parseNumber(m[3]);
                if (!memory || !keys)
                    korvetDistFail(line, m.str(0), "Shard " + m.str(1), "is not memory and keys");
                shardMemory.emplace_back(m.str(1), *memory * kMiB);
                shardKeys.emplace_back(m.str(1), *keys);
            } else if (shardCpuLine.fullMatch(s, &m)) {
                const auto cpu = parseNumber(m[2]);
                if (!cpu)
                    korvetDistFail(line, m.str(2), "Shard " + m.str(1), "is not a CPU percentage");
                shardCpu.emplace_back(m.str(1), *cpu / 100);
            } else if (key == "Total CPU across all shards") {
                aggregate.metrics.push_back({"redis.total_cpu", number("Total CPU across all shards") / 100});
            }
            continue;
        }
    }

    if (aggregate.name.empty())
        korvetDistFail(lines.front(), "", "Test", "the file names no test");
    run.tuning["test"] = aggregate.name;

    std::vector<ScenarioRecord> perProducer;
    double maxMs = 0, avgLo = 0, avgHi = 0;
    bool anyAvg = false;
    for (const ProducerResult &p : producers) {
        ScenarioRecord sc;
        sc.name = aggregate.name + "/producer-" + std::to_string(p.index);
        sc.kind = "producer";
        sc.line = p.headerLine;
        sc.topology = topo;
        sc.topology.producers = 1;
        if (!p.line) {
            warnings.push_back({"no-result", p.headerLine,
                                "producer " + std::to_string(p.index) +
                                    " left no result line (it failed?)"});
            continue;
        }
        if (!p.line->final)
            warnings.push_back({"no-final-line", p.lineNumber,
                                "producer " + std::to_string(p.index) +
                                    "'s last line is a periodic one (killed?): its numbers are "
                                    "the last 5-s window's"});
        else if (p.line->truncated)
            warnings.push_back({"truncated-final-line", p.lineNumber,
                                "producer " + std::to_string(p.index) + "'s final line is cut short"});
        appendProducerMetrics(*p.line, sc.metrics);
        sc.metrics.push_back({"producer.records_sent", double(p.line->records)});
        sc.provenance = "line " + std::to_string(p.lineNumber);
        maxMs = std::max(maxMs, p.line->maxMs);
        avgLo = anyAvg ? std::min(avgLo, p.line->avgMs) : p.line->avgMs;
        avgHi = anyAvg ? std::max(avgHi, p.line->avgMs) : p.line->avgMs;
        anyAvg = true;
        perProducer.push_back(std::move(sc));
    }

    std::vector<MetricValue> head;
    if (!single.empty()) {
        appendProducerMetrics(single.back(), head);
        head.push_back({"producer.records_sent", double(single.back().records)});
        aggregate.series = producerSeries(singleInterim);
        aggregate.line = singleFinalLine;
        aggregate.provenance = "the single producer's final line " + std::to_string(singleFinalLine);
        if (single.back().truncated)
            warnings.push_back({"truncated-final-line", singleFinalLine, "the final line is cut short"});
    } else if (!singleInterim.empty() && producers.empty()) {
        appendProducerMetrics(singleInterim.back(), head);
        aggregate.series = producerSeries(singleInterim);
        aggregate.provenance = "the last periodic line (no final line)";
        warnings.push_back({"no-final-line", 0,
                            "the producer output has no final line (killed?): numbers are the "
                            "last 5-s window's"});
    } else {
        if (aggregateThroughput.size() >= 1)
            head.push_back({"records_per_s", aggregateThroughput[0]});
        if (aggregateThroughput.size() >= 2)
            head.push_back({"bytes_per_s", aggregateThroughput[1] * kMiB});
        if (anyAvg) {
            head.push_back({"latency_max_s", maxMs * 1e-3});
            head.push_back({"producers.latency_avg_min_s", avgLo * 1e-3});
            head.push_back({"producers.latency_avg_max_s", avgHi * 1e-3});
        }
        aggregate.provenance = "Aggregate Results: total messages over the whole seconds of the "
                               "run, as the script computes it; latency as the producers' range";
        if (aggregateThroughput.empty())
            warnings.push_back({"no-aggregate", 0,
                                "no aggregate throughput (the run took under a second, or failed)"});
    }
    aggregate.metrics.insert(aggregate.metrics.begin(), head.begin(), head.end());

    if (!shardMemory.empty() || !shardCpu.empty()) {
        double memory = 0, hottest = 0;
        for (const auto &[uid, bytes] : shardMemory) {
            aggregate.metrics.push_back({"redis.shard." + uid + ".memory_bytes", bytes});
            memory += bytes;
        }
        for (const auto &[uid, keys] : shardKeys)
            aggregate.metrics.push_back({"redis.shard." + uid + ".keys", keys});
        for (const auto &[uid, cpu] : shardCpu) {
            aggregate.metrics.push_back({"redis.shard." + uid + ".cpu", cpu});
            hottest = std::max(hottest, cpu);
        }
        if (!shardMemory.empty())
            aggregate.metrics.push_back({"memory_bytes", memory});
        if (!shardCpu.empty())
            aggregate.metrics.push_back({"shard_cpu_max", hottest});
        topo.shards = int64_t(std::max(shardMemory.size(), shardCpu.size()));
        topo.inferred.push_back("shards");
    }
    std::vector<double> rates;
    for (const auto &m : aggregate.metrics)
        if (m.name == "records_per_s")
            rates.push_back(m.value);
    warnIfZeroOnly(rates, 0, "throughput", warnings);
    run.scenarios.push_back(std::move(aggregate));
    for (auto &sc : perProducer)
        run.scenarios.push_back(std::move(sc));
}

} // namespace plimsoll
