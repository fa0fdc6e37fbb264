#include "widgets/controller/collective_rows.h"

#include "widgets/controller/op_ids.h"

#include "core/autodiff/function_costs.h"
#include "core/support/format_bytes.h"
#include "core/session/program.h"

#include <map>
#include <tuple>

namespace shardscope::widgets {

namespace {

// Why a collective is there, and whether partitioning inserted it.
struct RowCause {
  QString why;
  bool inserted = false;
};

// One row per collective of `summary`, explained by `cause(op)`.
template <typename Cause>
void addCollectiveRows(const analysis::CostSummary& summary, StageSnapshot& out, Cause cause) {
  std::map<QString, int> seen;
  for (const analysis::CollectiveCost& cost : summary.collectives) {
    CollectiveRow row;
    row.opId = opIdOf(*cost.op);
    if (int n = seen[row.opId]++)
      row.opId += QStringLiteral("~%1").arg(n + 1);
    row.op = qs(cost.op->name());
    row.kind = QString::fromStdString(cost.kind);
    for (const std::string& axis : cost.axes) {
      row.axes.push_back(QString::fromStdString(axis));
      qint64 bytes = 0;
      for (const analysis::AxisTraffic& traffic : cost.perAxis)
        if (traffic.axis == axis)
          bytes += traffic.bytesSent;
      row.axisBytes.push_back(bytes);
    }
    row.groupSize = cost.groupSize;
    row.numGroups = cost.numGroups;
    row.bytesSent = cost.bytesSent;
    row.bytesReceived = cost.bytesReceived;
    row.line = static_cast<int>(cost.op->loc().line);
    row.column = static_cast<int>(cost.op->loc().column);
    const RowCause why = cause(*cost.op);
    row.why = why.why;
    row.inserted = why.inserted;
    if (!cost.note.empty())
      row.why += QStringLiteral(" (%1)").arg(QString::fromStdString(cost.note));
    out.collectives.push_back(row);
  }
  out.totalBytes = QString::fromStdString(support::formatBytes(summary.totalBytesSent));
}

// The rows of the per-device stage: its collectives have lost the mesh (and so their axes) and
// are not the partitioned stage's ops, whose causes the program knows; each takes both from the
// partitioned collective it came from.
void collectPerDeviceCollectives(const session::Program& program, const ir::Module& module,
                                 StageSnapshot& out) {
  analysis::CostSummary summary = analysis::collectiveCosts(module);
  const ir::Module* partitioned = program.cachedStage(session::Stage::Partitioned);
  std::unordered_map<const ir::Operation*, const ir::Operation*> origins;
  if (partitioned) {
    const analysis::CostSummary global = analysis::collectiveCosts(*partitioned);
    origins = partitionedOrigins(summary, global);
    std::unordered_map<const ir::Operation*, const analysis::CollectiveCost*> globalCosts;
    for (const analysis::CollectiveCost& cost : global.collectives)
      globalCosts[cost.op] = &cost;
    for (analysis::CollectiveCost& cost : summary.collectives) {
      const auto origin = origins.find(cost.op);
      if (origin == origins.end() || !cost.axes.empty())
        continue;
      const analysis::CollectiveCost& from = *globalCosts.at(origin->second);
      cost.axes = from.axes;
      cost.perAxis = from.perAxis;
      cost.groupSize = from.groupSize;
      cost.numGroups = from.numGroups;
      cost.note = from.note;
    }
  }
  addCollectiveRows(summary, out, [&](const ir::Operation& op) {
    const auto origin = origins.find(&op);
    if (origin == origins.end())
      return RowCause{QStringLiteral("written in the program"), false};
    const session::Program::CollectiveCause cause = program.causeOf(*origin->second);
    return RowCause{qs(cause.why), cause.inserted};
  });
}

} // namespace

std::unordered_map<const ir::Operation*, const ir::Operation*>
partitionedOrigins(const analysis::CostSummary& perDevice,
                   const analysis::CostSummary& partitioned) {
  // The k-th collective of a kind at a location in one stage is the k-th of that kind there in
  // the other (the other steps of a reshard, an all_slice that became a slice, do not count).
  using Key = std::tuple<uint32_t, uint32_t, uint32_t, std::string>;
  std::map<Key, std::vector<const ir::Operation*>> global;
  for (const analysis::CollectiveCost& cost : partitioned.collectives) {
    const support::SourceLocation loc = cost.op->loc();
    global[{loc.fileId, loc.line, loc.column, cost.kind}].push_back(cost.op);
  }
  std::unordered_map<const ir::Operation*, const ir::Operation*> origins;
  std::map<Key, size_t> seen;
  for (const analysis::CollectiveCost& cost : perDevice.collectives) {
    const support::SourceLocation loc = cost.op->loc();
    const Key key{loc.fileId, loc.line, loc.column, cost.kind};
    const size_t k = seen[key]++;
    const auto it = global.find(key);
    if (it != global.end() && k < it->second.size())
      origins[cost.op] = it->second[k];
  }
  return origins;
}

void collectGradientCollectives(const session::Program& program, const ir::Module& module,
                                StageSnapshot& out) {
  // (The backward collectives carry the location of the op they transpose.)
  const ir::Operation* fn = module.lookupFunction(out.function.toStdString());
  if (!fn)
    return;
  const session::OpIndex written(program.asWritten());
  addCollectiveRows(autodiff::functionCosts(module, *fn), out, [&](const ir::Operation& op) {
    if (written.find(op))
      return RowCause{QStringLiteral("forward: written in the program"), false};
    return RowCause{QStringLiteral("backward: from the transpose of the op at %1:%2")
                        .arg(op.loc().line)
                        .arg(op.loc().column),
                    false};
  });
}

void collectCollectives(const session::Program& program, const ir::Module& module, StageId stage,
                        StageSnapshot& out) {
  if (stage == StageId::PerDevice) {
    collectPerDeviceCollectives(program, module, out);
    return;
  }
  addCollectiveRows(analysis::collectiveCosts(module), out, [&](const ir::Operation& op) {
    if (stage != StageId::Partitioned)
      return RowCause{QStringLiteral("written in the program"), false};
    const session::Program::CollectiveCause cause = program.causeOf(op);
    return RowCause{qs(cause.why), cause.inserted};
  });
}

} // namespace shardscope::widgets
