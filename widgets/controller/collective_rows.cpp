#include "widgets/controller/collective_rows.h"

#include "widgets/controller/op_ids.h"

#include "core/session/program.h"
#include "core/support/format_bytes.h"

#include <map>

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
    row.axisRefs = cost.axisRefs;
    out.collectives.push_back(row);
  }
  out.totalBytes = QString::fromStdString(support::formatBytes(summary.totalBytesSent));
}

} // namespace

void collectGradientCollectives(const session::Program& program,
                                const session::StageAnalyses& analyses, StageSnapshot& out) {
  // (The backward collectives carry the location of the op they transpose.)
  const session::OpIndex written(program.asWritten());
  addCollectiveRows(analyses.gradientCollectives, out, [&](const ir::Operation& op) {
    if (written.find(op))
      return RowCause{QStringLiteral("forward: written in the program"), false};
    return RowCause{QStringLiteral("backward: from the transpose of the op at %1:%2")
                        .arg(op.loc().line)
                        .arg(op.loc().column),
                    false};
  });
}

void collectCollectives(const session::Program& program, const session::StageAnalyses& analyses,
                        StageId stage, StageSnapshot& out) {
  addCollectiveRows(analyses.collectives, out, [&](const ir::Operation& op) {
    const ir::Operation* caused = &op;
    if (stage == StageId::PerDevice) {
      const auto origin = analyses.origins.find(&op);
      caused = origin == analyses.origins.end() ? nullptr : origin->second;
    } else if (stage != StageId::Partitioned) {
      caused = nullptr;
    }
    if (!caused)
      return RowCause{QStringLiteral("written in the program"), false};
    const session::Program::CollectiveCause cause = program.causeOf(*caused);
    return RowCause{qs(cause.why), cause.inserted};
  });
}

} // namespace shardscope::widgets
