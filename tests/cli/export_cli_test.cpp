// End to end: `plimsoll export --format csv|json|jsonl|hlog|steps` on the real executable. The trend
// records round-trip (export from one store, import into an empty one: every run shows the
// same), CSV cells cannot become spreadsheet formulas, and the selection options select.
#include <gtest/gtest.h>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

namespace {

struct Result
{
    int exitCode = -1;
    std::string out;
    std::string err;
};

class ExportCli : public ::testing::Test
{
protected:
    void SetUp() override { ASSERT_EQ(plimsoll("a.db", {"samples", "install"}).exitCode, 0); }
    Result plimsoll(const QString &db, const QStringList &args)
    {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.remove("PLIMSOLL_DB");
        p.setProcessEnvironment(e);
        p.start(PLIMSOLL_BINARY, QStringList{"--db", m_dir.filePath(db)} + args);
        EXPECT_TRUE(p.waitForFinished(60000)) << "plimsoll did not finish";
        return {p.exitCode(), p.readAllStandardOutput().toStdString(),
                p.readAllStandardError().toStdString()};
    }
    QByteArray read(const QString &name)
    {
        QFile f(m_dir.filePath(name));
        EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << name.toStdString();
        return f.readAll();
    }
    void write(const QString &name, const QByteArray &bytes)
    {
        QFile f(m_dir.filePath(name));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }
    nlohmann::json runs(const QString &db)
    {
        const Result r = plimsoll(db, {"runs", "--json"});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        return nlohmann::json::parse(r.out);
    }
    // `show --json` less what belongs to the store rather than the run: its id and source.
    nlohmann::json shown(const QString &db, const std::string &key)
    {
        const Result r = plimsoll(db, {"show", QString::fromStdString(key), "--json"});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        nlohmann::json j = nlohmann::json::parse(r.out);
        j.erase("id");
        j.erase("source");
        return j;
    }
    QTemporaryDir m_dir;
};

TEST_F(ExportCli, TrendRecordsRoundTripIntoAnEmptyStore)
{
    const Result ex = plimsoll("a.db", {"export", "--format", "jsonl", "--out", m_dir.filePath("all.jsonl")});
    ASSERT_EQ(ex.exitCode, 0) << ex.err;
    const Result im = plimsoll("b.db", {"import", m_dir.filePath("all.jsonl")});
    ASSERT_EQ(im.exitCode, 0) << im.err << im.out;
    const auto a = runs("a.db"), b = runs("b.db");
    ASSERT_GT(a.size(), 3u);
    ASSERT_EQ(a.size(), b.size());
    for (const auto &run : a) {
        const std::string key = run["run_key"];
        EXPECT_EQ(shown("a.db", key), shown("b.db", key)) << key;
    }
    // Exporting the copy gives the same bytes: nothing drifts on a second trip.
    ASSERT_EQ(plimsoll("b.db", {"export", "--format", "jsonl", "--out", m_dir.filePath("again.jsonl")}).exitCode, 0);
    EXPECT_EQ(read("all.jsonl"), read("again.jsonl"));
}

TEST_F(ExportCli, CsvCellsNeverStartAFormula)
{
    std::string lines;
    // Names holding a tab or carriage return are refused at import, so printable formula starters remain.
    for (const char *scenario : {"=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)"}) {
        nlohmann::json line = {{"format", "plimsoll-trend/1"}, {"run_key", "=cmd|' /C calc'!A0"},
                               {"timestamp", "2026-03-01T02:00:00Z"}, {"tool", "@tool"},
                               {"scenario", scenario}, {"metrics", {{"custom.delta", -5.0}}}};
        lines += line.dump() + "\n";
    }
    write("formula.jsonl", QByteArray::fromStdString(lines));
    ASSERT_EQ(plimsoll("a.db", {"import", m_dir.filePath("formula.jsonl")}).exitCode, 0);
    const Result r = plimsoll("a.db", {"export", "--format", "csv", "--run", "=cmd|' /C calc'!A0",
                                       "--out", m_dir.filePath("f.csv")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const QString csv = QString::fromUtf8(read("f.csv"));
    const QStringList rows = csv.split('\n', Qt::SkipEmptyParts);
    ASSERT_EQ(rows.size(), 5) << csv.toStdString(); // header + 4 metric rows
    for (const QString &row : rows.mid(1)) {
        EXPECT_TRUE(row.startsWith("'=cmd|")) << row.toStdString();
        EXPECT_TRUE(row.contains(",'@tool,")) << row.toStdString();
        EXPECT_TRUE(row.endsWith(",custom.delta,-5")) << row.toStdString(); // numbers stay numbers
    }
    for (const char *cell : {"\"'=HYPERLINK(\"\"http://x\"\")\"", ",'+1+1,", ",'-2+3,", ",'@SUM(A1),"})
        EXPECT_TRUE(csv.contains(QString::fromUtf8(cell))) << cell;
    // No cell anywhere starts with a formula character unescaped.
    for (const QString &row : rows) {
        for (const QString &cell : row.split(',')) {
            if (!cell.isEmpty() && !cell.startsWith('"') && cell != "-5") {
                EXPECT_FALSE(QString("=+-@").contains(cell.front())) << cell.toStdString();
            }
        }
    }
}

TEST_F(ExportCli, JsonAndSelection)
{
    const Result r = plimsoll("a.db", {"export", "--format", "json", "--scenario", "pipeline/produce/",
                                       "--since", "2026-01-01T00:00:00Z", "--out", "-"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_FALSE(j.empty());
    for (const auto &run : j) {
        EXPECT_GE(run["timestamp"].get<std::string>(), "2026-01-01");
        for (const auto &s : run["scenarios"]) {
            EXPECT_NE(s["name"].get<std::string>().find("pipeline/produce/"), std::string::npos);
            EXPECT_TRUE(s.contains("series"));
        }
        EXPECT_TRUE(run.contains("source"));
    }
    const Result one = plimsoll("a.db", {"export", "--format", "json", "--run",
                                         "sample:korvet-pipeline-produce-2026-08-11", "--out", "-"});
    ASSERT_EQ(one.exitCode, 0) << one.err;
    EXPECT_EQ(nlohmann::json::parse(one.out).size(), 1u);
    EXPECT_EQ(plimsoll("a.db", {"export", "--format", "json", "--run", "nope", "--out", "-"}).exitCode, 1);
    EXPECT_EQ(plimsoll("a.db", {"export", "--format", "xml", "--out", "-"}).exitCode, 2);
}

TEST_F(ExportCli, HistogramLogOfStoredPercentiles)
{
    const Result r = plimsoll("a.db", {"export", "--format", "hlog", "--out", m_dir.filePath("l.hlog")});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("no raw histograms"), std::string::npos) << r.err;
    const QByteArray log = read("l.hlog");
    EXPECT_TRUE(log.contains("#[Histogram log format version 1.3]"));
    EXPECT_TRUE(log.contains("rebuilt from one scenario's stored"));
    EXPECT_TRUE(log.contains(",HIST")) << "at least one interval";
    // Plimsoll's own importer reads it back.
    const Result check = plimsoll("c.db", {"import", "--dry-run", "--json", m_dir.filePath("l.hlog")});
    EXPECT_EQ(check.exitCode, 0) << check.err << check.out;
}

} // namespace

// The run detail's step table as a file: a row per scenario with the values `show --json`
// gives, the load factors the scenarios state, units in the header; one run only.
TEST_F(ExportCli, StepTableOfOneRunIsARowPerScenarioWithUnitsInTheHeader)
{
    const std::string key = "sample:korvet-pipeline-produce-2026-08-11";
    const Result r = plimsoll("a.db", {"export", "--format", "steps", "--run", QString::fromStdString(key),
                                       "--out", "-"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const nlohmann::json detail = shown("a.db", key);
    const QStringList lines = QString::fromStdString(r.out).split('\n', Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), qsizetype(detail["scenarios"].size()) + 1);
    const QStringList header = lines[0].split(',');
    EXPECT_EQ(header[0], "scenario");
    const qsizetype producers = header.indexOf("producers");
    const qsizetype rate = header.indexOf("records_per_s (records/s)");
    ASSERT_GT(producers, 0) << lines[0].toStdString();
    ASSERT_GT(rate, producers) << "factors come before metrics: " << lines[0].toStdString();
    for (size_t i = 0; i < detail["scenarios"].size(); ++i) {
        const nlohmann::json &s = detail["scenarios"][i];
        const QStringList cells = lines[qsizetype(i) + 1].split(',');
        ASSERT_EQ(cells.size(), header.size());
        EXPECT_EQ(cells[0].toStdString(), s["name"].get<std::string>());
        if (s["topology"].contains("producers"))
            EXPECT_EQ(cells[producers].toLongLong(), s["topology"]["producers"].get<int64_t>());
        else
            EXPECT_TRUE(cells[producers].isEmpty());
        if (s["metrics"].contains("records_per_s"))
            EXPECT_DOUBLE_EQ(cells[rate].toDouble(), s["metrics"]["records_per_s"].get<double>());
        else
            EXPECT_TRUE(cells[rate].isEmpty());
    }

    const Result many = plimsoll("a.db", {"export", "--format", "steps", "--out", "-"});
    EXPECT_EQ(many.exitCode, 2);
    EXPECT_NE(many.err.find("--format steps writes one run's step table"), std::string::npos) << many.err;
}
