#pragma once

#include "core/ir/sdy_types.h"
#include "core/ir/type.h"

#include <span>
#include <string>
#include <string_view>

namespace shardscope::sharding {

// Three spellings of one `TensorSharding`. Sub-axes, which JAX can't express, are written in
// Shardy's `"x":(m)k` form inside the JAX spellings so that no information is lost; explicitly
// replicated axes have no JAX spelling and are left out of them.

/// Shardy's attribute syntax: `#sdy.sharding<@mesh, [{"x"}, {"z", "y"}]>`.
std::string shardyNotation(const ir::TensorSharding& sharding);

/// A JAX `PartitionSpec`: one entry per dimension, `'x'` for one axis, `('z', 'y')` for several
/// (major to minor), `None` for an unsharded closed dimension and `P.UNCONSTRAINED` for an open
/// dimension without axes, e.g. `P('x', ('z', 'y'))` or `P('x', None)`. Unreduced axes are added
/// as `unreduced={'u'}`; a sub-axis is written `'x':(1)2`.
std::string partitionSpecNotation(const ir::TensorSharding& sharding);

/// JAX's typed form of a sharded array: the short dtype then each dimension size, annotated with
/// its axes as `size@x` or `size@(z,y)`; unsharded dimensions are plain, e.g. `f32[4@x,8@(z,y)]`
/// or `f32[4@x,8]`, then `jaxVaryingUnreducedSuffix` of `varying` (the device-variance axes
/// inside a manual computation) and the unreduced axes; a dynamic dimension prints `?`.
/// `type` must be a ranked tensor; for any other type its MLIR spelling is returned. Dimensions
/// beyond the sharding's rank are printed plain.
std::string jaxTypedNotation(const ir::TensorSharding& sharding, ir::Type type,
                             std::span<const std::string> varying = {});

/// JAX's `_vma_ur_str`: the varying then the unreduced axes in one pair of braces, each set one
/// name or a parenthesized tuple, `{V:i}`, `{V:(i,j), U:x}`, `{U_max:(x,y)}` (`U` for a sum or no
/// kind); empty when both are empty. Axes are given in mesh order.
std::string jaxVaryingUnreducedSuffix(std::span<const std::string> varying,
                                      std::span<const std::string> unreduced,
                                      std::string_view unreducedKind = {});

/// JAX's short dtype name of `type`: `f32`, `bf16`, `i32`, `u8`, `bool`, `c64`, `f8_e4m3fn`, ...
std::string jaxDtypeName(ir::ElementType type);

} // namespace shardscope::sharding
