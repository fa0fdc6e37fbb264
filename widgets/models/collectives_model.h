#pragma once

#include "widgets/controller/snapshots.h"

#include <QAbstractTableModel>

namespace shardscope::widgets {

/// The collectives of one stage: op, kind, axes, bytes sent and received per device, and why it
/// is there. `Qt::UserRole` holds the op id; collectives new against a diff base are bold.
class CollectivesModel : public QAbstractTableModel {
  Q_OBJECT

public:
  enum Column { Op, Line, Kind, Axes, Sent, Received, Why, NumColumns };
  enum Role {
    IdRole = Qt::UserRole, ///< the op's stable id
  };

  explicit CollectivesModel(QObject* parent = nullptr);

  void setRows(QVector<CollectiveRow> rows, const QVector<CollectiveRow>* base = nullptr);
  const QVector<CollectiveRow>& rows() const { return m_rows; }
  int rowOf(const QString& opId) const;
  bool isAdded(int row) const { return m_added.value(row); }

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  /// `512 B`, `1.5 KiB`, `64.0 MiB`.
  static QString formatBytes(qint64 bytes);

private:
  QVector<CollectiveRow> m_rows;
  QVector<bool> m_added;
};

} // namespace shardscope::widgets
