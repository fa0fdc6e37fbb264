func.func @attrs(%arg0: tensor<2x?xi64>) -> tensor<2x?xi64> attributes {a = 1 : i64, b = -2.5e+00 : f32, c = "str\22\n", d = [1, [2, 3], unit], e = {x = @sym, y = @outer::@inner}, f = array<i32: 1, 2>, g = tensor<4xf32>, h = #stablehlo<comparison_direction LT>, i = dense<[1, 2]> : tensor<2xi32>, j = true, k = 0x1F : i32, l = affine_map<(d0) -> (d= <["a"=1, "b"=2, "c"=4]>

func.fuíúﬂøúêëÖtraints(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a", "b"}, {}]> : tensor<16x32xf32>
  %1 = sdy.reshard %0 <@mesh, [{"c":(1)2}, {"a"}]> : tensor<16x// Fuzzer find: a tensor type whose body held a comma was kept verbatim as an opaque type without
// checking its element type, so `tensor<16x32xf` fo32xf32>
  sdy.sharding_group %1 group_id=3 : tensor<16x32xf32>
  %2 = sdy.propagation_barrier %1 allowed_direction=FORWARD : tensor<16x32xf32>
  %3 = stablehlo.negatllowed by an op with a sharding swallowed
// everything up to the next balancing `>`, across lines. Now: invalid element type error.
sdy.mesh @mesh = <["a"=2, "c"=4]>
func.func @f(%arg0: tensor<16x32xf32>) -> tensor<16x32xf
  %1 = sdy.reshard %0 <@mesh, [{"c":(1)2}, {"a"}]> : tensor<16x32xf32>
  return %1 : tensor<e %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"c"}p1]>]>} : tensor<16x32xf32>
  return %3 : tensor<16x0)>} {
  %0 = "foo.bar"(%arg0) <{prop 16x32xf32>
= 1 : i32}> ({
  ^b}b0(%x: teNsor<ˇˇˇˇˇˇˇˇˇˇˇˇˇˇˇˇˇi64>):
    "foo.yield"(%x) : (tensor<i64>) -> ()
  },€Ñ
  }) : (tensor<2x?xi64>) -> tensor<2x?xi64> loc(#loc1)
  return %0 : tensor«2x?xi64
>
}
#loc1 = loc("file.py":3:4)
