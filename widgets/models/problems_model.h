#pragma once

#include "widgets/controller/snapshots.h"

#include <QAbstractTableModel>

namespace shardscope::widgets {

/// Diagnostics with their locations: severity, line, message, the stage that reported it.
/// `LineRole` holds the source line.
class ProblemsModel : public QAbstractTableModel {
  Q_OBJECT

public:
  enum Column { Severity, Line, Message, Stage, NumColumns };
  enum Role {
    LineRole = Qt::UserRole, ///< the source line (0 when none)
  };

  explicit ProblemsModel(QObject* parent = nullptr);

  void setRows(QVector<ProblemRow> rows);
  const QVector<ProblemRow>& rows() const { return m_rows; }

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

private:
  QVector<ProblemRow> m_rows;
};

} // namespace shardscope::widgets
