#pragma once

#include "core/exec/communicator.h"
#include "core/exec/device_context.h"
#include "core/exec/interpreter.h"
#include "core/exec/tensor.h"
#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <memory>
#include <string>
#include <vector>

namespace shardscope::exec {

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

/// How to lay out the devices of an `SpmdExecutor`.
struct SpmdOptions {
  int64_t numReplicas = 1;
  int64_t numPartitions = 1;
  /// Per-device upper bound on executed ops.
  int64_t stepLimit = 1'000'000'000;
  /// Passed on to the devices' interpreters (for nested `interpreter.run_parallel`).
  CommunicatorFactory communicatorFactory;
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
  /// Read access to a device's interpreter (frame owners, device context).
  const Interpreter& interpreter(int64_t device) const;

private:
  struct Device;
  bool stepDevice(Device& device);
  bool runReadyCollectives(std::vector<int64_t>& blocked);
  void reportStall(const std::vector<int64_t>& blocked);
  void flushDiagnostics();
  void stopAll();

  const ir::Module& m_module;
  Communicator& m_comm;
  SpmdOptions m_options;
  support::DiagnosticSink* m_sink = nullptr;
  std::vector<std::unique_ptr<Device>> m_devices;
  bool m_failed = false;
  int64_t m_steps = 0;
};

} // namespace shardscope::exec
