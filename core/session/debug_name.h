#pragma once

#include "core/ir/module.h"

#include <string>

namespace shardscope::session {

/// What a program's producer (JAX) called an op or a value, from its MLIR debug location, in the
/// forms an inspector shows: all empty when it has no location.
struct DebugName {
  /// The full JAX name (`jit(f)/jit(main)/dot_general`, an argument's `x`), else empty.
  std::string jaxName;
  /// Its last component without parameters (`dot_general`), for labels.
  std::string shortName;
  /// The JAX name, else the `file:line` the location points to.
  std::string label;
  /// The location in MLIR syntax (`loc("dot_general:"("jit(f)/..."(...)))`), for a tooltip.
  std::string location;
};

/// The debug name of `op`, an op of `module`.
DebugName debugNameOf(const ir::Module& module, const ir::Operation& op);
/// The debug name of `value`: a block argument's own location, else its defining op's.
DebugName debugNameOf(const ir::Module& module, const ir::Value& value);

} // namespace shardscope::session
