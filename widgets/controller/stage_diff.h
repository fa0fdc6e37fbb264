#pragma once

#include "widgets/controller/snapshots.h"

#include <QColor>
#include <QHash>
#include <QSet>
#include <QString>

namespace shardscope::widgets {

/// What changed from stage `base` to the stage shown (*Diff against*): every view marks the same
/// values and collectives. Ids are stable across stages, so values match by id; collectives
/// change names between stages and match by source location: the k-th collective at a location
/// is added when `base` has fewer than k there.
struct StageDiff {
  /// The values whose Shardy sharding differs from the one they have in `base`, with that earlier
  /// sharding (empty: none). Values `base` does not have are in `newValues` instead.
  QHash<QString, QString> changed;
  QSet<QString> newValues;
  /// The op ids of the collectives `base` does not have.
  QSet<QString> added;
  bool isChanged(const QString& valueId) const { return changed.contains(valueId); }
  bool isAdded(const QString& opId) const { return added.contains(opId); }
};

StageDiff diffStages(const StageSnapshot& stage, const StageSnapshot& base);
/// The same for the collective rows alone.
QSet<QString> addedCollectives(const QVector<CollectiveRow>& rows,
                               const QVector<CollectiveRow>& base);

/// The colours of a diff: a changed sharding (the pen of graph nodes and edges, the inspector,
/// the tables' text), the fill of a changed node, and the mark of an added collective.
inline QColor diffChangedColor() { return QColor(0xd0, 0x70, 0x00); }
inline QColor diffChangedFill() { return QColor(0xfd, 0xe6, 0xc4); }
inline QColor diffAddedColor() { return QColor(0x1e, 0x8a, 0x3c); }

/// `was → now` for a value's sharding (`(none)` for no sharding), as the inspector and the
/// values table show a change.
QString shardingChangeText(const QString& was, const QString& now);

} // namespace shardscope::widgets
