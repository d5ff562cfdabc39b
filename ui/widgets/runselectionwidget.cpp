#include "ui/widgets/runselectionwidget.h"

#include "model/store/runlabels.h"

#include "ui/formatting.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <set>

namespace plimsoll {

namespace {

QLineEdit *filterEdit(QWidget *parent, const char *name, const QString &placeholder)
{
    auto *e = new QLineEdit(parent);
    e->setObjectName(QLatin1String(name));
    e->setPlaceholderText(placeholder);
    e->setClearButtonEnabled(true);
    return e;
}

} // namespace

RunSelectionWidget::RunSelectionWidget(QWidget *parent) : QWidget(parent)
{
    m_mode = new QComboBox(this);
    m_mode->setObjectName(QStringLiteral("runSelectionMode"));
    m_mode->addItem(tr("Every run"), EveryRun);
    m_mode->addItem(tr("Runs by filter"), Filter);
    m_mode->addItem(tr("Runs picked by hand"), PickedByHand);
    m_samples = new QComboBox(this);
    m_samples->setObjectName(QStringLiteral("sampleRunsCombo"));
    m_samples->addItem(tr("auto: left out beside runs of your own"), int(SampleRuns::Auto));
    m_samples->addItem(tr("include"), int(SampleRuns::Include));
    m_samples->addItem(tr("leave out"), int(SampleRuns::Exclude));
    m_samples->setToolTip(tr("Whether the sample runs take part (the CLI's --samples)"));

    m_filter = new QWidget(this);
    auto *grid = new QGridLayout(m_filter);
    grid->setContentsMargins(0, 0, 0, 0);
    m_scenario = filterEdit(m_filter, "scenarioFilter", tr("text in a scenario name"));
    m_tool = filterEdit(m_filter, "toolFilter", tr("e.g. korvet-bench"));
    m_target = filterEdit(m_filter, "targetFilter", tr("e.g. korvet"));
    m_since = filterEdit(m_filter, "sinceFilter", tr("2026-09-01"));
    m_until = filterEdit(m_filter, "untilFilter", tr("2026-10-01 (not included)"));
    int column = 0;
    for (auto [label, edit] : {std::pair{tr("Scenario"), m_scenario}, {tr("Tool"), m_tool},
                               {tr("Target"), m_target}, {tr("Since"), m_since}, {tr("Until"), m_until}}) {
        grid->addWidget(new QLabel(label, m_filter), 0, column++);
        grid->addWidget(edit, 0, column++);
    }

    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("pickedRunsList"));
    m_list->setMaximumHeight(120);
    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("runSelectionProblem"));
    m_problem->setStyleSheet(QStringLiteral("color: #b00020"));
    m_problem->hide();

    auto *top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(new QLabel(tr("Runs"), this));
    top->addWidget(m_mode);
    top->addSpacing(8);
    top->addWidget(new QLabel(tr("Sample runs"), this));
    top->addWidget(m_samples);
    top->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_filter);
    layout->addWidget(m_list);
    layout->addWidget(m_problem);

    // Filter text settles before a read starts; the read itself runs in the owner's background.
    m_typing = new QTimer(this);
    m_typing->setSingleShot(true);
    m_typing->setInterval(300);
    connect(m_typing, &QTimer::timeout, this, &RunSelectionWidget::changed);
    for (QLineEdit *e : {m_scenario, m_tool, m_target, m_since, m_until}) {
        connect(e, &QLineEdit::textChanged, m_typing, qOverload<>(&QTimer::start));
        connect(e, &QLineEdit::editingFinished, this, [this] {
            if (m_typing->isActive()) {
                m_typing->stop();
                changed();
            }
        });
    }
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] {
        showMode();
        changed();
    });
    connect(m_samples, &QComboBox::currentIndexChanged, this, &RunSelectionWidget::changed);
    connect(m_list, &QListWidget::itemChanged, this, &RunSelectionWidget::changed);
    showMode();
}

void RunSelectionWidget::showMode()
{
    m_filter->setVisible(mode() == Filter);
    m_list->setVisible(mode() == PickedByHand);
}

void RunSelectionWidget::changed()
{
    const QString why = problem();
    m_problem->setText(why);
    m_problem->setVisible(!why.isEmpty());
    emit selectionChanged();
}

void RunSelectionWidget::setRuns(const std::vector<RunSummary> &runs)
{
    std::set<QString> checked;
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->checkState() == Qt::Checked)
            checked.insert(m_list->item(i)->data(Qt::UserRole).toString());
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    for (const RunSummary &r : runs) {
        const QString key = QString::fromStdString(r.runKey);
        auto *item = new QListWidgetItem(
            tr("%1 — %2, %3%4")
                .arg(QString::fromStdString(runTitle(r.name, r.runKey)), QString::fromStdString(r.tool),
                     displayTimestamp(r.timestamp),
                     r.sample ? tr(" (sample)") : QString()),
            m_list);
        item->setData(Qt::UserRole, key);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(checked.count(key) ? Qt::Checked : Qt::Unchecked);
        item->setToolTip(tr("target %1 · %2 scenarios · %3")
                             .arg(QString::fromStdString(r.target))
                             .arg(r.scenarioCount)
                             .arg(QString::fromStdString(r.sourceUri)));
    }
}

void RunSelectionWidget::setMode(Mode mode)
{
    m_mode->setCurrentIndex(m_mode->findData(mode));
}

RunSelectionWidget::Mode RunSelectionWidget::mode() const
{
    return Mode(m_mode->currentData().toInt());
}

void RunSelectionWidget::setSamples(SampleRuns samples)
{
    m_samples->setCurrentIndex(m_samples->findData(int(samples)));
}

void RunSelectionWidget::setPicked(const std::vector<std::string> &keys)
{
    const std::set<std::string> wanted(keys.begin(), keys.end());
    {
        const QSignalBlocker blocker(m_list);
        for (int i = 0; i < m_list->count(); ++i) {
            QListWidgetItem *item = m_list->item(i);
            const bool on = wanted.count(item->data(Qt::UserRole).toString().toStdString()) > 0;
            item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
        }
    }
    changed();
}

EvidenceSelection RunSelectionWidget::selection() const
{
    EvidenceSelection out;
    out.samples = SampleRuns(m_samples->currentData().toInt());
    RunSelection &sel = out.runs;
    if (mode() == PickedByHand) {
        for (int i = 0; i < m_list->count(); ++i)
            if (m_list->item(i)->checkState() == Qt::Checked)
                sel.runs.push_back(m_list->item(i)->data(Qt::UserRole).toString().toStdString());
    } else if (mode() == Filter) {
        sel.scenario = m_scenario->text().trimmed().toStdString();
        sel.tool = m_tool->text().trimmed().toStdString();
        sel.target = m_target->text().trimmed().toStdString();
        for (auto [edit, field] : {std::pair{m_since, &sel.since}, {m_until, &sel.until}}) {
            RunSelection one;
            one.since = edit->text().trimmed().toStdString();
            if (const auto n = normalizedSelection(one, nullptr))
                *field = n->since;
        }
    }
    return out;
}

QString RunSelectionWidget::problem() const
{
    if (mode() == PickedByHand) {
        for (int i = 0; i < m_list->count(); ++i)
            if (m_list->item(i)->checkState() == Qt::Checked)
                return {};
        return tr("No run picked: check the runs to take part");
    }
    if (mode() != Filter)
        return {};
    for (auto [label, edit] : {std::pair{tr("Since"), m_since}, {tr("Until"), m_until}}) {
        RunSelection one;
        one.since = edit->text().trimmed().toStdString();
        std::string error;
        if (!normalizedSelection(one, &error))
            return tr("%1: %2").arg(label, QString::fromStdString(error));
    }
    return {};
}

} // namespace plimsoll
