// iota_c1 (StablehloOps.td ConfinedAttr<I64Attr, [IntNonNegative]>:$iota_dimension)
func.func @main() -> tensor<4xi32> {
  // expected-error@+1 {{'stablehlo.iota' op attribute 'iota_dimension' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = "stablehlo.iota"() {iota_dimension = -1 : i64} : () -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
