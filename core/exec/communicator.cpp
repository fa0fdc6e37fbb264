#include "core/exec/communicator.h"

#include <algorithm>
#include <cmath>

namespace shardscope::exec {

namespace {

template <typename T> T apply(Reduction::Kind kind, T a, T b) {
  switch (kind) {
  case Reduction::Kind::Add:
    return static_cast<T>(a + b);
  case Reduction::Kind::Multiply:
    return static_cast<T>(a * b);
  case Reduction::Kind::Maximum:
    return std::max(a, b);
  case Reduction::Kind::Minimum:
    return std::min(a, b);
  default:
    return a;
  }
}

// Typed loop for the element types whose native arithmetic equals the interpreter's rounding
// (f32 computed in double and rounded once, f64, and wrapping i32/i64 via unsigned).
template <typename T, typename Acc>
void combineTyped(Reduction::Kind kind, const Tensor& lhs, const Tensor& rhs, Tensor& out) {
  const T* a = lhs.data<T>();
  const T* b = rhs.data<T>();
  T* o = out.data<T>();
  int64_t n = out.numElements();
  for (int64_t i = 0; i < n; ++i)
    o[i] = static_cast<T>(apply<Acc>(kind, static_cast<Acc>(a[i]), static_cast<Acc>(b[i])));
}

double floatOp(Reduction::Kind kind, double a, double b) {
  switch (kind) {
  case Reduction::Kind::Maximum:
    return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
  case Reduction::Kind::Minimum:
    return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
  default:
    return apply<double>(kind, a, b);
  }
}

void combineOne(Reduction::Kind kind, const Tensor& lhs, const Tensor& rhs, Tensor& out) {
  ir::ElementType e = lhs.elementType();
  bool isFloat = ir::isFloatElement(e);
  bool logical = kind == Reduction::Kind::And || kind == Reduction::Kind::Or;
  if (!logical && kind != Reduction::Kind::Maximum && kind != Reduction::Kind::Minimum) {
    if (e == ir::ElementType::F32)
      return combineTyped<float, double>(kind, lhs, rhs, out);
    if (e == ir::ElementType::F64)
      return combineTyped<double, double>(kind, lhs, rhs, out);
    if (e == ir::ElementType::I32)
      return combineTyped<int32_t, uint32_t>(kind, lhs, rhs, out);
    if (e == ir::ElementType::I64)
      return combineTyped<int64_t, uint64_t>(kind, lhs, rhs, out);
  }
  bool isUnsigned = e == ir::ElementType::UI8 || e == ir::ElementType::UI16 ||
                    e == ir::ElementType::UI32 || e == ir::ElementType::UI64 ||
                    e == ir::ElementType::I1;
  for (int64_t i = 0; i < out.numElements(); ++i) {
    if (isFloat) {
      out.setFloat(i, floatOp(kind, lhs.floatAt(i), rhs.floatAt(i)));
      continue;
    }
    int64_t a = lhs.intAt(i), b = rhs.intAt(i);
    int64_t r = 0;
    if (kind == Reduction::Kind::And)
      r = a & b;
    else if (kind == Reduction::Kind::Or)
      r = a | b;
    else if (kind == Reduction::Kind::Maximum || kind == Reduction::Kind::Minimum) {
      bool less = isUnsigned ? static_cast<uint64_t>(a) < static_cast<uint64_t>(b) : a < b;
      r = (kind == Reduction::Kind::Maximum) == less ? b : a;
    } else
      r = static_cast<int64_t>(apply<uint64_t>(kind, static_cast<uint64_t>(a),
                                               static_cast<uint64_t>(b)));
    out.setInt(i, r);
  }
}

} // namespace

void reduceInto(Reduction::Kind kind, Tensor& acc, const Tensor& rhs) {
  // Element i of the output depends only on element i of the inputs, so writing into `acc`
  // while reading it is safe.
  combineOne(kind, acc, rhs, acc);
}

Reduction builtinReduction(Reduction::Kind kind) {
  Reduction r;
  r.kind = kind;
  r.combine = [kind](const std::vector<Tensor>& lhs,
                     const std::vector<Tensor>& rhs) -> std::optional<std::vector<Tensor>> {
    std::vector<Tensor> out;
    out.reserve(lhs.size());
    for (size_t i = 0; i < lhs.size() && i < rhs.size(); ++i) {
      Tensor t(lhs[i].elementType(), lhs[i].shape());
      combineOne(kind, lhs[i], rhs[i], t);
      out.push_back(std::move(t));
    }
    return out;
  };
  return r;
}

} // namespace shardscope::exec
