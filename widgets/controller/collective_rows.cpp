#include "widgets/controller/collective_rows.h"

#include "widgets/controller/op_ids.h"

#include "core/analysis/collective_cost.h"
#include "core/autodiff/function_costs.h"
#include "core/session/program.h"

#include <map>

namespace shardscope::widgets {

namespace {

template <typename Why>
void addCollectiveRows(const analysis::CostSummary& summary, StageSnapshot& out, Why why,
                       const session::Program* partitioned = nullptr) {
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
    row.why = why(*cost.op);
    if (partitioned)
      row.inserted = partitioned->causeOf(*cost.op).inserted;
    if (!cost.note.empty())
      row.why += QStringLiteral(" (%1)").arg(QString::fromStdString(cost.note));
    out.collectives.push_back(row);
  }
  out.totalBytes = QString::fromStdString(analysis::formatBytes(summary.totalBytesSent));
}

} // namespace

// The collectives of a gradient stage's gradient function: the forward ones it keeps and the
// backward ones the transpose rules made (they carry the location of the op they transpose).
void collectGradientCollectives(const session::Program& program, const ir::Module& module,
                                StageSnapshot& out) {
  const ir::Operation* fn = module.lookupFunction(out.function.toStdString());
  if (!fn)
    return;
  const session::OpIndex written(program.asWritten());
  addCollectiveRows(autodiff::functionCosts(module, *fn), out, [&](const ir::Operation& op) {
    if (written.find(op))
      return QStringLiteral("forward: written in the program");
    return QStringLiteral("backward: from the transpose of the op at %1:%2")
        .arg(op.loc().line)
        .arg(op.loc().column);
  });
}

void collectCollectives(const session::Program& program, const ir::Module& module, StageId stage,
                        StageSnapshot& out) {
  addCollectiveRows(
      analysis::collectiveCosts(module), out,
      [&](const ir::Operation& op) {
        if (stage != StageId::Partitioned)
          return QStringLiteral("written in the program");
        return qs(program.causeOf(op).why);
      },
      stage == StageId::Partitioned ? &program : nullptr);
}

} // namespace shardscope::widgets
