#pragma once
// Explicit bounds on what one command may ask of the machine. Each is a located error when
// exceeded, names the option that raises it, and is documented in the README.

#include "core/ir/module.h"
#include "core/session/resource_limits.h"
#include "core/support/diagnostic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace shardscope::cli {

/// The default of `--max-tensor-bytes`: the largest tensor `run`, `interpret` and `serve` create.
inline constexpr int64_t kDefaultMaxTensorBytes = session::kDefaultMaxTensorBytes;
/// The default of `--max-devices` for the commands that lay out every device of a mesh
/// (`partition`, `check`, `inspect`, `report`).
inline constexpr int64_t kDefaultMaxDevices = session::kMaxLaidOutDevices;
/// The default of `--max-devices` for `run` and `serve`: the local backend runs a thread per
/// device.
inline constexpr int64_t kDefaultMaxRunDevices = 4096;

struct ResourceLimits {
  int64_t maxTensorBytes = kDefaultMaxTensorBytes;
  int64_t maxDevices = kDefaultMaxDevices;
};

/// `session::checkTensorSizes`, naming `--max-tensor-bytes` as the way to raise the limit.
bool checkTensorSizes(const ir::Module& module, int64_t maxBytes, support::DiagnosticSink& sink);

/// `session::checkMeshDevices`, naming `--max-devices` as the way to raise the limit.
bool checkMeshDevices(const ir::Module& module, int64_t maxDevices, support::DiagnosticSink& sink);

/// Reads `--max-tensor-bytes N` / `--max-devices N` (both `--flag N` and `--flag=N`) from
/// `args` at `i`, advancing `i` past a separate value. Returns nothing when `args[i]` is neither,
/// else whether the value was valid (an error is printed when not).
std::optional<bool> parseLimitOption(const std::vector<std::string>& args, size_t& i,
                                     ResourceLimits& limits);

} // namespace shardscope::cli
