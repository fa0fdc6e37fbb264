#include "widgets/controller/problem_rows.h"

#include "widgets/controller/op_ids.h"

#include <map>
#include <utility>

namespace shardscope::widgets {

namespace {

// The first op (pre-order) at each of `wanted`'s line:column positions.
std::map<std::pair<uint32_t, uint32_t>, QString>
opsAt(const ir::Module& module, const std::map<std::pair<uint32_t, uint32_t>, QString>& wanted) {
  std::map<std::pair<uint32_t, uint32_t>, QString> found = wanted;
  size_t left = found.size();
  module.op().walk([&](const ir::Operation& op) {
    if (left == 0 || &op == &module.op())
      return;
    auto it = found.find({op.loc().line, op.loc().column});
    if (it != found.end() && it->second.isEmpty()) {
      it->second = opIdOf(op);
      --left;
    }
  });
  return found;
}

} // namespace

void addProblems(const std::vector<support::Diagnostic>& diagnostics, int stageId,
                 const QString& stage, const ir::Module* module, QVector<ProblemRow>& out) {
  std::map<std::pair<uint32_t, uint32_t>, QString> ops;
  for (const support::Diagnostic& d : diagnostics)
    if (d.loc.isValid())
      ops[{d.loc.line, d.loc.column}] = QString();
  if (module && !ops.empty())
    ops = opsAt(*module, ops);
  for (const support::Diagnostic& d : diagnostics) {
    ProblemRow row;
    row.severity = QString::fromLatin1(support::severityName(d.severity));
    row.message = qs(d.message);
    row.stage = stage;
    row.line = static_cast<int>(d.loc.line);
    row.column = static_cast<int>(d.loc.column);
    row.stageId = stageId;
    if (d.loc.isValid())
      row.opId = ops[{d.loc.line, d.loc.column}];
    bool duplicate = false;
    for (const ProblemRow& r : out)
      duplicate = duplicate || (r.message == row.message && r.line == row.line);
    if (!duplicate)
      out.push_back(row);
  }
}

} // namespace shardscope::widgets
