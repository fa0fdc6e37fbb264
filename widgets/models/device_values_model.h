#pragma once

#include "widgets/controller/snapshots.h"

#include <QAbstractTableModel>

namespace shardscope::widgets {

/// One value on every device side by side: a row per device with its position, its block's
/// shape, the first elements, the elements the reference says it should hold, min/max, and what
/// the reference check found for it (matches, differs, or not compared and why).
class DeviceValuesModel : public QAbstractTableModel {
  Q_OBJECT

public:
  enum Column { Device, Op, Shape, Elements, Reference, Min, Max, Status, NumColumns };

  explicit DeviceValuesModel(QObject* parent = nullptr);

  void setExecution(ExecutionSnapshotPtr execution);

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

  /// `[1, 2, 3, ...]` for the first `max` elements.
  static QString elementsText(const TensorData& data, int max = 8);

private:
  QString checkText(int row) const;

  ExecutionSnapshotPtr m_execution;
};

} // namespace shardscope::widgets
