// Propagation of a transformer-like program (tests/bench/transformer_generator.h): parse, verify
// and propagate separately and together, at 10k and 100k ops, with the process's peak memory.
#include "tests/bench/transformer_generator.h"

#include "core/io/mlir/mlir.h"
#include "core/propagation/propagate_basic.h"
#include "core/sharding/verifier.h"
#include "core/support/diagnostic.h"

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstring>
#include <fstream>
#include <map>

namespace {

using namespace shardscope;

const std::string& program(size_t ops) {
  static std::map<size_t, std::string> cache;
  auto it = cache.find(ops);
  if (it == cache.end())
    it = cache.emplace(ops, bench::generateTransformerModule(ops)).first;
  return it->second;
}

std::unique_ptr<ir::Module> parseOrDie(benchmark::State& state, const std::string& text) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, 1, sink);
  if (!module)
    state.SkipWithError("the generated program does not parse");
  return module;
}

void setCounters(benchmark::State& state, size_t ops) {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["ops"] = static_cast<double>(ops);
  state.counters["peak_RSS_MB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
  state.counters["ops_per_second"] =
      benchmark::Counter(static_cast<double>(ops), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Propagate(benchmark::State& state) {
  size_t ops = static_cast<size_t>(state.range(0));
  const std::string& text = program(ops);
  for (auto _ : state) {
    state.PauseTiming();
    auto module = parseOrDie(state, text);
    state.ResumeTiming();
    if (!module)
      break;
    support::CollectingSink sink;
    propagation::PropagationOptions options;
    options.level = propagation::PropagationLevel::UserPriority;
    bool ok = propagation::propagate(*module, options, sink);
    benchmark::DoNotOptimize(ok);
    if (!ok)
      state.SkipWithError("propagation failed");
    state.PauseTiming();
    module.reset();
    state.ResumeTiming();
  }
  setCounters(state, ops);
}

void BM_ParseVerifyPropagate(benchmark::State& state) {
  size_t ops = static_cast<size_t>(state.range(0));
  const std::string& text = program(ops);
  for (auto _ : state) {
    auto module = parseOrDie(state, text);
    if (!module)
      break;
    support::CollectingSink sink;
    bool ok = sharding::verifyModule(*module, sink);
    propagation::PropagationOptions options;
    options.level = propagation::PropagationLevel::UserPriority;
    ok = ok && propagation::propagate(*module, options, sink);
    benchmark::DoNotOptimize(ok);
    if (!ok)
      state.SkipWithError("verification or propagation failed");
  }
  setCounters(state, ops);
}

BENCHMARK(BM_Propagate)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseVerifyPropagate)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

// `--dump-program FILE` writes the 100k-op program to FILE and exits, so that the output of
// `shardscope-cli opt FILE -sdy-propagation-pipeline` can be compared before and after a change.
bool dumpProgram(int argc, char** argv) {
  if (argc != 3 || std::strcmp(argv[1], "--dump-program") != 0)
    return false;
  std::ofstream(argv[2]) << program(100000);
  return true;
}

} // namespace

int main(int argc, char** argv) {
  if (dumpProgram(argc, argv))
    return 0;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
