// Unit tests of the MPI communicator's cross-rank logic. Run under mpirun (every rank runs every
// test in the same order): each test computes the expected results with the local backend (all
// devices in this process) and checks that the MPI backend gives every local device the same
// bytes, with one and with two devices per rank.
#include "core/backends/local/local_communicator.h"
#include "core/backends/mpi/mpi_communicator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <thread>

namespace shardscope::backends::mpi {
namespace {

using exec::CollectiveCall;
using exec::CommResult;
using exec::Tensor;

MpiWorld& world() {
  MpiWorld::setMessageWriter([](const std::string& line) {
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
  });
  return MpiWorld::init("mpi_communicator_test");
}

// Floats of very different magnitudes, so that the order of a sum changes its bits.
Tensor randomTensor(ir::ElementType type, std::vector<int64_t> shape, uint64_t seed) {
  Tensor t(type, shape);
  uint64_t state = seed * 6364136223846793005ull + 1442695040888963407ull;
  for (int64_t i = 0; i < t.numElements(); ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    double unit = static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5;
    int exponent = static_cast<int>((state >> 3) % 17) - 8;
    if (ir::isFloatElement(type))
      t.setFloat(i, unit * std::pow(10.0, exponent));
    else
      t.setInt(i, static_cast<int64_t>(unit * 1000));
  }
  return t;
}

using Call = std::function<CommResult<Tensor>(exec::Communicator&, int64_t device)>;
using GroupOf = std::function<std::vector<int64_t>(int64_t device)>;

std::vector<int64_t> everyDevice(int64_t) { return {}; }

// Calls `call` for every device of `devices`, each on its own thread, one group at a time in
// ascending order of the group's lowest device (as `SpmdExecutor` does: the MPI backend needs
// every rank to run the groups it shares in the same order). Results by device.
std::map<int64_t, std::optional<CommResult<Tensor>>>
onDevices(exec::Communicator& comm, const std::vector<int64_t>& devices, const Call& call,
          const GroupOf& groupOf = everyDevice) {
  std::map<int64_t, std::optional<CommResult<Tensor>>> out;
  std::map<int64_t, std::vector<int64_t>> batches; // lowest device of the group -> members here
  for (int64_t d : devices) {
    out[d];
    std::vector<int64_t> group = groupOf(d);
    batches[group.empty() ? 0 : *std::min_element(group.begin(), group.end())].push_back(d);
  }
  for (const auto& [lowest, members] : batches) {
    std::vector<std::thread> threads;
    for (int64_t d : members)
      threads.emplace_back([&, d] { out[d].emplace(call(comm, d)); });
    for (auto& t : threads)
      t.join();
  }
  return out;
}

// Runs `call` on all devices with the local backend and on this rank's devices with the MPI
// backend, and expects identical bytes (or both failing).
void expectSameAsLocal(int64_t devicesPerRank, const Call& call,
                       const GroupOf& groupOf = everyDevice) {
  int64_t n = world().size() * devicesPerRank;
  backends::local::LocalCommunicator local(n);
  std::vector<int64_t> all;
  for (int64_t d = 0; d < n; ++d)
    all.push_back(d);
  auto expected = onDevices(local, all, call, groupOf);
  MpiCommunicator comm(world(), DevicePlacement{n, devicesPerRank});
  std::vector<int64_t> mine;
  for (int64_t d = 0; d < n; ++d)
    if (comm.isLocal(d))
      mine.push_back(d);
  auto actual = onDevices(comm, mine, call, groupOf);
  for (int64_t d : mine) {
    const CommResult<Tensor>& e = *expected[d];
    CommResult<Tensor>& a = *actual[d];
    ASSERT_EQ(e.ok(), a.ok()) << "device " << d << ": local '" << e.error() << "', mpi '"
                              << a.error() << "'";
    if (e.ok())
      EXPECT_TRUE(*a == *const_cast<CommResult<Tensor>&>(e))
          << "device " << d << ": " << a->str(8) << " vs " << const_cast<CommResult<Tensor>&>(e)->str(8);
  }
}

CollectiveCall callOf(int64_t device, std::vector<int64_t> group, std::string op = "test.op") {
  return {device, {std::move(op), {}, "t.mlir:1:1"}, std::move(group)};
}

// Every device of the grid in a scrambled order: group order must not change reductions.
std::vector<int64_t> scrambled(int64_t n) {
  std::vector<int64_t> g;
  for (int64_t d = n - 1; d >= 0; d -= 2)
    g.push_back(d);
  for (int64_t d = n % 2 == 0 ? 0 : 1; d < n; d += 2)
    g.push_back(d);
  return g;
}

// The group of `device` when devices pair up across ranks: {d, d + n/2}.
std::vector<int64_t> pairOf(int64_t device, int64_t n) {
  int64_t half = n / 2;
  int64_t low = device % half;
  return {low, low + half};
}

class MpiCommunicatorTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(MpiCommunicatorTest, AllReduceSumsInAscendingDeviceOrderLikeTheLocalBackend) {
  int64_t n = world().size() * GetParam();
  expectSameAsLocal(GetParam(), [n](exec::Communicator& c, int64_t d) {
    auto r = c.allReduce(callOf(d, scrambled(n)),
                         {randomTensor(ir::ElementType::F32, {1000}, 17 + d)},
                         exec::builtinReduction(exec::Reduction::Kind::Add));
    return r ? CommResult<Tensor>((*r)[0]) : CommResult<Tensor>::failure(r.error());
  });
}

TEST_P(MpiCommunicatorTest, AllReduceOrderMattersForTheseInputs) {
  // Guards the test above: summing in another order gives other bits for these inputs.
  int64_t n = world().size() * GetParam();
  Tensor forward = randomTensor(ir::ElementType::F32, {1000}, 17);
  for (int64_t d = 1; d < n; ++d)
    exec::reduceInto(exec::Reduction::Kind::Add, forward,
                     randomTensor(ir::ElementType::F32, {1000}, 17 + d));
  Tensor backward = randomTensor(ir::ElementType::F32, {1000}, 17 + n - 1);
  for (int64_t d = n - 2; d >= 0; --d)
    exec::reduceInto(exec::Reduction::Kind::Add, backward,
                     randomTensor(ir::ElementType::F32, {1000}, 17 + d));
  if (n > 2)
    EXPECT_FALSE(forward == backward);
}

TEST_P(MpiCommunicatorTest, AllReduceOverPairsAcrossRanksAndIntegersAndMaximum) {
  int64_t n = world().size() * GetParam();
  expectSameAsLocal(GetParam(), [n](exec::Communicator& c, int64_t d) {
    auto r = c.allReduce(callOf(d, pairOf(d, n)),
                         {randomTensor(ir::ElementType::I32, {7, 3}, d),
                          randomTensor(ir::ElementType::F64, {5}, 100 + d)},
                         exec::builtinReduction(exec::Reduction::Kind::Maximum));
    return r ? CommResult<Tensor>((*r)[0]) : CommResult<Tensor>::failure(r.error());
  }, [n](int64_t d) { return pairOf(d, n); });
}

TEST_P(MpiCommunicatorTest, CustomReductionGathersAndCombinesInDeviceOrder) {
  int64_t n = world().size() * GetParam();
  exec::Reduction custom = exec::builtinReduction(exec::Reduction::Kind::Add);
  custom.kind = exec::Reduction::Kind::Custom;
  expectSameAsLocal(GetParam(), [n, custom](exec::Communicator& c, int64_t d) {
    auto r = c.allReduce(callOf(d, scrambled(n)), {randomTensor(ir::ElementType::F32, {64}, d)},
                         custom);
    return r ? CommResult<Tensor>((*r)[0]) : CommResult<Tensor>::failure(r.error());
  });
}

TEST_P(MpiCommunicatorTest, AllGatherConcatenatesInGroupOrder) {
  int64_t n = world().size() * GetParam();
  for (int64_t dim : {0, 1})
    expectSameAsLocal(GetParam(), [n, dim](exec::Communicator& c, int64_t d) {
      return c.allGather(callOf(d, scrambled(n)), randomTensor(ir::ElementType::F32, {2, 3}, d),
                         dim);
    });
}

TEST_P(MpiCommunicatorTest, ReduceScatterAllToAllPermuteAndBroadcast) {
  int64_t n = world().size() * GetParam();
  expectSameAsLocal(GetParam(), [n](exec::Communicator& c, int64_t d) {
    return c.reduceScatter(callOf(d, scrambled(n)),
                           randomTensor(ir::ElementType::F32, {2 * n, 3}, d), 0,
                           exec::builtinReduction(exec::Reduction::Kind::Add));
  });
  expectSameAsLocal(GetParam(), [n](exec::Communicator& c, int64_t d) {
    return c.allToAll(callOf(d, scrambled(n)), randomTensor(ir::ElementType::I64, {n, 2}, d), 0,
                      1);
  });
  expectSameAsLocal(GetParam(), [n](exec::Communicator& c, int64_t d) {
    std::vector<std::pair<int64_t, int64_t>> ring;
    for (int64_t s = 0; s + 1 < n; ++s) // the last device receives from nobody: zeros
      ring.push_back({s, s + 1});
    std::vector<int64_t> all;
    for (int64_t e = 0; e < n; ++e)
      all.push_back(e);
    return c.collectivePermute(callOf(d, all), randomTensor(ir::ElementType::F32, {4}, d), ring);
  });
  expectSameAsLocal(GetParam(), [n](exec::Communicator& c, int64_t d) {
    return c.collectiveBroadcast(callOf(d, scrambled(n)),
                                 randomTensor(ir::ElementType::F16, {3}, d));
  });
}

TEST_P(MpiCommunicatorTest, MembersThatDisagreeFailTogetherWithOneMessage) {
  // Rank 0's devices gather along dimension 0, the others along dimension 1.
  int64_t n = world().size() * GetParam();
  MpiCommunicator comm(world(), DevicePlacement{n, GetParam()});
  std::vector<int64_t> mine, all;
  for (int64_t d = 0; d < n; ++d) {
    all.push_back(d);
    if (comm.isLocal(d))
      mine.push_back(d);
  }
  int64_t dim = world().rank() == 0 ? 0 : 1;
  auto results = onDevices(comm, mine, [&](exec::Communicator& c, int64_t d) {
    return c.allGather(callOf(d, all), randomTensor(ir::ElementType::F32, {2, 2}, d), dim);
  });
  for (auto& [d, r] : results) {
    ASSERT_FALSE(r->ok()) << "device " << d;
    EXPECT_NE(r->error().find("different allGather(dim "), std::string::npos) << r->error();
  }
}

TEST_P(MpiCommunicatorTest, CachesOneMpiCommunicatorPerSetOfRanks) {
  int64_t n = world().size() * GetParam();
  MpiCommunicator comm(world(), DevicePlacement{n, GetParam()});
  std::vector<int64_t> mine, all;
  for (int64_t d = 0; d < n; ++d) {
    all.push_back(d);
    if (comm.isLocal(d))
      mine.push_back(d);
  }
  for (int round = 0; round < 3; ++round) {
    onDevices(comm, mine, [&](exec::Communicator& c, int64_t d) {
      return c.allGather(callOf(d, all), Tensor(ir::ElementType::F32, {1}), 0);
    });
    onDevices(comm, mine, [&](exec::Communicator& c, int64_t d) {
      return c.allGather(callOf(d, scrambled(n)), Tensor(ir::ElementType::F32, {1}), 0);
    });
  }
  // Both groups span every rank: one communicator, created once.
  EXPECT_EQ(comm.cachedCommunicators(), world().size() > 1 ? 1u : 0u);
}

// The first data messages of a collective travel with its header exchange. These cases check
// that path: every operand of a multi-operand all-reduce arrives (large and small ones), and
// data sent early for a collective whose members disagree is dropped, not taken by the next one.
TEST_P(MpiCommunicatorTest, AllReduceDeliversEveryOperandOfSeveral) {
  int64_t n = world().size() * GetParam();
  for (size_t operand : {0u, 1u, 2u})
    expectSameAsLocal(GetParam(), [n, operand](exec::Communicator& c, int64_t d) {
      auto r = c.allReduce(callOf(d, scrambled(n)),
                           {randomTensor(ir::ElementType::F32, {3}, 7 + d),
                            randomTensor(ir::ElementType::F32, {64 * 1024}, 70 + d),
                            randomTensor(ir::ElementType::I64, {5, 2}, 700 + d)},
                           exec::builtinReduction(exec::Reduction::Kind::Add));
      if (!r)
        return CommResult<Tensor>::failure(r.error());
      if (r->size() != 3)
        return CommResult<Tensor>::failure("expected 3 results, got " +
                                           std::to_string(r->size()));
      return CommResult<Tensor>((*r)[operand]);
    });
}

TEST_P(MpiCommunicatorTest, DataSentWithADisagreeingHeaderIsDroppedBeforeTheNextCollective) {
  int64_t n = world().size() * GetParam();
  MpiCommunicator comm(world(), DevicePlacement{n, GetParam()});
  std::vector<int64_t> mine;
  for (int64_t d = 0; d < n; ++d)
    if (comm.isLocal(d))
      mine.push_back(d);
  // Rank 0's devices reduce 8 elements, the others' 16: the sizes disagree after the data of
  // each member may already be on its way.
  int64_t size = world().rank() == 0 ? 8 : 16;
  auto failed = onDevices(comm, mine, [&](exec::Communicator& c, int64_t d) {
    auto r = c.allReduce(callOf(d, scrambled(n)), {randomTensor(ir::ElementType::F32, {size}, d)},
                         exec::builtinReduction(exec::Reduction::Kind::Add));
    return r ? CommResult<Tensor>((*r)[0]) : CommResult<Tensor>::failure(r.error());
  });
  for (auto& [d, r] : failed)
    if (world().size() > 1)
      EXPECT_FALSE(r->ok()) << "device " << d;
  // The same communicator then runs agreeing collectives of the same group, with the same bytes
  // as the local backend: nothing left over from the failed one is taken for their data.
  backends::local::LocalCommunicator local(n);
  std::vector<int64_t> all;
  for (int64_t d = 0; d < n; ++d)
    all.push_back(d);
  for (int64_t elements : {16, 8}) {
    Call call = [&](exec::Communicator& c, int64_t d) {
      auto r = c.allReduce(callOf(d, scrambled(n)),
                           {randomTensor(ir::ElementType::F32, {elements}, 50 + d)},
                           exec::builtinReduction(exec::Reduction::Kind::Add));
      return r ? CommResult<Tensor>((*r)[0]) : CommResult<Tensor>::failure(r.error());
    };
    auto expected = onDevices(local, all, call);
    auto actual = onDevices(comm, mine, call);
    for (int64_t d : mine) {
      ASSERT_TRUE(actual[d]->ok()) << "device " << d << ": " << actual[d]->error();
      EXPECT_TRUE(**actual[d] == **expected[d]) << "device " << d << ", " << elements
                                                << " elements";
    }
  }
}

TEST(DevicePlacementTest, DividesEvenlyOrFailsWithAMessage) {
  std::string error;
  auto p = DevicePlacement::create(8, 4, 0, error);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->devicesPerRank, 2);
  EXPECT_EQ(p->rankOf(5), 2);
  EXPECT_FALSE(DevicePlacement::create(6, 4, 0, error));
  EXPECT_NE(error.find("do not divide"), std::string::npos) << error;
  EXPECT_TRUE(DevicePlacement::create(2, 4, 1, error)); // ranks 2 and 3 hold no device
  EXPECT_FALSE(DevicePlacement::create(8, 2, 3, error));
}

INSTANTIATE_TEST_SUITE_P(DevicesPerRank, MpiCommunicatorTest, ::testing::Values(1, 2));

} // namespace
} // namespace shardscope::backends::mpi

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  shardscope::backends::mpi::MpiWorld& world =
      shardscope::backends::mpi::MpiWorld::init("mpi_communicator_test");
  world.setTimeout(std::chrono::seconds(60));
  int code = RUN_ALL_TESTS();
  // Every rank must pass: a failure on any rank fails the test.
  int worst = 0;
  MPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  world.finalize();
  return worst;
}
