#include "core/layout/graph_layout.h"

#include "core/io/mlir/mlir.h"
#include "core/layout/dot_writer.h"
#include "core/layout/svg_writer.h"
#include "core/support/source_manager.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace shardscope::layout {
namespace {

constexpr const char* kProgram = R"(sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x8xf32>) {
    %1 = stablehlo.tanh %arg1 : tensor<4x8xf32>
    %2 = stablehlo.add %1, %arg1 : tensor<4x8xf32>
    sdy.return %2 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = stablehlo.negate %0 : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
)";

class GraphLayoutTest : public ::testing::Test {
protected:
  void SetUp() override {
    uint32_t file = m_sources.addBuffer("t.mlir", kProgram);
    support::CollectingSink sink;
    m_module = io::mlir::parseModule(m_sources.text(file), file, sink);
    ASSERT_TRUE(m_module);
    m_names = io::mlir::printedValueNames(*m_module);
    GraphAnnotations annotations;
    annotations.valueNames = &m_names;
    m_graph = buildProgramGraph(*m_module, *m_module->lookupFunction("main"), annotations);
    m_visible = visibleGraph(m_graph, CollapseState{});
  }
  support::SourceManager m_sources;
  std::unique_ptr<ir::Module> m_module;
  std::unordered_map<const ir::Value*, std::string> m_names;
  ProgramGraph m_graph;
  VisibleGraph m_visible;
};

TEST_F(GraphLayoutTest, DotIsDeterministicAndNamesEveryNode) {
  std::string a = writeDot(m_visible), b = writeDot(m_visible);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.rfind("digraph \"main\" {", 0), 0u);
  EXPECT_NE(a.find("subgraph \"cluster_0\""), std::string::npos);
  for (const VisibleNode& n : m_visible.nodes)
    EXPECT_NE(a.find("\"" + n.id + "\" [label="), std::string::npos) << n.id;
  EXPECT_EQ(std::count(a.begin(), a.end(), '{'), std::count(a.begin(), a.end(), '}'));
  EXPECT_NE(a.find("label=\"f32[4,8]\""), std::string::npos);
}

TEST_F(GraphLayoutTest, LayoutPlacesEveryVisibleNodeInsideTheDrawing) {
  LayoutResult result = layoutGraph(m_visible);
  ASSERT_EQ(result.status, LayoutStatus::Ok) << result.error;
  const GraphLayout& layout = result.layout;
  ASSERT_EQ(layout.nodes.size(), m_visible.nodes.size());
  for (const NodeBox& box : layout.nodes) {
    EXPECT_GT(box.width, 0);
    EXPECT_GT(box.height, 0);
    EXPECT_GE(box.center.x, 0);
    EXPECT_LE(box.center.x, layout.width);
    EXPECT_GE(box.center.y, 0);
    EXPECT_LE(box.center.y, layout.height);
  }
  for (const EdgeSpline& e : layout.edges)
    EXPECT_GE(e.points.size(), 4u);
  ASSERT_EQ(layout.clusters.size(), 1u);
  EXPECT_GT(layout.clusters[0].width, 0);
  // Arguments come first from the top (y grows downwards).
  EXPECT_LT(layout.nodes[m_visible.findNode("arg0")].center.y,
            layout.nodes[m_visible.findNode("return")].center.y);
}

TEST_F(GraphLayoutTest, SizeGuardRefusesLargeGraphs) {
  LayoutOptions options;
  options.maxNodes = 3;
  LayoutResult result = layoutGraph(m_visible, options);
  EXPECT_EQ(result.status, LayoutStatus::TooLarge);
  EXPECT_NE(result.error.find("visible nodes"), std::string::npos);
}

TEST_F(GraphLayoutTest, CancelledRequestsReturnCancelled) {
  std::atomic<bool> cancel{true};
  LayoutOptions options;
  options.cancel = &cancel;
  EXPECT_EQ(layoutGraph(m_visible, options).status, LayoutStatus::Cancelled);
}

TEST_F(GraphLayoutTest, SvgDrawsEveryNodeEdgeAndCluster) {
  LayoutResult result = layoutGraph(m_visible);
  ASSERT_EQ(result.status, LayoutStatus::Ok);
  std::string svg = writeSvg(m_visible, result.layout);
  EXPECT_EQ(svg, writeSvg(m_visible, result.layout));
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  size_t nodes = 0, pos = 0;
  while ((pos = svg.find("<g class=\"node ", pos)) != std::string::npos)
    ++nodes, ++pos;
  EXPECT_EQ(nodes, m_visible.nodes.size());
  EXPECT_NE(svg.find("class=\"cluster manual-computation\""), std::string::npos);
  EXPECT_NE(svg.find("f32[4,8]"), std::string::npos);
}

TEST_F(GraphLayoutTest, ParsesPlainOutput) {
  // What `dot -Tplain` prints for a two-node graph (scale 1, inches, y up).
  std::string plain = "graph 1 2 3\n"
                      "node arg0 1 2.5 0.75 0.5 arg0 solid box black lightgrey\n"
                      "node return 1 0.5 0.75 0.5 return solid box black lightgrey\n"
                      "stop\n";
  VisibleGraph g;
  g.nodes.resize(2);
  g.nodes[0].id = "arg0";
  g.nodes[1].id = "return";
  GraphLayout layout;
  std::string error;
  ASSERT_TRUE(parsePlainLayout(plain, g, layout, error)) << error;
  EXPECT_DOUBLE_EQ(layout.width, 144);
  EXPECT_DOUBLE_EQ(layout.nodes[0].center.y, 216 - 180);
  EXPECT_DOUBLE_EQ(layout.nodes[1].width, 54);
  EXPECT_FALSE(parsePlainLayout("graph x\n", g, layout, error));
}

} // namespace
} // namespace shardscope::layout
