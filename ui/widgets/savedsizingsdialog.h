#pragma once
// "Saved sizings": the sizings saved in the store (model/store/savedsizing.h), checkable; Compare
// sizes the checked ones again from the store and shows them side by side, one row per
// component and one column per sizing ("600k now | 1.2M next year"); Load hands the current one
// back (loadRequested) for a view to put into its fields; Remove asks first.
//
// Threading: the store (a team's may be across a network) is read and written on the window's
// background pool only (LatestTask, with the path and copies of the saved sizings): the list when
// the dialog opens and after each change (listed() follows), a removal, and Compare, which sizes
// the checked ones again; only the latest of each is shown.

#include "model/store/savedsizing.h"

#include <QDialog>

class QLabel;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace plimsoll {

class LatestTask;

class SavedSizingsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit SavedSizingsDialog(const QString &storePath, QWidget *parent = nullptr);

    // Re-reads the saved sizings in the background, keeping the checks of those still there
    // (listed() follows).
    void refresh();
    // Sizes the checked sizings again and shows them (comparisonReady follows).
    void compareChecked();
    // Asks, then removes the current sizing.
    void removeCurrent();
    // Emits loadRequested for the current sizing.
    void loadCurrent();

    QListWidget *sizingList() const { return m_list; } // one checkable item per saved sizing
    QTableWidget *comparisonTable() const { return m_table; }
    QPushButton *compareButton() const { return m_compare; }
    QPushButton *loadButton() const { return m_load; }
    QPushButton *removeButton() const { return m_remove; }
    QLabel *statusLabel() const { return m_status; }
    const std::vector<SavedSizing> &sizings() const { return m_sizings; }
    // Checks the sizing named `name` (for a caller that knows which to compare).
    bool setChecked(const QString &name, bool checked);
    bool isComparing() const;

signals:
    void loadRequested(const plimsoll::SavedSizing &sizing);
    void comparisonReady();
    void listed(); // the list shows the store's saved sizings (or why it cannot)
    void sizingRemoved(); // a saved sizing was removed from the store

private:
    void updateButtons();
    void showList(const std::vector<SavedSizing> &sizings);
    void showComparison(const SizingComparison &comparison);
    std::vector<SavedSizing> checkedSizings() const;
    const SavedSizing *currentSizing() const;

    QString m_storePath;
    std::vector<SavedSizing> m_sizings; // in list order
    QListWidget *m_list = nullptr;
    QTableWidget *m_table = nullptr;
    QPushButton *m_compare = nullptr;
    QPushButton *m_load = nullptr;
    QPushButton *m_remove = nullptr;
    QLabel *m_status = nullptr;
    LatestTask *m_task = nullptr;   // Compare
    LatestTask *m_lister = nullptr; // the list, and a removal
};

} // namespace plimsoll
