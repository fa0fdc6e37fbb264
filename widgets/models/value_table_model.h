#pragma once

#include "widgets/controller/snapshots.h"

#include <QAbstractTableModel>

namespace shardscope::widgets {

/// The values of one stage: name, type, JAX typed notation, PartitionSpec, Shardy sharding,
/// variance. `Qt::UserRole` holds the value id. Against a diff base, rows whose sharding changed
/// (or that the base does not have) are bold, and a last column says `was → now` (in
/// PartitionSpec notation, Shardy's in its tooltip).
class ValueTableModel : public QAbstractTableModel {
  Q_OBJECT

public:
  enum Column { Name, Type, Typed, Variance, Spec, Shardy, Op, Change, NumColumns };
  enum Role {
    IdRole = Qt::UserRole, ///< the value's stable id
    LineRole,              ///< its source line
  };

  explicit ValueTableModel(QObject* parent = nullptr);

  /// Shows `rows`; values whose sharding differs from `base` (when given) are marked changed and
  /// the `Change` column (there only with a base, headed with `baseTitle`) says how.
  void setRows(QVector<ValueRow> rows, const QVector<ValueRow>* base = nullptr,
               const QString& baseTitle = QString());
  const QVector<ValueRow>& rows() const { return m_rows; }
  /// The row of value `id`, or -1.
  int rowOf(const QString& id) const;
  bool isChanged(int row) const { return m_changed.value(row); }

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

private:
  QVector<ValueRow> m_rows;
  QVector<bool> m_changed;
  QVector<QString> m_change;    ///< the Change column per row (PartitionSpec notation)
  QVector<QString> m_changeTip; ///< the same in Shardy notation
  bool m_diff = false;
  QString m_baseTitle;
};

} // namespace shardscope::widgets
