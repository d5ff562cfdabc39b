#pragma once
// A flat table whose columns have fixed titles, given once at construction: the column count
// and the header come from here, so a model says only how many rows it has and what its
// cells show.

#include <QAbstractTableModel>
#include <QStringList>

namespace plimsoll {

class TitledTableModel : public QAbstractTableModel
{
public:
    int columnCount(const QModelIndex &parent = {}) const final;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    TitledTableModel(QStringList titles, QObject *parent);

private:
    QStringList m_titles;
};

} // namespace plimsoll
