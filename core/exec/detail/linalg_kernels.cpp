// Linear algebra and normalization: cholesky, triangular_solve and batch_norm_inference /
// batch_norm_training / batch_norm_grad. All of them compute in double per batch of matrices
// (or per feature) and round once when storing.
#include "core/exec/detail/kernel.h"

#include <cmath>
#include <complex>

namespace shardscope::exec::detail {

namespace {

using Matrix = std::vector<double>; // row-major

bool expectFloat(KernelContext& ctx, const Tensor& t) {
  if (ir::isFloatElement(t.elementType()))
    return true;
  return ctx.fail("expected a floating-point tensor, got " + t.type().str());
}

// ---- cholesky --------------------------------------------------------------------------------

// The factor of one n x n matrix, reading only the `lower` (or upper) triangle. Entries that
// would need the square root of a non-positive number become NaN, and so does everything that
// depends on them (the spec leaves such results implementation-defined).
Matrix choleskyLower(const Matrix& a, int64_t n, bool lower) {
  auto at = [&](int64_t i, int64_t j) { return lower ? a[i * n + j] : a[j * n + i]; };
  Matrix l(static_cast<size_t>(n * n), 0.0);
  for (int64_t j = 0; j < n; ++j) {
    double diag = at(j, j);
    for (int64_t k = 0; k < j; ++k)
      diag -= l[j * n + k] * l[j * n + k];
    l[j * n + j] = diag > 0 ? std::sqrt(diag) : NAN;
    for (int64_t i = j + 1; i < n; ++i) {
      double v = at(i, j);
      for (int64_t k = 0; k < j; ++k)
        v -= l[i * n + k] * l[j * n + k];
      l[i * n + j] = v / l[j * n + j];
    }
  }
  return l;
}

bool cholesky(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  const Tensor& a = ctx.operands[0];
  if (!out || !expectFloat(ctx, a))
    return false;
  if (a.type() != out->type() || a.rank() < 2 || a.shape()[a.rank() - 1] != a.shape()[a.rank() - 2])
    return ctx.fail("expected square matrices of the result type, got " + a.type().str());
  bool lower = ir::stablehlo::boolAttr(ctx.op, "lower").value_or(false);
  int64_t n = a.shape().back();
  int64_t size = n * n, batches = n == 0 ? 0 : a.numElements() / size;
  for (int64_t b = 0; b < batches; ++b) {
    Matrix m(static_cast<size_t>(size));
    for (int64_t i = 0; i < size; ++i)
      m[i] = a.floatAt(b * size + i);
    Matrix l = choleskyLower(m, n, lower);
    // The other triangle is implementation-defined; it is zero here.
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        out->setFloat(b * size + i * n + j, lower ? l[i * n + j] : l[j * n + i]);
  }
  ctx.results.push_back(std::move(*out));
  return true;
}

// ---- triangular_solve ------------------------------------------------------------------------

// Solves m * x = b for x in place, m (n x n) triangular as `lower` says, b with `cols` columns.
// `T` is double, or std::complex<double> for complex systems.
template <typename T>
void substitute(const std::vector<T>& m, int64_t n, bool lower, std::vector<T>& b, int64_t cols) {
  for (int64_t step = 0; step < n; ++step) {
    int64_t i = lower ? step : n - 1 - step;
    for (int64_t c = 0; c < cols; ++c) {
      T v = b[i * cols + c];
      for (int64_t k = 0; k < n; ++k)
        if (lower ? k < i : k > i)
          v -= m[i * n + k] * b[k * cols + c];
      b[i * cols + c] = v / m[i * n + i];
    }
  }
}

struct SolveOptions {
  bool leftSide = true, lower = true, unitDiagonal = false, transpose = false;
  bool conjugate = false; ///< ADJOINT on a complex matrix
};

double conjugated(double v) { return v; }
std::complex<double> conjugated(std::complex<double> v) { return std::conj(v); }

// One batch: builds op(a) restricted to its triangle and solves; a right-side solve x op(a) = b
// is the left-side solve op(a)^T x^T = b^T.
template <typename T>
std::vector<T> solveOne(const std::vector<T>& a, int64_t n, std::vector<T> b, int64_t rows,
                        int64_t cols, const SolveOptions& o) {
  std::vector<T> m(static_cast<size_t>(n * n), T(0.0));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      bool inTriangle = o.lower ? j <= i : j >= i;
      T v = i == j && o.unitDiagonal ? T(1.0) : (inTriangle ? a[i * n + j] : T(0.0));
      if (o.conjugate)
        v = conjugated(v);
      bool transposed = o.transpose != !o.leftSide;
      (transposed ? m[j * n + i] : m[i * n + j]) = v;
    }
  bool lowerNow = o.lower != (o.transpose != !o.leftSide);
  if (o.leftSide) {
    substitute(m, n, lowerNow, b, cols);
    return b;
  }
  std::vector<T> bt(b.size());
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      bt[j * rows + i] = b[i * cols + j];
  substitute(m, n, lowerNow, bt, rows);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      b[i * cols + j] = bt[j * rows + i];
  return b;
}

bool triangularSolve(KernelContext& ctx) {
  if (!ctx.expectOperands(2))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  const Tensor& a = ctx.operands[0];
  const Tensor& b = ctx.operands[1];
  bool isComplex = ir::isComplexElement(a.elementType());
  if (!out || (!isComplex && !expectFloat(ctx, a)))
    return false;
  SolveOptions o;
  o.leftSide = ir::stablehlo::boolAttr(ctx.op, "left_side").value_or(false);
  o.lower = ir::stablehlo::boolAttr(ctx.op, "lower").value_or(false);
  o.unitDiagonal = ir::stablehlo::boolAttr(ctx.op, "unit_diagonal").value_or(false);
  std::string transpose = enumCase(ctx.op, "transpose_a");
  if (transpose != "NO_TRANSPOSE" && transpose != "TRANSPOSE" && transpose != "ADJOINT")
    return ctx.fail("expected 'transpose_a' NO_TRANSPOSE, TRANSPOSE or ADJOINT");
  o.transpose = transpose != "NO_TRANSPOSE"; // ADJOINT is TRANSPOSE for real matrices
  o.conjugate = transpose == "ADJOINT" && isComplex;
  int64_t r = a.rank();
  bool ok = r >= 2 && b.rank() == r && b.type() == out->type() &&
            a.elementType() == b.elementType() && a.shape()[r - 1] == a.shape()[r - 2] &&
            std::equal(a.shape().begin(), a.shape().end() - 2, b.shape().begin()) &&
            b.shape()[o.leftSide ? r - 2 : r - 1] == a.shape()[r - 1];
  if (!ok)
    return ctx.fail("operands " + a.type().str() + " and " + b.type().str() +
                    " do not form a triangular system");
  int64_t n = a.shape()[r - 1], rows = b.shape()[r - 2], cols = b.shape()[r - 1];
  int64_t batches = n * n == 0 || rows * cols == 0 ? 0 : b.numElements() / (rows * cols);
  for (int64_t k = 0; k < batches; ++k) {
    if (isComplex) {
      std::vector<std::complex<double>> am(static_cast<size_t>(n * n)),
          bm(static_cast<size_t>(rows * cols));
      for (int64_t i = 0; i < n * n; ++i)
        am[i] = a.complexAt(k * n * n + i);
      for (int64_t i = 0; i < rows * cols; ++i)
        bm[i] = b.complexAt(k * rows * cols + i);
      auto x = solveOne(am, n, std::move(bm), rows, cols, o);
      for (int64_t i = 0; i < rows * cols; ++i)
        out->setComplex(k * rows * cols + i, x[i]);
      continue;
    }
    Matrix am(static_cast<size_t>(n * n)), bm(static_cast<size_t>(rows * cols));
    for (int64_t i = 0; i < n * n; ++i)
      am[i] = a.floatAt(k * n * n + i);
    for (int64_t i = 0; i < rows * cols; ++i)
      bm[i] = b.floatAt(k * rows * cols + i);
    Matrix x = solveOne(am, n, std::move(bm), rows, cols, o);
    for (int64_t i = 0; i < rows * cols; ++i)
      out->setFloat(k * rows * cols + i, x[i]);
  }
  ctx.results.push_back(std::move(*out));
  return true;
}

// ---- batch norm ------------------------------------------------------------------------------

// Per-feature views of an operand: feature of each element and elements per feature.
struct FeatureLayout {
  int64_t featureIndex = 0, features = 0, perFeature = 0;
  std::vector<int64_t> featureOf;
};

std::optional<FeatureLayout> featureLayout(KernelContext& ctx, const Tensor& x,
                                           std::span<const Tensor> perFeature) {
  FeatureLayout f;
  f.featureIndex = intAttr(ctx.op, "feature_index").value_or(-1);
  if (!expectFloat(ctx, x))
    return std::nullopt;
  if (f.featureIndex < 0 || f.featureIndex >= x.rank()) {
    ctx.fail("invalid 'feature_index'");
    return std::nullopt;
  }
  f.features = x.shape()[f.featureIndex];
  for (const Tensor& t : perFeature)
    if (t.rank() != 1 || t.shape()[0] != f.features || t.elementType() != x.elementType()) {
      ctx.fail("expected 1-D tensors of " + std::to_string(f.features) + " elements, got " +
               t.type().str());
      return std::nullopt;
    }
  f.perFeature = f.features == 0 ? 0 : x.numElements() / f.features;
  f.featureOf.resize(static_cast<size_t>(x.numElements()));
  forEachIndex(x.shape(), [&](std::span<const int64_t> index, int64_t linear) {
    f.featureOf[linear] = index[f.featureIndex];
  });
  return f;
}

std::optional<double> epsilonOf(KernelContext& ctx) {
  if (const auto* e = ctx.op.attr("epsilon").as<ir::FloatAttr>())
    return e->value;
  ctx.fail("expected a float 'epsilon'");
  return std::nullopt;
}

// Per-feature sums of `fn(element)`.
template <typename Fn>
std::vector<double> featureSums(const FeatureLayout& f, int64_t count, Fn&& fn) {
  std::vector<double> sums(static_cast<size_t>(f.features), 0.0);
  for (int64_t i = 0; i < count; ++i)
    sums[f.featureOf[i]] += fn(i);
  return sums;
}

std::vector<double> doubles(const Tensor& t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numElements(); ++i)
    out.push_back(t.floatAt(i));
  return out;
}

std::optional<Tensor> resultLike(KernelContext& ctx, unsigned i, const Tensor& like) {
  std::optional<Tensor> out = ctx.makeResult(i);
  if (out && out->type() != like.type()) {
    ctx.fail("result " + std::to_string(i) + " " + out->type().str() + " does not match " +
             like.type().str());
    return std::nullopt;
  }
  return out;
}

bool batchNormInference(KernelContext& ctx) {
  if (!ctx.expectOperands(5))
    return false;
  const Tensor& x = ctx.operands[0];
  auto f = featureLayout(ctx, x, ctx.operands.subspan(1));
  auto eps = epsilonOf(ctx);
  std::optional<Tensor> out = f && eps ? resultLike(ctx, 0, x) : std::nullopt;
  if (!out)
    return false;
  auto scale = doubles(ctx.operands[1]), offset = doubles(ctx.operands[2]),
       mean = doubles(ctx.operands[3]), var = doubles(ctx.operands[4]);
  for (int64_t i = 0; i < x.numElements(); ++i) {
    int64_t c = f->featureOf[i];
    out->setFloat(i, scale[c] * (x.floatAt(i) - mean[c]) / std::sqrt(var[c] + *eps) + offset[c]);
  }
  ctx.results.push_back(std::move(*out));
  return true;
}

bool batchNormTraining(KernelContext& ctx) {
  if (!ctx.expectOperands(3))
    return false;
  const Tensor& x = ctx.operands[0];
  auto f = featureLayout(ctx, x, ctx.operands.subspan(1));
  auto eps = epsilonOf(ctx);
  std::optional<Tensor> out = f && eps ? resultLike(ctx, 0, x) : std::nullopt;
  std::optional<Tensor> meanOut = out ? resultLike(ctx, 1, ctx.operands[1]) : std::nullopt;
  std::optional<Tensor> varOut = meanOut ? resultLike(ctx, 2, ctx.operands[1]) : std::nullopt;
  if (!varOut)
    return false;
  auto n = static_cast<double>(f->perFeature);
  std::vector<double> mean =
      featureSums(*f, x.numElements(), [&](int64_t i) { return x.floatAt(i); });
  for (double& m : mean)
    m /= n;
  std::vector<double> var = featureSums(*f, x.numElements(), [&](int64_t i) {
    double d = x.floatAt(i) - mean[f->featureOf[i]];
    return d * d;
  });
  for (double& v : var)
    v /= n;
  auto scale = doubles(ctx.operands[1]), offset = doubles(ctx.operands[2]);
  for (int64_t i = 0; i < x.numElements(); ++i) {
    int64_t c = f->featureOf[i];
    out->setFloat(i, scale[c] * (x.floatAt(i) - mean[c]) / std::sqrt(var[c] + *eps) + offset[c]);
  }
  for (int64_t c = 0; c < f->features; ++c) {
    meanOut->setFloat(c, mean[c]);
    varOut->setFloat(c, var[c]);
  }
  ctx.results = {std::move(*out), std::move(*meanOut), std::move(*varOut)};
  return true;
}

// The spec's decomposition: with centered = x - mean and stddev = sqrt(var + eps),
//   grad_operand = scale / stddev / N * (N * dy - sum(dy) - centered * sum(dy * centered) /
//                  (var + eps)),  grad_scale = sum(dy * centered / stddev), grad_offset = sum(dy).
bool batchNormGrad(KernelContext& ctx) {
  if (!ctx.expectOperands(5))
    return false;
  const Tensor& x = ctx.operands[0];
  const Tensor& dy = ctx.operands[4];
  auto f = featureLayout(ctx, x, ctx.operands.subspan(1, 3));
  auto eps = epsilonOf(ctx);
  if (!f || !eps)
    return false;
  if (dy.type() != x.type())
    return ctx.fail("grad_output " + dy.type().str() + " does not match " + x.type().str());
  std::optional<Tensor> dx = resultLike(ctx, 0, x);
  std::optional<Tensor> dscale = dx ? resultLike(ctx, 1, ctx.operands[1]) : std::nullopt;
  std::optional<Tensor> doffset = dscale ? resultLike(ctx, 2, ctx.operands[1]) : std::nullopt;
  if (!doffset)
    return false;
  auto scale = doubles(ctx.operands[1]), mean = doubles(ctx.operands[2]),
       var = doubles(ctx.operands[3]);
  auto centered = [&](int64_t i) { return x.floatAt(i) - mean[f->featureOf[i]]; };
  int64_t count = x.numElements();
  std::vector<double> sumDy = featureSums(*f, count, [&](int64_t i) { return dy.floatAt(i); });
  std::vector<double> sumDyCentered =
      featureSums(*f, count, [&](int64_t i) { return dy.floatAt(i) * centered(i); });
  auto n = static_cast<double>(f->perFeature);
  for (int64_t i = 0; i < count; ++i) {
    int64_t c = f->featureOf[i];
    double ve = var[c] + *eps;
    double inner = dy.floatAt(i) * n - sumDy[c] - centered(i) * sumDyCentered[c] / ve;
    dx->setFloat(i, scale[c] / std::sqrt(ve) / n * inner);
  }
  for (int64_t c = 0; c < f->features; ++c) {
    dscale->setFloat(c, sumDyCentered[c] / std::sqrt(var[c] + *eps));
    doffset->setFloat(c, sumDy[c]);
  }
  ctx.results = {std::move(*dx), std::move(*dscale), std::move(*doffset)};
  return true;
}

} // namespace

void registerLinalgKernels(std::map<std::string, Kernel, std::less<>>& t) {
  t["stablehlo.cholesky"] = cholesky;
  t["stablehlo.triangular_solve"] = triangularSolve;
  t["stablehlo.batch_norm_inference"] = batchNormInference;
  t["stablehlo.batch_norm_training"] = batchNormTraining;
  t["stablehlo.batch_norm_grad"] = batchNormGrad;
}

} // namespace shardscope::exec::detail
