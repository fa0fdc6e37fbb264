#include "widgets/controller/stage_diff.h"

#include <QCoreApplication>
#include <QPair>

namespace shardscope::widgets {

StageDiff diffStages(const StageSnapshot& stage, const StageSnapshot& base) {
  StageDiff diff;
  QHash<QString, const ValueRow*> before;
  for (const ValueRow& r : base.values)
    before.insert(r.id, &r);
  for (const ValueRow& r : stage.values) {
    const ValueRow* was = before.value(r.id);
    if (!was)
      diff.newValues.insert(r.id);
    else if (was->shardy != r.shardy)
      diff.changed.insert(r.id, was->shardy);
  }
  diff.added = addedCollectives(stage.collectives, base.collectives);
  return diff;
}

QSet<QString> addedCollectives(const QVector<CollectiveRow>& rows,
                               const QVector<CollectiveRow>& base) {
  QHash<QPair<int, int>, int> left; // collectives of `base` per location not matched yet
  for (const CollectiveRow& r : base)
    ++left[qMakePair(r.line, r.column)];
  QSet<QString> added;
  for (const CollectiveRow& r : rows) {
    int& n = left[qMakePair(r.line, r.column)];
    if (n > 0)
      --n;
    else
      added.insert(r.opId);
  }
  return added;
}

QString shardingChangeText(const QString& was, const QString& now) {
  const QString none = QCoreApplication::translate("StageDiff", "(none)");
  return QStringLiteral("%1 \u2192 %2").arg(was.isEmpty() ? none : was, now.isEmpty() ? none : now);
}

} // namespace shardscope::widgets
