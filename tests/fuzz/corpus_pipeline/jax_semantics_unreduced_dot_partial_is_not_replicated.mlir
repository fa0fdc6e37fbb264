// shardy transforms/export/insert_explicit_reshards.cc (insertAllReducesForReductionFactors): a dot_general whose contracting dim is sharded on 'x' holds partial sums until the inserted all_reduce; shown as partial (unreduced over 'x'), never as P('y', None).
// NUMPY: r[0] = np.tanh(a[0] @ a[1])
// CLI report --stage partitioned --format json -o -: f32[8@y,8]{U:x}
// CLI report --stage partitioned --format json -o -: P('y', None, unreduced={'x'})
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>},
                %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %d = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %e = stablehlo.tanh %d : tensor<8x8xf32>
  return %e : tensor<8x8xf32>
}
