#include "ui/views/changesview.h"

#include "model/store/sharedsettings.h"
#include "model/core/tuningcontract.h"
#include "model/store/store.h"
#include "model/trends/trendhistory.h"
#include "ui/charts/trendmarkstyle.h"
#include "ui/formatting.h"
#include "ui/latesttask.h"

#include <QLocale>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

namespace plimsoll {

namespace {

constexpr int kSortRole = Qt::UserRole + 1;
constexpr int kScenarioRole = Qt::UserRole + 2; // on the first cell: what openRow needs
constexpr int kMetricRole = Qt::UserRole + 3;
constexpr int kRunRole = Qt::UserRole + 4;

// The verdicts the view's choice keeps: the Verdict column's own words.
const char *const kBaselineWord = "new baseline";
const char *const kLoadsWord = "several loads";

QStandardItem *cell(const QString &text, const QVariant &sortKey = {})
{
    auto *item = new QStandardItem(text);
    item->setEditable(false);
    item->setData(sortKey.isValid() ? sortKey : QVariant(text), kSortRole);
    return item;
}

QList<QStandardItem *> rowOf(const std::string &timestamp, const std::string &scenario,
                             const std::string &metric, const std::string &target,
                             const std::string &runKey, const std::string &commit)
{
    QList<QStandardItem *> row(ChangesView::ColumnCount);
    row[ChangesView::Time] = cell(displayTimestamp(timestamp), QString::fromStdString(timestamp));
    row[ChangesView::Scenario] = cell(QString::fromStdString(scenario));
    row[ChangesView::Scenario]->setToolTip(QString::fromStdString(scenario));
    row[ChangesView::Metric] = cell(metric.empty() ? QStringLiteral("—") : displayMetricName(metric));
    row[ChangesView::Target] = cell(target.empty() ? QStringLiteral("—") : QString::fromStdString(target));
    row[ChangesView::Run] = cell(QString::fromStdString(runKey));
    row[ChangesView::Run]->setToolTip(QString::fromStdString(runKey));
    row[ChangesView::Commit] = cell(commit.empty() ? QStringLiteral("—") : shortCommit(commit),
                                    QString::fromStdString(commit));
    row[ChangesView::Commit]->setToolTip(QString::fromStdString(commit));
    row[ChangesView::Time]->setData(QString::fromStdString(scenario), kScenarioRole);
    row[ChangesView::Time]->setData(QString::fromStdString(metric), kMetricRole);
    row[ChangesView::Time]->setData(QString::fromStdString(runKey), kRunRole);
    return row;
}

} // namespace

ViewIdentity ChangesView::identity()
{
    return {QStringLiteral("changes"), tr("Changes"), QStyle::SP_MessageBoxWarning};
}

ChangesView::ChangesView(const QString &storePath, QWidget *parent)
    : StoreView(storePath, identity(), parent)
{
    setObjectName(QStringLiteral("changesView"));
    m_loader = new LatestTask(this);
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("changesFilter"));
    m_filter->setPlaceholderText(tr("Filter by scenario, metric, run or commit"));
    m_filter->setClearButtonEnabled(true);
    m_show = new QComboBox(this);
    m_show->setObjectName(QStringLiteral("changesShow"));
    m_show->addItems({tr("All changes"), tr("Regressions"), tr("Improvements")});
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("changesSummary"));
    m_summary->setWordWrap(true); // its counts grow; the filter field keeps its room at 1024 px
    auto *row = new QHBoxLayout;
    row->addWidget(m_filter, 2);
    row->addWidget(m_show);
    row->addWidget(m_summary, 3);

    m_model = new QStandardItemModel(0, ColumnCount, this);
    m_model->setHorizontalHeaderLabels({tr("Time"), tr("Verdict"), tr("Change"), tr("Scenario"),
                                        tr("Metric"), tr("Target"), tr("p-value"), tr("Run"),
                                        tr("Commit")});
    auto *byVerdict = new QSortFilterProxyModel(this);
    byVerdict->setSourceModel(m_model);
    byVerdict->setFilterKeyColumn(Verdict);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(byVerdict);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setSortRole(kSortRole);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("changesTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(Time, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setToolTip(tr("Double-click a row to see its series in Trends"));

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(m_table, 1);

    connect(m_filter, &QLineEdit::textChanged, this, [this] { refilter(); });
    connect(m_show, &QComboBox::currentIndexChanged, this, [byVerdict, this](int index) {
        const QString word = index == 1 ? tr("regression") : index == 2 ? tr("improvement") : QString();
        byVerdict->setFilterRegularExpression(word.isEmpty() ? QString()
                                                             : QStringLiteral("^%1$").arg(word));
        refilter();
    });
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex &index) { openRow(index.row()); });
    m_summary->setText(tr("Reading the store…"));
}

void ChangesView::reload()
{
    const std::string path = storePath().toStdString();
    m_loader->start(
        [path] {
            const Store store(path);
            return findChanges(TrendHistory::load(store), ChangesRequest{}, loadContractPolicies(store));
        },
        [this](const ChangesReport &report) { showReport(report); },
        [this](const QString &error) {
            m_summary->setText(error);
            emit loadFailed(error);
        });
}

void ChangesView::showReport(const ChangesReport &report)
{
    m_report = report;
    m_model->removeRows(0, m_model->rowCount());
    m_table->setSortingEnabled(false);
    for (const SeriesChanges &s : m_report.series)
        addChangeRows(s);
    for (const BaselineChange &b : m_report.baselineChanges)
        addBaselineRows(b);
    for (const LoadSteps &l : m_report.loadSteps)
        addLoadRows(l);
    m_table->setSortingEnabled(true);
    m_table->resizeColumnsToContents();
    // A long contract difference or scenario name elides (whole in its tooltip) rather than
    // push the columns after it off the page.
    for (int c : {int(Change), int(Scenario), int(Run)})
        m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), 220));
    refilter();
    emit loaded(m_model->rowCount());
}

void ChangesView::addChangeRows(const SeriesChanges &series)
{
    for (const DetectedChange &c : series.changes) {
        QList<QStandardItem *> row = rowOf(c.timestamp, series.series.scenario, series.series.metric,
                                           series.series.target, c.runKey, c.commit);
        const double percent = c.change.forwardChangePercent();
        row[Change] = cell(QString::asprintf("%+.1f %%", percent), percent);
        row[Change]->setToolTip(tr("mean %1 before, %2 after")
                                    .arg(displayMetric(series.series.metric, c.change.meanBefore),
                                         displayMetric(series.series.metric, c.change.meanAfter)));
        row[PValue] = cell(QString::asprintf("%.2g", c.change.pValue), c.change.pValue);
        const QString verdict = QString::fromLatin1(toString(c.verdict)).replace(QLatin1Char('_'), QLatin1Char(' '));
        row[Verdict] = cell(verdict);
        if (c.verdict == plimsoll::Verdict::Regression || c.verdict == plimsoll::Verdict::Improvement)
            row[Verdict]->setForeground(trendVerdictColor(c.verdict));
        for (int col : {int(Change), int(PValue)})
            row[col]->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (c.provisional)
            row[Change]->setToolTip(row[Change]->toolTip() +
                                    tr("; provisional: fewer than %1 runs after it").arg(SeriesAnalysisOptions{}.minSegment));
        m_model->appendRow(row);
    }
    const auto verdictCell = [](plimsoll::Verdict v) {
        QStandardItem *item = cell(QString::fromLatin1(toString(v)).replace(QLatin1Char('_'), QLatin1Char(' ')));
        if (v == plimsoll::Verdict::Regression || v == plimsoll::Verdict::Improvement)
            item->setForeground(trendVerdictColor(v));
        return item;
    };
    for (const DetectedOutlier &o : series.outliers) {
        QList<QStandardItem *> row = rowOf(o.timestamp, series.series.scenario, series.series.metric,
                                           series.series.target, o.runKey, o.commit);
        const double percent = o.outlier.percent();
        row[Change] = cell(std::isfinite(o.outlier.sigmas)
                               ? tr("outlier %1 (%2 σ)").arg(QString::asprintf("%+.1f %%", percent),
                                                             QString::asprintf("%+.1f", o.outlier.sigmas))
                               : tr("outlier %1").arg(QString::asprintf("%+.1f %%", percent)),
                           percent);
        row[Change]->setToolTip(tr("%1 where the runs either side give %2: one run far outside their noise, "
                                   "left out of the change points")
                                    .arg(displayMetric(series.series.metric, o.outlier.value),
                                         displayMetric(series.series.metric, o.outlier.expected)));
        row[PValue] = cell(QStringLiteral("—"), 2.0);
        row[Verdict] = verdictCell(o.verdict);
        m_model->appendRow(row);
    }
    for (const DetectedVarianceChange &v : series.varianceChanges) {
        QList<QStandardItem *> row = rowOf(v.timestamp, series.series.scenario, series.series.metric,
                                           series.series.target, v.runKey, v.commit);
        row[Change] = cell(tr("noise ×%1").arg(QString::number(v.change.ratio(), 'g', 2)), 0.0);
        row[Change]->setToolTip(tr("standard deviation %1 before, %2 after")
                                    .arg(displayMetric(series.series.metric, v.change.stddevBefore),
                                         displayMetric(series.series.metric, v.change.stddevAfter)));
        row[PValue] = cell(QString::asprintf("%.2g", v.change.pValue), v.change.pValue);
        row[Verdict] = verdictCell(v.verdict);
        m_model->appendRow(row);
    }
    for (const DetectedDrift &d : series.drifts) {
        QList<QStandardItem *> row = rowOf(d.fromTimestamp, series.series.scenario, series.series.metric,
                                           series.series.target, d.fromRunKey, {});
        row[Change] = cell(tr("drift %1 per run").arg(displayMetric(series.series.metric, d.drift.slopePerPoint)), 0.0);
        row[Change]->setToolTip(tr("from %1 to %2 over runs %3 to %4%5")
                                    .arg(displayMetric(series.series.metric, d.drift.valueFrom),
                                         displayMetric(series.series.metric, d.drift.valueTo),
                                         QString::fromStdString(d.fromRunKey), QString::fromStdString(d.toRunKey),
                                         d.perDay ? tr(", %1 per day").arg(displayMetric(series.series.metric, *d.perDay))
                                                  : QString()));
        row[PValue] = cell(QStringLiteral("—"), 2.0);
        row[Verdict] = verdictCell(d.verdict);
        m_model->appendRow(row);
    }
}

void ChangesView::addBaselineRows(const BaselineChange &change)
{
    QList<QStandardItem *> row =
        rowOf(change.timestamp, change.scenario, {}, change.target, change.runKey, change.commit);
    QStringList keys;
    for (const ContractDifference &d : change.differences)
        keys << QString::fromStdString(d.key);
    row[Change] = cell(tr("contract: %1").arg(keys.join(QStringLiteral(", "))), 0.0);
    row[Change]->setToolTip(tr("The tuning contract changed (%1): a new baseline, not a change")
                                .arg(keys.join(QStringLiteral(", "))));
    row[PValue] = cell(QStringLiteral("—"), 2.0);
    row[Verdict] = cell(tr(kBaselineWord));
    row[Verdict]->setForeground(trendContractColor());
    m_model->appendRow(row);
}

// A scenario whose runs ran at several loads (a sweep imported as files): one row saying so, in
// place of a change point or a new baseline between its steps.
void ChangesView::addLoadRows(const LoadSteps &steps)
{
    QList<QStandardItem *> row = rowOf({}, steps.scenario, {}, steps.target, {}, {});
    const QString keys = QString::fromStdString([&] {
        std::string k;
        for (const std::string &key : steps.keys)
            k += (k.empty() ? "" : ", ") + key;
        return k;
    }());
    row[Time] = cell(QStringLiteral("—"), QString());
    row[Time]->setData(QString::fromStdString(steps.scenario), kScenarioRole);
    row[Change] = cell(tr("%1 loads: %2").arg(steps.loads.size()).arg(keys), 0.0);
    row[Change]->setToolTip(tr("%1 runs at %2 loads (%3): each load is a series of its own; what "
                               "differs between them is the load (a sweep), not a change over time")
                                .arg(steps.runs)
                                .arg(steps.loads.size())
                                .arg(keys));
    row[PValue] = cell(QStringLiteral("—"), 2.0);
    row[Verdict] = cell(tr(kLoadsWord));
    m_model->appendRow(row);
}

void ChangesView::refilter()
{
    m_proxy->setFilterFixedString(m_filter->text().trimmed());
    int regressions = 0, improvements = 0, baselines = 0;
    for (int r = 0; r < m_proxy->rowCount(); ++r) {
        const QString verdict = m_proxy->index(r, Verdict).data().toString();
        regressions += verdict == tr("regression");
        improvements += verdict == tr("improvement");
        baselines += verdict == tr(kBaselineWord);
    }
    const auto count = [](int n, const QString &one, const QString &many) {
        return n == 1 ? one : many.arg(QLocale().toString(n));
    };
    QString examined = count(int(m_report.series.size()), tr("1 series examined"), tr("%1 series examined"));
    if (const int inferred = m_report.timeInferredPoints(); inferred > 0)
        examined += count(inferred, tr("; 1 run dated by its file's time, left out of the search"),
                          tr("; %1 runs dated by their file's time, left out of the search"));
    if (m_model->rowCount() == 0) {
        m_summary->setText(tr("No change points and no new baselines; %1").arg(examined));
        return;
    }
    int loads = 0;
    for (int r = 0; r < m_proxy->rowCount(); ++r)
        loads += m_proxy->index(r, Verdict).data().toString() == tr(kLoadsWord);
    m_summary->setText(tr("%1 of %2 shown: %3, %4, %5%6; %7")
                           .arg(shownRows())
                           .arg(m_model->rowCount())
                           .arg(count(regressions, tr("1 regression"), tr("%1 regressions")),
                                count(improvements, tr("1 improvement"), tr("%1 improvements")),
                                count(baselines, tr("1 new baseline"), tr("%1 new baselines")),
                                loads > 0 ? count(loads, tr(", 1 scenario at several loads"),
                                                  tr(", %1 scenarios at several loads"))
                                          : QString(),
                                examined));
}

int ChangesView::shownRows() const
{
    return m_proxy->rowCount();
}

QString ChangesView::summaryText() const
{
    return m_summary->text();
}

void ChangesView::setFilterText(const QString &text)
{
    m_filter->setText(text);
}

void ChangesView::setShown(Show show)
{
    m_show->setCurrentIndex(int(show));
}

void ChangesView::openRow(int row)
{
    const QModelIndex first = m_proxy->index(row, Time);
    if (!first.isValid())
        return;
    emit openSeries(first.data(kScenarioRole).toString(), first.data(kMetricRole).toString(),
                    first.data(kRunRole).toString());
}

} // namespace plimsoll
