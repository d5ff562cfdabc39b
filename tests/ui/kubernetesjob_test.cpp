// The Bench view's "Kubernetes Job…": the form's run written as an Indexed Job of its agents,
// with what the dialog asks, and the commands that run it shown to copy.
#include "ui/views/benchview.h"
#include "ui/views/kubernetesjobdialog.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <fstream>

namespace plimsoll {
namespace {

using test::waitUntil;

void type(QWidget *dialog, const char *name, const QString &text)
{
    auto *edit = dialog->findChild<QLineEdit *>(QString::fromLatin1(name));
    ASSERT_NE(edit, nullptr) << name;
    edit->setText(text);
}

TEST(BenchKubernetes, TheFormsRunIsWrittenAsAJobOfItsAgentsAndTheDialogRemembersItsEntries)
{
    QTemporaryDir dir;
    BenchView view(dir.filePath("store.db"));
    view.resize(1024, 700);
    view.show();
    view.setBootstrapServers(QStringLiteral("kafka.bench.svc:9092"));
    qobject_cast<QSpinBox *>(view.field(QStringLiteral("benchAgents")))->setValue(8);
    view.findChild<QPushButton *>(QStringLiteral("benchKubernetes"))->click();
    auto *dialog = view.findChild<KubernetesJobDialog *>();
    ASSERT_NE(dialog, nullptr) << view.statusText().toStdString();
    EXPECT_EQ(dialog->windowTitle(), "Kubernetes Job of 8 agents");
    type(dialog, "kubernetesImage", "registry.example/plimsoll:1.0");
    type(dialog, "kubernetesSecret", "kafka-client");
    type(dialog, "kubernetesCpu", "2");
    type(dialog, "kubernetesMemory", "1Gi");
    type(dialog, "kubernetesNodeSelectors", "pool=bench, zone=a");
    const QString out = dir.filePath("manifests");
    type(dialog, "kubernetesDir", out);
    dialog->findChild<QPushButton *>(QStringLiteral("kubernetesWrite"))->click();
    // Written off the UI thread: the dialog says so when it is done.
    ASSERT_TRUE(waitUntil([&] { return dialog->report().contains("kubectl apply"); }))
        << dialog->findChild<QLabel *>(QStringLiteral("kubernetesStatus"))->text().toStdString();
    EXPECT_TRUE(dialog->report().contains("plimsoll bench merge plimsoll-"));
    EXPECT_TRUE(dialog->report().contains("kubectl delete job"));
    const auto files = QDir(out).entryList({"plimsoll-*.json"});
    ASSERT_EQ(files.size(), 1);
    std::ifstream in(QDir(out).filePath(files[0]).toStdString());
    const auto job = nlohmann::json::parse(in);
    EXPECT_EQ(job["spec"]["parallelism"], 8);
    EXPECT_EQ(job["spec"]["completions"], 8);
    const auto &pod = job["spec"]["template"]["spec"];
    EXPECT_EQ(pod["nodeSelector"]["pool"], "bench");
    EXPECT_EQ(pod["nodeSelector"]["zone"], "a");
    EXPECT_EQ(pod["containers"][0]["resources"]["requests"]["memory"], "1Gi");
    const std::string args = pod["containers"][0]["args"].dump();
    EXPECT_NE(args.find("\"--agents\",\"8\""), std::string::npos) << args;
    EXPECT_NE(args.find("\"kafka.bench.svc:9092\""), std::string::npos) << args;
    EXPECT_NE(job.dump().find("\"secretName\":\"kafka-client\""), std::string::npos);
    EXPECT_TRUE(dialog->grab().save(QStringLiteral(PLIMSOLL_ARTIFACT_DIR "/bench-kubernetes-dialog.png")));
    dialog->close();
    ASSERT_TRUE(waitUntil([&] { return view.findChild<KubernetesJobDialog *>() == nullptr; }));

    // Opened again: what was written before is there to change.
    view.findChild<QPushButton *>(QStringLiteral("benchKubernetes"))->click();
    dialog = view.findChild<KubernetesJobDialog *>();
    ASSERT_NE(dialog, nullptr);
    EXPECT_EQ(dialog->findChild<QLineEdit *>(QStringLiteral("kubernetesImage"))->text(), "registry.example/plimsoll:1.0");
    EXPECT_EQ(dialog->findChild<QLineEdit *>(QStringLiteral("kubernetesNodeSelectors"))->text(), "pool=bench, zone=a");
    // A refusal is said in the dialog, and nothing is written.
    type(dialog, "kubernetesImage", "");
    dialog->findChild<QPushButton *>(QStringLiteral("kubernetesWrite"))->click();
    auto *status = dialog->findChild<QLabel *>(QStringLiteral("kubernetesStatus"));
    ASSERT_TRUE(waitUntil([&] { return status->text().startsWith("image must be named"); })) << status->text().toStdString();
    EXPECT_EQ(QDir(out).entryList({"plimsoll-*.json"}).size(), 1);
}

TEST(BenchKubernetes, ARunNoFleetCanBeIsRefusedWithTheCommandLinesWords)
{
    QTemporaryDir dir;
    BenchView view(dir.filePath("store.db"));
    view.findChild<QCheckBox *>(QStringLiteral("benchEmbedded"))->setChecked(true);
    view.findChild<QPushButton *>(QStringLiteral("benchKubernetes"))->click();
    EXPECT_EQ(view.findChild<KubernetesJobDialog *>(), nullptr);
    EXPECT_TRUE(view.statusText().startsWith("--agents needs a real cluster")) << view.statusText().toStdString();
}

} // namespace
} // namespace plimsoll
