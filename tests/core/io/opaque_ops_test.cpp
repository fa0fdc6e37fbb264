// Ops of dialects the IR does not model (mhlo, chlo, llvm, vendor ops, unknown StableHLO ops),
// dynamic and bounded shapes, and the attribute dictionaries JAX and XLA write on modules and
// functions: all load and print back.
#include "core/io/mlir/mlir.h"

#include "core/support/source_manager.h"

#include <gtest/gtest.h>

using namespace shardscope;

namespace {
std::string roundTrip(const std::string& text, support::CollectingSink& sink) {
  auto module = io::mlir::parseModule(text, 1, sink);
  return module ? io::mlir::printModule(*module) : std::string();
}
std::string firstError(const support::CollectingSink& sink) {
  return sink.diagnostics().empty() ? std::string() : sink.diagnostics()[0].message;
}
} // namespace

TEST(OpaqueOpsTest, GenericOpsOfUnmodelledDialectsPrintBackUnchanged) {
  const char* text = R"(module {
  func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "chlo.erf"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    %1 = "mhlo.sine"(%0) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
    %2 = "chlo.broadcast_add"(%1, %arg1) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %3:2 = "chlo.top_k"(%2) <{k = 2 : i64}> : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xi32>)
    %4 = "stablehlo.some_future_op"(%3#0) {note = "x"} : (tensor<2xf32>) -> tensor<2xf32>
    "llvm.intr.assume"(%4) : (tensor<2xf32>) -> ()
    %5 = "acme.vendor_op"(%arg0) ({
    ^bb0(%arg2: tensor<f32>):
      "acme.yield"(%arg2) : (tensor<f32>) -> ()
    }) : (tensor<4xf32>) -> tensor<4xf32>
    return %5 : tensor<4xf32>
  }
}
)";
  support::CollectingSink sink;
  EXPECT_EQ(roundTrip(text, sink), text) << firstError(sink);
}

TEST(OpaqueOpsTest, PrettyChloFormsJaxEmitsLoad) {
  // `chlo.top_k(%arg0, k = 3)` and `is_stable = false` as JAX's lax_test expects them in JAX's
  // lowering; unary and broadcasting binary forms as ChloOps.td writes them.
  const char* text = R"(func.func @main(%arg0: tensor<5xf32>, %arg1: tensor<5xf32>) -> tensor<3xf32> {
  %0 = chlo.erf_inv %arg0 : tensor<5xf32> -> tensor<5xf32>
  %1 = chlo.broadcast_add %0, %arg1 {broadcast_dimensions = array<i64: 0>} : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  %2:2 = chlo.top_k(%1, k = 3) : tensor<5xf32> -> (tensor<3xf32>, tensor<3xi32>)
  %3:2 = chlo.top_k(%2#0, k = 3, is_stable = false) : tensor<3xf32> -> (tensor<3xf32>, tensor<3xi32>)
  %4 = chlo.next_after %3#0, %3#0 : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %4 : tensor<3xf32>
})";
  support::CollectingSink sink;
  // Printed generically, as sdy_opt (which does not register CHLO) reads them.
  EXPECT_EQ(roundTrip(text, sink), R"(module {
  func.func @main(%arg0: tensor<5xf32>, %arg1: tensor<5xf32>) -> tensor<3xf32> {
    %0 = "chlo.erf_inv"(%arg0) : (tensor<5xf32>) -> tensor<5xf32>
    %1 = "chlo.broadcast_add"(%0, %arg1) <{broadcast_dimensions = array<i64: 0>}> : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
    %2:2 = "chlo.top_k"(%1) <{k = 3 : i64}> : (tensor<5xf32>) -> (tensor<3xf32>, tensor<3xi32>)
    %3:2 = "chlo.top_k"(%2#0) <{is_stable = false, k = 3 : i64}> : (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xi32>)
    %4 = "chlo.next_after"(%3#0, %3#0) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    return %4 : tensor<3xf32>
  }
}
)") << firstError(sink);
}

TEST(OpaqueOpsTest, UnknownPrettyOpIsALocatedErrorNamingIt) {
  support::CollectingSink sink;
  roundTrip("func.func @f(%arg0: tensor<f32>) -> tensor<f32> {\n"
            "  %0 = chlo.fancy %arg0 : tensor<f32> -> tensor<f32>\n"
            "  return %0 : tensor<f32>\n}\n",
            sink);
  ASSERT_TRUE(sink.hasErrors());
  EXPECT_EQ(firstError(sink), "custom op 'chlo.fancy' is unknown");
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 2u);
  EXPECT_EQ(sink.diagnostics()[0].loc.column, 3u);
}

TEST(OpaqueOpsTest, DynamicAndBoundedShapesPrintBackUnchanged) {
  const char* text = R"(module {
  func.func @main(%arg0: tensor<4x?xf32>, %arg1: tensor<?x4xf32, #stablehlo.bounds<8, ?>>) -> tensor<4x?xf32> {
    %0 = stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<4x?xf32>) -> tensor<i32>
    %1 = stablehlo.abs %arg0 : tensor<4x?xf32>
    %2 = stablehlo.abs %arg1 : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
    return %1 : tensor<4x?xf32>
  }
}
)";
  support::CollectingSink sink;
  EXPECT_EQ(roundTrip(text, sink), text) << firstError(sink);
}

TEST(OpaqueOpsTest, JaxModuleAndFunctionAttributesSurvive) {
  // The attributes JAX writes on modules, functions, arguments and results, and XLA's
  // round-trip frontend attributes whose string values hold escaped quotes.
  const char* text = R"(module @jit_f attributes {jax.uses_shape_polymorphism = false, mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22x\22=2]>}"}, mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32> {jax.buffer_donor = true, mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22x\22}]>"}, mhlo.layout_mode = "default", mhlo.memory_kind = "device", mhlo.sharding = "{devices=[2]<=[2]}"}) -> (tensor<8xf32> {jax.result_info = "result[\22a\22]", mhlo.layout_mode = "default"}) {
    %0 = call @helper(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func private @helper(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    return %arg0 : tensor<8xf32>
  }
}
)";
  support::CollectingSink sink;
  // MLIR omits the default `public` visibility when it prints.
  std::string expected = text;
  expected.replace(expected.find("func.func public"), 16, "func.func");
  EXPECT_EQ(roundTrip(text, sink), expected) << firstError(sink);
}

TEST(OpaqueOpsTest, MhloOpsLoadInTheirPrettyForms) {
  // As XLA's Shardy tests write GSPMD's sharding annotations and MHLO programs.
  const char* text = R"(module {
  func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{replicated}"}) -> tensor<8x8xf32> {
    %0 = mhlo.custom_call @Sharding(%arg0) {mhlo.sharding = "{devices=[2,1]<=[2]}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = mhlo.copy %0 {mhlo.sharding = "{replicated}"} : tensor<8x8xf32>
    %2 = mhlo.add %1, %0 : tensor<8x8xf32>
    %3 = "mhlo.tuple"(%2) : (tensor<8x8xf32>) -> tuple<tensor<8x8xf32>>
    return %2 : tensor<8x8xf32>
  }
}
)";
  support::CollectingSink sink;
  EXPECT_EQ(roundTrip(text, sink), text) << firstError(sink);

  // MHLO's while loop and compare, as XLA's mhlo_import_pipeline test writes them: they load, and
  // what is printed reads back the same.
  support::CollectingSink loopSink;
  std::string printed = roundTrip(R"(func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mhlo.constant dense<0> : tensor<i32>
  %1 = mhlo.constant {mhlo.sharding = "{replicated}"} dense<32> : tensor<i32>
  %2:2 = mhlo.while(%iterArg = %arg0, %iterArg_0 = %0) : tensor<4xf32>, tensor<i32>
    cond {
    %3 = mhlo.compare LT, %iterArg_0, %1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    mhlo.return %3 : tensor<i1>
  } do {
    %3 = mhlo.add %iterArg, %iterArg : tensor<4xf32>
    mhlo.return %3, %iterArg_0 : tensor<4xf32>, tensor<i32>
  }
  return %2#0 : tensor<4xf32>
})",
                                 loopSink);
  ASSERT_FALSE(printed.empty()) << firstError(loopSink);
  // MLIR's names: `%c`, `%c_0`, then the shared conflict counter gives `%iterArg_1`.
  EXPECT_NE(printed.find("mhlo.while(%iterArg = %arg0, %iterArg_1 = %c)"), std::string::npos)
      << printed;
  support::CollectingSink againSink;
  EXPECT_EQ(roundTrip(printed, againSink), printed) << firstError(againSink);
}
