// Saved sizings in the window, over a store holding the sample runs: the dialog compares two
// saved sizings side by side (sized off the UI thread), removes one after asking, and loads one
// back into the Sizing view; "Save sizing…" saves the view's inputs and asks before replacing.
#include "importers/samples.h"
#include "model/store/savedsizing.h"
#include "model/store/store.h"
#include "ui/views/sizingview.h"
#include "ui/widgets/ratefield.h"
#include "ui/widgets/savedsizingbuttons.h"
#include "ui/widgets/savedsizingsdialog.h"
#include "uitestsupport.h"

#include <gtest/gtest.h>

#include <QCheckBox>
#include <QDir>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>

using namespace plimsoll;
using plimsoll::test::clickButtonNamed;
using plimsoll::test::waitUntil;

namespace {

SavedSizing named(const std::string &name, double rate)
{
    SavedSizing s;
    s.name = name;
    s.inputs.rate = rate;
    return s;
}

class SavedSizingsUi : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("store.plimsoll"));
        Store store(m_path.toStdString());
        for (const auto &r : installSamples(store))
            ASSERT_NE(r.status, "failed") << r.uri;
    }
    std::string path() const { return m_path.toStdString(); }
    // The store as another process would read it now.
    void save(const SavedSizing &s) const
    {
        Store store(path());
        SavedSizings::save(store, s, false);
    }
    std::vector<SavedSizing> saved() const { return SavedSizings::list(Store(path())); }
    std::optional<SavedSizing> find(const std::string &name) const { return SavedSizings::find(Store(path()), name); }
    // The brokers the sizing engine gives for `s` on this store, asked directly.
    int brokersOf(const SavedSizing &s) const
    {
        const SizingResult r = sizeSaved(Store(path()), s);
        EXPECT_TRUE(r.ok) << r.error;
        return r.brokers;
    }
    QTemporaryDir m_dir;
    QString m_path;
};

int rowOf(const QTableWidget &table, const QString &label)
{
    for (int r = 0; r < table.rowCount(); ++r)
        if (table.verticalHeaderItem(r) && table.verticalHeaderItem(r)->text() == label)
            return r;
    return -1;
}

// The open dialog named `name` under `parent` (a closed one may await its deferred delete).
template <typename T> T *openChild(QObject *parent, const QString &name)
{
    for (T *child : parent->findChildren<T *>(name))
        if (child->isVisible())
            return child;
    return nullptr;
}

} // namespace

TEST_F(SavedSizingsUi, CompareShowsBothSideBySide)
{
    save(named("600k now", 600e3));
    save(named("1.2M next year", 1.2e6));
    SavedSizingsDialog dialog(m_path);
    QSignalSpy listed(&dialog, &SavedSizingsDialog::listed);
    dialog.show();
    EXPECT_EQ(dialog.statusLabel()->text(), QStringLiteral("Reading the saved sizings…")) << "read off the UI thread";
    ASSERT_TRUE(listed.wait(10000));
    ASSERT_EQ(dialog.sizingList()->count(), 2);
    EXPECT_FALSE(dialog.compareButton()->isEnabled()) << "nothing checked yet";
    ASSERT_TRUE(dialog.setChecked(QStringLiteral("600k now"), true));
    EXPECT_FALSE(dialog.compareButton()->isEnabled()) << "one is no comparison";
    ASSERT_TRUE(dialog.setChecked(QStringLiteral("1.2M next year"), true));
    ASSERT_TRUE(dialog.compareButton()->isEnabled());

    QSignalSpy ready(&dialog, &SavedSizingsDialog::comparisonReady);
    dialog.compareButton()->click();
    ASSERT_TRUE(ready.wait(30000)) << dialog.statusLabel()->text().toStdString();
    const QTableWidget &table = *dialog.comparisonTable();
    ASSERT_EQ(table.columnCount(), 2);
    QStringList header;
    for (int c = 0; c < table.columnCount(); ++c)
        header << table.horizontalHeaderItem(c)->text();
    // The list is sorted by name: "1.2M next year" before "600k now".
    EXPECT_EQ(header, (QStringList{QStringLiteral("1.2M next year"), QStringLiteral("600k now")}));
    const int brokers = rowOf(table, QStringLiteral("Korvet brokers"));
    ASSERT_GE(brokers, 0);
    const int later = brokersOf(named("1.2M next year", 1.2e6)), now = brokersOf(named("600k now", 600e3));
    EXPECT_EQ(table.item(brokers, 0)->text(), QString::number(later));
    EXPECT_EQ(table.item(brokers, 1)->text(), QString::number(now));
    EXPECT_NE(later, now);
    for (const char *label : {"Target rate", "Redis shards", "Partitions", "Redis memory (total)", "Bottleneck",
                              "Broker count from"})
        EXPECT_GE(rowOf(table, QString::fromLatin1(label)), 0) << label;
    EXPECT_LT(rowOf(table, QStringLiteral("Flex RAM")), 0) << "no Flex asked for: no Flex row";

    // For a person to look at.
    QDir().mkpath(QStringLiteral(PLIMSOLL_ARTIFACT_DIR));
    dialog.resize(900, 560);
    QTest::qWait(50);
    EXPECT_TRUE(dialog.grab().save(QStringLiteral(PLIMSOLL_ARTIFACT_DIR "/saved-sizings-compare.png")));
}

TEST_F(SavedSizingsUi, RemoveAsksFirst)
{
    save(named("a", 600e3));
    save(named("b", 700e3));
    SavedSizingsDialog dialog(m_path);
    QSignalSpy listed(&dialog, &SavedSizingsDialog::listed);
    ASSERT_TRUE(listed.wait(10000));
    dialog.sizingList()->setCurrentRow(0);
    ASSERT_TRUE(dialog.removeButton()->isEnabled());

    dialog.removeButton()->click();
    auto *confirm = openChild<QMessageBox>(&dialog, QStringLiteral("confirmRemoveSizing"));
    ASSERT_NE(confirm, nullptr);
    EXPECT_TRUE(confirm->text().contains(QStringLiteral("“a”"))) << confirm->text().toStdString();
    ASSERT_TRUE(clickButtonNamed(*confirm, QStringLiteral("Cancel")));
    EXPECT_EQ(saved().size(), 2u);

    dialog.removeButton()->click();
    confirm = openChild<QMessageBox>(&dialog, QStringLiteral("confirmRemoveSizing"));
    ASSERT_NE(confirm, nullptr);
    ASSERT_TRUE(clickButtonNamed(*confirm, QStringLiteral("Remove")));
    ASSERT_TRUE(listed.wait(10000));
    ASSERT_EQ(saved().size(), 1u);
    EXPECT_EQ(saved()[0].name, "b");
    EXPECT_EQ(dialog.sizingList()->count(), 1);
    EXPECT_EQ(dialog.statusLabel()->text(), QStringLiteral("Removed “a”."));
}

TEST_F(SavedSizingsUi, SaveFromTheViewAndLoadBack)
{
    SizingView view(m_path);
    view.reload();
    ASSERT_TRUE(waitUntil([&] { return view.modelsReady() && view.result().ok; }));
    QWidget *row = makeSavedSizingButtons(&view);
    row->setParent(&view);
    auto *status = row->findChild<QLabel *>(QStringLiteral("savedSizingStatus"));
    ASSERT_NE(status, nullptr);

    view.rateField()->setText(QStringLiteral("1.2M"));
    auto saveAs = [&](const QString &name) {
        row->findChild<QPushButton *>(QStringLiteral("saveSizingButton"))->click();
        auto *ask = openChild<QInputDialog>(row, QStringLiteral("saveSizingName"));
        EXPECT_NE(ask, nullptr);
        if (!ask)
            return;
        EXPECT_EQ(ask->textValue(), QStringLiteral("1.2M records/s")) << "the rate as a suggestion";
        ask->setTextValue(name);
        ask->accept();
    };
    // The store is read and written in the background: the row says when it is done.
    auto settled = [&] {
        return waitUntil([&] {
            return !status->text().endsWith(QStringLiteral("…")) && !status->text().isEmpty();
        });
    };
    saveAs(QStringLiteral("next year"));
    ASSERT_TRUE(settled());
    EXPECT_EQ(status->text(), QStringLiteral("Saved “next year” in the store."));
    auto kept = find("next year");
    ASSERT_TRUE(kept) << status->text().toStdString();
    EXPECT_EQ(kept->inputs, view.inputs());
    EXPECT_EQ(kept->evidence, view.evidenceSelection());

    // The same name again: asked first; Cancel keeps the saved one.
    view.rateField()->setText(QStringLiteral("1.2M"));
    view.nodeLossCheck()->setChecked(true);
    saveAs(QStringLiteral("next year"));
    QMessageBox *replace = nullptr;
    ASSERT_TRUE(waitUntil([&] { return (replace = openChild<QMessageBox>(row, QStringLiteral("confirmReplaceSizing"))); }));
    ASSERT_TRUE(clickButtonNamed(*replace, QStringLiteral("Cancel")));
    EXPECT_FALSE(find("next year")->inputs.tolerateNodeLoss);
    saveAs(QStringLiteral("next year"));
    ASSERT_TRUE(waitUntil([&] { return (replace = openChild<QMessageBox>(row, QStringLiteral("confirmReplaceSizing"))); }));
    ASSERT_TRUE(clickButtonNamed(*replace, QStringLiteral("Replace")));
    ASSERT_TRUE(settled());
    EXPECT_TRUE(find("next year")->inputs.tolerateNodeLoss);

    // Load puts the saved rate back into the view, which sizes it again.
    view.rateField()->setText(QStringLiteral("150k"));
    view.nodeLossCheck()->setChecked(false);
    ASSERT_EQ(view.resultText("brokers"), QStringLiteral("1"));
    row->findChild<QPushButton *>(QStringLiteral("savedSizingsButton"))->click();
    auto *dialog = row->findChild<SavedSizingsDialog *>(QStringLiteral("savedSizingsDialog"));
    ASSERT_NE(dialog, nullptr);
    ASSERT_TRUE(waitUntil([&] { return dialog->sizingList()->count() == 1; }));
    dialog->sizingList()->setCurrentRow(0);
    dialog->loadButton()->click();
    EXPECT_EQ(view.rateField()->text(), QStringLiteral("1.2M"));
    EXPECT_TRUE(view.inputs().tolerateNodeLoss);
    EXPECT_EQ(view.inputs(), find("next year")->inputs);
    EXPECT_EQ(view.result().brokers, sizeSaved(Store(path()), *find("next year")).brokers);
    EXPECT_TRUE(status->text().contains(QStringLiteral("Loaded “next year”"))) << status->text().toStdString();
}
