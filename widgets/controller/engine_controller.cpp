#include "widgets/controller/engine_controller.h"

#include "widgets/controller/collective_rows.h"
#include "widgets/controller/execution_rows.h"
#include "widgets/controller/graph_snapshot.h"
#include "widgets/controller/op_ids.h"
#include "widgets/controller/problem_rows.h"
#include "widgets/controller/program_rows.h"
#include "widgets/controller/serve_client.h"
#include "widgets/controller/value_rows.h"

#include "core/io/mlir/mlir.h"
#include "core/ir/attribute.h"
#include "core/session/debug_name.h"
#include "core/session/execution.h"
#include "core/session/program.h"
#include "core/sharding/axis_refs.h"
#include "core/sharding/notation.h"
#include "core/sharding/sharding_layout.h"
#include "core/sharding/value_sharding.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QMetaObject>
#include <QThread>
#include <QTimer>

#include <functional>
#include <map>
#include <string_view>

namespace shardscope::widgets {

namespace {

// Programs with more ops than this open before their as-written rows are built.
constexpr int64_t kEagerOps = 10000;

// How the tensor-size limit is named in its message: the app has no option to raise it.
constexpr std::string_view kTensorLimitHint =
    "the app's limit for runs; 'shardscope-cli run --max-tensor-bytes' raises it";

int64_t countOps(const ir::Module& module) {
  int64_t n = 0;
  module.op().walk([&](const ir::Operation&) { ++n; });
  return n;
}

} // namespace

/// The engine side: lives on the worker thread and owns every engine object.
class EngineWorker : public QObject {
public:
  EngineWorker(EngineController* controller, std::shared_ptr<std::atomic<bool>> cancel,
               std::shared_ptr<std::atomic<bool>> yield)
      : m_controller(controller), m_cancel(std::move(cancel)), m_yield(std::move(yield)) {}

  // Phase one of a load: parses and verifies the program and publishes the as-written stage, so
  // that the views (and the graph) show it at once. The other stages follow in phase two
  // (`startStages`), one per event-loop turn of this thread.
  void load(const QString& path, quint64 generation) {
    stopStages(/*cancelled=*/false);
    m_execution.reset();
    m_program.reset();
    m_snapshot.reset();
    m_execSink.clear();
    support::CollectingSink sink;
    std::unique_ptr<session::Program> program = loadForViews(path, sink);
    // A run allocates every tensor: one beyond the limit is a located problem at load, and the
    // program cannot run; the analysis (graph, shardings, collectives) needs no tensor data and
    // still works.
    const bool fits =
        !program || session::checkTensorSizes(program->asWritten(), session::kDefaultMaxTensorBytes,
                                              sink, kTensorLimitHint);
    if (!program) {
      QVector<ProblemRow> problems;
      addProblems(sink.diagnostics(), static_cast<int>(StageId::AsWritten),
                  stageTitle(StageId::AsWritten), nullptr, problems);
      const QString message =
          problems.isEmpty() ? QStringLiteral("could not load the program") : problems[0].message;
      post([c = m_controller, path, message, problems] {
        Q_EMIT c->loadFailed(path, message, problems);
      });
      return;
    }
    auto snapshot = std::make_shared<ProgramSnapshot>();
    snapshot->loadId = generation;
    snapshot->path = path;
    snapshot->source = qs(program->sources().text(program->fileId()));
    snapshot->inputForm = qs(session::inputFormName(program->inputForm()));
    snapshot->inputFormDescription = qs(session::inputFormDescription(program->inputForm()));
    addProblems(sink.diagnostics(), static_cast<int>(StageId::AsWritten),
                stageTitle(StageId::AsWritten), &program->asWritten(), snapshot->problems);
    if (!fits)
      snapshot->cannotRun = snapshot->problems.back();
    markStagesPending(*snapshot);
    m_program = std::move(program);
    const ir::Module& written = m_program->asWritten();
    if (const ir::Mesh* mesh = session::programMesh(written))
      snapshot->mesh = meshInfo(*mesh);
    // The as-written rows of a large program (values with their layouts, collectives, the
    // printed module) take seconds: they come first in the background, after the graph.
    if (countOps(written) <= kEagerOps)
      computeStage(*snapshot, StageId::AsWritten, nullptr);
    if (m_controller->m_loadGeneration.load() != generation) {
      m_program.reset(); // cancelled or superseded while parsing
      return;
    }
    m_snapshot = snapshot;
    m_stagesGeneration = generation;
    // The stages start once the UI has handled `programLoaded`: the graph it requests from its
    // handlers is then queued here before them.
    post([c = m_controller, snapshot, generation] {
      if (generation != c->m_loadGeneration.load())
        return;
      c->m_program = snapshot;
      c->m_execution.reset();
      Q_EMIT c->programLoaded(snapshot);
      c->startStages(generation);
    });
  }

  // Phase two: computes the next pending stage, publishes it and schedules the one after. It
  // yields to queued commands (a graph, a step): `m_yield` stops the pass pipeline between passes
  // and the stage is computed again after them.
  void nextStage(quint64 generation) {
    if (!m_stagesRunning || generation != m_stagesGeneration)
      return;
    if (m_controller->m_stopStages.load() || !m_snapshot) {
      stopStages(/*cancelled=*/true);
      return;
    }
    m_yield->store(false);
    if (m_controller->m_queued.load() > 0) {
      scheduleStage();
      return;
    }
    const int next = nextStageToCompute();
    if (next < 0) {
      stopStages(/*cancelled=*/false);
      return;
    }
    const auto stage = static_cast<StageId>(next);
    post([c = m_controller, stage] {
      c->setWorkText(
          EngineController::tr("Computing the %1 stage").arg(stageTitle(stage).toLower()));
    });
    auto updated = std::make_shared<ProgramSnapshot>(*m_snapshot);
    if (!computeStage(*updated, stage, m_yield.get())) {
      // Stopped between passes: by Cancel, or to let a queued command run first.
      if (m_controller->m_stopStages.load())
        stopStages(/*cancelled=*/true);
      else
        scheduleStage();
      return;
    }
    publishStage(updated, stage);
    scheduleStage();
  }

  // Loads `path` to be diffed with the program shown: every pipeline stage computed here (the
  // snapshot keeps what the views compare; the program itself is not kept).
  void loadDiff(const QString& path) {
    auto fail = [&](const QString& message) {
      post([c = m_controller, message] { Q_EMIT c->diffProgramFailed(message); });
    };
    if (m_snapshot && QFileInfo(path).canonicalFilePath() ==
                          QFileInfo(m_snapshot->path).canonicalFilePath())
      return fail(QStringLiteral("%1 is the program shown: a program is not diffed with itself.")
                      .arg(QFileInfo(path).fileName()));
    support::CollectingSink sink;
    std::unique_ptr<session::Program> program = loadForViews(path, sink);
    if (!program) {
      QVector<ProblemRow> problems;
      addProblems(sink.diagnostics(), static_cast<int>(StageId::AsWritten),
                  stageTitle(StageId::AsWritten), nullptr, problems);
      return fail(QStringLiteral("Could not load %1 to diff with: %2")
                      .arg(QFileInfo(path).fileName(), problems.isEmpty()
                                                           ? QStringLiteral("unknown error")
                                                           : problems[0].message));
    }
    auto snapshot = std::make_shared<ProgramSnapshot>();
    snapshot->path = path;
    markStagesPending(*snapshot);
    // The pipeline stages are the first of `StageId` (the gradient stages follow).
    for (size_t i = 0; i < session::kStages.size(); ++i)
      if (!computeStageOf(*program, *snapshot, static_cast<StageId>(i), m_cancel.get()))
        return; // cancelled
    post([c = m_controller, snap = ProgramSnapshotPtr(snapshot)] {
      Q_EMIT c->diffProgramLoaded(snap);
    });
  }

  // Loads `path` for the views: a mesh beyond what they lay out (they list every device) is a
  // located load error, never an allocation that brings the app down. Null after reporting.
  static std::unique_ptr<session::Program> loadForViews(const QString& path,
                                                        support::DiagnosticSink& sink) {
    std::unique_ptr<session::Program> program = session::Program::load(path.toStdString(), sink);
    if (program && !session::checkMeshDevices(program->asWritten(), session::kMaxLaidOutDevices,
                                              sink, "the app lays out every device"))
      program.reset();
    return program;
  }

  static void markStagesPending(ProgramSnapshot& snapshot) {
    for (int i = 0; i < kNumStages; ++i) {
      snapshot.stages[i].stage = static_cast<StageId>(i);
      snapshot.stages[i].status = StageStatus::Pending;
    }
  }

  void startStages(quint64 generation) {
    if (generation != m_stagesGeneration || !m_snapshot || m_stagesRunning) {
      post([c = m_controller] { c->stagesDone(); });
      return;
    }
    m_stagesRunning = true;
    scheduleStage();
  }

  void start(const QString& spec, bool checkReference, const QSet<QString>& breakpoints,
             const QString& watched, StageId stage) {
    m_longest.clear();
    m_timeline.reset();
    m_started = {spec, checkReference, stage};
    startRun(spec, checkReference, breakpoints, watched, stage);
    if (m_execution)
      publish(QStringLiteral("started"));
  }

  // Jumps to step `target` of the run (see `EngineController::jumpToStep`).
  void jumpTo(qint64 target) {
    if (!m_execution) {
      error(QStringLiteral("Start a run first."));
      return;
    }
    const bool back = target < m_execution->steps();
    if (back) {
      // Back: a new run with the same inputs (runs are deterministic) taken to the step.
      startRun(m_started.spec, m_started.checkReference, m_breakpoints, m_watched,
               m_started.stage);
      if (!m_execution)
        return;
    }
    session::StopReason reason = m_execution->runToStep(target);
    QString why = reason == session::StopReason::Stepped
                      ? (back ? QStringLiteral("jumped back") : QStringLiteral("jumped ahead"))
                      : QString::fromUtf8(session::stopReasonName(reason).data(),
                                          static_cast<int>(session::stopReasonName(reason).size()));
    if (reason == session::StopReason::Failed)
      error(QStringLiteral("The run failed: %1").arg(lastError()));
    publish(why);
  }

  void startRun(const QString& spec, bool checkReference, const QSet<QString>& breakpoints,
                const QString& watched, StageId stage) {
    m_execution.reset();
    m_execSink.clear();
    if (!m_program) {
      error(QStringLiteral("No program is loaded."));
      return;
    }
    if (m_snapshot && !m_snapshot->canRun()) {
      refuseStart(m_snapshot->cannotRun);
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
    options.stage = isGradientStage(stage) ? session::kAllStages[static_cast<int>(stage)]
                                           : session::Stage::PerDevice;
    options.checkReference = checkReference;
    options.historyBytes = session::kDefaultHistoryBytes;
    options.cancel = m_cancel.get(); // Cancel stops a jump and the other multi-step commands
    m_execution = session::Execution::create(*m_program, options, m_execSink);
    if (!m_execution ||
        !session::checkTensorSizes(m_execution->module(), session::kDefaultMaxTensorBytes,
                                   m_execSink, kTensorLimitHint) ||
        !m_execution->setInputs(*inputs) || !m_execution->start()) {
      m_execution.reset();
      error(QStringLiteral("Could not start the run: %1").arg(lastError()));
      publishStartFailure();
      return;
    }
    m_breakpoints = breakpoints;
    m_watched = watched;
    recordWatched();
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

  // The run's diagnostics as problems of stage `Run`, located at ops of `module`; those the
  // stages reported already (a stage computed for the run) are not repeated.
  QVector<ProblemRow> runProblems(const ir::Module* module) const {
    QVector<ProblemRow> rows = m_snapshot ? m_snapshot->problems : QVector<ProblemRow>();
    const int known = rows.size();
    addProblems(m_execSink.diagnostics(), -1, QStringLiteral("Run"), module, rows);
    return rows.mid(known);
  }

  // A run that could not start: a failed snapshot with no devices, carrying the reason.
  void publishStartFailure() {
    auto snap = std::make_shared<ExecutionSnapshot>();
    snap->failed = true;
    snap->stopReason = QStringLiteral("could not start");
    snap->problems =
        runProblems(m_program ? m_program->cachedStage(session::Stage::PerDevice) : nullptr);
    post([c = m_controller, snap] {
      c->m_execution = snap;
      Q_EMIT c->executionChanged(snap);
    });
  }

  // A run the program cannot have (see `ProgramSnapshot::cannotRun`): a failed snapshot whose
  // problem is the one found at load, and the message.
  void refuseStart(const ProblemRow& why) {
    auto snap = std::make_shared<ExecutionSnapshot>();
    snap->failed = true;
    snap->stopReason = QStringLiteral("could not start");
    ProblemRow row = why;
    row.stage = QStringLiteral("Run");
    row.stageId = -1;
    snap->problems.push_back(row);
    error(QStringLiteral("Could not start the run: %1 (line %2)").arg(why.message).arg(why.line));
    post([c = m_controller, snap] {
      c->m_execution = snap;
      Q_EMIT c->executionChanged(snap);
    });
  }

  void graph(StageId stage, const QString& function, const QStringList& expanded,
             const QStringList& collapsed, quint64 request) {
    // Coalescing: a newer request replaces this one before it starts.
    if (request != m_controller->m_graphRequest.load())
      return;
    // (A stage not computed yet is computed here first; the background then fills in its rows
    // before the other stages': see `nextStage`.)
    GraphSnapshotPtr snap =
        buildGraphSnapshot(m_program.get(), stage, function, expanded, collapsed, m_cancel.get());
    post([c = m_controller, snap] { Q_EMIT c->graphReady(snap); });
  }
  void explain(const QString& id, quint64 request) {
    if (request != m_controller->m_explainRequest.load())
      return;
    auto snap = std::make_shared<ExplanationSnapshot>();
    snap->valueId = id;
    const ir::Value* value = m_program ? findValue(m_program->asWritten(), id) : nullptr;
    std::optional<session::Program::ShardingExplanation> why =
        value ? m_program->explainSharding(*value) : std::nullopt;
    if (!why) {
      snap->note = value ? QStringLiteral("propagation failed, so there is no origin to show")
                         : QStringLiteral("the value is not in the program as written");
    } else {
      snap->asWritten = qs(why->asWritten);
      snap->propagated = qs(why->propagated);
      snap->changed = why->changed;
      snap->rule = qs(why->rule);
      for (const auto& seed : why->seeds)
        snap->seeds.push_back(qs(seed.str()));
      for (const auto& step : why->steps)
        snap->steps.push_back(qs(step.str()));
    }
    post([c = m_controller, snap] { Q_EMIT c->explanationReady(snap); });
  }

  void watch(const QString& id) {
    m_watched = id;
    recordWatched();
    if (m_execution)
      publish(m_lastReason);
  }

  // The selected value is kept on every device when the run frees it.
  void recordWatched() {
    if (!m_execution || m_watched.isEmpty())
      return;
    if (const ir::Value* value = findValue(m_execution->module(), m_watched))
      m_execution->recordValue(value);
  }

private:
  // The first stage not computed yet; the stage shown (and for a pipeline stage, the stages it
  // derives from) first.
  int nextStageToCompute() const {
    const int shown = m_controller->m_shownStage.load();
    if (shown >= 0 && shown < kNumStages && m_snapshot->stages[shown].notComputed()) {
      const bool gradient = isGradientStage(static_cast<StageId>(shown));
      for (int i = gradient ? shown : 0; i <= shown; ++i)
        if (m_snapshot->stages[i].notComputed())
          return i;
    }
    for (int i = 0; i < kNumStages; ++i)
      if (m_snapshot->stages[i].notComputed())
        return i;
    return -1;
  }

  void scheduleStage() {
    QMetaObject::invokeMethod(this, [this, g = m_stagesGeneration] { nextStage(g); },
                              Qt::QueuedConnection);
  }

  // Ends phase two: the stages still pending are marked cancelled (when `cancelled`), and the
  // controller's work ends.
  void stopStages(bool cancelled) {
    if (!m_stagesRunning)
      return;
    m_stagesRunning = false;
    if (cancelled && m_snapshot && !m_snapshot->allStagesComputed()) {
      auto updated = std::make_shared<ProgramSnapshot>(*m_snapshot);
      for (StageSnapshot& s : updated->stages)
        if (s.status == StageStatus::Pending)
          s.status = StageStatus::Cancelled;
      m_snapshot = updated;
    }
    post([c = m_controller, snap = m_snapshot, cancelled] {
      if (snap && c->m_program && c->m_program->loadId == snap->loadId) {
        c->m_program = snap;
        Q_EMIT c->stagesFinished(snap, cancelled);
      }
      c->stagesDone();
    });
  }

  void publishStage(const std::shared_ptr<ProgramSnapshot>& updated, StageId stage) {
    m_snapshot = updated;
    post([c = m_controller, snap = ProgramSnapshotPtr(updated), stage] {
      // Updates of a program no longer shown are dropped.
      if (!c->m_program || c->m_program->loadId != snap->loadId)
        return;
      c->m_program = snap;
      Q_EMIT c->stageReady(snap, stage);
    });
  }

  // Computes `stage` of m_program into `snapshot` (its values, collectives, text and problems).
  // Returns false, leaving the snapshot as it was, when `cancel` stopped the computation.
  bool computeStage(ProgramSnapshot& snapshot, StageId stage, const std::atomic<bool>* cancel) {
    return computeStageOf(*m_program, snapshot, stage, cancel);
  }

  // The same for any program (the program diffed with, too).
  static bool computeStageOf(session::Program& program, ProgramSnapshot& snapshot, StageId stage,
                             const std::atomic<bool>* cancel) {
    const int i = static_cast<int>(stage);
    support::CollectingSink stageSink;
    const session::Stage engineStage = session::kAllStages[i];
    const ir::Module* module = program.stage(engineStage, stageSink, cancel);
    if (!module && cancel && cancel->load())
      return false;
    StageSnapshot out;
    out.stage = stage;
    out.status = StageStatus::Computed;
    if (session::isGradientStage(engineStage)) {
      // A gradient needs a scalar function: for other programs the stage is unavailable, which
      // is not a problem of the program.
      if (!module) {
        out.unavailable = stageSink.diagnostics().empty()
                              ? QStringLiteral("no gradient")
                              : qs(stageSink.diagnostics().front().message);
        snapshot.stages[i] = std::move(out);
        return true;
      }
      out.function = qs(program.defaultFunction(engineStage));
    }
    if (module) {
      out.available = true;
      std::vector<io::mlir::PrintedOpLine> printed;
      out.text = QString::fromStdString(
          io::mlir::printModule(*module, printed, 0, io::mlir::ValueNames::Source));
      for (const io::mlir::PrintedOpLine& p : printed) {
        if (p.op->is("func.func")) {
          out.lineOps.insert(static_cast<int>(p.line), QString()); // belongs to no value
          continue;
        }
        const QString id = opIdOf(*p.op);
        out.opLines.insert(id, out.opLines.value(id, static_cast<int>(p.line)));
        if (!out.lineOps.contains(static_cast<int>(p.line)))
          out.lineOps.insert(static_cast<int>(p.line), id);
      }
      const session::StageAnalyses* analyses = program.analyses(engineStage, stageSink, cancel);
      if (!analyses)
        return false;
      for (const support::Diagnostic& d : analyses->diagnostics)
        stageSink.report(d);
      if (!collectValues(*module, analyses->shardMaps ? &*analyses->shardMaps : nullptr,
                         out.values, cancel,
                         analyses->explicitTypes ? &*analyses->explicitTypes : nullptr))
        return false;
      if (session::isGradientStage(engineStage)) {
        out.description = gradientDescription(analyses->gradientCollectives, out.function);
        collectGradientCollectives(program, *analyses, out);
      } else
        collectCollectives(program, *analyses, stage, out);
    }
    snapshot.stages[i] = std::move(out);
    addProblems(stageSink.diagnostics(), i, stageTitle(stage), module, snapshot.problems);
    return true;
  }

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

  void publish(const QString& reason) {
    m_lastReason = reason;
    auto snap = std::make_shared<ExecutionSnapshot>(
        executionSnapshot(*m_execution, reason, m_watched, runProblems(&m_execution->module())));
    // The bar shows the longest timeline of runs with these inputs: after a jump back the new
    // run's is a prefix of it. Rebuilt only when it grew.
    if (m_execution->timeline().size() > m_longest.size() || !m_timeline) {
      m_longest = m_execution->timeline();
      m_timeline = timelineOf(m_longest);
    }
    snap->timeline = m_timeline;
    post([c = m_controller, snap] {
      c->m_execution = snap;
      Q_EMIT c->executionChanged(snap);
    });
  }

  EngineController* m_controller;
  std::shared_ptr<std::atomic<bool>> m_cancel;
  // Set by the controller when a command is queued: the background stage computation stops
  // between passes so that the command runs first.
  std::shared_ptr<std::atomic<bool>> m_yield;
  std::unique_ptr<session::Program> m_program;
  // The program snapshot as published so far (stages fill in as they are computed).
  std::shared_ptr<ProgramSnapshot> m_snapshot;
  quint64 m_stagesGeneration = 0;
  bool m_stagesRunning = false;
  support::CollectingSink m_execSink;
  std::unique_ptr<session::Execution> m_execution;
  QSet<QString> m_breakpoints;
  QString m_watched;
  QString m_lastReason;
  // What the last run was started with, for jumping back; the longest timeline of such runs.
  struct StartedWith {
    QString spec;
    bool checkReference = false;
    StageId stage = StageId::PerDevice;
  } m_started;
  std::vector<session::TimelineStep> m_longest;
  std::shared_ptr<const Timeline> m_timeline;
};

EngineController::EngineController(QObject* parent)
    : QObject(parent), m_thread(new QThread(this)), m_progressTimer(new QTimer(this)),
      m_cancel(std::make_shared<std::atomic<bool>>(false)),
      m_yield(std::make_shared<std::atomic<bool>>(false)), m_serve(new ServeClient(this)) {
  qRegisterMetaType<ProgramSnapshotPtr>();
  qRegisterMetaType<ExecutionSnapshotPtr>();
  qRegisterMetaType<GraphSnapshotPtr>();
  qRegisterMetaType<ExplanationSnapshotPtr>();
  qRegisterMetaType<StageId>();
  m_worker = new EngineWorker(this, m_cancel, m_yield);
  m_worker->moveToThread(m_thread);
  connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
  m_thread->setObjectName(QStringLiteral("ShardScope engine"));
  m_thread->start();
  m_progressTimer->setSingleShot(true);
  m_progressTimer->setInterval(500);
  connect(m_progressTimer, &QTimer::timeout, this,
          [this] { Q_EMIT progressVisible(true, m_work); });
  // MPI runs: the client's commands count as the controller's work, its snapshots as its own.
  connect(m_serve, &ServeClient::workStarted, this, &EngineController::beginWork);
  connect(m_serve, &ServeClient::workFinished, this, &EngineController::endWork);
  connect(m_serve, &ServeClient::executionChanged, this, [this](ExecutionSnapshotPtr snap) {
    if (!m_runOnServe)
      return;
    m_execution = snap;
    Q_EMIT executionChanged(snap);
  });
  connect(m_serve, &ServeClient::errorOccurred, this, &EngineController::errorOccurred);
  // A new program ends the run wherever it was.
  connect(this, &EngineController::programLoaded, this, [this] { m_runOnServe = false; });
}

EngineController::~EngineController() {
  m_cancel->store(true);
  m_stopStages.store(true);
  m_yield->store(true);
  m_thread->quit();
  m_thread->wait();
}

void EngineController::beginWork(const QString& what) {
  if (m_pending++ == 0) {
    m_cancel->store(false);
    m_busy = true;
    m_work = what;
    if (m_stageRuns == 0 || !m_progressTimer->isActive())
      m_progressTimer->start();
    Q_EMIT busyChanged(true, what);
  }
}

void EngineController::endWork() {
  if (--m_pending > 0)
    return;
  m_busy = false;
  if (m_stageRuns == 0) {
    m_progressTimer->stop();
    Q_EMIT progressVisible(false, QString());
  }
  Q_EMIT busyChanged(false, QString());
}

void EngineController::load(const QString& path) {
  const quint64 generation = ++m_loadGeneration;
  beginWork(tr("Loading %1").arg(path));
  m_stopStages.store(false);
  // (`command` stops the stages of the previous program between passes.)
  command([w = m_worker, path, generation, this] {
    w->load(path, generation);
    QMetaObject::invokeMethod(this, [this] { endWork(); }, Qt::QueuedConnection);
  });
}

void EngineController::command(std::function<void()> fn) {
  // Queued first, then the background is told to yield: when it sees the flag, the command is
  // already ahead of its next turn.
  ++m_queued;
  QMetaObject::invokeMethod(m_worker, [this, fn = std::move(fn)] {
    fn();
    --m_queued;
  }, Qt::QueuedConnection);
  m_yield->store(true);
}

void EngineController::startStages(quint64 generation) {
  // Not `busy`: runs and graphs go ahead of the stages. Progress (and Cancel) show all the same.
  if (m_stageRuns++ == 0 && !m_busy) {
    m_work = tr("Computing the stages");
    m_progressTimer->start();
  }
  QMetaObject::invokeMethod(m_worker, [w = m_worker, generation] { w->startStages(generation); },
                            Qt::QueuedConnection);
}

void EngineController::stagesDone() {
  if (--m_stageRuns > 0 || m_busy)
    return;
  m_progressTimer->stop();
  Q_EMIT progressVisible(false, QString());
}

void EngineController::setWorkText(const QString& what) {
  if (!m_busy && m_stageRuns == 0)
    return;
  m_work = what;
  if (!m_progressTimer->isActive())
    Q_EMIT progressVisible(true, what);
}

void EngineController::setBackend(Backend backend, int mpiRanks) {
  MpiOptions mpi = m_mpi;
  mpi.ranks = qMax(1, mpiRanks);
  applyBackend(backend, mpi);
}

void EngineController::setMpiHosts(const QString& hostfile, bool oversubscribe) {
  MpiOptions mpi = m_mpi;
  mpi.hostfile = hostfile.trimmed();
  mpi.oversubscribe = oversubscribe;
  applyBackend(m_backend, mpi);
}

void EngineController::applyBackend(Backend backend, const MpiOptions& mpi) {
  const bool changed = backend != m_backend || !(mpi == m_mpi);
  m_backend = backend;
  m_mpi = mpi;
  // The MPI server (mpirun and its ranks) serves one choice of backend: another choice ends it
  // instead of leaving it idle until the app quits. Its run is over; Start begins a new one.
  if (changed && !m_serve->isBusy())
    m_serve->shutdown();
}

void EngineController::startExecution(const QString& inputSpec, bool checkReference) {
  // A program that cannot run is refused by the engine thread, whichever the backend.
  m_runOnServe = m_backend == Backend::Mpi && m_program && m_program->canRun();
  if (m_runOnServe) {
    if (!m_program) {
      Q_EMIT errorOccurred(tr("No program is loaded."));
      return;
    }
    m_serve->setCommand(ServeClient::mpiCommand(ServeClient::locateCli(), m_mpi));
    m_serve->setStage(isGradientStage(m_runStage) ? stageKey(m_runStage) : QString());
    m_serve->startRun(m_program->path, inputSpec, checkReference, m_breakpoints, m_watched);
    return;
  }
  beginWork(tr("Starting the run"));
  command([w = m_worker, inputSpec, checkReference, this, bps = m_breakpoints,
           watched = m_watched, stage = m_runStage] {
    w->start(inputSpec, checkReference, bps, watched, stage);
    QMetaObject::invokeMethod(this, [this] { endWork(); }, Qt::QueuedConnection);
  });
}

void EngineController::step(StepKind kind) {
  if (m_runOnServe) {
    m_serve->step(kind);
    return;
  }
  beginWork(tr("Running"));
  command([w = m_worker, kind, this] {
    w->step(kind);
    QMetaObject::invokeMethod(this, [this] { endWork(); }, Qt::QueuedConnection);
  });
}

void EngineController::jumpToStep(qint64 step) {
  if (m_runOnServe) {
    m_serve->jumpToStep(step);
    return;
  }
  beginWork(tr("Going to step %1").arg(step));
  command([w = m_worker, step, this] {
    w->jumpTo(step);
    QMetaObject::invokeMethod(this, [this] { endWork(); }, Qt::QueuedConnection);
  });
}

void EngineController::loadDiffProgram(const QString& path) {
  beginWork(tr("Loading %1 to diff with").arg(QFileInfo(path).fileName()));
  command([w = m_worker, path, this] {
    w->loadDiff(path);
    QMetaObject::invokeMethod(this, [this] { endWork(); }, Qt::QueuedConnection);
  });
}

void EngineController::runTo(const QString& opId) {
  if (m_runOnServe) {
    m_serve->runTo(opId);
    return;
  }
  beginWork(tr("Running"));
  command([w = m_worker, opId, this] {
    w->step(StepKind::Continue, opId);
    QMetaObject::invokeMethod(this, [this] { endWork(); }, Qt::QueuedConnection);
  });
}

void EngineController::setBreakpoint(const QString& opId, bool enabled) {
  if (enabled == m_breakpoints.contains(opId))
    return;
  if (enabled)
    m_breakpoints.insert(opId);
  else
    m_breakpoints.remove(opId);
  m_serve->setBreakpoints(m_breakpoints);
  command([w = m_worker, bps = m_breakpoints] { w->setBreakpoints(bps); });
  Q_EMIT breakpointsChanged();
}

void EngineController::watchValue(const QString& valueId) {
  if (valueId == m_watched)
    return;
  m_watched = valueId;
  if (m_runOnServe) {
    m_serve->watchValue(valueId);
    return;
  }
  beginWork(tr("Reading values"));
  const quint64 request = ++m_watchRequest;
  command([w = m_worker, valueId, request, this] {
    // Coalescing: only the newest selection is read.
    if (request == m_watchRequest.load())
      w->watch(valueId);
    QMetaObject::invokeMethod(this, [this] { endWork(); }, Qt::QueuedConnection);
  });
}

void EngineController::explainValue(const QString& valueId) {
  const quint64 request = ++m_explainRequest;
  command([w = m_worker, valueId, request] { w->explain(valueId, request); });
}

void EngineController::requestGraph(StageId stage, const QString& function,
                                    const QStringList& expanded, const QStringList& collapsed) {
  beginWork(tr("Laying out the graph"));
  m_shownStage.store(static_cast<int>(stage));
  const quint64 request = ++m_graphRequest;
  command([w = m_worker, stage, function, expanded, collapsed, request, this] {
    w->graph(stage, function, expanded, collapsed, request);
    QMetaObject::invokeMethod(this, [this] { endWork(); }, Qt::QueuedConnection);
  });
}

void EngineController::cancel() {
  m_cancel->store(true);
  m_stopStages.store(true);
  m_yield->store(true);
  m_serve->cancel();
  ++m_loadGeneration; // a load in flight is dropped
}

} // namespace shardscope::widgets
