#include "core/layout/program_graph.h"

#include "core/io/mlir/mlir.h"
#include "core/layout/graph_view.h"
#include "core/support/source_manager.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace shardscope::layout {
namespace {

struct Parsed {
  support::SourceManager sources;
  std::unique_ptr<ir::Module> module;
  std::unordered_map<const ir::Value*, std::string> names;
};

std::unique_ptr<Parsed> parse(const std::string& text) {
  auto p = std::make_unique<Parsed>();
  uint32_t file = p->sources.addBuffer("test.mlir", text);
  support::CollectingSink sink;
  p->module = io::mlir::parseModule(p->sources.text(file), file, sink);
  EXPECT_TRUE(p->module) << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  if (p->module)
    p->names = io::mlir::printedValueNames(*p->module);
  return p;
}

ProgramGraph graphOf(const Parsed& p, GraphAnnotations annotations = {},
                     const BuildOptions& options = {}) {
  annotations.valueNames = &p.names;
  return buildProgramGraph(*p.module, *p.module->lookupFunction("main"), annotations, options);
}

constexpr const char* kReshardChain = R"(sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  %1 = stablehlo.abs %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
)";

constexpr const char* kShardMap = R"(sdy.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%arg0: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> tensor<32x64xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"data"}, {}]>] out_shardings=[<@mesh, [{"data"}, {}]>] manual_axes={"data"} (%arg1: tensor<8x64xf32>) {
    %1 = stablehlo.tanh %arg1 : tensor<8x64xf32>
    sdy.return %1 : tensor<8x64xf32>
  } : (tensor<32x64xf32>) -> tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
}
)";

// `n` ops; with `chain`, each uses the previous result once (a foldable chain), else twice.
std::string longProgram(int n, bool chain) {
  std::string text = "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n";
  std::string prev = "%arg0";
  for (int i = 0; i < n; ++i) {
    std::string v = "%v" + std::to_string(i);
    text += "  " + v + (chain ? " = stablehlo.tanh " + prev : " = stablehlo.add " + prev + ", " + prev) +
            " : tensor<4xf32>\n";
    prev = v;
  }
  return text + "  return " + prev + " : tensor<4xf32>\n}\n";
}

TEST(ProgramGraphTest, OpsBecomeNodesAndValuesBecomeTypedEdges) {
  auto p = parse(kReshardChain);
  ProgramGraph g = graphOf(*p);
  ASSERT_EQ(g.nodes.size(), 4u); // arg0, negate, abs, return
  EXPECT_EQ(g.nodes[0].id, "arg0");
  EXPECT_EQ(g.nodes[1].id, "L3C3:negate");
  EXPECT_EQ(g.nodes[1].kind, NodeKind::Op);
  EXPECT_EQ(g.nodes[3].id, "return");
  ASSERT_EQ(g.edges.size(), 3u);
  EXPECT_EQ(g.edges[0].label, "f32[8@x,8]");
  EXPECT_EQ(g.edges[1].label, "f32[8@x,8]");
  EXPECT_EQ(g.edges[2].label, "f32[8,8@x]");
  EXPECT_EQ(g.edges[2].value, "%1");
  EXPECT_EQ(g.opCount, 2);
}

TEST(ProgramGraphTest, ManualComputationIsAClusterWithEntryAndExit) {
  auto p = parse(kShardMap);
  GraphAnnotations annotations;
  ProgramGraph g = graphOf(*p, annotations);
  ASSERT_EQ(g.clusters.size(), 1u);
  const GraphCluster& c = g.clusters[0];
  EXPECT_EQ(c.kind, ClusterKind::ManualComputation);
  EXPECT_EQ(c.id, "cluster:L3C3:manual_computation");
  ASSERT_EQ(c.nodes.size(), 3u);
  EXPECT_EQ(g.nodes[c.nodes.front()].kind, NodeKind::RegionEntry);
  EXPECT_EQ(g.nodes[c.nodes.back()].kind, NodeKind::RegionExit);
  EXPECT_NE(c.label.find("manual_axes = {data}"), std::string::npos) << c.label;
  // The body's value is local: 8 rows per device.
  bool local = false;
  for (const GraphEdge& e : g.edges)
    local |= e.label == "f32[8,64]";
  EXPECT_TRUE(local);
}

TEST(ProgramGraphTest, MarksCollectivesAndPbroadcasts) {
  auto p = parse(kReshardChain);
  const ir::Operation* abs = nullptr;
  p->module->op().walk([&](const ir::Operation& op) {
    if (op.is("stablehlo.abs"))
      abs = &op;
  });
  GraphAnnotations annotations;
  annotations.ops[abs] = OpMark{true, true, 64, "inserted for a test"};
  annotations.pbroadcasts.push_back({abs, 0, "{\"y\"}", "mixed operands"});
  ProgramGraph g = graphOf(*p, annotations);
  int a = g.findNode("L4C3:collective#0");
  ASSERT_GE(a, 0);
  EXPECT_EQ(g.nodes[a].kind, NodeKind::InsertedCollective);
  EXPECT_EQ(g.nodes[a].bytes, 64);
  int pv = g.findNode("L4C3:collective#0/pvary0");
  ASSERT_GE(pv, 0);
  EXPECT_EQ(g.nodes[pv].kind, NodeKind::Pbroadcast);
  EXPECT_EQ(g.nodes[pv].bytes, 0);
}

TEST(ProgramGraphTest, IdsAreStableAcrossBuilds) {
  auto p = parse(kShardMap);
  auto q = parse(kShardMap);
  ProgramGraph a = graphOf(*p), b = graphOf(*q);
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (size_t i = 0; i < a.nodes.size(); ++i)
    EXPECT_EQ(a.nodes[i].id, b.nodes[i].id);
}

TEST(ProgramGraphTest, LongChainsFoldIntoOneSummaryInLargePrograms) {
  auto p = parse(longProgram(1000, /*chain=*/true));
  ProgramGraph g = graphOf(*p);
  EXPECT_EQ(g.opCount, 1000);
  VisibleGraph v = visibleGraph(g, CollapseState{});
  // arg, return and a handful of segment/chain summaries.
  EXPECT_LE(v.nodes.size(), 50u);
  EXPECT_EQ(v.hiddenNodes, 1000);
  for (const VisibleNode& n : v.nodes)
    EXPECT_TRUE(n.kind == NodeKind::Summary || n.kind == NodeKind::Argument ||
                n.kind == NodeKind::Result);
}

TEST(ProgramGraphTest, HugeBlocksSplitIntoBoundedSegments) {
  auto p = parse(longProgram(5000, /*chain=*/false));
  BuildOptions options;
  ProgramGraph g = graphOf(*p, {}, options);
  for (const GraphCluster& c : g.clusters)
    EXPECT_LE(c.nodes.size() + c.children.size(), static_cast<size_t>(options.maxBlockOps));
  VisibleGraph v = visibleGraph(g, CollapseState{});
  EXPECT_LE(v.nodes.size(), static_cast<size_t>(options.segmentFanout) + 2);
  // Expanding one segment shows its members and keeps the rest folded.
  CollapseState state;
  state.expanded.insert(g.clusters[0].id);
  VisibleGraph opened = visibleGraph(g, state);
  EXPECT_GT(opened.nodes.size(), v.nodes.size());
  EXPECT_EQ(opened.clusters.size(), 1u);
}

TEST(ProgramGraphTest, SmallProgramsOpenExpandedAndDepthCollapses) {
  auto p = parse(kShardMap);
  ProgramGraph g = graphOf(*p);
  VisibleGraph open = visibleGraph(g, CollapseState{});
  EXPECT_EQ(open.clusters.size(), 1u);
  EXPECT_EQ(open.hiddenNodes, 0);
  CollapseState shut;
  shut.depth = 0;
  VisibleGraph folded = visibleGraph(g, shut);
  EXPECT_TRUE(folded.clusters.empty());
  int summary = folded.findNode("cluster:L3C3:manual_computation");
  ASSERT_GE(summary, 0);
  EXPECT_EQ(folded.nodes[summary].kind, NodeKind::Summary);
  // The argument still flows into the folded computation, and out of it to the return.
  ASSERT_EQ(folded.edges.size(), 2u);
  EXPECT_EQ(folded.edges[0].to, summary);
  EXPECT_EQ(folded.edges[1].from, summary);
}

TEST(ProgramGraphTest, WidelyUsedValuesGetStandInsInsteadOfLongEdges) {
  std::string text = "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n";
  std::string prev = "%arg0";
  for (int i = 0; i < 20; ++i) {
    std::string v = "%v" + std::to_string(i);
    text += "  " + v + " = stablehlo.add " + prev + ", %arg0 : tensor<4xf32>\n";
    prev = v;
  }
  text += "  return " + prev + " : tensor<4xf32>\n}\n";
  auto p = parse(text);
  VisibleGraph v = visibleGraph(graphOf(*p), CollapseState{});
  int arg = v.findNode("arg0");
  int fromArg = 0, refs = 0;
  for (const VisibleEdge& e : v.edges)
    fromArg += e.from == arg;
  for (const VisibleNode& n : v.nodes)
    refs += n.kind == NodeKind::ValueRef;
  EXPECT_EQ(fromArg, CollapseState{}.keptFanout);
  EXPECT_EQ(refs, 20 - CollapseState{}.keptFanout);
  // The first two adds (lines 2 and 3) keep their edges; the third gets a stand-in.
  EXPECT_GE(v.findNode("L4C3:add/ref:arg0"), 0);
}

} // namespace
} // namespace shardscope::layout

namespace shardscope::layout {
namespace {

// JAX names its ops in their debug locations: `"dot_general:"("jit(f)/jit(main)/dot_general"(...))`
// (the outer short name, the full path inside) and its arguments with `loc("x")`.
constexpr const char* kJaxNamed = R"(func.func @main(%arg0: tensor<4x8xf32> loc("x"), %arg1: tensor<8x2xf32> loc("w")) -> tensor<4x2xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32> loc(#loc2)
  %1 = stablehlo.tanh %0 : tensor<4x2xf32> loc(#loc3)
  %2 = stablehlo.abs %1 : tensor<4x2xf32>
  return %2 : tensor<4x2xf32>
}
#loc1 = loc("f.py":3:9)
#loc2 = loc("dot_general:"("jit(f)/jit(main)/dot_general[precision=None]"(#loc1)))
#loc3 = loc("jit(f)/jit(main)/tanh"(#loc1))
)";

const GraphNode* nodeOf(const ProgramGraph& g, std::string_view opName) {
  for (const GraphNode& n : g.nodes)
    if (n.opName == opName)
      return &n;
  return nullptr;
}

TEST(ProgramGraphJaxNamesTest, NodesCarryTheJaxNameAndShowItsLastComponent) {
  auto p = parse(kJaxNamed);
  ProgramGraph g = graphOf(*p);
  const GraphNode* dot = nodeOf(g, "stablehlo.dot_general");
  ASSERT_TRUE(dot);
  EXPECT_EQ(dot->jaxName, "jit(f)/jit(main)/dot_general[precision=None]");
  // The title already says `dot_general`: no extra line.
  EXPECT_EQ(dot->title, "dot_general");
  for (const std::string& line : dot->attributes)
    EXPECT_NE(line, "\"dot_general\"");
  const GraphNode* tanh = nodeOf(g, "stablehlo.tanh");
  ASSERT_TRUE(tanh);
  EXPECT_EQ(tanh->jaxName, "jit(f)/jit(main)/tanh");
  const GraphNode* abs = nodeOf(g, "stablehlo.abs");
  ASSERT_TRUE(abs);
  EXPECT_EQ(abs->jaxName, "");
  // Arguments: the name JAX gave them is a line under `%arg0`.
  ASSERT_GE(g.nodes.size(), 2u);
  EXPECT_EQ(g.nodes[0].title, "%arg0");
  EXPECT_EQ(g.nodes[0].jaxName, "x");
  EXPECT_EQ(g.nodes[0].attributes, std::vector<std::string>{"\"x\""});
}

TEST(ProgramGraphJaxNamesTest, AJaxNameThatSaysMoreBecomesALabelLine) {
  auto p = parse(R"(func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.multiply %arg0, %arg0 : tensor<4xf32> loc("jit(f)/jit(main)/integer_pow"("f.py":1:1))
  return %0 : tensor<4xf32>
}
)");
  ProgramGraph g = graphOf(*p);
  const GraphNode* mul = nodeOf(g, "stablehlo.multiply");
  ASSERT_TRUE(mul);
  EXPECT_EQ(mul->title, "multiply");
  ASSERT_FALSE(mul->attributes.empty());
  EXPECT_EQ(mul->attributes.front(), "\"integer_pow\"");
  EXPECT_EQ(mul->jaxName, "jit(f)/jit(main)/integer_pow");
}

} // namespace
} // namespace shardscope::layout
