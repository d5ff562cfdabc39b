// End to end: no command reports success for work it did not complete, and nothing absurd on
// the command line is taken. A write that fails (a full device, a file-size limit, standard
// output on a full device) exits 1 naming the file and the system's reason and leaves no
// file behind; an empty store path, hexadecimal numbers and a reversed range are usage errors.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <string>

#include <unistd.h>

namespace {

struct Result
{
    int exitCode = -1;
    std::string out;
    std::string err;
};

bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

class WriteFailures : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        ASSERT_EQ(plimsoll({"samples", "install"}).exitCode, 0);
    }
    // Copies of the sample runs under other keys: exports of a few hundred KiB, past the limit
    // below, which leaves the store's own files (its 32 KiB WAL index) room.
    void growStore()
    {
        ASSERT_EQ(plimsoll({"export", "--format", "jsonl", "--out", path("samples.jsonl")}).exitCode, 0);
        QFile f(path("samples.jsonl"));
        ASSERT_TRUE(f.open(QIODevice::ReadOnly));
        const QByteArray samples = f.readAll();
        f.remove();
        for (int i = 0; i < 8; ++i) {
            QByteArray copy = samples;
            copy.replace("\"run_key\":\"sample:", "\"run_key\":\"copy-" + QByteArray::number(i) + ":");
            const QString name = path(QString("copy-%1.jsonl").arg(i));
            QFile out(name);
            ASSERT_TRUE(out.open(QIODevice::WriteOnly));
            out.write(copy);
            out.close();
            const Result r = plimsoll({"import", name});
            ASSERT_EQ(r.exitCode, 0) << r.err;
            QFile::remove(name);
        }
    }
    QString db() const { return m_dir.filePath("store.db"); }
    QString path(const QString &name) const { return m_dir.filePath(name); }
    // plimsoll with --db, started through a shell that first sets `shellSetup` (ulimit -f …),
    // standard output to `stdoutFile` when given.
    Result plimsoll(const QStringList &args, const QString &shellSetup = {}, const QString &stdoutFile = {},
                    const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                    bool withDb = true) const
    {
        QProcess p;
        QProcessEnvironment e = env;
        if (withDb)
            e.remove("PLIMSOLL_DB");
        p.setProcessEnvironment(e);
        if (!stdoutFile.isEmpty())
            p.setStandardOutputFile(stdoutFile);
        QStringList full = withDb ? QStringList{"--db", db()} + args : args;
        // SIGXFSZ ignored (inherited through exec): the write past the limit fails with EFBIG
        // instead of killing the process, as in a CI job whose shell ignores it.
        full.prepend(PLIMSOLL_BINARY);
        full.prepend("trap '' XFSZ; " + shellSetup + (shellSetup.isEmpty() ? "" : "; ") + "exec \"$0\" \"$@\"");
        full.prepend("-c");
        p.start("bash", full);
        EXPECT_TRUE(p.waitForFinished(120000)) << "plimsoll did not finish";
        return {p.exitCode(), p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
    }
    // Every entry of the test's directory but the store's own files.
    QStringList leftovers() const
    {
        QStringList out;
        for (const QString &name : QDir(m_dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System))
            if (!name.startsWith("store.db"))
                out << name;
        return out;
    }
    QTemporaryDir m_dir;
};

// Past a file-size limit (ulimit -f) every export format and every report format fails, exit 1,
// naming the file and the reason, and no file (or temporary file) stays behind.
TEST_F(WriteFailures, FileSizeLimitFailsEveryExportAndReportLeavingNothing)
{
    growStore();
    const Result whole = plimsoll({"export", "--format", "json", "--out", path("whole.csv")});
    ASSERT_EQ(whole.exitCode, 0) << whole.err;
    ASSERT_GT(QFileInfo(path("whole.csv")).size(), 128 * 1024) << "the export must exceed the limit below";
    QFile::remove(path("whole.csv"));

    const QList<QStringList> commands = {
        {"export", "--format", "csv", "--out", path("runs.csv")},
        {"export", "--format", "jsonl", "--out", path("runs.jsonl")},
        {"export", "--format", "json", "--out", path("runs.json")},
        {"report", "--out", path("sizing.html"), "--rate", "300k"},
    };
    for (const QStringList &args : commands) {
        const std::string file = args.at(args.indexOf("--out") + 1).toStdString();
        SCOPED_TRACE(file);
        const Result r = plimsoll(args, "ulimit -f 64"); // KiB
        EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
        EXPECT_TRUE(contains(r.err, "cannot write " + file + ": File too large")) << r.err;
        EXPECT_FALSE(contains(r.err, "exported")) << r.err;
        EXPECT_FALSE(contains(r.out, "wrote")) << r.out;
        EXPECT_TRUE(leftovers().isEmpty()) << leftovers().join(", ").toStdString();
    }
}

// A file that was there before a failed write is left as it was, not cut.
TEST_F(WriteFailures, AFailedWriteLeavesAnEarlierFileAsItWas)
{
    QFile earlier(path("runs.csv"));
    ASSERT_TRUE(earlier.open(QIODevice::WriteOnly));
    earlier.write("yesterday's export\n");
    earlier.close();
    growStore();
    const Result r = plimsoll({"export", "--format", "csv", "--out", path("runs.csv")}, "ulimit -f 64");
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_TRUE(contains(r.err, "File too large")) << r.err;
    ASSERT_TRUE(earlier.open(QIODevice::ReadOnly));
    EXPECT_EQ(earlier.readAll().toStdString(), "yesterday's export\n");
    EXPECT_EQ(leftovers(), QStringList{"runs.csv"});
}

// A full device, as a file (--out /dev/full) and as standard output (--out - into /dev/full).
TEST_F(WriteFailures, FullDeviceFailsWithTheSystemsReason)
{
    for (const char *format : {"csv", "jsonl", "otava-csv"}) {
        SCOPED_TRACE(format);
        QStringList args{"export", "--format", format, "--out", "/dev/full"};
        if (std::string(format) == "otava-csv")
            args << "--scenario" << "pipeline/";
        const Result file = plimsoll(args);
        EXPECT_EQ(file.exitCode, 1) << file.err;
        EXPECT_TRUE(contains(file.err, "cannot write /dev/full: No space left on device")) << file.err;
        args[4] = "-";
        const Result out = plimsoll(args, {}, "/dev/full");
        EXPECT_EQ(out.exitCode, 1) << out.err;
        EXPECT_TRUE(contains(out.err, "cannot write to standard output: No space left on device")) << out.err;
        EXPECT_FALSE(contains(out.err, "exported")) << out.err;
    }
    const Result report = plimsoll({"report", "--format", "md", "--out", "/dev/full", "--rate", "300k"});
    EXPECT_EQ(report.exitCode, 1) << report.err;
    EXPECT_TRUE(contains(report.err, "cannot write /dev/full: No space left on device")) << report.err;
    EXPECT_TRUE(QFileInfo("/dev/full").exists() && !QFileInfo("/dev/full").isFile());
}

// An empty store path is a mistake, never the personal store: exit 2, nothing created.
TEST_F(WriteFailures, EmptyStorePathIsRefused)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString home = path("home");
    QDir().mkpath(home);
    env.insert("HOME", home);
    env.insert("XDG_DATA_HOME", home + "/data");
    env.remove("PLIMSOLL_DB");
    const Result flag = plimsoll({"--db", "", "runs"}, {}, {}, env, false);
    EXPECT_EQ(flag.exitCode, 2) << flag.err;
    EXPECT_TRUE(contains(flag.err, "the store path is empty (--db '')")) << flag.err;
    EXPECT_TRUE(contains(flag.err, "name a store file")) << flag.err;
    const Result after = plimsoll({"import", "--db", "", path("nothing.json")}, {}, {}, env, false);
    EXPECT_EQ(after.exitCode, 2) << after.err;
    env.insert("PLIMSOLL_DB", "");
    const Result variable = plimsoll({"samples", "install"}, {}, {}, env, false);
    EXPECT_EQ(variable.exitCode, 2) << variable.err;
    EXPECT_TRUE(contains(variable.err, "PLIMSOLL_DB is set but empty")) << variable.err;
    EXPECT_TRUE(QDir(home + "/data").entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
}

// A directory given as the store is said to be one.
TEST_F(WriteFailures, DirectoryAsStoreIsNamed)
{
    QDir().mkpath(path("stores"));
    for (const char *command : {"runs", "import"}) {
        QStringList args{"--db", path("stores"), command};
        if (std::string(command) == "import")
            args << path("store.db");
        const Result r = plimsoll(args, {}, {}, QProcessEnvironment::systemEnvironment(), false);
        EXPECT_EQ(r.exitCode, 1) << r.err;
        EXPECT_TRUE(contains(r.err, path("stores").toStdString() + ": it is a directory, not a store file")) << r.err;
    }
}

// Numbers are decimal: hexadecimal, a '+', words for infinity are refused as usage errors.
TEST_F(WriteFailures, NumbersOtherThanDecimalAreRefused)
{
    const QList<QStringList> refused = {
        {"size", "--rate", "0x20k"},
        {"size", "--rate", "600k", "--replication", "0x3"},
        {"size", "--rate", "600k", "--headroom", "0x1p-2"},
        {"size", "--rate", "+600k"},
        {"size", "--rate", "600k", "--cpu-limit", "infinity"},
        {"size", "--rate", "600k", "--record-size", "0x400"},
    };
    for (const QStringList &args : refused) {
        SCOPED_TRACE(args.join(' ').toStdString());
        const Result r = plimsoll(args);
        EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    EXPECT_EQ(plimsoll({"size", "--rate", "6e5", "--replication", "3"}).exitCode, 0);
}

TEST_F(WriteFailures, ReversedFitRangeIsAUsageError)
{
    const Result r = plimsoll({"fit", "--scenarios", "pipeline/produce/", "--fit-range", "12:3"});
    EXPECT_EQ(r.exitCode, 2) << r.err;
    EXPECT_TRUE(contains(r.err, "--fit-range '12:3': A must not be above B")) << r.err;
    const Result hex = plimsoll({"fit", "--scenarios", "pipeline/produce/", "--fit-range", "0x1:12"});
    EXPECT_EQ(hex.exitCode, 2) << hex.err;
}

// Options that would be taken for nothing are refused: an empty --save, --local-retention
// without --tiered, a time with no zone (the manual promises a zone or a bare date).
TEST_F(WriteFailures, OptionsThatWouldDoNothingAreRefused)
{
    const Result save = plimsoll({"size", "--rate", "300k", "--save", ""});
    EXPECT_EQ(save.exitCode, 2) << save.out << save.err;
    EXPECT_TRUE(contains(save.err, "--save needs a name")) << save.err;
    EXPECT_TRUE(contains(plimsoll({"sizings", "--json"}).out, "\"sizings\": []")) << "nothing was saved";

    const Result local = plimsoll({"size", "--rate", "300k", "--local-retention", "5m"});
    EXPECT_EQ(local.exitCode, 2) << local.out << local.err;
    EXPECT_TRUE(contains(local.err, "--local-retention applies with --tiered only")) << local.err;
    EXPECT_TRUE(local.out.empty()) << local.out;
    EXPECT_EQ(plimsoll({"size", "--rate", "300k", "--tiered", "--local-retention", "5m"}).exitCode, 0);

    for (const QStringList &args : {QStringList{"runs", "--since", "2026-07-31T03:00:00"},
                                    QStringList{"export", "--format", "csv", "--out", "-", "--since", "2026-07-31 03:00"}}) {
        const Result r = plimsoll(args);
        EXPECT_EQ(r.exitCode, 2) << r.err;
        EXPECT_TRUE(contains(r.err, "has no time zone")) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    EXPECT_EQ(plimsoll({"runs", "--since", "2026-07-31T03:00:00+02:00"}).exitCode, 0);
    EXPECT_EQ(plimsoll({"runs", "--since", "2026-07-31"}).exitCode, 0);
}

// A store this user may read but not write (a read-only directory: no WAL index can be made
// beside it) is listed; one under a directory this user cannot enter is said to be that, not
// missing. Run as another user when the test runs as root (root passes every permission).
TEST_F(WriteFailures, ReadOnlyStoresAreReadAndUnreadableOnesNamed)
{
    QStringList launcher;
    if (::geteuid() == 0) {
        if (QStandardPaths::findExecutable("setpriv").isEmpty())
            GTEST_SKIP() << "running as root without setpriv: no user the permissions apply to";
        launcher = {"setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"};
    }
    auto asUser = [&](const QStringList &args) {
        QProcess p;
        QStringList full = launcher.isEmpty() ? args : launcher.mid(1) + QStringList{PLIMSOLL_BINARY} + args;
        p.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
        p.start(launcher.isEmpty() ? QString(PLIMSOLL_BINARY) : launcher.first(), full);
        EXPECT_TRUE(p.waitForFinished(60000));
        return Result{p.exitCode(), p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
    };
    QFile::setPermissions(m_dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                            QFileDevice::ReadOther | QFileDevice::ExeOther | QFileDevice::ReadGroup |
                                            QFileDevice::ExeGroup);
    const QFileDevice::Permissions readOnly = QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther;
    const QFileDevice::Permissions enterable = readOnly | QFileDevice::ExeOwner | QFileDevice::ExeGroup | QFileDevice::ExeOther;
    QDir().mkpath(path("shared"));
    ASSERT_TRUE(QFile::copy(db(), path("shared/team.db")));
    QFile::setPermissions(path("shared/team.db"), readOnly);
    QFile::setPermissions(path("shared"), enterable);
    const Result listed = asUser({"--db", path("shared/team.db"), "runs", "--json"});
    EXPECT_EQ(listed.exitCode, 0) << listed.err;
    EXPECT_TRUE(contains(listed.out, "sample:korvet-broker-scaling")) << listed.out;
    EXPECT_FALSE(contains(listed.err, "readonly")) << listed.err;
    EXPECT_EQ(QDir(path("shared")).entryList(QDir::Files), QStringList{"team.db"}) << "nothing written beside it";

    QDir().mkpath(path("private/inner"));
    ASSERT_TRUE(QFile::copy(db(), path("private/inner/mine.db")));
    QFile::setPermissions(path("private"), QFileDevice::Permissions());
    const Result hidden = asUser({"--db", path("private/inner/mine.db"), "runs"});
    QFile::setPermissions(path("private"), enterable | QFileDevice::WriteOwner);
    QFile::setPermissions(path("shared"), enterable | QFileDevice::WriteOwner);
    EXPECT_EQ(hidden.exitCode, 1) << hidden.err;
    EXPECT_TRUE(contains(hidden.err, "cannot open store " + path("private/inner/mine.db").toStdString() +
                                         ": Permission denied")) << hidden.err;
    EXPECT_FALSE(contains(hidden.err, "no store at")) << hidden.err;
}

// Counts in messages are grouped digits, never e-notation; one of a thing is singular.
TEST_F(WriteFailures, MessagesCountInWords)
{
    const Result huge = plimsoll({"size", "--rate", "900M"});
    EXPECT_EQ(huge.exitCode, 1) << huge.err;
    EXPECT_TRUE(contains(huge.err, "900,000,000 records/s needs 34,")) << huge.err;
    EXPECT_EQ(huge.err.find("e+"), std::string::npos) << huge.err;
    const Result one = plimsoll({"export", "--format", "jsonl", "--run", "sample:korvet-redis-flex", "--out", path("one.jsonl")});
    EXPECT_EQ(one.exitCode, 0) << one.err;
    EXPECT_TRUE(contains(one.err, "exported 1 run as jsonl")) << one.err;
    const Result oneBroker = plimsoll({"size", "--rate", "20k"});
    EXPECT_EQ(oneBroker.exitCode, 0) << oneBroker.err;
    EXPECT_TRUE(contains(oneBroker.out, "leaders on the one broker")) << oneBroker.out;
    EXPECT_FALSE(contains(oneBroker.out, "multiple of 1 brokers")) << oneBroker.out;
    const Result report = plimsoll({"report", "--rate", "30k", "--format", "md", "--out", path("r.md")});
    EXPECT_EQ(report.exitCode, 0) << report.err;
    EXPECT_TRUE(contains(report.out, "1 broker,")) << report.out;
}

// Refusals quote the value they refuse, and a filter that matches nothing is not an empty store.
TEST_F(WriteFailures, MessagesNameTheValueAndTheFilter)
{
    const Result alpha = plimsoll({"compare", "--alpha", "1.25", "--previous", "--current", "x"});
    EXPECT_EQ(alpha.exitCode, 2);
    EXPECT_TRUE(contains(alpha.err, "--alpha 1.25: must be above 0 and below 1")) << alpha.err;
    for (const char *target : {"embedded:0", "embedded:17", "embedded:3x", "embedded:+2"}) {
        const Result r = plimsoll({"bench", "--bootstrap-server", target, "--duration", "1s", "--no-store"});
        EXPECT_EQ(r.exitCode, 2) << target << r.err;
        EXPECT_TRUE(contains(r.err, std::string("'") + target + "'")) << r.err;
    }
    const Result none = plimsoll({"runs", "--scenario", "no-such-scenario-anywhere"});
    EXPECT_EQ(none.exitCode, 0) << none.err;
    EXPECT_TRUE(contains(none.out, "No runs match the filter (the store holds")) << none.out;
    EXPECT_FALSE(contains(none.out, "Import results")) << none.out;
    const Result exported = plimsoll({"export", "--format", "csv", "--scenario", "no-such-scenario-anywhere",
                                      "--out", path("none.csv")});
    EXPECT_EQ(exported.exitCode, 0) << exported.err;
    EXPECT_TRUE(contains(exported.err, "exported 0 runs as csv")) << exported.err;
    EXPECT_TRUE(contains(exported.err, "no run matches the filter; the store holds")) << exported.err;
    const Result changes = plimsoll({"changes", "--scenario", "no-such-scenario-anywhere", "--metric", "records_per_s"});
    EXPECT_EQ(changes.exitCode, 0) << changes.err;
    EXPECT_TRUE(contains(changes.out, "No series match --scenario 'no-such-scenario-anywhere' --metric "
                                      "'records_per_s' (the store holds"))
        << changes.out;
    EXPECT_FALSE(contains(changes.out, "0 change points")) << changes.out;
}

// A store whose pages are damaged: named as damaged, with the way forward, not SQLite's words alone.
TEST_F(WriteFailures, ADamagedStoreIsNamedWithTheWayForward)
{
    growStore();
    {
        QFile f(db());
        ASSERT_TRUE(f.open(QIODevice::ReadWrite));
        ASSERT_GT(f.size(), 64 * 4096);
        // Every page past the schema's overwritten: the tables' b-trees cannot be read.
        for (qint64 at = 8 * 4096; at + 4096 <= f.size(); at += 4096) {
            f.seek(at);
            f.write(QByteArray(4096, char(0xA5)));
        }
    }
    const Result r = plimsoll({"runs"});
    EXPECT_EQ(r.exitCode, 1) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "the store " + db().toStdString() + " is damaged")) << r.err;
    EXPECT_TRUE(contains(r.err, "restore it from a backup")) << r.err;
}

} // namespace
