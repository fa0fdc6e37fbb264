// The local backend called directly from device threads: results, reduction order and the
// errors for mismatched calls, all without hanging.
#include "core/backends/local/local_communicator.h"

#include <gtest/gtest.h>

#include <functional>
#include <thread>

namespace shardscope::backends::local {
namespace {

using exec::CollectiveCall;
using exec::Tensor;

Tensor f32(std::vector<int64_t> shape, std::vector<double> values) {
  return Tensor::fromDoubles(ir::ElementType::F32, std::move(shape), values);
}

std::vector<double> values(const Tensor& t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numElements(); ++i)
    out.push_back(t.floatAt(i));
  return out;
}

CollectiveCall call(int64_t device, std::vector<int64_t> group,
                    std::string op = "stablehlo.all_reduce", std::string where = "3:5") {
  return {device, {std::move(op), {}, std::move(where)}, std::move(group)};
}

// Runs `body(device)` on one thread per device and joins them.
void onDevices(int64_t n, const std::function<void(int64_t)>& body) {
  std::vector<std::thread> threads;
  for (int64_t d = 0; d < n; ++d)
    threads.emplace_back(body, d);
  for (auto& t : threads)
    t.join();
}

TEST(LocalCommunicatorTest, AllReduceSumsOverEightDevices) {
  LocalCommunicator comm(8);
  std::vector<std::vector<double>> got(8);
  exec::Reduction add = exec::builtinReduction(exec::Reduction::Kind::Add);
  onDevices(8, [&](int64_t d) {
    auto r = comm.allReduce(call(d, {0, 1, 2, 3, 4, 5, 6, 7}),
                            {f32({2}, {double(d), 1.0})}, add);
    ASSERT_TRUE(r) << r.error();
    got[d] = values((*r)[0]);
  });
  for (const auto& g : got)
    EXPECT_EQ(g, (std::vector<double>{28, 8}));
}

TEST(LocalCommunicatorTest, ReductionRunsInAscendingDeviceOrder) {
  // A non-commutative combine records the order: (((x0 . x1) . x2) . x3) whatever the group
  // order and the arrival order.
  LocalCommunicator comm(4);
  exec::Reduction concatDigits;
  concatDigits.combine = [](const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
    Tensor t(a[0].elementType(), a[0].shape());
    t.setFloat(0, a[0].floatAt(0) * 10 + b[0].floatAt(0));
    return std::optional<std::vector<Tensor>>(std::vector<Tensor>{t});
  };
  std::vector<double> got(4);
  onDevices(4, [&](int64_t d) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5 * (3 - d)));
    Tensor in(ir::ElementType::F64, {});
    in.setFloat(0, static_cast<double>(d + 1));
    auto r = comm.allReduce(call(d, {3, 1, 0, 2}), {in}, concatDigits);
    ASSERT_TRUE(r) << r.error();
    got[d] = (*r)[0].floatAt(0);
  });
  for (double g : got)
    EXPECT_EQ(g, 1234);
}

TEST(LocalCommunicatorTest, InPlaceFastPathMatchesTheGenericReductionBitForBit) {
  // The builtin-kind path reduces in place; a Custom reduction with the same combine goes through
  // the generic path. Both follow ascending device order, so the f32 sums agree exactly even
  // though float addition is not associative.
  LocalCommunicator comm(4);
  exec::Reduction fast = exec::builtinReduction(exec::Reduction::Kind::Add);
  exec::Reduction generic = fast;
  generic.kind = exec::Reduction::Kind::Custom;
  std::vector<Tensor> a(4), b(4);
  onDevices(4, [&](int64_t d) {
    Tensor in = f32({3}, {1e8 * (d % 2 ? -1 : 1), 0.1 * (d + 1), 3.0 / (d + 1)});
    auto r1 = comm.allReduce(call(d, {2, 3, 0, 1}), {in}, fast);
    auto r2 = comm.allReduce(call(d, {2, 3, 0, 1}), {in}, generic);
    ASSERT_TRUE(r1 && r2);
    a[d] = (*r1)[0];
    b[d] = (*r2)[0];
  });
  for (int64_t d = 0; d < 4; ++d) {
    EXPECT_EQ(a[d], b[d]) << "device " << d;
    EXPECT_EQ(a[d], a[0]);
  }
}

TEST(LocalCommunicatorTest, IndependentGroupsRunConcurrently) {
  LocalCommunicator comm(4);
  std::vector<std::vector<double>> got(4);
  onDevices(4, [&](int64_t d) {
    std::vector<int64_t> group = d % 2 == 0 ? std::vector<int64_t>{0, 2}
                                            : std::vector<int64_t>{1, 3};
    auto r = comm.allGather(call(d, group, "stablehlo.all_gather"), f32({1}, {double(d)}), 0);
    ASSERT_TRUE(r) << r.error();
    got[d] = values(*r);
  });
  EXPECT_EQ(got[0], (std::vector<double>{0, 2}));
  EXPECT_EQ(got[3], (std::vector<double>{1, 3}));
}

TEST(LocalCommunicatorTest, ReduceScatterAllToAllPermuteBroadcast) {
  LocalCommunicator comm(2);
  exec::Reduction add = exec::builtinReduction(exec::Reduction::Kind::Add);
  std::vector<std::vector<double>> rs(2), a2a(2), perm(2), bc(2);
  onDevices(2, [&](int64_t d) {
    double base = d * 10;
    Tensor in = f32({2, 2}, {base + 1, base + 2, base + 3, base + 4});
    auto r1 = comm.reduceScatter(call(d, {0, 1}, "stablehlo.reduce_scatter"), in, 1, add);
    auto r2 = comm.allToAll(call(d, {0, 1}, "stablehlo.all_to_all"), in, 0, 1);
    auto r3 = comm.collectivePermute(call(d, {0, 1}, "stablehlo.collective_permute"), in,
                                     {{0, 1}});
    auto r4 = comm.collectiveBroadcast(call(d, {1, 0}, "stablehlo.collective_broadcast"), in);
    ASSERT_TRUE(r1 && r2 && r3 && r4);
    rs[d] = values(*r1);
    a2a[d] = values(*r2);
    perm[d] = values(*r3);
    bc[d] = values(*r4);
  });
  EXPECT_EQ(rs[0], (std::vector<double>{12, 16}));   // column 0 of the sum [[12,14],[16,18]]
  EXPECT_EQ(rs[1], (std::vector<double>{14, 18}));
  EXPECT_EQ(a2a[0], (std::vector<double>{1, 2, 11, 12})); // row 0 of each, side by side
  EXPECT_EQ(a2a[1], (std::vector<double>{3, 4, 13, 14}));
  EXPECT_EQ(perm[0], (std::vector<double>{0, 0, 0, 0}));
  EXPECT_EQ(perm[1], (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(bc[0], (std::vector<double>{11, 12, 13, 14}));
  EXPECT_EQ(bc[1], (std::vector<double>{11, 12, 13, 14}));
}

TEST(LocalCommunicatorTest, DifferentOpsFailForEveryMember) {
  LocalCommunicator comm(2);
  exec::Reduction add = exec::builtinReduction(exec::Reduction::Kind::Add);
  std::vector<std::string> errors(2);
  onDevices(2, [&](int64_t d) {
    if (d == 0) {
      auto r = comm.allReduce(call(0, {0, 1}, "stablehlo.all_reduce", "12:8"), {f32({1}, {1})},
                              add);
      errors[0] = r ? "" : r.error();
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      auto r = comm.allGather(call(1, {0, 1}, "stablehlo.all_gather", "14:8"), f32({1}, {1}), 0);
      errors[1] = r ? "" : r.error();
    }
  });
  std::string expected = "device 0 reached 'stablehlo.all_reduce' at 12:8 but device 1 reached "
                         "'stablehlo.all_gather' at 14:8 (group [0, 1])";
  EXPECT_EQ(errors[0], expected);
  EXPECT_EQ(errors[1], expected);
}

TEST(LocalCommunicatorTest, FinishedDeviceFailsTheWaiters) {
  LocalCommunicator comm(3);
  exec::Reduction add = exec::builtinReduction(exec::Reduction::Kind::Add);
  std::vector<std::string> errors(3);
  onDevices(3, [&](int64_t d) {
    if (d == 2) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      comm.deviceDone(2, /*failed=*/false);
      return;
    }
    auto r = comm.allReduce(call(d, {0, 1, 2}), {f32({1}, {1})}, add);
    errors[d] = r ? "" : r.error();
  });
  EXPECT_NE(errors[0].find("device 2 finished while devices 0,1 wait in 'stablehlo.all_reduce'"),
            std::string::npos)
      << errors[0];
  EXPECT_FALSE(errors[1].empty());
}

TEST(LocalCommunicatorTest, GroupsThatDisagreeDeadlockIsDetected) {
  LocalCommunicator comm(2);
  exec::Reduction add = exec::builtinReduction(exec::Reduction::Kind::Add);
  std::vector<std::string> errors(2);
  onDevices(2, [&](int64_t d) {
    // Device 0 waits for [0, 1], device 1 for [1, 0]: two rendezvous, both incomplete.
    auto r = comm.allReduce(call(d, d == 0 ? std::vector<int64_t>{0, 1}
                                           : std::vector<int64_t>{1, 0}),
                            {f32({1}, {1})}, add);
    errors[d] = r ? "" : r.error();
  });
  for (const auto& e : errors) {
    EXPECT_NE(e.find("deadlock"), std::string::npos) << e;
    EXPECT_NE(e.find("(group [0, 1])"), std::string::npos) << e;
    EXPECT_NE(e.find("(group [1, 0])"), std::string::npos) << e;
  }
}

TEST(LocalCommunicatorTest, TimeoutIsTheLastResort) {
  LocalOptions options;
  options.timeout = std::chrono::milliseconds(50);
  LocalCommunicator comm(2, options);
  exec::Reduction add = exec::builtinReduction(exec::Reduction::Kind::Add);
  std::string error;
  std::thread busy([&] { std::this_thread::sleep_for(std::chrono::milliseconds(200)); });
  // Device 1 is "running" (never calls, never reports done): only the timeout ends the wait.
  auto r = comm.allReduce(call(0, {0, 1}), {f32({1}, {1})}, add);
  busy.join();
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find("timed out after 50 ms: device 0 wait in 'stablehlo.all_reduce' at "
                           "3:5 for device 1"),
            std::string::npos)
      << r.error();
}

TEST(LocalCommunicatorTest, CallerNotInGroupIsRejected) {
  LocalCommunicator comm(2);
  auto r = comm.collectiveBroadcast(call(0, {1}), f32({1}, {1}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "device 0 is not in group [1]");
}

TEST(LocalCommunicatorTest, RegistersAsLocalBackend) {
  exec::BackendRegistry registry;
  registerLocalBackend(registry);
  const exec::BackendRegistry::Entry* entry = registry.find("local");
  ASSERT_NE(entry, nullptr);
  std::unique_ptr<exec::Communicator> comm = entry->factory(3);
  ASSERT_NE(comm, nullptr);
  EXPECT_EQ(comm->numDevices(), 3);
  EXPECT_EQ(registry.find("mpi"), nullptr);
}

} // namespace
} // namespace shardscope::backends::local
