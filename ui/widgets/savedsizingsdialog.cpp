#include "ui/widgets/savedsizingsdialog.h"

#include "model/store/store.h"
#include "ui/latesttask.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSet>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace plimsoll {

namespace {

constexpr int kNameRole = Qt::UserRole + 1;
// The SizingComparisonRow key of a table row, on its vertical header item.
constexpr int kRowKeyRole = Qt::UserRole + 2;

QString itemText(const SavedSizing &s)
{
    return QStringLiteral("%1 — %2, %3 (saved %4)")
        .arg(QString::fromStdString(s.name), QString::fromStdString(s.rateText()),
             QString::fromStdString(s.evidence.describe()), QString::fromStdString(s.savedAt));
}

} // namespace

SavedSizingsDialog::SavedSizingsDialog(const QString &storePath, QWidget *parent)
    : QDialog(parent), m_storePath(storePath), m_task(new LatestTask(this)), m_lister(new LatestTask(this))
{
    setWindowTitle(tr("Saved sizings"));
    setObjectName(QStringLiteral("savedSizingsDialog"));
    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("savedSizingsList"));
    m_table = new QTableWidget;
    m_table->setObjectName(QStringLiteral("savedSizingsComparison"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_compare = new QPushButton(tr("Compare"));
    m_compare->setToolTip(tr("Size the checked sizings again from the store and show them side by side"));
    m_load = new QPushButton(tr("Load"));
    m_load->setToolTip(tr("Put the selected sizing's inputs and runs into the Sizing view"));
    m_remove = new QPushButton(tr("Remove…"));
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_compare);
    buttons->addWidget(m_load);
    buttons->addWidget(m_remove);
    buttons->addStretch();
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addWidget(close);
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_list);
    split->addWidget(m_table);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Check two or more to compare them, component by component. "
                                    "Each is sized again from the runs in the store now.")));
    layout->addWidget(split, 1);
    layout->addWidget(m_status);
    layout->addLayout(buttons);
    resize(760, 520);

    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_compare, &QPushButton::clicked, this, &SavedSizingsDialog::compareChecked);
    connect(m_load, &QPushButton::clicked, this, &SavedSizingsDialog::loadCurrent);
    connect(m_remove, &QPushButton::clicked, this, &SavedSizingsDialog::removeCurrent);
    connect(m_list, &QListWidget::itemChanged, this, &SavedSizingsDialog::updateButtons);
    connect(m_list, &QListWidget::currentItemChanged, this, &SavedSizingsDialog::updateButtons);
    connect(m_list, &QListWidget::itemDoubleClicked, this, &SavedSizingsDialog::loadCurrent);
    refresh();
}

void SavedSizingsDialog::refresh()
{
    m_status->setText(tr("Reading the saved sizings…"));
    m_lister->start([path = m_storePath.toStdString()] { return SavedSizings::list(Store(path)); },
                    [this](const std::vector<SavedSizing> &sizings) {
                        showList(sizings);
                        m_status->setText(sizings.empty()
                                              ? tr("No saved sizings yet: “Save sizing…” in the Sizing view "
                                                   "(or `plimsoll size … --save NAME`) saves one.")
                                              : QString());
                        emit listed();
                    },
                    [this](const QString &error) {
                        showList({});
                        m_status->setText(error);
                        emit listed();
                    });
}

void SavedSizingsDialog::showList(const std::vector<SavedSizing> &sizings)
{
    QSet<QString> checked;
    for (const SavedSizing &s : checkedSizings())
        checked.insert(QString::fromStdString(s.name));
    const QString current = currentSizing() ? QString::fromStdString(currentSizing()->name) : QString();
    QSignalBlocker block(m_list);
    m_list->clear();
    m_sizings = sizings;
    for (const SavedSizing &s : m_sizings) {
        const QString name = QString::fromStdString(s.name);
        auto *item = new QListWidgetItem(itemText(s), m_list);
        item->setData(kNameRole, name);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(checked.contains(name) ? Qt::Checked : Qt::Unchecked);
        if (name == current)
            m_list->setCurrentItem(item);
    }
    updateButtons();
}

bool SavedSizingsDialog::setChecked(const QString &name, bool checked)
{
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem *item = m_list->item(i);
        if (item->data(kNameRole).toString() == name) {
            item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
            return true;
        }
    }
    return false;
}

bool SavedSizingsDialog::isComparing() const { return m_task->isRunning(); }

std::vector<SavedSizing> SavedSizingsDialog::checkedSizings() const
{
    std::vector<SavedSizing> out;
    for (int i = 0; i < m_list->count() && i < int(m_sizings.size()); ++i)
        if (m_list->item(i)->checkState() == Qt::Checked)
            out.push_back(m_sizings[size_t(i)]);
    return out;
}

const SavedSizing *SavedSizingsDialog::currentSizing() const
{
    const int row = m_list->currentRow();
    return row >= 0 && row < int(m_sizings.size()) ? &m_sizings[size_t(row)] : nullptr;
}

void SavedSizingsDialog::updateButtons()
{
    const size_t checked = checkedSizings().size();
    m_compare->setEnabled(checked >= 2);
    m_compare->setText(checked >= 2 ? tr("Compare %1").arg(checked) : tr("Compare"));
    m_load->setEnabled(currentSizing() != nullptr);
    m_remove->setEnabled(currentSizing() != nullptr);
}

void SavedSizingsDialog::compareChecked()
{
    std::vector<SavedSizing> chosen = checkedSizings();
    if (chosen.size() < 2) {
        m_status->setText(tr("Check two or more saved sizings to compare them."));
        return;
    }
    m_status->setText(tr("Sizing %1 saved sizings from the store…").arg(chosen.size()));
    m_task->start(
        [path = m_storePath.toStdString(), chosen = std::move(chosen)] {
            const Store store(path);
            std::vector<std::pair<std::string, SizingResult>> sized;
            for (const SavedSizing &s : chosen)
                sized.emplace_back(s.name, sizeSaved(store, s));
            return compareSizings(sized);
        },
        [this](const SizingComparison &comparison) {
            showComparison(comparison);
            m_status->clear();
            emit comparisonReady();
        },
        [this](const QString &error) { m_status->setText(tr("Could not compare: %1").arg(error)); });
}

void SavedSizingsDialog::showComparison(const SizingComparison &c)
{
    m_table->clear();
    m_table->setColumnCount(int(c.names.size()));
    m_table->setRowCount(int(c.rows.size()));
    QStringList names;
    for (const std::string &n : c.names)
        names << QString::fromStdString(n);
    m_table->setHorizontalHeaderLabels(names);
    for (int r = 0; r < int(c.rows.size()); ++r) {
        const SizingComparisonRow &row = c.rows[size_t(r)];
        auto *header = new QTableWidgetItem(QString::fromStdString(row.label));
        header->setData(kRowKeyRole, QString::fromStdString(row.key));
        m_table->setVerticalHeaderItem(r, header);
        for (int col = 0; col < int(row.values.size()); ++col) {
            auto *cell = new QTableWidgetItem(QString::fromStdString(row.values[size_t(col)]));
            cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            cell->setToolTip(cell->text());
            m_table->setItem(r, col, cell);
        }
    }
}

void SavedSizingsDialog::loadCurrent()
{
    if (const SavedSizing *s = currentSizing())
        emit loadRequested(*s);
}

void SavedSizingsDialog::removeCurrent()
{
    const SavedSizing *s = currentSizing();
    if (!s)
        return;
    const QString name = QString::fromStdString(s->name);
    auto *box = new QMessageBox(QMessageBox::Question, tr("Remove saved sizing"),
                                tr("Remove the saved sizing “%1”?").arg(name), QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("confirmRemoveSizing"));
    box->setInformativeText(tr("Its inputs and run selection are forgotten; the runs stay in the store."));
    QPushButton *remove = box->addButton(tr("Remove"), QMessageBox::DestructiveRole);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, remove, name](QAbstractButton *b) {
        if (b != remove)
            return;
        m_status->setText(tr("Removing “%1”…").arg(name));
        m_lister->start(
            [path = m_storePath.toStdString(), n = name.toStdString()] {
                Store store(path);
                SavedSizings::remove(store, n);
                return SavedSizings::list(store);
            },
            [this, name](const std::vector<SavedSizing> &sizings) {
                showList(sizings);
                m_status->setText(tr("Removed “%1”.").arg(name));
                emit sizingRemoved();
                emit listed();
            },
            [this](const QString &error) {
                m_status->setText(error);
                emit listed();
            });
    });
    box->open();
}

} // namespace plimsoll
