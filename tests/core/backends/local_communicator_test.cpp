// The local backend called directly from device threads: results, reduction order and the
// errors for mismatched calls, all without hanging.
#include "core/backends/local/local_communicator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
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

// Values of wildly different magnitudes that cancel (1e20, small, -1e20, tiny, rotating with
// the element index), so that f32 sums depend on the order of additions.
double mixedValue(int64_t device, int64_t i) {
  double scale = 1.0 + static_cast<double>(i % 3) / 4.0;
  switch ((i + device) % 4) {
  case 0:
    return 1e20 * scale;
  case 1:
    return 1.0 + static_cast<double>(i % 7);
  case 2:
    return -1e20 * scale;
  default:
    return 3.5e-3 * static_cast<double>(device + 1);
  }
}

// The f32 sum of the devices' contributions in the given order, one rounding per addition.
Tensor sequentialSum(const std::vector<Tensor>& inputs, const std::vector<int64_t>& order) {
  Tensor acc = inputs[order[0]];
  for (size_t k = 1; k < order.size(); ++k)
    for (int64_t i = 0; i < acc.numElements(); ++i)
      acc.data<float>()[i] = static_cast<float>(static_cast<double>(acc.data<float>()[i]) +
                                                static_cast<double>(inputs[order[k]].data<float>()[i]));
  return acc;
}

TEST(LocalCommunicatorTest, ChunkedAllReduceIsBitIdenticalToTheSequentialAscendingReduction) {
  // The builtin all-reduce splits every operand into element ranges that the member threads
  // reduce in parallel. Sizes around and not divisible by the chunk and block sizes (and the
  // member count) must still give, on every member, exactly the sequential ascending-order sum.
  constexpr int64_t kDevices = 8;
  std::vector<int64_t> group = {5, 2, 7, 0, 3, 6, 1, 4};
  exec::Reduction add = exec::builtinReduction(exec::Reduction::Kind::Add);
  for (int64_t size : {1, 7, 2047, 2049, 16383, 16385, 100003}) {
    std::vector<Tensor> inputs;
    for (int64_t d = 0; d < kDevices; ++d) {
      inputs.emplace_back(ir::ElementType::F32, std::vector<int64_t>{size});
      for (int64_t i = 0; i < size; ++i)
        inputs.back().data<float>()[i] = static_cast<float>(mixedValue(d, i));
    }
    Tensor ascending = sequentialSum(inputs, {0, 1, 2, 3, 4, 5, 6, 7});
    if (size > 100)
      ASSERT_NE(ascending, sequentialSum(inputs, {7, 6, 5, 4, 3, 2, 1, 0}))
          << "the data must make the order matter";
    LocalCommunicator comm(kDevices);
    std::vector<Tensor> got(kDevices);
    onDevices(kDevices, [&](int64_t d) {
      std::vector<Tensor> operands;
      operands.push_back(inputs[d]);
      auto r = comm.allReduce(call(d, group), std::move(operands), add);
      ASSERT_TRUE(r) << r.error();
      got[d] = std::move((*r)[0]);
    });
    for (int64_t d = 0; d < kDevices; ++d)
      EXPECT_EQ(got[d], ascending) << "size " << size << ", device " << d;
  }
}

TEST(LocalCommunicatorTest, ChunkedAllReduceHandlesSeveralOperandsOfDifferentTypes) {
  // Chunks cover every operand; each result equals the builtin combine applied sequentially in
  // ascending device order.
  constexpr int64_t kDevices = 3;
  for (exec::Reduction::Kind kind : {exec::Reduction::Kind::Add, exec::Reduction::Kind::Maximum,
                                     exec::Reduction::Kind::Multiply}) {
    exec::Reduction reduction = exec::builtinReduction(kind);
    std::vector<std::vector<Tensor>> inputs(kDevices);
    for (int64_t d = 0; d < kDevices; ++d) {
      std::vector<double> big, small;
      for (int64_t i = 0; i < 40001; ++i)
        big.push_back(mixedValue(d, i));
      for (int64_t i = 0; i < 5; ++i)
        small.push_back(static_cast<double>((d + 2) * (i - 2) * 1000003));
      inputs[d] = {Tensor::fromDoubles(ir::ElementType::F32, {40001}, big),
                   Tensor::fromDoubles(ir::ElementType::I32, {5}, small),
                   Tensor::fromDoubles(ir::ElementType::F64, {1, 20001},
                                       std::vector<double>(big.begin(), big.begin() + 20001))};
    }
    std::vector<Tensor> expected = inputs[0];
    for (int64_t d = 1; d < kDevices; ++d)
      expected = *reduction.combine(expected, inputs[d]);
    LocalCommunicator comm(kDevices);
    std::vector<std::vector<Tensor>> got(kDevices);
    onDevices(kDevices, [&](int64_t d) {
      auto r = comm.allReduce(call(d, {2, 0, 1}), inputs[d], reduction);
      ASSERT_TRUE(r) << r.error();
      got[d] = std::move(*r);
    });
    for (int64_t d = 0; d < kDevices; ++d)
      EXPECT_EQ(got[d], expected) << "device " << d;
  }
}

TEST(LocalCommunicatorTest, ChunkedReduceScatterIsBitIdenticalToTheSequentialAscendingReduction) {
  // Each member reduces its own part (3 rows of 3001 columns of a 3 x 24008 tensor) on its
  // thread; the parts must be exactly those of the sequential ascending-order sum.
  constexpr int64_t kDevices = 8, kRows = 3, kCols = 8 * 3001;
  std::vector<int64_t> group = {5, 2, 7, 0, 3, 6, 1, 4};
  std::vector<Tensor> inputs;
  for (int64_t d = 0; d < kDevices; ++d) {
    inputs.emplace_back(ir::ElementType::F32, std::vector<int64_t>{kRows, kCols});
    for (int64_t i = 0; i < kRows * kCols; ++i)
      inputs.back().data<float>()[i] = static_cast<float>(mixedValue(d, i));
  }
  Tensor sum = sequentialSum(inputs, {0, 1, 2, 3, 4, 5, 6, 7});
  LocalCommunicator comm(kDevices);
  std::vector<Tensor> got(kDevices);
  exec::Reduction add = exec::builtinReduction(exec::Reduction::Kind::Add);
  onDevices(kDevices, [&](int64_t d) {
    auto r = comm.reduceScatter(call(d, group, "stablehlo.reduce_scatter"), inputs[d], 1, add);
    ASSERT_TRUE(r) << r.error();
    got[d] = std::move(*r);
  });
  for (size_t p = 0; p < group.size(); ++p) {
    Tensor expected(ir::ElementType::F32, {kRows, kCols / kDevices});
    for (int64_t row = 0; row < kRows; ++row)
      for (int64_t col = 0; col < kCols / kDevices; ++col)
        expected.data<float>()[row * (kCols / kDevices) + col] =
            sum.data<float>()[row * kCols + static_cast<int64_t>(p) * (kCols / kDevices) + col];
    EXPECT_EQ(got[group[p]], expected) << "group position " << p;
  }
}

// The documented element semantics of the builtin reductions, stated independently of
// `core/exec`: floats in double rounded once, NaN-propagating maximum/minimum, wrapping
// integers compared by signedness, bitwise and/or (a logical kind keeps a float's lhs).
void referenceCombine(exec::Reduction::Kind kind, Tensor& acc, const Tensor& rhs) {
  using K = exec::Reduction::Kind;
  ir::ElementType e = acc.elementType();
  bool isUnsigned = e == ir::ElementType::UI8 || e == ir::ElementType::UI16 ||
                    e == ir::ElementType::UI32 || e == ir::ElementType::UI64 ||
                    e == ir::ElementType::I1;
  for (int64_t i = 0; i < acc.numElements(); ++i) {
    if (ir::isFloatElement(e)) {
      double a = acc.floatAt(i), b = rhs.floatAt(i);
      bool nan = std::isnan(a) || std::isnan(b);
      double r = kind == K::Add        ? a + b
                 : kind == K::Multiply ? a * b
                 : kind == K::Maximum  ? (nan ? NAN : (a < b ? b : a))
                 : kind == K::Minimum  ? (nan ? NAN : (b < a ? b : a))
                                       : a;
      acc.setFloat(i, r);
      continue;
    }
    int64_t a = acc.intAt(i), b = rhs.intAt(i);
    uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
    bool less = isUnsigned ? ua < ub : a < b;
    int64_t r = kind == K::Add        ? static_cast<int64_t>(ua + ub)
                : kind == K::Multiply ? static_cast<int64_t>(ua * ub)
                : kind == K::Maximum  ? (less ? b : a)
                : kind == K::Minimum  ? (less ? a : b)
                : kind == K::And      ? (a & b)
                                      : (a | b);
    acc.setInt(i, r);
  }
}

Tensor randomTensor(ir::ElementType e, int64_t n, std::mt19937_64& rng, bool withNaN) {
  static const double kSpecial[] = {0.0, -0.0, 1.5, -2.25, 1e30, -1e30, 3e-39, 1e-7, 65504.0,
                                    INFINITY, -INFINITY};
  std::vector<double> doubles;
  std::vector<int64_t> ints;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t bits = rng();
    ints.push_back(i % 5 == 0 ? static_cast<int64_t>(bits)
                              : static_cast<int64_t>(bits % 512) - 256);
    double v = i % 3 == 0 ? kSpecial[bits % std::size(kSpecial)]
                          : std::ldexp(static_cast<double>(bits % 100000) - 50000.0,
                                       static_cast<int>(bits >> 58) - 40);
    doubles.push_back(withNaN && i % 17 == 0 ? NAN : v);
  }
  return ir::isFloatElement(e) ? Tensor::fromDoubles(e, {n}, doubles)
                               : Tensor::fromInts(e, {n}, ints);
}

TEST(LocalCommunicatorTest, TypedReductionKernelsMatchTheElementwiseSemantics) {
  using K = exec::Reduction::Kind;
  using E = ir::ElementType;
  std::mt19937_64 rng(7);
  for (E e : {E::F32, E::F64, E::F16, E::BF16, E::I1, E::I8, E::I16, E::I32, E::I64, E::UI8,
              E::UI16, E::UI32, E::UI64}) {
    for (K kind : {K::Add, K::Multiply, K::Maximum, K::Minimum, K::And, K::Or}) {
      // NaN in one operand only: which NaN payload wins between two is not specified.
      bool minMax = kind == K::Maximum || kind == K::Minimum;
      Tensor a = randomTensor(e, 1001, rng, /*withNaN=*/true);
      Tensor b = randomTensor(e, 1001, rng, /*withNaN=*/minMax);
      Tensor expected = a;
      referenceCombine(kind, expected, b);
      std::string what = Tensor(e, {}).type().str() + " kind " + std::to_string(int(kind));
      Tensor whole = a;
      exec::reduceInto(kind, whole, b);
      EXPECT_EQ(whole, expected) << what;
      EXPECT_EQ((*exec::builtinReduction(kind).combine({a}, {b}))[0], expected) << what;
      // A range changes exactly its elements.
      Tensor range = a;
      exec::reduceInto(kind, range, b, 10, 517);
      size_t width = Tensor::elementBytes(e);
      Tensor mixed = a;
      std::copy(expected.bytes().begin() + 10 * width, expected.bytes().begin() + 517 * width,
                mixed.bytes().begin() + 10 * width);
      EXPECT_EQ(range, mixed) << what;
      // The fused form over seven contributions equals seven single passes in order.
      std::vector<Tensor> contributions;
      for (int j = 0; j < 7; ++j)
        contributions.push_back(randomTensor(e, 1001, rng, /*withNaN=*/minMax));
      std::vector<const Tensor*> pointers;
      Tensor sequential = a, fused = a;
      for (const Tensor& c : contributions) {
        exec::reduceInto(kind, sequential, c, 3, 1000);
        pointers.push_back(&c);
      }
      exec::reduceInto(kind, fused, pointers, 3, 1000);
      EXPECT_EQ(fused, sequential) << what;
    }
  }
}

TEST(LocalCommunicatorTest, AllGatherConcatenatesInGroupOrderForEveryMember) {
  // Eight members with different sizes along the gathered dimension 1 of a 3-row tensor: every
  // member gets the same tensor, blocks in group order.
  constexpr int64_t kDevices = 8;
  std::vector<int64_t> group = {3, 1, 4, 0, 5, 7, 2, 6};
  auto block = [](int64_t d) {
    std::vector<double> v;
    for (int64_t row = 0; row < 3; ++row)
      for (int64_t col = 0; col <= d; ++col)
        v.push_back(static_cast<double>(d * 100 + row * 10 + col));
    return f32({3, d + 1}, v);
  };
  std::vector<double> expected;
  for (int64_t row = 0; row < 3; ++row)
    for (int64_t d : group)
      for (int64_t col = 0; col <= d; ++col)
        expected.push_back(static_cast<double>(d * 100 + row * 10 + col));
  LocalCommunicator comm(kDevices);
  std::vector<Tensor> got(kDevices);
  onDevices(kDevices, [&](int64_t d) {
    auto r = comm.allGather(call(d, group, "stablehlo.all_gather"), block(d), 1);
    ASSERT_TRUE(r) << r.error();
    got[d] = std::move(*r);
  });
  for (int64_t d = 0; d < kDevices; ++d) {
    EXPECT_EQ(got[d].shape(), (std::vector<int64_t>{3, 36})) << "device " << d;
    EXPECT_EQ(values(got[d]), expected) << "device " << d;
  }
}

TEST(LocalCommunicatorTest, AllReduceOfDifferentTypesFailsForEveryMember) {
  LocalCommunicator comm(2);
  exec::Reduction add = exec::builtinReduction(exec::Reduction::Kind::Add);
  std::vector<std::string> errors(2);
  onDevices(2, [&](int64_t d) {
    Tensor in = d == 0 ? f32({2}, {1, 2}) : f32({3}, {1, 2, 3});
    auto r = comm.allReduce(call(d, {0, 1}), {in}, add);
    errors[d] = r ? "" : r.error();
  });
  for (const auto& e : errors)
    EXPECT_EQ(e, "members pass different operand types: tensor<2xf32> and tensor<3xf32> in "
                 "'stablehlo.all_reduce' at 3:5");
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
