#pragma once

#include "widgets/controller/snapshots.h"

#include <QObject>
#include <QSet>
#include <QString>

#include <atomic>
#include <memory>

class QThread;
class QTimer;

namespace shardscope::widgets {

class EngineWorker;

/// Owns the engine session (`core/session`: the program, its stages and an execution) on a
/// worker thread. Every request is queued to that thread; results come back as immutable
/// snapshots through signals emitted on the controller's (the UI) thread. Requests made while
/// busy are queued; `cancel()` stops a run between steps and drops the result of a load.
class EngineController : public QObject {
  Q_OBJECT

public:
  explicit EngineController(QObject* parent = nullptr);
  ~EngineController() override;

  /// The last program loaded (null before the first).
  ProgramSnapshotPtr program() const { return m_program; }
  ExecutionSnapshotPtr execution() const { return m_execution; }
  bool isBusy() const { return m_busy; }

  /// How a stepping command moves the run.
  enum class StepKind { Step, StepOver, StepOut, Continue, RunToEnd };

public Q_SLOTS:
  /// Loads `path`, computes every stage and its analyses; emits `programLoaded` or `loadFailed`.
  void load(const QString& path);
  /// Starts a run of the per-device program with inputs `spec` (`iota`, `random:7,0=a.npy`).
  void startExecution(const QString& inputSpec, bool checkReference);
  void step(StepKind kind);
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
  /// Stops the running command between steps, or drops the result of a load in progress.
  void cancel();

public:
  QSet<QString> breakpoints() const { return m_breakpoints; }

Q_SIGNALS:
  void programLoaded(shardscope::widgets::ProgramSnapshotPtr program);
  void loadFailed(const QString& path, const QString& message,
                  const QVector<shardscope::widgets::ProblemRow>& problems);
  void executionChanged(shardscope::widgets::ExecutionSnapshotPtr execution);
  void graphReady(shardscope::widgets::GraphSnapshotPtr graph);
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

  QThread* m_thread;
  EngineWorker* m_worker; // lives on m_thread
  QTimer* m_progressTimer;
  std::shared_ptr<std::atomic<bool>> m_cancel;
  ProgramSnapshotPtr m_program;
  ExecutionSnapshotPtr m_execution;
  QSet<QString> m_breakpoints;
  QString m_watched;
  QString m_work;
  int m_pending = 0;
  bool m_busy = false;
  quint64 m_loadGeneration = 0;
  std::atomic<quint64> m_graphRequest{0}; // the newest graph request; older ones are skipped
  std::atomic<quint64> m_watchRequest{0}; // the same for watched values
};

} // namespace shardscope::widgets
