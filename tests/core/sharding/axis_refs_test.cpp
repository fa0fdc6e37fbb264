#include "core/sharding/axis_refs.h"

#include <gtest/gtest.h>

using namespace shardscope;
using namespace shardscope::sharding;

namespace {
ir::AxisRef full(const char* name) { return {name, std::nullopt}; }
ir::AxisRef sub(const char* name, int64_t pre, int64_t size) {
  return {name, ir::SubAxisInfo{pre, size}};
}
} // namespace

TEST(AxisRefsTest, ContainsAndOverlaps) {
  EXPECT_TRUE(axisContains(full("x"), sub("x", 2, 2)));
  EXPECT_FALSE(axisContains(sub("x", 2, 2), full("x")));
  EXPECT_TRUE(axisContains(sub("x", 1, 8), sub("x", 2, 2)));
  EXPECT_FALSE(axisContains(sub("x", 1, 2), sub("x", 2, 2)));
  EXPECT_FALSE(axisContains(full("x"), full("y")));
  // The overlap example of the Shardy docs: "x":(1)4 and "x":(2)4.
  EXPECT_TRUE(axisOverlaps(sub("x", 1, 4), sub("x", 2, 4)));
  EXPECT_FALSE(axisOverlaps(sub("x", 1, 2), sub("x", 2, 4)));
  EXPECT_FALSE(axisOverlaps(sub("x", 2, 4), sub("x", 1, 2)));
  EXPECT_TRUE(axisOverlaps(full("x"), sub("x", 4, 2)));
  EXPECT_FALSE(axisOverlaps(full("x"), full("y")));
}

TEST(AxisRefsTest, PrefixSuffixAndMerge) {
  ir::Mesh m{{{"x", 8}}, {}};
  MeshView mesh(m);
  EXPECT_TRUE(axisPrefixOf(sub("x", 1, 2), full("x")));
  EXPECT_FALSE(axisPrefixOf(sub("x", 2, 2), full("x")));
  EXPECT_TRUE(axisSuffixOf(sub("x", 4, 2), full("x"), mesh));
  EXPECT_TRUE(axisSuffixOf(sub("x", 2, 4), full("x"), mesh));
  EXPECT_FALSE(axisSuffixOf(sub("x", 2, 2), full("x"), mesh));
  // "x":(1)2 and "x":(2)4 are consecutive and make up the whole axis.
  EXPECT_TRUE(axisCanMerge(sub("x", 1, 2), sub("x", 2, 4)));
  EXPECT_EQ(axisMerge(sub("x", 1, 2), sub("x", 2, 4), mesh), full("x"));
  EXPECT_TRUE(axisCanMerge(sub("x", 2, 2), sub("x", 4, 2)));
  EXPECT_EQ(axisMerge(sub("x", 2, 2), sub("x", 4, 2), mesh), sub("x", 2, 4));
  EXPECT_FALSE(axisCanMerge(sub("x", 1, 2), sub("x", 4, 2)));
  EXPECT_FALSE(axisCanMerge(full("x"), sub("x", 8, 1)));
}

TEST(AxisRefsTest, PrefixWithoutOverlap) {
  EXPECT_EQ(axisPrefixWithoutOverlap(full("x"), sub("x", 2, 4)), sub("x", 1, 2));
  EXPECT_EQ(axisPrefixWithoutOverlap(full("x"), full("x")), std::nullopt);
  EXPECT_EQ(axisPrefixWithoutOverlap(full("y"), full("x")), full("y"));
  EXPECT_EQ(axisPrefixWithoutOverlap(sub("x", 2, 2), sub("x", 1, 4)), std::nullopt);
}

// Shardy: shardy/dialect/sdy/ir/dialect.cc, AxisRefAttr::canCoexist (expected values derived by
// hand from its rule).
TEST(AxisRefsTest, SubAxesCoexistOnlyInOneDecompositionOfTheAxis) {
  // Disjoint: the gap [2, 3) of an axis of size 6 is no sub-axis.
  EXPECT_FALSE(axisCanCoexist(sub("a", 1, 2), sub("a", 3, 2)));
  // Disjoint and adjacent: 6 = 2 x 3.
  EXPECT_TRUE(axisCanCoexist(sub("a", 1, 2), sub("a", 2, 3)));
  // Overlapping [1, 4) and [2, 8): shared [2, 4), ends [1, 2) and [4, 8) are all sub-axes.
  EXPECT_TRUE(axisCanCoexist(sub("a", 1, 4), sub("a", 2, 4)));
  // Overlapping [1, 4) and [2, 6): the end [4, 6) is no sub-axis.
  EXPECT_FALSE(axisCanCoexist(sub("a", 1, 4), sub("a", 2, 3)));
  EXPECT_TRUE(axisCanCoexist(full("a"), sub("a", 3, 2)));
  EXPECT_TRUE(axisCanCoexist(sub("b", 1, 2), sub("a", 3, 2)));
  // Without a common decomposition there is no prefix either.
  EXPECT_EQ(axisPrefixWithoutOverlap(sub("a", 1, 2), sub("a", 3, 2)), std::nullopt);
}

// Shardy: shardy/dialect/sdy/ir/utils.cc, getAxisSetDiff (expected values derived by hand).
TEST(AxisRefsTest, SetDiffKeepsTheUncoveredParts) {
  ir::Mesh m{{{"x", 8}, {"y", 2}}, {}};
  MeshView mesh(m);
  using List = std::vector<ir::AxisRef>;
  EXPECT_EQ(axisRefSetDiff(List{full("x")}, List{sub("x", 2, 2)}, mesh),
            (List{sub("x", 1, 2), sub("x", 4, 2)}));
  EXPECT_EQ(axisRefSetDiff(List{full("x"), full("y")}, List{full("y")}, mesh), List{full("x")});
  EXPECT_EQ(axisRefSetDiff(List{sub("x", 1, 4)}, List{full("x")}, mesh), List{});
  EXPECT_EQ(axisRefSetDiff(List{full("x")}, List{sub("x", 1, 2), sub("x", 2, 4)}, mesh), List{});
}

TEST(AxisRefsTest, MeshOrderPutsSubAxesBeforeTheFullAxis) {
  ir::Mesh m{{{"c", 2}, {"a", 8}, {"b", 2}}, {}};
  MeshView mesh(m);
  std::vector<ir::AxisRef> sorted{full("c"), sub("a", 1, 2), sub("a", 4, 2), full("a"), full("b")};
  EXPECT_TRUE(isMeshSorted(mesh, sorted));
  std::vector<ir::AxisRef> unsorted{full("a"), full("c")};
  EXPECT_FALSE(isMeshSorted(mesh, unsorted));
  std::vector<ir::AxisRef> subUnsorted{sub("a", 4, 2), sub("a", 1, 2)};
  EXPECT_FALSE(isMeshSorted(mesh, subUnsorted));
}

TEST(AxisRefsTest, SortAndMergeCombinesConsecutiveSubAxes) {
  ir::Mesh m{{{"x", 4}, {"y", 4}}, {}};
  MeshView mesh(m);
  std::vector<ir::AxisRef> merged = sortAndMerge({full("y"), sub("x", 2, 2), sub("x", 1, 2)}, mesh);
  EXPECT_EQ(merged, (std::vector<ir::AxisRef>{full("x"), full("y")}));
}

TEST(AxisRefsTest, PrintsShardySyntax) {
  EXPECT_EQ(axisRefString(sub("x", 2, 4)), "\"x\":(2)4");
  std::vector<ir::AxisRef> list{full("x"), sub("y", 1, 2)};
  EXPECT_EQ(axisRefListString(list), "[\"x\", \"y\":(1)2]");
  EXPECT_EQ(axisRefListString({}), "[]");
}
