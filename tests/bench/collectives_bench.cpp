// The local backend's collectives for 8 simulated devices (one thread each) at 1, 8 and 64 MB,
// next to plain memcpy of the same bytes measured in the same run.
//
// Sizes: for all-reduce every device contributes a buffer of SIZE bytes (f32) and receives the
// reduced SIZE bytes; for all-gather every device contributes SIZE / 8 bytes and receives the
// gathered SIZE bytes. "Bytes" below is what the devices receive in total, 8 * SIZE, and the
// memcpy baseline copies that many bytes on one thread. The counter `vs_memcpy` is the
// collective's time per iteration divided by the baseline's time (1.0 = as fast as copying the
// result bytes once; input copies, the reduction and the rendezvous make it larger).
#include "core/backends/local/local_communicator.h"

#include <benchmark/benchmark.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

namespace {

using namespace shardscope;

constexpr int64_t kDevices = 8;

enum class Kind { AllReduce, AllGather };

// Seconds per copy of `bytes` bytes with memcpy, the best of a few repetitions.
double memcpySeconds(size_t bytes) {
  std::vector<uint8_t> src(bytes, 1), dst(bytes, 0);
  double best = 1e9;
  for (int rep = 0; rep < 5; ++rep) {
    auto start = std::chrono::steady_clock::now();
    std::memcpy(dst.data(), src.data(), bytes);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                              .count());
  }
  return best;
}

// Device threads 1..7 persist across iterations; the benchmark thread is device 0. Two barriers
// per iteration start and end every device's call together.
void runCollective(benchmark::State& state, Kind kind) {
  size_t size = static_cast<size_t>(state.range(0)) << 20;
  int64_t perDevice = static_cast<int64_t>(kind == Kind::AllReduce ? size : size / kDevices) / 4;
  backends::local::LocalCommunicator comm(kDevices);
  exec::Reduction add = exec::builtinReduction(exec::Reduction::Kind::Add);
  std::vector<exec::Tensor> inputs;
  for (int64_t d = 0; d < kDevices; ++d) {
    inputs.emplace_back(ir::ElementType::F32, std::vector<int64_t>{perDevice});
    std::fill_n(inputs.back().data<float>(), perDevice, static_cast<float>(d));
  }
  std::vector<int64_t> group;
  for (int64_t d = 0; d < kDevices; ++d)
    group.push_back(d);
  std::atomic<bool> failed{false};
  auto call = [&](int64_t d) {
    exec::CollectiveCall c{d, {kind == Kind::AllReduce ? "all_reduce" : "all_gather", {}, {}},
                           group};
    if (kind == Kind::AllReduce) {
      auto r = comm.allReduce(c, {inputs[d]}, add);
      failed = failed || !r;
      benchmark::DoNotOptimize(r);
    } else {
      auto r = comm.allGather(c, inputs[d], 0);
      failed = failed || !r;
      benchmark::DoNotOptimize(r);
    }
  };
  std::barrier start(kDevices), end(kDevices);
  std::atomic<bool> stop{false};
  std::vector<std::thread> workers;
  for (int64_t d = 1; d < kDevices; ++d)
    workers.emplace_back([&, d] {
      for (;;) {
        start.arrive_and_wait();
        if (stop)
          return;
        call(d);
        end.arrive_and_wait();
      }
    });
  auto begin = std::chrono::steady_clock::now();
  for (auto _ : state) {
    start.arrive_and_wait();
    call(0);
    end.arrive_and_wait();
  }
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  stop = true;
  start.arrive_and_wait();
  for (auto& w : workers)
    w.join();
  if (failed)
    state.SkipWithError("collective failed");
  size_t bytes = size * kDevices;
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  // The ratio of this run's mean time per iteration to a memcpy of the same bytes measured now,
  // in the same process.
  double copy = memcpySeconds(bytes);
  state.counters["memcpy_GBps"] = static_cast<double>(bytes) / copy / 1e9;
  if (state.iterations() > 0)
    state.counters["vs_memcpy"] = elapsed / static_cast<double>(state.iterations()) / copy;
}

void BM_LocalAllReduce(benchmark::State& state) { runCollective(state, Kind::AllReduce); }
void BM_LocalAllGather(benchmark::State& state) { runCollective(state, Kind::AllGather); }

// Plain memcpy of the bytes the collective delivers (8 * SIZE), for the bandwidth column.
void BM_Memcpy(benchmark::State& state) {
  size_t bytes = (static_cast<size_t>(state.range(0)) << 20) * kDevices;
  std::vector<uint8_t> src(bytes, 1), dst(bytes, 0);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), bytes);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

BENCHMARK(BM_Memcpy)->Arg(1)->Arg(8)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LocalAllReduce)->Arg(1)->Arg(8)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LocalAllGather)->Arg(1)->Arg(8)->Arg(64)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
