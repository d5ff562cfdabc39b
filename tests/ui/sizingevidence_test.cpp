// The runs a sizing rests on, chosen in the Sizing view as on the command line (--run, the
// filters, --samples), and the skew target: each test drives the window and the real CLI with
// the same choices and finds the same numbers.
#include "model/sizing/sizing.h"
#include "ui/views/sizingview.h"
#include "ui/widgets/evidencedialog.h"
#include "sizingtestsupport.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalSpy>
#include <QTextBrowser>

using namespace plimsoll;
using plimsoll::test::cliSize;
using plimsoll::test::savePng;
using plimsoll::test::waitUntil;

namespace {

class SizingEvidence : public plimsoll::test::SampleStoreTest
{
};

} // namespace

namespace {

// A ramp of one's own: the sample produce ramp re-keyed as a run of 2026-11-30, not a sample,
// with twice the shard CPU per record (so it sizes to more shards than the samples do).
QString writeOwnRamp(const QString &dir)
{
    QFile in(QStringLiteral(":/samples/pipeline-produce-2026-08-11.jsonl"));
    EXPECT_TRUE(in.open(QIODevice::ReadOnly));
    const QString path = QDir(dir).filePath(QStringLiteral("own-ramp.jsonl"));
    QFile out(path);
    EXPECT_TRUE(out.open(QIODevice::WriteOnly));
    for (const QByteArray &line : in.readAll().split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        nlohmann::json j = nlohmann::json::parse(line.toStdString());
        j["run_key"] = "own:produce-2026-11-30";
        j["timestamp"] = "2026-11-30T02:00:00Z";
        j["sample"] = false;
        j.erase("provenance");
        if (j["metrics"].contains("shard_cpu_max"))
            j["metrics"]["shard_cpu_max"] = j["metrics"]["shard_cpu_max"].get<double>() * 2;
        out.write(QByteArray::fromStdString(j.dump()) + '\n');
    }
    return path;
}

// Every line of a sizing as the window shows it and as `plimsoll size --json` prints it.
void expectSameLines(const SizingView &view, const nlohmann::json &cli, const char *what)
{
    ASSERT_TRUE(cli.is_object()) << what;
    ASSERT_EQ(view.result().lines.size(), cli["lines"].size()) << what;
    for (size_t i = 0; i < view.result().lines.size(); ++i) {
        EXPECT_EQ(view.result().lines[i].key, cli["lines"][i]["key"].get<std::string>()) << what;
        EXPECT_EQ(view.result().lines[i].display, cli["lines"][i]["display"].get<std::string>())
            << what << " " << view.result().lines[i].key;
    }
}

} // namespace

// The runs a sizing rests on, chosen in the window and given to the CLI as --run / --samples:
// one test drives both and finds the same numbers. Once the store holds a ramp of one's own it
// replaces the sample runs for what it measures, visibly at each number, and a toggle pools or
// leaves them out.
TEST_F(SizingEvidence, EvidenceChosenInTheWindowSizesAsTheCommandLine)
{
    {
        QProcess p;
        p.start(QStringLiteral(PLIMSOLL_BINARY),
                {QStringLiteral("--db"), m_path, QStringLiteral("import"), writeOwnRamp(m_dir.path())});
        ASSERT_TRUE(p.waitForFinished(60000));
        ASSERT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
    }
    SizingView view(m_path);
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.modelsReady() && view.result().ok; }));
    EXPECT_EQ(view.evidence().samplesLeftOut, 0);
    const QString evidence = view.evidenceLabel()->text();
    EXPECT_TRUE(evidence.contains(QStringLiteral("Sizing from 7 runs (every run)"))) << evidence.toStdString();
    EXPECT_TRUE(evidence.contains(QStringLiteral("1 run of your own with sizing evidence replaces the 6 sample runs")))
        << evidence.toStdString();
    EXPECT_EQ(view.resultEvidence(QStringLiteral("shards")), QStringLiteral("own runs"));
    expectSameLines(view, cliSize(m_path, {QStringLiteral("--rate"), QStringLiteral("600k")}), "auto");
    const int ownShards = view.result().shards;
    EXPECT_GT(ownShards, 24); // twice the CPU per record of the samples' 24

    // Picked by hand in the chooser: the samples' produce ramp and its memory run.
    view.chooseRuns();
    auto *dialog = view.findChild<EvidenceDialog *>();
    ASSERT_NE(dialog, nullptr);
    ASSERT_TRUE(waitUntil([&] { return dialog->runsListed(); }));
    EXPECT_EQ(dialog->runList()->count(), 7);
    EXPECT_EQ(dialog->countLabel()->text(), QStringLiteral("7 runs in the store, 6 of them sample runs."));
    dialog->setMode(EvidenceDialog::Picked);
    EXPECT_FALSE(dialog->isValid()); // nothing checked yet
    EXPECT_FALSE(dialog->findChild<QLabel *>(QStringLiteral("runSelectionProblem"))->text().isEmpty());
    const std::string picked[] = {"sample:korvet-pipeline-produce-2026-08-11", "sample:korvet-optimal-configuration"};
    for (const std::string &key : picked)
        ASSERT_TRUE(dialog->checkRun(key)) << key;
    EXPECT_EQ(dialog->countLabel()->text(), QStringLiteral("2 runs picked."));
    QSignalSpy loaded(&view, &SizingView::modelsLoaded);
    dialog->accept();
    ASSERT_TRUE(waitUntil([&] { return loaded.count() > 0; }));
    EXPECT_EQ(view.evidence().runs.size(), 2u);
    EXPECT_TRUE(view.evidenceLabel()->text().contains(QStringLiteral("2 runs picked by hand")))
        << view.evidenceLabel()->text().toStdString();
    expectSameLines(view,
                    cliSize(m_path, {QStringLiteral("--rate"), QStringLiteral("600k"), QStringLiteral("--run"),
                                     QString::fromStdString(picked[0]), QStringLiteral("--run"),
                                     QString::fromStdString(picked[1])}),
                    "picked");
    EXPECT_EQ(view.resultText("shards"), "24");

    // By filter: the runs since 2026-11-01 (the own ramp only), then every run with the samples
    // included by the toggle on the view.
    view.setEvidenceSelection({});
    ASSERT_TRUE(waitUntil([&] { return loaded.count() > 1; }));
    view.chooseRuns();
    dialog = view.findChildren<EvidenceDialog *>().last();
    dialog->setMode(EvidenceDialog::Filter);
    dialog->filterField("since")->setText(QStringLiteral("2026-13-01"));
    EXPECT_FALSE(dialog->isValid());
    dialog->filterField("since")->setText(QStringLiteral("2026-11-01"));
    // The count follows the filter once typing settles (an earlier count may land first).
    EXPECT_TRUE(waitUntil([&] {
        return dialog->countLabel()->text() == QStringLiteral("The filter selects 1 run, 0 of them sample runs.");
    })) << dialog->countLabel()->text().toStdString();
    dialog->accept();
    ASSERT_TRUE(waitUntil([&] { return loaded.count() > 2; }));
    expectSameLines(view,
                    cliSize(m_path, {QStringLiteral("--rate"), QStringLiteral("600k"), QStringLiteral("--since"),
                                     QStringLiteral("2026-11-01")}),
                    "since");
    view.setEvidenceSelection({});
    ASSERT_TRUE(waitUntil([&] { return loaded.count() > 3; }));
    view.samplesCombo()->setCurrentIndex(view.samplesCombo()->findData(int(SampleRuns::Include)));
    ASSERT_TRUE(waitUntil([&] { return loaded.count() > 4; }));
    EXPECT_EQ(view.evidence().runs.size(), 7u);
    expectSameLines(view,
                    cliSize(m_path, {QStringLiteral("--rate"), QStringLiteral("600k"), QStringLiteral("--samples"),
                                     QStringLiteral("include")}),
                    "samples included");
    savePng(&view, QStringLiteral("sizing-evidence-1024x700.png"), {1024, 700});
}

// The skew target, typed in the window as on the CLI (--skew-target): one no count can meet
// shows its caveat where the numbers are, and the sizing equals the command line's.
TEST_F(SizingEvidence, SkewTargetShowsItsCaveatAndSizesAsTheCommandLine)
{
    SizingView view(m_path);
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.modelsReady() && view.result().ok; }));
    auto *skew = view.findChild<QDoubleSpinBox *>(QStringLiteral("skewTargetSpin"));
    ASSERT_NE(skew, nullptr);
    EXPECT_EQ(skew->text(), QStringLiteral("as measured"));
    EXPECT_EQ(view.inputs().skewTarget, 0);
    EXPECT_EQ(view.resultText("partitions"), "96");
    skew->setValue(1.05);
    EXPECT_TRUE(view.caveatsLabel()->text().contains(QStringLiteral("is above the target 1.05")))
        << view.caveatsLabel()->text().toStdString();
    expectSameLines(view, cliSize(m_path, {QStringLiteral("--rate"), QStringLiteral("600k"),
                                           QStringLiteral("--skew-target"), QStringLiteral("1.05")}),
                    "skew 1.05");
    skew->setValue(skew->minimum());
    EXPECT_EQ(view.resultText("partitions"), "96");
    EXPECT_FALSE(view.caveatsLabel()->text().contains(QStringLiteral("is above the target")));
}

// A hash-tagged key pattern typed in the window: the numbers it breaks carry the mark and the
// words at them (the shard count, the partitions, the hottest shard's CPU), the caveats panel says
// it, and the numbers are the command line's.
TEST_F(SizingEvidence, AHashTaggedPatternIsWarnedAtTheNumbersAsOnTheCommandLine)
{
    SizingView view(m_path);
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.modelsReady() && view.result().ok; }));
    EXPECT_FALSE(view.resultText(QStringLiteral("partitions")).endsWith(QStringLiteral("⚠")));
    view.keyPatternEdit()->setText(QStringLiteral("{logs}:{partition}"));
    ASSERT_TRUE(view.result().ok);
    for (const char *key : {"shards", "partitions", "shard_cpu"})
        EXPECT_TRUE(view.resultText(QString::fromLatin1(key)).endsWith(QStringLiteral(" ⚠"))) << key;
    EXPECT_TRUE(view.caveats().join('\n').contains(QStringLiteral("every one of the")))
        << view.caveats().join('\n').toStdString();
    EXPECT_TRUE(view.reasoningPanel()->toPlainText().contains(QStringLiteral("share the hash tag {logs}")));
    EXPECT_EQ(view.resultEvidence(QStringLiteral("shards")), QStringLiteral("samples"));
    const nlohmann::json cli =
        cliSize(m_path, {QStringLiteral("--rate"), QStringLiteral("600k"), QStringLiteral("--key-pattern"),
                         QStringLiteral("{logs}:{partition}")});
    expectSameLines(view, cli, "hash tag");
    for (size_t i = 0; i < view.result().lines.size(); ++i)
        EXPECT_EQ(view.result().lines[i].caveat, cli["lines"][i]["caveat"].is_null()
                                                     ? std::string()
                                                     : cli["lines"][i]["caveat"].get<std::string>());
    savePng(&view, QStringLiteral("sizing-hash-tag-1024x700.png"), {1024, 700});
}
