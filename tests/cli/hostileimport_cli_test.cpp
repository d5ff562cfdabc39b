// End to end: `plimsoll import` of what is not a result file ends at once with a message that
// says what it is and what to do: a named pipe (never a hang), an empty directory, compressed
// or UTF-16 files, URL schemes it does not fetch.
#include <gtest/gtest.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <sys/stat.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

struct Result
{
    int exitCode = -1;
    std::string out;
    std::string err;
    double seconds = 0;
};

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

class HostileImport : public ::testing::Test
{
protected:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    Result plimsoll(const QStringList &args) const
    {
        QProcess p;
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.remove("PLIMSOLL_DB");
        p.setProcessEnvironment(e);
        QElapsedTimer timer;
        timer.start();
        p.start(PLIMSOLL_BINARY, QStringList{"--db", path("store.db")} + args);
        if (!p.waitForFinished(30000)) {
            p.kill();
            p.waitForFinished();
            ADD_FAILURE() << "plimsoll did not finish within 30 s";
        }
        return {p.exitCode(), p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString(),
                timer.elapsed() / 1000.0};
    }
    void write(const QString &name, const QByteArray &bytes) const
    {
        QFile f(path(name));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }
    QTemporaryDir m_dir;
};

// A named pipe nobody writes to: refused at once, not waited on for ever.
TEST_F(HostileImport, NamedPipeIsRefusedWithoutBlocking)
{
    const std::string fifo = path("results.fifo").toStdString();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const Result r = plimsoll({"import", QString::fromStdString(fifo)});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_LT(r.seconds, 20);
    EXPECT_TRUE(contains(r.out + r.err, "cannot import " + fifo + ": it is not a regular file")) << r.out << r.err;
    EXPECT_TRUE(contains(r.out + r.err, "save its contents to a file")) << r.out << r.err;
}

TEST_F(HostileImport, EmptyDirectoryIsAFailure)
{
    QDir().mkpath(path("nightly/empty"));
    const Result r = plimsoll({"import", path("nightly")});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_TRUE(contains(r.out + r.err, "the directory holds no files")) << r.out << r.err;
}

// Compressed and UTF-16 files are named as what they are, with the way to read them.
TEST_F(HostileImport, CompressedAndUtf16FilesAreNamed)
{
    write("results.csv.gz", QByteArray("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xcb\x48\xcd\xc9\xc9\x07\x00", 17));
    QByteArray utf16("\xff\xfe", 2);
    for (char c : std::string("\"test\",\"rps\"\n\"SET\",\"100000.00\"\n"))
        utf16.append(c).append('\0');
    write("results.csv", utf16);
    const Result gz = plimsoll({"import", path("results.csv.gz")});
    EXPECT_EQ(gz.exitCode, 1) << gz.out << gz.err;
    EXPECT_TRUE(contains(gz.out + gz.err, "gzip-compressed (decompress it first")) << gz.out << gz.err;
    const Result u = plimsoll({"import", path("results.csv")});
    EXPECT_EQ(u.exitCode, 1) << u.out << u.err;
    EXPECT_TRUE(contains(u.out + u.err, "UTF-16 text; Plimsoll reads UTF-8")) << u.out << u.err;
}

TEST_F(HostileImport, UnsupportedUrlSchemesAreNamed)
{
    for (const char *url : {"ftp://results.example.invalid/run.json", "file:///tmp/run.json", "s3://bucket/run.json"}) {
        SCOPED_TRACE(url);
        const Result r = plimsoll({"import", url});
        EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
        const std::string scheme = std::string(url).substr(0, std::string(url).find(':'));
        EXPECT_TRUE(contains(r.out + r.err, "the URL scheme '" + scheme + "' is not supported")) << r.out << r.err;
        EXPECT_FALSE(contains(r.out + r.err, "No such file")) << r.out << r.err;
    }
}

// A key given twice in one JSON object: refused naming the key and its line, nothing stored
// (a parser would keep the last value silently).
TEST_F(HostileImport, DuplicatedJsonKeysAreRefused)
{
    auto readData = [](const char *name) {
        QFile f(QStringLiteral(PLIMSOLL_TEST_DATA_DIR "/") + name);
        EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << name;
        return f.readAll();
    };
    // A trend record whose second line states its metric twice.
    QByteArray trend = readData("trend-records.jsonl");
    const int second = trend.indexOf("\n{", trend.indexOf("\n{") + 1) + 1;
    const int metrics = trend.indexOf("\"metrics\":{", second) + int(std::strlen("\"metrics\":{"));
    trend.insert(metrics, "\"records_per_s\":1,");
    write("trend.jsonl", trend);
    const int line = int(trend.left(second).count('\n')) + 1;
    const Result t = plimsoll({"import", path("trend.jsonl")});
    EXPECT_EQ(t.exitCode, 1) << t.out << t.err;
    EXPECT_TRUE(contains(t.out + t.err, "line " + std::to_string(line) + ", column")) << t.out << t.err;
    EXPECT_TRUE(contains(t.out + t.err, "field 'records_per_s': is given twice in one object")) << t.out << t.err;

    // A Korvet result stating its timestamp twice, the second on line 3.
    QByteArray korvet = readData("korvet-result.json");
    korvet.insert(korvet.indexOf("{\n") + 2, "  \"timestamp\": \"2020-01-01T00:00:00Z\",\n");
    write("korvet.json", korvet);
    const Result k = plimsoll({"import", path("korvet.json")});
    EXPECT_EQ(k.exitCode, 1) << k.out << k.err;
    EXPECT_TRUE(contains(k.out + k.err, "field 'timestamp': is given twice")) << k.out << k.err;
    EXPECT_TRUE(contains(k.out + k.err, "line 4")) << k.out << k.err;
    EXPECT_FALSE(QFile::exists(path("store.db")) && contains(plimsoll({"runs"}).out, "korvet"));
}

// Run keys and scenario names that would print otherwise than they are (terminal escapes,
// bidirectional overrides, NUL) or are absurdly long: the source fails naming line and field.
TEST_F(HostileImport, UnprintableOrOverlongNamesAreRefused)
{
    const std::string good = R"({"format":"plimsoll-trend/1","run_key":"nightly-7","timestamp":"2026-03-01T02:00:00Z","scenario":"produce/step-1","metrics":{"records_per_s":1000}})";
    struct Case
    {
        std::string field, value, message;
    };
    const std::vector<Case> cases = {
        {"run_key", R"(nightly\u001b[2J-8)", "field 'run_key': run key holds the control character U+001B at character 8"},
        {"run_key", R"(nightly-\u202egnp.8)", "field 'run_key': run key holds the bidirectional control U+202E"},
        {"run_key", R"(night\u0000ly)", "field 'run_key': run key holds the control character U+0000"},
        {"run_key", std::string(201, 'k'), "field 'run_key': run key is 201 characters long"},
        {"scenario", R"(produce/step-\u0007)", "field 'scenario': run 'nightly-9': scenario name holds the control character U+0007"},
        {"scenario", R"(produce/\u2067step)", "scenario name holds the bidirectional control U+2067"},
    };
    int i = 0;
    for (const Case &c : cases) {
        SCOPED_TRACE(c.message);
        std::string bad = good;
        if (c.field == "run_key")
            bad.replace(bad.find("nightly-7"), 9, c.value);
        else
            bad.replace(bad.find("nightly-7"), 9, "nightly-9").replace(bad.find("produce/step-1"), 14, c.value);
        const QString name = QString("names-%1.jsonl").arg(i++);
        write(name, QByteArray::fromStdString(good + "\n" + bad + "\n"));
        const Result r = plimsoll({"import", path(name)});
        EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
        EXPECT_TRUE(contains(r.err, "line 2")) << r.err;
        EXPECT_TRUE(contains(r.err, c.message)) << r.err;
        EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << "the escape was printed raw";
    }
    // 200 characters of any script are a name.
    std::string longest;
    for (int k = 0; k < 200; ++k)
        longest += "é";
    std::string ok = good;
    ok.replace(ok.find("nightly-7"), 9, longest);
    write("ok.jsonl", QByteArray::fromStdString(ok + "\n"));
    const Result r = plimsoll({"import", path("ok.jsonl")});
    EXPECT_EQ(r.exitCode, 0) << r.err;
}

} // namespace
