#include "widgets/models/problems_model.h"

#include <QBrush>
#include <QColor>

namespace shardscope::widgets {

ProblemsModel::ProblemsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ProblemsModel::setRows(QVector<ProblemRow> rows) {
  beginResetModel();
  m_rows = std::move(rows);
  endResetModel();
}

int ProblemsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : m_rows.size();
}

int ProblemsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : NumColumns;
}

QVariant ProblemsModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return QVariant();
  const ProblemRow& r = m_rows[index.row()];
  if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
    switch (index.column()) {
    case Severity:
      return r.severity;
    case Line:
      return r.line > 0 ? QVariant(QStringLiteral("%1:%2").arg(r.line).arg(r.column)) : QVariant();
    case Message:
      return r.message;
    case Stage:
      return r.stage;
    }
  }
  if (role == Qt::ForegroundRole && index.column() == Severity) {
    if (r.severity == QLatin1String("error"))
      return QBrush(QColor(0xd0, 0x30, 0x30));
    if (r.severity == QLatin1String("warning"))
      return QBrush(QColor(0xc0, 0x80, 0x00));
  }
  if (role == LineRole)
    return r.line;
  return QVariant();
}

QVariant ProblemsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return QAbstractTableModel::headerData(section, orientation, role);
  switch (section) {
  case Severity:
    return tr("Severity");
  case Line:
    return tr("Location");
  case Message:
    return tr("Message");
  case Stage:
    return tr("Stage");
  }
  return QVariant();
}

} // namespace shardscope::widgets
