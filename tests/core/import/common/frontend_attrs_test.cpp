// Tests of the frontend attribute helpers: reading, removing entries and parsing attribute text
// as XLA stores it in `mhlo.frontend_attributes` strings.
#include "core/import/common/frontend_attrs.h"

#include "core/import/common/import_sdy_custom_calls.h"
#include "core/io/mlir/mlir.h"

#include <gtest/gtest.h>

using namespace shardscope;

namespace {

TEST(FrontendAttrsTest, ParsesShardingText) {
  std::string error;
  ir::Attribute attr = import_::parseAttributeText("#sdy.sharding<@mesh, [{\"a\"}p1, {}]>", error);
  ASSERT_TRUE(attr) << error;
  const auto* sharding = attr.as<ir::ShardingAttr>();
  ASSERT_NE(sharding, nullptr);
  EXPECT_EQ(sharding->sharding.meshName, "mesh");
  ASSERT_EQ(sharding->sharding.dims.size(), 2u);
  EXPECT_EQ(sharding->sharding.dims[0].priority, 1);
  EXPECT_EQ(sharding->sharding.dims[0].axes[0].name, "a");
}

TEST(FrontendAttrsTest, ParsesTypedInteger) {
  std::string error;
  ir::Attribute attr = import_::parseAttributeText("21 : i64", error);
  ASSERT_TRUE(attr) << error;
  ASSERT_NE(attr.as<ir::IntegerAttr>(), nullptr);
  EXPECT_EQ(attr.as<ir::IntegerAttr>()->value, 21);
}

TEST(FrontendAttrsTest, ParsesMeshDictionary) {
  std::string error;
  ir::Attribute attr = import_::parseAttributeText(
      "{mesh = #sdy.mesh<[\"a\"=2]>, maximal = #sdy.mesh<[], device_ids=[0]>}", error);
  ASSERT_TRUE(attr) << error;
  const auto* dict = attr.as<ir::DictionaryAttr>();
  ASSERT_NE(dict, nullptr);
  ASSERT_NE(dict->get("mesh").as<ir::MeshAttr>(), nullptr);
  EXPECT_EQ(dict->get("mesh").as<ir::MeshAttr>()->mesh.axes[0].size, 2);
  ASSERT_NE(dict->get("maximal").as<ir::MeshAttr>(), nullptr);
  EXPECT_EQ(dict->get("maximal").as<ir::MeshAttr>()->mesh.deviceIds, std::vector<int64_t>{0});
}

TEST(FrontendAttrsTest, RejectsMalformedText) {
  std::string error;
  EXPECT_FALSE(import_::parseAttributeText("#sdy.sharding<@mesh, [{\"a\"}", error));
  EXPECT_FALSE(error.empty());
  error.clear();
  // Text that would close the wrapper and add a second entry is not an attribute.
  EXPECT_FALSE(import_::parseAttributeText("1, other = 2", error));
  EXPECT_FALSE(error.empty());
}

TEST(FrontendAttrsTest, RemovingTheLastEntryDropsTheDictionary) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(
      "func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %0 = stablehlo.abs %arg0 {mhlo.frontend_attributes = {a = \"1\", b = \"2\"}} : "
      "tensor<8xf32>\n"
      "  return %0 : tensor<8xf32>\n"
      "}\n",
      1, sink);
  ASSERT_TRUE(module);
  ir::Operation& abs = *ir::func::body(*module->functions()[0])->ops().front();
  EXPECT_EQ(import_::frontendString(import_::frontendAttrs(abs), "b"), "2");
  import_::removeFrontendAttr(abs, "a");
  ASSERT_NE(import_::frontendAttrs(abs), nullptr);
  EXPECT_EQ(import_::frontendAttrs(abs)->entries.size(), 1u);
  import_::removeFrontendAttr(abs, "b");
  EXPECT_FALSE(abs.hasAttr(import_::kFrontendAttributesAttr));
}

TEST(FrontendAttrsTest, ParsesUnspecifiedDims) {
  EXPECT_EQ(import_::parseUnspecifiedDims(""), std::vector<int64_t>{});
  EXPECT_EQ(import_::parseUnspecifiedDims("unspecified_dims=[1]"), std::vector<int64_t>{1});
  EXPECT_EQ(import_::parseUnspecifiedDims("unspecified_dims=[0,2]"),
            (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(import_::parseUnspecifiedDims("unspecified_dims=[x]"), std::nullopt);
  EXPECT_EQ(import_::parseUnspecifiedDims("something else"), std::nullopt);
}

} // namespace

namespace {

TEST(FrontendAttrsTest, UnescapesLikeXla) {
  EXPECT_EQ(import_::cUnescape(R"(replicated={\"a\"})"), "replicated={\"a\"}");
  EXPECT_EQ(import_::cUnescape(R"(a\\b\x41\101\n)"), "a\\bAA\n");
  EXPECT_EQ(import_::cUnescape("plain"), "plain");
  EXPECT_EQ(import_::cUnescape(R"(bad\q)"), std::nullopt);
  EXPECT_EQ(import_::cUnescape("trailing\\"), std::nullopt);
}

} // namespace
