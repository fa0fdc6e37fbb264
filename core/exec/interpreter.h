#pragma once

#include "core/exec/device_context.h"
#include "core/exec/interpreter_hooks.h"
#include "core/exec/tensor.h"
#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace shardscope::exec {

class InterpreterState;

/// When an interpreter lets go of the values its frames hold.
enum class ValueRetention {
  /// Every value of a frame stays readable (`lookup`) until the frame returns.
  KeepAll,
  /// A value is freed right after the op that uses it last in its block (an op whose regions
  /// use it counts as using it); a value nothing uses stays until the next op of its block has
  /// run, so the step that computes it can still read it. Function results are kept (`results`).
  FreeAfterLastUse,
};

/// Called with each value an interpreter frees under `ValueRetention::FreeAfterLastUse` (and
/// with the values still held when a function, loop body or branch frame returns), just before
/// it lets go: `lastUser` is the op after which it was freed. A copy of `tensor` shares its
/// buffer, so keeping it costs no copy. With several devices it is called from their threads.
using ValueReleaseHook = std::function<void(const ir::Value& value, const ir::Operation& lastUser,
                                            const Tensor& tensor)>;

/// Executes one `func.func` of a module on concrete input tensors with StableHLO semantics, op by
/// op, on a single device (no sharding: `sdy.sharding_constraint` and `sdy.reshard` pass values
/// through). Every unsupported op or type is reported at the op's location and stops the run;
/// nothing is ever skipped silently.
///
/// Execution keeps an explicit frame stack (function bodies, while condition/body, case
/// branches) with a program counter per frame, so a later debugger can stop between any two ops.
/// Multi-device runs give each device its own interpreter with a `DeviceContext`: then
/// `stablehlo.replica_id`/`partition_id` answer from it and collectives go through its
/// `Communicator` (blocking until the device group completes; see `SpmdExecutor` for a driver
/// that runs all devices in lockstep). `interpreter.run_parallel` needs a `CommunicatorFactory`.
/// The `check.*` ops compare values; a failed check is reported as an error and the run goes on.
class Interpreter {
public:
  /// Prepares to run functions of `module`, which must outlive the interpreter.
  explicit Interpreter(const ir::Module& module);
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  /// Runs function `name` on `inputs` (one tensor per argument, types must match exactly) and
  /// returns its results. Returns nothing after reporting at least one error to `sink`.
  std::optional<std::vector<Tensor>> run(std::string_view name, std::vector<Tensor> inputs,
                                         support::DiagnosticSink& sink);

  /// Stepping API. `start` pushes the entry frame of `name` (false after reporting); each `step`
  /// executes one op (entering or leaving a region counts as one step) and returns false after
  /// an error or when the run has finished; `finished` then tells which, and `results` returns
  /// the function results after a successful finish.
  bool start(std::string_view name, std::vector<Tensor> inputs, support::DiagnosticSink& sink);
  bool step();
  bool finished() const;
  /// The op the next `step` will execute, or null when finished.
  const ir::Operation* currentOp() const;
  /// The results of a run finished by stepping (`run` returns them and leaves this empty).
  const std::vector<Tensor>& results() const;
  /// Number of frames on the stack (1 while inside the entry function's top level).
  size_t depth() const;
  /// The ops that pushed the current frames (`func.call`, `stablehlo.while`, `stablehlo.case`,
  /// or the op whose region runs), outermost first; the entry frame has none, so the vector has
  /// `depth() - 1` entries.
  std::vector<const ir::Operation*> frameOwners() const;
  /// True after an error stopped the run.
  bool failed() const;
  /// True when a `check.*` op failed (reported as an error; the run went on).
  bool failedCheck() const;
  /// The live tensor of `value` as seen from the innermost frame (enclosing blocks included up to
  /// the innermost function body), or null when it has none (not computed yet, out of scope, or
  /// the run has not started).
  const Tensor* lookup(const ir::Value* value) const;

  /// Places this interpreter in a process grid (device/replica/partition ids, communicator).
  /// Call it before `start`/`run`; defaults to the single-device grid without communicator.
  void setDeviceContext(const DeviceContext& context);
  /// The grid position set by `setDeviceContext`.
  const DeviceContext& deviceContext() const { return m_context; }
  /// Installs the factory `interpreter.run_parallel` uses for its devices' communicator.
  void setCommunicatorFactory(CommunicatorFactory factory);

  /// Installs what `interpreter.print`, `interpreter.probe` and `check.expect_serialized_eq` do
  /// (see `InterpreterHooks`). Call it before `start`/`run`.
  void setHooks(InterpreterHooks hooks);

  /// How long values stay alive (default `KeepAll`), and what sees them go. Call it before
  /// `start`/`run`.
  void setValueRetention(ValueRetention retention, ValueReleaseHook onRelease = {});
  /// Number of values the frames hold now, and the bytes of their distinct buffers (values
  /// sharing a buffer count once); for tests and memory accounting.
  size_t liveValueCount() const;
  size_t liveBytes() const;

  /// Upper bound on executed ops per `run`, so a non-terminating while loop reports an error
  /// instead of hanging. Defaults to 1e9.
  void setStepLimit(int64_t limit);

private:
  const ir::Module& m_module;
  std::unique_ptr<InterpreterState> m_state;
  DeviceContext m_context;
  CommunicatorFactory m_factory;
  InterpreterHooks m_hooks;
  ValueRetention m_retention = ValueRetention::KeepAll;
  ValueReleaseHook m_onRelease;
  int64_t m_stepLimit = 1'000'000'000;
};

/// Evaluates one op of `module` on `operands` outside any run, as a step would (regions such as
/// reduce bodies included), and returns its results. Ops that change the frame stack (while,
/// case, if, calls), device ops (collectives, ids) and checks are not evaluated: they return
/// nothing without reporting. Any other failure is reported to `sink`. Used to bound how far a
/// value can move when its operands move (see `core/session/reorder_bounds.h`).
std::optional<std::vector<Tensor>> evaluateOp(const ir::Module& module, const ir::Operation& op,
                                              std::vector<Tensor> operands,
                                              support::DiagnosticSink& sink);

} // namespace shardscope::exec
