// GSPMD <-> Shardy conversions: the mesh analysis of tile assignments, Shardy shardings printed
// as XLA prints them, and the round trip export -> parse -> import -> export over many generated
// shardings. Expected strings come from XLA's tests (tile_assignment_test.cc, the comments of
// stablehlo_import.cc, stablehlo_export_pipeline.mlir).
#include "core/import/gspmd/export_shardings.h"
#include "core/import/gspmd/hlo_sharding_parser.h"
#include "core/import/gspmd/import_shardings.h"
#include "core/import/gspmd/tile_analysis.h"

#include <gtest/gtest.h>

#include <random>

using namespace shardscope;
using namespace shardscope::import_::gspmd;

namespace {

ir::Mesh mesh(std::vector<std::pair<std::string, int64_t>> axes, std::vector<int64_t> ids = {}) {
  ir::Mesh m;
  for (auto& [name, size] : axes)
    m.axes.push_back({name, size});
  m.deviceIds = std::move(ids);
  return m;
}

ir::AxisRef axis(std::string name) { return {std::move(name), std::nullopt}; }
ir::AxisRef sub(std::string name, int64_t pre, int64_t size) {
  return {std::move(name), ir::SubAxisInfo{pre, size}};
}

ir::TensorSharding sharding(std::vector<std::vector<ir::AxisRef>> dims,
                            std::vector<ir::AxisRef> replicated = {},
                            std::vector<ir::AxisRef> unreduced = {}) {
  ir::TensorSharding s;
  s.meshName = "mesh";
  for (auto& axes : dims)
    s.dims.push_back({std::move(axes), true, std::nullopt});
  s.replicatedAxes = std::move(replicated);
  s.unreducedAxes = std::move(unreduced);
  return s;
}

TEST(TileAnalysisTest, ShortestCommonFactorizationFollowsXla) {
  using V = std::vector<int64_t>;
  EXPECT_EQ(shortestCommonFactorization(V{2, 3}, V{3, 2}), V{});
  EXPECT_EQ(shortestCommonFactorization(V{4, 8}, V{8, 4}), (V{4, 2, 4}));
  EXPECT_EQ(shortestCommonFactorization(V{4, 8}, V{4, 2, 4}), (V{4, 2, 4}));
  EXPECT_EQ(shortestCommonFactorization(V{4, 8}, V{4, 4, 2}), (V{4, 4, 2}));
  EXPECT_EQ(shortestCommonFactorization(V{2, 2, 2, 2, 2}, V{4, 4, 2}), (V{2, 2, 2, 2, 2}));
  EXPECT_EQ(shortestCommonFactorization(V{6, 1, 4}, V{2, 6, 2}), (V{2, 3, 2, 2}));
}

TEST(TileAnalysisTest, LocalMeshOfIotaTileAssignments) {
  auto analysis = analyzeTileAssignment(TileAssignment::iota({6, 35}, {7, 10, 3}, {2, 1, 0}));
  ASSERT_TRUE(analysis);
  EXPECT_EQ(analysis->localMesh, (std::vector<int64_t>{7, 2, 5, 3}));

  analysis = analyzeTileAssignment(TileAssignment::iota({8, 1}, {4, 2}, {1, 0}));
  ASSERT_TRUE(analysis);
  ASSERT_EQ(analysis->subDims.size(), 2u);
  EXPECT_EQ(analysis->subDims[0].tileDimIndex, 0);
  EXPECT_EQ(analysis->subDims[0].tileSubDimIndex, 0);
  EXPECT_EQ(analysis->subDims[0].reshapeDimIndex, 0);
  EXPECT_EQ(analysis->subDims[0].size, 4);
  EXPECT_EQ(analysis->subDims[1].tileSubDimIndex, 1);
  EXPECT_EQ(analysis->subDims[1].reshapeDimIndex, 1);
  EXPECT_EQ(analysis->subDims[1].size, 2);

  EXPECT_FALSE(analyzeTileAssignment(TileAssignment::iota({2, 5}, {2, 5}, {1, 0})));
  EXPECT_FALSE(analyzeTileAssignment(TileAssignment::iota({2, 3}, {2, 3}, {1, 0})));
}

TEST(TileAnalysisTest, ExplicitIotaListsHaveALocalMesh) {
  // tile_assignment_test.cc: a V1 array {{0,1},{2,3}} has the local mesh [2, 2].
  auto analysis = analyzeTileAssignment(TileAssignment::explicitDevices({2, 2}, {0, 1, 2, 3}));
  ASSERT_TRUE(analysis);
  EXPECT_EQ(analysis->localMesh, (std::vector<int64_t>{2, 2}));
  EXPECT_FALSE(analyzeTileAssignment(TileAssignment::explicitDevices({4}, {0, 3, 1, 2})));
}

TEST(ExportShardingTest, PrintsWhatXlaPrints) {
  // stablehlo_export_pipeline.mlir.
  ir::Mesh mesh0 = mesh({{"axis_0", 2}, {"axis_1", 4}, {"axis_2", 4}});
  EXPECT_EQ(toHloSharding(sharding({{axis("axis_2")}, {axis("axis_0"), axis("axis_1")}}), mesh0)
                .toString(),
            "{devices=[4,8]<=[8,4]T(1,0)}");
  EXPECT_EQ(toHloSharding(sharding({{}, {axis("axis_0")}}), mesh0).toString(),
            "{devices=[1,2,16]<=[32] last_tile_dim_replicate}");
  EXPECT_EQ(toHloSharding(sharding({{}, {axis("axis_0"), axis("axis_2")}}), mesh0).toString(),
            "{devices=[1,8,4]<=[2,4,4]T(0,2,1) last_tile_dim_replicate}");
  EXPECT_EQ(toHloSharding(sharding({{axis("axis_0")}, {axis("axis_2")}}, {axis("axis_1")}), mesh0)
                .toString(),
            "{devices=[2,4,4]<=[2,4,4]T(0,2,1) last_tile_dim_replicate}");
  ir::Mesh mesh2 = mesh({{"x", 8}, {"y", 4}});
  EXPECT_EQ(toHloSharding(sharding({{axis("y")}, {sub("x", 2, 2)}}), mesh2).toString(),
            "{devices=[4,2,4]<=[2,2,2,4]T(3,1,0,2) last_tile_dim_replicate}");
  EXPECT_EQ(toHloSharding(sharding({{sub("x", 1, 2)}, {sub("x", 2, 4)}}), mesh2).toString(),
            "{devices=[2,4,4]<=[32] last_tile_dim_replicate}");
  EXPECT_EQ(toHloSharding(sharding({{sub("x", 1, 2), sub("x", 4, 2)}, {}}), mesh2).toString(),
            "{devices=[4,1,8]<=[2,2,2,4]T(0,2,1,3) last_tile_dim_replicate}");
  EXPECT_EQ(toHloSharding(sharding({{axis("y"), axis("x")}, {}}), mesh2).toString(),
            "{devices=[32,1]<=[8,4]T(1,0)}");
  EXPECT_EQ(toHloSharding(sharding({{}, {}}), mesh2).toString(), "{replicated}");
  EXPECT_EQ(toHloSharding(sharding({}), mesh({}, {1})).toString(), "{maximal device=1}");
  EXPECT_EQ(toHloSharding(sharding({{}, {}}), mesh({})).toString(), "{replicated}");
  // Inside manual computations.
  ir::Mesh mesh3 = mesh({{"a", 2}, {"b", 2}, {"c", 2}, {"d", 2}});
  std::vector<std::string> ab = {"a", "b"};
  EXPECT_EQ(toHloSharding(sharding({{axis("c")}, {}}), mesh3, ab).toString(),
            "{devices=[2,1,4,2]<=[4,2,2]T(1,0,2) last_tile_dims={manual, replicated}}");
  EXPECT_EQ(toHloSharding(sharding({{axis("c")}, {axis("d")}}), mesh3, ab).toString(),
            "{devices=[2,2,4]<=[4,4]T(1,0) last_tile_dims={manual}}");
  EXPECT_EQ(toHloSharding(sharding({{}, {}}), mesh3, ab).toString(),
            "{devices=[1,1,4,4]<=[16] last_tile_dims={manual, replicated}}");
  EXPECT_EQ(toHloSharding(sharding({{}}), mesh2, std::vector<std::string>{"x", "y"}).toString(),
            "{manual}");
  // Device lists.
  ir::Mesh mesh4 = mesh({{"axis_0", 2}, {"axis_1", 2}, {"axis_2", 2}}, {0, 2, 4, 6, 1, 3, 5, 7});
  EXPECT_EQ(toHloSharding(sharding({{axis("axis_2")}, {axis("axis_0"), axis("axis_1")}}), mesh4)
                .toString(),
            "{devices=[2,4]0,4,1,5,2,6,3,7}");
  EXPECT_EQ(toHloSharding(sharding({{}, {axis("axis_0"), axis("axis_2")}}), mesh4).toString(),
            "{devices=[1,4,2]0,4,2,6,1,5,3,7 last_tile_dim_replicate}");
  EXPECT_EQ(toHloSharding(sharding({{axis("axis_1"), axis("axis_0")}, {}}), mesh4).toString(),
            "{devices=[4,1,2]0,2,1,3,4,6,5,7 last_tile_dim_replicate}");
}

TEST(ExportShardingTest, NamedFormWithSimplifiedReplication) {
  // stablehlo_export_pipeline_simplify_replicated.mlir.
  ir::Mesh mesh1 = mesh({{"axis_0", 16}});
  ir::TensorSharding open = sharding({{}, {}});
  open.dims[0].isClosed = false;
  EXPECT_EQ(toNamedShardingString(open, mesh1, {}, true), "{mesh['axis_0'=16], [{?}, {}]}");
  EXPECT_EQ(toNamedShardingString(sharding({{}, {}}, {axis("axis_0")}), mesh1, {}, true),
            "{mesh[], replicated}");
  EXPECT_EQ(toNamedShardingString(sharding({{}, {}}, {}, {axis("axis_0")}), mesh1, {}, true),
            "{mesh['axis_0'=16], [{}, {}], unreduced={'axis_0'}}");
  EXPECT_EQ(toNamedShardingString(sharding({{axis("x")}, {axis("y")}}),
                                  mesh({{"x", 2}, {"y", 4}}), {}, true),
            "{mesh['x'=2,'y'=4], [{'x'}, {'y'}]}");
}

TEST(ImportShardingTest, ConvertsOntoTheCommonMesh) {
  // import_shardings.mlir, @multiple_shardings: the common mesh of these shardings is
  // [2, 4, 4].
  ir::Mesh global = mesh({{"_axis_0", 2}, {"_axis_1", 4}, {"_axis_2", 4}});
  auto importText = [&](const std::string& text, int64_t rank) {
    HloShardingParseError parseError;
    auto hlo = parseHloSharding(text, parseError);
    EXPECT_TRUE(hlo) << parseError.message;
    std::string error;
    auto sdy = toSdySharding(*hlo, global, "mesh", {}, rank, /*openDims=*/false, error);
    EXPECT_TRUE(sdy) << error;
    std::string out;
    if (sdy)
      ir::printTensorSharding(*sdy, out);
    return out;
  };
  EXPECT_EQ(importText("{devices=[4,8]<=[8,4]T(1,0)}", 2),
            "<@mesh, [{\"_axis_2\"}, {\"_axis_0\", \"_axis_1\"}]>");
  EXPECT_EQ(importText("{devices=[1,8,4]<=[2,4,4]T(0,2,1) last_tile_dim_replicate}", 2),
            "<@mesh, [{}, {\"_axis_0\", \"_axis_2\"}]>");
  EXPECT_EQ(importText("{devices=[1,4,8]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}", 2),
            "<@mesh, [{}, {\"_axis_1\"}]>");
  EXPECT_EQ(importText("{devices=[8,4]<=[32]}", 2),
            "<@mesh, [{\"_axis_0\", \"_axis_1\"}, {\"_axis_2\"}]>");
  EXPECT_EQ(importText("{devices=[8,1,4]<=[2,4,4]T(1,0,2) last_tile_dim_replicate}", 2),
            "<@mesh, [{\"_axis_1\", \"_axis_0\"}, {}]>");
  EXPECT_EQ(importText("{unknown}", 2), "<@mesh, [{?}, {?}]>");
  EXPECT_EQ(importText("{replicated}", 2), "<@mesh, [{}, {}]>");
  // A sharding for another rank does not fit.
  HloShardingParseError parseError;
  std::string error;
  EXPECT_FALSE(toSdySharding(*parseHloSharding("{devices=[4,8]<=[32]}", parseError), global,
                             "mesh", {}, 3, false, error));
  EXPECT_EQ(error, "\"{devices=[4,8]<=[32]}\" tiles 2 dimensions, the value has rank 3");
}

// A random valid sharding of a rank-`rank` value on `m`: each axis, cut into sub-axes at random,
// goes to a random dimension, to the replicated set or nowhere.
ir::TensorSharding randomSharding(const ir::Mesh& m, int64_t rank, std::mt19937& rng) {
  ir::TensorSharding s = sharding(std::vector<std::vector<ir::AxisRef>>(rank));
  std::vector<ir::AxisRef> pieces;
  for (const ir::MeshAxis& a : m.axes) {
    if (a.size == 4 && rng() % 2) {
      pieces.push_back(sub(a.name, 1, 2));
      pieces.push_back(sub(a.name, 2, 2));
    } else {
      pieces.push_back(axis(a.name));
    }
  }
  std::shuffle(pieces.begin(), pieces.end(), rng);
  for (const ir::AxisRef& piece : pieces) {
    int64_t where = static_cast<int64_t>(rng() % (rank + 2));
    if (where < rank)
      s.dims[where].axes.push_back(piece);
    else if (where == rank)
      s.replicatedAxes.push_back(piece);
  }
  return s;
}

TEST(RoundTripTest, ImportOfExportIsTheSameSharding) {
  // export(s) printed and parsed, imported onto the mesh derived from it, exported again: the
  // same GSPMD string (the same devices hold the same tiles).
  std::mt19937 rng(1234);
  std::vector<ir::Mesh> meshes = {mesh({{"x", 8}}), mesh({{"x", 2}, {"y", 4}}),
                                  mesh({{"a", 4}, {"b", 2}, {"c", 3}}),
                                  mesh({{"p", 2}, {"q", 2}, {"r", 2}, {"s", 2}})};
  int checked = 0;
  for (int iteration = 0; iteration < 400; ++iteration) {
    const ir::Mesh& m = meshes[iteration % meshes.size()];
    int64_t rank = 1 + static_cast<int64_t>(rng() % 3);
    ir::TensorSharding original = randomSharding(m, rank, rng);
    std::string text = toHloSharding(original, m).toString();
    HloShardingParseError parseError;
    std::optional<HloSharding> parsed = parseHloSharding(text, parseError);
    ASSERT_TRUE(parsed) << text << ": " << parseError.message;
    ASSERT_EQ(parsed->toString(), text);
    if (!parsed->isTiled())
      continue;
    auto analysis = analyzeTileAssignment(parsed->tiles);
    ASSERT_TRUE(analysis) << text;
    ir::Mesh derived;
    for (size_t i = 0; i < analysis->localMesh.size(); ++i)
      derived.axes.push_back({"axis_" + std::to_string(i), analysis->localMesh[i]});
    std::string error;
    auto imported = toSdySharding(*parsed, derived, "mesh", {}, rank, false, error);
    ASSERT_TRUE(imported) << text << ": " << error;
    EXPECT_EQ(toHloSharding(*imported, derived).toString(), text);
    ++checked;
  }
  EXPECT_GT(checked, 250); // the rest were fully replicated
}

} // namespace
