#include "ui/widgets/savedsizingbuttons.h"

#include "ui/views/sizingview.h"
#include "ui/widgets/savedsizingsdialog.h"
#include "model/store/store.h"
#include "ui/latesttask.h"

#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>

namespace plimsoll {

namespace {

// The store is read and written off the UI thread (a team store may be across a network);
// `task` runs one request at a time for the row, and reports into `status`.
void save(SizingView *view, LatestTask *task, QLabel *status, const QString &name, bool replace)
{
    status->setText(QObject::tr("Saving “%1”…").arg(name));
    task->start(
        [path = view->storePath().toStdString(), sizing = savedSizingOf(*view, name.toStdString()), replace] {
            Store store(path);
            SavedSizings::save(store, sizing, replace);
            return true;
        },
        [view, status, name](bool) {
            status->setText(QObject::tr("Saved “%1” in the store.").arg(name));
            emit view->sharedSettingsChanged(); // the window's own write, not one made elsewhere
        },
        [status](const QString &error) { status->setText(error); });
}

void askReplace(SizingView *view, LatestTask *task, QWidget *row, QLabel *status, const QString &name,
                const SavedSizing &existing)
{
    auto *box = new QMessageBox(QMessageBox::Question, QObject::tr("Replace saved sizing"),
                                QObject::tr("A sizing named “%1” is already saved (%2, saved %3). Replace it?")
                                    .arg(name, QString::fromStdString(existing.rateText()),
                                         QString::fromStdString(existing.savedAt)),
                                QMessageBox::Cancel, row);
    box->setObjectName(QStringLiteral("confirmReplaceSizing"));
    QPushButton *replace = box->addButton(QObject::tr("Replace"), QMessageBox::DestructiveRole);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(box, &QMessageBox::buttonClicked, row, [view, task, status, name, replace](QAbstractButton *b) {
        if (b == replace)
            save(view, task, status, name, true);
        else
            status->setText(QObject::tr("Not saved: “%1” is kept as it was.").arg(name));
    });
    box->open();
}

// Asks before replacing a sizing saved under `name`; saves at once when there is none.
void saveOrConfirm(SizingView *view, LatestTask *task, QWidget *row, QLabel *status, const QString &name)
{
    if (const auto bad = SavedSizings::nameError(name.toStdString())) {
        status->setText(QString::fromStdString(*bad));
        return;
    }
    status->setText(QObject::tr("Looking for “%1” in the store…").arg(name));
    task->start(
        [path = view->storePath().toStdString(), n = name.toStdString()] {
            return SavedSizings::find(Store(path), n);
        },
        [view, task, row, status, name](const std::optional<SavedSizing> &existing) {
            if (existing)
                askReplace(view, task, row, status, name, *existing);
            else
                save(view, task, status, name, false);
        },
        [status](const QString &error) { status->setText(error); });
}

void askName(SizingView *view, LatestTask *task, QWidget *row, QLabel *status)
{
    auto *ask = new QInputDialog(row);
    ask->setObjectName(QStringLiteral("saveSizingName"));
    ask->setWindowTitle(QObject::tr("Save sizing"));
    ask->setLabelText(QObject::tr("Save the inputs and the runs they are sized from as:"));
    ask->setTextValue(QString::fromStdString(savedSizingOf(*view, "").rateText()));
    ask->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(ask, &QInputDialog::textValueSelected, row,
                     [view, task, row, status](const QString &name) { saveOrConfirm(view, task, row, status, name); });
    ask->open();
}

void openSaved(SizingView *view, QWidget *row, QLabel *status)
{
    auto *dialog = new SavedSizingsDialog(view->storePath(), row);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dialog, &SavedSizingsDialog::sizingRemoved, view, [view] { emit view->sharedSettingsChanged(); });
    QObject::connect(dialog, &SavedSizingsDialog::loadRequested, row, [view, status](const SavedSizing &s) {
        const QString note = loadSavedSizing(*view, s);
        status->setText(QObject::tr("Loaded “%1”.").arg(QString::fromStdString(s.name)) +
                        (note.isEmpty() ? QString() : QStringLiteral(" ") + note));
    });
    dialog->open();
}

} // namespace

SavedSizing savedSizingOf(const SizingView &view, const std::string &name)
{
    SavedSizing s;
    s.name = name;
    s.inputs = view.inputs();
    s.evidence = view.evidenceSelection();
    return s; // the view fits at the default CPU limit, which SavedSizing holds
}

QString loadSavedSizing(SizingView &view, const SavedSizing &saved)
{
    view.setInputs(saved.inputs);
    if (!(view.evidenceSelection() == saved.evidence))
        view.setEvidenceSelection(saved.evidence);
    // A sizing saved on the command line may set what the view has no field for (the topic,
    // the trim tick, node RAM) or finer than its fields step (retention in whole seconds): say
    // so rather than let the view's numbers pass for the saved sizing's.
    const SizingInputs shown = view.inputs();
    const SizingInputs &in = saved.inputs;
    const std::pair<bool, const char *> fields[] = {
        {shown.rate != in.rate || shown.bytesPerS != in.bytesPerS, "rate"},
        {shown.recordBytes != in.recordBytes, "record size"},
        {shown.compressionRatio != in.compressionRatio, "compression"},
        {shown.retentionS != in.retentionS, "retention"},
        {shown.replication != in.replication, "replication"},
        {shown.p99Budget != in.p99Budget, "p99 budget"},
        {shown.headroom != in.headroom, "headroom"},
        {shown.localRetentionS != in.localRetentionS && in.tiered, "local retention"},
        {shown.trimTickS != in.trimTickS, "trim tick"},
        {shown.topic != in.topic, "topic"},
        {shown.keyPattern != in.keyPattern, "key pattern"},
        {shown.shardsPerNode != in.shardsPerNode, "shards per node"},
        {shown.nodeRamBytes != in.nodeRamBytes || shown.nodeRamUsable != in.nodeRamUsable, "node RAM"},
        {saved.cpuLimit != SizingModelOptions{}.cpuLimit, "CPU limit"},
    };
    QStringList differ;
    for (const auto &[differs, name] : fields)
        if (differs)
            differ << QString::fromLatin1(name);
    if (differ.isEmpty())
        return {};
    return QObject::tr("The Sizing view cannot show its %1 as saved; `plimsoll sizings compare` sizes it "
                       "with them.")
        .arg(differ.join(QStringLiteral(", ")));
}

QWidget *makeSavedSizingButtons(SizingView *view)
{
    auto *row = new QWidget;
    row->setObjectName(QStringLiteral("savedSizingButtons"));
    auto *save = new QPushButton(QObject::tr("Save sizing…"));
    save->setObjectName(QStringLiteral("saveSizingButton"));
    save->setToolTip(QObject::tr("Keep these inputs and runs under a name, to compare with others"));
    auto *open = new QPushButton(QObject::tr("Saved sizings…"));
    open->setObjectName(QStringLiteral("savedSizingsButton"));
    auto *status = new QLabel;
    status->setObjectName(QStringLiteral("savedSizingStatus"));
    status->setWordWrap(true);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(save);
    layout->addWidget(open);
    layout->addWidget(status, 1);
    auto *task = new LatestTask(row);
    QObject::connect(save, &QPushButton::clicked, row, [view, task, row, status] { askName(view, task, row, status); });
    QObject::connect(open, &QPushButton::clicked, row, [view, row, status] { openSaved(view, row, status); });
    return row;
}

} // namespace plimsoll
