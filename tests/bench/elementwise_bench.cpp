// The interpreter's elementwise kernels on 16M-element f32 tensors (64 MB each): one whole
// `Interpreter::run` of a one-op function per iteration (inputs handed in, the kernel, the result
// check), as a program step costs. `tests/bench/exec_bench/run_exec_bench.sh` runs it next to
// NumPy on the same machine and prints the throughput ratios.
#include "core/exec/interpreter.h"
#include "core/io/mlir/mlir.h"
#include "core/support/diagnostic.h"

#include <benchmark/benchmark.h>

#include <random>

namespace {

using namespace shardscope;

constexpr int64_t kElements = int64_t{16} << 20;

exec::Tensor randomF32(unsigned seed, float lo, float hi) {
  exec::Tensor t = exec::Tensor::uninitialized(ir::ElementType::F32, {kElements});
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  float* p = t.data<float>();
  for (int64_t i = 0; i < kElements; ++i)
    p[i] = dist(rng);
  return t;
}

std::string program(const std::string& op, int operands, const std::string& resultType = "") {
  std::string t = "tensor<" + std::to_string(kElements) + "xf32>";
  std::string r = resultType.empty() ? t : resultType;
  std::string args = "%a: " + t + (operands == 2 ? ", %b: " + t : "");
  std::string uses = operands == 2 ? "%a, %b" : "%a";
  std::string sig = operands == 2 ? " : " + t : " : " + t;
  if (op.starts_with("compare"))
    return "func.func @main(" + args + ") -> " + r + " {\n  %r = stablehlo.compare GT, %a, %b : (" +
           t + ", " + t + ") -> " + r + "\n  return %r : " + r + "\n}\n";
  return "func.func @main(" + args + ") -> " + r + " {\n  %r = stablehlo." + op + " " + uses +
         sig + "\n  return %r : " + r + "\n}\n";
}

void runProgram(benchmark::State& state, const std::string& text, std::vector<exec::Tensor> inputs) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, /*fileId=*/1, sink);
  if (!module) {
    state.SkipWithError("the benchmark program does not parse");
    return;
  }
  exec::Interpreter interpreter(*module);
  for (auto _ : state) {
    auto results = interpreter.run("main", inputs, sink); // copies share the input buffers
    if (!results) {
      state.SkipWithError("the interpreter failed");
      return;
    }
    benchmark::DoNotOptimize(results->front().bytes().data());
  }
  state.SetBytesProcessed(state.iterations() * kElements * 4 * static_cast<int64_t>(inputs.size() + 1));
}

void BM_AddF32(benchmark::State& state) {
  runProgram(state, program("add", 2), {randomF32(1, -1, 1), randomF32(2, -1, 1)});
}
void BM_MultiplyF32(benchmark::State& state) {
  runProgram(state, program("multiply", 2), {randomF32(1, -1, 1), randomF32(2, -1, 1)});
}
void BM_TanhF32(benchmark::State& state) {
  runProgram(state, program("tanh", 1), {randomF32(3, -4, 4)});
}
void BM_ExpF32(benchmark::State& state) {
  runProgram(state, program("exponential", 1), {randomF32(4, -4, 4)});
}
void BM_LogF32(benchmark::State& state) {
  runProgram(state, program("log", 1), {randomF32(5, 0.001f, 4)});
}
void BM_LogisticF32(benchmark::State& state) {
  runProgram(state, program("logistic", 1), {randomF32(6, -4, 4)});
}
void BM_CompareF32(benchmark::State& state) {
  runProgram(state, program("compare", 2, "tensor<" + std::to_string(kElements) + "xi1>"),
             {randomF32(1, -1, 1), randomF32(2, -1, 1)});
}

BENCHMARK(BM_AddF32)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_MultiplyF32)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_TanhF32)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_ExpF32)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_LogF32)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_LogisticF32)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_CompareF32)->Unit(benchmark::kMillisecond)->MinTime(1.0);

} // namespace

BENCHMARK_MAIN();
