#pragma once
// The details of one run: identity, provenance, tuning and its scenarios with topology and
// metrics. Shows a RunDetail it is given; loading it is the Library view's job.

#include "model/store/store.h"

#include <QWidget>

class QLabel;
class QScrollArea;
class QTreeWidget;

namespace plimsoll {

class RunDetailPanel : public QWidget
{
    Q_OBJECT
public:
    explicit RunDetailPanel(QWidget *parent = nullptr);

    void showRun(const RunDetail &detail);
    void showPlaceholder(const QString &text);
    void clear() { showPlaceholder(tr("Select a run to see its details.")); }

    // For tests and accessibility: the text currently shown for a field ("commit", ...).
    QString fieldText(const QString &field) const;
    int scenarioCount() const;

private:
    QLabel *addField(const QString &field, const QString &label);

    QLabel *m_heading = nullptr;
    QWidget *m_fields = nullptr;
    QScrollArea *m_fieldsScroll = nullptr;
    QTreeWidget *m_scenarios = nullptr;
};

} // namespace plimsoll
