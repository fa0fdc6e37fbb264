// reduce (with its body executed, plus a fast path for single-op bodies of real types) and
// dot_general (f32/f64 through OpenBLAS, every other type, complex included, through a plain loop).
#include "core/exec/detail/kernel.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <complex>

namespace shardscope::exec::detail {

namespace {

// ---- reduce ---------------------------------------------------------------------------------

// For every input dimension, the stride of the result index it feeds (0 for reduced dims).
std::vector<int64_t> resultStrides(const Tensor& input, const std::vector<int64_t>& reduced,
                                   const Tensor& result) {
  std::vector<int64_t> outStrides = result.strides();
  std::vector<int64_t> strides(input.shape().size(), 0);
  size_t next = 0;
  for (int64_t d = 0; d < input.rank(); ++d)
    if (std::find(reduced.begin(), reduced.end(), d) == reduced.end())
      strides[d] = outStrides[next++];
  return strides;
}

void fastReduce(std::string_view op, const Tensor& input, const std::vector<int64_t>& strides,
                Tensor& out) {
  bool isFloat = ir::isFloatElement(input.elementType());
  bool u = ir::isUnsignedElement(input.elementType()) || input.elementType() == ir::ElementType::I1;
  forEachIndex(input.shape(), [&](std::span<const int64_t> index, int64_t linear) {
    int64_t r = 0;
    for (size_t d = 0; d < index.size(); ++d)
      r += index[d] * strides[d];
    // Storing after every step rounds like a sequential reduction in the element type.
    if (isFloat)
      out.setFloat(r, combineFloat(op, out.floatAt(r), input.floatAt(linear)));
    else
      out.setInt(r, combineInt(op, out.intAt(r), input.intAt(linear), u));
  });
}

bool regionReduce(KernelContext& ctx, size_t n, const std::vector<int64_t>& strides,
                  std::vector<Tensor>& outs) {
  bool ok = true;
  forEachIndex(ctx.operands[0].shape(), [&](std::span<const int64_t> index, int64_t linear) {
    if (!ok)
      return;
    int64_t r = 0;
    for (size_t d = 0; d < index.size(); ++d)
      r += index[d] * strides[d];
    std::vector<Tensor> args;
    for (size_t k = 0; k < n; ++k)
      args.push_back(scalarOf(outs[k], r));
    for (size_t k = 0; k < n; ++k)
      args.push_back(scalarOf(ctx.operands[k], linear));
    auto values = ctx.regions.runRegion(ctx.op.region(0), std::move(args));
    if (!values || values->size() != n) {
      ok = values ? ctx.fail("reduce body returned the wrong number of values") : false;
      return;
    }
    for (size_t k = 0; k < n; ++k)
      copyElement((*values)[k], 0, outs[k], r);
  });
  return ok;
}

// Rejects reductions whose result shapes are not the inputs' shapes minus `dims` (the kernels
// below index without bounds checks).
bool validReduce(KernelContext& ctx, size_t n, const std::vector<int64_t>& dims) {
  const Tensor& first = ctx.operands[0];
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < first.rank(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end())
      kept.push_back(first.shape()[d]);
  for (int64_t d : dims)
    if (d < 0 || d >= first.rank() || std::count(dims.begin(), dims.end(), d) != 1)
      return ctx.fail("invalid reduce dimension " + std::to_string(d));
  for (size_t k = 0; k < n; ++k) {
    ir::Type result = ctx.op.result(static_cast<unsigned>(k))->type();
    bool ok = ctx.operands[k].shape() == first.shape() && ctx.operands[n + k].numElements() == 1 &&
              ctx.operands[n + k].elementType() == ctx.operands[k].elementType() &&
              result.isTensor() &&
              std::vector<int64_t>(result.shape().begin(), result.shape().end()) == kept;
    if (!ok)
      return ctx.fail("reduce input " + std::to_string(k) + " does not match its result type");
  }
  return true;
}

bool reduce(KernelContext& ctx) {
  size_t n = ctx.operands.size() / 2;
  auto dims = intListAttr(ctx.op, "dimensions");
  if (n == 0 || ctx.operands.size() != 2 * n || !dims || ctx.op.numRegions() != 1 ||
      ctx.op.region(0).empty())
    return ctx.fail("expected inputs, init values, 'dimensions' and a body");
  if (ctx.op.numResults() != n || !validReduce(ctx, n, *dims))
    return ctx.op.numResults() != n ? ctx.fail("expected one result per input") : false;
  std::vector<Tensor> outs;
  for (size_t k = 0; k < n; ++k) {
    std::optional<Tensor> out = ctx.makeResult(static_cast<unsigned>(k));
    if (!out)
      return false;
    for (int64_t i = 0; i < out->numElements(); ++i)
      copyElement(ctx.operands[n + k], 0, *out, i);
    outs.push_back(std::move(*out));
  }
  std::vector<int64_t> strides = resultStrides(ctx.operands[0], *dims, outs[0]);
  std::string_view fast = n == 1 ? singleOpBody(ctx.op) : std::string_view();
  if (!fast.empty() && isFastCombiner(fast, outs[0].elementType()))
    fastReduce(fast, ctx.operands[0], strides, outs[0]);
  else if (!regionReduce(ctx, n, strides, outs))
    return false;
  ctx.results = std::move(outs);
  return true;
}

// ---- dot_general ----------------------------------------------------------------------------

// `t` with its dimensions reordered to `order` and packed row-major, each element read by `read`.
template <typename T, typename Read>
std::vector<T> packed(const Tensor& t, const std::vector<int64_t>& order, Read read) {
  std::vector<int64_t> shape, strides, src = t.strides();
  for (int64_t d : order) {
    shape.push_back(t.shape()[d]);
    strides.push_back(src[d]);
  }
  std::vector<T> out(static_cast<size_t>(t.numElements()));
  forEachIndex(shape, [&](std::span<const int64_t> index, int64_t linear) {
    int64_t from = 0;
    for (size_t d = 0; d < index.size(); ++d)
      from += index[d] * strides[d];
    out[static_cast<size_t>(linear)] = read(t, from);
  });
  return out;
}

// The sizes of the canonical `[batch, free, contracting]` problem.
struct DotPlan {
  std::vector<int64_t> lhsOrder, rhsOrder; // lhs: batch, free, contract; rhs: batch, contract, free
  int64_t batch = 1, m = 1, n = 1, k = 1;
  // Set when an operand's storage already is the canonical matrix transposed ([batch, contract,
  // free] for lhs, [batch, free, contract] for rhs): BLAS then reads it in place, transposed.
  bool lhsTransposed = false, rhsTransposed = false;
};

bool isIdentity(const std::vector<int64_t>& order) {
  for (size_t d = 0; d < order.size(); ++d)
    if (order[d] != static_cast<int64_t>(d))
      return false;
  return true;
}

std::vector<int64_t> concat(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                            const std::vector<int64_t>& c) {
  std::vector<int64_t> out = a;
  out.insert(out.end(), b.begin(), b.end());
  out.insert(out.end(), c.begin(), c.end());
  return out;
}

std::vector<int64_t> freeDims(const Tensor& t, const std::vector<int64_t>& a,
                              const std::vector<int64_t>& b) {
  std::vector<int64_t> out;
  for (int64_t d = 0; d < t.rank(); ++d)
    if (std::find(a.begin(), a.end(), d) == a.end() && std::find(b.begin(), b.end(), d) == b.end())
      out.push_back(d);
  return out;
}

int64_t product(const Tensor& t, const std::vector<int64_t>& dims) {
  int64_t p = 1;
  for (int64_t d : dims)
    p *= t.shape()[d];
  return p;
}

DotPlan planDot(const Tensor& lhs, const Tensor& rhs, const DotDims& dims) {
  DotPlan plan;
  std::vector<int64_t> lhsFree = freeDims(lhs, dims.lhsBatch, dims.lhsContract);
  std::vector<int64_t> rhsFree = freeDims(rhs, dims.rhsBatch, dims.rhsContract);
  plan.lhsOrder = dims.lhsBatch;
  plan.lhsOrder.insert(plan.lhsOrder.end(), lhsFree.begin(), lhsFree.end());
  plan.lhsOrder.insert(plan.lhsOrder.end(), dims.lhsContract.begin(), dims.lhsContract.end());
  plan.rhsOrder = dims.rhsBatch;
  plan.rhsOrder.insert(plan.rhsOrder.end(), dims.rhsContract.begin(), dims.rhsContract.end());
  plan.rhsOrder.insert(plan.rhsOrder.end(), rhsFree.begin(), rhsFree.end());
  plan.batch = product(lhs, dims.lhsBatch);
  plan.m = product(lhs, lhsFree);
  plan.k = product(lhs, dims.lhsContract);
  plan.n = product(rhs, rhsFree);
  plan.lhsTransposed = isIdentity(concat(dims.lhsBatch, dims.lhsContract, lhsFree));
  plan.rhsTransposed = isIdentity(concat(dims.rhsBatch, rhsFree, dims.rhsContract));
  return plan;
}

template <typename T> T readAs(const Tensor& t, int64_t i) {
  if constexpr (std::is_integral_v<T>)
    return t.intAt(i);
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return t.complexAt(i);
  else
    return static_cast<T>(t.floatAt(i));
}

template <typename T> void gemm(const DotPlan& p, const T* a, const T* b, T* c) {
  // BLAS rejects leading dimensions of 0; an empty contraction gives zeros.
  if (p.k == 0)
    std::fill(c, c + p.batch * p.m * p.n, T(0));
  if (p.m == 0 || p.n == 0 || p.k == 0)
    return;
  auto transA = p.lhsTransposed ? CblasTrans : CblasNoTrans;
  auto transB = p.rhsTransposed ? CblasTrans : CblasNoTrans;
  int64_t lda = p.lhsTransposed ? p.m : p.k, ldb = p.rhsTransposed ? p.k : p.n;
  for (int64_t i = 0; i < p.batch; ++i) {
    const T* ai = a + i * p.m * p.k;
    const T* bi = b + i * p.k * p.n;
    T* ci = c + i * p.m * p.n;
    if constexpr (std::is_same_v<T, float>)
      cblas_sgemm(CblasRowMajor, transA, transB, p.m, p.n, p.k, 1.0f, ai, lda, bi, ldb, 0.0f, ci,
                  p.n);
    else
      cblas_dgemm(CblasRowMajor, transA, transB, p.m, p.n, p.k, 1.0, ai, lda, bi, ldb, 0.0, ci,
                  p.n);
  }
}

// The BLAS operand for `t`: its own buffer when the plan reads it in place (already canonical,
// or canonical transposed), else a packed copy kept in `storage`.
template <typename T>
const T* blasOperand(const Tensor& t, const std::vector<int64_t>& order, bool transposed,
                     std::vector<T>& storage) {
  if (transposed || isIdentity(order))
    return t.data<T>();
  storage = packed<T>(t, order, readAs<T>);
  return storage.data();
}

template <typename T> void naiveGemm(const DotPlan& p, const T* a, const T* b, T* c) {
  for (int64_t i = 0; i < p.batch; ++i)
    for (int64_t r = 0; r < p.m; ++r)
      for (int64_t col = 0; col < p.n; ++col) {
        T acc = 0;
        for (int64_t x = 0; x < p.k; ++x) {
          T prod = a[(i * p.m + r) * p.k + x] * b[(i * p.k + x) * p.n + col];
          if constexpr (std::is_integral_v<T>) // wrap-around without signed-overflow UB
            acc = static_cast<T>(static_cast<uint64_t>(acc) + static_cast<uint64_t>(prod));
          else
            acc += prod;
        }
        c[(i * p.m + r) * p.n + col] = acc;
      }
}

// Dimension lists must be in range, disjoint, and pair up dims of equal size.
bool validDot(KernelContext& ctx, const Tensor& lhs, const Tensor& rhs, const DotDims& dims) {
  auto pairUp = [&](const std::vector<int64_t>& l, const std::vector<int64_t>& r) {
    if (l.size() != r.size())
      return false;
    for (size_t i = 0; i < l.size(); ++i)
      if (l[i] < 0 || l[i] >= lhs.rank() || r[i] < 0 || r[i] >= rhs.rank() ||
          lhs.shape()[l[i]] != rhs.shape()[r[i]])
        return false;
    return true;
  };
  auto disjoint = [](const Tensor& t, const std::vector<int64_t>& a,
                     const std::vector<int64_t>& b) {
    std::vector<int64_t> all = a;
    all.insert(all.end(), b.begin(), b.end());
    std::sort(all.begin(), all.end());
    return std::adjacent_find(all.begin(), all.end()) == all.end() &&
           static_cast<int64_t>(all.size()) <= t.rank();
  };
  if (pairUp(dims.lhsBatch, dims.rhsBatch) && pairUp(dims.lhsContract, dims.rhsContract) &&
      disjoint(lhs, dims.lhsBatch, dims.lhsContract) &&
      disjoint(rhs, dims.rhsBatch, dims.rhsContract))
    return true;
  return ctx.fail("invalid dot dimension numbers for " + lhs.type().str() + " and " +
                  rhs.type().str());
}

bool dotGeneral(KernelContext& ctx) {
  // Every path below writes every element (an empty contraction clears the BLAS result).
  std::optional<Tensor> out = ctx.makeResult(0, ResultFill::None);
  if (!out)
    return false;
  std::optional<DotDims> dims = dotDims(ctx.op);
  if (ctx.op.is("stablehlo.dot") && ctx.operands.size() == 2)
    dims = DotDims{{}, {}, {ctx.operands[0].rank() - 1}, {0}};
  if (!dims || ctx.operands.size() != 2)
    return ctx.fail("expected two operands and 'dot_dimension_numbers'");
  const Tensor& lhs = ctx.operands[0];
  const Tensor& rhs = ctx.operands[1];
  if (!validDot(ctx, lhs, rhs, *dims))
    return false;
  DotPlan plan = planDot(lhs, rhs, *dims);
  if (plan.batch * plan.m * plan.n != out->numElements())
    return ctx.fail("result type " + out->type().str() + " does not match the operands");
  ir::ElementType e = out->elementType();
  bool same = lhs.elementType() == e && rhs.elementType() == e;
  bool anyComplex = ir::isComplexElement(e) || ir::isComplexElement(lhs.elementType()) ||
                    ir::isComplexElement(rhs.elementType());
  if (anyComplex && !same)
    return ctx.fail("complex operands " + lhs.type().str() + " and " + rhs.type().str() +
                    " must have the result element type of " + out->type().str());
  if (anyComplex) {
    // A plain loop in double-precision complex arithmetic, rounded once per part.
    using Complex = std::complex<double>;
    std::vector<Complex> c(static_cast<size_t>(out->numElements()));
    naiveGemm(plan, packed<Complex>(lhs, plan.lhsOrder, readAs<Complex>).data(),
              packed<Complex>(rhs, plan.rhsOrder, readAs<Complex>).data(), c.data());
    for (int64_t i = 0; i < out->numElements(); ++i)
      out->setComplex(i, c[static_cast<size_t>(i)]);
  } else if (same && (e == ir::ElementType::F32 || e == ir::ElementType::F64)) {
    if (e == ir::ElementType::F32) {
      std::vector<float> a, b;
      gemm(plan, blasOperand(lhs, plan.lhsOrder, plan.lhsTransposed, a),
           blasOperand(rhs, plan.rhsOrder, plan.rhsTransposed, b), out->data<float>());
    } else {
      std::vector<double> a, b;
      gemm(plan, blasOperand(lhs, plan.lhsOrder, plan.lhsTransposed, a),
           blasOperand(rhs, plan.rhsOrder, plan.rhsTransposed, b), out->data<double>());
    }
  } else if (ir::isFloatElement(e)) {
    std::vector<double> c(static_cast<size_t>(out->numElements()));
    naiveGemm(plan, packed<double>(lhs, plan.lhsOrder, readAs<double>).data(),
              packed<double>(rhs, plan.rhsOrder, readAs<double>).data(), c.data());
    for (int64_t i = 0; i < out->numElements(); ++i)
      out->setFloat(i, c[static_cast<size_t>(i)]);
  } else {
    std::vector<int64_t> c(static_cast<size_t>(out->numElements()));
    naiveGemm(plan, packed<int64_t>(lhs, plan.lhsOrder, readAs<int64_t>).data(),
              packed<int64_t>(rhs, plan.rhsOrder, readAs<int64_t>).data(), c.data());
    for (int64_t i = 0; i < out->numElements(); ++i)
      out->setInt(i, c[static_cast<size_t>(i)]);
  }
  ctx.results.push_back(std::move(*out));
  return true;
}

} // namespace

std::string_view singleOpBody(const ir::Operation& op) {
  const ir::Block& body = op.region(0).front();
  if (body.ops().size() != 2 || body.numArguments() != 2)
    return {};
  const ir::Operation& combine = *body.ops().front();
  const ir::Operation& ret = *body.back();
  // Both block arguments, once each (every fast combiner is commutative, so order is free).
  bool argsInOrder = combine.numOperands() == 2 && combine.numResults() == 1 &&
                     combine.operand(0)->ownerBlock() == &body &&
                     combine.operand(1)->ownerBlock() == &body &&
                     combine.operand(0) != combine.operand(1);
  if (!argsInOrder || ret.numOperands() != 1 || ret.operand(0) != combine.result(0))
    return {};
  return combine.name();
}

double combineFloat(std::string_view op, double a, double b) {
  if (op == "stablehlo.add")
    return a + b;
  if (op == "stablehlo.multiply")
    return a * b;
  if (std::isnan(a) || std::isnan(b))
    return NAN;
  bool isMax = op == "stablehlo.maximum";
  if (a == b) // +0 > -0, as for the elementwise maximum/minimum
    return std::signbit(a) == isMax ? b : a;
  return isMax ? std::max(a, b) : std::min(a, b);
}

int64_t combineInt(std::string_view op, int64_t a, int64_t b, bool u) {
  auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  if (op == "stablehlo.add")
    return static_cast<int64_t>(ua + ub);
  if (op == "stablehlo.multiply")
    return static_cast<int64_t>(ua * ub);
  if (op == "stablehlo.and")
    return a & b;
  if (op == "stablehlo.or")
    return a | b;
  bool less = u ? ua < ub : a < b;
  return (op == "stablehlo.maximum") == less ? b : a;
}

bool isFastCombiner(std::string_view op, ir::ElementType e) {
  if (ir::isComplexElement(e))
    return false;
  bool isFloat = ir::isFloatElement(e);
  if (op == "stablehlo.add" || op == "stablehlo.multiply" || op == "stablehlo.maximum" ||
      op == "stablehlo.minimum")
    return true;
  return !isFloat && (op == "stablehlo.and" || op == "stablehlo.or");
}

Tensor scalarOf(const Tensor& t, int64_t i) {
  Tensor s(t.elementType(), {});
  copyElement(t, i, s, 0);
  return s;
}

void registerReduceKernels(std::map<std::string, Kernel, std::less<>>& t) {
  t["stablehlo.reduce"] = reduce;
  t["stablehlo.dot_general"] = dotGeneral;
  t["stablehlo.dot"] = dotGeneral;
}

} // namespace shardscope::exec::detail
