// Lockstep stepping, per-device state and the mismatch/deadlock errors of `SpmdExecutor`.
#include "tests/core/exec/spmd_test_util.h"

#include "core/exec/interpreter.h"

namespace shardscope::exec::testing {
namespace {

Tensor i64(std::vector<int64_t> shape, std::vector<int64_t> values) {
  return Tensor::fromInts(ir::ElementType::I64, std::move(shape), values);
}

constexpr const char* kSumProgram = R"(func.func @main(%x: tensor<i64>) -> tensor<i64> {
  %one = stablehlo.constant dense<1> : tensor<i64>
  %y = stablehlo.add %x, %one : tensor<i64>
  %r = "stablehlo.all_reduce"(%y) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<i64>) -> tensor<i64>
  return %r : tensor<i64>
})";

TEST(SpmdExecutorTest, StepAllExecutesTheSameOpOnEveryDevice) {
  SpmdRun run(kSumProgram, 3, 1, {{i64({}, {1})}, {i64({}, {2})}, {i64({}, {3})}});
  SpmdExecutor& ex = *run.executor;
  ASSERT_EQ(ex.numDevices(), 3);
  std::vector<std::string> ops;
  while (!ex.finished()) {
    const ir::Operation* op = ex.currentOp(0);
    ASSERT_NE(op, nullptr);
    for (int64_t d = 1; d < 3; ++d)
      EXPECT_EQ(ex.currentOp(d), op) << "device " << d;
    ops.emplace_back(op->name());
    if (!ex.stepAll())
      break;
  }
  ASSERT_TRUE(ex.finished()) << run.messages();
  EXPECT_EQ(ops, (std::vector<std::string>{"stablehlo.constant", "stablehlo.add",
                                           "stablehlo.all_reduce", "func.return"}));
  for (int64_t d = 0; d < 3; ++d) {
    EXPECT_EQ(ex.status(d), DeviceStatus::Finished);
    EXPECT_EQ(ex.results(d)[0].intAt(0), 9); // (1+1) + (2+1) + (3+1)
  }
  EXPECT_EQ(ex.stepCount(), 4);
}

TEST(SpmdExecutorTest, LookupShowsEachDevicesValues) {
  SpmdRun run(kSumProgram, 3, 1, {{i64({}, {1})}, {i64({}, {2})}, {i64({}, {3})}});
  SpmdExecutor& ex = *run.executor;
  ASSERT_TRUE(ex.stepAll()); // constant
  const ir::Operation* add = ex.currentOp(1);
  ASSERT_TRUE(ex.stepAll()); // add
  const ir::Value* y = add->result(0);
  for (int64_t d = 0; d < 3; ++d) {
    ASSERT_NE(ex.lookup(d, y), nullptr);
    EXPECT_EQ(ex.lookup(d, y)->intAt(0), d + 2);
    EXPECT_EQ(ex.depth(d), 1u);
  }
  EXPECT_EQ(ex.lookup(0, ex.currentOp(0)->result(0)), nullptr); // not computed yet
}

TEST(SpmdExecutorTest, BlockedDevicesWaitWhileOthersAdvance) {
  // Device 0 takes a longer case branch before the all_reduce; the others wait there.
  const char* text = R"(func.func @main(%x: tensor<i64>) -> tensor<i64> {
  %p = stablehlo.replica_id : tensor<ui32>
  %i = stablehlo.convert %p : (tensor<ui32>) -> tensor<i32>
  %v = "stablehlo.case"(%i) ({
    %a = stablehlo.add %x, %x : tensor<i64>
    %b = stablehlo.add %a, %a : tensor<i64>
    stablehlo.return %b : tensor<i64>
  }, {
    stablehlo.return %x : tensor<i64>
  }) : (tensor<i32>) -> tensor<i64>
  %r = "stablehlo.all_reduce"(%v) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<i64>) -> tensor<i64>
  return %r : tensor<i64>
})";
  SpmdRun run(text, 2, 1, {{i64({}, {1})}, {i64({}, {5})}});
  SpmdExecutor& ex = *run.executor;
  bool sawBlocked = false;
  while (ex.stepAll())
    if (ex.status(1) == DeviceStatus::Blocked) {
      EXPECT_EQ(ex.currentOp(1)->name(), "stablehlo.all_reduce");
      sawBlocked = sawBlocked || ex.currentOp(0)->name() != "stablehlo.all_reduce";
    }
  ASSERT_TRUE(ex.finished()) << run.messages();
  EXPECT_TRUE(sawBlocked);
  EXPECT_EQ(ex.results(0)[0].intAt(0), 9); // 4*1 + 5
  EXPECT_EQ(ex.results(1)[0].intAt(0), 9);
}

TEST(SpmdExecutorTest, DifferentCollectivesAreReportedWithDevicesAndDoNotHang) {
  const char* text = R"(func.func @main(%x: tensor<2xi64>) -> tensor<2xi64> {
  %p = stablehlo.replica_id : tensor<ui32>
  %i = stablehlo.convert %p : (tensor<ui32>) -> tensor<i32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %c = stablehlo.compare LT, %i, %two : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %k = stablehlo.convert %c : (tensor<i1>) -> tensor<i32>
  %v = "stablehlo.case"(%k) ({
    %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64,
        replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<2xi64>) -> tensor<6xi64>
    %s = "stablehlo.slice"(%g) {start_indices = array<i64: 0>, limit_indices = array<i64: 2>,
        strides = array<i64: 1>} : (tensor<6xi64>) -> tensor<2xi64>
    stablehlo.return %s : tensor<2xi64>
  }, {
    %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %t = stablehlo.add %a, %b : tensor<i64>
      stablehlo.return %t : tensor<i64>
    }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<2xi64>) -> tensor<2xi64>
    stablehlo.return %r : tensor<2xi64>
  }) : (tensor<i32>) -> tensor<2xi64>
  return %v : tensor<2xi64>
})";
  SpmdRun run(text, 3, 1,
              {{i64({2}, {1, 2})}, {i64({2}, {3, 4})}, {i64({2}, {5, 6})}});
  EXPECT_FALSE(run.run());
  EXPECT_TRUE(run.executor->failed());
  std::string m = run.messages();
  EXPECT_NE(m.find("deadlock: devices 0,1 reached 'stablehlo.all_reduce' at 14:5 (group [0, 1, "
                   "2]) but device 2 reached 'stablehlo.all_gather' at 8:5 (group [0, 1, 2])"),
            std::string::npos)
      << m;
}

TEST(SpmdExecutorTest, DeviceThatFinishesEarlyIsNamed) {
  const char* text = R"(func.func @main(%x: tensor<i64>) -> tensor<i64> {
  %p = stablehlo.replica_id : tensor<ui32>
  %i = stablehlo.convert %p : (tensor<ui32>) -> tensor<i32>
  %v = "stablehlo.case"(%i) ({
    %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %t = stablehlo.add %a, %b : tensor<i64>
      stablehlo.return %t : tensor<i64>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<i64>) -> tensor<i64>
    stablehlo.return %r : tensor<i64>
  }, {
    %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %t = stablehlo.add %a, %b : tensor<i64>
      stablehlo.return %t : tensor<i64>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<i64>) -> tensor<i64>
    stablehlo.return %r : tensor<i64>
  }, {
    stablehlo.return %x : tensor<i64>
  }) : (tensor<i32>) -> tensor<i64>
  return %v : tensor<i64>
})";
  // Devices 0-2 reach an all_reduce (branches 0, 1 and the last, out-of-range index 2 and 3
  // select the last branch); device 3 returns without it.
  SpmdRun run(text, 4, 1, {{i64({}, {1})}, {i64({}, {2})}, {i64({}, {3})}, {i64({}, {4})}});
  EXPECT_FALSE(run.run());
  std::string m = run.messages();
  EXPECT_NE(m.find("finished while"), std::string::npos) << m;
  EXPECT_NE(m.find("devices 2,3 finished"), std::string::npos) << m;
}

TEST(SpmdExecutorTest, GroupsThatDisagreeAreReported) {
  // The per-device programs choose different groups: device 0 waits for [0, 1], device 1 for
  // [1, 2], device 2 for [2, 3] and device 3 for [0, 3]; none completes.
  const char* text = R"(func.func @a(%x: tensor<i64>) -> tensor<i64> {
  %r = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %t = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %t : tensor<i64>
  }) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : (tensor<i64>) -> tensor<i64>
  return %r : tensor<i64>
}
func.func @b(%x: tensor<i64>) -> tensor<i64> {
  %r = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %t = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %t : tensor<i64>
  }) {replica_groups = dense<[[0, 3], [1, 2]]> : tensor<2x2xi64>} : (tensor<i64>) -> tensor<i64>
  return %r : tensor<i64>
})";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  ASSERT_TRUE(module);
  backends::local::LocalCommunicator comm(4);
  SpmdOptions options;
  options.numReplicas = 4;
  SpmdExecutor ex(*module, comm, options);
  std::vector<std::vector<Tensor>> inputs(4, {i64({}, {1})});
  ASSERT_TRUE(ex.start({"a", "b", "a", "b"}, inputs, sink));
  EXPECT_FALSE(ex.runToEnd());
  std::string m;
  for (const auto& d : sink.diagnostics())
    m += d.message + "\n";
  EXPECT_NE(m.find("deadlock"), std::string::npos) << m;
  EXPECT_NE(m.find("(group [0, 1])"), std::string::npos) << m;
  EXPECT_NE(m.find("(group [1, 2])"), std::string::npos) << m;
  EXPECT_NE(m.find("(group [0, 3])"), std::string::npos) << m;
}

TEST(SpmdExecutorTest, DeviceErrorsNameTheDevice) {
  const char* text = R"(func.func @main(%x: tensor<i64>) -> tensor<i64> {
  %r = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %t = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %t : tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<i64>) -> tensor<i64>
  return %r : tensor<i64>
})";
  SpmdRun run(text, 3, 1, {{i64({}, {1})}, {i64({}, {2})}, {i64({}, {3})}});
  EXPECT_FALSE(run.run());
  EXPECT_NE(run.messages().find("device 2: 'stablehlo.all_reduce': replica 2 is in no group"),
            std::string::npos)
      << run.messages();
}

TEST(SpmdExecutorTest, RunParallelAndChecksInsideTheInterpreter) {
  const char* text = R"(func.func @f(%x: tensor<i64>) -> tensor<i64> {
  %r = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %t = stablehlo.maximum %a, %b : tensor<i64>
    stablehlo.return %t : tensor<i64>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>,
      channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<i64>) -> tensor<i64>
  return %r : tensor<i64>
}
func.func @main() -> tensor<i64> {
  %a = stablehlo.constant dense<3> : tensor<i64>
  %b = stablehlo.constant dense<7> : tensor<i64>
  %r:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@f, @f]]}
      : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
  "check.expect_eq"(%r#0, %b) : (tensor<i64>, tensor<i64>) -> ()
  "check.expect_eq_const"(%r#1) {value = dense<7> : tensor<i64>} : (tensor<i64>) -> ()
  "check.expect_eq"(%r#0, %a) : (tensor<i64>, tensor<i64>) -> ()
  return %r#1 : tensor<i64>
})";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  ASSERT_TRUE(module);
  Interpreter interp(*module);
  interp.setCommunicatorFactory(
      [](int64_t n) { return std::make_unique<backends::local::LocalCommunicator>(n); });
  auto results = interp.run("main", {}, sink);
  ASSERT_TRUE(results.has_value()) << sink.diagnostics().at(0).message;
  EXPECT_EQ((*results)[0].intAt(0), 7);
  EXPECT_TRUE(interp.failedCheck());
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_EQ(sink.diagnostics()[0].message,
            "'check.expect_eq' failed: element [] is 7, expected 3");
}

TEST(SpmdExecutorTest, CheckAlmostEqUsesTheDefaultTolerance) {
  const char* text = R"(func.func @main() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[1.00005, 2.0]> : tensor<2xf32>
  %c = stablehlo.constant dense<[1.001, 2.0]> : tensor<2xf32>
  "check.expect_almost_eq"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> ()
  "check.expect_almost_eq"(%a, %c) : (tensor<2xf32>, tensor<2xf32>) -> ()
  "check.expect_almost_eq"(%a, %c) {tolerance = 0.01 : f64} : (tensor<2xf32>, tensor<2xf32>) -> ()
  return
})";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  ASSERT_TRUE(module);
  Interpreter interp(*module);
  ASSERT_TRUE(interp.run("main", {}, sink).has_value());
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 6u);
}

TEST(SpmdExecutorTest, RunParallelLaysProgramsOutRowMajorAsReplicasByPartitions) {
  // programs[r][p] runs as replica r, partition p; inputs and results follow that order.
  const char* text = R"(func.func @ids(%x: tensor<i64>) -> (tensor<ui32>, tensor<ui32>, tensor<i64>) {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  return %r, %p, %x : tensor<ui32>, tensor<ui32>, tensor<i64>
}
func.func @main() -> (tensor<ui32>, tensor<ui32>, tensor<i64>, tensor<ui32>, tensor<ui32>, tensor<i64>) {
  %a = stablehlo.constant dense<10> : tensor<i64>
  %b = stablehlo.constant dense<11> : tensor<i64>
  %c = stablehlo.constant dense<12> : tensor<i64>
  %d = stablehlo.constant dense<13> : tensor<i64>
  %o:12 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@ids, @ids], [@ids, @ids]]}
      : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<i64>)
      -> (tensor<ui32>, tensor<ui32>, tensor<i64>, tensor<ui32>, tensor<ui32>, tensor<i64>,
          tensor<ui32>, tensor<ui32>, tensor<i64>, tensor<ui32>, tensor<ui32>, tensor<i64>)
  return %o#6, %o#7, %o#8, %o#9, %o#10, %o#11
      : tensor<ui32>, tensor<ui32>, tensor<i64>, tensor<ui32>, tensor<ui32>, tensor<i64>
})";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  ASSERT_TRUE(module) << sink.diagnostics().at(0).message;
  Interpreter interp(*module);
  interp.setCommunicatorFactory(backends::local::localCommunicatorFactory());
  auto results = interp.run("main", {}, sink);
  ASSERT_TRUE(results.has_value()) << sink.diagnostics().at(0).message;
  // Devices 2 and 3: replica 1, partitions 0 and 1, inputs 12 and 13.
  std::vector<int64_t> got;
  for (const Tensor& t : *results)
    got.push_back(t.intAt(0));
  EXPECT_EQ(got, (std::vector<int64_t>{1, 0, 12, 1, 1, 13}));
}

TEST(SpmdExecutorTest, RunParallelWithoutABackendIsAnError) {
  const char* text = R"(func.func @f() {
  return
}
func.func @main() {
  "interpreter.run_parallel"() {programs = [[@f, @f]]} : () -> ()
  return
})";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  ASSERT_TRUE(module);
  Interpreter interp(*module);
  EXPECT_FALSE(interp.run("main", {}, sink).has_value());
  ASSERT_EQ(sink.diagnostics().size(), 1u);
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 5u);
  EXPECT_NE(sink.diagnostics()[0].message.find("no communicator factory"), std::string::npos);
}

TEST(SpmdExecutorTest, CheckCloseAndConstVariants) {
  const char* text = R"(func.func @main() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[1.0, 2.0000002]> : tensor<2xf32>
  "check.expect_close"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> ()
  "check.expect_close"(%a, %b) {max_ulp_difference = 0 : ui64} : (tensor<2xf32>, tensor<2xf32>) -> ()
  "check.expect_almost_eq_const"(%a) {value = dense<[1.00001, 2.0]> : tensor<2xf32>} : (tensor<2xf32>) -> ()
  "check.expect_eq_const"(%a) {value = dense<[1.0, 3.0]> : tensor<2xf32>} : (tensor<2xf32>) -> ()
  return
})";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  ASSERT_TRUE(module);
  Interpreter interp(*module);
  ASSERT_TRUE(interp.run("main", {}, sink).has_value());
  EXPECT_TRUE(interp.failedCheck());
  ASSERT_EQ(sink.diagnostics().size(), 2u);
  EXPECT_EQ(sink.diagnostics()[0].loc.line, 5u);
  EXPECT_EQ(sink.diagnostics()[1].loc.line, 7u);
  EXPECT_EQ(sink.diagnostics()[1].message,
            "'check.expect_eq_const' failed: element [1] is 2, expected 3");
}


TEST(SpmdExecutorTest, RunParallelCarriesSendRecvAndInfeed) {
  // Process 0 sends [1, 2] then [5, 6] on channel 1; process 1 receives them in that order, even
  // though its second `recv` comes one step before the second `send`. Its infeed pops the grid's
  // queue: the result of @feed.
  const char* text = R"(func.func @send(%x: tensor<2xi64>, %t: !stablehlo.token) -> !stablehlo.token {
  %a = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (tensor<2xi64>, !stablehlo.token) -> !stablehlo.token
  %c = stablehlo.constant dense<[5, 6]> : tensor<2xi64>
  %b = "stablehlo.send"(%c, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (tensor<2xi64>, !stablehlo.token) -> !stablehlo.token
  return %b : !stablehlo.token
}
func.func @recv(%t: !stablehlo.token) -> (tensor<2xi64>, tensor<2xi64>, tensor<i32>) {
  %r0:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)
  %r1:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<2xi64>, !stablehlo.token)
  %f:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<i32>, !stablehlo.token)
  return %r0#0, %r1#0, %f#0 : tensor<2xi64>, tensor<2xi64>, tensor<i32>
}
func.func @feed() -> tensor<i32> {
  %c = stablehlo.constant dense<42> : tensor<i32>
  return %c : tensor<i32>
}
func.func @main() -> (tensor<2xi64>, tensor<2xi64>, tensor<i32>) {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %t = stablehlo.after_all : !stablehlo.token
  %o:4 = "interpreter.run_parallel"(%x, %t, %t) {infeed = [@feed], programs = [[@send], [@recv]]}
      : (tensor<2xi64>, !stablehlo.token, !stablehlo.token)
      -> (!stablehlo.token, tensor<2xi64>, tensor<2xi64>, tensor<i32>)
  return %o#1, %o#2, %o#3 : tensor<2xi64>, tensor<2xi64>, tensor<i32>
})";
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  ASSERT_TRUE(module) << sink.diagnostics().at(0).message;
  Interpreter interp(*module);
  interp.setCommunicatorFactory(backends::local::localCommunicatorFactory());
  auto results = interp.run("main", {}, sink);
  ASSERT_TRUE(results.has_value()) << sink.diagnostics().at(0).message;
  ASSERT_EQ(results->size(), 3u);
  EXPECT_EQ((*results)[0].intAt(0), 1);
  EXPECT_EQ((*results)[0].intAt(1), 2);
  EXPECT_EQ((*results)[1].intAt(0), 5);
  EXPECT_EQ((*results)[1].intAt(1), 6);
  EXPECT_EQ((*results)[2].intAt(0), 42);
}

} // namespace
} // namespace shardscope::exec::testing
