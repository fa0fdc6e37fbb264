#loc1 = loc("x")
!t = tensor<4xf32>
#map = affine_map<(d0) -> (d0)>
module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: !t {mhlo.frontend_attributes = {a = "\22q\22"}} loc("x")) -> (!t {jax.result_info = "r"}) {
    %cst = stablehlo.constant dense_resource<blob> : tensor<4xf32> loc(#loc3)
    %0 = stablehlo.add %arg0, %cst : !t loc(fused<"m">["a.py":1:2 to 3:4, callsite("f"("b.py":5:6) at #loc2)])
    %1 = chlo.erf_inv %0 : tensor<4xf32> -> tensor<4xf32> loc("y"("c.py":7:8 to :9))
    %2 = "mhlo.copy"(%1) {m = #map} : (tensor<4xf32>) -> tensor<4xf32> loc(unknown)
    return %2 : !t loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("d.py":1:1)
#loc3 = loc("jit(f)/jit(main)/const"(#loc2))
{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
