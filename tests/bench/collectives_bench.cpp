// The local backend's collectives for 8 simulated devices (one thread each) at SIZE = 1, 8 and
// 64 MB, next to plain memcpy of the same bytes measured in the same run.
//
// What SIZE means, and the bytes every row is charged with ("bytes moved", `bytes_per_second`):
//
// - all-reduce (f32 add): every device contributes SIZE bytes and receives the reduced SIZE
//   bytes. A reduction must read every contribution (8 x SIZE read) and deliver a copy of the
//   result to every device (8 x SIZE written): 8 x SIZE bytes moved.
// - all-gather (f32, dim 0): every device contributes SIZE / 8 bytes and receives the gathered
//   SIZE bytes. Every device's result is written once (8 x SIZE written) from the contributions
//   (8 x SIZE read, SIZE / 8 per device per receiver): 8 x SIZE bytes moved.
//
// So both collectives are compared with a memcpy of 8 x SIZE bytes (8 x SIZE read, 8 x SIZE
// written), in two forms:
//
// - `BM_Memcpy`: one thread, one memcpy of 8 x SIZE bytes. The collective rows measure the same
//   baseline interleaved with the collective: after every timed collective, device 0 memcpys
//   8 x SIZE bytes (timed separately) while the other device threads wait, so both see the same
//   machine load. Their counters `memcpy_GBps` (that baseline's bandwidth) and `vs_memcpy`
//   (total collective time / total memcpy time; 1.0 = as fast as one memcpy of the bytes moved,
//   2.0 = half its bandwidth, the target) come from it.
// - `BM_MemcpyTeam`: the 8 device threads each memcpy SIZE bytes, started and stopped by the same
//   barriers as a collective. On a machine with fewer cores than devices this is not 8x faster:
//   it is what the cores can copy in parallel, plus the cost of waking 8 threads, so it is the
//   honest lower bound for an 8-thread collective; compare with it as well as with `BM_Memcpy`.
//
// Every buffer is allocated once and its pages are touched before timing; each iteration first
// refills the inputs (untimed: all-reduce overwrites them) and then times one collective from
// the moment every device is ready until every device holds its result. All-gather must return
// new tensors (`exec::Tensor` owns its buffer), so each iteration allocates and zero-fills
// the 8 results: that cost is part of the collective and is timed.
#include "core/backends/local/local_communicator.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstring>
#include <functional>
#include <thread>
#include <utility>
#include <vector>
#include <cstdlib>
#include <mutex>
#include <new>

namespace {

using namespace shardscope;
using Clock = std::chrono::steady_clock;

constexpr int64_t kDevices = 8;

size_t sizeBytes(const benchmark::State& state) {
  return static_cast<size_t>(state.range(0)) << 20;
}

// Seconds spent in the timed parts of `runTeam`.
struct TeamTimes {
  double work = 0;   // the collective (or whatever `work` does), all iterations
  double memcpy = 0; // the interleaved memcpy baseline, all iterations (0 without one)
};

// Runs `work(d)` on kDevices threads per iteration (the benchmark thread is device 0, the others
// persist across iterations), each iteration preceded by an untimed `prepare(d)`, after one
// untimed warm-up iteration. The iteration time runs from the barrier that all devices reach
// once prepared to the barrier they reach once done, so it includes waking the threads and
// waiting for the slowest. With `baselineBytes` > 0, device 0 also memcpys that many bytes (between
// touched buffers) after every iteration while the other threads wait in a barrier, so that the
// baseline sees the same machine load as the collective, iteration by iteration.
TeamTimes runTeam(benchmark::State& state, const std::function<void(int64_t)>& prepare,
                  const std::function<void(int64_t)>& work, size_t baselineBytes = 0) {
  std::vector<uint8_t> src(baselineBytes, 1), dst(baselineBytes, 0);
  auto baseline = [&] {
    std::memcpy(dst.data(), src.data(), baselineBytes);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  };
  std::barrier ready(kDevices), done(kDevices), copied(kDevices);
  std::atomic<bool> stop{false};
  std::vector<std::thread> workers;
  for (int64_t d = 1; d < kDevices; ++d)
    workers.emplace_back([&, d] {
      for (;;) {
        prepare(d);
        ready.arrive_and_wait();
        if (stop)
          return;
        work(d);
        done.arrive_and_wait();
        copied.arrive_and_wait();
      }
    });
  // One untimed round first: first-touch page faults, the allocator growing its heap and
  // threads starting up are not what a steady-state collective costs.
  prepare(0);
  ready.arrive_and_wait();
  work(0);
  done.arrive_and_wait();
  baseline();
  copied.arrive_and_wait();
  TeamTimes times;
  auto since = [](Clock::time_point begin) {
    return std::chrono::duration<double>(Clock::now() - begin).count();
  };
  for (auto _ : state) {
    prepare(0);
    ready.arrive_and_wait();
    auto begin = Clock::now();
    work(0);
    done.arrive_and_wait();
    double seconds = since(begin);
    state.SetIterationTime(seconds);
    times.work += seconds;
    begin = Clock::now();
    baseline();
    times.memcpy += since(begin);
    copied.arrive_and_wait();
  }
  stop = true;
  ready.arrive_and_wait();
  for (auto& w : workers)
    w.join();
  return times;
}

// Charges the collective with 8 x SIZE bytes moved and sets the memcpy comparison counters from
// the interleaved single-thread memcpy of the same 8 x SIZE bytes.
void reportAgainstMemcpy(benchmark::State& state, const TeamTimes& times, bool failed) {
  if (failed)
    state.SkipWithError("collective failed or returned wrong values");
  size_t bytes = sizeBytes(state) * kDevices;
  auto iterations = static_cast<double>(state.iterations());
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  if (times.memcpy > 0) {
    state.counters["memcpy_GBps"] = static_cast<double>(bytes) * iterations / times.memcpy / 1e9;
    state.counters["vs_memcpy"] = times.work / times.memcpy;
  }
}

std::vector<int64_t> allDevices() {
  std::vector<int64_t> group;
  for (int64_t d = 0; d < kDevices; ++d)
    group.push_back(d);
  return group;
}

void BM_LocalAllReduce(benchmark::State& state) {
  int64_t elements = static_cast<int64_t>(sizeBytes(state) / sizeof(float));
  backends::local::LocalCommunicator comm(kDevices);
  exec::Reduction add = exec::builtinReduction(exec::Reduction::Kind::Add);
  std::vector<int64_t> group = allDevices();
  // Each device's buffer goes into the collective and comes back as its result, so after the
  // first iteration nothing is allocated.
  std::vector<exec::Tensor> buffers;
  for (int64_t d = 0; d < kDevices; ++d)
    buffers.emplace_back(ir::ElementType::F32, std::vector<int64_t>{elements});
  float expected = 0;
  for (int64_t d = 0; d < kDevices; ++d)
    expected += static_cast<float>(d) + 0.5f;
  std::atomic<bool> failed{false};
  auto prepare = [&](int64_t d) {
    std::fill_n(buffers[d].data<float>(), elements, static_cast<float>(d) + 0.5f);
  };
  auto work = [&](int64_t d) {
    exec::CollectiveCall call{d, {"all_reduce", {}, {}}, group};
    std::vector<exec::Tensor> operands; // not a braced list, which would copy the buffer
    operands.push_back(std::move(buffers[d]));
    auto r = comm.allReduce(call, std::move(operands), add);
    if (!r || (*r)[0].numElements() != elements || (*r)[0].data<float>()[elements - 1] != expected) {
      failed = true;
      buffers[d] = exec::Tensor(ir::ElementType::F32, {elements});
      return;
    }
    buffers[d] = std::move((*r)[0]);
  };
  TeamTimes times = runTeam(state, prepare, work, sizeBytes(state) * kDevices);
  reportAgainstMemcpy(state, times, failed);
}

void BM_LocalAllGather(benchmark::State& state) {
  int64_t elements = static_cast<int64_t>(sizeBytes(state) / sizeof(float));
  int64_t perDevice = elements / kDevices;
  backends::local::LocalCommunicator comm(kDevices);
  std::vector<int64_t> group = allDevices();
  std::vector<exec::Tensor> pristine, inputs(kDevices), results(kDevices);
  for (int64_t d = 0; d < kDevices; ++d) {
    pristine.emplace_back(ir::ElementType::F32, std::vector<int64_t>{perDevice});
    std::fill_n(pristine.back().data<float>(), perDevice, static_cast<float>(d));
  }
  std::atomic<bool> failed{false};
  // The collective consumes its input, so a fresh copy is made (and the previous result freed)
  // before the clock starts.
  auto prepare = [&](int64_t d) {
    results[d] = exec::Tensor();
    inputs[d] = pristine[d];
  };
  auto work = [&](int64_t d) {
    exec::CollectiveCall call{d, {"all_gather", {}, {}}, group};
    auto r = comm.allGather(call, std::move(inputs[d]), 0);
    if (!r || r->numElements() != elements || r->data<float>()[elements - 1] != kDevices - 1) {
      failed = true;
      return;
    }
    results[d] = std::move(*r);
  };
  TeamTimes times = runTeam(state, prepare, work, sizeBytes(state) * kDevices);
  reportAgainstMemcpy(state, times, failed);
}

// While alive, large blocks (1 MiB and more) freed by `operator delete` are kept and handed out
// again for `operator new` of the same size, as the caching allocators of ML runtimes do (XLA's
// BFC allocator, PyTorch's caching allocator). With glibc's defaults every block of 32 MiB and
// more (and, depending on its history, smaller ones) is a fresh mmap, unmapped on free, so each
// result tensor of an all-gather costs one page fault per 4 KiB page, kernel time that has
// nothing to do with the collective. The blocks are still zero-filled by `exec::Tensor`.
struct CachedBlock {
  size_t size = 0;
  void* block = nullptr;
};

class CachedMalloc {
public:
  CachedMalloc() { s_enabled = true; }
  ~CachedMalloc() {
    s_enabled = false;
    std::lock_guard lock(s_mutex);
    for (CachedBlock& slot : s_slots) {
      std::free(slot.block);
      slot = {};
    }
  }

  static void* allocate(size_t size) {
    if (size >= kLarge && s_enabled) {
      std::lock_guard lock(s_mutex);
      for (CachedBlock& slot : s_slots)
        if (slot.block && slot.size == size)
          return static_cast<char*>(std::exchange(slot.block, nullptr)) + kHeader;
    }
    void* block = std::malloc(size + kHeader);
    if (!block)
      throw std::bad_alloc();
    *static_cast<size_t*>(block) = size;
    return static_cast<char*>(block) + kHeader;
  }

  static void release(void* p) {
    if (!p)
      return;
    void* block = static_cast<char*>(p) - kHeader;
    size_t size = *static_cast<size_t*>(block);
    if (size >= kLarge && s_enabled) {
      std::lock_guard lock(s_mutex);
      for (CachedBlock& slot : s_slots)
        if (!slot.block) {
          slot = {size, block};
          return;
        }
    }
    std::free(block);
  }

private:
  // Every block starts with its size; 16 bytes keep the default new alignment.
  static constexpr size_t kHeader = 16;
  static constexpr size_t kLarge = size_t{1} << 20;
  static inline std::atomic<bool> s_enabled{false};
  static inline std::mutex s_mutex;
  static inline CachedBlock s_slots[64];
};

void BM_LocalAllGatherCachedMalloc(benchmark::State& state) {
  CachedMalloc cached;
  BM_LocalAllGather(state);
}

// One thread, one memcpy of 8 x SIZE bytes: the baseline of `vs_memcpy`.
void BM_Memcpy(benchmark::State& state) {
  size_t bytes = sizeBytes(state) * kDevices;
  std::vector<uint8_t> src(bytes, 1), dst(bytes, 0);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), bytes);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

// The 8 device threads each copy SIZE bytes between their own touched buffers, timed exactly
// like a collective: the parallel peer on this machine's cores.
void BM_MemcpyTeam(benchmark::State& state) {
  size_t bytes = sizeBytes(state);
  std::vector<std::vector<uint8_t>> src, dst;
  for (int64_t d = 0; d < kDevices; ++d) {
    src.emplace_back(bytes, 1);
    dst.emplace_back(bytes, 0);
  }
  auto work = [&](int64_t d) {
    std::memcpy(dst[d].data(), src[d].data(), bytes);
    benchmark::DoNotOptimize(dst[d].data());
    benchmark::ClobberMemory();
  };
  runTeam(state, [](int64_t) {}, work);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes * kDevices));
}

void sizes(benchmark::internal::Benchmark* b) {
  b->Arg(1)->Arg(8)->Arg(64)->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_Memcpy)->Apply(sizes)->UseRealTime();
BENCHMARK(BM_MemcpyTeam)->Apply(sizes)->UseManualTime();
BENCHMARK(BM_LocalAllReduce)->Apply(sizes)->UseManualTime();
BENCHMARK(BM_LocalAllGather)->Apply(sizes)->UseManualTime();
BENCHMARK(BM_LocalAllGatherCachedMalloc)->Apply(sizes)->UseManualTime();

} // namespace

// The replaceable allocation functions, routed through `CachedMalloc` (a plain malloc with a
// size header while no `CachedMalloc` is alive). The aligned forms keep their defaults.
void* operator new(size_t size) { return CachedMalloc::allocate(size); }
void* operator new[](size_t size) { return CachedMalloc::allocate(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  try {
    return CachedMalloc::allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](size_t size, const std::nothrow_t& tag) noexcept {
  return operator new(size, tag);
}
void operator delete(void* p) noexcept { CachedMalloc::release(p); }
void operator delete[](void* p) noexcept { CachedMalloc::release(p); }
void operator delete(void* p, size_t) noexcept { CachedMalloc::release(p); }
void operator delete[](void* p, size_t) noexcept { CachedMalloc::release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { CachedMalloc::release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { CachedMalloc::release(p); }

BENCHMARK_MAIN();
