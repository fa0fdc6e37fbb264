// Explicit sharding ("sharding in types"), from the explicit sharding guide (in Chinese in the
// seeds): with mesh axes of type Explicit every value's type carries its sharding, f32[8@X,4] is
// an 8x4 array whose rows are split over X, and JAX computes it per op while tracing. Here the
// dot keeps the row sharding of `x` (f32[8@X,8]), tanh keeps its input's sharding, and the add
// of `skip` (f32[8,8@X], columns split over X) would name X for both dimensions of the result,
// which JAX rejects with the error below, located at the add. @main_fixed shows the guide's fix:
// reshard one operand (an `auto_axes` with `out_sharding=P("X", None)` would work too).
// `shardscope-cli types FILE` prints every value's type and the rejected op; the program itself
// is well-formed Shardy, so `check`, `partition` and `run` accept it. The JAX source:
//
//   mesh = jax.make_mesh((2, 4), ("X", "Y"), axis_types=(AxisType.Explicit, AxisType.Explicit))
//   @jax.jit
//   def main(x, w, skip):        # x: f32[8@X,4], w: f32[4,8], skip: f32[8,8@X]
//     h = jnp.tanh(x @ w)        # f32[8@X,8]
//     return h + skip            # error (below)
//   @jax.jit
//   def main_fixed(x, w, skip):
//     h = jnp.tanh(x @ w)                        # f32[8@X,8]
//     return h + reshard(skip, P("X", None))     # f32[8@X,8]
//
// EXPECTED-ERROR: add operation with inputs: f32[8@X,8], f32[8,8@X] produces an illegally sharded result: f32[8@X,8@X]

module @explicit_sharding attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=4]>

  func.func @main(%x: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                  %w: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
                  %skip: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"X"}]>})
      -> tensor<8x8xf32> {
    %xw = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] :
      (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %h = stablehlo.tanh %xw : tensor<8x8xf32>
    %out = stablehlo.add %h, %skip : tensor<8x8xf32>
    return %out : tensor<8x8xf32>
  }

  func.func @main_fixed(%x: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                        %w: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
                        %skip: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"X"}]>})
      -> tensor<8x8xf32> {
    %xw = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] :
      (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %h = stablehlo.tanh %xw : tensor<8x8xf32>
    %skip_rows = sdy.reshard %skip <@mesh, [{"X"}, {}]> : tensor<8x8xf32>
    %out = stablehlo.add %h, %skip_rows : tensor<8x8xf32>
    return %out : tensor<8x8xf32>
  }
}
