#pragma once

// Moving values between the global view and the devices: splitting a global tensor into the
// blocks a sharding gives each device, assembling device blocks back into the global value, and
// the deterministic inputs a run starts from.

#include "core/exec/tensor.h"
#include "core/sharding/sharding_layout.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace shardscope::session {

/// The block of `global` that device `deviceId` holds under `layout`, padded with zeros to the
/// local shape (Shardy pads non-divisible dimensions at the end).
exec::Tensor blockOf(const exec::Tensor& global, const sharding::ShardingLayout& layout,
                     int64_t deviceId);

/// Assembles the global value from every device's block; blocks that are partial results over
/// unreduced axes are summed. `blockOn(device)` returns the device's
/// local tensor (or null when it has none). Devices that hold the same block (replicas) are
/// compared: when two disagree, `replicaProblem` names them and the first differing element, and
/// the value of the first device of the group is used. Returns nothing (with `error`) when a block
/// is missing or has the wrong shape.
struct Assembled {
  exec::Tensor value;
  std::string replicaProblem;
};
std::optional<Assembled> assemble(const sharding::ShardingLayout& layout, ir::Type globalType,
                                  const std::function<const exec::Tensor*(int64_t)>& blockOn,
                                  std::string& error);

/// How to fill one input: `zeros`, `ones`, `iota` (0, 1, 2, ... in row-major order, plus the
/// argument index times 1000 so arguments differ), `small` (the default: floats are multiples
/// of 1/8 in [-1, 1], element k of argument a being ((k + 3a) mod 17 - 8) / 8, so products and
/// sums of up to 2^18 of them are exact in f32 whatever the order; integers as `iota`),
/// `random[:SEED]` (uniform in [-1, 1) for floats, [-100, 100] for integers, {0, 1} for i1;
/// deterministic for a seed and an argument index), or a `.npy` file.
struct InputSource {
  enum class Kind { Zeros, Ones, Iota, Small, Random, Npy };
  Kind kind = Kind::Small;
  uint64_t seed = 0;
  std::string path;
};

/// Inputs for a function's arguments: a default for all, and per-argument overrides.
struct InputSpec {
  InputSource all;
  std::vector<std::pair<int64_t, InputSource>> perArgument;
  /// The source of argument `index`.
  const InputSource& sourceOf(int64_t index) const;
};

/// Parses `SPEC`: comma-separated items, each `GEN` (every argument) or `N=GEN` / `N=FILE.npy`
/// (argument N), where GEN is `zeros`, `ones`, `iota`, `small` or `random[:SEED]`; e.g.
/// `random:7,0=lhs.npy`. Returns nothing with `error` for a malformed spec.
std::optional<InputSpec> parseInputSpec(const std::string& text, std::string& error);

/// The global value of argument `index` of type `type` from `source`. A `.npy` file must match the
/// type exactly (dtype and shape); errors name the file, the argument and both types.
std::optional<exec::Tensor> makeInput(const InputSource& source, ir::Type type, int64_t index,
                                      std::string& error);

} // namespace shardscope::session
