// The interpreter's dense kernels against raw OpenBLAS on the same buffers in the same run:
// dot_general on f32 NxN matrices (N = 1024, 2048) against one cblas_sgemm, and an f32 NHWC
// convolution against one cblas_sgemm of its im2col shape. Each iteration times both sides with
// a steady clock; the reported time is the interpreter's, and the counters give both times and
// their ratio (interpreter / BLAS, 1.0 = no overhead). The interpreter's time covers a whole
// `Interpreter::run` of a one-op function: copying the inputs in, packing, the GEMM and the
// result check.
#include "core/exec/interpreter.h"
#include "core/io/mlir/mlir.h"
#include "core/support/diagnostic.h"

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <chrono>
#include <random>

namespace {

using namespace shardscope;
using Clock = std::chrono::steady_clock;

exec::Tensor randomF32(std::vector<int64_t> shape, unsigned seed) {
  exec::Tensor t(ir::ElementType::F32, std::move(shape));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.data<float>()[i] = dist(rng);
  return t;
}

std::string dotProgram(int64_t n) {
  std::string t = "tensor<" + std::to_string(n) + "x" + std::to_string(n) + "xf32>";
  return "func.func @main(%a: " + t + ", %b: " + t + ") -> " + t + " {\n" +
         "  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (" + t + ", " + t +
         ") -> " + t + "\n  return %r : " + t + "\n}\n";
}

// Times one interpreter run and one sgemm per iteration; `gemm` runs the BLAS side.
template <typename Gemm>
void timeAgainstBlas(benchmark::State& state, const std::string& text,
                     const std::vector<exec::Tensor>& inputs, double flops, Gemm gemm) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(text, /*fileId=*/1, sink);
  if (!module) {
    state.SkipWithError("the benchmark program does not parse");
    return;
  }
  exec::Interpreter interpreter(*module);
  double interpSeconds = 0, blasSeconds = 0;
  for (auto _ : state) {
    auto start = Clock::now();
    auto results = interpreter.run("main", inputs, sink);
    auto mid = Clock::now();
    gemm();
    auto end = Clock::now();
    if (!results) {
      state.SkipWithError("the interpreter failed");
      return;
    }
    benchmark::DoNotOptimize(results->front().bytes().data());
    double interp = std::chrono::duration<double>(mid - start).count();
    interpSeconds += interp;
    blasSeconds += std::chrono::duration<double>(end - mid).count();
    state.SetIterationTime(interp);
  }
  auto iterations = static_cast<double>(state.iterations());
  state.counters["interp_ms"] = interpSeconds / iterations * 1e3;
  state.counters["blas_ms"] = blasSeconds / iterations * 1e3;
  state.counters["ratio"] = interpSeconds / blasSeconds;
  state.counters["interp_GFLOPs"] = flops * iterations / interpSeconds * 1e-9;
  state.counters["blas_GFLOPs"] = flops * iterations / blasSeconds * 1e-9;
}

void BM_DotGeneralF32(benchmark::State& state) {
  int n = static_cast<int>(state.range(0));
  std::vector<exec::Tensor> inputs = {randomF32({n, n}, 1), randomF32({n, n}, 2)};
  std::vector<float> c(static_cast<size_t>(n) * static_cast<size_t>(n));
  timeAgainstBlas(state, dotProgram(n), inputs, 2.0 * n * n * n, [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, inputs[0].data<float>(),
                n, inputs[1].data<float>(), n, 0.0f, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  });
}
BENCHMARK(BM_DotGeneralF32)
    ->Arg(1024)
    ->Arg(2048)
    ->Iterations(3)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// A 3x3 "same" convolution, batch 8, 32x32 pixels, 64 -> 64 channels. Its BLAS reference is the
// GEMM the im2col form reduces to: (8 * 32 * 32) x (3 * 3 * 64) times (3 * 3 * 64) x 64.
void BM_ConvolutionF32(benchmark::State& state) {
  const int batch = 8, size = 32, channels = 64, k = 3;
  std::string in = "tensor<8x32x32x64xf32>", kernel = "tensor<3x3x64x64xf32>";
  std::string text = "func.func @main(%x: " + in + ", %w: " + kernel + ") -> " + in + " {\n" +
                     "  %r = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, "
                     "o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} "
                     "{batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (" +
                     in + ", " + kernel + ") -> " + in + "\n  return %r : " + in + "\n}\n";
  std::vector<exec::Tensor> inputs = {randomF32({batch, size, size, channels}, 3),
                                      randomF32({k, k, channels, channels}, 4)};
  int m = batch * size * size, depth = k * k * channels;
  exec::Tensor cols = randomF32({m, depth}, 5);
  std::vector<float> c(static_cast<size_t>(m) * channels);
  timeAgainstBlas(state, text, inputs, 2.0 * m * depth * channels, [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, channels, depth, 1.0f,
                cols.data<float>(), depth, inputs[1].data<float>(), channels, 0.0f, c.data(),
                channels);
    benchmark::DoNotOptimize(c.data());
  });
}
BENCHMARK(BM_ConvolutionF32)->Iterations(3)->UseManualTime()->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
