#include "widgets/controller/engine_controller.h"

#include "widgets/controller/graph_snapshot.h"
#include "widgets/controller/op_ids.h"

#include "core/analysis/collective_cost.h"
#include "core/analysis/explicit_typing.h"
#include "core/analysis/shard_map_analysis.h"
#include "core/io/mlir/mlir.h"
#include "core/ir/attribute.h"
#include "core/session/execution.h"
#include "core/session/program.h"
#include "core/sharding/notation.h"
#include "core/sharding/sharding_layout.h"
#include "core/sharding/value_sharding.h"

#include <QElapsedTimer>
#include <QMetaObject>
#include <QThread>
#include <QTimer>

#include <map>

Q_DECLARE_METATYPE(shardscope::widgets::ProgramSnapshotPtr)
Q_DECLARE_METATYPE(shardscope::widgets::ExecutionSnapshotPtr)
Q_DECLARE_METATYPE(shardscope::widgets::GraphSnapshotPtr)

namespace shardscope::widgets {

namespace {

QString severityOf(support::Severity s) { return QString::fromLatin1(support::severityName(s)); }

void addProblems(const support::CollectingSink& sink, const QString& stage,
                 QVector<ProblemRow>& out) {
  for (const support::Diagnostic& d : sink.diagnostics()) {
    ProblemRow row{severityOf(d.severity), qs(d.message), stage, static_cast<int>(d.loc.line),
                   static_cast<int>(d.loc.column)};
    bool duplicate = false;
    for (const ProblemRow& r : out)
      duplicate = duplicate || (r.message == row.message && r.line == row.line);
    if (!duplicate)
      out.push_back(row);
  }
}

std::string plainTyped(ir::Type type) {
  if (!type.isTensor())
    return type.str();
  std::string out = sharding::jaxDtypeName(type.elementType()) + "[";
  for (size_t d = 0; d < type.shape().size(); ++d) {
    if (d)
      out += ',';
    const int64_t size = type.shape()[d];
    out += size == ir::kDynamicSize ? "?" : std::to_string(size);
  }
  return out + "]";
}

LayoutInfo layoutInfo(const ir::Module& module, const ir::TensorSharding& s, ir::Type type) {
  LayoutInfo info;
  if (!type.isTensor() || !type.hasStaticShape())
    return info;
  const ir::Mesh* mesh = ir::resolveMesh(module, s);
  if (!mesh)
    return info;
  std::string error;
  std::optional<sharding::ShardingLayout> layout =
      sharding::ShardingLayout::create(s, *mesh, type.shape(), &error);
  if (!layout) {
    info.error = QString::fromStdString(error);
    return info;
  }
  info.valid = true;
  for (int64_t d : layout->globalShape())
    info.shape.push_back(d);
  for (int64_t d : layout->shardsPerDim())
    info.shards.push_back(d);
  for (int64_t d : layout->localShape())
    info.localShape.push_back(d);
  for (const sharding::DeviceBlock& b : layout->blocks()) {
    DeviceBlockInfo block;
    block.device = b.deviceId;
    for (int64_t i : b.shardIndex)
      block.shardIndex.push_back(i);
    for (const sharding::IndexRange& r : b.ranges) {
      block.begin.push_back(r.begin);
      block.end.push_back(r.end);
    }
    info.blocks.push_back(block);
  }
  for (const std::vector<int64_t>& group : layout->replicaGroups()) {
    QVector<qint64> g;
    for (int64_t d : group)
      g.push_back(d);
    info.replicaGroups.push_back(g);
  }
  return info;
}

// The value rows of every function of `module`: arguments, then op results in pre-order.
void collectValues(const ir::Module& module, const analysis::ShardMapAnalysis* shardMaps,
                   QVector<ValueRow>& out) {
  const auto names = io::mlir::printedValueNames(module);
  auto rowFor = [&](const ir::Value& value, const ir::Operation& fn) {
    ValueRow row;
    auto it = names.find(&value);
    // The name the source gives the value (`%z_block`), else the printed one.
    if (!value.nameHint().empty())
      row.name = QStringLiteral("%") + QString::fromStdString(value.nameHint());
    else
      row.name = it != names.end() ? QString::fromStdString(it->second) : QStringLiteral("?");
    row.function = qs(ir::func::name(fn));
    row.type = QString::fromStdString(value.type().str());
    std::optional<ir::TensorSharding> s = sharding::valueSharding(value);
    if (s) {
      row.typed = QString::fromStdString(sharding::jaxTypedNotation(*s, value.type()));
      row.spec = QString::fromStdString(sharding::partitionSpecNotation(*s));
      row.shardy = QString::fromStdString(sharding::shardyNotation(*s));
      // The layout the data really has: partial results before an all_reduce differ per device.
      row.layout = layoutInfo(module, *sharding::heldSharding(value), value.type());
    } else {
      row.typed = QString::fromStdString(plainTyped(value.type()));
    }
    if (shardMaps)
      if (const analysis::VarianceSet* v = shardMaps->variance.varianceOf(value))
        row.variance = QString::fromStdString(v->str());
    return row;
  };
  for (ir::Operation* fn : module.functions()) {
    const ir::Block* body = ir::func::body(*fn);
    if (!body)
      continue;
    for (const auto& arg : body->arguments()) {
      ValueRow row = rowFor(*arg, *fn);
      row.id = QStringLiteral("arg:%1#%2").arg(row.function).arg(arg->index());
      row.opName = QStringLiteral("argument");
      row.line = static_cast<int>(fn->loc().line);
      row.column = static_cast<int>(fn->loc().column);
      out.push_back(row);
    }
    static_cast<const ir::Operation&>(*fn).walk([&](const ir::Operation& op) {
      if (&op == fn)
        return;
      // Region arguments (a shard_map body's per-device operands, loop-carried values) first.
      for (unsigned r = 0; r < op.numRegions(); ++r) {
        const ir::Region& region = op.region(r);
        if (region.empty())
          continue;
        for (const auto& arg : region.front().arguments()) {
          ValueRow row = rowFor(*arg, *fn);
          row.opId = opIdOf(op);
          row.id = QStringLiteral("%1@%2.%3").arg(row.opId).arg(r).arg(arg->index());
          row.opName = QStringLiteral("%1 region argument").arg(qs(op.name()));
          row.line = static_cast<int>(op.loc().line);
          row.column = static_cast<int>(op.loc().column);
          out.push_back(row);
        }
      }
      for (const auto& result : op.results()) {
        ValueRow row = rowFor(*result, *fn);
        row.opId = opIdOf(op);
        row.id = QStringLiteral("%1#%2").arg(row.opId).arg(result->index());
        row.opName = qs(op.name());
        row.line = static_cast<int>(op.loc().line);
        row.column = static_cast<int>(op.loc().column);
        out.push_back(row);
      }
    });
  }
}

// Finds the value of `module` with the stable id `id` (see ValueRow::id).
const ir::Value* findValue(const ir::Module& module, const QString& id) {
  if (id.startsWith(QLatin1String("arg:"))) {
    const QString rest = id.mid(4);
    const int hash = rest.lastIndexOf(QLatin1Char('#'));
    const ir::Operation* fn = module.lookupFunction(rest.left(hash).toStdString());
    const ir::Block* body = fn ? ir::func::body(*fn) : nullptr;
    const unsigned index = rest.mid(hash + 1).toUInt();
    return body && index < body->numArguments() ? body->argument(index) : nullptr;
  }
  const int at = id.lastIndexOf(QLatin1Char('@'));
  if (at > 0 && !id.mid(at).contains(QLatin1Char(':'))) {
    // A region argument: `OPID@REGION.INDEX`.
    const QString opId = id.left(at);
    const QStringList parts = id.mid(at + 1).split(QLatin1Char('.'));
    const unsigned r = parts.value(0).toUInt(), i = parts.value(1).toUInt();
    const ir::Value* found = nullptr;
    module.op().walk([&](const ir::Operation& op) {
      if (!found && r < op.numRegions() && opIdOf(op) == opId && !op.region(r).empty() &&
          i < op.region(r).front().numArguments())
        found = op.region(r).front().argument(i);
    });
    return found;
  }
  const int hash = id.lastIndexOf(QLatin1Char('#'));
  const QString opId = id.left(hash);
  const unsigned index = id.mid(hash + 1).toUInt();
  const ir::Value* found = nullptr;
  module.op().walk([&](const ir::Operation& op) {
    if (!found && index < op.numResults() && opIdOf(op) == opId)
      found = op.result(index);
  });
  return found;
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

} // namespace

/// The engine side: lives on the worker thread and owns every engine object.
class EngineWorker : public QObject {
public:
  EngineWorker(EngineController* controller, std::shared_ptr<std::atomic<bool>> cancel)
      : m_controller(controller), m_cancel(std::move(cancel)) {}

  void load(const QString& path, quint64 generation) {
    m_execution.reset();
    m_program.reset();
    m_execSink.clear();
    support::CollectingSink sink;
    std::unique_ptr<session::Program> program = session::Program::load(path.toStdString(), sink);
    auto snapshot = std::make_shared<ProgramSnapshot>();
    snapshot->path = path;
    if (!program) {
      QVector<ProblemRow> problems;
      addProblems(sink, stageTitle(StageId::AsWritten), problems);
      const QString message =
          problems.isEmpty() ? QStringLiteral("could not load the program") : problems[0].message;
      post([c = m_controller, path, message, problems] {
        Q_EMIT c->loadFailed(path, message, problems);
      });
      return;
    }
    snapshot->source = qs(program->sources().text(program->fileId()));
    addProblems(sink, stageTitle(StageId::AsWritten), snapshot->problems);
    for (int i = 0; i < kNumStages; ++i) {
      if (m_cancel->load())
        return;
      const auto stage = static_cast<StageId>(i);
      support::CollectingSink stageSink;
      const ir::Module* module = program->stage(session::kStages[i], stageSink);
      StageSnapshot& out = snapshot->stages[i];
      out.stage = stage;
      if (module) {
        out.available = true;
        out.text = QString::fromStdString(io::mlir::printModule(*module));
        std::optional<analysis::ShardMapAnalysis> shardMaps;
        if (stage != StageId::PerDevice)
          shardMaps = analysis::analyzeShardMaps(*module, stageSink);
        collectValues(*module, shardMaps ? &*shardMaps : nullptr, out.values);
        collectCollectives(*program, *module, stage, out);
        if (stage == StageId::AsWritten) {
          if (const ir::Mesh* mesh = session::programMesh(*module))
            snapshot->mesh = meshInfo(*mesh);
          // Under explicit sharding, the ops JAX would reject while tracing are problems.
          if (module->op().hasAttr(analysis::kAxisTypesAttr))
            analysis::computeExplicitTypes(*module, {}, stageSink);
        }
      }
      addProblems(stageSink, stageTitle(stage), snapshot->problems);
    }
    m_program = std::move(program);
    post([c = m_controller, snapshot, generation] {
      if (generation != c->m_loadGeneration)
        return;
      c->m_program = snapshot;
      c->m_execution.reset();
      Q_EMIT c->programLoaded(snapshot);
    });
  }

  void start(const QString& spec, bool checkReference, const QSet<QString>& breakpoints,
             const QString& watched) {
    m_execution.reset();
    m_execSink.clear();
    if (!m_program) {
      error(QStringLiteral("No program is loaded."));
      return;
    }
    std::string specError;
    std::optional<session::InputSpec> inputs =
        session::parseInputSpec(spec.trimmed().isEmpty() ? "iota" : spec.toStdString(), specError);
    if (!inputs) {
      error(QStringLiteral("Inputs: %1").arg(QString::fromStdString(specError)));
      return;
    }
    session::ExecutionOptions options;
    options.stage = session::Stage::PerDevice;
    options.checkReference = checkReference;
    m_execution = session::Execution::create(*m_program, options, m_execSink);
    if (!m_execution || !m_execution->setInputs(*inputs) || !m_execution->start()) {
      m_execution.reset();
      error(QStringLiteral("Could not start the run: %1").arg(lastError()));
      return;
    }
    m_breakpoints = breakpoints;
    m_watched = watched;
    publish(QStringLiteral("started"));
  }

  void step(EngineController::StepKind kind, const QString& target = QString()) {
    if (!m_execution) {
      error(QStringLiteral("Start a run first."));
      return;
    }
    if (m_execution->finished()) {
      publish(QStringLiteral("finished"));
      return;
    }
    session::StopReason reason = session::StopReason::Stepped;
    QString why;
    switch (kind) {
    case EngineController::StepKind::Step:
      reason = m_execution->step();
      break;
    case EngineController::StepKind::StepOver:
      reason = m_execution->stepOver();
      break;
    case EngineController::StepKind::StepOut:
      reason = m_execution->stepOut();
      break;
    case EngineController::StepKind::Continue:
    case EngineController::StepKind::RunToEnd: {
      // Step by step, so that the run can be cancelled and the breakpoints are ours.
      const bool useBreakpoints = kind == EngineController::StepKind::Continue;
      while (true) {
        reason = m_execution->step();
        if (reason != session::StopReason::Stepped)
          break;
        if (m_cancel->load()) {
          why = QStringLiteral("cancelled");
          break;
        }
        if (useBreakpoints && atBreakpoint()) {
          why = QStringLiteral("breakpoint");
          break;
        }
        if (!target.isEmpty() && atOp(target)) {
          why = QStringLiteral("reached the selected op");
          break;
        }
      }
      break;
    }
    }
    if (why.isEmpty())
      why = QString::fromUtf8(session::stopReasonName(reason).data(),
                              static_cast<int>(session::stopReasonName(reason).size()));
    if (reason == session::StopReason::Failed)
      error(QStringLiteral("The run failed: %1").arg(lastError()));
    publish(why);
  }

  void setBreakpoints(const QSet<QString>& breakpoints) { m_breakpoints = breakpoints; }

  void graph(StageId stage, const QString& function, const QStringList& expanded,
             const QStringList& collapsed, quint64 request) {
    // Coalescing: a newer request replaces this one before it starts.
    if (request != m_controller->m_graphRequest.load())
      return;
    GraphSnapshotPtr snap =
        buildGraphSnapshot(m_program.get(), stage, function, expanded, collapsed, m_cancel.get());
    post([c = m_controller, snap] { Q_EMIT c->graphReady(snap); });
  }
  void watch(const QString& id) {
    m_watched = id;
    if (m_execution)
      publish(m_lastReason);
  }

private:
  template <typename Fn> void post(Fn&& fn) {
    QMetaObject::invokeMethod(m_controller, std::forward<Fn>(fn), Qt::QueuedConnection);
  }

  void error(const QString& message) {
    post([c = m_controller, message] { Q_EMIT c->errorOccurred(message); });
  }

  QString lastError() const {
    for (auto it = m_execSink.diagnostics().rbegin(); it != m_execSink.diagnostics().rend(); ++it)
      if (it->severity == support::Severity::Error)
        return it->loc.isValid() ? QStringLiteral("%1 (line %2)")
                                       .arg(qs(it->message))
                                       .arg(it->loc.line)
                                 : qs(it->message);
    return QStringLiteral("unknown error");
  }

  bool atOp(const QString& opId) const {
    for (int64_t d = 0; d < m_execution->numDevices(); ++d)
      if (const ir::Operation* op = m_execution->currentOp(d))
        if (opIdOf(*op) == opId)
          return true;
    return false;
  }

  bool atBreakpoint() const {
    for (int64_t d = 0; d < m_execution->numDevices(); ++d)
      if (const ir::Operation* op = m_execution->currentOp(d))
        if (m_breakpoints.contains(opIdOf(*op)))
          return true;
    return false;
  }

  static MeshInfo meshInfo(const ir::Mesh& mesh) {
    MeshInfo info;
    for (const ir::MeshAxis& axis : mesh.axes) {
      info.axisNames.push_back(QString::fromStdString(axis.name));
      info.axisSizes.push_back(axis.size);
    }
    for (int64_t id : mesh.deviceIds)
      info.deviceIds.push_back(id);
    return info;
  }

  static void collectCollectives(const session::Program& program, const ir::Module& module,
                                 StageId stage, StageSnapshot& out) {
    const analysis::CostSummary summary = analysis::collectiveCosts(module);
    std::map<QString, int> seen;
    for (const analysis::CollectiveCost& cost : summary.collectives) {
      CollectiveRow row;
      row.opId = opIdOf(*cost.op);
      if (int n = seen[row.opId]++)
        row.opId += QStringLiteral("~%1").arg(n + 1);
      row.op = qs(cost.op->name());
      row.kind = QString::fromStdString(cost.kind);
      for (const std::string& axis : cost.axes)
        row.axes.push_back(QString::fromStdString(axis));
      row.groupSize = cost.groupSize;
      row.numGroups = cost.numGroups;
      row.bytesSent = cost.bytesSent;
      row.bytesReceived = cost.bytesReceived;
      row.line = static_cast<int>(cost.op->loc().line);
      row.column = static_cast<int>(cost.op->loc().column);
      if (stage == StageId::Partitioned) {
        const session::Program::CollectiveCause cause = program.causeOf(*cost.op);
        row.inserted = cause.inserted;
        row.why = QString::fromStdString(cause.why);
      } else {
        row.why = QStringLiteral("written in the program");
      }
      if (!cost.note.empty())
        row.why += QStringLiteral(" (%1)").arg(QString::fromStdString(cost.note));
      out.collectives.push_back(row);
    }
    out.totalBytes = QString::fromStdString(analysis::formatBytes(summary.totalBytesSent));
  }

  void publish(const QString& reason) {
    m_lastReason = reason;
    auto snap = std::make_shared<ExecutionSnapshot>();
    const session::Execution& e = *m_execution;
    snap->started = true;
    snap->finished = e.finished();
    snap->failed = e.failed();
    snap->stopReason = reason;
    snap->steps = e.steps();
    for (int64_t d = 0; d < e.numDevices(); ++d) {
      DevicePosition pos;
      pos.device = d;
      if (const ir::Operation* op = e.currentOp(d)) {
        pos.op = qs(op->name());
        pos.opId = opIdOf(*op);
        pos.line = static_cast<int>(op->loc().line);
        pos.depth = static_cast<int>(e.depth(d));
      }
      snap->devices.push_back(pos);
    }
    snap->referenceSummary = QString::fromStdString(e.referenceSummary());
    for (const session::Divergence& d : e.divergences()) {
      snap->divergences.push_back(
          d.op ? QStringLiteral("line %1: %2").arg(d.op->loc().line).arg(qs(d.message))
               : qs(d.message));
      for (int64_t dev : d.devices)
        if (!snap->divergingDevices.contains(dev))
          snap->divergingDevices.push_back(dev);
    }
    snap->valueId = m_watched;
    if (!m_watched.isEmpty()) {
      if (const ir::Value* value = findValue(e.module(), m_watched)) {
        for (int64_t d = 0; d < e.numDevices(); ++d)
          snap->perDevice.push_back(tensorData(e.value(d, value)));
        std::string err;
        if (std::optional<session::Assembled> global = e.globalValue(value, err)) {
          snap->global = tensorData(&global->value);
          snap->replicaProblem = QString::fromStdString(global->replicaProblem);
        } else {
          snap->global.note = QString::fromStdString(err);
        }
        if (const ir::Operation* op = value->definingOp())
          snap->reference = tensorData(e.referenceValue(*op, value->index()));
      } else {
        snap->global.note = QStringLiteral("the value is not in the per-device program");
      }
    }
    post([c = m_controller, snap] {
      c->m_execution = snap;
      Q_EMIT c->executionChanged(snap);
    });
  }

  EngineController* m_controller;
  std::shared_ptr<std::atomic<bool>> m_cancel;
  std::unique_ptr<session::Program> m_program;
  support::CollectingSink m_execSink;
  std::unique_ptr<session::Execution> m_execution;
  QSet<QString> m_breakpoints;
  QString m_watched;
  QString m_lastReason;
};

EngineController::EngineController(QObject* parent)
    : QObject(parent), m_thread(new QThread(this)), m_progressTimer(new QTimer(this)),
      m_cancel(std::make_shared<std::atomic<bool>>(false)) {
  qRegisterMetaType<ProgramSnapshotPtr>();
  qRegisterMetaType<ExecutionSnapshotPtr>();
  qRegisterMetaType<GraphSnapshotPtr>();
  m_worker = new EngineWorker(this, m_cancel);
  m_worker->moveToThread(m_thread);
  connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
  m_thread->setObjectName(QStringLiteral("ShardScope engine"));
  m_thread->start();
  m_progressTimer->setSingleShot(true);
  m_progressTimer->setInterval(500);
  connect(m_progressTimer, &QTimer::timeout, this,
          [this] { Q_EMIT progressVisible(true, m_work); });
}

EngineController::~EngineController() {
  m_cancel->store(true);
  m_thread->quit();
  m_thread->wait();
}

void EngineController::beginWork(const QString& what) {
  if (m_pending++ == 0) {
    m_cancel->store(false);
    m_busy = true;
    m_work = what;
    m_progressTimer->start();
    Q_EMIT busyChanged(true, what);
  }
}

void EngineController::endWork() {
  if (--m_pending > 0)
    return;
  m_busy = false;
  m_progressTimer->stop();
  Q_EMIT progressVisible(false, QString());
  Q_EMIT busyChanged(false, QString());
}

void EngineController::load(const QString& path) {
  const quint64 generation = ++m_loadGeneration;
  beginWork(tr("Loading %1").arg(path));
  QMetaObject::invokeMethod(m_worker, [w = m_worker, path, generation, this] {
    w->load(path, generation);
    QMetaObject::invokeMethod(this, [this] { endWork(); }, Qt::QueuedConnection);
  }, Qt::QueuedConnection);
}

void EngineController::startExecution(const QString& inputSpec, bool checkReference) {
  beginWork(tr("Starting the run"));
  QMetaObject::invokeMethod(m_worker, [w = m_worker, inputSpec, checkReference, this,
                                       bps = m_breakpoints, watched = m_watched] {
    w->start(inputSpec, checkReference, bps, watched);
    QMetaObject::invokeMethod(this, [this] { endWork(); }, Qt::QueuedConnection);
  }, Qt::QueuedConnection);
}

void EngineController::step(StepKind kind) {
  beginWork(tr("Running"));
  QMetaObject::invokeMethod(m_worker, [w = m_worker, kind, this] {
    w->step(kind);
    QMetaObject::invokeMethod(this, [this] { endWork(); }, Qt::QueuedConnection);
  }, Qt::QueuedConnection);
}

void EngineController::runTo(const QString& opId) {
  beginWork(tr("Running"));
  QMetaObject::invokeMethod(m_worker, [w = m_worker, opId, this] {
    w->step(StepKind::Continue, opId);
    QMetaObject::invokeMethod(this, [this] { endWork(); }, Qt::QueuedConnection);
  }, Qt::QueuedConnection);
}

void EngineController::setBreakpoint(const QString& opId, bool enabled) {
  if (enabled == m_breakpoints.contains(opId))
    return;
  if (enabled)
    m_breakpoints.insert(opId);
  else
    m_breakpoints.remove(opId);
  QMetaObject::invokeMethod(m_worker, [w = m_worker, bps = m_breakpoints] {
    w->setBreakpoints(bps);
  }, Qt::QueuedConnection);
  Q_EMIT breakpointsChanged();
}

void EngineController::watchValue(const QString& valueId) {
  if (valueId == m_watched)
    return;
  m_watched = valueId;
  beginWork(tr("Reading values"));
  const quint64 request = ++m_watchRequest;
  QMetaObject::invokeMethod(m_worker, [w = m_worker, valueId, request, this] {
    // Coalescing: only the newest selection is read.
    if (request == m_watchRequest.load())
      w->watch(valueId);
    QMetaObject::invokeMethod(this, [this] { endWork(); }, Qt::QueuedConnection);
  }, Qt::QueuedConnection);
}

void EngineController::requestGraph(StageId stage, const QString& function,
                                    const QStringList& expanded, const QStringList& collapsed) {
  beginWork(tr("Laying out the graph"));
  const quint64 request = ++m_graphRequest;
  QMetaObject::invokeMethod(m_worker, [w = m_worker, stage, function, expanded, collapsed,
                                       request, this] {
    w->graph(stage, function, expanded, collapsed, request);
    QMetaObject::invokeMethod(this, [this] { endWork(); }, Qt::QueuedConnection);
  }, Qt::QueuedConnection);
}

void EngineController::cancel() {
  m_cancel->store(true);
  ++m_loadGeneration; // a load in flight is dropped
}

} // namespace shardscope::widgets
