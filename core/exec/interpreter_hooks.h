#pragma once

#include "core/exec/tensor.h"
#include "core/ir/operation.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace shardscope::exec {

/// What the side-effecting ops of StableHLO's `interpreter` and `check` dialects do with the
/// outside world. Core never prints or writes files, so the front end installs these
/// (`Interpreter::setHooks`); an op whose hook is missing is a located error, except
/// `interpreter.print`, which then only passes.
struct InterpreterHooks {
  /// `interpreter.print %x`: shows `value`, the operand of `op`.
  std::function<void(const ir::Operation& op, const Tensor& value)> print;
  /// `interpreter.probe %x, probe_id = "id"`: records `value` under `probeId` (each execution of
  /// the op is one more iteration of that probe). Returns false with `error` set on failure.
  std::function<bool(const std::string& probeId, const Tensor& value, std::string& error)> probe;
  /// `check.expect_serialized_eq`: the tensor iteration `iteration` (0-based) of probe `probeId`
  /// recorded, read back as `type` (the check's operand type), with the type it was recorded
  /// as in `recordedType`. Nothing with `error` set when there is no such record.
  std::function<std::optional<Tensor>(const std::string& probeId, uint32_t iteration,
                                      ir::Type type, std::string& recordedType,
                                      std::string& error)>
      loadProbe;

  // Host transfers of a `interpreter.run_parallel` grid (installed by it for its devices).
  /// `stablehlo.infeed`: the next entry of the grid's infeed queue; nothing when it is empty.
  std::function<std::optional<std::vector<Tensor>>()> infeed;
  /// `stablehlo.send`: queues `values` on channel `channel`.
  std::function<void(int64_t channel, std::vector<Tensor> values)> send;
  /// `stablehlo.recv`: the oldest values queued on `channel`, or nothing while none are (the
  /// device then waits at the op).
  std::function<std::optional<std::vector<Tensor>>(int64_t channel)> recv;
};

} // namespace shardscope::exec
