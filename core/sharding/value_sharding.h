#pragma once

#include "core/ir/operation.h"
#include "core/ir/sdy_types.h"

#include <optional>
#include <span>
#include <string_view>

namespace shardscope::sharding {

/// The sharding a value has, wherever Shardy keeps it: the `out_sharding` of an explicit
/// collective, the `sharding` of `sdy.reshard` / `sdy.sharding_constraint` / `sdy.data_flow_edge`,
/// the `out_shardings` of a manual or named computation, a function argument's `sdy.sharding`, the
/// `in_shardings` entry of a manual computation's region argument (minus its manual axes, the view
/// the body has), a `stablehlo.while` region argument's loop result sharding, or an op's
/// `sdy.sharding`. Returns nothing for an unsharded value.
std::optional<ir::TensorSharding> valueSharding(const ir::Value& value);

/// The sharding `valueSharding` starts from, without copying it: a pointer into the attribute
/// that holds it (valid until that attribute is replaced or its op erased), or null for an
/// unsharded value. It equals `valueSharding(value)` except for a manual computation's region
/// argument, where it still has the manual axes (`valueSharding` drops them; dropping axes never
/// adds any, so e.g. "no unreduced axes" holds for both).
const ir::TensorSharding* storedSharding(const ir::Value& value);

/// `valueSharding(value)` without a copy where possible: the stored sharding when it is the
/// value's sharding, else (a manual computation's region argument) `scratch` set to
/// `valueSharding(value)`. Returns null for an unsharded value; the result is valid while both
/// the stored attribute and `scratch` are.
const ir::TensorSharding* valueShardingRef(const ir::Value& value,
                                           std::optional<ir::TensorSharding>& scratch);

/// The layout a value's data really has on the devices: `valueSharding`, plus, as unreduced
/// axes, the axes that an `sdy.all_reduce` or `sdy.reduce_scatter` using the value reduces over.
/// Shardy leaves those out of the producer's sharding (the dot_general before the all_reduce
/// inserted for a sharded contracting dimension says `[{"x"}, {}]`), but each device holds only a
/// partial result until the reduction. A value without a sharding but with such a user is taken
/// as replicated on the reduction's mesh; nothing when it has neither.
std::optional<ir::TensorSharding> heldSharding(const ir::Value& value);

/// `heldSharding(value)` without a copy when no reduction reads the value (nearly every value):
/// valid while the stored attribute and `scratch` are.
const ir::TensorSharding* heldShardingRef(const ir::Value& value,
                                          std::optional<ir::TensorSharding>& scratch);

/// The names of Shardy's explicit collectives (`sdy.all_gather`, ..., `sdy.replicated_to_unreduced`),
/// whose result sharding is their `out_sharding`.
std::span<const std::string_view> explicitCollectiveNames();

/// Returns true when `op` is one of `explicitCollectiveNames()`.
bool isExplicitCollective(const ir::Operation& op);

/// Returns `sharding` without the manual axes of `manual` (an `sdy.manual_computation`) at the
/// front of each dimension: how the body of the manual computation sees the value.
ir::TensorSharding withoutManualAxes(ir::TensorSharding sharding, const ir::Operation& manual);

} // namespace shardscope::sharding
