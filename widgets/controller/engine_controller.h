#pragma once

#include "widgets/controller/snapshots.h"

#include <QObject>
#include <QSet>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>

class QThread;
class QTimer;

namespace shardscope::widgets {

class EngineWorker;
class ServeClient;

/// Where the ranks of an MPI run go: `ranks` processes on the hosts of `hostfile` (mpirun's
/// `--hostfile`; empty: this machine only). Without a hostfile mpirun always oversubscribes (one
/// machine rarely has a slot per rank); with one only when `oversubscribe` is set, so that the
/// hostfile's slots are respected.
struct MpiOptions {
  int ranks = 2;
  QString hostfile;
  bool oversubscribe = false;
  bool operator==(const MpiOptions& other) const = default;
};

/// Owns the engine session (`core/session`: the program, its stages and an execution) on a
/// worker thread. Every request is queued to that thread; results come back as immutable
/// snapshots through signals emitted on the controller's (the UI) thread. Requests made while
/// busy are queued; `cancel()` stops a run between steps, drops the result of a load and stops
/// the stage computation.
///
/// A load has two phases: `programLoaded` comes as soon as the program is parsed and verified,
/// with only the as-written stage computed (the others `StageStatus::Pending`); the engine then
/// computes the other stages one by one in the background, emitting `stageReady` for each and
/// `stagesFinished` at the end. Any command yields to the background: it stops between passes,
/// the command runs, and the stage is computed again. A command about a stage not computed yet
/// (a graph) computes its module first, and the background then does that stage's rows first.
class EngineController : public QObject {
  Q_OBJECT

public:
  explicit EngineController(QObject* parent = nullptr);
  ~EngineController() override;

  /// The last program loaded (null before the first).
  ProgramSnapshotPtr program() const { return m_program; }
  ExecutionSnapshotPtr execution() const { return m_execution; }
  /// True while a command (load, run, step, graph) is queued or running. The background stage
  /// computation after a load does not count (see `isComputingStages`).
  bool isBusy() const { return m_busy; }
  /// True while the stages of the loaded program are being computed in the background.
  bool isComputingStages() const { return m_stageRuns > 0; }

  /// How a stepping command moves the run.
  enum class StepKind { Step, StepOver, StepOut, Continue, RunToEnd };

  /// Where runs execute: on the engine thread of this process, or under MPI in an
  /// `mpirun -np N shardscope-cli serve --backend mpi` child driven by a `ServeClient`.
  enum class Backend { Local, Mpi };
  Backend backend() const { return m_backend; }
  int mpiRanks() const { return m_mpi.ranks; }
  MpiOptions mpiOptions() const { return m_mpi; }
  /// The client of MPI runs (for tests: its command and deadline can be set).
  ServeClient* serveClient() const { return m_serve; }

public Q_SLOTS:
  /// Loads `path`: emits `programLoaded` (the as-written stage) or `loadFailed`, then computes
  /// the other stages and their analyses in the background (`stageReady`, `stagesFinished`).
  void load(const QString& path);
  /// Chooses where the next runs execute (a run in progress stays where it is).
  void setBackend(shardscope::widgets::EngineController::Backend backend, int mpiRanks = 2);
  /// The hosts of the next MPI runs (see `MpiOptions`); the ranks come with `setBackend`.
  void setMpiHosts(const QString& hostfile, bool oversubscribe);
  /// What the next run runs: the per-device program for a pipeline stage, the gradient's
  /// per-device program for a gradient stage.
  void setRunStage(shardscope::widgets::StageId stage) { m_runStage = stage; }
  StageId runStage() const { return m_runStage; }
  /// Starts a run of the per-device program with inputs `spec` (`iota`, `random:7,0=a.npy`) on the
  /// chosen backend; stepping commands go to where the run is.
  void startExecution(const QString& inputSpec, bool checkReference);
  void step(StepKind kind);
  /// Takes the run to just after step `step` (1-based; 0: before the first), forward or back: a
  /// step already passed is reached again by a new run with the same inputs. The timeline of
  /// execution snapshots lists the steps known so far. In process and under MPI alike.
  void jumpToStep(qint64 step);
  /// Loads `path` and computes its pipeline stages, to diff the program shown with (program vs
  /// program: values and collectives match by source location, as `report --diff-with` does).
  /// Emits `diffProgramLoaded`, or `diffProgramFailed` (a missing or broken file, the program
  /// shown).
  void loadDiffProgram(const QString& path);
  /// Runs until a device is about to execute op `opId` (run to cursor), a breakpoint or the end.
  void runTo(const QString& opId);
  /// Toggles a breakpoint on the op `opId` (an op id of any stage); applies to the next runs.
  void setBreakpoint(const QString& opId, bool enabled);
  /// The value whose per-device, global and reference values execution snapshots carry.
  void watchValue(const QString& valueId);
  /// Lays out the graph of `function` (empty: `main` or the first) of `stage` with Graphviz on
  /// the engine thread; clusters in `expanded`/`collapsed` are opened/closed. Emits `graphReady`.
  void requestGraph(shardscope::widgets::StageId stage, const QString& function,
                    const QStringList& expanded, const QStringList& collapsed);
  /// Explains why value `valueId` has its sharding after propagation (the origin chain): emits
  /// `explanationReady`. Only the newest request is answered.
  void explainValue(const QString& valueId);
  /// Stops the running command between steps, drops the result of a load in progress, and stops
  /// the background stage computation (the stages left are `StageStatus::Cancelled`).
  void cancel();

public:
  QSet<QString> breakpoints() const { return m_breakpoints; }

Q_SIGNALS:
  void programLoaded(shardscope::widgets::ProgramSnapshotPtr program);
  /// Stage `stage` of the program loaded last was computed: `program` is the program snapshot
  /// with it filled in (`program()` returns it from now on; same `loadId` as the loaded one).
  void stageReady(shardscope::widgets::ProgramSnapshotPtr program,
                  shardscope::widgets::StageId stage);
  /// The background stage computation ended: every stage computed, or `cancelled` (the stages
  /// left are marked `StageStatus::Cancelled` in `program`).
  void stagesFinished(shardscope::widgets::ProgramSnapshotPtr program, bool cancelled);
  void loadFailed(const QString& path, const QString& message,
                  const QVector<shardscope::widgets::ProblemRow>& problems);
  void executionChanged(shardscope::widgets::ExecutionSnapshotPtr execution);
  /// The program `loadDiffProgram` loaded, its pipeline stages computed.
  void diffProgramLoaded(shardscope::widgets::ProgramSnapshotPtr program);
  /// `loadDiffProgram` could not make the diff: why, in a sentence.
  void diffProgramFailed(const QString& message);
  void graphReady(shardscope::widgets::GraphSnapshotPtr graph);
  /// The answer to `explainValue`.
  void explanationReady(shardscope::widgets::ExplanationSnapshotPtr explanation);
  void errorOccurred(const QString& message);
  /// Work started (`busy`) or ended; `what` names it for a progress display.
  void busyChanged(bool busy, const QString& what);
  /// Emitted once work has run for ~0.5 s, so that views show progress only for long work.
  void progressVisible(bool visible, const QString& what);
  void breakpointsChanged();

private:
  friend class EngineWorker;
  void beginWork(const QString& what);
  void endWork();
  void setWorkText(const QString& what);
  // Queues `fn` on the engine thread and makes the background stage computation yield to it.
  void command(std::function<void()> fn);
  // Starts the background stage computation of load `generation` (after `programLoaded`).
  void startStages(quint64 generation);
  void stagesDone();

  QThread* m_thread;
  EngineWorker* m_worker; // lives on m_thread
  QTimer* m_progressTimer;
  void applyBackend(Backend backend, const MpiOptions& mpi);
  std::shared_ptr<std::atomic<bool>> m_cancel;
  std::shared_ptr<std::atomic<bool>> m_yield; // the background yields to a queued command
  std::atomic<bool> m_stopStages{false};       // Cancel: the background stops
  std::atomic<int> m_queued{0};                // commands queued or running on the engine thread
  std::atomic<int> m_shownStage{-1};           // the stage of the last graph: computed first
  ProgramSnapshotPtr m_program;
  ExecutionSnapshotPtr m_execution;
  QSet<QString> m_breakpoints;
  QString m_watched;
  ServeClient* m_serve;
  Backend m_backend = Backend::Local;
  StageId m_runStage = StageId::PerDevice;
  MpiOptions m_mpi;
  bool m_runOnServe = false; // the current run is the ServeClient's
  QString m_work;
  int m_pending = 0;
  int m_stageRuns = 0; // background stage computations started and not yet done
  bool m_busy = false;
  std::atomic<quint64> m_loadGeneration{0};
  std::atomic<quint64> m_explainRequest{0};
  std::atomic<quint64> m_graphRequest{0}; // the newest graph request; older ones are skipped
  std::atomic<quint64> m_watchRequest{0}; // the same for watched values
};

} // namespace shardscope::widgets
