// convolution with full StableHLO semantics: window strides, padding (negative crops), lhs and
// rhs dilation, window reversal, any dimension numbers, feature_group_count and
// batch_group_count. Each group becomes one matrix product over an im2col matrix, built and
// multiplied a chunk of rows at a time:
//   A[(n, y...)][(k..., c)] = padded, dilated lhs under output position y and kernel position k
//   B[(k..., c)][o]         = rhs (reversed where asked) for output feature o of the group
// f32 runs through OpenBLAS sgemm; the other float types through dgemm in double (rounded once
// when stored); integers through a 64-bit wrap-around loop. dynamic_conv is the same op with its
// padding given as a `rank x 2` integer operand.
#include "core/exec/detail/kernel.h"

#include <cblas.h>

#include <algorithm>

namespace shardscope::exec::detail {

namespace {

using ir::ElementType;

struct ConvPlan {
  ir::stablehlo::ConvDimensionNumbers dims;
  std::vector<int64_t> strides, padLow, lhsDilation, rhsDilation, reversal;
  std::vector<int64_t> inSpatial, kernelSpatial, outSpatial;
  int64_t featureGroups = 1, batchGroups = 1;
  int64_t batch = 0, inFeatures = 0, kernelInFeatures = 0, outFeatures = 0;
  int64_t groups = 1, outBatch = 0, groupOutFeatures = 0;
  int64_t kernelVolume = 1, outVolume = 1;
};

std::optional<std::vector<int64_t>> listOr(const ir::Operation& op, std::string_view name,
                                           size_t size, int64_t fallback) {
  if (!op.attr(name))
    return std::vector<int64_t>(size, fallback);
  auto list = intListAttr(op, name);
  if (!list || list->size() != size)
    return std::nullopt;
  return list;
}

// Every dimension of a rank-`rank` tensor named exactly once by `a`, `b` and `spatial`.
bool isPermutation(int64_t a, int64_t b, const std::vector<int64_t>& spatial, int64_t rank) {
  std::vector<int64_t> all = spatial;
  all.push_back(a);
  all.push_back(b);
  std::sort(all.begin(), all.end());
  if (static_cast<int64_t>(all.size()) != rank)
    return false;
  for (int64_t d = 0; d < rank; ++d)
    if (all[d] != d)
      return false;
  return true;
}

// dynamic_conv's padding operand: `rank` rows of [low, high].
std::optional<std::vector<int64_t>> paddingOperand(KernelContext& ctx, size_t rank) {
  const Tensor& t = ctx.operands[2];
  if (ir::isFloatElement(t.elementType()) ||
      t.shape() != std::vector<int64_t>{static_cast<int64_t>(rank), 2})
    return std::nullopt;
  std::vector<int64_t> out;
  for (int64_t i = 0; i < t.numElements(); ++i)
    out.push_back(t.intAt(i));
  return out;
}

bool readAttributes(KernelContext& ctx, size_t rank, ConvPlan& p) {
  auto strides = listOr(ctx.op, "window_strides", rank, 1);
  auto padding =
      ctx.operands.size() == 3 ? paddingOperand(ctx, rank) : listOr(ctx.op, "padding", 2 * rank, 0);
  auto lhsDilation = listOr(ctx.op, "lhs_dilation", rank, 1);
  auto rhsDilation = listOr(ctx.op, "rhs_dilation", rank, 1);
  auto reversal = listOr(ctx.op, "window_reversal", rank, 0);
  if (!strides || !padding || !lhsDilation || !rhsDilation || !reversal)
    return ctx.fail("expected window attributes with one entry per spatial dimension (" +
                    std::to_string(rank) + ")");
  p.strides = *strides;
  p.lhsDilation = *lhsDilation;
  p.rhsDilation = *rhsDilation;
  p.reversal = *reversal;
  for (size_t d = 0; d < rank; ++d) {
    p.padLow.push_back((*padding)[2 * d]);
    if (p.strides[d] < 1 || p.lhsDilation[d] < 1 || p.rhsDilation[d] < 1)
      return ctx.fail("window strides and dilations must be positive");
  }
  p.featureGroups = intAttr(ctx.op, "feature_group_count").value_or(1);
  p.batchGroups = intAttr(ctx.op, "batch_group_count").value_or(1);
  if (p.featureGroups < 1 || p.batchGroups < 1)
    return ctx.fail("group counts must be positive");
  if (p.featureGroups > 1 && p.batchGroups > 1)
    return ctx.fail("feature_group_count and batch_group_count cannot both exceed 1");
  // Output spatial sizes follow from the padded, dilated input and the dilated kernel.
  for (size_t d = 0; d < rank; ++d) {
    int64_t in = p.inSpatial[d], k = p.kernelSpatial[d];
    int64_t padded =
        (in == 0 ? 0 : (in - 1) * p.lhsDilation[d] + 1) + (*padding)[2 * d] + (*padding)[2 * d + 1];
    int64_t window = k == 0 ? 0 : (k - 1) * p.rhsDilation[d] + 1;
    p.outSpatial.push_back(padded < window || k == 0 ? 0 : (padded - window) / p.strides[d] + 1);
  }
  return true;
}

bool planConvolution(KernelContext& ctx, const Tensor& lhs, const Tensor& rhs, const Tensor& out,
                     ConvPlan& p) {
  auto dims = ir::stablehlo::convDimensionNumbers(ctx.op);
  if (!dims)
    return ctx.fail("expected 'dimension_numbers'");
  p.dims = *dims;
  const auto& d = p.dims;
  size_t rank = d.inputSpatial.size();
  if (!isPermutation(d.inputBatch, d.inputFeature, d.inputSpatial, lhs.rank()) ||
      !isPermutation(d.kernelInputFeature, d.kernelOutputFeature, d.kernelSpatial, rhs.rank()) ||
      !isPermutation(d.outputBatch, d.outputFeature, d.outputSpatial, out.rank()) ||
      d.kernelSpatial.size() != rank || d.outputSpatial.size() != rank)
    return ctx.fail("dimension numbers do not match operand ranks " + lhs.type().str() + ", " +
                    rhs.type().str());
  for (size_t i = 0; i < rank; ++i) {
    p.inSpatial.push_back(lhs.shape()[d.inputSpatial[i]]);
    p.kernelSpatial.push_back(rhs.shape()[d.kernelSpatial[i]]);
  }
  if (!readAttributes(ctx, rank, p))
    return false;
  p.batch = lhs.shape()[d.inputBatch];
  p.inFeatures = lhs.shape()[d.inputFeature];
  p.kernelInFeatures = rhs.shape()[d.kernelInputFeature];
  p.outFeatures = rhs.shape()[d.kernelOutputFeature];
  p.groups = std::max(p.featureGroups, p.batchGroups);
  if (p.inFeatures != p.kernelInFeatures * p.featureGroups || p.batch % p.batchGroups != 0 ||
      p.outFeatures % p.groups != 0)
    return ctx.fail("feature and batch sizes do not divide into the groups");
  p.outBatch = p.batch / p.batchGroups;
  p.groupOutFeatures = p.outFeatures / p.groups;
  bool shapeOk =
      out.shape()[d.outputBatch] == p.outBatch && out.shape()[d.outputFeature] == p.outFeatures;
  for (size_t i = 0; i < rank; ++i) {
    shapeOk = shapeOk && out.shape()[d.outputSpatial[i]] == p.outSpatial[i];
    p.kernelVolume *= p.kernelSpatial[i];
    p.outVolume *= p.outSpatial[i];
  }
  if (!shapeOk)
    return ctx.fail("result type " + out.type().str() + " does not match the convolution of " +
                    lhs.type().str() + " and " + rhs.type().str());
  return true;
}

template <typename T> T readAs(const Tensor& t, int64_t i) {
  if constexpr (std::is_same_v<T, float>)
    return t.elementType() == ElementType::F32 ? t.data<float>()[i]
                                               : static_cast<float>(t.floatAt(i));
  else if constexpr (std::is_same_v<T, double>)
    return t.elementType() == ElementType::F64 ? t.data<double>()[i] : t.floatAt(i);
  else
    return t.intAt(i);
}

// For every (output position, kernel position) pair, the lhs spatial offset it reads, or -1 when
// that falls on padding or a dilation hole. Indexed [y * kernelVolume + k].
std::vector<int64_t> spatialOffsets(const ConvPlan& p, const Tensor& lhs) {
  std::vector<int64_t> lhsStrides = lhs.strides();
  std::vector<int64_t> offsets;
  offsets.reserve(static_cast<size_t>(p.kernelVolume * p.outVolume));
  forEachIndex(p.outSpatial, [&](std::span<const int64_t> y, int64_t) {
    forEachIndex(p.kernelSpatial, [&](std::span<const int64_t> k, int64_t) {
      int64_t offset = 0;
      for (size_t d = 0; d < k.size() && offset >= 0; ++d) {
        int64_t q = y[d] * p.strides[d] + k[d] * p.rhsDilation[d] - p.padLow[d];
        if (q < 0 || q % p.lhsDilation[d] != 0 || q / p.lhsDilation[d] >= p.inSpatial[d])
          offset = -1;
        else
          offset += q / p.lhsDilation[d] * lhsStrides[p.dims.inputSpatial[d]];
      }
      offsets.push_back(offset);
    });
  });
  return offsets;
}

// Rows [rowBegin, rowEnd) of the im2col matrix of group `g` into `rows` (row r = (n, y...),
// columns (k..., c)). Every element is written, padding and dilation holes as zeros, so `rows`
// needs no clearing. Writes are sequential, and so are reads when features are the lhs's
// innermost dim (NHWC).
template <typename T>
void im2colRows(const ConvPlan& p, const Tensor& lhs, const std::vector<int64_t>& offsets,
                int64_t g, int64_t rowBegin, int64_t rowEnd, T* rows) {
  std::vector<int64_t> s = lhs.strides();
  int64_t features = p.kernelInFeatures, cols = features * p.kernelVolume;
  int64_t featureStride = s[p.dims.inputFeature];
  int64_t batchBase = p.batchGroups > 1 ? g * p.outBatch : 0;
  int64_t featureBase = p.featureGroups > 1 ? g * features : 0;
  // Innermost features of the operand's own type are copied as whole runs.
  bool contiguous =
      featureStride == 1 && ((std::is_same_v<T, float> && lhs.elementType() == ElementType::F32) ||
                             (std::is_same_v<T, double> && lhs.elementType() == ElementType::F64));
  T* row = rows;
  for (int64_t r = rowBegin; r < rowEnd; ++r, row += cols) {
    int64_t n = r / p.outVolume, y = r % p.outVolume;
    int64_t base = (batchBase + n) * s[p.dims.inputBatch] + featureBase * featureStride;
    for (int64_t k = 0; k < p.kernelVolume; ++k) {
      int64_t offset = offsets[static_cast<size_t>(y * p.kernelVolume + k)];
      T* to = row + k * features;
      if (offset < 0) {
        std::fill(to, to + features, T(0));
      } else if (contiguous) {
        const T* from = lhs.data<T>() + base + offset;
        std::copy(from, from + features, to);
      } else {
        for (int64_t c = 0; c < features; ++c)
          to[c] = readAs<T>(lhs, base + offset + c * featureStride);
      }
    }
  }
}

// The kernel matrix of group `g`: rows (k..., c), columns o within the group.
template <typename T> std::vector<T> kernelMatrix(const ConvPlan& p, const Tensor& rhs, int64_t g) {
  std::vector<int64_t> s = rhs.strides();
  int64_t features = p.kernelInFeatures;
  std::vector<T> b(static_cast<size_t>(features * p.kernelVolume * p.groupOutFeatures));
  forEachIndex(p.kernelSpatial, [&](std::span<const int64_t> k, int64_t kLinear) {
    int64_t spatial = 0;
    for (size_t d = 0; d < k.size(); ++d) {
      int64_t at = p.reversal[d] ? p.kernelSpatial[d] - 1 - k[d] : k[d];
      spatial += at * s[p.dims.kernelSpatial[d]];
    }
    for (int64_t c = 0; c < features; ++c) {
      int64_t offset = spatial + c * s[p.dims.kernelInputFeature];
      for (int64_t o = 0; o < p.groupOutFeatures; ++o)
        b[static_cast<size_t>((kLinear * features + c) * p.groupOutFeatures + o)] =
            readAs<T>(rhs, offset + (g * p.groupOutFeatures + o) * s[p.dims.kernelOutputFeature]);
    }
  });
  return b;
}

// True when `dims` names 0, 1, ..., in that order: the tensor is row-major in that order.
bool inOrder(std::initializer_list<const std::vector<int64_t>*> parts) {
  int64_t next = 0;
  for (const std::vector<int64_t>* part : parts)
    for (int64_t d : *part)
      if (d != next++)
        return false;
  return true;
}

template <typename T> bool holds(const Tensor& t) {
  return (std::is_same_v<T, float> && t.elementType() == ElementType::F32) ||
         (std::is_same_v<T, double> && t.elementType() == ElementType::F64);
}

// A matrix operand of the GEMM: its first element and leading dimension.
template <typename T> struct MatrixRef {
  T* data;
  int64_t ld;
};

// c = a * b for row-major m x k and k x n matrices. Integers accumulate into `c`, which the
// caller has cleared, with wrap-around.
template <typename T>
void multiply(int64_t m, int64_t n, int64_t k, MatrixRef<const T> a, MatrixRef<const T> b,
              MatrixRef<T> c) {
  if (m == 0 || n == 0 || k == 0) // BLAS rejects zero leading dimensions
    return;
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a.data, a.ld, b.data,
                b.ld, 0.0f, c.data, c.ld);
  else if constexpr (std::is_same_v<T, double>)
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a.data, a.ld, b.data, b.ld,
                0.0, c.data, c.ld);
  else
    for (int64_t i = 0; i < m; ++i)
      for (int64_t x = 0; x < k; ++x) {
        auto av = static_cast<uint64_t>(a.data[i * a.ld + x]);
        for (int64_t j = 0; j < n; ++j) // wrap-around without signed-overflow UB
          c.data[i * c.ld + j] = static_cast<T>(static_cast<uint64_t>(c.data[i * c.ld + j]) +
                                                av * static_cast<uint64_t>(b.data[x * b.ld + j]));
      }
}

// Copies GEMM rows [r0, r1) of group `g` from `c` (row-major, one column per output feature of
// the group) to their places in `out`, rounding to its element type.
template <typename T>
void scatterRows(const ConvPlan& p, const std::vector<int64_t>& outSpatialOffset, int64_t g,
                 int64_t r0, int64_t r1, const T* c, Tensor& out) {
  std::vector<int64_t> os = out.strides();
  int64_t featureStride = os[p.dims.outputFeature];
  for (int64_t r = r0; r < r1; ++r) {
    int64_t n = r / p.outVolume, y = r % p.outVolume;
    int64_t base = n * os[p.dims.outputBatch] + outSpatialOffset[static_cast<size_t>(y)] +
                   g * p.groupOutFeatures * featureStride;
    const T* from = c + (r - r0) * p.groupOutFeatures;
    for (int64_t o = 0; o < p.groupOutFeatures; ++o) {
      int64_t to = base + o * featureStride;
      if constexpr (std::is_same_v<T, float>)
        out.data<float>()[to] = from[o]; // only used when the result is f32
      else if constexpr (std::is_same_v<T, double>)
        out.setFloat(to, from[o]);
      else
        out.setInt(to, from[o]);
    }
  }
}

// The im2col matrix is filled and multiplied a chunk of rows at a time: the chunk stays in cache
// while the GEMM reads it, and a large convolution never holds its whole im2col matrix.
constexpr int64_t kChunkBytes = int64_t{2} << 20;
constexpr int64_t kMinChunkRows = 256;

template <typename T>
void convolve(const ConvPlan& p, const Tensor& lhs, const Tensor& rhs, Tensor& out) {
  std::vector<int64_t> offsets = spatialOffsets(p, lhs);
  const auto& d = p.dims;
  std::vector<int64_t> os = out.strides();
  std::vector<int64_t> outSpatialOffset;
  forEachIndex(p.outSpatial, [&](std::span<const int64_t> y, int64_t) {
    int64_t offset = 0;
    for (size_t i = 0; i < y.size(); ++i)
      offset += y[i] * os[d.outputSpatial[i]];
    outSpatialOffset.push_back(offset);
  });
  std::vector<int64_t> batchDim = {d.outputBatch}, featureDim = {d.outputFeature};
  std::vector<int64_t> inDim = {d.kernelInputFeature}, outDim = {d.kernelOutputFeature};
  // Results go straight into `out` when its rows (n, y...) are contiguous with features
  // innermost ([b, 0, 1, f]); the kernel is read in place when it is [0, 1, i, o], unreversed.
  bool directOut = holds<T>(out) && inOrder({&batchDim, &d.outputSpatial, &featureDim});
  bool directKernel =
      holds<T>(rhs) && inOrder({&d.kernelSpatial, &inDim, &outDim}) &&
      std::all_of(p.reversal.begin(), p.reversal.end(), [](int64_t r) { return r == 0; });
  int64_t rows = p.outBatch * p.outVolume, cols = p.kernelInFeatures * p.kernelVolume;
  int64_t rowBytes = std::max<int64_t>(1, cols * static_cast<int64_t>(sizeof(T)));
  int64_t chunkRows =
      std::min(std::max(kMinChunkRows, kChunkBytes / rowBytes), std::max<int64_t>(1, rows));
  std::vector<T> a(static_cast<size_t>(chunkRows * cols));
  std::vector<T> scratch;
  if (!directOut)
    scratch.resize(static_cast<size_t>(chunkRows * p.groupOutFeatures));
  if (directOut && cols == 0)
    std::fill(out.data<T>(), out.data<T>() + out.numElements(), T(0));
  for (int64_t g = 0; g < p.groups; ++g) {
    std::vector<T> packedKernel;
    MatrixRef<const T> b{nullptr, p.groupOutFeatures};
    if (directKernel) {
      b = {rhs.data<T>() + g * p.groupOutFeatures, p.outFeatures};
    } else {
      packedKernel = kernelMatrix<T>(p, rhs, g);
      b.data = packedKernel.data();
    }
    for (int64_t r0 = 0; r0 < rows; r0 += chunkRows) {
      int64_t r1 = std::min(rows, r0 + chunkRows);
      im2colRows<T>(p, lhs, offsets, g, r0, r1, a.data());
      if (directOut) {
        T* c = out.data<T>() + r0 * p.outFeatures + g * p.groupOutFeatures;
        multiply<T>(r1 - r0, p.groupOutFeatures, cols, {a.data(), cols}, b, {c, p.outFeatures});
        continue;
      }
      if constexpr (std::is_integral_v<T>)
        std::fill(scratch.begin(), scratch.end(), T(0));
      multiply<T>(r1 - r0, p.groupOutFeatures, cols, {a.data(), cols}, b,
                  {scratch.data(), p.groupOutFeatures});
      scatterRows(p, outSpatialOffset, g, r0, r1, scratch.data(), out);
    }
  }
}

bool convolution(KernelContext& ctx) {
  if (!ctx.expectOperands(ctx.op.is("stablehlo.dynamic_conv") ? 3 : 2))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0, ResultFill::None); // `convolve` writes it all
  if (!out)
    return false;
  const Tensor& lhs = ctx.operands[0];
  const Tensor& rhs = ctx.operands[1];
  bool floats = ir::isFloatElement(lhs.elementType()) && ir::isFloatElement(rhs.elementType());
  if (floats != ir::isFloatElement(out->elementType()) ||
      (!floats && (ir::isFloatElement(lhs.elementType()) || ir::isFloatElement(rhs.elementType()))))
    return ctx.fail("mixed float and integer operands or result are not supported");
  ConvPlan plan;
  if (!planConvolution(ctx, lhs, rhs, *out, plan))
    return false;
  ElementType e = out->elementType();
  if (e == ElementType::F32 && lhs.elementType() == e && rhs.elementType() == e)
    convolve<float>(plan, lhs, rhs, *out);
  else if (floats)
    convolve<double>(plan, lhs, rhs, *out);
  else
    convolve<int64_t>(plan, lhs, rhs, *out);
  ctx.results.push_back(std::move(*out));
  return true;
}

} // namespace

void registerConvolutionKernels(std::map<std::string, Kernel, std::less<>>& t) {
  t["stablehlo.convolution"] = convolution;
  t["stablehlo.dynamic_conv"] = convolution; // padding from its third operand
}

} // namespace shardscope::exec::detail
