// The MPI backend's all-reduce and all-gather next to raw MPI_Allreduce / MPI_Allgather on the
// same buffers, in the same run. Run it under mpirun (one device per rank):
//
//   mpirun --oversubscribe -np 2 shardscope-mpi-collectives-bench [--sizes-mb 1,8,64]
//
// SIZE is the all-reduce operand (every rank contributes and receives SIZE bytes of f32) and the
// all-gather result (every rank contributes SIZE / ranks bytes and receives SIZE bytes). Each
// iteration refills the inputs (untimed: the backend consumes its input tensor), lines the ranks
// up with a barrier, then times one collective; a rank's time is the slowest rank's (MPI_MAX).
// Backend and raw MPI run the same number of iterations on the same data, alternating, and the
// one that goes first alternates too (so neither always runs right after the other's traffic);
// both get the same untimed warm-up rounds first. The table shows medians and
// `ratio` = raw median / backend median (1.0: as fast as raw MPI; the target is >= 0.9).
// `--iterations-scale X` multiplies the number of timed iterations (default 1).
//
// The raw rows are MPI's own algorithms: MPI_Allreduce sums in whatever order MPI picks (not
// bit-reproducible across layouts); the backend's all-reduce folds in ascending device order so
// that it matches the local backend bit for bit, and returns a new `exec::Tensor` per call.
#include "core/backends/mpi/mpi_communicator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace shardscope;
using backends::mpi::MpiWorld;

namespace {

double timed(const std::function<void()>& prepare, const std::function<void()>& body) {
  prepare();
  MPI_Barrier(MPI_COMM_WORLD);
  auto t0 = std::chrono::steady_clock::now();
  body();
  double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
  std::vector<int64_t> sizesMb = {1, 8, 64};
  double scale = 1;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--iterations-scale")
      scale = std::max(0.01, std::atof(argv[i + 1]));
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--sizes-mb") {
      sizesMb.clear();
      for (char* p = argv[i + 1]; *p;) {
        sizesMb.push_back(std::strtoll(p, &p, 10));
        if (*p == ',')
          ++p;
      }
    }
  MpiWorld::setMessageWriter([](const std::string& line) {
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
  });
  MpiWorld& world = MpiWorld::init("shardscope-mpi-collectives-bench");
  int ranks = world.size();
  backends::mpi::MpiCommunicator comm(world, {ranks, 1});
  std::vector<int64_t> group;
  for (int64_t d = 0; d < ranks; ++d)
    group.push_back(d);
  exec::CollectiveCall call{world.rank(), {"bench.collective", {}, ""}, group};
  exec::Reduction add = exec::builtinReduction(exec::Reduction::Kind::Add);

  if (world.rank() == 0)
    std::printf("%-11s %5s %6s %12s %12s %12s %8s\n", "collective", "ranks", "MB", "backend ms",
                "raw MPI ms", "backend GB/s", "ratio");
  for (int64_t mb : sizesMb) {
    int64_t bytes = mb << 20;
    int64_t elements = bytes / 4;
    // Enough iterations for stable medians with 4 ranks on 2 cores; a few seconds per size.
    int iterations = std::max(5, static_cast<int>(scale * (mb <= 1 ? 300 : mb <= 8 ? 80 : 24)));
    constexpr int kWarmup = 3; // untimed rounds of each: connections, caches, buffer pools
    exec::Tensor source(ir::ElementType::F32, {elements});
    for (int64_t i = 0; i < elements; ++i)
      source.data<float>()[i] = static_cast<float>((i * 7 + world.rank()) % 1000) * 0.001f;

    // All-reduce.
    std::vector<double> backendTimes, rawTimes;
    std::vector<float> rawIn(static_cast<size_t>(elements)), rawOut(static_cast<size_t>(elements));
    exec::Tensor input;
    for (int it = 0; it < iterations + kWarmup; ++it) {
      auto backend = [&] {
        return timed([&] { input = source; },
                     [&] {
                       std::vector<exec::Tensor> inputs;
                       inputs.push_back(std::move(input));
                       auto r = comm.allReduce(call, std::move(inputs), add);
                       if (!r)
                         world.fail(r.error());
                     });
      };
      auto rawRun = [&] {
        return timed(
            [&] { std::memcpy(rawIn.data(), source.bytes().data(), static_cast<size_t>(bytes)); },
            [&] {
              MPI_Allreduce(rawIn.data(), rawOut.data(), static_cast<int>(elements), MPI_FLOAT,
                            MPI_SUM, MPI_COMM_WORLD);
            });
      };
      double b, raw;
      if (it % 2 == 0) {
        b = backend();
        raw = rawRun();
      } else {
        raw = rawRun();
        b = backend();
      }
      if (it >= kWarmup) {
        backendTimes.push_back(b);
        rawTimes.push_back(raw);
      }
    }
    double b = median(backendTimes), raw = median(rawTimes);
    if (world.rank() == 0)
      std::printf("%-11s %5d %6lld %12.3f %12.3f %12.2f %8.2f\n", "all-reduce", ranks,
                  static_cast<long long>(mb), b * 1e3, raw * 1e3, bytes / b / 1e9, raw / b);

    // All-gather: each rank contributes bytes / ranks.
    int64_t part = elements / ranks;
    exec::Tensor piece(ir::ElementType::F32, {part});
    std::memcpy(piece.bytes().data(), source.bytes().data(), static_cast<size_t>(part) * 4);
    backendTimes.clear();
    rawTimes.clear();
    for (int it = 0; it < iterations + kWarmup; ++it) {
      auto backend = [&] {
        return timed([&] { input = piece; },
                     [&] {
                       auto r = comm.allGather(call, std::move(input), 0);
                       if (!r)
                         world.fail(r.error());
                     });
      };
      // Like the backend's input, the raw send buffer is written just before (so both send
      // data fresh in this core's cache, as a collective after the op that computed it does).
      auto rawRun = [&] {
        return timed(
            [&] {
              std::memcpy(rawIn.data(), piece.bytes().data(), static_cast<size_t>(part) * 4);
            },
            [&] {
              MPI_Allgather(rawIn.data(), static_cast<int>(part), MPI_FLOAT, rawOut.data(),
                            static_cast<int>(part), MPI_FLOAT, MPI_COMM_WORLD);
            });
      };
      double bt, rt;
      if (it % 2 == 0) {
        bt = backend();
        rt = rawRun();
      } else {
        rt = rawRun();
        bt = backend();
      }
      if (it >= kWarmup) {
        backendTimes.push_back(bt);
        rawTimes.push_back(rt);
      }
    }
    b = median(backendTimes);
    raw = median(rawTimes);
    if (world.rank() == 0)
      std::printf("%-11s %5d %6lld %12.3f %12.3f %12.2f %8.2f\n", "all-gather", ranks,
                  static_cast<long long>(mb), b * 1e3, raw * 1e3, bytes / b / 1e9, raw / b);
  }
  world.finalize();
  return 0;
}
