#include "ui/widgets/evidencedialog.h"

#include "ui/formatting.h"
#include "ui/latesttask.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace plimsoll {

namespace {

// The newest runs listed for picking; older ones are reached with the filter.
constexpr int64_t kListedRuns = 20000;

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

    m_modes = new QButtonGroup(this);
    auto *modeRow = new QHBoxLayout;
    const QString modeNames[] = {tr("Every run"), tr("Runs matching a filter"), tr("Runs picked by hand")};
    for (int i = 0; i < 3; ++i) {
        auto *b = new QRadioButton(modeNames[i], this);
        b->setObjectName(QStringLiteral("evidenceMode%1").arg(i));
        m_modes->addButton(b, i);
        modeRow->addWidget(b);
    }
    modeRow->addStretch();

    auto line = [this](const char *name, const std::string &value, const QString &placeholder) {
        auto *e = new QLineEdit(QString::fromStdString(value), this);
        e->setObjectName(QLatin1String(name));
        e->setPlaceholderText(placeholder);
        e->setClearButtonEnabled(true);
        connect(e, &QLineEdit::textChanged, this, &EvidenceDialog::updateState);
        return e;
    };
    const RunSelection &r = initial.runs;
    m_scenario = line("scenario", r.scenario, tr("any (e.g. pipeline/produce)"));
    m_tool = line("tool", r.tool, tr("any (e.g. korvet-bench)"));
    m_target = line("target", r.target, tr("any (e.g. korvet)"));
    m_since = line("since", r.since, tr("any (e.g. 2026-01-01)"));
    m_until = line("until", r.until, tr("any (before this date or time)"));
    m_filterBox = new QWidget(this);
    auto *filter = new QFormLayout(m_filterBox);
    filter->setContentsMargins(0, 0, 0, 0);
    filter->addRow(tr("Scenario contains"), m_scenario);
    filter->addRow(tr("Tool"), m_tool);
    filter->addRow(tr("Target"), m_target);
    filter->addRow(tr("Since"), m_since);
    filter->addRow(tr("Until"), m_until);

    m_pickBox = new QWidget(this);
    auto *pick = new QVBoxLayout(m_pickBox);
    pick->setContentsMargins(0, 0, 0, 0);
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("runSearch"));
    m_search->setPlaceholderText(tr("Show runs whose key, tool or target contains…"));
    m_search->setClearButtonEnabled(true);
    m_table = new QTableWidget(0, 5, this);
    m_table->setObjectName(QStringLiteral("evidenceRuns"));
    m_table->setHorizontalHeaderLabels({tr("Run"), tr("Time"), tr("Tool"), tr("Target"), tr("Sample")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    auto *checkAll = new QPushButton(tr("Check shown"), this);
    auto *uncheckAll = new QPushButton(tr("Uncheck all"), this);
    auto *pickButtons = new QHBoxLayout;
    pickButtons->addWidget(m_search, 1);
    pickButtons->addWidget(checkAll);
    pickButtons->addWidget(uncheckAll);
    pick->addLayout(pickButtons);
    pick->addWidget(m_table);
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString &text) {
        for (int row = 0; row < m_table->rowCount(); ++row) {
            bool shown = text.isEmpty();
            for (int col = 0; col < 4 && !shown; ++col)
                shown = m_table->item(row, col)->text().contains(text, Qt::CaseInsensitive);
            m_table->setRowHidden(row, !shown);
        }
    });
    auto setChecks = [this](bool shownOnly, Qt::CheckState state) {
        const QSignalBlocker block(m_table);
        for (int row = 0; row < m_table->rowCount(); ++row)
            if (!shownOnly || !m_table->isRowHidden(row))
                m_table->item(row, 0)->setCheckState(state);
        updateState();
    };
    connect(checkAll, &QPushButton::clicked, this, [setChecks] { setChecks(true, Qt::Checked); });
    connect(uncheckAll, &QPushButton::clicked, this, [setChecks] { setChecks(false, Qt::Unchecked); });
    connect(m_table, &QTableWidget::itemChanged, this, &EvidenceDialog::updateState);

    m_samples = new QComboBox(this);
    m_samples->setObjectName(QStringLiteral("samplesCombo"));
    m_samples->addItem(tr("auto: left out once the runs include your own"), int(SampleRuns::Auto));
    m_samples->addItem(tr("included"), int(SampleRuns::Include));
    m_samples->addItem(tr("left out"), int(SampleRuns::Exclude));
    m_samples->setCurrentIndex(m_samples->findData(int(initial.samples)));
    m_samples->setToolTip(tr("The sample runs Plimsoll installs (the CLI's --samples); runs picked by "
                             "hand count as picked"));
    connect(m_samples, &QComboBox::currentIndexChanged, this, &EvidenceDialog::updateState);
    auto *samplesRow = new QFormLayout;
    samplesRow->addRow(tr("Sample runs"), m_samples);

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
    layout->addLayout(modeRow);
    layout->addWidget(m_filterBox);
    layout->addWidget(m_pickBox, 1);
    layout->addLayout(samplesRow);
    layout->addWidget(m_count);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    const Mode mode = !r.runs.empty() ? Picked : r.any() ? Filter : Every;
    m_modes->button(mode)->setChecked(true);
    connect(m_modes, &QButtonGroup::idClicked, this, [this] { updateState(); });
    resize(760, 560);
    loadRuns();
    updateState();
}

EvidenceDialog::~EvidenceDialog() = default;

QLineEdit *EvidenceDialog::filterField(const char *name) const
{
    return findChild<QLineEdit *>(QLatin1String(name));
}

void EvidenceDialog::setMode(Mode mode)
{
    m_modes->button(mode)->setChecked(true);
    updateState();
}

bool EvidenceDialog::checkRun(const std::string &key, bool checked)
{
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (m_table->item(row, 0)->data(Qt::UserRole).toString().toStdString() == key) {
            m_table->item(row, 0)->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
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
            RunPage page;
            page.order = RunPage::Order::Time;
            page.descending = true;
            page.limit = kListedRuns;
            return Store(path).runs({}, page);
        },
        [this](const std::vector<RunSummary> &runs) {
            m_runs = runs;
            m_loaded = true;
            fillTable();
            updateState();
            emit runListLoaded();
        },
        [this](const QString &error) { m_error->setText(error); });
}

void EvidenceDialog::fillTable()
{
    const std::set<std::string> picked(m_initial.runs.runs.begin(), m_initial.runs.runs.end());
    const QSignalBlocker block(m_table);
    m_table->setRowCount(int(m_runs.size()));
    for (int row = 0; row < int(m_runs.size()); ++row) {
        const RunSummary &s = m_runs[size_t(row)];
        auto *key = new QTableWidgetItem(QString::fromStdString(s.runKey));
        key->setData(Qt::UserRole, QString::fromStdString(s.runKey));
        key->setFlags(key->flags() | Qt::ItemIsUserCheckable);
        key->setCheckState(picked.count(s.runKey) || picked.count(std::to_string(s.id)) ? Qt::Checked : Qt::Unchecked);
        key->setToolTip(QString::fromStdString(s.sourceUri));
        m_table->setItem(row, 0, key);
        m_table->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(s.timestamp)));
        const std::string tool = s.toolVersion.empty() ? s.tool : s.tool + " " + s.toolVersion;
        m_table->setItem(row, 2, new QTableWidgetItem(QString::fromStdString(tool)));
        m_table->setItem(row, 3, new QTableWidgetItem(QString::fromStdString(s.target)));
        m_table->setItem(row, 4, new QTableWidgetItem(s.sample ? tr("sample") : QString()));
    }
    m_table->resizeColumnsToContents();
    m_table->setColumnWidth(0, std::min(m_table->columnWidth(0), 320));
}

bool EvidenceDialog::isValid() const
{
    return m_error->text().isEmpty() && m_buttons->button(QDialogButtonBox::Ok)->isEnabled();
}

EvidenceSelection EvidenceDialog::selection() const
{
    EvidenceSelection out;
    out.samples = SampleRuns(m_samples->currentData().toInt());
    const int mode = m_modes->checkedId();
    if (mode == Filter) {
        out.runs.scenario = m_scenario->text().trimmed().toStdString();
        out.runs.tool = m_tool->text().trimmed().toStdString();
        out.runs.target = m_target->text().trimmed().toStdString();
        out.runs.since = m_since->text().trimmed().toStdString();
        out.runs.until = m_until->text().trimmed().toStdString();
        if (const auto n = normalizedSelection(out.runs, nullptr))
            out.runs = *n;
    } else if (mode == Picked) {
        for (int row = 0; row < m_table->rowCount(); ++row)
            if (m_table->item(row, 0)->checkState() == Qt::Checked)
                out.runs.runs.push_back(m_table->item(row, 0)->data(Qt::UserRole).toString().toStdString());
    }
    return out;
}

void EvidenceDialog::updateState()
{
    const int mode = m_modes->checkedId();
    m_filterBox->setEnabled(mode == Filter);
    m_pickBox->setEnabled(mode == Picked);
    QString error;
    if (mode == Filter) {
        RunSelection r;
        r.since = m_since->text().trimmed().toStdString();
        r.until = m_until->text().trimmed().toStdString();
        std::string why;
        if (!normalizedSelection(r, &why))
            error = tr("Since/Until: %1 (e.g. 2026-01-01 or 2026-01-01T03:00:00Z)").arg(QString::fromStdString(why));
    }
    m_error->setText(error);
    const EvidenceSelection sel = selection();
    bool ok = error.isEmpty();
    if (mode == Picked) {
        const auto n = int64_t(sel.runs.runs.size());
        ok = ok && n > 0;
        m_count->setText(n == 0 ? tr("Check the runs to size from.") : tr("%1 picked.").arg(runsText(n)));
    } else if (mode == Every) {
        const int64_t samples = std::count_if(m_runs.begin(), m_runs.end(), [](const RunSummary &s) { return s.sample; });
        m_count->setText(m_loaded ? tr("%1 in the store, %2 of them sample runs.")
                                        .arg(runsText(int64_t(m_runs.size())))
                                        .arg(samples)
                                  : tr("Reading the runs in the store…"));
    } else if (ok) {
        countFilter();
    }
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
}

void EvidenceDialog::countFilter()
{
    const std::string path = m_storePath.toStdString();
    const RunSelection sel = selection().runs;
    m_count->setText(tr("Counting the runs the filter selects…"));
    m_countTask->start(
        [path, sel] {
            FilterCount out;
            for (const RunSummary &s : filteredRuns(Store(path), sel)) {
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

} // namespace plimsoll
