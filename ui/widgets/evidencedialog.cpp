#include "ui/widgets/evidencedialog.h"

#include <QComboBox>

#include "ui/latesttask.h"
#include "ui/widgets/runselectionwidget.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace plimsoll {

namespace {

// The newest runs listed for picking; older ones are reached with the filter.
constexpr int64_t kListedRuns = 20000;

struct Listed
{
    std::vector<RunSummary> runs;
    int64_t storeRuns = 0;
    int64_t storeSamples = 0;
};

struct FilterCount
{
    int64_t runs = 0;
    int64_t samples = 0;
};

QString runsText(int64_t n)
{
    return n == 1 ? EvidenceDialog::tr("1 run") : EvidenceDialog::tr("%1 runs").arg(QLocale().toString(qlonglong(n)));
}

} // namespace

EvidenceDialog::EvidenceDialog(const QString &storePath, const EvidenceSelection &initial, QWidget *parent)
    : QDialog(parent), m_storePath(storePath), m_initial(initial)
{
    setObjectName(QStringLiteral("evidenceDialog"));
    setWindowTitle(tr("Runs to size from"));
    m_listTask = new LatestTask(this);
    m_countTask = new LatestTask(this);

    m_selection = new RunSelectionWidget(this);
    m_selection->runList()->setMaximumHeight(QWIDGETSIZE_MAX); // the dialog's room is the list's
    const RunSelection &r = initial.runs;
    m_selection->scenarioEdit()->setText(QString::fromStdString(r.scenario));
    m_selection->toolEdit()->setText(QString::fromStdString(r.tool));
    m_selection->targetEdit()->setText(QString::fromStdString(r.target));
    m_selection->sinceEdit()->setText(QString::fromStdString(r.since));
    m_selection->untilEdit()->setText(QString::fromStdString(r.until));
    m_selection->setSamples(initial.samples);
    setMode(!r.runs.empty() ? Picked : r.any() ? Filter : Every);

    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("evidenceCount"));
    m_count->setWordWrap(true);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("evidenceError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #d62728;"));
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Size from these runs"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_selection, 1);
    layout->addWidget(m_count);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    connect(m_selection, &RunSelectionWidget::selectionChanged, this, &EvidenceDialog::updateState);
    resize(760, 520);
    loadRuns();
    updateState();
}

EvidenceDialog::~EvidenceDialog() = default;

QListWidget *EvidenceDialog::runList() const
{
    return m_selection->runList();
}

QLineEdit *EvidenceDialog::filterField(const char *name) const
{
    const std::string n = name;
    return n == "scenario" ? m_selection->scenarioEdit()
           : n == "tool"   ? m_selection->toolEdit()
           : n == "target" ? m_selection->targetEdit()
           : n == "since"  ? m_selection->sinceEdit()
           : n == "until"  ? m_selection->untilEdit()
                           : nullptr;
}

void EvidenceDialog::setMode(Mode mode)
{
    m_selection->setMode(mode == Picked   ? RunSelectionWidget::PickedByHand
                         : mode == Filter ? RunSelectionWidget::Filter
                                          : RunSelectionWidget::EveryRun);
}

bool EvidenceDialog::checkRun(const std::string &key, bool checked)
{
    QListWidget *list = runList();
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->data(Qt::UserRole).toString().toStdString() == key) {
            list->item(i)->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
            return true;
        }
    return false;
}

void EvidenceDialog::loadRuns()
{
    const std::string path = m_storePath.toStdString();
    m_count->setText(tr("Reading the runs in the store…"));
    m_listTask->start(
        [path] {
            const Store store(path);
            RunPage page;
            page.order = RunPage::Order::Time;
            page.descending = true;
            page.limit = kListedRuns;
            RunFilter samples;
            samples.sample = true;
            // The counts of the whole store: the list holds the newest kListedRuns only.
            return Listed{store.runs({}, page), store.runCount(), int64_t(store.runs(samples).size())};
        },
        [this](const Listed &listed) {
            m_runs = listed.runs;
            m_storeRuns = listed.storeRuns;
            m_storeSamples = listed.storeSamples;
            const std::vector<RunSummary> &runs = m_runs;
            m_loaded = true;
            m_selection->setRuns(runs);
            m_selection->setPicked(m_initial.runs.runs);
            updateState();
            emit runListLoaded();
        },
        [this](const QString &error) { m_error->setText(error); });
}

bool EvidenceDialog::isValid() const
{
    return m_selection->problem().isEmpty() && m_error->text().isEmpty();
}

EvidenceSelection EvidenceDialog::selection() const
{
    return m_selection->selection();
}

void EvidenceDialog::updateState()
{
    const bool ok = isValid();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
    const EvidenceSelection sel = selection();
    switch (m_selection->mode()) {
    case RunSelectionWidget::PickedByHand:
        m_count->setText(sel.runs.runs.empty() ? QString() : tr("%1 picked.").arg(runsText(int64_t(sel.runs.runs.size()))));
        return;
    case RunSelectionWidget::EveryRun:
        m_count->setText(m_loaded ? tr("%1 in the store, %2 of them sample runs.").arg(runsText(m_storeRuns)).arg(m_storeSamples)
                                  : tr("Reading the runs in the store…"));
        return;
    case RunSelectionWidget::Filter:
        break;
    }
    if (!ok)
        return;
    const std::string path = m_storePath.toStdString();
    m_count->setText(tr("Counting the runs the filter selects…"));
    m_countTask->start(
        [path, filter = sel.runs] {
            FilterCount out;
            for (const RunSummary &s : filteredRuns(Store(path), filter)) {
                ++out.runs;
                out.samples += s.sample ? 1 : 0;
            }
            return out;
        },
        [this](const FilterCount &c) {
            m_count->setText(tr("The filter selects %1, %2 of them sample runs.").arg(runsText(c.runs)).arg(c.samples));
            emit countUpdated();
        },
        [this](const QString &error) { m_error->setText(error); });
}

QComboBox *newSamplesCombo(QWidget *parent, const QString &objectName, SampleRuns current,
                        std::function<void(SampleRuns)> changed)
{
    auto *combo = new QComboBox(parent);
    combo->setObjectName(objectName);
    combo->addItem(QObject::tr("Samples: auto"), int(SampleRuns::Auto));
    combo->addItem(QObject::tr("Samples: included"), int(SampleRuns::Include));
    combo->addItem(QObject::tr("Samples: left out"), int(SampleRuns::Exclude));
    combo->setCurrentIndex(combo->findData(int(current)));
    combo->setToolTip(QObject::tr("Sample runs take part: auto lets your own runs answer for what they "
                                  "measure and the samples for the rest, each number saying which (the "
                                  "CLI's --samples)"));
    QObject::connect(combo, &QComboBox::currentIndexChanged, combo,
                     [combo, changed = std::move(changed)] { changed(SampleRuns(combo->currentData().toInt())); });
    return combo;
}

} // namespace plimsoll
