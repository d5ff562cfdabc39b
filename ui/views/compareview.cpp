#include "ui/views/compareview.h"

#include "ui/charts/chartpalette.h"

#include "model/store/sharedsettings.h"
#include "model/trends/comparisonhistory.h"
#include "ui/formatting.h"
#include "ui/latesttask.h"
#include "ui/models/comparisontablemodel.h"
#include "ui/models/sidebysidetablemodel.h"
#include "ui/models/runpickerlistmodel.h"
#include "ui/widgets/elidingcombobox.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QCompleter>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
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

ViewIdentity CompareView::identity()
{
    return {QStringLiteral("compare"), tr("Compare"), QStyle::SP_FileDialogContentsView};
}

CompareView::CompareView(const QString &storePath, QWidget *parent) : StoreView(storePath, identity(), parent)
{
    setObjectName(QStringLiteral("compareView"));
    m_runLoader = new LatestTask(this);
    m_pageLoader = new LatestTask(this);
    m_locator = new LatestTask(this);
    m_runs = new RunPickerListModel(this);
    m_comparer = new LatestTask(this);
    m_policyWriter = new LatestTask(this);
    m_deltas = new ComparisonTableModel(this);
    m_incompatible = new IncompatibleTableModel(this);
    m_sideBySide = new SideBySideTableModel(this);

    m_baselineCombo = new ElidingComboBox(this);
    m_baselineCombo->setObjectName(QStringLiteral("baselineCombo"));
    m_currentCombo = new ElidingComboBox(this);
    m_currentCombo->setObjectName(QStringLiteral("currentCombo"));
    for (QComboBox *c : {m_baselineCombo, m_currentCombo}) {
        c->setModel(m_runs);
        c->setMinimumContentsLength(22);
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    }
    connect(m_runs, &RunPickerListModel::moreRequested, this, &CompareView::loadMoreRuns);
    setUpSearch(m_baseline, m_baselineCombo, QStringLiteral("baselineSearch"));
    setUpSearch(m_current, m_currentCombo, QStringLiteral("currentSearch"));
    m_baselineIdentity = identityLabel(QStringLiteral("baselineIdentity"));
    m_currentIdentity = identityLabel(QStringLiteral("currentIdentity"));

    auto *sides = new QHBoxLayout;
    auto addSide = [&](const QString &title, const Search &side, QLabel *identity) {
        auto *box = new QVBoxLayout;
        auto *row = new QHBoxLayout;
        row->addWidget(new QLabel(title, this));
        row->addWidget(side.combo, 1);
        box->addLayout(row);
        box->addWidget(side.search);
        box->addWidget(identity);
        sides->addLayout(box, 1);
    };
    addSide(tr("Baseline"), m_baseline, m_baselineIdentity);
    sides->addSpacing(16);
    addSide(tr("Current"), m_current, m_currentIdentity);

    // The runs beyond the two pickers, joined from the Library's "Compare these".
    m_extraBar = new QWidget(this);
    m_extraBar->setObjectName(QStringLiteral("compareExtraRuns"));
    auto *extraLayout = new QHBoxLayout(m_extraBar);
    extraLayout->setContentsMargins(0, 0, 0, 0);
    m_extraText = new QLabel(m_extraBar);
    m_extraText->setWordWrap(true);
    auto *clearExtra = new QPushButton(tr("Compare only these two"), m_extraBar);
    clearExtra->setObjectName(QStringLiteral("clearExtraRuns"));
    extraLayout->addWidget(m_extraText, 1);
    extraLayout->addWidget(clearExtra);
    m_extraBar->hide();
    connect(clearExtra, &QPushButton::clicked, this, [this] {
        m_extra.clear();
        m_extraBar->hide();
        compare();
    });

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("compareSummary"));
    m_summary->setWordWrap(true); // the counts and the family's note run past a narrow window
    m_alignment = new QLabel(this);
    m_alignment->setObjectName(QStringLiteral("compareAlignment"));
    m_alignment->setWordWrap(true);
    m_alignment->setTextFormat(Qt::RichText);
    m_alignment->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runLegend = new QLabel(this);
    m_runLegend->setObjectName(QStringLiteral("compareRunLegend"));
    m_runLegend->setTextFormat(Qt::RichText);
    m_runLegend->setWordWrap(true);
    m_runLegend->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sideTable = makeTable(m_sideBySide, this, QStringLiteral("sideBySideTable"), SideBySideTableModel::SortRole);
    // Each column as wide as its cells; a narrow window scrolls sideways rather than wrap a delta.
    m_sideTable->horizontalHeader()->setStretchLastSection(false);
    m_sideTable->setWordWrap(false);
    m_sideTable->setTextElideMode(Qt::ElideMiddle);
    m_deltaTable = makeTable(m_deltas, this, QStringLiteral("deltaTable"), ComparisonTableModel::SortRole);
    m_incompatibleTable = makeTable(m_incompatible, this, QStringLiteral("incompatibleTable"), -1);

    m_incompatibleTitle = new QLabel(this);
    m_incompatibleTitle->setWordWrap(true);
    m_leaveOut = new QPushButton(tr("Leave key out of the family's contract"), this);
    m_leaveOut->setObjectName(QStringLiteral("leaveKeyOut"));
    m_leaveOut->setToolTip(tr("Runs that differ only in this setting become comparable for every "
                              "scenario of this family (kept in the store, for everyone who opens it)."));
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

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("compareTabs"));
    m_tabs->setDocumentMode(true);
    auto *sideTab = new QWidget(this);
    auto *sideLayout = new QVBoxLayout(sideTab);
    sideLayout->setContentsMargins(0, 4, 0, 0);
    sideLayout->addWidget(m_sideTable, 1);
    m_tabs->addTab(sideTab, tr("Side by side"));
    m_tabs->addTab(createSpectrumTab(), tr("Latency spectrum"));
    m_tabs->addTab(createBarsTab(), tr("Throughput and p99"));
    m_tabs->addTab(m_deltaTable, tr("Baseline vs current"));
    m_tabs->setTabToolTip(3, tr("The baseline and the current run: each delta with its noise band, p-value and "
                                "verdict, and the USL parameters of ramps"));
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_tabs);
    splitter->addWidget(incompatibleBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(sides);
    layout->addWidget(m_extraBar);
    layout->addWidget(m_summary);
    layout->addWidget(m_alignment);
    layout->addWidget(m_runLegend);
    layout->addWidget(splitter, 1);

    connect(m_incompatibleTable->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { m_leaveOut->setEnabled(m_incompatibleTable->selectionModel()->hasSelection()); });
    connect(m_leaveOut, &QPushButton::clicked, this, &CompareView::leaveKeyOut);
    showComparison({});
    showHowToChoose();
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

void CompareView::setUpSearch(Search &side, QComboBox *combo, const QString &name)
{
    side.combo = combo;
    side.search = new QLineEdit(this);
    side.search->setObjectName(name);
    side.search->setPlaceholderText(tr("Find a run by key, scenario, commit, tool or target"));
    side.search->setClearButtonEnabled(true);
    side.results = new RunPickerListModel(this);
    // The store does the matching (any part of the text, without case); the completer shows
    // what it found as it is and puts the chosen run's key in the field.
    side.completer = new QCompleter(side.results, this);
    side.completer->setCompletionMode(QCompleter::UnfilteredPopupCompletion);
    side.completer->setCompletionRole(RunPickerListModel::RunKeyRole);
    side.completer->setMaxVisibleItems(12);
    side.search->setCompleter(side.completer);
    // A search per pause in typing, not per key: each one reads the store.
    side.debounce = new QTimer(this);
    side.debounce->setSingleShot(true);
    side.debounce->setInterval(150);
    side.task = new LatestTask(this);
    Search *s = &side;
    connect(side.search, &QLineEdit::textEdited, side.debounce, qOverload<>(&QTimer::start));
    connect(side.debounce, &QTimer::timeout, this, [this, s] { search(*s); });
    connect(side.completer, qOverload<const QModelIndex &>(&QCompleter::activated), this,
            [this, s](const QModelIndex &index) {
                chooseFound(*s, index.data(RunPickerListModel::RunKeyRole).toString());
            });
    // A run picked in the list is the user's choice from now on, not the one asked for before.
    connect(combo, &QComboBox::activated, this, [this, s] {
        (s == &m_baseline ? m_wantedBaseline : m_wantedCurrent).clear();
    });
    connect(combo, &QComboBox::currentIndexChanged, this, [this] { compare(); });
}

void CompareView::search(Search &side)
{
    const QString text = side.search->text().trimmed();
    if (text.isEmpty()) {
        side.task->cancel();
        side.results->setResults({}, true);
        return;
    }
    Search *s = &side;
    side.task->start(
        [path = storePath().toStdString(), text = text.toStdString()] {
            RunFilter filter;
            filter.textContains = text;
            RunPage page;
            page.descending = true; // the newest matches first
            page.limit = kSearchRuns;
            return Store(path).runs(filter, page);
        },
        [this, s](const std::vector<RunSummary> &found) {
            s->results->setResults(found, true);
            if (s->search->hasFocus() && !found.empty())
                s->completer->complete();
            emit searchFinished(static_cast<int>(found.size()));
        },
        [this](const QString &error) { emit loadFailed(error); });
}

void CompareView::chooseFound(Search &side, const QString &runKey)
{
    const int found = side.results->rowOfKey(runKey);
    if (found < 0)
        return;
    (&side == &m_baseline ? m_wantedBaseline : m_wantedCurrent).clear();
    // Listed where it belongs in time, although its page was not read.
    const int row = m_runs->insertRun(side.results->runAt(found));
    side.combo->setCurrentIndex(row);
}

void CompareView::reload()
{
    // Whatever the store holds now, the pair is compared again.
    m_comparedBaseline.clear();
    m_comparedCurrent.clear();
    m_pageLoader->cancel();
    const std::string path = storePath().toStdString();
    m_runLoader->start(
        [path] {
            RunPage page;
            page.descending = true; // newest first: the usual question is about last night
            page.limit = kPageRuns;
            return Store(path).runs({}, page);
        },
        [this](const std::vector<RunSummary> &runs) {
            const QString base = m_wantedBaseline.isEmpty()
                                     ? m_baselineCombo->currentData(RunPickerListModel::RunKeyRole).toString()
                                     : m_wantedBaseline;
            const QString cur = m_wantedCurrent.isEmpty()
                                    ? m_currentCombo->currentData(RunPickerListModel::RunKeyRole).toString()
                                    : m_wantedCurrent;
            {
                const QSignalBlocker blockBase(m_baselineCombo);
                const QSignalBlocker blockCur(m_currentCombo);
                m_runs->setResults(runs, runs.size() < static_cast<size_t>(kPageRuns));
            }
            emit runsLoaded(m_runs->rowCount());
            m_wantedBaseline = base;
            m_wantedCurrent = cur;
            selectWanted();
        },
        [this](const QString &error) { emit loadFailed(error); });
}

void CompareView::loadMoreRuns()
{
    const std::optional<RunSummary> after = m_runs->cursor();
    if (!after)
        return;
    m_pageLoader->start(
        [path = storePath().toStdString(), after = *after] {
            RunPage page;
            page.descending = true;
            page.after = after;
            page.limit = kPageRuns;
            return Store(path).runs({}, page);
        },
        [this](const std::vector<RunSummary> &runs) {
            m_runs->appendResults(runs, runs.size() < static_cast<size_t>(kPageRuns));
            emit runsLoaded(m_runs->rowCount());
        },
        [this](const QString &error) { emit loadFailed(error); });
}

void CompareView::setRuns(const QString &baselineKey, const QString &currentKey)
{
    setRuns(QStringList{baselineKey, currentKey});
}

void CompareView::setRuns(const QStringList &runKeys)
{
    m_wantedBaseline = runKeys.value(0);
    m_wantedCurrent = runKeys.value(1);
    m_extra = runKeys.mid(2);
    m_extraBar->setVisible(!m_extra.isEmpty());
    m_extraText->setText(tr("Also compared with the baseline: %1").arg(m_extra.join(QStringLiteral(", "))));
    if (!m_runLoader->isRunning()) // else applied when the run list arrives
        selectWanted();
}

void CompareView::selectWanted()
{
    const QString base = m_wantedBaseline;
    const QString cur = m_wantedCurrent;
    const bool missing = (!base.isEmpty() && m_runs->rowOfKey(base) < 0) ||
                         (!cur.isEmpty() && m_runs->rowOfKey(cur) < 0);
    if (!missing) {
        selectRows(m_runs->rowOfKey(base), m_runs->rowOfKey(cur));
        return;
    }
    // A run beyond the pages read: its summary is read and listed in its place.
    m_locator->start(
        [path = storePath().toStdString(), keys = std::vector<std::string>{base.toStdString(), cur.toStdString()}] {
            const Store store(path);
            std::vector<RunSummary> found;
            for (const std::string &key : keys)
                if (const auto detail = key.empty() ? std::nullopt : store.run(key))
                    found.push_back(detail->summary);
            return found;
        },
        [this, base, cur](const std::vector<RunSummary> &found) {
            {
                const QSignalBlocker blockBase(m_baselineCombo);
                const QSignalBlocker blockCur(m_currentCombo);
                for (const RunSummary &run : found)
                    m_runs->insertRun(run);
            }
            selectRows(m_runs->rowOfKey(base), m_runs->rowOfKey(cur));
        },
        [this](const QString &error) { emit loadFailed(error); });
}

void CompareView::selectRows(int baselineRow, int currentRow)
{
    // No default pair: two runs that happen to be the newest are seldom the question.
    {
        const QSignalBlocker blockBase(m_baselineCombo);
        const QSignalBlocker blockCur(m_currentCombo);
        m_baselineCombo->setCurrentIndex(baselineRow);
        m_currentCombo->setCurrentIndex(currentRow);
    }
    compare();
}

void CompareView::compare(bool again)
{
    const QString base = m_baselineCombo->currentData(RunPickerListModel::RunKeyRole).toString();
    const QString cur = m_currentCombo->currentData(RunPickerListModel::RunKeyRole).toString();
    if (base.isEmpty() || cur.isEmpty()) {
        m_comparer->cancel();
        m_comparedBaseline.clear();
        m_comparedCurrent.clear();
        m_comparedExtra.clear();
        showComparison({});
        showHowToChoose();
        return;
    }
    if (!again && base == m_comparedBaseline && cur == m_comparedCurrent && m_extra == m_comparedExtra)
        return; // the same runs, moved in the list by a run listed above them
    m_comparedBaseline = base;
    m_comparedCurrent = cur;
    m_comparedExtra = m_extra;
    m_summary->setText(tr("Comparing…"));
    // The request `plimsoll compare BASE CUR [RUN…]` makes (model/trends/comparisonhistory.h).
    CompareRequest request;
    for (const QString &key : QStringList{base, cur} + m_extra)
        request.runs.push_back(key.toStdString());
    struct Compared
    {
        RunsComparison comparison;
        std::vector<RunRecord> runs; // for the spectrum, read with the comparison
    };
    m_comparer->start(
        [path = storePath().toStdString(), request] {
            const Store store(path);
            Compared out{compareStoredRuns(store, request, loadContractPolicies(store)), {}};
            for (const std::string &key : request.runs)
                if (auto d = store.run(key))
                    out.runs.push_back(std::move(d->record));
            return out;
        },
        [this](const Compared &r) {
            showComparison(r.comparison.onlyPair());
            showRuns(r.comparison);
            showSpectrumOf(r.runs, r.comparison);
            showBars(r.comparison);
            if (!r.comparison.empty())
                emit comparisonReady();
        },
        [this](const QString &error) {
            m_comparedBaseline.clear();
            m_comparedCurrent.clear();
            m_comparedExtra.clear();
            m_summary->setText(tr("Could not compare: %1").arg(error));
            emit loadFailed(error);
        });
}

void CompareView::showHowToChoose()
{
    m_runsComparison = {};
    m_sideBySide->setComparison({});
    m_runLegend->clear();
    m_alignment->setText(tr("Choose the runs to compare: select two or more in the Library and choose "
                            "<b>Compare these</b> (its tool row or a run's context menu), or pick a baseline "
                            "and a current run above. The first run chosen is the baseline."));
    m_summary->clear();
    showSpectrumOf({}, {});
    showBars({});
}

void CompareView::showRuns(const RunsComparison &comparison)
{
    m_runsComparison = comparison;
    m_sideBySide->setComparison(comparison);
    m_sideTable->resizeColumnsToContents();
    // A long scenario name (OMB's workload sentences) is elided in the middle, whole in its
    // tooltip, so the runs' columns stay in sight.
    const int most = std::max(180, m_sideTable->viewport()->width() * 3 / 10);
    if (m_sideTable->columnWidth(SideBySideTableModel::Scenario) > most)
        m_sideTable->setColumnWidth(SideBySideTableModel::Scenario, most);
    m_alignment->setText(QString::fromStdString(comparison.alignmentText()).toHtmlEscaped());
    QStringList legend;
    for (std::size_t i = 0; i < comparison.runs.size(); ++i)
        legend << tr("<span style=\"color:%1\">■</span> <b>%2</b>%3 %4 · %5")
                      .arg(seriesColor(static_cast<int>(i)).name(), SideBySideTableModel::runLetter(i),
                           i == comparison.baseline ? tr(" (baseline)") : QString(),
                           qtext(comparison.runs[i].runKey).toHtmlEscaped(),
                           displayTimestamp(comparison.runs[i].timestamp));
    m_runLegend->setText(legend.join(QStringLiteral(" &nbsp; ")));
    if (comparison.runs.size() > 2) {
        m_summary->setText(tr("%1 runs against the baseline: %2 regression(s), %3 improvement(s), %4 unchanged, "
                              "%5 incompatible · the Baseline vs current tab has the noise bands of the first pair")
                               .arg(comparison.runs.size() - 1)
                               .arg(comparison.count(Verdict::Regression))
                               .arg(comparison.count(Verdict::Improvement))
                               .arg(comparison.count(Verdict::Unchanged))
                               .arg(comparison.count(Verdict::Incompatible)));
        m_tabs->setCurrentIndex(0);
    }
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
    if (!comparison.baseline.runKey.empty()) {
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
    // The choice lives in the store: read, change and write it off the UI thread.
    m_policyWriter->start(
        [path, scenario, key, exclude] {
            Store store(path);
            ContractPolicy policy = loadContractPolicies(store).forScenario(scenario);
            std::erase(policy.excluded, key);
            if (exclude)
                policy.excluded.push_back(key);
            saveContractPolicy(store, policy.family, policy.excluded);
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
            compare(true);
            emit sharedSettingsChanged();
        },
        [this](const QString &error) { emit loadFailed(error); });
}

} // namespace plimsoll
