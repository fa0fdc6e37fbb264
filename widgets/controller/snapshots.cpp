#include "widgets/controller/snapshots.h"

namespace shardscope::widgets {

QString stageTitle(StageId stage) {
  switch (stage) {
  case StageId::AsWritten:
    return QStringLiteral("As written");
  case StageId::Propagated:
    return QStringLiteral("Propagated");
  case StageId::Partitioned:
    return QStringLiteral("Partitioned");
  case StageId::PerDevice:
    return QStringLiteral("Per device");
  case StageId::GradientEfficient:
    return QStringLiteral("Gradient (efficient)");
  case StageId::GradientNaive:
    return QStringLiteral("Gradient (naive)");
  }
  return QString();
}

int defaultDiffBase(StageId stage) {
  switch (stage) {
  case StageId::AsWritten:
    return static_cast<int>(StageId::Propagated);
  case StageId::GradientEfficient:
    return static_cast<int>(StageId::GradientNaive);
  case StageId::GradientNaive:
    return static_cast<int>(StageId::GradientEfficient);
  default:
    return static_cast<int>(stage) - 1;
  }
}

QString stageKey(StageId stage) {
  switch (stage) {
  case StageId::AsWritten:
    return QStringLiteral("as-written");
  case StageId::Propagated:
    return QStringLiteral("propagated");
  case StageId::Partitioned:
    return QStringLiteral("partitioned");
  case StageId::PerDevice:
    return QStringLiteral("per-device");
  case StageId::GradientEfficient:
    return QStringLiteral("gradient-efficient");
  case StageId::GradientNaive:
    return QStringLiteral("gradient-naive");
  }
  return QString();
}

bool parseStageKey(const QString& key, StageId* stage) {
  const QString k = key.trimmed().toLower();
  for (int i = 0; i < kNumStages; ++i)
    if (k == stageKey(static_cast<StageId>(i))) {
      *stage = static_cast<StageId>(i);
      return true;
    }
  if (k == QLatin1String("written")) {
    *stage = StageId::AsWritten;
    return true;
  }
  if (k == QLatin1String("local")) {
    *stage = StageId::PerDevice;
    return true;
  }
  if (k == QLatin1String("grad") || k == QLatin1String("gradient")) {
    *stage = StageId::GradientEfficient;
    return true;
  }
  if (k == QLatin1String("grad-naive")) {
    *stage = StageId::GradientNaive;
    return true;
  }
  return false;
}

int LayoutInfo::groupOf(qint64 device) const {
  for (int g = 0; g < blockGroups.size(); ++g)
    if (blockGroups[g].contains(device))
      return g;
  return -1;
}

QString StageSnapshot::opAtLine(int line) const {
  auto it = lineOps.upperBound(line);
  if (it == lineOps.begin())
    return {};
  return std::prev(it).value();
}

QString LayoutInfo::partialText() const {
  if (partialAxes.isEmpty())
    return {};
  QStringList quoted;
  for (const QString& axis : partialAxes)
    quoted.push_back(QLatin1Char('\'') + axis + QLatin1Char('\''));
  const QString kind = partialKind.isEmpty() || partialKind == QLatin1String("sum")
                           ? QString()
                           : QStringLiteral(" (%1)").arg(partialKind);
  return QStringLiteral("partial%1 over %2").arg(kind, quoted.join(QStringLiteral(", ")));
}

qint64 MeshInfo::numDevices() const {
  qint64 n = 1;
  for (qint64 s : axisSizes)
    n *= s;
  return n;
}

QVector<qint64> MeshInfo::coordinates(qint64 position) const {
  QVector<qint64> coords(axisSizes.size());
  for (int a = axisSizes.size() - 1; a >= 0; --a) {
    const qint64 size = qMax<qint64>(1, axisSizes[a]);
    coords[a] = position % size;
    position /= size;
  }
  return coords;
}

qint64 MeshInfo::positionOf(qint64 device) const {
  if (deviceIds.isEmpty())
    return device >= 0 && device < numDevices() ? device : -1;
  return deviceIds.indexOf(device);
}

bool ProgramSnapshot::allStagesComputed() const {
  for (const StageSnapshot& s : stages)
    if (s.status == StageStatus::Pending)
      return false;
  return true;
}

QVector<ProblemRow> ProgramSnapshot::problemsOf(StageId stage) const {
  const int shown = static_cast<int>(stage);
  QVector<ProblemRow> out;
  for (const ProblemRow& p : problems) {
    const bool inherited = isGradientStage(stage)
                               ? p.stageId == static_cast<int>(StageId::AsWritten)
                               : p.stageId >= 0 && p.stageId < shown;
    if (p.stageId == shown || inherited)
      out.push_back(p);
  }
  return out;
}

const ValueRow* ProgramSnapshot::findValue(StageId stage, const QString& id) const {
  for (const ValueRow& row : stages[static_cast<int>(stage)].values)
    if (row.id == id)
      return &row;
  return nullptr;
}

const CollectiveRow* ProgramSnapshot::findCollective(StageId stage, const QString& opId) const {
  for (const CollectiveRow& row : stages[static_cast<int>(stage)].collectives)
    if (row.opId == opId)
      return &row;
  return nullptr;
}

qint32 Timeline::opIndex(const TimelineOp& op) {
  auto it = m_opIndex.constFind(op.opId);
  if (it != m_opIndex.constEnd())
    return it.value();
  const auto index = static_cast<qint32>(ops.size());
  m_opIndex.insert(op.opId, index);
  ops.push_back(op);
  return index;
}

} // namespace shardscope::widgets
