#include "core/sharding/notation.h"

#include <gtest/gtest.h>

using namespace shardscope;
using namespace shardscope::sharding;

namespace {

ir::AxisRef full(const char* name) { return {name, std::nullopt}; }

ir::DimensionSharding closed(std::vector<ir::AxisRef> axes) {
  return {std::move(axes), true, std::nullopt};
}
ir::DimensionSharding open(std::vector<ir::AxisRef> axes) {
  return {std::move(axes), false, std::nullopt};
}

// [{"x"}, {"z", "y"}] on @mesh.
ir::TensorSharding docExample() {
  ir::TensorSharding s;
  s.meshName = "mesh";
  s.dims = {closed({full("x")}), closed({full("z"), full("y")})};
  return s;
}

} // namespace

TEST(NotationTest, ShardySyntax) {
  EXPECT_EQ(shardyNotation(docExample()), "#sdy.sharding<@mesh, [{\"x\"}, {\"z\", \"y\"}]>");
}

TEST(NotationTest, PartitionSpec) {
  EXPECT_EQ(partitionSpecNotation(docExample()), "P('x', ('z', 'y'))");
  ir::TensorSharding s;
  s.meshName = "mesh";
  s.dims = {closed({full("x")}), closed({})};
  EXPECT_EQ(partitionSpecNotation(s), "P('x', None)");
  s.dims = {open({}), closed({full("x")})};
  EXPECT_EQ(partitionSpecNotation(s), "P(P.UNCONSTRAINED, 'x')");
  s.dims = {};
  EXPECT_EQ(partitionSpecNotation(s), "P()");
  s.dims = {closed({ir::AxisRef{"x", ir::SubAxisInfo{1, 2}}})};
  s.unreducedAxes = {full("y")};
  EXPECT_EQ(partitionSpecNotation(s), "P('x':(1)2, unreduced={'y'})");
}

TEST(NotationTest, JaxTypedForm) {
  std::vector<int64_t> shape{4, 8};
  ir::Type type = ir::Type::tensor(shape, ir::ElementType::F32);
  EXPECT_EQ(jaxTypedNotation(docExample(), type), "f32[4@x,8@(z,y)]");
  ir::TensorSharding s = docExample();
  s.dims[1] = closed({});
  EXPECT_EQ(jaxTypedNotation(s, type), "f32[4@x,8]");
  s.unreducedAxes = {full("z")};
  EXPECT_EQ(jaxTypedNotation(s, ir::Type::tensor(shape, ir::ElementType::BF16)),
            "bf16[4@x,8]{U:z}");
  std::vector<int64_t> dynamic{ir::kDynamicSize, 2};
  EXPECT_EQ(jaxTypedNotation(docExample(), ir::Type::tensor(dynamic, ir::ElementType::I32)),
            "i32[?@x,2@(z,y)]");
  EXPECT_EQ(jaxTypedNotation(docExample(), ir::Type::token()), "!stablehlo.token");
}

TEST(NotationTest, JaxDtypeNames) {
  EXPECT_EQ(jaxDtypeName(ir::ElementType::I1), "bool");
  EXPECT_EQ(jaxDtypeName(ir::ElementType::UI8), "u8");
  EXPECT_EQ(jaxDtypeName(ir::ElementType::I64), "i64");
  EXPECT_EQ(jaxDtypeName(ir::ElementType::F16), "f16");
  EXPECT_EQ(jaxDtypeName(ir::ElementType::Complex64), "c64");
  EXPECT_EQ(jaxDtypeName(ir::ElementType::F8E4M3FN), "f8_e4m3fn");
}

// JAX's `_vma_ur_str` (jax/_src/core.py): one pair of braces, `V:` then `U:`, joined by ", ",
// a single axis bare and several in parentheses; `U_<kind>` for a non-sum unreduced kind.
TEST(NotationTest, JaxVaryingAndUnreducedSuffix) {
  std::vector<std::string> none, i{"i"}, ij{"i", "j"}, x{"x"}, xy{"x", "y"};
  EXPECT_EQ(jaxVaryingUnreducedSuffix(none, none), "");
  EXPECT_EQ(jaxVaryingUnreducedSuffix(i, none), "{V:i}");
  EXPECT_EQ(jaxVaryingUnreducedSuffix(ij, none), "{V:(i,j)}");
  EXPECT_EQ(jaxVaryingUnreducedSuffix(none, xy), "{U:(x,y)}");
  EXPECT_EQ(jaxVaryingUnreducedSuffix(ij, x), "{V:(i,j), U:x}");
  EXPECT_EQ(jaxVaryingUnreducedSuffix(none, x, "sum"), "{U:x}");
  EXPECT_EQ(jaxVaryingUnreducedSuffix(none, x, "max"), "{U_max:x}");

  ir::TensorSharding s;
  s.dims = {ir::DimensionSharding{{{"x", std::nullopt}}, true, std::nullopt}, {}};
  s.unreducedAxes = {{"y", std::nullopt}, {"z", std::nullopt}};
  std::vector<int64_t> shape{8, 4};
  EXPECT_EQ(jaxTypedNotation(s, ir::Type::tensor(shape, ir::ElementType::F32), i),
            "f32[8@x,4]{V:i, U:(y,z)}");
}
