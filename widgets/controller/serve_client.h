#pragma once

#include "widgets/controller/engine_controller.h"
#include "widgets/controller/snapshots.h"

#include <QJsonObject>
#include <QMap>
#include <QObject>
#include <QProcess>
#include <QSet>
#include <QString>
#include <QStringList>

#include <deque>
#include <functional>

class QTimer;

namespace shardscope::widgets {

/// How to start a `shardscope-cli serve` child: the program, its arguments and the variables
/// added to the environment.
struct ServeCommand {
  QString program;
  QStringList arguments;
  QStringList environment; ///< `NAME=VALUE`, added to the app's environment
  QString backend;         ///< `serve` (a local server) or `mpi`
  bool operator==(const ServeCommand& other) const = default;
};

/// Runs the per-device program in a `shardscope-cli serve` child process (SERVE_PROTOCOL.md) and
/// turns its answers into the same `ExecutionSnapshot`s the in-process path produces: the devices'
/// next ops with their MPI ranks, the stop reason, the divergences and the watched value on every
/// device, assembled and in the reference (with `fetch`).
///
/// Everything is asynchronous: requests go out on the child's stdin, responses are matched by id
/// as they arrive, and the UI thread never waits. Commands run one at a time in the order given.
/// A child that fails to start, exits, crashes, or does not answer within the deadline (which is
/// also how a child that closed its output shows) fails the run (a snapshot with `failed` and
/// `failure`: the exit status and the tail of its stderr) and is discarded; the next `startRun`
/// starts a new one.
class ServeClient : public QObject {
  Q_OBJECT

public:
  explicit ServeClient(QObject* parent = nullptr);
  ~ServeClient() override;

  /// The `shardscope-cli` to run: `$SHARDSCOPE_CLI`, else the one next to the running executable,
  /// else `../cli/shardscope-cli` (the build tree's layout); empty when none exists.
  static QString locateCli();
  /// `CLI serve --backend local`.
  static ServeCommand localCommand(const QString& cli);
  /// mpirun's arguments for `options`: `--oversubscribe -np RANKS CLI serve --backend mpi`
  /// without a hostfile, `--hostfile FILE [--oversubscribe] -np RANKS ...` with one.
  static QStringList mpiArguments(const QString& cli, const MpiOptions& options);
  /// mpirun from `PATH` with `mpiArguments` (and OpenMPI's run-as-root permission when the app
  /// runs as root).
  static ServeCommand mpiCommand(const QString& cli, const MpiOptions& options);

  /// The command of the next child; a running child with another command is ended first.
  void setCommand(const ServeCommand& command);
  ServeCommand command() const { return m_command; }
  /// How long a request may go unanswered before the child is declared hung (default 60 s).
  void setTimeout(int milliseconds) { m_timeoutMs = milliseconds; }
  ExecutionSnapshotPtr execution() const { return m_execution; }
  bool isBusy() const { return !m_jobs.empty(); }
  /// The child's process id (`mpirun` under MPI), 0 when none runs.
  qint64 processId() const;
  /// Every rank's process id as the server's `hello` gave it (rank 0 first).
  QVector<qint64> rankProcessIds() const { return m_rankPids; }

public Q_SLOTS:
  /// Loads `path` in the server (starting it when needed) and starts a run with inputs `spec`.
  void startRun(const QString& path, const QString& inputSpec, bool checkReference,
                const QSet<QString>& breakpoints, const QString& watched);
  void step(shardscope::widgets::EngineController::StepKind kind);
  /// Steps until a device is about to execute op `opId`, a breakpoint or the end.
  void runTo(const QString& opId);
  /// Takes the run to just after step `step`: `run_to_step` forward; back, a new run with the
  /// same inputs (load, set_inputs, start) taken there. Snapshots carry the timeline.
  void jumpToStep(qint64 step);
  void setBreakpoints(const QSet<QString>& breakpoints) { m_breakpoints = breakpoints; }
  /// The stage runs load (`stage` of the protocol's `load`); empty: the per-device program.
  void setStage(const QString& stageKey) { m_stage = stageKey; }
  /// The value (a stable value id) the snapshots carry; fetched again for the current stop.
  void watchValue(const QString& valueId);
  /// Stops a Continue / Run to End / run to op between two steps.
  void cancel() { m_cancelled = true; }
  /// Ends the child (politely: `quit`, then killed after a moment).
  void shutdown();

Q_SIGNALS:
  void executionChanged(shardscope::widgets::ExecutionSnapshotPtr execution);
  void errorOccurred(const QString& message);
  /// A command was queued (`what` names it) / a command ended; they pair up.
  void workStarted(const QString& what);
  void workFinished();

private:
  using Reply = std::function<void(const QJsonObject&)>;
  struct Pending {
    qint64 id;
    Reply reply;
  };
  void enqueue(const QString& what, std::function<void()> job);
  void runNext();
  void finishJob();
  void ensureServer(std::function<void()> then);
  void spawn();
  /// Forgets the child and ends it: `quit` first when `polite`, else SIGTERM; SIGKILL later.
  void discardProcess(bool polite);
  void send(QJsonObject request, Reply reply);
  void readOutput();
  void processFinished(int exitCode, QProcess::ExitStatus status);
  void fail(const QString& what);
  void stepLoop(EngineController::StepKind kind, const QString& target);
  /// Loads the run's program, sets its inputs and starts it; `started` gets the start's state.
  void loadAndStart(std::function<void(const QJsonObject&)> started);
  /// Reads the steps of the timeline not read yet into `snap`, then fetches its values.
  void readTimeline(std::shared_ptr<ExecutionSnapshot> snap);
  void finishStep(const QJsonObject& state, const QString& reason);
  void publish(const QJsonObject& state, const QString& reason);
  void fetchValues(std::shared_ptr<ExecutionSnapshot> snap, int device);
  QString stderrTail() const;
  bool requestOk(const QJsonObject& response, const QString& context);

  ServeCommand m_command;
  ServeCommand m_processCommand; // the command the running child was started with
  QProcess* m_process = nullptr;
  QTimer* m_deadline;
  int m_timeoutMs = 60000;
  QByteArray m_stdout;
  QByteArray m_stderr;
  qint64 m_nextId = 0;
  std::deque<Pending> m_pending;
  std::deque<std::pair<QString, std::function<void()>>> m_jobs; // front: running
  bool m_jobRunning = false;
  bool m_ready = false;     // the child answered `hello`
  quint64 m_generation = 0; // bumped when a child is discarded: stale callbacks return
  int m_ranks = 0;
  QVector<qint64> m_rankPids;
  QString m_serverBackend;
  // The run.
  bool m_running = false;
  bool m_checkReference = false;
  QString m_path;
  QString m_inputSpec;
  /// The longest timeline of runs with these inputs (a jump back keeps the steps ahead).
  std::shared_ptr<const Timeline> m_timeline;
  QString m_stage;
  bool m_cancelled = false;
  QSet<QString> m_breakpoints;
  QString m_watched;
  QJsonObject m_lastState;
  QString m_lastReason;
  QMap<qint64, int> m_deviceRanks;
  ExecutionSnapshotPtr m_execution;
};

} // namespace shardscope::widgets
