#include "core/session/reorder_bounds.h"

#include "core/exec/interpreter.h"
#include "core/ir/stablehlo_attrs.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace shardscope::session {

namespace {

using exec::Tensor;

constexpr double kInf = std::numeric_limits<double>::infinity();

bool isRealFloat(const Tensor& t) { return ir::isFloatElement(t.elementType()); }

// The spacing of floats of type `element` around `x` (the subnormal spacing near zero).
double ulpOf(double x, ir::ElementType element) {
  int digits = 24, minExponent = -125;
  switch (element) {
  case ir::ElementType::F64: digits = 53; minExponent = -1021; break;
  case ir::ElementType::F16: digits = 11; minExponent = -13; break;
  case ir::ElementType::BF16: digits = 8; break;
  case ir::ElementType::F32: break;
  default: digits = 3; minExponent = -6; break; // the 8-bit floats, coarsely
  }
  int exponent = 0;
  std::frexp(std::isfinite(x) ? x : 0.0, &exponent);
  return std::ldexp(1.0, std::max(exponent, minExponent) - digits);
}

Tensor absOf(const Tensor& x) {
  Tensor out(x.elementType(), x.shape());
  for (int64_t i = 0; i < x.numElements(); ++i)
    out.setFloat(i, std::fabs(x.floatAt(i)));
  return out;
}

// The amount an operand is moved by: its bound plus the two ulps the comparison always allows.
Tensor widened(const Tensor& x, const Tensor* bound) {
  Tensor out(ir::ElementType::F64, x.shape());
  for (int64_t i = 0; i < x.numElements(); ++i)
    out.setFloat(i, (bound ? bound->floatAt(i) : 0.0) + 2 * ulpOf(x.floatAt(i), x.elementType()));
  return out;
}

// `x + sign * w` in the type of `x`.
Tensor shifted(const Tensor& x, const Tensor& w, double sign) {
  Tensor out(x.elementType(), x.shape());
  for (int64_t i = 0; i < x.numElements(); ++i)
    out.setFloat(i, x.floatAt(i) + sign * w.floatAt(i));
  return out;
}

// `w` in the element type of `like` (for ops that take it as an operand).
Tensor retyped(const Tensor& w, const Tensor& like) {
  Tensor out(like.elementType(), like.shape());
  for (int64_t i = 0; i < w.numElements(); ++i)
    out.setFloat(i, w.floatAt(i));
  return out;
}

Tensor filled(const Tensor& like, double value) {
  Tensor out(ir::ElementType::F64, like.shape());
  for (int64_t i = 0; i < out.numElements(); ++i)
    out.setFloat(i, value);
  return out;
}

// acc += scale * |t| elementwise (t shaped like acc); NaN counts as unbounded.
void addAbs(Tensor& acc, const Tensor& t, double scale) {
  for (int64_t i = 0; i < acc.numElements(); ++i) {
    double v = scale * std::fabs(t.floatAt(i));
    acc.setFloat(i, acc.floatAt(i) + (std::isnan(v) ? kInf : v));
  }
}

// Relative 1e-4 of each element plus 1e-5 of the largest magnitude (at least 1) for f32; the
// same shape for other widths: the tolerance of values no analysis bounds.
Tensor fallbackBound(const Tensor& r) {
  double rel = 1e-4, abs = 1e-5;
  if (r.elementType() == ir::ElementType::F64) {
    rel = 1e-9;
    abs = 1e-12;
  } else if (r.elementType() != ir::ElementType::F32) {
    rel = abs = 1e-2;
  }
  double scale = 1.0;
  for (int64_t i = 0; i < r.numElements(); ++i)
    if (std::isfinite(r.floatAt(i)))
      scale = std::max(scale, std::fabs(r.floatAt(i)));
  Tensor out(ir::ElementType::F64, r.shape());
  for (int64_t i = 0; i < r.numElements(); ++i)
    out.setFloat(i, rel * std::fabs(r.floatAt(i)) + abs * scale);
  return out;
}

double gamma(int64_t n, double u) {
  double nu = static_cast<double>(n) * u;
  return nu >= 1 ? kInf : nu / (1 - nu);
}

int64_t product(const std::vector<int64_t>& shape, const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    if (d >= 0 && d < static_cast<int64_t>(shape.size()))
      n *= shape[static_cast<size_t>(d)];
  return n;
}

// True when region 0 of `op` is `add` of its two arguments, returned.
bool addsInBody(const ir::Operation& op) {
  if (op.numRegions() == 0 || op.region(0).empty())
    return false;
  const ir::Block& body = op.region(0).front();
  if (body.ops().size() != 2)
    return false;
  const ir::Operation& first = *body.ops().front();
  return first.is("stablehlo.add") && first.numOperands() == 2 &&
         !first.operand(0)->definingOp() && !first.operand(1)->definingOp();
}

// The number of terms each result element of a summing op adds, or 0 for other ops.
int64_t termsPerElement(const ir::Operation& op, const std::vector<Tensor>& x) {
  if ((op.is("stablehlo.dot_general") || op.is("stablehlo.dot")) && x.size() == 2) {
    if (op.is("stablehlo.dot"))
      return x[0].shape().empty() ? 1 : x[0].shape().back();
    std::optional<ir::stablehlo::DotDimensionNumbers> dims = ir::stablehlo::dotDimensionNumbers(op);
    return dims ? product(x[0].shape(), dims->lhsContracting) : 0;
  }
  if (op.is("stablehlo.convolution") && x.size() == 2)
    return x[1].numElements(); // every kernel element: an upper bound of the window's terms
  if ((op.is("stablehlo.reduce") || op.is("stablehlo.reduce_window")) && x.size() == 2 &&
      addsInBody(op)) {
    // The init value is one more term of every sum.
    if (op.is("stablehlo.reduce")) {
      std::optional<std::vector<int64_t>> dims = ir::stablehlo::intListAttr(op, "dimensions");
      return dims ? 1 + product(x[0].shape(), *dims) : 0;
    }
    std::optional<std::vector<int64_t>> window =
        ir::stablehlo::intListAttr(op, "window_dimensions");
    if (!window)
      return 0;
    int64_t n = 1;
    for (int64_t size : *window)
      n *= std::max<int64_t>(size, 1);
    return 1 + n;
  }
  return 0;
}

// Evaluates the op being recorded on other operands.
struct Evaluation {
  const ir::Module& module;
  const ir::Operation& op;
  support::CollectingSink quiet;
  std::optional<std::vector<Tensor>> operator()(std::vector<Tensor> operands) {
    return exec::evaluateOp(module, op, std::move(operands), quiet);
  }
};

// A sum of n products (dot, convolution) or terms (add-reduce): the reordering error of the sum
// of |terms| plus what the operands' moves `w` can do. False when the op cannot be evaluated.
bool sumBound(Evaluation& eval, const std::vector<Tensor>& x, const std::vector<Tensor>& w,
              int64_t n, const Tensor& r, Tensor& acc) {
  bool isProduct = !eval.op.is("stablehlo.reduce") && !eval.op.is("stablehlo.reduce_window");
  auto sums = eval({absOf(x[0]), absOf(x[1])});
  auto moved = isProduct ? eval({absOf(x[0]), retyped(w[1], x[1])})
                         : eval({retyped(w[0], x[0]), retyped(w[1], x[1])});
  auto moved2 = isProduct ? eval({retyped(w[0], x[0]), absOf(x[1])}) : moved;
  if (!sums || !moved || !moved2)
    return false;
  addAbs(acc, (*sums)[0], 2 * gamma(n, ReorderBounds::unitRoundoff(r.elementType())));
  addAbs(acc, (*moved)[0], 1.0);
  if (isProduct)
    addAbs(acc, (*moved2)[0], 1.0);
  return true;
}

// `largest = max(largest, |got - expected|)` elementwise; a NaN where the other is not is an
// unbounded move.
void widenToward(Tensor& largest, const Tensor& got, const Tensor& expected) {
  if (largest.numElements() == 0 && expected.numElements() > 0)
    largest = Tensor(ir::ElementType::F64, expected.shape());
  for (int64_t e = 0; e < expected.numElements(); ++e) {
    double d = std::fabs(got.floatAt(e) - expected.floatAt(e));
    if (std::isnan(d))
      d = std::isnan(expected.floatAt(e)) && std::isnan(got.floatAt(e)) ? 0 : kInf;
    largest.setFloat(e, std::max(largest.floatAt(e), d));
  }
}

// Any other op: each float operand moved by its bound both ways; the results' bounds add up the
// largest move each operand causes. The ops this meets are monotone in each operand or
// piecewise so (elementwise arithmetic, exp/log/tanh, data movement, max/min reductions), where
// the ends of the interval bound it. Non-float results that change are `flipped`. False when
// the op cannot be evaluated.
bool movedBound(Evaluation& eval, const std::vector<Tensor>& x, const std::vector<Tensor>& w,
                const std::vector<Tensor>& r, std::vector<Tensor>& acc,
                std::vector<bool>& flipped) {
  for (size_t i = 0; i < x.size(); ++i) {
    if (!isRealFloat(x[i]))
      continue;
    std::vector<Tensor> largest(r.size());
    for (double sign : {1.0, -1.0}) {
      std::vector<Tensor> operands = x;
      operands[i] = shifted(x[i], w[i], sign);
      auto moved = eval(std::move(operands));
      if (!moved)
        return false;
      for (size_t j = 0; j < r.size(); ++j) {
        const Tensor& got = (*moved)[j];
        if (isRealFloat(r[j]))
          widenToward(largest[j], got, r[j]);
        else if (!(got == r[j]))
          flipped[j] = true;
      }
    }
    for (size_t j = 0; j < r.size(); ++j)
      if (largest[j].numElements() > 0)
        addAbs(acc[j], largest[j], 1.0);
  }
  return true;
}

} // namespace

double ReorderBounds::unitRoundoff(ir::ElementType element) {
  switch (element) {
  case ir::ElementType::F64: return 0x1.0p-53;
  case ir::ElementType::F32: return 0x1.0p-24;
  case ir::ElementType::F16: return 0x1.0p-11;
  case ir::ElementType::BF16: return 0x1.0p-8;
  default: return ir::isFloatElement(element) ? 0x1.0p-3 : 0.0;
  }
}

const exec::Tensor* ReorderBounds::bound(const ir::Value* value) const {
  auto it = m_bounds.find(value);
  return it == m_bounds.end() ? nullptr : &it->second;
}

void ReorderBounds::record(const ir::Operation& op,
                           const std::function<const exec::Tensor*(const ir::Value*)>& valueOf) {
  std::vector<Tensor> x, r;
  bool unstableIn = false;
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    const Tensor* t = valueOf(op.operand(i));
    if (!t || ir::isComplexElement(t->elementType()))
      return; // nothing to reason with: no bounds, the fallback tolerance applies
    unstableIn = unstableIn || unstable(op.operand(i));
    x.push_back(*t);
  }
  for (unsigned j = 0; j < op.numResults(); ++j) {
    const Tensor* t = valueOf(op.result(j));
    if (!t || ir::isComplexElement(t->elementType()))
      return;
    r.push_back(*t);
  }
  if (unstableIn) {
    // A flipped comparison upstream can change this value arbitrarily.
    for (unsigned j = 0; j < op.numResults(); ++j) {
      if (isRealFloat(r[j]))
        m_bounds[op.result(j)] = filled(r[j], kInf);
      else
        m_unstable.insert(op.result(j));
    }
    return;
  }
  bool anyFloatIn = false;
  std::vector<Tensor> w(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    if (isRealFloat(x[i])) {
      anyFloatIn = true;
      w[i] = widened(x[i], bound(op.operand(static_cast<unsigned>(i))));
    }
  std::vector<Tensor> acc;
  for (const Tensor& t : r)
    acc.push_back(Tensor(ir::ElementType::F64, t.shape()));

  Evaluation eval{m_module, op};
  int64_t n = anyFloatIn ? termsPerElement(op, x) : 0;
  bool analysed = true;
  if (n > 0 && isRealFloat(x[0]) && isRealFloat(x[1]) && isRealFloat(r[0])) {
    analysed = sumBound(eval, x, w, n, r[0], acc[0]);
  } else if ((op.is("stablehlo.sine") || op.is("stablehlo.cosine")) && isRealFloat(x[0])) {
    // Periodic: moving the argument both ways can land on nearly the same value twice while the
    // interval between covers whole periods. Their slope is at most 1 and their range 2.
    for (int64_t e = 0; e < r[0].numElements(); ++e)
      acc[0].setFloat(e, std::min(2.0, w[0].floatAt(e)));
  } else if (anyFloatIn) {
    std::vector<bool> flipped(r.size(), false);
    analysed = movedBound(eval, x, w, r, acc, flipped);
    for (size_t j = 0; j < r.size() && analysed; ++j)
      if (flipped[j])
        m_unstable.insert(op.result(static_cast<unsigned>(j)));
  }
  if (!analysed) {
    // No analysis: the values still need a bound, for their own comparison and for the ops that
    // use them, so they get the relative tolerance of `referenceTolerance` (scaled as there).
    for (unsigned j = 0; j < op.numResults(); ++j) {
      m_unstable.erase(op.result(j));
      if (isRealFloat(r[j])) {
        m_bounds[op.result(j)] = fallbackBound(r[j]);
        m_estimated.insert(op.result(j));
      }
    }
    return;
  }
  for (size_t j = 0; j < r.size(); ++j) {
    if (!isRealFloat(r[j]))
      continue;
    addAbs(acc[j], r[j], 2 * unitRoundoff(r[j].elementType()));
    m_bounds[op.result(static_cast<unsigned>(j))] = std::move(acc[j]);
  }
}

} // namespace shardscope::session
