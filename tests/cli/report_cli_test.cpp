// End to end: `plimsoll report` on the real executable over the bundled sample runs — the PDF's
// text holds the topology `plimsoll size` gives, the HTML loads nothing and escapes imported
// names, Markdown and PDF are byte-stable apart from the generated-at line.
#include <gtest/gtest.h>

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

namespace {

struct Result
{
    int exitCode = -1;
    std::string out;
    std::string err;
};

const QStringList kInputs = {"--rate", "600k", "--record-size", "700B", "--retention", "60s"};

class ReportCli : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_dir = new QTemporaryDir;
        ASSERT_EQ(plimsoll({"samples", "install"}).exitCode, 0);
    }
    static void TearDownTestSuite()
    {
        delete s_dir;
        s_dir = nullptr;
    }
    static Result plimsoll(QStringList args, const QString &epoch = {})
    {
        args.prepend(s_dir->filePath("store.db"));
        args.prepend("--db");
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.remove("PLIMSOLL_DB");
        e.remove("SOURCE_DATE_EPOCH");
        if (!epoch.isEmpty())
            e.insert("SOURCE_DATE_EPOCH", epoch);
        p.setProcessEnvironment(e);
        p.start(PLIMSOLL_BINARY, args);
        EXPECT_TRUE(p.waitForFinished(120000)) << "plimsoll did not finish";
        return {p.exitCode(), p.readAllStandardOutput().toStdString(),
                p.readAllStandardError().toStdString()};
    }
    static QByteArray report(const QString &format, const QString &name, const QString &epoch = {},
                             QStringList extra = {})
    {
        const QString out = s_dir->filePath(name);
        QStringList args = QStringList{"report", "--format", format, "--out", out} + kInputs + extra;
        const Result r = plimsoll(args, epoch);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        QFile f(out);
        EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << out.toStdString();
        return f.readAll();
    }
    static QStringList linesWithout(const QByteArray &text, const QString &skip)
    {
        QStringList lines = QString::fromUtf8(text).split('\n');
        lines.removeIf([&](const QString &l) { return l.contains(skip); });
        return lines;
    }
    static QTemporaryDir *s_dir;
};
QTemporaryDir *ReportCli::s_dir = nullptr;

TEST_F(ReportCli, PdfTextHoldsTheTopologyNumbers)
{
    const QString pdftotext = QStandardPaths::findExecutable("pdftotext");
    if (pdftotext.isEmpty())
        GTEST_SKIP() << "pdftotext (poppler-utils) is not installed";
    const Result size = plimsoll(QStringList{"size", "--json"} + kInputs);
    ASSERT_EQ(size.exitCode, 0) << size.err;
    const auto j = nlohmann::json::parse(size.out);
    const QByteArray pdf = report("pdf", "report.pdf");
    ASSERT_TRUE(pdf.startsWith("%PDF-"));
    QFile::copy(s_dir->filePath("report.pdf"), PLIMSOLL_ARTIFACT_DIR "/report.pdf");
    QProcess p;
    p.start(pdftotext, {"-layout", s_dir->filePath("report.pdf"), "-"});
    ASSERT_TRUE(p.waitForFinished(60000));
    const QString text = QString::fromUtf8(p.readAllStandardOutput()).simplified();
    const QString topology = QStringLiteral("%1 Korvet brokers, %2 Redis nodes, %3 Redis shards, %4 partitions")
                                 .arg(j["brokers"].get<int>())
                                 .arg(j["redis_nodes"].get<int>())
                                 .arg(j["shards"].get<int>())
                                 .arg(j["partitions"].get<int>());
    EXPECT_TRUE(text.contains(topology)) << topology.toStdString() << "\n" << text.left(3000).toStdString();
    for (const char *section : {"Inputs and assumptions", "Utilization at the target", "Scaling", // "fits": a ligature in the PDF
                                "Partition placement", "Memory", "Latency budget", "Caveats", "Provenance",
                                "Broker count by each model", "Shard count by each model", "Evidence: every run"})
        EXPECT_TRUE(text.contains(QLatin1String(section))) << section;
    EXPECT_TRUE(text.contains("sample:korvet-pipeline-produce-2026-08-11"));
    // The charts are vector: their axis titles are text in the PDF, not pixels.
    EXPECT_TRUE(text.contains("hottest shard CPU"));
}

TEST_F(ReportCli, MarkdownIsByteStable)
{
    const QByteArray a = report("md", "a.md"), b = report("md", "b.md");
    ASSERT_FALSE(a.isEmpty());
    EXPECT_EQ(linesWithout(a, "Generated at"), linesWithout(b, "Generated at"));
    EXPECT_EQ(report("md", "c.md", "1786000000"), report("md", "d.md", "1786000000"));
    EXPECT_TRUE(a.contains("Korvet brokers"));
    EXPECT_EQ(QString::fromUtf8(a).count("Generated at"), 1);
}

// Under each ramp's fit, the latency percentile spectrum of its steps (the HdrHistogram plot):
// a chart in the HTML and PDF, its numbers as a table in Markdown, a row a step, in ms. λ and
// the throughput at N* read as plain records/s, never in exponent notation.
TEST_F(ReportCli, EachRampsStepsHaveTheirLatencySpectrum)
{
    const QString md = QString::fromUtf8(report("md", "spectrum.md"));
    const qsizetype chart = md.indexOf("*Chart: Latency percentile spectrum (latency) of 7 steps, against 1/(1−p)");
    ASSERT_GE(chart, 0) << md.toStdString();
    const qsizetype table = md.indexOf("| Step | p50 (ms) | p99 (ms) |", chart);
    ASSERT_GT(table, chart);
    // The sample ramp's top step: p50 10.1 ms and p99 59 ms, as `plimsoll show` gives them.
    EXPECT_GT(md.indexOf("| pipeline/produce/step-16 | 10.1 | 59 |", table), table) << md.mid(table, 600).toStdString();
    EXPECT_FALSE(md.contains(QRegularExpression(R"(\| λ \(records/s per unit\) \| [0-9.]+e\+)"))) << "λ in plain digits";
    EXPECT_TRUE(md.contains(QRegularExpression(R"(\| λ \(records/s per unit\) \| \d{4,} \|)")));

    const QString html = QString::fromUtf8(report("html", "spectrum.html"));
    EXPECT_TRUE(html.contains("Latency percentile spectrum (latency) of 7 steps"));
    EXPECT_TRUE(html.contains("pipeline/produce/step-16")) << "the legend names each step";
}

TEST_F(ReportCli, PdfAndHtmlAreStableApartFromTheGeneratedAtLine)
{
    // With the generated-at time fixed (SOURCE_DATE_EPOCH), every byte is equal.
    EXPECT_EQ(report("pdf", "e1.pdf", "1786000000"), report("pdf", "e2.pdf", "1786000000"));
    EXPECT_EQ(report("html", "e1.html", "1786000000"), report("html", "e2.html", "1786000000"));
    const QByteArray h1 = report("html", "f1.html"), h2 = report("html", "f2.html");
    EXPECT_EQ(linesWithout(h1, "Generated at"), linesWithout(h2, "Generated at"));
}

TEST_F(ReportCli, HtmlIsSelfContained)
{
    const QByteArray html = report("html", "self.html");
    QFile::copy(s_dir->filePath("self.html"), PLIMSOLL_ARTIFACT_DIR "/report.html");
    const QString h = QString::fromUtf8(html);
    EXPECT_TRUE(h.contains("<svg")) << "charts are inline SVG";
    EXPECT_FALSE(h.contains("<link", Qt::CaseInsensitive));
    EXPECT_FALSE(h.contains("<script", Qt::CaseInsensitive));
    EXPECT_FALSE(h.contains("<img", Qt::CaseInsensitive));
    EXPECT_FALSE(h.contains(QRegularExpression(R"(url\(\s*[^#\s])"))) << "only url(#fragment) inside the page";
    // Each inline SVG's ids are its own.
    QStringList ids;
    for (const auto &m : QRegularExpression(R"re( id="([^"]+)")re").globalMatch(h))
        ids << m.captured(1);
    EXPECT_EQ(ids.removeDuplicates(), 0) << ids.join(QLatin1Char(' ')).toStdString();
    const QRegularExpression external(R"((src|href)\s*=\s*["']?\s*(https?:|//))",
                                      QRegularExpression::CaseInsensitiveOption);
    EXPECT_FALSE(external.match(h).hasMatch()) << external.match(h).captured(0).toStdString();
}

TEST_F(ReportCli, ImportedScriptNamesComeOutEscaped)
{
    // A run whose key, tool and provenance carry markup; its ramp makes it a run the sizing uses.
    const QString evil = "<script>alert(1)</script>";
    QString lines;
    for (int producers : {1, 2, 4, 8}) {
        nlohmann::json line = {{"format", "plimsoll-trend/1"},
                               {"run_key", evil.toStdString()},
                               {"timestamp", "2026-03-01T02:00:00Z"},
                               {"tool", evil.toStdString()},
                               {"commit", "<b>c</b>"},
                               {"scenario", "evil/step-" + std::to_string(producers)},
                               {"kind", "ramp-step"},
                               {"topology", {{"producers", producers}, {"shards", 4}, {"brokers", 1}}},
                               {"metrics", {{"records_per_s", 50000.0 * producers},
                                            {"shard_cpu_max", 0.1 * producers},
                                            {"broker_cpu_avg", 0.08 * producers}}}};
        lines += QString::fromStdString(line.dump()) + "\n";
    }
    const QString path = s_dir->filePath("evil.jsonl");
    {
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(lines.toUtf8());
    }
    const Result imported = plimsoll({"import", path});
    ASSERT_EQ(imported.exitCode, 0) << imported.err << imported.out;
    const QByteArray html = report("html", "evil.html");
    EXPECT_FALSE(html.contains("<script")) << "markup from an imported run reached the HTML";
    EXPECT_FALSE(html.contains("<b>c</b>"));
    EXPECT_TRUE(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    const QByteArray md = report("md", "evil.md");
    EXPECT_FALSE(md.contains("<script"));
    EXPECT_TRUE(md.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    ASSERT_EQ(plimsoll({"remove", evil}).exitCode, 0);
}

// At 1.2M the models disagree: the report shows every broker and shard answer with the one
// taken and why, states its evidence first, and recommends the partitions the sizing and
// `plimsoll placement` give (one partition model, not a placement default of its own).
TEST_F(ReportCli, CountsByEachModelAndOnePartitionModel)
{
    const QStringList in = {"--rate", "1.2M"};
    const Result size = plimsoll(QStringList{"size", "--json"} + in);
    ASSERT_EQ(size.exitCode, 0) << size.err;
    const auto j = nlohmann::json::parse(size.out);
    const Result written = plimsoll(QStringList{"report", "--format", "md", "--out", s_dir->filePath("models.md")} + in);
    ASSERT_EQ(written.exitCode, 0) << written.err;
    QFile f(s_dir->filePath("models.md"));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QString md = QString::fromUtf8(f.readAll());

    const QString evidence = "Evidence: " + QString::fromStdString(j["evidence"]["selection"].get<std::string>());
    ASSERT_TRUE(md.contains(evidence)) << md.left(600).toStdString();
    EXPECT_LT(md.indexOf(evidence), md.indexOf("## Inputs and assumptions")) << "the evidence comes first";
    EXPECT_TRUE(md.contains(QString::fromStdString(j["evidence"]["note"].get<std::string>())));

    for (const char *kind : {"broker_models", "shard_models"}) {
        const auto &choice = j[kind];
        for (const auto &a : choice["answers"]) {
            const QString units = a["units"].is_null() ? "—" : QString::number(a["units"].get<int>());
            const QString row = "| " + QString::fromStdString(a["model"].get<std::string>()) + " | " + units +
                                " | " + (a["taken"].get<bool>() ? "taken" : "") + " |";
            EXPECT_TRUE(md.contains(row)) << row.toStdString();
        }
        EXPECT_TRUE(md.contains("The sizing took " + QString::fromStdString(choice["taken"].get<std::string>()) +
                                ": " + QString::fromStdString(choice["why"].get<std::string>())))
            << kind;
    }
    EXPECT_TRUE(md.contains("### Broker count by each model"));
    EXPECT_TRUE(md.contains("### Shard count by each model"));
    EXPECT_TRUE(md.contains("| fitted | 7 |  |")) << "the broker sweep's answer beside the one taken";
    EXPECT_TRUE(md.contains("| cpu | 5 | taken |"));
    EXPECT_TRUE(md.contains("| rule | 6 |  |"));

    const QRegularExpressionMatch recommended = QRegularExpression(R"(Recommended: (\d+) partitions)").match(md);
    ASSERT_TRUE(recommended.hasMatch());
    const int partitions = recommended.captured(1).toInt();
    EXPECT_EQ(partitions, j["partitions"].get<int>());
    const Result placement = plimsoll({"placement", "--shards", QString::number(j["shards"].get<int>()), "--brokers",
                                       QString::number(j["brokers"].get<int>()), "--partitions", "10", "--json"});
    ASSERT_EQ(placement.exitCode, 0) << placement.err;
    EXPECT_EQ(partitions, nlohmann::json::parse(placement.out)["recommended"]["partitions"].get<int>());

    const QByteArray html = report("html", "models.html");
    EXPECT_TRUE(html.contains("Broker count by each model"));
    EXPECT_TRUE(html.contains("Shard count by each model"));
}

TEST_F(ReportCli, RatesReadAsTheSizingWritesThem)
{
    const QString md = QString::fromUtf8(report("md", "rates.md"));
    ASSERT_FALSE(md.isEmpty());
    // The input the user gave, in the form the topology table's "Target rate" row uses.
    EXPECT_TRUE(md.contains("| Target ingest | 600k records/s |")) << md.left(2000).toStdString();
    EXPECT_TRUE(md.contains("| Target rate | 600k records/s |"));
    // No rate anywhere in the report as a bare run of digits ("600000 records/s", "528756 /s").
    const QRegularExpression bare(R"((?<![\d.,])\d{5,}(\.\d+)? ?(records)?/s\b)");
    const QRegularExpressionMatch m = bare.match(md);
    EXPECT_FALSE(m.hasMatch()) << m.captured(0).toStdString() << " in: "
                               << md.mid(std::max<qsizetype>(0, m.capturedStart() - 200), 400).toStdString();
}

TEST_F(ReportCli, UsageErrors)
{
    EXPECT_EQ(plimsoll({"report", "--out", s_dir->filePath("x.txt"), "--rate", "600k"}).exitCode, 2);
    EXPECT_EQ(plimsoll({"report", "--format", "pdf", "--out", s_dir->filePath("x.pdf"),
                        "--rate", "fast"}).exitCode, 2);
    EXPECT_EQ(plimsoll({"report", "--format", "md", "--out", s_dir->filePath("x.md"), "--rate",
                        "600k", "--run", "no-such-run"}).exitCode, 1);
}

} // namespace

// A nightly series of ramps is one family in the report: its latest run and its first (the
// baseline) in full, with charts, and every run as a row of one table — not a page per night.
TEST(ReportFamilies, ANightlySeriesOfRampsIsOneSectionWithATable)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    std::string lines;
    const int nights = 6;
    for (int night = 1; night <= nights; ++night) {
        for (int producers : {1, 2, 4, 8, 16}) {
            const double n = producers;
            const double rate = 80000 * n / (1 + 0.03 * (n - 1) + 0.001 * n * (n - 1)) * (1 + 0.002 * night);
            nlohmann::json j = {
                {"format", "plimsoll-trend/1"},
                {"run_key", "nightly-" + std::to_string(night)},
                {"timestamp", "2026-10-" + std::string(night < 10 ? "0" : "") + std::to_string(night) + "T02:00:00Z"},
                {"tool", "korvet-pipeline-benchmark"},
                {"target", "korvet"},
                {"scenario", "pipeline/produce/step-" + std::to_string(producers)},
                {"kind", "ramp-step"},
                {"topology", {{"brokers", 3}, {"shards", 24}, {"producers", producers}}},
                {"metrics",
                 {{"records_per_s", rate}, {"latency_p99_s", 0.005 + 0.0004 * n},
                  {"broker_cpu_avg", rate / 3 / 500000}, {"shard_cpu_max", rate / 24 / 60000}}}};
            lines += j.dump() + "\n";
        }
    }
    const QString runsFile = dir.filePath("nightly.jsonl");
    {
        QFile f(runsFile);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(lines));
    }
    const auto plimsoll = [&](const QStringList &args) {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.remove("PLIMSOLL_DB");
        p.setProcessEnvironment(e);
        p.start(PLIMSOLL_BINARY, QStringList{"--db", dir.filePath("store.db")} + args);
        EXPECT_TRUE(p.waitForFinished(120000));
        EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
    };
    plimsoll({"import", runsFile});
    const QString out = dir.filePath("report.md");
    plimsoll(QStringList{"report", "--format", "md", "--out", out} + kInputs);
    QFile f(out);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    const qsizetype fits = text.indexOf("## Scaling fits");
    ASSERT_GE(fits, 0) << text.toStdString();
    const QString section = text.mid(fits, text.indexOf("\n## ", fits + 5) - fits);
    // Markdown escapes the family's '*' as \*.
    const QStringList headings = section.split('\n').filter(QRegularExpression("^### "));
    ASSERT_EQ(headings.size(), 3) << section.toStdString();
    EXPECT_EQ(headings[0].toStdString(), QString("### nightly-%1: pipeline/produce/\\* (latest of %1 runs)").arg(nights).toStdString());
    EXPECT_EQ(headings[1].toStdString(), "### nightly-1: pipeline/produce/\\* (the first, the baseline)");
    EXPECT_EQ(headings[2].toStdString(), "### Every run of pipeline/produce/\\* against producers");
    const qsizetype table = section.indexOf(headings[2]);
    int rows = 0;
    for (int night = 1; night <= nights; ++night)
        rows += section.indexOf(QString("| nightly-%1 |").arg(night), table) > table;
    EXPECT_EQ(rows, nights);
}
