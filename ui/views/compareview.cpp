#include "ui/views/compareview.h"

#include "model/trendhistory.h"
#include "ui/formatting.h"
#include "ui/latesttask.h"
#include "ui/models/comparisontablemodel.h"

#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

namespace plimsoll {

namespace {

QString identityText(const RunIdentity &r)
{
    if (r.runKey.empty())
        return QStringLiteral("—");
    return QObject::tr("<b>%1</b><br>%2 · commit %3<br>image %4<br>tuning %5")
        .arg(QString::fromStdString(r.runKey).toHtmlEscaped(), displayTimestamp(r.timestamp),
             r.commit.empty() ? QStringLiteral("—") : QString::fromStdString(r.commit).toHtmlEscaped(),
             r.imageDigest.empty() ? QStringLiteral("—") : QString::fromStdString(r.imageDigest).toHtmlEscaped(),
             compactJson(r.tuning).toHtmlEscaped());
}

QTableView *makeTable(QAbstractItemModel *model, QWidget *parent, const QString &name, int sortRole)
{
    auto *proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    if (sortRole >= 0)
        proxy->setSortRole(sortRole);
    auto *table = new QTableView(parent);
    table->setObjectName(name);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->sortByColumn(-1, Qt::AscendingOrder); // keep the comparison's own order until asked
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->setAlternatingRowColors(true);
    return table;
}

} // namespace

CompareView::CompareView(const QString &storePath, QWidget *parent) : StoreView(storePath, parent)
{
    setObjectName(QStringLiteral("compareView"));
    m_runLoader = new LatestTask(this);
    m_comparer = new LatestTask(this);
    m_policyWriter = new LatestTask(this);
    m_deltas = new ComparisonTableModel(this);
    m_incompatible = new IncompatibleTableModel(this);

    m_baselineCombo = new QComboBox(this);
    m_baselineCombo->setObjectName(QStringLiteral("baselineCombo"));
    m_currentCombo = new QComboBox(this);
    m_currentCombo->setObjectName(QStringLiteral("currentCombo"));
    for (QComboBox *c : {m_baselineCombo, m_currentCombo}) {
        c->setMinimumContentsLength(22);
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    }
    m_baselineIdentity = identityLabel(QStringLiteral("baselineIdentity"));
    m_currentIdentity = identityLabel(QStringLiteral("currentIdentity"));

    auto *sides = new QHBoxLayout;
    auto addSide = [&](const QString &title, QComboBox *combo, QLabel *identity) {
        auto *box = new QVBoxLayout;
        auto *row = new QHBoxLayout;
        row->addWidget(new QLabel(title, this));
        row->addWidget(combo, 1);
        box->addLayout(row);
        box->addWidget(identity);
        sides->addLayout(box, 1);
    };
    addSide(tr("Baseline"), m_baselineCombo, m_baselineIdentity);
    sides->addSpacing(16);
    addSide(tr("Current"), m_currentCombo, m_currentIdentity);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("compareSummary"));
    m_summary->setWordWrap(true); // the counts and the family's note run past a narrow window
    m_deltaTable = makeTable(m_deltas, this, QStringLiteral("deltaTable"), ComparisonTableModel::SortRole);
    m_incompatibleTable = makeTable(m_incompatible, this, QStringLiteral("incompatibleTable"), -1);

    m_incompatibleTitle = new QLabel(this);
    m_incompatibleTitle->setWordWrap(true);
    m_leaveOut = new QPushButton(tr("Leave key out of the family's contract"), this);
    m_leaveOut->setObjectName(QStringLiteral("leaveKeyOut"));
    m_leaveOut->setToolTip(tr("Runs that differ only in this setting become comparable for every "
                              "scenario of this family (saved beside the store)."));
    m_leaveOut->setEnabled(false);
    auto *incompatibleHeader = new QHBoxLayout;
    incompatibleHeader->addWidget(m_incompatibleTitle, 1);
    incompatibleHeader->addWidget(m_leaveOut);
    m_undoBar = new QWidget(this);
    m_undoBar->setObjectName(QStringLiteral("leaveOutUndoBar"));
    auto *undoLayout = new QHBoxLayout(m_undoBar);
    undoLayout->setContentsMargins(0, 0, 0, 0);
    m_undoText = new QLabel(m_undoBar);
    m_undoText->setWordWrap(true);
    m_undo = new QPushButton(tr("Undo"), m_undoBar);
    m_undo->setObjectName(QStringLiteral("undoLeaveOut"));
    undoLayout->addWidget(m_undoText, 1);
    undoLayout->addWidget(m_undo);
    m_undoBar->hide();
    auto *incompatibleBox = new QWidget(this);
    auto *incompatibleLayout = new QVBoxLayout(incompatibleBox);
    incompatibleLayout->setContentsMargins(0, 0, 0, 0);
    incompatibleLayout->addLayout(incompatibleHeader);
    incompatibleLayout->addWidget(m_undoBar);
    incompatibleLayout->addWidget(m_incompatibleTable);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_deltaTable);
    splitter->addWidget(incompatibleBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(sides);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);

    connect(m_baselineCombo, &QComboBox::currentIndexChanged, this, &CompareView::compare);
    connect(m_currentCombo, &QComboBox::currentIndexChanged, this, &CompareView::compare);
    connect(m_incompatibleTable->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { m_leaveOut->setEnabled(m_incompatibleTable->selectionModel()->hasSelection()); });
    connect(m_leaveOut, &QPushButton::clicked, this, &CompareView::leaveKeyOut);
    showComparison({});
}

QIcon CompareView::icon() const
{
    return style()->standardIcon(QStyle::SP_FileDialogContentsView);
}

QLabel *CompareView::identityLabel(const QString &name)
{
    auto *label = new QLabel(this);
    label->setObjectName(name);
    label->setTextFormat(Qt::RichText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    label->setFrameShape(QFrame::StyledPanel);
    label->setMargin(6);
    return label;
}

void CompareView::reload()
{
    const std::string path = storePath().toStdString();
    m_runLoader->start(
        [path] { return Store(path).runs(); },
        [this](const std::vector<RunSummary> &runs) {
            const QString base = m_wantedBaseline.isEmpty() ? m_baselineCombo->currentData().toString()
                                                            : m_wantedBaseline;
            const QString cur = m_wantedCurrent.isEmpty() ? m_currentCombo->currentData().toString()
                                                          : m_wantedCurrent;
            for (QComboBox *c : {m_baselineCombo, m_currentCombo}) {
                const QSignalBlocker block(c);
                c->clear();
                // Newest first: the usual question is about last night.
                for (auto r = runs.rbegin(); r != runs.rend(); ++r)
                    c->addItem(QStringLiteral("%1  (%2)").arg(QString::fromStdString(r->runKey),
                                                               displayTimestamp(r->timestamp)),
                               QString::fromStdString(r->runKey));
            }
            // Default: the newest run against the one before it.
            const int b = m_baselineCombo->findData(base);
            const int c = m_currentCombo->findData(cur);
            m_baselineCombo->setCurrentIndex(b >= 0 ? b : std::min(1, m_baselineCombo->count() - 1));
            m_currentCombo->setCurrentIndex(c >= 0 ? c : (m_currentCombo->count() > 0 ? 0 : -1));
            emit runsLoaded(static_cast<int>(runs.size()));
            compare();
        },
        [this](const QString &error) { emit loadFailed(error); });
}

void CompareView::setRuns(const QString &baselineKey, const QString &currentKey)
{
    m_wantedBaseline = baselineKey;
    m_wantedCurrent = currentKey;
    const int b = m_baselineCombo->findData(baselineKey);
    const int c = m_currentCombo->findData(currentKey);
    if (b < 0 || c < 0)
        return; // applied when the run list arrives
    {
        const QSignalBlocker block(m_baselineCombo);
        m_baselineCombo->setCurrentIndex(b);
    }
    m_currentCombo->setCurrentIndex(c);
    compare();
}

void CompareView::compare()
{
    const QString base = m_baselineCombo->currentData().toString();
    const QString cur = m_currentCombo->currentData().toString();
    if (base.isEmpty() || cur.isEmpty()) {
        m_comparer->cancel();
        showComparison({});
        return;
    }
    m_summary->setText(tr("Comparing…"));
    const std::string path = storePath().toStdString();
    m_comparer->start(
        [path, b = base.toStdString(), c = cur.toStdString()] {
            const TrendHistory history = TrendHistory::load(Store(path));
            return compareRuns(history, b, c, ContractPolicies::load(path));
        },
        [this](const RunComparison &r) { showComparison(r); },
        [this](const QString &error) {
            m_summary->setText(tr("Could not compare: %1").arg(error));
            emit loadFailed(error);
        });
}

void CompareView::showComparison(const RunComparison &comparison)
{
    m_comparison = comparison;
    m_deltas->setComparison(comparison);
    m_incompatible->setComparison(comparison);
    m_deltaTable->resizeColumnsToContents();
    m_incompatibleTable->resizeColumnsToContents();
    m_baselineIdentity->setText(identityText(comparison.baseline));
    m_currentIdentity->setText(identityText(comparison.current));
    const int incompatible = comparison.count(Verdict::Incompatible);
    m_incompatibleTitle->setText(
        incompatible == 0
            ? tr("<b>Incompatible baselines</b>: none — every scenario both runs measured has the same "
                 "tuning contract.")
            : tr("<b>Incompatible baselines</b>: %n scenario(s) ran under a different tuning contract; "
                 "they are not compared. Differing keys:",
                 nullptr, incompatible));
    m_leaveOut->setEnabled(false);
    if (comparison.baseline.runKey.empty()) {
        m_summary->setText(tr("Choose two runs."));
    } else {
        QString text = tr("%1 regression(s), %2 improvement(s), %3 unchanged, %4 incompatible")
                           .arg(comparison.count(Verdict::Regression))
                           .arg(comparison.count(Verdict::Improvement))
                           .arg(comparison.count(Verdict::Unchanged))
                           .arg(incompatible);
        if (const int n = comparison.count(Verdict::NotComparable))
            text += tr(" · %1 throughput(s) not comparable (offered rates differ)").arg(n);
        if (const int n = comparison.count(Verdict::FollowsThroughput))
            text += tr(" · %1 resource(s) following throughput").arg(n);
        text += tr(" · Holm-corrected over %1 metric(s), α %2").arg(comparison.tested).arg(comparison.options.alpha);
        if (!comparison.onlyInBaseline.empty() || !comparison.onlyInCurrent.empty())
            text += tr(" · %1 scenario(s) in one run only")
                        .arg(comparison.onlyInBaseline.size() + comparison.onlyInCurrent.size());
        m_summary->setText(text);
    }
    if (!comparison.baseline.runKey.empty())
        emit comparisonReady();
}

QString CompareView::summaryText() const
{
    return m_summary->text();
}

void CompareView::leaveKeyOut()
{
    const QModelIndexList rows = m_incompatibleTable->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return;
    const QAbstractItemModel *m = m_incompatibleTable->model();
    const int row = rows.first().row();
    std::string scenario = m->index(row, IncompatibleTableModel::Scenario).data().toString().toStdString();
    if (const auto star = scenario.find("* ("); star != std::string::npos)
        scenario = scenario.substr(0, star); // a ramp's row names its family
    const std::string key = m->index(row, IncompatibleTableModel::Key).data().toString().toStdString();
    writePolicy(scenario, key, true);
}

void CompareView::writePolicy(const std::string &scenario, const std::string &key, bool exclude)
{
    const std::string path = storePath().toStdString();
    // The settings file is I/O too: read, change and write it off the UI thread.
    m_policyWriter->start(
        [path, scenario, key, exclude] {
            ContractPolicies policies = ContractPolicies::load(path);
            ContractPolicy policy = policies.forScenario(scenario);
            std::erase(policy.excluded, key);
            if (exclude)
                policy.excluded.push_back(key);
            policies.set(policy.family, policy.excluded);
            if (!policies.save(path))
                throw std::runtime_error("cannot write " + ContractPolicies::settingsPathFor(path));
            return policy.family;
        },
        [this, scenario, key, exclude](const std::string &family) {
            m_undo->disconnect();
            if (exclude) {
                m_undoText->setText(tr("Left %1 out of the contract of %2: runs that differ only in it "
                                       "are compared.")
                                        .arg(QString::fromStdString(key), QString::fromStdString(family)));
                connect(m_undo, &QPushButton::clicked, this,
                        [this, scenario, key] { writePolicy(scenario, key, false); });
                m_undoBar->show();
            } else {
                m_undoBar->hide();
            }
            compare();
            emit sharedSettingsChanged();
        },
        [this](const QString &error) { emit loadFailed(error); });
}

} // namespace plimsoll
