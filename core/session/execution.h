#pragma once

// Stepping execution of a program on every device of a mesh, checked against a reference run.
// One API for the CLI (`run`), the GUI's execution panel and the MPI server.

#include "core/exec/communicator.h"
#include "core/exec/spmd_executor.h"
#include "core/session/program.h"
#include "core/session/reorder_bounds.h"
#include "core/session/values.h"

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace shardscope::session {

/// Where a run stopped after a stepping command.
enum class StopReason {
  Stepped,    ///< the requested step(s) completed
  Breakpoint, ///< a device reached an op breakpoint, or a watched value was first written
  Diverged,   ///< with `stopOnDivergence`: a value differs from the reference
  Finished,   ///< every device returned
  Failed,     ///< an error (reported to the sink) ended the run
  /// `ExecutionOptions::cancel` was set while a multi-step command ran; the run stays where it
  /// stopped, and stepping may go on from there
  Cancelled,
};
std::string_view stopReasonName(StopReason reason);

/// A value whose devices disagree with the reference run or with each other.
struct Divergence {
  /// The op of the running stage whose result diverged, and its result index.
  const ir::Operation* op = nullptr;
  unsigned result = 0;
  /// `reference` (the assembled value differs from the reference run's) or `replicas` (devices
  /// that must hold the same block differ).
  std::string kind;
  /// The devices whose blocks hold differing elements.
  std::vector<int64_t> devices;
  std::string message;
};

/// One step of a run, as its timeline shows it: what the devices executed. Every run keeps one
/// per step (16 bytes each), whatever its history budget.
struct TimelineStep {
  /// The op of the running module executed at this step: the first device's that executed one
  /// (devices run the same program in lock step; a device that finished executes nothing).
  const ir::Operation* op = nullptr;
  /// The frame depth it ran at (1: the function's body; deeper: a region or a callee).
  uint32_t depth = 1;
  /// The op moves data between devices (an all-reduce, a permute, ...).
  bool collective = false;
  /// The reference check found a divergence at this step.
  bool diverged = false;
};

/// One span of the execution trace: an op (or collective) executed by one device.
struct TraceSpan {
  int64_t device = 0;
  std::string name;
  std::string location;
  bool collective = false;
  int64_t bytesSent = 0;
  double startUs = 0;
  double durationUs = 0;
};

struct ExecutionOptions {
  /// The stage to run. `PerDevice` runs the per-device program on every device of the program's
  /// mesh; a gradient stage runs the per-device form of the gradient program (see
  /// `Program::gradientProgram`), by default its gradient function; any other stage runs the
  /// global program on one device.
  Stage stage = Stage::PerDevice;
  /// The function to run; empty picks `main`, else the only public function.
  std::string function;
  /// Run the reference (the unsharded program on one device) and compare after every step.
  bool checkReference = false;
  /// Stop continue/run commands at the first divergence.
  bool stopOnDivergence = false;
  /// Float tolerance of the reference comparison (integers compare exactly). Empty: per element,
  /// what reordered float sums can explain (`ReorderBounds`: a sharded reduction adds in another
  /// order than the unsharded one) plus two ulps; values whose op the bounds cannot analyse use
  /// `referenceTolerance`.
  std::optional<exec::CompareOptions> tolerance;
  /// Upper bound on the ops each device (and the reference run) executes, so a loop that never
  /// ends is an error instead of a hang.
  int64_t stepLimit = 10'000'000;
  /// Set from another thread to stop a multi-step command (`stepOver`, `stepOut`, `continueRun`,
  /// `runToEnd`) between two steps with `StopReason::Cancelled`. The commands do not clear it.
  const CancelFlag* cancel = nullptr;
  /// Creates the communicator of the devices (the local backend when empty).
  exec::CommunicatorFactory communicatorFactory;
  /// Record a trace of every op on every device.
  bool trace = false;
  /// Spreads the devices over processes (the MPI backend). `start` calls it with the number of
  /// devices and the parts of the run every process must share, as (what, content) pairs:
  /// `program` (the source text), `stage and function`, `inputs` (the global input bytes). It
  /// returns the coordinator of this process, or null after setting `error`. Empty: every device
  /// runs in this process. In a follower process, call `follow` after `start`.
  std::function<std::unique_ptr<exec::SpmdCoordinator>(
      int64_t numDevices, const std::vector<std::pair<std::string, std::string>>& fingerprint,
      std::string& error)>
      distributed;
  /// With `distributed`: true in the driving process (the one that runs the reference check).
  bool distributedDriver = true;
  /// The devices free each value after its last use. Bytes of freed values the run keeps for
  /// inspection afterwards (the app's history: the most recent ones, oldest dropped first);
  /// 0 keeps none. Live values, the function's results and the values `recordValue` names are
  /// readable whatever the budget.
  int64_t historyBytes = 0;
};

/// The history budget the app gives its runs.
inline constexpr int64_t kDefaultHistoryBytes = int64_t{512} << 20;

/// The fallback tolerance for comparing a float value with its reference `expected` when its op
/// has no reordering bound (a while loop's results, complex values): relative 1e-4 and absolute
/// 1e-5 of the largest magnitude in `expected` for f32, 1e-9 / 1e-12 for f64, 1e-2 / 1e-2 for
/// f16 and bf16.
exec::CompareOptions referenceTolerance(const exec::Tensor& expected);

/// A run of one function of a program on all devices of its mesh, driven step by step.
class Execution {
public:
  /// Prepares a run: computes the stage, picks the function and the devices. Returns null after
  /// reporting to `sink` (which must outlive the execution).
  static std::unique_ptr<Execution> create(Program& program, ExecutionOptions options,
                                           support::DiagnosticSink& sink);
  ~Execution();

  /// The module being run and the function.
  const ir::Module& module() const { return *m_module; }
  const ir::Operation& function() const { return *m_function; }
  /// The global (sharded) form of the program, for shardings: the `Partitioned` stage.
  const ir::Module& globalModule() const { return *m_global; }
  /// The mesh (null when the program has none: one device).
  const ir::Mesh* mesh() const { return m_mesh; }
  int64_t numDevices() const { return m_numDevices; }

  /// The global values of the function's arguments, from `spec`. Returns false after reporting.
  bool setInputs(const InputSpec& spec);
  /// Sets the global argument values directly (types must match the global signature).
  bool setInputs(std::vector<exec::Tensor> globals);
  const std::vector<exec::Tensor>& inputs() const { return m_inputs; }

  /// Starts the run (and the reference run when asked). Returns false after reporting.
  bool start();
  /// In a follower process of a distributed run (`ExecutionOptions::distributed`): steps and
  /// answers the driving process until it ends the run. Returns false when it ended abnormally.
  bool follow();
  /// The coordinator of a distributed run after `start` (null otherwise).
  const exec::SpmdCoordinator* coordinator() const { return m_coordinator.get(); }

  /// One op on every device; regions are entered (a while loop's condition is the next step).
  StopReason step();
  /// Like `step`, but an op with regions (while, case, call) runs to its end.
  StopReason stepOver();
  /// Runs until the current region or function returns (a while condition returning into the
  /// body counts as returning).
  StopReason stepOut();
  /// Runs until a breakpoint, a divergence (with `stopOnDivergence`) or the end.
  StopReason continueRun();
  /// Runs to the end, ignoring breakpoints.
  StopReason runToEnd();

  /// Runs forward until `steps() == step`, ignoring breakpoints: `Stepped` there, or why it
  /// stopped earlier (`Finished`, `Failed`, `Cancelled`). A step already passed is not reached
  /// again: a front end that jumps back starts a new run with the same inputs (runs are
  /// deterministic) and runs it to that step.
  StopReason runToStep(int64_t step);
  /// What every step so far executed, in order (`timeline()[k]` is step k + 1).
  const std::vector<TimelineStep>& timeline() const { return m_timeline; }

  /// Breakpoints: stop before any device executes `op`; stop after `value` is first written.
  void setBreakpoint(const ir::Operation* op, bool enabled = true);
  void setValueBreakpoint(const ir::Value* value, bool enabled = true);

  bool finished() const;
  bool failed() const { return m_failed; }
  /// Number of steps taken.
  int64_t steps() const { return m_steps; }
  /// The op `device` executes next (null when finished), and its frame depth.
  const ir::Operation* currentOp(int64_t device) const;
  size_t depth(int64_t device) const;

  /// The value of `value` (of the running module) on `device`: live, or kept after it was freed
  /// (recorded, in the history, or a function result once the run finished); null otherwise.
  const exec::Tensor* value(int64_t device, const ir::Value* value) const;
  /// Keeps `value` on every device when the devices free it, whatever the history budget (the
  /// value the user selected). Takes effect for frees from now on.
  void recordValue(const ir::Value* value, bool enabled = true);
  /// Why `value(device, v)` is null, in words (`not kept: freed after its last use at
  /// 'stablehlo.add' (line 12); ...`, `not computed yet on this device`); empty when it is not.
  std::string whyNoValue(int64_t device, const ir::Value* v) const;
  /// Bytes the history holds now.
  int64_t historyBytesUsed() const;
  /// The global value of `value` assembled from the devices with its sharding (per-device runs),
  /// or the value itself (single-device runs). Nothing with `error` when not live everywhere.
  std::optional<Assembled> globalValue(const ir::Value* value, std::string& error) const;
  /// The reference run's value of the op that `op` came from (result `index`), or null.
  const exec::Tensor* referenceValue(const ir::Operation& op, unsigned index) const;
  /// The part of the reference value of `value` (an op result of the running module) that
  /// `device` holds under the value's sharding, padded like the device's block: what the device
  /// should hold. Nothing when the reference has no value for it (yet) or the value has no global
  /// layout (inside a manual computation). A partial value's block is the complete reference.
  std::optional<exec::Tensor> referenceBlock(const ir::Value* value, int64_t device) const;
  /// Whether the reference check compared `value` (an op result of the running module) with the
  /// reference: false before its op ran, without a reference value, or when reordered float sums
  /// make the comparison meaningless.
  bool compared(const ir::Value* value) const;

  /// The function's results as global values, after the run finished.
  std::optional<std::vector<exec::Tensor>> globalResults(std::string& error) const;
  /// Every divergence found so far, in execution order; the first is where the run went wrong.
  const std::vector<Divergence>& divergences() const { return m_divergences; }
  /// A human summary of the reference check (`no reference`, `all N checked values match`...).
  std::string referenceSummary() const;

  /// The trace in Chrome trace-event JSON (one track per device; opens in Perfetto).
  std::string chromeTrace() const;
  const std::vector<TraceSpan>& traceSpans() const { return m_trace; }

private:
  explicit Execution(support::DiagnosticSink& sink);
  bool prepare(Program& program, ExecutionOptions options);
  bool prepareStage(Program& program, Stage stage, const std::string& function);
  bool startReference();
  StopReason advance(); // one executor step plus bookkeeping
  bool atBreakpoint() const;
  /// Whether `ExecutionOptions::cancel` is set; if so, sets `reason` to `Cancelled`.
  bool cancelRequested(StopReason& reason) const;
  void checkExecuted(const ir::Operation& op);
  void checkResults();
  exec::CompareOptions toleranceFor(const exec::Tensor& expected,
                                    const exec::Tensor* bound) const;
  /// The reference run's error bound and stability of the value of `op` (result `index`).
  const exec::Tensor* referenceBound(const ir::Operation& op, unsigned index) const;
  bool referenceUnstable(const ir::Operation& op, unsigned index) const;
  bool referenceEstimated(const ir::Operation& op, unsigned index) const;
  std::optional<Assembled> globalResult(size_t index, std::string& error) const;
  std::optional<sharding::ShardingLayout> layoutOf(const ir::Operation& op, unsigned result) const;
  std::optional<sharding::ShardingLayout> argumentLayout(unsigned index) const;

  support::DiagnosticSink& m_sink;
  ExecutionOptions m_options;
  const ir::Module* m_module = nullptr;
  const ir::Module* m_global = nullptr;
  const ir::Module* m_reference = nullptr;
  const ir::Operation* m_function = nullptr;
  const ir::Operation* m_globalFunction = nullptr;
  const ir::Operation* m_referenceFunction = nullptr;
  std::string m_noReference; // why there is no reference run, when there is none
  std::unique_ptr<OpIndex> m_globalIndex;
  std::unique_ptr<OpIndex> m_moduleIndex; // null when the running module is the global one
  const ir::Operation* referenceOpOf(const ir::Operation& op) const;
  std::unique_ptr<OpIndex> m_referenceIndex;
  const ir::Mesh* m_mesh = nullptr;
  int64_t m_numDevices = 1;

  std::vector<exec::Tensor> m_inputs;
  std::string m_programText; // for the fingerprint of distributed runs
  std::unique_ptr<exec::SpmdCoordinator> m_coordinator;
  std::unique_ptr<exec::Communicator> m_comm;
  std::unique_ptr<exec::SpmdExecutor> m_executor;
  bool m_started = false;
  bool m_failed = false;
  int64_t m_steps = 0;

  // Reference values by source op (location and name): result tensors of top-level ops of the
  // reference function, in order of execution (the last execution wins).
  std::map<const ir::Operation*, std::vector<exec::Tensor>> m_referenceValues;
  std::vector<exec::Tensor> m_referenceResults;
  std::unique_ptr<ReorderBounds> m_bounds;
  int64_t m_unstable = 0; // values reordering can flip, not compared
  int64_t m_checked = 0;
  std::set<std::pair<const ir::Operation*, unsigned>> m_compared; // the values checked
  std::vector<Divergence> m_divergences;

  std::set<const ir::Operation*> m_breakpoints;
  std::set<const ir::Value*> m_valueBreakpoints;
  std::set<const ir::Value*> m_valueBreakpointsHit;
  bool m_stopRequested = false;

  std::vector<TimelineStep> m_timeline;
  std::vector<TraceSpan> m_trace;
  std::chrono::steady_clock::time_point m_epoch;

  // What the devices freed: kept values (recorded or in the history) and where each was freed.
  // Filled from the devices' threads during collectives, hence the lock.
  struct History;
  std::unique_ptr<History> m_history;
  void keepFreed(int64_t device, const ir::Value& value, const ir::Operation& lastUser,
                 const exec::Tensor& tensor);
};

} // namespace shardscope::session
