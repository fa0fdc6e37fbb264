#include "core/sharding/mesh_view.h"

#include <gtest/gtest.h>

using namespace shardscope;
using sharding::MeshView;

namespace {
ir::Mesh mesh(std::vector<ir::MeshAxis> axes, std::vector<int64_t> ids = {}) {
  return ir::Mesh{std::move(axes), std::move(ids)};
}
ir::AxisRef full(const char* name) { return {name, std::nullopt}; }
ir::AxisRef sub(const char* name, int64_t pre, int64_t size) {
  return {name, ir::SubAxisInfo{pre, size}};
}
} // namespace

TEST(MeshViewTest, AxisSizesAndTotal) {
  ir::Mesh m = mesh({{"x", 2}, {"y", 4}, {"z", 3}});
  MeshView view(m);
  EXPECT_EQ(view.numAxes(), 3u);
  EXPECT_EQ(view.axisSize("x"), 2);
  EXPECT_EQ(view.axisSize("y"), 4);
  EXPECT_EQ(view.axisSize("z"), 3);
  EXPECT_EQ(view.axisSize("w"), 0);
  EXPECT_EQ(view.axisIndex("z"), 2u);
  EXPECT_FALSE(view.hasAxis("w"));
  EXPECT_EQ(view.totalSize(), 24);
  EXPECT_FALSE(view.isMaximal());
  EXPECT_FALSE(view.isEmpty());
}

TEST(MeshViewTest, MaximalAndEmptyMeshes) {
  ir::Mesh maximal = mesh({}, {5});
  EXPECT_TRUE(MeshView(maximal).isMaximal());
  EXPECT_EQ(MeshView(maximal).maximalDeviceId(), 5);
  EXPECT_EQ(MeshView(maximal).deviceIds(), std::vector<int64_t>{5});
  ir::Mesh empty = mesh({});
  EXPECT_TRUE(MeshView(empty).isEmpty());
  EXPECT_FALSE(MeshView(empty).isMaximal());
  EXPECT_EQ(MeshView(empty).totalSize(), 1);
}

TEST(MeshViewTest, IotaDeviceOrderIsRowMajor) {
  // The 2x2 mesh of the Shardy docs: devices [0, 1, 2, 3] reshaped to [[0, 1], [2, 3]].
  ir::Mesh m = mesh({{"x", 2}, {"y", 2}});
  MeshView view(m);
  EXPECT_EQ(view.deviceIds(), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(view.coordinatesOf(0), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(view.coordinatesOf(1), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(view.coordinatesOf(2), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(view.coordinatesOf(3), (std::vector<int64_t>{1, 1}));
  EXPECT_FALSE(view.coordinatesOf(4).has_value());
}

TEST(MeshViewTest, ExplicitDeviceIdsPermuteTheArray) {
  ir::Mesh m = mesh({{"x", 2}, {"y", 3}}, {5, 4, 3, 2, 1, 0});
  MeshView view(m);
  EXPECT_EQ(view.deviceIdAt(0), 5);
  EXPECT_EQ(view.deviceIdAt(5), 0);
  EXPECT_EQ(view.positionOf(4), 1);
  EXPECT_FALSE(view.positionOf(6).has_value());
  // Device 0 sits at the last position: x=1, y=2.
  EXPECT_EQ(view.coordinatesOf(0), (std::vector<int64_t>{1, 2}));
  // Device 3 sits at position 2: x=0, y=2.
  EXPECT_EQ(view.coordinatesOf(3), (std::vector<int64_t>{0, 2}));
  const std::vector<int64_t> coords{1, 0};
  EXPECT_EQ(view.positionAt(coords), 3);
}

TEST(MeshViewTest, SubAxisArithmetic) {
  ir::Mesh m = mesh({{"x", 16}});
  MeshView view(m);
  // "x":(2)4 reshapes x=16 into [2, 4, 2].
  EXPECT_EQ(view.sizeOf(sub("x", 2, 4)), 4);
  EXPECT_EQ(MeshView::preSizeOf(sub("x", 2, 4)), 2);
  EXPECT_EQ(view.nextPreSizeOf(sub("x", 2, 4)), 8);
  EXPECT_EQ(view.postSizeOf(sub("x", 2, 4)), 2);
  EXPECT_EQ(view.sizeOf(full("x")), 16);
  EXPECT_EQ(MeshView::preSizeOf(full("x")), 1);
  EXPECT_EQ(view.postSizeOf(full("x")), 1);
  // A sub-axis whose next pre-size doesn't divide the axis has no post-size.
  EXPECT_EQ(view.postSizeOf(sub("x", 3, 2)), 0);
}

TEST(MeshViewTest, IndexAlongSubAxes) {
  ir::Mesh m = mesh({{"x", 8}});
  MeshView view(m);
  // Coordinate c of x=8 splits into [2, 2, 2] digits (major to minor): c = 4*a + 2*b + c0.
  for (int64_t c = 0; c < 8; ++c) {
    EXPECT_EQ(view.indexAlong(sub("x", 1, 2), c), c / 4) << c;
    EXPECT_EQ(view.indexAlong(sub("x", 2, 2), c), (c / 2) % 2) << c;
    EXPECT_EQ(view.indexAlong(sub("x", 4, 2), c), c % 2) << c;
    EXPECT_EQ(view.indexAlong(sub("x", 2, 4), c), c % 4) << c;
    EXPECT_EQ(view.indexAlong(full("x"), c), c) << c;
  }
  EXPECT_FALSE(view.indexAlong(full("nope"), 0).has_value());
}

// Mesh [x=2, y=4], positions x*4+y. Along y every device sends to y+1 (mod 4); along the
// sub-axis y:(2)2 (y = 2*hi + lo, the sub-axis is lo) each device pairs with the one whose lo
// digit differs: 0<->1, 2<->3, 4<->5, 6<->7.
TEST(MeshViewTest, RingHopsAlongAxesAndSubAxes) {
  ir::Mesh m = mesh({{"x", 2}, {"y", 4}});
  MeshView view(m);
  std::vector<MeshView::RingHop> y = view.ringHops(full("y"));
  ASSERT_EQ(y.size(), 8u);
  EXPECT_EQ(y[0].to, 1);
  EXPECT_EQ(y[3].to, 0);
  EXPECT_TRUE(y[3].wraps);
  EXPECT_FALSE(y[2].wraps);
  EXPECT_EQ(y[7].to, 4);
  std::vector<MeshView::RingHop> x = view.ringHops(full("x"));
  ASSERT_EQ(x.size(), 8u);
  EXPECT_EQ(x[1].to, 5);
  EXPECT_EQ(x[5].to, 1);
  std::vector<MeshView::RingHop> lo = view.ringHops(sub("y", 2, 2));
  ASSERT_EQ(lo.size(), 8u);
  for (int64_t p = 0; p < 8; ++p)
    EXPECT_EQ(lo[p].to, p ^ 1) << p;
  std::vector<MeshView::RingHop> hi = view.ringHops(sub("y", 1, 2));
  EXPECT_EQ(hi[0].to, 2);
  EXPECT_EQ(hi[1].to, 3);
  EXPECT_EQ(hi[6].to, 4);
  EXPECT_TRUE(view.ringHops(full("w")).empty());
  ir::Mesh single = mesh({{"x", 1}});
  EXPECT_TRUE(MeshView(single).ringHops(full("x")).empty());
}

// The devices of one collective group differ only along its axes.
TEST(MeshViewTest, GroupsAlongAxes) {
  ir::Mesh m = mesh({{"x", 2}, {"y", 4}});
  MeshView view(m);
  ir::AxisRef y[] = {full("y")};
  EXPECT_EQ(view.groupsAlong(y), (std::vector<int64_t>{0, 0, 0, 0, 1, 1, 1, 1}));
  ir::AxisRef x[] = {full("x")};
  EXPECT_EQ(view.groupsAlong(x), (std::vector<int64_t>{0, 1, 2, 3, 0, 1, 2, 3}));
  ir::AxisRef lo[] = {sub("y", 2, 2)};
  EXPECT_EQ(view.groupsAlong(lo), (std::vector<int64_t>{0, 0, 1, 1, 2, 2, 3, 3}));
  ir::AxisRef both[] = {full("x"), sub("y", 1, 2)};
  EXPECT_EQ(view.groupsAlong(both), (std::vector<int64_t>{0, 1, 0, 1, 0, 1, 0, 1}));
  ir::AxisRef unknown[] = {full("w")};
  EXPECT_EQ(view.groupsAlong(unknown), std::vector<int64_t>(8, -1));
}
