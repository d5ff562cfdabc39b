// The README and the manual are executable: every `plimsoll …` command they show — in the ```sh
// blocks and in the tables of README.md, CONTRIBUTING.md and every page of docs/ (the generated
// reference aside) — is read out of the pages and run against a fixture store (the bundled
// sample runs installed into a temporary store), and its exit code and the output fields the
// text names are asserted. A command shown without an entry in kCases below fails, and so does
// an entry whose command no page shows any more.
//
// A command from a ```sh block runs as written, its placeholders and file names mapped by
// kPlaceholders, with smaller workloads where a case says so (`values`) and, for a bench, the
// in-process mock cluster (`extra`). A table row shows a synopsis ([--json] [--since T] …),
// which is no command as written: its case gives the concrete command that exercises it.
// Commands that need a real broker are marked `live` and run by plimsoll_readme_live_tests,
// which ctest runs with the services fixture (tests/services).
#ifdef PLIMSOLL_README_LIVE
#include "runner/servicesenv.h"
#else
#include "runner/metricsserver.h"
#endif

#include <gtest/gtest.h>

#include <QCoreApplication>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include "cli/readmecommands.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

namespace {

using plimsoll::test::ReadmeCommand;
using plimsoll::test::documentationCommands;

const std::string kSourceDir = PLIMSOLL_TEST_DATA_DIR "/../..";
const QString kData = QStringLiteral(PLIMSOLL_TEST_DATA_DIR);
const QString kPipelineRun = QStringLiteral("sample:korvet-pipeline-produce-2026-08-11");
const QString kOtherRun = QStringLiteral("sample:korvet-single-shard");


struct Case
{
    std::string readme;               // the command as the README shows it
    QStringList argv;                 // a synopsis' concrete command (empty: the README's own words)
    std::map<QString, QString> values = {}; // option → value in place of the README's (smaller workloads)
    QStringList extra = {};           // appended arguments
    int exit = 0;
    // JSON the command prints: keys the README names ("a.b": nested, "a[].b": in the first
    // element of array a; an array output is checked on its first element).
    std::vector<std::string> fields = {};
    QStringList files = {};           // files the command writes (kPlaceholders names), non-empty
    std::string stdoutHas = {};       // text its standard output must contain
    bool live = false;                // needs a real broker: plimsoll_readme_live_tests
    bool freshStore = false;          // runs on an empty store rather than the samples
    QStringList then = {};            // a second command on the same store (the synopsis' other form)
    std::string thenHas = {};         // text its standard output must contain
    std::vector<QStringList> before = {}; // commands run first on the same store (what it reads)
};

// Two saved sizings for the `sizings` cases to list, compare and remove.
const std::vector<QStringList> kTwoSaved = {{"size", "--rate", "600k", "--save", "now"},
                                            {"size", "--rate", "1.2M", "--headroom", "20%", "--save", "next-year"}};

const QStringList kEmbedded = {"--bootstrap-server", "embedded"};

// clang-format off
const std::vector<Case> kCases = {
    // ---- the README's tour (```sh)
    {"plimsoll samples install", {}, {}, {}, 0, {}, {}, "sample", false, true},
    {"plimsoll runs", {}, {}, {}, 0, {}, {}, "sample:korvet-pipeline-produce-2026-08-11"},
    {"plimsoll show sample:korvet-pipeline-produce-2026-08-11", {}, {}, {}, 0, {}, {}, "pipeline/produce/step-16"},
    {"plimsoll fit --run sample:korvet-pipeline-produce-2026-08-11 --scenarios pipeline/produce/", {}, {}, {}, 0, {},
     {}, "producers"},
    {"plimsoll size --rate 600k", {}, {}, {}, 0, {}, {}, "Evidence:"},

    // ---- the command table
    {"plimsoll import [--format NAME] [--dry-run] [--json] PATH...",
     {"import", "--format", "plimsoll-trend", "--dry-run", "--json", kData + "/trend-records.jsonl"}, {}, {}, 0,
     {"sources[].uri", "sources[].format", "sources[].status", "sources[].runs", "sources[].scenarios",
      "sources[].metrics", "sources[].warnings", "sources[].error"}},
    {"plimsoll import --scrapes BEFORE AFTER [--interval D] [--dry-run] [--json]",
     {"import", "--scrapes", kData + "/prometheus/before.prom", kData + "/prometheus/after.prom", "--interval", "60s",
      "--dry-run", "--json"}, {}, {}, 0,
     {"sources[].status", "sources[].scrapes", "sources[].interval_s", "sources[].interval_from"}},
    {"plimsoll runs [--json] [--search TEXT] [--scenario S] [--commit C] [--since T] [--until T] [--samples include|exclude|only]",
     {"runs", "--json", "--search", "Korvet", "--scenario", "pipeline/", "--since", "2026-08-01", "--until", "2026-12-31",
      "--samples", "only"},
     {}, {}, 0,
     {"id", "run_key", "timestamp", "tool", "tool_version", "target", "commit", "image_digest", "sample",
      "scenario_count", "source", "name", "tags"}},
    {"plimsoll name RUN TEXT|--clear", {"name", kPipelineRun, "produce ramp"}, {}, {}, 0, {}, {},
     "named 'produce ramp'", false, false, {"name", "produce ramp", "--clear"}, "no longer named 'produce ramp'"},
    {"plimsoll tag RUN TAG... [--remove]", {"tag", kPipelineRun, "rf3", "baseline"}, {}, {}, 0, {}, {},
     "tags: baseline, rf3", false, false, {"tag", kPipelineRun, "rf3", "--remove"}, "tags: baseline\n"},
    {"plimsoll show RUN [--json]", {"show", kPipelineRun, "--json"}, {}, {}, 0,
     {"environment", "tuning", "provenance", "source.uri", "source.format", "source.sha256", "source.imported_at",
      "scenarios[].name", "scenarios[].kind", "scenarios[].topology", "scenarios[].metrics"}},
    {"plimsoll remove RUN...", {"remove", kPipelineRun, kOtherRun}, {}, {}, 0, {}, {}, "removed " + kOtherRun.toStdString()},
    {"plimsoll samples install|remove [--json]", {"samples", "install", "--json"}, {}, {}, 0,
     {"sources[].status", "sources[].runs"}, {}, {}, false, false, {"samples", "remove"}, "removed 6 sample runs"},
    {"plimsoll metrics [--json]", {"metrics", "--json"}},
    {"plimsoll formats [--json]", {"formats", "--json"}},
    {"plimsoll bench [producer|consumer|roundtrip|ramp|probe] ...",
     {"bench", "roundtrip", "--bootstrap-server", "embedded", "--records", "2000", "--output", "json"}, {}, {}, 0,
     {"format", "scenarios"}},
    {"plimsoll fit", {"fit", "--help"}},
    {"plimsoll changes", {"changes", "--json"}, {}, {}, 0, {"window", "pvalue", "min_magnitude", "since", "change_count", "series", "baseline_changes"}},
    {"plimsoll export --format csv|json|jsonl|hlog|steps|otava-csv",
     {"export", "--format", "otava-csv", "--scenario", "pipeline/produce/step-16", "--out", "-"}, {}, {}, 0, {}, {},
     "time,run_key,commit,image_digest,target,tuning"},
    {"plimsoll report --format pdf|html|md --out FILE", {"report", "--format", "md", "--out", "FILE", "--rate", "600k"},
     {}, {}, 0, {}, {"FILE"}},
    {"plimsoll --version", {}, {}, {}, 0, {}, {}, "plimsoll "},
    {"plimsoll --help", {}, {}, {}, 0, {}, {}, "Subcommands:"},
    {"plimsoll COMMAND --help", {"size", "--help"}, {}, {}, 0, {}, {}, "--tolerate-node-loss"},

    // ---- mentioned in the export and format tables
    {"plimsoll show --json", {"show", kOtherRun, "--json"}, {}, {}, 0, {"run_key", "scenarios[].metrics"}},
    {"plimsoll bench --result-file", {"bench", "--embedded", "--records", "1000", "--result-file", "result.json"},
     {}, {}, 0, {}, {"result.json"}},

    // ---- bench (```sh)
    {"plimsoll bench", {}, {}, QStringList(kEmbedded) << "--records" << "2000", 0, {}, {}, "matched"},
    {"plimsoll bench --embedded", {}, {}, {"--records", "2000"}, 0, {}, {}, "matched"},
    {"plimsoll benchmark producer --topic benchmark --create-topic --partitions 16 --clients 4 --records 5000000 "
     "--record-size 1KB --rate unlimited", {}, {{"--records", "20000"}}, {}, 0, {}, {}, {}, true},
    {"plimsoll benchmark consumer --topic benchmark --clients 4 --records 5000000 --from beginning --validate checksum",
     {}, {{"--records", "20000"}}, {}, 0, {}, {}, {}, true},
    {"plimsoll bench roundtrip --agents 16 --partitions 32 --records 10000000 --rate 400k --bootstrap-server "
     "kafka.bench.svc:9092 --launcher kubernetes --image REGISTRY/plimsoll:VERSION --client-secret kafka-client "
     "--cpu-request 2 --memory-request 1Gi --node-selector pool=bench --dry-run --out manifests",
     {"bench", "roundtrip", "--agents", "16", "--partitions", "32", "--records", "10000000", "--rate", "400k",
      "--bootstrap-server", "kafka.bench.svc:9092", "--launcher", "kubernetes", "--image",
      "registry.example/plimsoll:1.0", "--client-secret", "kafka-client", "--cpu-request", "2", "--memory-request",
      "1Gi", "--node-selector", "pool=bench", "--dry-run", "--out", "manifests"},
     {}, {}, 0, {}, {}, "plimsoll bench merge plimsoll-"},
    // Applied with kubectl: a kubectl that cannot run here is no context, refused before anything is applied
    // (tests/runner/fleetkubernetestest.cpp applies Jobs through a stand-in).
    {"plimsoll bench producer --agents 8 --producer-clients 2 --duration 60s --rate 200k --bootstrap-server "
     "kafka.bench.svc:9092 --launcher kubernetes --image REGISTRY/plimsoll:VERSION", {},
     {{"--image", "registry.example/plimsoll:1.0"}}, {"--kubectl", "/nonexistent/kubectl", "--no-store"}, 1, {}, {},
     "no kubectl context to apply the Job with (cannot run /nonexistent/kubectl"},
    {"plimsoll bench roundtrip --agents 4 --partitions 16 --records 400000 --rate 40000", {},
     {{"--records", "8000"}, {"--rate", "4000"}}, {}, 0, {}, {}, "agent 3  ok", true},
    {"plimsoll bench producer --agents 8 --producer-clients 2 --topic benchmark --duration 60s --rate 200k "
     "--histogram-log latencies.hlog", {}, {{"--agents", "3"}, {"--duration", "2s"}, {"--rate", "3000"}}, {}, 0, {}, {},
     "agent 2  ok", true},
    {"plimsoll bench ramp --agents-steps 1,2,4,8,16 --producer-clients 2 --rate 20k --warmup 10s --duration 60s", {},
     {{"--agents-steps", "1,2"}, {"--producer-clients", "1"}, {"--rate", "500"}, {"--warmup", "500ms"},
      {"--duration", "1s"}}, {"--continue-past-saturation"}, 0, {}, {}, "bench/ramp/agents-2", true},
    {"plimsoll bench ramp --steps 1,2,4,8 --duration 60s --warmup 10s", {},
     {{"--duration", "1s"}, {"--warmup", "200ms"}}, kEmbedded, 0, {}, {}, "bench/ramp/step-1"},
    {"plimsoll bench ramp --step-by-rate --steps 10000,20000,40000 --duration 30s", {},
     {{"--duration", "1s"}}, kEmbedded, 0, {}, {}, "bench/ramp/step-1"},
    {"plimsoll bench probe --rate 100 --duration 2m", {}, {{"--duration", "1s"}}, kEmbedded, 0, {}, {}, "e2e"},
    {"plimsoll bench ramp --ramp consumers --steps 1,2,4 --backlog 1000000 --warmup 5s --duration 60s", {},
     {{"--backlog", "5000"}, {"--warmup", "100ms"}, {"--duration", "20s"}},
     QStringList(kEmbedded) << "--continue-past-saturation", 0, {}, {}, "pipeline/consume/step-4"},

    // ---- fit, size, placement, budget (table)
    {"plimsoll fit [--run RUN]... [--scenario TEXT] [--tool T] [--target T] [--since T] [--until T] "
     "[--scenarios PREFIX] [--workload W] [--x FACTOR] [--y METRIC] [--contract-exclude KEY]... [--fit-range A:B] "
     "[--predict N,...] [--resamples N] [--knee-latency-factor 2] [--json]",
     {"fit", "--run", kPipelineRun, "--scenario", "pipeline/produce/", "--tool", "korvet-pipeline-benchmark", "--since", "2026-01-01",
      "--until", "2027-01-01", "--scenarios", "pipeline/produce/", "--workload", "pipeline/produce/step-*",
      "--x", "producers", "--y", "records_per_s",
      "--contract-exclude", "tuning.comment", "--fit-range", "1:16", "--predict", "20,32", "--resamples", "50",
      "--knee-latency-factor", "2", "--json"}, {}, {}, 0,
     {"model", "answer", "headline", "left_out_points", "workload", "same_as_x", "peak", "n_star_note",
      "model_note", "run", "runs", "x_factor", "y_metric", "contract", "left_out", "distinct_x", "lambda", "sigma",
      "kappa", "n_star", "x_at_n_star", "r2", "weak", "weak_reason", "limit", "points", "ci.level", "ci.lambda",
      "ci.sigma", "ci.kappa", "ci.n_star", "ci.x_at_n_star", "predictions[].x", "predictions[].y",
      "predictions[].lo", "predictions[].hi", "predictions[].extrapolated", "knee", "knee_note",
      "p99_against_load", "data[].run", "data[].scenario", "data[].x", "data[].y", "data[].left_out"}},
    {"plimsoll size --rate 600k [--record-size 700B] [--retention 60s] [--compression R] [--replication 2] [--p99 250ms] "
     "[--headroom 20%] [--tolerate-node-loss] [--flex] [--tiered --local-retention 60s] [--trim-tick 1s] "
     "[--cpu-limit 0.9] [--topic logs] [--key-pattern P] [--skew-target S] [--broker-model auto|fitted|cpu|rule] "
     "[--consumer-groups N [--consume-rate R] [--consume-from tail|backlog] [--tiered-reads] [--consume-margin 30%] "
     "[--fetch-p99 500ms]] "
     "[--run RUN]... "
     "[--scenario TEXT] [--tool T] [--target T] [--since T] [--until T] [--samples auto|include|exclude] "
     "[--save NAME [--replace]] [--json]",
     {"size", "--rate", "600k", "--record-size", "700B", "--retention", "60s", "--compression", "4", "--replication",
      "2", "--p99", "250ms", "--headroom", "20%", "--tolerate-node-loss", "--flex", "--tiered", "--local-retention",
      "60s", "--trim-tick", "1s", "--cpu-limit", "0.9", "--topic", "logs", "--key-pattern",
      "korvet:stream:{topic}:{partition}", "--skew-target", "0", "--broker-model", "auto", "--consumer-groups", "2",
      "--consume-rate", "300k", "--consume-from", "backlog", "--tiered-reads", "--consume-margin", "30%",
      "--fetch-p99", "5s", "--run", kPipelineRun,
      "--run", "sample:korvet-redis-flex", "--run", "sample:korvet-remote-archival", "--scenario", "/",
      "--since", "2026-01-01", "--until", "2027-01-01",
      "--samples", "auto", "--save", "now", "--replace", "--json"}, {}, {}, 0,
     {"saved.name", "saved.store", "evidence.runs", "evidence.note", "brokers", "redis_nodes", "shards", "partitions", "memory_total_bytes", "memory_per_shard_bytes", "p99_s",
      "bottleneck", "utilization[].component", "utilization[].utilization", "utilization[].limit", "warnings",
      "lines[].key", "lines[].label", "lines[].value", "lines[].display", "lines[].reasoning", "lines[].runs",
      "broker_models.taken", "broker_models.why", "broker_models.answers[].model", "broker_models.answers[].units",
      "shard_models.taken", "consume.records_per_s", "consume.measured", "consume.margin", "consume.fetch_p99_s"}},
    {"plimsoll sizings [--json]", {"sizings", "--json"}, {}, {}, 0,
     {"store", "sizings[].name", "sizings[].saved_at", "sizings[].rate", "sizings[].bytes_per_s",
      "sizings[].rate_text", "sizings[].selection", "sizings[].samples", "sizings[].runs"},
     {}, {}, false, false, {"sizings"}, "next-year", kTwoSaved},
    {"plimsoll sizings compare NAME NAME [NAME...] [--json]", {"sizings", "compare", "now", "next-year", "--json"},
     {}, {}, 0,
     {"names", "rows[].key", "rows[].label", "rows[].values", "sizings[].name", "sizings[].saved_at",
      "sizings[].selection", "sizings[].ok", "sizings[].error", "sizings[].brokers", "sizings[].redis_nodes",
      "sizings[].shards", "sizings[].partitions", "sizings[].memory_total_bytes", "sizings[].offload_streams",
      "sizings[].p99_s", "sizings[].bottleneck", "sizings[].broker_model", "sizings[].warnings"},
     {}, {}, false, false, {"sizings", "compare", "now", "next-year"}, "Korvet brokers", kTwoSaved},
    {"plimsoll sizings remove NAME", {"sizings", "remove", "now"}, {}, {}, 0, {}, {}, "Removed the saved sizing 'now'",
     false, false, {"sizings"}, "next-year", kTwoSaved},
    {"plimsoll size --rate 600k --consumer-groups 3 --consume-from backlog --consume-rate 1M", {}, {}, {}, 0, {}, {},
     "unmeasured, 30% margin"},
    {"plimsoll size --rate 600k --save now", {}, {}, {}, 0, {}, {}, "Saved as 'now'", false, false, {"sizings"},
     "600k records/s"},
    {"plimsoll size --rate 1.2M --headroom 20% --save next-year", {}, {}, {}, 0, {}, {}, "Saved as 'next-year'"},
    {"plimsoll sizings compare now next-year", {}, {}, {}, 0, {}, {}, "Korvet brokers", false, false, {}, {},
     kTwoSaved},
    // The --cluster form needs a live Redis Cluster: tests/cli/placementcluster.cpp runs it against
    // the three masters of the redis-cluster fixture. --load needs a run with partition rates, which
    // the sample runs do not have: SizingCli.PlacementLaysAStepsMeasuredPartitionLoadOnTheShards.
    {"plimsoll placement (--shards 24 | --cluster HOST:PORT [--measure] [--timeout 5000]) --partitions 96 "
     "[--topic logs] [--brokers 3] [--skew-target S] [--key-pattern P] [--load RUN [--load-step STEP]] [--json]",
     {"placement", "--shards", "24", "--partitions", "96", "--topic", "logs", "--brokers", "3", "--skew-target", "1.25",
      "--key-pattern", "korvet:stream:{topic}:{partition}", "--json"}, {}, {}, 0,
     {"key_pattern", "shards[].shard", "shards[].slots", "shards[].count", "shards[].partitions", "mean", "max",
      "min", "max_skew", "empty_shards", "recommended.partitions", "recommended.skew", "recommended.found",
      "recommended.skew_target", "recommended.basis", "recommended.reason"}},
    {"plimsoll budget --p99 1ms [--p999 2ms] [--little-tolerance 0.1] [--run RUN...] [--json]",
     {"budget", "--p99", "1ms", "--p999", "2ms", "--little-tolerance", "0.1", "--run", kPipelineRun, "--json"}, {}, {}, 0,
     {"points", "per_configuration", "per_product", "overall"}},

    // ---- report and export (```sh)
    {"plimsoll report --format pdf --out sizing.pdf --rate 600k --record-size 700B --retention 60s", {}, {}, {}, 0,
     {}, {"sizing.pdf"}, "wrote "},
    {"plimsoll report --format html --out sizing.html --rate 40MB/s --headroom 20% --tolerate-node-loss", {}, {}, {}, 0,
     {}, {"sizing.html"}, "wrote "},
    {"plimsoll report --out sizing.md --rate 1.2M", {}, {}, {}, 0, {}, {"sizing.md"}, "(md,"},
    {"plimsoll export --format jsonl --out runs.jsonl", {}, {}, {}, 0, {}, {"runs.jsonl"}},
    {"plimsoll export --format csv --scenario pipeline/ --since 2026-08-01 --out runs.csv", {}, {}, {}, 0, {},
     {"runs.csv"}},
    {"plimsoll export --format json --run RUN --run RUN2 --out -", {}, {}, {}, 0,
     {"run_key", "environment", "tuning", "source", "scenarios[].name", "scenarios[].series"}},
    {"plimsoll export --format hlog --out latencies.hlog", {}, {}, {}, 0, {}, {"latencies.hlog"}},
    {"plimsoll export --format steps --run sample:korvet-pipeline-produce-2026-08-11 --out steps.csv", {}, {}, {}, 0, {},
     {"steps.csv"}},

    // ---- the offload record (```sh): against brokers served by the test (placeholder())
    {"plimsoll bench offload --broker-metrics http://korvet-0:8080/metrics,http://korvet-1:8080/metrics "
     "--partitions 32 --tuning icebergOffloadThreads=4 --tuning workerTickConcurrency=8", {}, {}, {"--interval", "50ms"}, 0, {}, {},
     "pipeline/offload: archived"},

    // ---- Prometheus scrapes (```sh)
    {"plimsoll import --scrapes before.prom after.prom", {}, {}, {"--json"}, 0,
     {"sources[].status", "sources[].interval_s", "sources[].interval_from"}, {}, {}, false, true},
};
// clang-format on

#ifndef PLIMSOLL_README_LIVE
// The README's Korvet brokers for `bench offload`: one endpoint served here, standing for each,
// whose storage worker archives 1 MiB/s in 256 KiB segments while its lag falls from 2 s to zero
// over the first second after it is asked for.
class ScriptedBrokers
{
public:
    ScriptedBrokers()
    {
        EXPECT_EQ(m_server.start(0), "");
        m_start = std::chrono::steady_clock::now();
        m_server.setMetrics(text(0));
        m_thread = std::thread([this] {
            while (!m_stop) {
                m_server.setMetrics(text(std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count()));
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
        });
    }
    ~ScriptedBrokers()
    {
        m_stop = true;
        m_thread.join();
    }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1/metrics").arg(m_server.port()); }

private:
    static std::string text(double t)
    {
        const double bytes = 1048576.0 * std::min(t, 1.0);
        std::ostringstream out;
        out << "# TYPE korvet_storage_archive_bytes_total counter\nkorvet_storage_archive_bytes_total " << bytes
            << "\n# TYPE korvet_storage_archive_segments_total counter\nkorvet_storage_archive_segments_total "
            << bytes / 262144 << "\n# TYPE korvet_storage_archive_lag_seconds gauge\nkorvet_storage_archive_lag_seconds "
            << std::max(0.0, 2 * (1 - t)) << "\n";
        return out.str();
    }
    plimsoll::MetricsServer m_server;
    std::chrono::steady_clock::time_point m_start;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};
#endif

// Placeholders and file names the README's commands use, and what stands for them here. Output
// files go into the case's temporary directory.
QString placeholder(const QString &token, const QTemporaryDir &dir)
{
#ifndef PLIMSOLL_README_LIVE
    if (token.startsWith("http://korvet-0:8080/")) {
        static ScriptedBrokers brokers; // started when the offload case asks for it
        return brokers.url() + "," + brokers.url();
    }
#endif
    static const QStringList outputs = {"sizing.pdf", "sizing.html", "sizing.md", "runs.jsonl",
                                        "runs.csv", "latencies.hlog", "steps.csv", "result.json", "FILE", "manifests"};
    if (outputs.contains(token))
        return dir.filePath(token == "FILE" ? "report.md" : token);
    if (token == "RUN")
        return kPipelineRun;
    if (token == "RUN2")
        return kOtherRun;
    if (token == "before.prom" || token == "after.prom")
        return kData + "/prometheus/" + token;
    return token;
}

[[maybe_unused]] const Case *caseFor(const std::string &readme)
{
    for (const Case &c : kCases)
        if (c.readme == readme)
            return &c;
    return nullptr;
}

// The concrete arguments of a case (without the program name); a placeholder left over fails.
QStringList argumentsOf(const Case &c, const QTemporaryDir &dir, const QString &topic)
{
    QStringList words = c.argv;
    if (words.isEmpty()) {
        words = QString::fromStdString(c.readme).split(' ', Qt::SkipEmptyParts);
        words.removeFirst(); // plimsoll
    }
    QStringList out;
    for (qsizetype i = 0; i < words.size(); ++i) {
        // The README's topic is a name a live run replaces with its own (a fresh topic).
        const bool topicName = i > 0 && words[i - 1] == "--topic" && !topic.isEmpty();
        out << (topicName ? topic : placeholder(words[i], dir));
        const auto value = c.values.find(words[i]);
        if (value != c.values.end() && i + 1 < words.size()) {
            out << value->second;
            ++i;
        }
    }
    out << c.extra;
    static const QRegularExpression unmapped(R"(^[A-Z][A-Z0-9_]*(\.\.\.)?$|[\[\]|]|\.\.\.)");
    for (const QString &w : out)
        EXPECT_FALSE(unmapped.match(w).hasMatch())
            << "'" << w.toStdString() << "' in `" << c.readme << "` is a placeholder with no mapping";
    return out;
}

// Whether `json` has the README's field path ("a.b", "a[].b").
bool hasField(const nlohmann::json &json, const std::string &path)
{
    const nlohmann::json *at = &json;
    std::stringstream parts(path);
    for (std::string part; std::getline(parts, part, '.');) {
        const bool element = part.size() > 2 && part.compare(part.size() - 2, 2, "[]") == 0;
        if (element)
            part.resize(part.size() - 2);
        if (!at->is_object() || !at->contains(part))
            return false;
        at = &(*at)[part];
        if (element) {
            if (!at->is_array() || at->empty())
                return false;
            at = &(*at)[0];
        }
    }
    return true;
}

struct Outcome
{
    int exitCode = -1;
    std::string out, err;
};

Outcome runPlimsoll(const QStringList &args)
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.remove("PLIMSOLL_DB");
    e.insert("SOURCE_DATE_EPOCH", "1786413600");
    // What a command keeps in the temporary directory (a Kubernetes fleet's manifest) goes to one
    // removed after the suite.
    static QTemporaryDir temporary;
    e.insert("TMPDIR", temporary.path());
    p.setProcessEnvironment(e);
    p.start(PLIMSOLL_BINARY, args);
    EXPECT_TRUE(p.waitForFinished(120000)) << "plimsoll did not finish: " << args.join(' ').toStdString();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput().toStdString(),
            p.readAllStandardError().toStdString()};
}

// The sample runs in a store, made once and copied for each command (some remove runs).
QString fixtureStore()
{
    static QTemporaryDir dir;
    static const QString path = [] {
        const QString db = dir.filePath("samples.db");
        const Outcome o = runPlimsoll({"--db", db, "samples", "install"});
        EXPECT_EQ(o.exitCode, 0) << o.err;
        return db;
    }();
    return path;
}

void runCase(const Case &c, const QString &bootstrap = {}, const QString &topic = {})
{
    SCOPED_TRACE(c.readme);
    QTemporaryDir dir;
    const QString db = dir.filePath("store.db");
    if (!c.freshStore) {
        ASSERT_TRUE(QFile::copy(fixtureStore(), db));
    }
    for (const QStringList &first : c.before) {
        const Outcome o = runPlimsoll(QStringList(first) << "--db" << db);
        ASSERT_EQ(o.exitCode, 0) << first.join(' ').toStdString() << ": " << o.err;
    }
    QStringList args = argumentsOf(c, dir, topic);
    if (!bootstrap.isEmpty())
        args << "--bootstrap-server" << bootstrap;
    // --db goes after the subcommand here, as a user appending it would write it.
    if (!args.isEmpty() && !args.front().startsWith('-'))
        args << "--db" << db;
    else
        args.prepend(db), args.prepend("--db");
    const Outcome o = runPlimsoll(args);
    ASSERT_EQ(o.exitCode, c.exit) << "plimsoll " << args.join(' ').toStdString() << "\nstdout: " << o.out
                                  << "\nstderr: " << o.err;
    if (!c.fields.empty()) {
        nlohmann::json json;
        ASSERT_NO_THROW(json = nlohmann::json::parse(o.out)) << o.out;
        if (json.is_array()) {
            ASSERT_FALSE(json.empty()) << "an empty array: nothing to check the README's fields on";
            json = json[0];
        }
        for (const std::string &f : c.fields)
            EXPECT_TRUE(hasField(json, f)) << "the README names '" << f << "'; the output has no such field:\n"
                                           << json.dump(1).substr(0, 2000);
    }
    if (!c.stdoutHas.empty()) {
        EXPECT_NE(o.out.find(c.stdoutHas), std::string::npos) << "no '" << c.stdoutHas << "' in:\n" << o.out;
    }
    for (const QString &f : c.files) {
        const QFileInfo written(placeholder(f, dir));
        EXPECT_TRUE(written.exists() && written.size() > 0) << written.filePath().toStdString() << " not written";
    }
    if (!c.then.isEmpty()) {
        const Outcome then = runPlimsoll(QStringList(c.then) << "--db" << db);
        EXPECT_EQ(then.exitCode, 0) << c.then.join(' ').toStdString() << ": " << then.err;
        EXPECT_NE(then.out.find(c.thenHas), std::string::npos) << "no '" << c.thenHas << "' in:\n" << then.out;
    }
}

[[maybe_unused]] std::string testName(const Case &c, size_t index)
{
    std::string name = "L" + std::to_string(index) + "_";
    for (char ch : c.readme.substr(9, 40))
        name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
    return name;
}

} // namespace

#ifndef PLIMSOLL_README_LIVE

// Every command the README or a manual page shows has a case, and every case is a command a page
// shows.
TEST(Readme, EveryCommandHasACaseAndEveryCaseACommand)
{
    const auto commands = documentationCommands(kSourceDir);
    ASSERT_GT(commands.size(), 40u) << "the commands of the README and docs/ were not found under " << kSourceDir;
    std::set<std::string> shown, pagesWithCommands;
    for (const ReadmeCommand &c : commands) {
        shown.insert(c.text);
        pagesWithCommands.insert(c.file);
        EXPECT_NE(caseFor(c.text), nullptr)
            << c.file << " line " << c.line << ": `" << c.text
            << "` has no case in tests/cli/readme_test.cpp (add one: what to run and what to assert)";
    }
    for (const Case &c : kCases)
        EXPECT_TRUE(shown.count(c.readme)) << "`" << c.readme << "` is no longer in the README or docs/";
    // The tour and the task pages are read, not only the README.
    for (const char *page : {"README.md", "docs/command-line.md", "docs/benchmarks.md", "docs/fleets.md",
                             "docs/sizing.md", "docs/reports.md", "docs/importing.md"})
        EXPECT_TRUE(pagesWithCommands.count(page)) << "no command was read from " << page;
}

// The pages of the manual (every Markdown page of docs/ and the README), joined.
std::string manualText()
{
    std::string text;
    for (const std::string &page : plimsoll::test::documentationPages(kSourceDir)) {
        std::ifstream in(kSourceDir + "/" + page);
        text.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        text += "\n";
    }
    return text;
}

// The README is the front door: short, the two commands, and links into the manual.
TEST(Readme, IsAShortFrontDoorThatLinksIntoTheManual)
{
    std::ifstream in(kSourceDir + "/README.md");
    std::string line, readme;
    int lines = 0;
    while (std::getline(in, line)) {
        ++lines;
        readme += line + "\n";
    }
    EXPECT_LE(lines, 200) << "README.md is " << lines << " lines: move what is not the front door into docs/";
    for (const char *wanted : {"make run", "make test", "](docs/index.md)", "](docs/window/index.md)",
                               "](docs/reference/commands.md)", "](CONTRIBUTING.md)"})
        EXPECT_NE(readme.find(wanted), std::string::npos) << "README.md has no '" << wanted << "'";
}

// Every relative link of the README and the manual names a file that exists (a page, an image, a
// schema), and every page of docs/ is reachable from the manual's index.
TEST(Readme, EveryLinkOfTheManualResolvesAndEveryPageIsLinked)
{
    namespace fs = std::filesystem;
    static const std::regex link(R"(\]\(([^)#\s]+)(#[^)]*)?\))");
    std::set<std::string> linked;
    int links = 0;
    for (const std::string &page : plimsoll::test::documentationPages(kSourceDir)) {
        std::ifstream in(kSourceDir + "/" + page);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (std::sregex_iterator m(text.begin(), text.end(), link), end; m != end; ++m) {
            const std::string target = (*m)[1].str();
            if (target.find("://") != std::string::npos)
                continue;
            ++links;
            const fs::path resolved = (fs::path(kSourceDir) / page).parent_path() / target;
            EXPECT_TRUE(fs::exists(resolved)) << page << " links to " << target << ", which does not exist";
            if (fs::exists(resolved))
                linked.insert(fs::relative(fs::canonical(resolved), fs::canonical(kSourceDir)).generic_string());
        }
    }
    EXPECT_GT(links, 50);
    for (const std::string &page : plimsoll::test::documentationPages(kSourceDir)) {
        if (page.rfind("docs/", 0) == 0) {
            EXPECT_TRUE(linked.count(page) || page == "docs/index.md") << page << " is linked from no page";
        }
    }
}

// Every option a command's --help lists is documented in the manual (the README or docs/, the
// generated reference aside: it lists every option by construction).
TEST(Readme, EveryOptionIsDocumented)
{
    const std::string readme = manualText();
    const Outcome top = runPlimsoll({"--help"});
    ASSERT_EQ(top.exitCode, 0);
    const auto listed = top.out.find("Subcommands:");
    ASSERT_NE(listed, std::string::npos) << top.out;
    std::vector<QStringList> commands;
    static const std::regex subcommand(R"(\n  ([a-z]+)[ ,])");
    const std::string list = top.out.substr(listed);
    for (std::sregex_iterator m(list.begin(), list.end(), subcommand), end; m != end; ++m)
        commands.push_back({QString::fromStdString((*m)[1].str())});
    for (const char *workload : {"producer", "consumer", "roundtrip", "ramp", "probe", "offload"})
        commands.push_back({"bench", workload});
    ASSERT_GT(commands.size(), 15u);
    static const std::regex option(R"(\n +(--[a-z0-9-]+))");
    int checked = 0;
    for (const QStringList &command : commands) {
        const Outcome help = runPlimsoll(QStringList(command) << "--help");
        ASSERT_EQ(help.exitCode, 0) << command.join(' ').toStdString();
        for (std::sregex_iterator m(help.out.begin(), help.out.end(), option), end; m != end; ++m) {
            const std::string name = (*m)[1].str();
            ++checked;
            const std::regex mention("`[^`]*" + name + "(?![a-z0-9-])[^`]*`");
            EXPECT_TRUE(name == "--help" || std::regex_search(readme, mention))
                << "`plimsoll " << command.join(' ').toStdString() << " " << name
                << "` is in no page of the README or docs/ (its --help lists it)";
        }
    }
    EXPECT_GT(checked, 150) << "the options were not found in the commands' --help";
}

class ReadmeCommandTest : public ::testing::TestWithParam<size_t>
{
};

TEST_P(ReadmeCommandTest, RunsAsTheReadmeSays)
{
    const Case &c = kCases[GetParam()];
    ASSERT_FALSE(c.live) << "live cases run in plimsoll_readme_live_tests";
    runCase(c);
}

std::vector<size_t> offlineCases()
{
    std::vector<size_t> out;
    for (size_t i = 0; i < kCases.size(); ++i)
        if (!kCases[i].live)
            out.push_back(i);
    return out;
}

INSTANTIATE_TEST_SUITE_P(Readme, ReadmeCommandTest, ::testing::ValuesIn(offlineCases()),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                             return testName(kCases[info.param], info.param);
                         });

#else

// The commands that need a real broker, in the README's order (the consumer reads what the
// producer wrote), against the services fixture's Kafka broker.
TEST(ReadmeLive, BenchCommandsAgainstTheTestBroker)
{
    plimsoll::test::ServicesEnv env;
    ASSERT_NO_FATAL_FAILURE(plimsoll::test::ServicesEnv::load(env));
    const QString bootstrap = QString::fromStdString(env.value("PLIMSOLL_TEST_KAFKA_BOOTSTRAP"));
    ASSERT_FALSE(bootstrap.isEmpty()) << "no PLIMSOLL_TEST_KAFKA_BOOTSTRAP in " << env.file();
    const QString topic = "readme-benchmark-" + QString::number(QCoreApplication::applicationPid());
    int live = 0;
    for (const Case &c : kCases)
        if (c.live) {
            runCase(c, bootstrap, topic);
            ++live;
        }
    EXPECT_GE(live, 2);
}

#endif
