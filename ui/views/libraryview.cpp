#include "ui/views/libraryview.h"

#include "model/store/store.h"
#include "ui/latesttask.h"
#include "ui/models/runsfilterproxymodel.h"
#include "ui/models/runstablemodel.h"
#include "ui/views/rundetailpanel.h"

#include <QDateEdit>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLabel>
#include <QClipboard>
#include <QGuiApplication>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace plimsoll {

namespace {

// A new name for run `runId` as `plimsoll name` takes it: an empty one clears it.
RunLabelRequest renameRequest(qint64 runId, const QString &name)
{
    RunLabelRequest request;
    request.run = std::to_string(runId);
    if (name.trimmed().isEmpty())
        request.clearName = true;
    else
        request.name = name.toStdString();
    return request;
}

// The earliest selectable date doubles as "no bound": QDateEdit has no empty state.
const QDate kNoDate(2000, 1, 1);

// Typing in the search field re-queries the store; wait for a pause in typing.
constexpr int kSearchDebounceMs = 250;

struct RunsSnapshot
{
    std::vector<RunSummary> runs;
    qint64 total = 0;
    bool complete = true; // no runs after these
};

// The store's order for a column of the table, as RunsTableModel sorts it.
RunPage::Order pageOrderFor(int column)
{
    switch (column) {
    case RunsTableModel::RunKeyColumn:
        return RunPage::Order::RunKey;
    case RunsTableModel::NameColumn:
        return RunPage::Order::Name;
    case RunsTableModel::ToolColumn:
        return RunPage::Order::Tool;
    case RunsTableModel::TargetColumn:
        return RunPage::Order::Target;
    case RunsTableModel::CommitColumn:
        return RunPage::Order::Commit;
    case RunsTableModel::ScenariosColumn:
        return RunPage::Order::Scenarios;
    case RunsTableModel::SampleColumn:
        return RunPage::Order::Sample;
    default:
        return RunPage::Order::Time;
    }
}

RunsSnapshot readPage(const std::string &path, const RunFilter &filter, const RunPage &page,
                      bool count)
{
    Store store(path);
    RunsSnapshot snapshot;
    snapshot.runs = store.runs(filter, page);
    snapshot.complete = static_cast<int64_t>(snapshot.runs.size()) < page.limit;
    if (count)
        snapshot.total = store.runCount();
    return snapshot;
}

QDateEdit *makeDateEdit(const QString &objectName, QWidget *parent)
{
    auto *edit = new QDateEdit(parent);
    edit->setObjectName(objectName);
    edit->setCalendarPopup(true);
    edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));
    edit->setMinimumDate(kNoDate);
    edit->setSpecialValueText(QObject::tr("any"));
    edit->setDate(kNoDate);
    return edit;
}

} // namespace

ViewIdentity LibraryView::identity()
{
    return {QStringLiteral("library"), tr("Library"), QStyle::SP_FileDialogDetailedView};
}

LibraryView::LibraryView(const QString &storePath, QWidget *parent)
    : StoreView(storePath, identity(), parent)
{
    setObjectName(QStringLiteral("libraryView"));
    m_model = new RunsTableModel(this);
    m_proxy = new RunsFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_runsLoader = new LatestTask(this);
    m_pageLoader = new LatestTask(this);
    m_detailLoader = new LatestTask(this);

    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("searchField"));
    m_search->setPlaceholderText(searchHint());
    m_search->setToolTip(tr("Finds runs whose run key, name, tags, commit, tool, target, a scenario "
                            "name or the source file's name or path contains the text, in any case"));
    m_search->installEventFilter(this); // a narrower field gets a shorter hint
    m_search->setClearButtonEnabled(true);
    m_commitFilter = new QLineEdit(this);
    m_commitFilter->setObjectName(QStringLiteral("commitFilter"));
    m_commitFilter->setPlaceholderText(tr("Commit prefix…"));
    m_commitFilter->setClearButtonEnabled(true);
    m_from = makeDateEdit(QStringLiteral("dateFrom"), this);
    m_to = makeDateEdit(QStringLiteral("dateTo"), this);
    m_tools = new QToolBar(this);
    m_tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

    auto *filters = new QHBoxLayout;
    filters->addWidget(m_search, 2);
    filters->addWidget(m_commitFilter, 1);
    filters->addWidget(new QLabel(tr("From"), this));
    filters->addWidget(m_from);
    filters->addWidget(new QLabel(tr("to"), this));
    filters->addWidget(m_to);
    filters->addWidget(m_tools);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("runsTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    // Column widths from a sample of rows, not from every run of a years-long history.
    m_table->horizontalHeader()->setResizeContentsPrecision(200);
    m_table->sortByColumn(RunsTableModel::TimeColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setAlternatingRowColors(true);
    // The Name cell: double-click or F2 edits it (the other cells are read-only).
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);

    m_table->viewport()->installEventFilter(this); // refits the columns to a new width
    connect(m_table->horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column) {
        // The last column stretches with the table; any other resize not ours is the user's.
        if (!m_fittingColumns && column != m_proxy->columnCount() - 1)
            m_userSizedColumns = true;
    });

    m_detail = new RunDetailPanel(this);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("librarySplitter"));
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(m_table);
    splitter->addWidget(m_detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({420, 280});

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addWidget(splitter, 1);

    m_searchDebounce = new QTimer(this);
    m_searchDebounce->setSingleShot(true);
    m_searchDebounce->setInterval(kSearchDebounceMs);
    connect(m_searchDebounce, &QTimer::timeout, this, &LibraryView::reload);
    connect(m_search, &QLineEdit::textChanged, m_searchDebounce,
            qOverload<>(&QTimer::start));
    connect(m_commitFilter, &QLineEdit::textChanged, m_proxy,
            &RunsFilterProxyModel::setCommitPrefix);
    connect(m_from, &QDateEdit::dateChanged, this, &LibraryView::applyDateFilter);
    connect(m_to, &QDateEdit::dateChanged, this, &LibraryView::applyDateFilter);
    // A narrower filter may leave the last loaded row in sight: look further back (once the
    // table has laid out what is left).
    const auto lookFurther = [this] {
        QTimer::singleShot(0, this, &LibraryView::fetchWhileLastRowInSight);
    };
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, lookFurther);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, lookFurther);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &LibraryView::showSelectedRun);
    connect(m_model, &RunsTableModel::moreRequested, this, &LibraryView::fetchNextPage);
    m_compareThese = new QAction(tr("Compare These"), this);
    m_compareThese->setObjectName(QStringLiteral("compareTheseAction"));
    m_compareThese->setToolTip(tr("Select two or more runs (Ctrl or Shift and click), then compare them side by "
                                  "side; the first in the table is the baseline"));
    m_compareThese->setEnabled(false);
    m_tools->addAction(m_compareThese);
    connect(m_compareThese, &QAction::triggered, this, [this] {
        const QStringList keys = selectedRunKeys();
        if (keys.size() >= 2)
            emit compareRequested(keys);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { m_compareThese->setEnabled(selectedRunKeys().size() >= 2); });
    connect(m_model, &RunsTableModel::renameRequested, this,
            [this](qint64 runId, const QString &name) { emit labelsRequested(renameRequest(runId, name)); });
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, &LibraryView::showContextMenu);
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_proxy, signal, this, &LibraryView::updateCount);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &LibraryView::updateCount);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &LibraryView::updateCount);
    // The proxy sorts what is loaded; while pages remain, the store reads again in the new order.
    connect(m_table->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, [this] {
        if (!m_model->isComplete())
            reload();
    });
}


QStringList LibraryView::selectedRunKeys() const
{
    QModelIndexList rows = m_table->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    QStringList keys;
    for (const QModelIndex &row : rows)
        keys << row.data(RunsTableModel::RunKeyRole).toString();
    return keys;
}

void LibraryView::addToolAction(QAction *action)
{
    m_tools->addAction(action);
}

void LibraryView::setSearchText(const QString &text)
{
    m_search->setText(text);
}

void LibraryView::setCommitFilter(const QString &text)
{
    m_commitFilter->setText(text);
}

void LibraryView::selectRow(int proxyRow)
{
    m_table->selectRow(proxyRow);
    m_table->setCurrentIndex(m_proxy->index(proxyRow, 0));
}

void LibraryView::reload()
{
    m_searchDebounce->stop();
    m_pageLoader->cancel(); // a page of the previous read would continue the wrong list
    m_fetching = false;
    m_reloading = true; // and no page continues it until the new first page is in
    const std::string path = storePath().toStdString();
    RunFilter filter;
    filter.textContains = m_search->text().trimmed().toStdString();
    RunPage page;
    page.order = pageOrderFor(m_table->horizontalHeader()->sortIndicatorSection());
    page.descending = m_table->horizontalHeader()->sortIndicatorOrder() == Qt::DescendingOrder;
    page.limit = kLibraryPageSize;
    m_runsLoader->start(
        [path, filter, page] { return readPage(path, filter, page, true); },
        [this, filter, page](const RunsSnapshot &snapshot) {
            m_reloading = false;
            m_filter = filter;
            m_page = page;
            const QModelIndex current = m_table->currentIndex();
            const qint64 selectedId =
                current.isValid() ? current.data(RunsTableModel::RunIdRole).toLongLong() : -1;
            m_storeRunCount = snapshot.total;
            // A hidden run no longer read has been removed: it no longer counts as hidden.
            QSet<qint64> stillHidden;
            for (const RunSummary &run : snapshot.runs)
                if (m_proxy->hiddenRuns().contains(run.id))
                    stillHidden.insert(run.id);
            m_proxy->setHiddenRuns(stillHidden);
            m_model->setResults(snapshot.runs, snapshot.complete);
            showTagsColumnWhenUsed();
            const int row = selectedId >= 0 ? m_model->rowOfRun(selectedId) : -1;
            const QModelIndex restored = m_proxy->mapFromSource(m_model->index(row, 0));
            if (restored.isValid()) {
                m_table->selectRow(restored.row());
                m_table->setCurrentIndex(restored);
            } else {
                m_detail->clear();
            }
            if (m_model->rowCount() > 0)
                fitColumns();
            emit runsLoaded(m_model->rowCount(), snapshot.total);
            updateCount();
            fetchWhileLastRowInSight();
        },
        [this](const QString &error) {
            m_reloading = false;
            emit loadFailed(error);
        });
}

void LibraryView::fetchNextPage()
{
    if (m_fetching || m_reloading || m_model->isComplete() || m_model->rowCount() == 0)
        return;
    m_fetching = true;
    RunPage page = m_page;
    page.after = m_model->runAt(m_model->rowCount() - 1); // rows are in the store's order
    m_pageLoader->start(
        [path = storePath().toStdString(), filter = m_filter, page] {
            return readPage(path, filter, page, false);
        },
        [this, after = page.after->id](const RunsSnapshot &snapshot) {
            m_fetching = false;
            if (m_model->rowCount() == 0 || m_model->runAt(m_model->rowCount() - 1).id != after)
                return; // the list changed under this page
            m_model->appendResults(snapshot.runs, snapshot.complete);
            showTagsColumnWhenUsed();
            emit runsLoaded(m_model->rowCount(), m_storeRunCount);
            updateCount();
            fetchWhileLastRowInSight();
        },
        [this](const QString &error) {
            m_fetching = false;
            emit loadFailed(error);
        });
}

void LibraryView::fetchWhileLastRowInSight()
{
    if (m_model->isComplete() || !m_table->isVisible())
        return;
    const int rows = m_proxy->rowCount();
    if (rows > 0) {
        const QRect last = m_table->visualRect(m_proxy->index(rows - 1, 0));
        if (!m_table->viewport()->rect().intersects(last))
            return;
    }
    fetchNextPage();
}

void LibraryView::applyDateFilter()
{
    const QDate from = m_from->date() == kNoDate ? QDate() : m_from->date();
    const QDate to = m_to->date() == kNoDate ? QDate() : m_to->date();
    m_proxy->setDateRange(from, to);
}

void LibraryView::showSelectedRun()
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid()) {
        m_detailLoader->cancel();
        m_detail->clear();
        return;
    }
    const std::string key = std::to_string(current.data(RunsTableModel::RunIdRole).toLongLong());
    const std::string path = storePath().toStdString();
    m_detailLoader->start(
        [path, key] { return Store(path).run(key); },
        [this](const std::optional<RunDetail> &detail) {
            if (!detail) {
                m_detail->showPlaceholder(tr("This run is no longer in the store."));
                return;
            }
            m_detail->showRun(*detail);
            emit runDetailShown(QString::fromStdString(detail->record.runKey));
        },
        [this](const QString &error) {
            m_detail->showPlaceholder(tr("Cannot read the run: %1").arg(error));
        });
}

QString LibraryView::countText() const
{
    const QLocale locale;
    const qint64 total = m_storeRunCount - m_proxy->hiddenRuns().size();
    const QString all = total == 1 ? tr("1 run") : tr("%1 runs").arg(locale.toString(total));
    const bool narrowed = !m_filter.textContains.empty() || m_proxy->isFiltering();
    if (!narrowed)
        return all;
    const int shown = m_proxy->rowCount();
    const QString shownText = locale.toString(shown) + (m_model->isComplete() ? QString() : QStringLiteral("+"));
    return tr("%1 of %2").arg(shownText, all);
}

void LibraryView::updateCount()
{
    emit countChanged(countText());
}

void LibraryView::fitColumns()
{
    if (m_userSizedColumns)
        return;
    m_fittingColumns = true;
    QHeaderView *header = m_table->horizontalHeader();
    m_table->resizeColumnsToContents();
    const int room = m_table->viewport()->width();
    const int most = std::max(160, room / 3);
    for (int column = 0; column < m_proxy->columnCount(); ++column) {
        if (m_table->columnWidth(column) > most)
            m_table->setColumnWidth(column, most);
    }
    // Still too wide: cap the text columns at the widest width that lets everything fit (no
    // narrower than their header and a few characters), so the last columns are never off to
    // the right at a small window size.
    const QList<int> squeezable = {RunsTableModel::NameColumn, RunsTableModel::RunKeyColumn,
                                   RunsTableModel::TagsColumn, RunsTableModel::ToolColumn,
                                   RunsTableModel::TargetColumn, RunsTableModel::CommitColumn};
    const auto floorOf = [&](int column) {
        const int text = fontMetrics().averageCharWidth() * 8;
        return std::max(text, header->sectionSizeHint(column));
    };
    // The last column stretches to what is left, so its own need is its contents or header.
    const int last = m_proxy->columnCount() - 1;
    const int lastNeeds = std::max(static_cast<QAbstractItemView *>(m_table)->sizeHintForColumn(last),
                                   header->sectionSizeHint(last));
    const auto totalWithCap = [&](int cap) {
        int total = 0;
        for (int column = 0; column < m_proxy->columnCount(); ++column) {
            const int width = column == last ? lastNeeds : m_table->columnWidth(column);
            total += squeezable.contains(column) ? std::min(width, std::max(cap, floorOf(column)))
                                                 : width;
        }
        return total;
    };
    if (totalWithCap(most) > room) {
        int low = 0, high = most; // the largest cap whose total fits
        while (low < high) {
            const int mid = (low + high + 1) / 2;
            if (totalWithCap(mid) <= room)
                low = mid;
            else
                high = mid - 1;
        }
        for (const int column : squeezable)
            if (m_table->columnWidth(column) > std::max(low, floorOf(column)))
                m_table->setColumnWidth(column, std::max(low, floorOf(column)));
    }
    m_table->setColumnWidth(last, lastNeeds); // the least it stretches down to
    m_fittingColumns = false;
}

QString LibraryView::searchHint() const
{
    // The whole hint where it fits (the clear button and frame take about two characters).
    const QString full = tr("Search name, tags, key, file, commit, tool, target, scenario…");
    if (!m_search)
        return full;
    const QFontMetrics metrics = m_search->fontMetrics();
    const int room = m_search->width() - 2 * metrics.averageCharWidth() - 16;
    return metrics.horizontalAdvance(full) <= room ? full : tr("Search runs…");
}

bool LibraryView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_search && event->type() == QEvent::Resize)
        m_search->setPlaceholderText(searchHint());
    else if (m_table && watched == m_table->viewport() && event->type() == QEvent::Resize &&
             m_model->rowCount() > 0)
        fitColumns(); // the filter is installed before the table exists
    return StoreView::eventFilter(watched, event);
}

void LibraryView::showContextMenu(const QPoint &position)
{
    const QModelIndex index = m_table->indexAt(position);
    if (!index.isValid())
        return;
    const int row = index.row();
    // A click inside a selection of several keeps it, for "Compare These".
    if (!m_table->selectionModel()->isRowSelected(row, {}))
        selectRow(row);
    const QString runKey = index.data(RunsTableModel::RunKeyRole).toString();
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("runContextMenu"));
    menu.addAction(tr("Show Details"), this, [this] { m_detail->setFocus(); });
    QAction *rename = menu.addAction(tr("Rename…"), this, [this, row] { requestRename(row); });
    rename->setObjectName(QStringLiteral("renameRunAction"));
    QAction *tags = menu.addAction(tr("Tags…"), this, [this, row] { requestTags(row); });
    tags->setObjectName(QStringLiteral("tagRunAction"));
    for (QAction *write : {rename, tags}) {
        write->setEnabled(m_removalRefused.isEmpty());
        write->setToolTip(m_removalRefused);
    }
    menu.addAction(tr("Copy Run Key"), this,
                   [runKey] { QGuiApplication::clipboard()->setText(runKey); });
    menu.addAction(m_compareThese);
    menu.addSeparator();
    QAction *remove = menu.addAction(style()->standardIcon(QStyle::SP_TrashIcon), tr("Remove Run…"), this,
                                     [this, row] { requestRemoval(row); });
    remove->setObjectName(QStringLiteral("removeRunAction"));
    remove->setEnabled(m_removalRefused.isEmpty());
    remove->setToolTip(m_removalRefused);
    menu.setToolTipsVisible(true);
    menu.exec(m_table->viewport()->mapToGlobal(position));
}

void LibraryView::requestRemoval(int proxyRow)
{
    if (!m_removalRefused.isEmpty())
        return;
    const QModelIndex index = m_proxy->index(proxyRow, 0);
    if (!index.isValid())
        return;
    const qint64 runId = index.data(RunsTableModel::RunIdRole).toLongLong();
    const QString runKey = index.data(RunsTableModel::RunKeyRole).toString();
    auto *box = new QMessageBox(QMessageBox::Question, tr("Remove run"),
                                tr("Remove the run %1 and its scenarios from the store?").arg(runKey),
                                QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("confirmRemoveRun"));
    box->setInformativeText(tr("You can undo this for a few seconds afterwards."));
    QPushButton *remove = box->addButton(tr("Remove"), QMessageBox::DestructiveRole);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, remove, runId, runKey](QAbstractButton *b) {
        if (b == remove)
            emit removalConfirmed(runId, runKey);
        m_table->setFocus();
    });
    box->open();
}

void LibraryView::askLabel(int proxyRow, int column, const QString &objectName, const QString &title,
                           const QString &label, const std::function<RunLabelRequest(qint64, const QString &)> &request)
{
    const QModelIndex index = m_proxy->index(proxyRow, column);
    if (!index.isValid() || !m_removalRefused.isEmpty())
        return;
    const qint64 runId = index.data(RunsTableModel::RunIdRole).toLongLong();
    auto *ask = new QInputDialog(this);
    ask->setObjectName(objectName);
    ask->setWindowTitle(title);
    ask->setLabelText(label.arg(index.data(RunsTableModel::RunKeyRole).toString()));
    ask->setTextValue(index.data(Qt::EditRole).toString());
    ask->setAttribute(Qt::WA_DeleteOnClose);
    connect(ask, &QInputDialog::textValueSelected, this,
            [this, runId, request](const QString &text) { emit labelsRequested(request(runId, text)); });
    ask->open();
}

void LibraryView::requestRename(int proxyRow)
{
    askLabel(proxyRow, RunsTableModel::NameColumn, QStringLiteral("renameRunDialog"), tr("Rename run"),
             tr("A name for the run %1, shown beside its key and found by the search (empty: no name):"),
             renameRequest);
}

void LibraryView::requestTags(int proxyRow)
{
    askLabel(proxyRow, RunsTableModel::TagsColumn, QStringLiteral("runTagsDialog"), tr("Tags"),
             tr("Tags of the run %1, separated by spaces (each a word without commas; empty: none):"),
             [](qint64 runId, const QString &text) {
                 RunLabelRequest request;
                 request.run = std::to_string(runId);
                 std::vector<std::string> tags;
                 for (const QString &t : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
                     tags.push_back(t.toStdString());
                 request.setTags = std::move(tags);
                 return request;
             });
}

void LibraryView::showTagsColumnWhenUsed()
{
    const bool hidden = !m_model->anyTags();
    if (m_table->isColumnHidden(RunsTableModel::TagsColumn) == hidden)
        return;
    m_table->setColumnHidden(RunsTableModel::TagsColumn, hidden);
    if (m_model->rowCount() > 0)
        fitColumns();
}

void LibraryView::showLabels(const RunSummary &run)
{
    m_model->setLabels(run.id, run.name, run.tags);
    showTagsColumnWhenUsed();
    const QModelIndex current = m_table->currentIndex();
    if (current.isValid() && current.data(RunsTableModel::RunIdRole).toLongLong() == run.id)
        showSelectedRun();
}

void LibraryView::hideRuns(const QList<qint64> &runIds)
{
    QSet<qint64> hidden = m_proxy->hiddenRuns();
    for (const qint64 id : runIds)
        hidden.insert(id);
    m_proxy->setHiddenRuns(hidden);
    updateCount();
}

void LibraryView::showRuns(const QList<qint64> &runIds)
{
    QSet<qint64> hidden = m_proxy->hiddenRuns();
    for (const qint64 id : runIds)
        hidden.remove(id);
    m_proxy->setHiddenRuns(hidden);
    updateCount();
}

} // namespace plimsoll
