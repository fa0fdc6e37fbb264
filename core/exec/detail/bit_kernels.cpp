// Bit-level and miscellaneous elementwise ops: shift_left, shift_right_arithmetic,
// shift_right_logical, popcnt, count_leading_zeros, reduce_precision, map and
// get_dimension_size; plus explicit errors for the ops whose values `Tensor` cannot represent
// (tuples) or whose results are implementation-defined (rng).
#include "core/exec/detail/kernel.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace shardscope::exec::detail {

namespace {

using ir::ElementType;

// The element's bit pattern, zero-extended to 64 bits.
uint64_t bitsAt(const Tensor& t, int64_t i) {
  size_t width = Tensor::elementBytes(t.elementType());
  uint64_t bits = 0;
  std::memcpy(&bits, t.bytes().data() + static_cast<size_t>(i) * width, width);
  return bits;
}

void setBits(Tensor& t, int64_t i, uint64_t bits) {
  size_t width = Tensor::elementBytes(t.elementType());
  std::memcpy(t.bytes().data() + static_cast<size_t>(i) * width, &bits, width);
}

// StableHLO's integer types exclude `i1` (a boolean) and floats, so bit ops reject both.
bool expectIntegerOperands(KernelContext& ctx, size_t n, const Tensor& out) {
  if (!ctx.expectOperands(n))
    return false;
  for (const Tensor& t : ctx.operands) {
    ElementType e = t.elementType();
    if (ir::isFloatElement(e) || e == ElementType::I1)
      return ctx.fail("expected integer operands, got " + t.type().str());
    if (t.type() != out.type())
      return ctx.fail("operand " + t.type().str() + " differs from the result " + out.type().str());
  }
  return true;
}

enum class Shift { Left, RightArithmetic, RightLogical };

// Shift amounts are read as unsigned values of the element width, so a negative amount is a
// huge one: the spec's "shift >= bit width" cases (0, or all sign bits) then apply.
uint64_t shifted(uint64_t x, uint64_t amount, int width, Shift kind) {
  uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  bool negative = (x >> (width - 1)) & 1;
  if (amount >= static_cast<uint64_t>(width))
    return kind == Shift::RightArithmetic && negative ? mask : 0;
  switch (kind) {
  case Shift::Left:
    return (x << amount) & mask;
  case Shift::RightLogical:
    return x >> amount;
  case Shift::RightArithmetic:
    if (!negative)
      return x >> amount;
    return ((x >> amount) | ~(mask >> amount)) & mask;
  }
  return 0;
}

template <Shift kind> bool shift(KernelContext& ctx) {
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out || !expectIntegerOperands(ctx, 2, *out))
    return false;
  int width = ir::elementBitWidth(out->elementType());
  for (int64_t i = 0; i < out->numElements(); ++i)
    setBits(*out, i, shifted(bitsAt(ctx.operands[0], i), bitsAt(ctx.operands[1], i), width, kind));
  ctx.results.push_back(std::move(*out));
  return true;
}

bool popcnt(KernelContext& ctx) {
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out || !expectIntegerOperands(ctx, 1, *out))
    return false;
  for (int64_t i = 0; i < out->numElements(); ++i)
    setBits(*out, i, static_cast<uint64_t>(std::popcount(bitsAt(ctx.operands[0], i))));
  ctx.results.push_back(std::move(*out));
  return true;
}

bool countLeadingZeros(KernelContext& ctx) {
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out || !expectIntegerOperands(ctx, 1, *out))
    return false;
  int width = ir::elementBitWidth(out->elementType());
  for (int64_t i = 0; i < out->numElements(); ++i) {
    int zeros = std::countl_zero(bitsAt(ctx.operands[0], i)) - (64 - width);
    setBits(*out, i, static_cast<uint64_t>(zeros));
  }
  ctx.results.push_back(std::move(*out));
  return true;
}

// Exponent and mantissa widths of the interpreter's float types.
struct FloatFormat {
  int exponent, mantissa;
};
FloatFormat formatOf(ElementType e) {
  switch (e) {
  case ElementType::F64:
    return {11, 52};
  case ElementType::F32:
    return {8, 23};
  case ElementType::F16:
    return {5, 10};
  default:
    return {8, 7}; // bf16
  }
}

// XLA's reduce_precision on the raw bits of the element's own format: round the mantissa to
// nearest-even, then flush exponents outside the reduced range to zero or infinity. NaN stays NaN
// when mantissa bits remain (with none, a NaN becomes +infinity, as in StableHLO's reference).
uint64_t reducePrecisionBits(uint64_t x, FloatFormat src, int64_t exponentBits,
                             int64_t mantissaBits) {
  int totalBits = 1 + src.exponent + src.mantissa;
  uint64_t expMask = ((uint64_t{1} << src.exponent) - 1) << src.mantissa;
  uint64_t signMask = uint64_t{1} << (totalBits - 1);
  bool isNan = (x & expMask) == expMask && (x & ((uint64_t{1} << src.mantissa) - 1)) != 0;
  uint64_t original = x;
  if (mantissaBits < src.mantissa) {
    int drop = src.mantissa - static_cast<int>(mantissaBits);
    uint64_t lastKept = uint64_t{1} << drop;
    uint64_t bias = ((x & lastKept) >> drop) + (lastKept >> 1) - 1;
    x = (x + bias) & ~(lastKept - 1);
  }
  if (exponentBits < src.exponent) {
    uint64_t exponentBias = (uint64_t{1} << (src.exponent - 1)) - 1;
    uint64_t reducedBias = (uint64_t{1} << (exponentBits - 1)) - 1;
    uint64_t maxExponent = exponentBias + reducedBias;
    uint64_t minExponent = exponentBias - reducedBias;
    uint64_t exponent = x & expMask;
    if (exponent > (maxExponent << src.mantissa))
      x = (x & signMask) | expMask;
    else if (exponent <= (minExponent << src.mantissa))
      x = x & signMask;
  }
  // StableHLO's reference: a NaN stays itself while mantissa bits remain; with none left it
  // becomes positive infinity.
  if (isNan)
    return mantissaBits > 0 ? original : expMask;
  return x;
}

bool reducePrecision(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  std::optional<int64_t> e = intAttr(ctx.op, "exponent_bits");
  std::optional<int64_t> m = intAttr(ctx.op, "mantissa_bits");
  if (!e || !m || *e < 1 || *m < 0)
    return ctx.fail("expected 'exponent_bits' >= 1 and 'mantissa_bits' >= 0");
  const Tensor& x = ctx.operands[0];
  if (!ir::isFloatElement(x.elementType()) || x.type() != out->type())
    return ctx.fail("expected a floating-point operand of the result type, got " + x.type().str());
  FloatFormat format = formatOf(x.elementType());
  for (int64_t i = 0; i < out->numElements(); ++i)
    setBits(*out, i, reducePrecisionBits(bitsAt(x, i), format, *e, *m));
  ctx.results.push_back(std::move(*out));
  return true;
}

bool map(KernelContext& ctx) {
  std::optional<Tensor> out = ctx.makeResult(0);
  if (!out)
    return false;
  auto dims = intListAttr(ctx.op, "dimensions");
  if (ctx.operands.empty() || ctx.op.numRegions() != 1 || ctx.op.region(0).empty())
    return ctx.fail("expected operands and a computation region");
  for (int64_t d = 0; dims && d < static_cast<int64_t>(dims->size()); ++d)
    if ((*dims)[d] != d)
      return ctx.fail("'dimensions' must be [0, ..., rank - 1]");
  if (dims && static_cast<int64_t>(dims->size()) != out->rank())
    return ctx.fail("'dimensions' must be [0, ..., rank - 1]");
  for (const Tensor& t : ctx.operands)
    if (t.shape() != out->shape())
      return ctx.fail("operand " + t.type().str() + " does not match the result " +
                      out->type().str());
  for (int64_t i = 0; i < out->numElements(); ++i) {
    std::vector<Tensor> args;
    for (const Tensor& t : ctx.operands)
      args.push_back(scalarOf(t, i));
    auto values = ctx.regions.runRegion(ctx.op.region(0), std::move(args));
    if (!values)
      return false;
    if (values->size() != 1 || (*values)[0].rank() != 0 ||
        (*values)[0].elementType() != out->elementType())
      return ctx.fail("computation must return one scalar of the result element type");
    copyElement((*values)[0], 0, *out, i);
  }
  ctx.results.push_back(std::move(*out));
  return true;
}

bool getDimensionSize(KernelContext& ctx) {
  if (!ctx.expectOperands(1))
    return false;
  std::optional<Tensor> out = ctx.makeResult(0);
  std::optional<int64_t> dim = intAttr(ctx.op, "dimension");
  if (!out)
    return false;
  if (!dim || *dim < 0 || *dim >= ctx.operands[0].rank())
    return ctx.fail("invalid 'dimension'");
  if (out->numElements() != 1)
    return ctx.fail("expected a scalar result, got " + out->type().str());
  out->setInt(0, ctx.operands[0].shape()[*dim]);
  ctx.results.push_back(std::move(*out));
  return true;
}

// Ops whose values cannot be held by `Tensor` or whose results the spec leaves to the
// implementation; each says why instead of the generic "unsupported op".
bool unsupportedValues(KernelContext& ctx) {
  std::string_view name = ctx.op.name();
  if (name == "stablehlo.tuple" || name == "stablehlo.get_tuple_element")
    return ctx.fail("tuples are not representable by the interpreter's Tensor");
  if (name == "stablehlo.rng_bit_generator" || name == "stablehlo.rng")
    return ctx.fail("random number generation is implementation-defined and not modelled by "
                    "the interpreter");
  return ctx.fail("unsupported op");
}

} // namespace

void registerBitKernels(std::map<std::string, Kernel, std::less<>>& t) {
  t["stablehlo.shift_left"] = shift<Shift::Left>;
  t["stablehlo.shift_right_arithmetic"] = shift<Shift::RightArithmetic>;
  t["stablehlo.shift_right_logical"] = shift<Shift::RightLogical>;
  t["stablehlo.popcnt"] = popcnt;
  t["stablehlo.count_leading_zeros"] = countLeadingZeros;
  t["stablehlo.reduce_precision"] = reducePrecision;
  t["stablehlo.map"] = map;
  t["stablehlo.get_dimension_size"] = getDimensionSize;
  for (const char* name :
       {"stablehlo.tuple", "stablehlo.get_tuple_element", "stablehlo.rng_bit_generator",
        "stablehlo.rng"})
    t[name] = unsupportedValues;
}

} // namespace shardscope::exec::detail
