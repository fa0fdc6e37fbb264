// The ops of the dialects whose every op ShardScope knows: StableHLO (StablehloOps.td) and
// Shardy (ops.td). An op of these dialects outside the lists is an error, as in MLIR, where
// neither dialect allows unknown operations: a misspelled or removed op would otherwise load
// and later stages would treat it as an opaque op.

#include "core/verify/detail/op_context.h"

#include <unordered_set>

namespace shardscope::verify::detail {

namespace {

const std::unordered_set<std::string_view>& knownOps() {
  static const std::unordered_set<std::string_view> ops = {
      // StableHLO.
      "stablehlo.abs", "stablehlo.add", "stablehlo.after_all", "stablehlo.all_gather",
      "stablehlo.all_reduce", "stablehlo.all_to_all", "stablehlo.and", "stablehlo.async_done",
      "stablehlo.async_start", "stablehlo.atan2", "stablehlo.batch_norm_grad",
      "stablehlo.batch_norm_inference", "stablehlo.batch_norm_training",
      "stablehlo.bitcast_convert", "stablehlo.broadcast", "stablehlo.broadcast_in_dim",
      "stablehlo.case", "stablehlo.cbrt", "stablehlo.ceil", "stablehlo.cholesky",
      "stablehlo.clamp", "stablehlo.collective_broadcast", "stablehlo.collective_permute",
      "stablehlo.collective_reduce", "stablehlo.compare", "stablehlo.complex",
      "stablehlo.composite", "stablehlo.concatenate", "stablehlo.constant", "stablehlo.convert",
      "stablehlo.convolution", "stablehlo.cosine", "stablehlo.count_leading_zeros",
      "stablehlo.create_token", "stablehlo.custom_call", "stablehlo.divide", "stablehlo.dot",
      "stablehlo.dot_general", "stablehlo.dynamic_broadcast_in_dim", "stablehlo.dynamic_conv",
      "stablehlo.dynamic_gather", "stablehlo.dynamic_iota", "stablehlo.dynamic_pad",
      "stablehlo.dynamic_reshape", "stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice",
      "stablehlo.einsum", "stablehlo.exponential", "stablehlo.exponential_minus_one",
      "stablehlo.fft", "stablehlo.floor", "stablehlo.gather", "stablehlo.get_dimension_size",
      "stablehlo.get_tuple_element", "stablehlo.if", "stablehlo.imag", "stablehlo.infeed",
      "stablehlo.iota", "stablehlo.is_finite", "stablehlo.log", "stablehlo.log_plus_one",
      "stablehlo.logistic", "stablehlo.map", "stablehlo.maximum", "stablehlo.minimum",
      "stablehlo.multiply", "stablehlo.negate", "stablehlo.not", "stablehlo.optimization_barrier",
      "stablehlo.or", "stablehlo.outfeed", "stablehlo.pad", "stablehlo.partition_id",
      "stablehlo.popcnt", "stablehlo.power", "stablehlo.real", "stablehlo.real_dynamic_slice",
      "stablehlo.recv", "stablehlo.reduce", "stablehlo.reduce_precision",
      "stablehlo.reduce_scatter", "stablehlo.reduce_window", "stablehlo.remainder",
      "stablehlo.replica_id", "stablehlo.reshape", "stablehlo.return", "stablehlo.reverse",
      "stablehlo.rng", "stablehlo.rng_bit_generator", "stablehlo.round_nearest_afz",
      "stablehlo.round_nearest_even", "stablehlo.rsqrt", "stablehlo.scatter", "stablehlo.select",
      "stablehlo.select_and_scatter", "stablehlo.send", "stablehlo.set_dimension_size",
      "stablehlo.shift_left", "stablehlo.shift_right_arithmetic",
      "stablehlo.shift_right_logical", "stablehlo.sign", "stablehlo.sine", "stablehlo.slice",
      "stablehlo.sort", "stablehlo.sqrt", "stablehlo.subtract", "stablehlo.tan", "stablehlo.tanh",
      "stablehlo.torch_index_select", "stablehlo.transpose", "stablehlo.triangular_solve",
      "stablehlo.tuple", "stablehlo.unary_einsum", "stablehlo.uniform_dequantize",
      "stablehlo.uniform_quantize", "stablehlo.while", "stablehlo.xor",
      // Shape helpers of older StableHLO releases that exported programs still carry.
      "stablehlo.compute_reshape_shape", "stablehlo.cstr_reshapable",
      // Shardy.
      "sdy.all_gather", "sdy.all_reduce", "sdy.all_slice", "sdy.all_to_all",
      "sdy.collective_permute", "sdy.constant", "sdy.data_flow_edge", "sdy.func_data_flow_edge",
      "sdy.manual_computation", "sdy.mesh", "sdy.named_computation", "sdy.propagation_barrier",
      "sdy.reduce_scatter", "sdy.replicated_to_unreduced", "sdy.reshard", "sdy.return",
      "sdy.sharded_to_unreduced", "sdy.sharding_constraint", "sdy.sharding_group",
  };
  return ops;
}

} // namespace

bool checkKnownOp(const OpContext& ctx) {
  std::string_view dialect = ctx.op.dialect();
  if ((dialect != "stablehlo" && dialect != "sdy") || knownOps().contains(ctx.op.name()))
    return true;
  return ctx.error("unregistered operation '" + std::string(ctx.op.name()) +
                   "' found in dialect ('" + std::string(dialect) +
                   "') that does not allow unknown operations");
}

} // namespace shardscope::verify::detail
