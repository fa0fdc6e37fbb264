#include "widgets/models/device_values_model.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace shardscope::widgets {

DeviceValuesModel::DeviceValuesModel(QObject* parent) : QAbstractTableModel(parent) {}

void DeviceValuesModel::setExecution(ExecutionSnapshotPtr execution) {
  beginResetModel();
  m_execution = std::move(execution);
  endResetModel();
}

QString DeviceValuesModel::elementsText(const TensorData& data, int max) {
  if (!data.valid)
    return data.note.isEmpty() ? QStringLiteral("\u2014") : data.note;
  QStringList parts;
  for (int i = 0; i < std::min<int>(max, data.values.size()); ++i)
    parts.push_back(QString::number(data.values[i], 'g', 4));
  if (data.values.size() > max)
    parts.push_back(QStringLiteral("\u2026"));
  return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
}

int DeviceValuesModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !m_execution ? 0 : m_execution->devices.size();
}

int DeviceValuesModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : NumColumns;
}

QVariant DeviceValuesModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return QVariant();
  const DevicePosition& pos = m_execution->devices[index.row()];
  const TensorData value = m_execution->perDevice.value(index.row());
  const bool diverging =
      m_execution->valueCompared && m_execution->differingDevices.contains(index.row());
  if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
    switch (index.column()) {
    case Device:
      return QStringLiteral("device %1").arg(pos.device);
    case Op:
      return pos.op.isEmpty() ? tr("(finished)")
                              : QStringLiteral("%1  (line %2)").arg(pos.op).arg(pos.line);
    case Shape: {
      if (!value.valid)
        return QVariant();
      QStringList dims;
      for (qint64 d : value.shape)
        dims.push_back(QString::number(d));
      return QStringLiteral("%1").arg(dims.join(QStringLiteral("x")));
    }
    case Elements:
      return elementsText(value, role == Qt::ToolTipRole ? 64 : 8);
    case Reference: {
      if (m_execution->valueId.isEmpty())
        return QVariant();
      if (m_execution->referencePerDevice.isEmpty())
        return QVariant(); // (not reported by server runs)
      TensorData reference = m_execution->referencePerDevice.value(index.row());
      if (!reference.valid)
        reference.note = tr("no reference value");
      return elementsText(reference, role == Qt::ToolTipRole ? 64 : 8);
    }
    case Min:
    case Max:
      if (!value.valid || value.values.isEmpty())
        return QVariant();
      return index.column() == Min
                 ? *std::min_element(value.values.begin(), value.values.end())
                 : *std::max_element(value.values.begin(), value.values.end());
    case Status:
      return checkText(index.row());
    }
  }
  if (role == Qt::ForegroundRole && diverging)
    return QBrush(QColor(0xd0, 0x30, 0x30));
  return QVariant();
}

QString DeviceValuesModel::checkText(int row) const {
  // What the reference check did with this device's block of the value, in so many words.
  const ExecutionSnapshot& e = *m_execution;
  if (e.valueId.isEmpty() || !e.perDevice.value(row).valid)
    return QString();
  // A run in a server process reports divergences, not the per-device reference.
  if (e.referencePerDevice.isEmpty())
    return e.divergingDevices.contains(e.devices[row].device) ? tr("diverges") : QString();
  if (e.valueCompared)
    return e.differingDevices.contains(row) ? tr("differs from the reference")
                                            : tr("matches the reference");
  if (e.referenceSummary.startsWith(QLatin1String("reference check off")))
    return tr("not compared: reference check off");
  if (!e.referencePerDevice.value(row).valid)
    return tr("not compared: no reference value");
  return tr("not compared");
}

QVariant DeviceValuesModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return QAbstractTableModel::headerData(section, orientation, role);
  switch (section) {
  case Device:
    return tr("Device");
  case Op:
    return tr("Next op");
  case Shape:
    return tr("Local shape");
  case Elements:
    return tr("Elements");
  case Min:
    return tr("Min");
  case Max:
    return tr("Max");
  case Reference:
    return tr("Reference");
  case Status:
    return tr("Check");
  }
  return QVariant();
}

} // namespace shardscope::widgets
