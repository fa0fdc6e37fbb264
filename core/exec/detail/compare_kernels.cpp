// compare, select, clamp, convert, bitcast_convert, is_finite, constant and iota.
#include "core/exec/detail/kernel.h"
#include "core/exec/detail/typed_loops.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstring>
#include <type_traits>

namespace shardscope::exec::detail {

namespace {

using ir::ElementType;

enum class Direction { EQ, NE, GE, GT, LE, LT };

std::optional<Direction> parseDirection(const std::string& text) {
  static const std::pair<const char*, Direction> kNames[] = {
      {"EQ", Direction::EQ}, {"NE", Direction::NE}, {"GE", Direction::GE},
      {"GT", Direction::GT}, {"LE", Direction::LE}, {"LT", Direction::LT}};
  for (const auto& [name, dir] : kNames)
    if (text == name)
      return dir;
  return std::nullopt;
}

// -1, 0 or 1 for ordered operands; `unordered` is set when a NaN is involved.
template <typename T> int threeWay(T a, T b) { return a < b ? -1 : (b < a ? 1 : 0); }

bool holds(Direction dir, int cmp) {
  switch (dir) {
  case Direction::EQ:
    return cmp == 0;
  case Direction::NE:
    return cmp != 0;
  case Direction::GE:
    return cmp >= 0;
  case Direction::GT:
    return cmp > 0;
  case Direction::LE:
    return cmp <= 0;
  case Direction::LT:
    return cmp < 0;
  }
  return false;
}

// The IEEE totalOrder key of element `i`: sign-magnitude bits mapped onto a signed line where
// -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.
int64_t totalOrderKey(const Tensor& t, int64_t i) {
  size_t width = Tensor::elementBytes(t.elementType());
  uint64_t bits = 0;
  std::memcpy(&bits, t.bytes().data() + static_cast<size_t>(i) * width, width);
  uint64_t sign = uint64_t{1} << (width * 8 - 1);
  int64_t magnitude = static_cast<int64_t>(bits & (sign - 1));
  return (bits & sign) ? -magnitude - 1 : magnitude;
}

// The totalOrder key of one part of a complex element, in the part type (f32 or f64).
int64_t partKey(double v, ElementType part) {
  uint64_t bits = part == ElementType::F32 ? std::bit_cast<uint32_t>(static_cast<float>(v))
                                           : std::bit_cast<uint64_t>(v);
  uint64_t sign = uint64_t{1} << (part == ElementType::F32 ? 31 : 63);
  int64_t magnitude = static_cast<int64_t>(bits & (sign - 1));
  return (bits & sign) ? -magnitude - 1 : magnitude;
}

// Complex elements compare lexicographically on (real, imaginary), as the spec says. Under
// FLOAT a NaN part makes the pair unordered (only NE holds); TOTALORDER orders the parts' keys.
bool compareComplex(std::complex<double> x, std::complex<double> y, ElementType part, Direction dir,
                    const std::string& type) {
  if (type == "TOTALORDER") {
    int cmp = threeWay(partKey(x.real(), part), partKey(y.real(), part));
    return holds(dir, cmp != 0 ? cmp : threeWay(partKey(x.imag(), part), partKey(y.imag(), part)));
  }
  if (std::isnan(x.real()) || std::isnan(x.imag()) || std::isnan(y.real()) || std::isnan(y.imag()))
    return dir == Direction::NE;
  int cmp = threeWay(x.real(), y.real());
  return holds(dir, cmp != 0 ? cmp : threeWay(x.imag(), y.imag()));
}

bool compareElement(const Tensor& a, int64_t i, const Tensor& b, int64_t j, Direction dir,
                    const std::string& type) {
  if (ir::isComplexElement(a.elementType()))
    return compareComplex(a.complexAt(i), b.complexAt(j), complexPartType(a.elementType()), dir,
                          type);
  if (type == "TOTALORDER")
    return holds(dir, threeWay(totalOrderKey(a, i), totalOrderKey(b, j)));
  if (type == "FLOAT") {
    double x = a.floatAt(i), y = b.floatAt(j);
    if (std::isnan(x) || std::isnan(y))
      return dir == Direction::NE; // unordered: only "not equal" holds
    return holds(dir, threeWay(x, y));
  }
  if (type == "UNSIGNED")
    return holds(dir,
                 threeWay(static_cast<uint64_t>(a.intAt(i)), static_cast<uint64_t>(b.intAt(j))));
  return holds(dir, threeWay(a.intAt(i), b.intAt(j)));
}

std::string defaultCompareType(ElementType e) {
  if (ir::isFloatElement(e) || ir::isComplexElement(e))
    return "FLOAT";
  return ir::isUnsignedElement(e) || e == ElementType::I1 ? "UNSIGNED" : "SIGNED";
}

// The typed loop of compare: FLOAT on f32/f64 (IEEE comparisons are the spec's: NaN is unordered,
// so only NE holds, and -0 equals +0), SIGNED / UNSIGNED on integers of that signedness. Writes
// the i1 result bytes directly. Returns false, having done nothing, for anything else.
bool typedCompare(KernelContext& ctx, const Tensor& a, const Tensor& b, Direction dir,
                  const std::string& type) {
  ir::Type result = ctx.op.result(0)->type();
  if (ctx.dequantized || a.shape() != b.shape() || !result.isTensor() ||
      result.elementType() != ElementType::I1 || result.shape().size() != a.shape().size() ||
      !std::equal(a.shape().begin(), a.shape().end(), result.shape().begin()))
    return false;
  Tensor out = Tensor::uninitialized(ElementType::I1, a.shape());
  uint8_t* r = out.data<uint8_t>();
  int64_t n = a.numElements();
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const T* x = a.data<T>();
    const T* y = b.data<T>();
    switch (dir) {
    case Direction::EQ: mapBinary(x, y, r, n, [](T p, T q) -> uint8_t { return p == q; }); break;
    case Direction::NE: mapBinary(x, y, r, n, [](T p, T q) -> uint8_t { return !(p == q); }); break;
    case Direction::GE: mapBinary(x, y, r, n, [](T p, T q) -> uint8_t { return p >= q; }); break;
    case Direction::GT: mapBinary(x, y, r, n, [](T p, T q) -> uint8_t { return p > q; }); break;
    case Direction::LE: mapBinary(x, y, r, n, [](T p, T q) -> uint8_t { return p <= q; }); break;
    case Direction::LT: mapBinary(x, y, r, n, [](T p, T q) -> uint8_t { return p < q; }); break;
    }
  };
  ElementType e = a.elementType();
  bool done = false;
  if (type == "FLOAT")
    done = dispatchFloat(e, run);
  else if (type == (ir::isUnsignedElement(e) ? "UNSIGNED" : "SIGNED"))
    done = dispatchInteger(e, run);
  if (done)
    ctx.results.push_back(std::move(out));
  return done;
}

bool compare(KernelContext& ctx) {
  if (ctx.operands.size() == 2 && ctx.op.numResults() == 1 &&
      ctx.operands[0].type() == ctx.operands[1].type()) {
    std::optional<Direction> dir = parseDirection(enumCase(ctx.op, "comparison_direction"));
    std::string type = enumCase(ctx.op, "compare_type");
    if (type.empty())
      type = defaultCompareType(ctx.operands[0].elementType());
    if (dir && typedCompare(ctx, ctx.operands[0], ctx.operands[1], *dir, type))
      return true;
  }
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  std::optional<Direction> dir = parseDirection(enumCase(ctx.op, "comparison_direction"));
  if (!dir || ctx.operands.size() != 2)
    return ctx.fail("expected two operands and a comparison direction");
  const Tensor& a = ctx.operands[0];
  const Tensor& b = ctx.operands[1];
  if (a.type() != b.type() || a.shape() != out->shape())
    return ctx.fail("operand types " + a.type().str() + " and " + b.type().str() + " differ");
  std::string type = enumCase(ctx.op, "compare_type");
  if (type.empty())
    type = defaultCompareType(a.elementType());
  for (int64_t i = 0; i < out->numElements(); ++i)
    out->setInt(i, compareElement(a, i, b, i, *dir, type));
  ctx.results.push_back(std::move(*out));
  return true;
}

int64_t at(const Tensor& t, int64_t i) { return t.numElements() == 1 ? 0 : i; }

// Elementwise select on the elements' bytes, by element width: `out` gets `t` where `pred`
// (i1 bytes) is true, `f` elsewhere. False for widths other than 1, 2, 4 and 8 bytes.
bool selectTyped(const Tensor& pred, const Tensor& t, const Tensor& f, Tensor& out) {
  const uint8_t* p = pred.data<uint8_t>();
  int64_t n = out.numElements();
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const T* x = t.data<T>();
    const T* y = f.data<T>();
    T* r = out.data<T>();
    for (int64_t i = 0; i < n; ++i)
      r[i] = (p[i] & 1) ? x[i] : y[i];
  };
  switch (Tensor::elementBytes(out.elementType()) * (ir::isComplexElement(out.elementType()) ? 0 : 1)) {
  case 1: run(uint8_t{}); return true;
  case 2: run(uint16_t{}); return true;
  case 4: run(uint32_t{}); return true;
  case 8: run(uint64_t{}); return true;
  default: return false;
  }
}

bool select(KernelContext& ctx) {
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  if (ctx.operands.size() != 3)
    return ctx.fail("expected three operands");
  const Tensor& pred = ctx.operands[0];
  for (size_t k = 1; k < 3; ++k)
    if (ctx.operands[k].type() != out->type())
      return ctx.fail("operand " + ctx.operands[k].type().str() + " differs from the result");
  if (pred.numElements() != 1 && pred.shape() != out->shape())
    return ctx.fail("predicate " + pred.type().str() + " does not match the result");
  if (pred.elementType() == ElementType::I1 && pred.numElements() == 1) {
    // One predicate for all elements: the chosen operand is the result (its buffer is shared).
    ctx.results.push_back(ctx.operands[(pred.bytes()[0] & 1) ? 1 : 2]);
    return true;
  }
  if (pred.elementType() == ElementType::I1 && selectTyped(pred, ctx.operands[1], ctx.operands[2], *out)) {
    ctx.results.push_back(std::move(*out));
    return true;
  }
  for (int64_t i = 0; i < out->numElements(); ++i)
    copyElement(pred.intAt(at(pred, i)) ? ctx.operands[1] : ctx.operands[2], i, *out, i);
  ctx.results.push_back(std::move(*out));
  return true;
}

bool clamp(KernelContext& ctx) {
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  if (ctx.operands.size() != 3)
    return ctx.fail("expected three operands");
  const Tensor& lo = ctx.operands[0];
  const Tensor& x = ctx.operands[1];
  const Tensor& hi = ctx.operands[2];
  if (x.shape() != out->shape() || (lo.numElements() != 1 && lo.shape() != x.shape()) ||
      (hi.numElements() != 1 && hi.shape() != x.shape()))
    return ctx.fail("bounds do not match the operand " + x.type().str());
  bool isFloat = ir::isFloatElement(x.elementType());
  bool isUnsigned = defaultCompareType(x.elementType()) == "UNSIGNED";
  for (int64_t i = 0; i < out->numElements(); ++i) {
    if (isFloat) {
      double v = x.floatAt(i), l = lo.floatAt(at(lo, i)), h = hi.floatAt(at(hi, i));
      out->setFloat(
          i, std::isnan(v) || std::isnan(l) || std::isnan(h) ? NAN : std::min(std::max(v, l), h));
    } else if (isUnsigned) {
      auto v = static_cast<uint64_t>(x.intAt(i)), l = static_cast<uint64_t>(lo.intAt(at(lo, i))),
           h = static_cast<uint64_t>(hi.intAt(at(hi, i)));
      out->setInt(i, static_cast<int64_t>(std::min(std::max(v, l), h)));
    } else {
      out->setInt(i, std::min(std::max(x.intAt(i), lo.intAt(at(lo, i))), hi.intAt(at(hi, i))));
    }
  }
  ctx.results.push_back(std::move(*out));
  return true;
}

// The typed loop of convert between f32, f64 and the byte-wide and wider integers: float ->
// float rounds to nearest, integer -> float rounds to nearest once, integer -> integer wraps to
// the target width. Float -> integer saturates (per element, below), so it is not done here.
bool typedConvert(const Tensor& x, Tensor& out) {
  bool done = false;
  auto from = [&](auto inTag) {
    using In = decltype(inTag);
    auto to = [&](auto outTag) {
      using Out = decltype(outTag);
      if constexpr (std::is_floating_point_v<In> && !std::is_floating_point_v<Out>) {
        return;
      } else {
        mapUnary(x.data<In>(), out.data<Out>(), x.numElements(),
                 [](In v) { return static_cast<Out>(v); });
        done = true;
      }
    };
    dispatchNumeric(out.elementType(), to);
  };
  dispatchNumeric(x.elementType(), from);
  return done;
}

bool convert(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  const Tensor& x = ctx.operands[0];
  if (x.shape() != out->shape())
    return ctx.fail("shape changes from " + x.type().str());
  if (typedConvert(x, *out)) {
    ctx.results.push_back(std::move(*out));
    return true;
  }
  bool fromFloat = ir::isFloatElement(x.elementType());
  bool fromComplex = ir::isComplexElement(x.elementType());
  bool toFloat = ir::isFloatElement(out->elementType()) || ir::isComplexElement(out->elementType());
  bool toBool = out->elementType() == ElementType::I1;
  for (int64_t i = 0; i < out->numElements(); ++i) {
    // Complex -> complex keeps both parts; complex -> real keeps the real part (setComplex on a
    // real type, which saturates like float -> int); real -> complex zeroes the imaginary part
    // (setFloat/setInt on a complex type); complex -> i1 looks at the real part only, as
    // StableHLO's reference does.
    if (fromComplex && toBool)
      out->setInt(i, x.complexAt(i).real() != 0);
    else if (fromComplex)
      out->setComplex(i, x.complexAt(i));
    else if (fromFloat || toFloat)
      out->setFloat(i, x.floatAt(i)); // setFloat saturates float -> int and maps to i1 as != 0
    else
      out->setInt(i, toBool ? x.intAt(i) != 0 : x.intAt(i));
  }
  ctx.results.push_back(std::move(*out));
  return true;
}

// Between widths, the wider side has one more (last) dimension of size wide / narrow: the spec
// leaves the bit mapping to the implementation, and this is the little-endian byte order of the
// storage (the narrow element 0 holds the lowest bits), as on XLA's CPU backend.
bool bitcastShapesMatch(const Tensor& x, const Tensor& out) {
  size_t from = Tensor::elementBytes(x.elementType()), to = Tensor::elementBytes(out.elementType());
  if (from == to)
    return x.shape() == out.shape();
  const Tensor& narrow = from < to ? x : out;
  const Tensor& wide = from < to ? out : x;
  std::vector<int64_t> expected = wide.shape();
  expected.push_back(static_cast<int64_t>(std::max(from, to) / std::min(from, to)));
  bool hasBool = x.elementType() == ElementType::I1 || out.elementType() == ElementType::I1;
  return !hasBool && narrow.shape() == expected;
}

// The low `bits` bits of element `i`.
uint64_t rawBits(const Tensor& t, int64_t i, int bits) {
  uint64_t v = 0;
  size_t width = Tensor::elementBytes(t.elementType());
  std::memcpy(&v, t.bytes().data() + static_cast<size_t>(i) * width, width);
  return bits >= 64 ? v : v & ((uint64_t{1} << bits) - 1);
}

void setRawBits(Tensor& t, int64_t i, uint64_t v) {
  size_t width = Tensor::elementBytes(t.elementType());
  std::memcpy(t.bytes().data() + static_cast<size_t>(i) * width, &v, width);
}

// Bitcasts where a side is narrower than a byte (i1, i2, i4, the 6- and 4-bit floats): bit by
// bit, the narrow element 0 holding the lowest bits of the wide one, as StableHLO's reference
// concatenates them.
bool bitcastBits(KernelContext& ctx, const Tensor& x, Tensor& out) {
  int from = ir::elementBitWidth(x.elementType()), to = ir::elementBitWidth(out.elementType());
  if (from > 64 || to > 64 || std::max(from, to) % std::min(from, to) != 0)
    return ctx.fail("cannot bitcast " + x.type().str() + " to " + out.type().str());
  int64_t ratio = std::max(from, to) / std::min(from, to);
  const Tensor& narrow = from < to ? x : out;
  const Tensor& wide = from < to ? out : x;
  std::vector<int64_t> expected = wide.shape();
  if (ratio > 1)
    expected.push_back(ratio);
  if (narrow.shape() != expected)
    return ctx.fail("cannot bitcast " + x.type().str() + " to " + out.type().str());
  int narrowBits = std::min(from, to);
  for (int64_t j = 0; j < wide.numElements(); ++j) {
    if (from <= to) {
      uint64_t v = 0;
      for (int64_t k = 0; k < ratio; ++k)
        v |= rawBits(x, j * ratio + k, from) << (k * narrowBits);
      setRawBits(out, j, v);
    } else {
      uint64_t v = rawBits(x, j, from);
      for (int64_t k = 0; k < ratio; ++k)
        setRawBits(out, j * ratio + k,
                   (v >> (k * narrowBits)) & ((uint64_t{1} << narrowBits) - 1));
    }
  }
  return true;
}

bool bitcastConvert(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  const Tensor& x = ctx.operands[0];
  if (ir::elementBitWidth(x.elementType()) < 8 || ir::elementBitWidth(out->elementType()) < 8) {
    if (!bitcastBits(ctx, x, *out))
      return false;
    ctx.results.push_back(std::move(*out));
    return true;
  }
  if (!bitcastShapesMatch(x, *out))
    return ctx.fail("cannot bitcast " + x.type().str() + " to " + out->type().str());
  ctx.results.push_back(x.reinterpreted(out->elementType(), out->shape()));
  return true;
}

bool isFinite(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  if (ctx.operands[0].shape() != out->shape())
    return ctx.fail("shape changes from " + ctx.operands[0].type().str());
  for (int64_t i = 0; i < out->numElements(); ++i)
    out->setInt(i, std::isfinite(ctx.operands[0].floatAt(i)));
  ctx.results.push_back(std::move(*out));
  return true;
}

bool constant(KernelContext& ctx) {
  ir::Attribute value = ctx.op.attr("value");
  const auto* dense = value.as<ir::DenseElementsAttr>();
  std::shared_ptr<const ir::DenseElementsAttr> decoded;
  if (const auto* resource = value.as<ir::DenseResourceAttr>()) {
    std::string error;
    decoded = resource->toDense(error);
    if (!decoded)
      return ctx.fail(error);
    dense = decoded.get();
  }
  if (!dense)
    return ctx.fail("expected a dense 'value' attribute");
  std::optional<Tensor> t = Tensor::fromDense(*dense);
  if (!t)
    return ctx.fail("unsupported constant of type " + dense->type.str());
  ctx.results.push_back(std::move(*t));
  return true;
}

bool iota(KernelContext& ctx) {
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  std::optional<int64_t> dim = intAttr(ctx.op, "iota_dimension");
  if (!dim || *dim < 0 || *dim >= out->rank())
    return ctx.fail("invalid 'iota_dimension'");
  fillIota(*out, *dim);
  ctx.results.push_back(std::move(*out));
  return true;
}

} // namespace

void fillIota(Tensor& out, int64_t dim) {
  forEachIndex(out.shape(), [&](std::span<const int64_t> index, int64_t linear) {
    out.setInt(linear, index[dim]);
  });
}

std::optional<ElementCompare> ElementCompare::of(const ir::Operation& op, ir::ElementType e) {
  std::optional<Direction> dir = parseDirection(enumCase(op, "comparison_direction"));
  if (!dir)
    return std::nullopt;
  std::string type = enumCase(op, "compare_type");
  ElementCompare c;
  c.m_direction = static_cast<int>(*dir);
  c.m_type = type.empty() ? defaultCompareType(e) : type;
  return c;
}

bool ElementCompare::operator()(const Tensor& a, int64_t i, const Tensor& b, int64_t j) const {
  return compareElement(a, i, b, j, static_cast<Direction>(m_direction), m_type);
}

void registerCompareKernels(std::map<std::string, Kernel, std::less<>>& t) {
  t["stablehlo.compare"] = compare;
  t["stablehlo.select"] = select;
  t["stablehlo.clamp"] = clamp;
  t["stablehlo.convert"] = convert;
  t["stablehlo.bitcast_convert"] = bitcastConvert;
  t["stablehlo.is_finite"] = isFinite;
  t["stablehlo.constant"] = constant;
  t["stablehlo.iota"] = iota;
}

} // namespace shardscope::exec::detail
