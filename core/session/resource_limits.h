#pragma once

// The bounds on what loading or running a program may ask of the machine, shared by the CLI
// (which raises them with options) and the app (which applies them when a program loads).

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <cstdint>
#include <string_view>

namespace shardscope::session {

/// The most devices a mesh may have where every device is laid out (the app's views, the CLI's
/// `partition`, `check`, `inspect` and `report` by default).
inline constexpr int64_t kMaxLaidOutDevices = 65536;

/// The largest tensor (in bytes) a run may create by default: the CLI's `--max-tensor-bytes`
/// default and the app's limit.
inline constexpr int64_t kDefaultMaxTensorBytes = int64_t{4} << 30;

/// Checks that every `sdy.mesh` of `module` has at most `maxDevices` devices (a count beyond
/// int64 is more). Reports the first that has more at its op, the message ending with
/// `(raiseHint)`, and returns false.
bool checkMeshDevices(const ir::Module& module, int64_t maxDevices, support::DiagnosticSink& sink,
                      std::string_view raiseHint);

/// Checks that every tensor value of `module` (op results and block arguments with a static
/// shape) fits in `maxBytes`, and that its size is computable at all. Reports the first that does
/// not at its op (or the op owning the block argument), the message ending with `(raiseHint)`,
/// and returns false.
bool checkTensorSizes(const ir::Module& module, int64_t maxBytes, support::DiagnosticSink& sink,
                      std::string_view raiseHint);

} // namespace shardscope::session
