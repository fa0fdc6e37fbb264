// Adding f32[4@X,4] to f32[4,4@X] would use mesh axis X twice, so JAX rejects it; under
// `auto_axes` with `out_shardings=P("X", None)` the same add is fine:
//
//   some_x = reshard(np.arange(16).reshape(4, 4), P("X", None))
//   some_y = reshard(np.arange(16).reshape(4, 4), P(None, "X"))
//   some_x + some_y   # add operation with inputs: i32[4@X,4], i32[4,4@X] produces an
//                     # illegally sharded result: i32[4@X,4@X]
//
//   @auto_axes
//   def add_with_out_sharding_kwarg(x, y):
//     return x + y
//   result = add_with_out_sharding_kwarg(some_x, some_y, out_shardings=P("X", None))  # int32[4@X,4]
module @illegal attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=4]>
  func.func @rejected(%some_x: tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                      %some_y: tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"X"}]>}) -> tensor<4x4xi32> {
    %sum = stablehlo.add %some_x, %some_y : tensor<4x4xi32>
    return %sum : tensor<4x4xi32>
  }
  func.func @with_auto_axes(%some_x: tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                            %some_y: tensor<4x4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"X"}]>}) -> tensor<4x4xi32> {
    %result = sdy.named_computation<"add_with_out_sharding_kwarg">(%some_x, %some_y) out_shardings=[<@mesh, [{"X"}, {}]>] (%x: tensor<4x4xi32>, %y: tensor<4x4xi32>) {
      %sum = stablehlo.add %x, %y : tensor<4x4xi32>
      sdy.return %sum : tensor<4x4xi32>
    } {shardscope.axis_types = {X = "auto", Y = "auto"}} : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
    return %result : tensor<4x4xi32>
  }
}
