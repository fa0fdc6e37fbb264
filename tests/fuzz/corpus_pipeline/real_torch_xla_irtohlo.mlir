// source: https://github.com/pytorch/xla/issues/5544 (description by maxwillzq, 2023-09-06: exported_program_to_stablehlo(...).get_stablehlo_text('forward'), the output as reported)
module @IrToHlo.13 attributes {mhlo.cross_program_prefetches = [], mhlo.dynamic_parameter_bindings = [], mhlo.is_dynamic = false, mhlo.use_auto_spmd_partitioning = false} {
  func.func @main(%arg0: tensor<10x10xf32>, %arg1: tensor<10x10xf32>) -> tensor<10x10xf32> {
    %0 = stablehlo.sine %arg1 : tensor<10x10xf32>
    %1 = stablehlo.cosine %arg0 : tensor<10x10xf32>
    %2 = stablehlo.add %0, %1 : tensor<10x10xf32>
    return %2 : tensor<10x10xf32>
  }
}
