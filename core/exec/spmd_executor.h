#pragma once

#include "core/exec/communicator.h"
#include "core/exec/device_context.h"
#include "core/exec/interpreter.h"
#include "core/exec/tensor.h"
#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace shardscope::exec {

class SpmdExecutor;

/// What one device of an `SpmdExecutor` is doing between two `stepAll` calls.
enum class DeviceStatus {
  /// Its next op is an ordinary op; the next `stepAll` executes it.
  Ready,
  /// Its next op is a collective whose group has not completed yet; it waits there while the
  /// other devices advance.
  Blocked,
  /// Its function returned; `results(device)` holds the results.
  Finished,
  /// An error stopped it (reported to the sink, naming the device).
  Failed,
};

/// One device's state as the processes of a distributed run exchange it (see `SpmdCoordinator`).
/// Ops and values are named by their pre-order index in the module (`SpmdExecutor::opIndex`),
/// which is the same in every process because every process runs the same program text.
struct DeviceSnapshot {
  int64_t device = 0;
  DeviceStatus status = DeviceStatus::Ready;
  /// The op the device executes next, or -1 when it has finished.
  int64_t op = -1;
  int64_t depth = 0;
  /// True when the device executed an op in the current step.
  bool executed = false;
  /// While `Blocked`: the process group of the collective it waits in.
  std::vector<int64_t> group;
  /// Diagnostics the device reported since the previous exchange.
  std::vector<support::Diagnostic> diagnostics;
};

/// Connects the executors of one run spread over several processes (the MPI backend): each
/// process runs some devices of the grid (its local devices) and learns the state of the others
/// through `exchange`. One process drives (it decides every step); the others follow.
class SpmdCoordinator {
public:
  virtual ~SpmdCoordinator() = default;
  /// The communicator of the whole grid (`numDevices()` of the grid).
  virtual Communicator& communicator() = 0;
  /// True in a process whose device `device` runs here.
  virtual bool isLocal(int64_t device) const = 0;
  /// True in the driving process.
  virtual bool isDriver() const = 0;
  /// Called at the start of every `stepAll` that steps: the driver tells the followers to step.
  virtual void beginStep() = 0;
  /// Every process passes the snapshots of its local devices and receives those of all devices
  /// of the grid, in device order. Blocks until every process has called (all processes call it
  /// the same number of times); communication failures end the process (see the backend).
  virtual std::vector<DeviceSnapshot> exchange(std::vector<DeviceSnapshot> local) = 0;
  /// Driver only: the live value with pre-order index `value` on remote `device`, or nothing.
  virtual std::optional<Tensor> fetchValue(int64_t device, int64_t value) = 0;
  /// Driver only: the results of remote `device` after it finished.
  virtual std::vector<Tensor> fetchResults(int64_t device) = 0;
  /// Follower only: runs `executor`'s steps and answers fetches as the driver asks, until the
  /// driver ends the run. Returns false when the run ended abnormally.
  virtual bool follow(SpmdExecutor& executor) = 0;
};

/// How to lay out the devices of an `SpmdExecutor`.
struct SpmdOptions {
  int64_t numReplicas = 1;
  int64_t numPartitions = 1;
  /// Per-device upper bound on executed ops.
  int64_t stepLimit = 1'000'000'000;
  /// Passed on to the devices' interpreters (for nested `interpreter.run_parallel`).
  CommunicatorFactory communicatorFactory;
  /// Installed in every device's interpreter (host transfers, prints, probes).
  InterpreterHooks hooks;
  /// How long the devices' interpreters keep values (see `ValueRetention`), and what sees each
  /// value go: `onRelease(device, value, lastUser, tensor)`, called from the device's thread.
  ValueRetention retention = ValueRetention::KeepAll;
  std::function<void(int64_t device, const ir::Value& value, const ir::Operation& lastUser,
                     const Tensor& tensor)>
      onRelease;
  /// For a run spread over processes: the executor runs only the devices for which
  /// `coordinator->isLocal` holds and learns the state of the others from it. Not owned; null
  /// runs every device here.
  SpmdCoordinator* coordinator = nullptr;
};

/// Runs one function per device of a `numReplicas` x `numPartitions` grid (device id
/// `replica * numPartitions + partition`) in lockstep: `stepAll` makes every device execute its
/// next op, so a step is the same op on all devices of an SPMD program.
///
/// Collectives: a device whose next op is a collective waits (`DeviceStatus::Blocked`) until
/// every member of its process group has reached a collective with the same name and group;
/// the group then executes it in that step, each member on its own short-lived thread because
/// `Communicator` calls block (the only threads this class starts; everything else runs on the
/// caller's thread). Devices may run different numbers of ops (case branches): blocked devices
/// wait while the others advance. When no device can advance and some wait, the run fails with
/// an error naming the ops, locations and devices (`devices 0,1 reached 'stablehlo.all_reduce'
/// at f.mlir:12:8 but device 2 reached 'stablehlo.all_gather' at f.mlir:14:8`, `device 3
/// finished while devices 0-2 wait in ...`); it never hangs.
///
/// Diagnostics of every device are forwarded to the sink after each `stepAll`, in device order,
/// with a `device N: ` prefix when there is more than one device.
///
/// Distributed runs (`SpmdOptions::coordinator`): every process creates an executor for the whole
/// grid, but runs only its local devices. Each step, the processes exchange which devices wait in
/// which collective (so a collective runs in the same step as it would in one process, and all
/// processes run complete collectives in the same order), and after the step every device's
/// status, op, depth and diagnostics; accessors then answer for every device, fetching live values
/// and results of remote devices from their process on demand (cached until the next step).
class SpmdExecutor {
public:
  /// Prepares to run functions of `module` (which must outlive the executor) on `communicator`
  /// (whose `numDevices()` must be `numReplicas * numPartitions`).
  SpmdExecutor(const ir::Module& module, Communicator& communicator, SpmdOptions options);
  ~SpmdExecutor();
  SpmdExecutor(const SpmdExecutor&) = delete;
  SpmdExecutor& operator=(const SpmdExecutor&) = delete;

  /// Starts `functions[d]` on device `d` with `inputs[d]` (both sized `numDevices()`). Returns
  /// false after reporting to `sink`, which must outlive the run.
  bool start(const std::vector<std::string>& functions, std::vector<std::vector<Tensor>> inputs,
             support::DiagnosticSink& sink);
  /// Every device that is not blocked, finished or failed executes its next op; collectives whose
  /// groups are complete execute. Returns false when the run is over (all finished, or failed);
  /// then `finished()`/`failed()` tell which.
  bool stepAll();
  /// Steps until the run is over; returns true when every device finished without error.
  bool runToEnd();

  /// True when every device has finished without error.
  bool finished() const;
  /// True when some device failed (the run is then over: the executor stops all devices).
  bool failed() const;
  /// Number of `stepAll` calls that executed at least one op.
  int64_t stepCount() const { return m_steps; }

  int64_t numDevices() const;
  DeviceStatus status(int64_t device) const;
  /// The op `device` executes next (for a blocked device: the collective it waits in), or null
  /// when it has finished.
  const ir::Operation* currentOp(int64_t device) const;
  /// The frame depth of `device` (see `Interpreter::depth`).
  size_t depth(int64_t device) const;
  /// The live tensor of `value` on `device`, or null (see `Interpreter::lookup`).
  const Tensor* lookup(int64_t device, const ir::Value* value) const;
  /// The results of `device` after it finished.
  const std::vector<Tensor>& results(int64_t device) const;
  /// Read access to a device's interpreter (frame owners, device context). Precondition: the
  /// device runs in this process.
  const Interpreter& interpreter(int64_t device) const;

  /// The pre-order index of `op` in the module (-1 for an op of another module), and back.
  int64_t opIndex(const ir::Operation* op) const;
  const ir::Operation* opAt(int64_t index) const;
  /// The index of `value` (op results and block arguments, in pre-order), and back.
  int64_t valueIndex(const ir::Value* value) const;
  const ir::Value* valueAt(int64_t index) const;

private:
  struct Device;
  bool stepDevice(Device& device);
  bool runReadyCollectives(std::vector<int64_t>& blocked);
  void reportStall(const std::vector<int64_t>& blocked);
  void flushDiagnostics();
  void stopAll();
  bool isLocal(const Device& device) const;
  const ir::Operation* opOf(const Device& device) const;
  void indexModule() const;
  void syncBlocked(std::vector<int64_t>& blocked);
  bool syncState(bool progressed);

  const ir::Module& m_module;
  Communicator& m_comm;
  SpmdOptions m_options;
  support::DiagnosticSink* m_sink = nullptr;
  std::vector<std::unique_ptr<Device>> m_devices;
  bool m_failed = false;
  int64_t m_steps = 0;
  // Pre-order numbering of ops and values, built on first use (distributed runs only need it).
  mutable bool m_indexed = false;
  mutable std::vector<const ir::Operation*> m_ops;
  mutable std::unordered_map<const ir::Operation*, int64_t> m_opIds;
  mutable std::vector<const ir::Value*> m_values;
  mutable std::unordered_map<const ir::Value*, int64_t> m_valueIds;
  // Values and results of remote devices fetched since the last step.
  mutable std::map<std::pair<int64_t, const ir::Value*>, std::optional<Tensor>> m_fetched;
  mutable std::map<int64_t, std::vector<Tensor>> m_fetchedResults;
};

} // namespace shardscope::exec
