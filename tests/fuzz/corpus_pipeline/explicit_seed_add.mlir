// Shardings propagate through ops (the guide's `add_arrays`):
//
//   arg0 = reshard(np.arange(4).reshape(4, 1), P("X", None))   # int32[4@X,1]
//   arg1 = reshard(np.arange(8).reshape(1, 8), P(None, "Y"))   # int32[1,8@Y]
//   ans = arg0 + arg1                                           # int32[4@X,8@Y]
//
// JAX lowers the implicit broadcast of `+` to `broadcast_in_dim`, which keeps each operand's
// sharding; the add then takes the consensus of each dimension.
module @add attributes {shardscope.axis_types = {mesh = {X = "explicit", Y = "explicit"}}} {
  sdy.mesh @mesh = <["X"=2, "Y"=4]>
  func.func @add_arrays(%x: tensor<4x1xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"X"}, {}]>},
                        %y: tensor<1x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"Y"}]>}) -> tensor<4x8xi32> {
    %xb = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<4x1xi32>) -> tensor<4x8xi32>
    %yb = stablehlo.broadcast_in_dim %y, dims = [0, 1] : (tensor<1x8xi32>) -> tensor<4x8xi32>
    %ans = stablehlo.add %xb, %yb : tensor<4x8xi32>
    return %ans : tensor<4x8xi32>
  }
}
