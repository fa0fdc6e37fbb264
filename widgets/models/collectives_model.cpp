#include "widgets/models/collectives_model.h"

#include "core/support/format_bytes.h"
#include "widgets/controller/stage_diff.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QSet>

namespace shardscope::widgets {

CollectivesModel::CollectivesModel(QObject* parent) : QAbstractTableModel(parent) {}

QString CollectivesModel::formatBytes(qint64 bytes) {
  return QString::fromStdString(support::formatBytes(bytes));
}

void CollectivesModel::setRows(QVector<CollectiveRow> rows, const QVector<CollectiveRow>* base) {
  beginResetModel();
  m_rows = std::move(rows);
  m_added = QVector<bool>(m_rows.size(), false);
  if (base) {
    // (As the graph marks them: by location, so that a per-device collective is the partitioned
    // one it came from, not a new one.)
    const QSet<QString> added = addedCollectives(m_rows, *base);
    for (int i = 0; i < m_rows.size(); ++i)
      m_added[i] = added.contains(m_rows[i].opId);
  }
  endResetModel();
}

int CollectivesModel::rowOf(const QString& opId) const {
  for (int i = 0; i < m_rows.size(); ++i)
    if (m_rows[i].opId == opId)
      return i;
  return -1;
}

int CollectivesModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : m_rows.size();
}

int CollectivesModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : NumColumns;
}

QVariant CollectivesModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return QVariant();
  const CollectiveRow& r = m_rows[index.row()];
  if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
    switch (index.column()) {
    case Op:
      return r.op;
    case Line:
      return r.line;
    case Kind:
      return r.kind;
    case Axes:
      return r.axes.join(QStringLiteral(", "));
    case Sent:
      return formatBytes(r.bytesSent);
    case Received:
      return formatBytes(r.bytesReceived);
    case Why:
      return r.why;
    }
  }
  if (role == Qt::TextAlignmentRole && (index.column() == Sent || index.column() == Received ||
                                        index.column() == Line))
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::FontRole && m_added.value(index.row())) {
    QFont font;
    font.setBold(true);
    return font;
  }
  if (role == Qt::ForegroundRole && m_added.value(index.row()))
    return QBrush(QColor(0xd0, 0x70, 0x00));
  if (role == IdRole)
    return r.opId;
  return QVariant();
}

QVariant CollectivesModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return QAbstractTableModel::headerData(section, orientation, role);
  switch (section) {
  case Op:
    return tr("Collective");
  case Line:
    return tr("Line");
  case Kind:
    return tr("Kind");
  case Axes:
    return tr("Axes");
  case Sent:
    return tr("Sent / device");
  case Received:
    return tr("Received / device");
  case Why:
    return tr("Why");
  }
  return QVariant();
}

} // namespace shardscope::widgets
