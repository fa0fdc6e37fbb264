#include "widgets/models/value_table_model.h"

#include "widgets/controller/stage_diff.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QHash>

namespace shardscope::widgets {

ValueTableModel::ValueTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ValueTableModel::setRows(QVector<ValueRow> rows, const QVector<ValueRow>* base,
                              const QString& baseTitle) {
  beginResetModel();
  m_rows = std::move(rows);
  m_changed = QVector<bool>(m_rows.size(), false);
  m_change = QVector<QString>(m_rows.size());
  m_diff = base != nullptr;
  m_baseTitle = baseTitle;
  m_changeTip = QVector<QString>(m_rows.size());
  if (base) {
    QHash<QString, const ValueRow*> before;
    for (const ValueRow& r : *base)
      before.insert(r.id, &r);
    for (int i = 0; i < m_rows.size(); ++i) {
      const ValueRow& now = m_rows[i];
      const ValueRow* was = before.value(now.id);
      m_changed[i] = !was || was->shardy != now.shardy;
      if (!was) {
        m_change[i] = tr("new");
      } else if (m_changed[i]) {
        // The compact PartitionSpec form, unless it does not show the difference (explicitly
        // replicated axes); the tooltip has Shardy's.
        m_changeTip[i] = shardingChangeText(was->shardy, now.shardy);
        m_change[i] =
            was->spec != now.spec ? shardingChangeText(was->spec, now.spec) : m_changeTip[i];
      }
    }
  }
  endResetModel();
}

int ValueTableModel::rowOf(const QString& id) const {
  for (int i = 0; i < m_rows.size(); ++i)
    if (m_rows[i].id == id)
      return i;
  return -1;
}

int ValueTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : m_rows.size();
}

int ValueTableModel::columnCount(const QModelIndex& parent) const {
  // (The Change column is there only against a diff base.)
  return parent.isValid() ? 0 : m_diff ? NumColumns : Change;
}

QVariant ValueTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return QVariant();
  const ValueRow& r = m_rows[index.row()];
  switch (role) {
  case Qt::DisplayRole:
  case Qt::ToolTipRole:
    switch (index.column()) {
    case Name:
      return r.name;
    case Type:
      return r.type;
    case Typed:
      return r.typed;
    case Spec:
      return r.spec.isEmpty() ? QStringLiteral("\u2014") : r.spec;
    case Shardy:
      return r.shardy.isEmpty() ? QStringLiteral("\u2014") : r.shardy;
    case Variance:
      return r.variance;
    case Change:
      return role == Qt::ToolTipRole && !m_changeTip.value(index.row()).isEmpty()
                 ? m_changeTip.value(index.row())
                 : m_change.value(index.row());
    case Op:
      return r.line > 0 ? QStringLiteral("%1  (line %2, @%3)").arg(r.opName, QString::number(r.line), r.function)
                        : r.opName;
    }
    return QVariant();
  case Qt::FontRole:
    if (m_changed.value(index.row())) {
      QFont font;
      font.setBold(true);
      return font;
    }
    return QVariant();
  case Qt::ForegroundRole:
    if (m_changed.value(index.row()))
      return QBrush(QColor(0xd0, 0x70, 0x00));
    return QVariant();
  case IdRole:
    return r.id;
  case LineRole:
    return r.line;
  }
  return QVariant();
}

QVariant ValueTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return QAbstractTableModel::headerData(section, orientation, role);
  switch (section) {
  case Name:
    return tr("Value");
  case Type:
    return tr("Type");
  case Typed:
    return tr("JAX type");
  case Spec:
    return tr("PartitionSpec");
  case Shardy:
    return tr("Shardy sharding");
  case Variance:
    return tr("Variance");
  case Op:
    return tr("Defined by");
  case Change:
    return m_baseTitle.isEmpty() ? tr("Sharding was \u2192 now")
                                 : tr("Sharding in %1 \u2192 now").arg(m_baseTitle);
  }
  return QVariant();
}

} // namespace shardscope::widgets
