#include "widgets/controller/execution_rows.h"

#include "widgets/controller/op_ids.h"

#include "core/ir/module.h"

#include <QHash>

#include <algorithm>

namespace shardscope::widgets {

const ir::Value* findValue(const ir::Module& module, const QString& id) {
  return session::findValue(module, id.toStdString());
}

TensorData tensorData(const exec::Tensor* t) {
  TensorData data;
  if (!t)
    return data;
  data.valid = true;
  for (int64_t d : t->shape())
    data.shape.push_back(d);
  const int64_t n = std::min<int64_t>(t->numElements(), 1 << 20);
  data.values.reserve(static_cast<int>(n));
  const bool isFloat = ir::isFloatElement(t->elementType());
  for (int64_t i = 0; i < n; ++i)
    data.values.push_back(isFloat ? t->floatAt(i) : static_cast<double>(t->intAt(i)));
  return data;
}

namespace {

// The selected value on every device, assembled, in the reference, and what the reference check
// did with it.
void fillWatched(const session::Execution& e, const ir::Value& value, ExecutionSnapshot& snap) {
  for (int64_t d = 0; d < e.numDevices(); ++d) {
    snap.perDevice.push_back(tensorData(e.value(d, &value)));
    if (!snap.perDevice.back().valid)
      snap.perDevice.back().note = QString::fromStdString(e.whyNoValue(d, &value));
  }
  std::string err;
  if (std::optional<session::Assembled> global = e.globalValue(&value, err)) {
    snap.global = tensorData(&global->value);
    snap.replicaProblem = QString::fromStdString(global->replicaProblem);
  } else {
    snap.global.note = QString::fromStdString(err);
  }
  if (const ir::Operation* op = value.definingOp())
    snap.reference = tensorData(e.referenceValue(*op, value.index()));
  for (int64_t d = 0; d < e.numDevices(); ++d) {
    const std::optional<exec::Tensor> block = e.referenceBlock(&value, d);
    snap.referencePerDevice.push_back(tensorData(block ? &*block : nullptr));
  }
  snap.valueCompared = e.compared(&value);
  for (const session::Divergence& d : e.divergences())
    if (d.kind == "reference" && d.op == value.definingOp() && d.result == value.index())
      for (int64_t dev : d.devices)
        snap.differingDevices.push_back(dev);
}

} // namespace

ExecutionSnapshot executionSnapshot(const session::Execution& e, const QString& reason,
                                    const QString& watched, QVector<ProblemRow> problems) {
  ExecutionSnapshot snap;
  snap.started = true;
  snap.finished = e.finished();
  snap.failed = e.failed();
  snap.stopReason = reason;
  snap.steps = e.steps();
  for (int64_t d = 0; d < e.numDevices(); ++d) {
    DevicePosition pos;
    pos.device = d;
    if (const ir::Operation* op = e.currentOp(d)) {
      pos.op = qs(op->name());
      pos.opId = opIdOf(*op);
      pos.line = static_cast<int>(op->loc().line);
      pos.depth = static_cast<int>(e.depth(d));
    }
    snap.devices.push_back(pos);
  }
  snap.problems = std::move(problems);
  snap.referenceSummary = QString::fromStdString(e.referenceSummary());
  for (const session::Divergence& d : e.divergences()) {
    snap.divergences.push_back(
        d.op ? QStringLiteral("line %1: %2").arg(d.op->loc().line).arg(qs(d.message))
             : qs(d.message));
    for (int64_t dev : d.devices)
      if (!snap.divergingDevices.contains(dev))
        snap.divergingDevices.push_back(dev);
  }
  snap.valueId = watched;
  if (watched.isEmpty())
    return snap;
  if (const ir::Value* value = findValue(e.module(), watched))
    fillWatched(e, *value, snap);
  else
    snap.global.note = QStringLiteral("the value is not in the per-device program");
  return snap;
}

std::shared_ptr<const Timeline> timelineOf(const std::vector<session::TimelineStep>& steps) {
  auto timeline = std::make_shared<Timeline>();
  // (Ops by pointer first: their ids are built once per op, not once per step.)
  QHash<const ir::Operation*, qint32> index;
  timeline->steps.reserve(static_cast<int>(steps.size()));
  for (const session::TimelineStep& s : steps) {
    Timeline::Step step;
    if (s.op) {
      auto it = index.constFind(s.op);
      if (it == index.constEnd())
        it = index.insert(s.op, timeline->opIndex({opIdOf(*s.op), qs(s.op->name()),
                                                   static_cast<int>(s.op->loc().line)}));
      step.op = it.value();
    }
    step.depth = static_cast<quint16>(std::min<uint32_t>(s.depth, 0xffff));
    step.collective = s.collective;
    step.diverged = s.diverged;
    timeline->steps.push_back(step);
  }
  return timeline;
}

} // namespace shardscope::widgets
