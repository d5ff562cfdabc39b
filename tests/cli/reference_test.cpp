// The reference in docs/reference/ is what the binary prints: docs/generate-reference.sh (the
// build's `reference` target) writes every subcommand's --help, `plimsoll metrics --json` and
// `plimsoll formats --json` there, and these tests fail while the committed files differ from a
// fresh run of it, or while it leaves a command out.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

namespace {

const QString kSource = QStringLiteral(PLIMSOLL_TEST_DATA_DIR "/../..");

QString readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// The reference as the binary prints it now, into `dir`.
void generate(const QTemporaryDir &dir)
{
    QProcess p;
    p.start(QStringLiteral("bash"), {kSource + "/docs/generate-reference.sh", PLIMSOLL_BINARY, dir.path()});
    ASSERT_TRUE(p.waitForFinished(120000));
    ASSERT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
}

} // namespace

TEST(Reference, CommittedReferenceIsWhatTheBinaryPrints)
{
    QTemporaryDir fresh;
    ASSERT_NO_FATAL_FAILURE(generate(fresh));
    const QStringList files = QDir(fresh.path()).entryList(QDir::Files, QDir::Name);
    EXPECT_EQ(files, (QStringList{"commands.md", "formats.json", "metrics.json"}));
    EXPECT_EQ(QDir(kSource + "/docs/reference").entryList(QDir::Files, QDir::Name), files)
        << "docs/reference/ holds files the generator does not write, or lacks some";
    for (const QString &name : files) {
        const QString printed = readAll(fresh.filePath(name));
        const QString committed = readAll(kSource + "/docs/reference/" + name);
        ASSERT_FALSE(printed.isEmpty()) << name.toStdString();
        if (committed == printed)
            continue;
        // The first line that differs, to say what changed.
        const QStringList a = committed.split('\n'), b = printed.split('\n');
        qsizetype line = 0;
        while (line < a.size() && line < b.size() && a[line] == b[line])
            ++line;
        ADD_FAILURE() << "docs/reference/" << name.toStdString()
                      << " differs from what the binary prints (regenerate it: `make reference`, or "
                         "`cmake --build build --target reference`); first difference at line "
                      << line + 1 << ":\n  committed: " << a.value(line).toStdString()
                      << "\n  printed:   " << b.value(line).toStdString();
    }
}

// Every subcommand `plimsoll --help` lists, and every workload of bench, has its section, with
// its options.
TEST(Reference, EveryCommandHasItsHelpInTheReference)
{
    const QString commands = readAll(kSource + "/docs/reference/commands.md");
    ASSERT_FALSE(commands.isEmpty());
    QProcess p;
    p.start(PLIMSOLL_BINARY, {"--help"});
    ASSERT_TRUE(p.waitForFinished(30000));
    const QString help = QString::fromUtf8(p.readAllStandardOutput());
    const qsizetype listed = help.indexOf("Subcommands:");
    ASSERT_GE(listed, 0) << help.toStdString();
    static const QRegularExpression subcommand(QStringLiteral(R"(\n  ([a-z]+)[ ,])"));
    int found = 0;
    for (auto m = subcommand.globalMatch(help.mid(listed)); m.hasNext();) {
        const QString name = m.next().captured(1);
        EXPECT_TRUE(commands.contains("\n## plimsoll " + name + "\n")) << "no section for `plimsoll " << name.toStdString() << "`";
        ++found;
    }
    EXPECT_GT(found, 15);
    for (const char *workload : {"producer", "consumer", "roundtrip", "ramp", "probe", "offload", "merge"})
        EXPECT_TRUE(commands.contains(QStringLiteral("\n## plimsoll bench %1\n").arg(workload))) << workload;
    for (const char *option : {"--tolerate-node-loss", "--fail-on-regression", "--agents-steps", "--scrapes"})
        EXPECT_TRUE(commands.contains(option)) << option;
}

// The metrics catalogue states each metric's unit and domain; the formats, how each is detected.
TEST(Reference, MetricsAndFormatsCarryUnitsDomainsAndDetection)
{
    const auto metrics = nlohmann::json::parse(readAll(kSource + "/docs/reference/metrics.json").toStdString());
    const auto formats = nlohmann::json::parse(readAll(kSource + "/docs/reference/formats.json").toStdString());
    ASSERT_FALSE(metrics.empty());
    ASSERT_FALSE(formats.empty());
    const std::string m = metrics.dump(), f = formats.dump();
    for (const char *word : {"records_per_s", "latency_p99_s", "domain", "unit"})
        EXPECT_NE(m.find(word), std::string::npos) << word << " not in metrics.json";
    for (const char *word : {"korvet-result", "prometheus", "plimsoll-trend", "memtier"})
        EXPECT_NE(f.find(word), std::string::npos) << word << " not in formats.json";
}
