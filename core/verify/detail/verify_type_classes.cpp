// The element type classes of StableHLO's elementwise ops' operands (StablehloOps.td, Base.td):
// `sine` takes floats, complex numbers or quantized integers, `and` booleans or integers,
// `shift_left` integers, ... An operand outside its class is ODS's "operand #0 must be ranked
// tensor of ... values" error, checked before the op's other rules. Quantized operands are
// `checkQuantTypeClasses`'s; other types (tuples, tokens, unranked) are not judged here.

#include "core/verify/detail/op_context.h"
#include "core/verify/detail/quant_rules.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace shardscope::verify::detail {

namespace {

enum ElementClass : uint8_t {
  kPred = 1,    // HLO_Pred: i1
  kInt = 2,     // HLO_Int: signless and unsigned integers of 2 to 64 bits
  kFloat = 4,   // HLO_Float
  kComplex = 8, // HLO_Complex
};

struct OperandClass {
  unsigned classes;
  std::string_view description;
};

constexpr OperandClass kFpComplex{kFloat | kComplex,
                                  "float, complex or per-tensor integer quantized"};
constexpr OperandClass kFp{kFloat, "float or per-tensor integer quantized"};
constexpr OperandClass kInteger{kInt, "integer"};
constexpr OperandClass kFpOrComplex{kFloat | kComplex, "float or complex"};
constexpr OperandClass kPredOrInt{kPred | kInt, "pred (boolean) or integer"};
constexpr OperandClass kIntFpComplex{kInt | kFloat | kComplex,
                                     "integer, float, complex or per-tensor integer quantized"};

// The ops whose every operand is of one class (StablehloOps.td's operand declarations).
const std::unordered_map<std::string_view, OperandClass>& operandClasses() {
  static const std::unordered_map<std::string_view, OperandClass> table = {
      {"stablehlo.cbrt", kFpComplex},
      {"stablehlo.cosine", kFpComplex},
      {"stablehlo.exponential", kFpComplex},
      {"stablehlo.log", kFpComplex},
      {"stablehlo.log_plus_one", kFpComplex},
      {"stablehlo.logistic", kFpComplex},
      {"stablehlo.rsqrt", kFpComplex},
      {"stablehlo.sine", kFpComplex},
      {"stablehlo.sqrt", kFpComplex},
      {"stablehlo.tan", kFpComplex},
      {"stablehlo.tanh", kFpComplex},
      {"stablehlo.atan2", kFpComplex},
      {"stablehlo.ceil", kFp},
      {"stablehlo.floor", kFp},
      {"stablehlo.exponential_minus_one", kFpComplex},
      {"stablehlo.is_finite", kFp},
      {"stablehlo.round_nearest_afz", kFp},
      {"stablehlo.round_nearest_even", kFp},
      {"stablehlo.count_leading_zeros", kInteger},
      {"stablehlo.popcnt", kInteger},
      {"stablehlo.shift_left", kInteger},
      {"stablehlo.shift_right_arithmetic", kInteger},
      {"stablehlo.shift_right_logical", kInteger},
      {"stablehlo.imag", kFpOrComplex},
      {"stablehlo.real", kFpOrComplex},
      {"stablehlo.not", kPredOrInt},
      {"stablehlo.and", kPredOrInt},
      {"stablehlo.or", kPredOrInt},
      {"stablehlo.xor", kPredOrInt},
      {"stablehlo.negate", kIntFpComplex},
      {"stablehlo.subtract", kIntFpComplex},
      {"stablehlo.divide", kIntFpComplex},
      {"stablehlo.power", kIntFpComplex},
      {"stablehlo.remainder", kIntFpComplex},
  };
  return table;
}

unsigned classOf(ir::ElementType e) {
  if (e == ir::ElementType::I1)
    return kPred;
  if (ir::isComplexElement(e))
    return kComplex;
  if (ir::isFloatElement(e))
    return kFloat;
  if (ir::isIntegerElement(e))
    return kInt;
  return 0; // index: in no HLO class
}

// ---- Operands and results with a shape constraint as well (Base.td's HLO_StaticDimensionTensor,
// HLO_ScalarIntTensor, 0DTensorOf, StaticShapeTensorOf, ...) ---------------------------------

enum class ShapeRule : uint8_t {
  Any,             ///< ranked tensor of the classes
  Rank0,           ///< 0D tensor
  Rank1,           ///< 1D tensor
  Static,          ///< statically shaped tensor
  Static1D,        ///< statically shaped 1-dimensional tensor
  StaticOrBounded, ///< statically shaped, or one bounded dimension (a bounded type passes)
};

constexpr unsigned kIndex = 16; // Index: in HLO_DimensionValue only
constexpr unsigned kAnyClass = kPred | kInt | kFloat | kComplex;

struct ValueConstraint {
  bool result = false;
  unsigned first = 0;
  /// The last operand or result it applies to; kToEnd for the rest (variadic).
  unsigned last = 0;
  unsigned classes = kAnyClass;
  ShapeRule shape = ShapeRule::Any;
  std::string_view description; ///< ODS's summary: "<shape> of <classes> values"
};
constexpr unsigned kToEnd = ~0u;

constexpr std::string_view kDimensionTensor =
    "statically shaped 1-dimensional tensor of index or 2/4/8/16/32/64-bit integer values";

// The ops' declarations in StablehloOps.td whose constraint is more than an element class.
const std::unordered_map<std::string_view, std::vector<ValueConstraint>>& valueConstraints() {
  static const std::unordered_map<std::string_view, std::vector<ValueConstraint>> table = {
      {"stablehlo.constant",
       {{true, 0, 0, kAnyClass, ShapeRule::Static, "statically shaped tensor"}}},
      {"stablehlo.iota",
       {{true, 0, 0, kInt | kFloat | kComplex, ShapeRule::Static,
         "statically shaped tensor of integer, float, complex or quantized integer values"}}},
      {"stablehlo.dynamic_iota",
       {{false, 0, 0, kIndex | kInt, ShapeRule::Static1D, kDimensionTensor}}},
      {"stablehlo.broadcast_in_dim",
       {{true, 0, 0, kAnyClass, ShapeRule::StaticOrBounded,
         "statically shaped or single bounded dimension tensor"}}},
      {"stablehlo.reshape",
       {{true, 0, 0, kAnyClass, ShapeRule::StaticOrBounded,
         "statically shaped or single bounded dimension tensor"}}},
      {"stablehlo.dynamic_broadcast_in_dim",
       {{false, 1, 1, kIndex | kInt, ShapeRule::Static1D, kDimensionTensor}}},
      {"stablehlo.dynamic_reshape",
       {{false, 1, 1, kIndex | kInt, ShapeRule::Static1D, kDimensionTensor}}},
      {"stablehlo.dynamic_pad",
       {{false, 2, 4, kIndex | kInt, ShapeRule::Static1D, kDimensionTensor}}},
      {"stablehlo.real_dynamic_slice",
       {{false, 1, 3, kIndex | kInt, ShapeRule::Rank1,
         "1D tensor of index or 2/4/8/16/32/64-bit integer values"}}},
      {"stablehlo.dynamic_slice",
       {{false, 1, kToEnd, kInt, ShapeRule::Rank0, "0D tensor of 2/4/8/16/32/64-bit integer values"}}},
      {"stablehlo.dynamic_update_slice",
       {{false, 2, kToEnd, kInt, ShapeRule::Rank0, "0D tensor of 2/4/8/16/32/64-bit integer values"}}},
      {"stablehlo.rng",
       {{false, 0, 1, kPred | kInt | kFloat, ShapeRule::Rank0,
         "0D tensor of pred (AKA boolean or 1-bit integer) or 2/4/8/16/32/64-bit integer or "
         "floating-point values"},
        {false, 2, 2, kIndex | kInt, ShapeRule::Static1D, kDimensionTensor},
        {true, 0, 0, kPred | kInt | kFloat, ShapeRule::Any,
         "ranked tensor of pred (AKA boolean or 1-bit integer) or 2/4/8/16/32/64-bit integer or "
         "floating-point values"}}},
      {"stablehlo.select",
       {{false, 0, 0, kPred, ShapeRule::Any,
         "ranked tensor of pred (AKA boolean or 1-bit integer) values"}}},
      {"stablehlo.if",
       {{false, 0, 0, kPred, ShapeRule::Any,
         "ranked tensor of pred (AKA boolean or 1-bit integer) values"}}},
      {"stablehlo.compare",
       {{true, 0, 0, kPred, ShapeRule::Any,
         "ranked tensor of pred (AKA boolean or 1-bit integer) values"}}},
      {"stablehlo.is_finite",
       {{true, 0, 0, kPred, ShapeRule::Any,
         "ranked tensor of pred (AKA boolean or 1-bit integer) values"}}},
      {"stablehlo.gather",
       {{false, 1, 1, kInt, ShapeRule::Any, "ranked tensor of 2/4/8/16/32/64-bit integer values"}}},
      {"stablehlo.dynamic_gather",
       {{false, 1, 1, kInt, ShapeRule::Any, "ranked tensor of 2/4/8/16/32/64-bit integer values"},
        {false, 2, 2, kInt, ShapeRule::Static1D,
         "statically shaped 1-dimensional integer tensor of 2/4/8/16/32/64-bit integer values"}}},
      {"stablehlo.fft",
       {{false, 0, 0, kFloat | kComplex, ShapeRule::Any,
         "ranked tensor of floating-point or complex-type values"},
        {true, 0, 0, kFloat | kComplex, ShapeRule::Any,
         "ranked tensor of floating-point or complex-type values"}}},
      {"stablehlo.triangular_solve",
       {{false, 0, 1, kFloat | kComplex, ShapeRule::Any,
         "ranked tensor of floating-point or complex-type values"},
        {true, 0, 0, kFloat | kComplex, ShapeRule::Any,
         "ranked tensor of floating-point or complex-type values"}}},
      {"stablehlo.batch_norm_inference",
       {{false, 1, 4, kFloat, ShapeRule::Rank1, "1D tensor of floating-point values"}}},
      {"stablehlo.batch_norm_training",
       {{false, 1, 2, kFloat, ShapeRule::Rank1, "1D tensor of floating-point values"},
        {true, 1, 2, kFloat, ShapeRule::Rank1, "1D tensor of floating-point values"}}},
      {"stablehlo.batch_norm_grad",
       {{false, 1, 3, kFloat, ShapeRule::Rank1, "1D tensor of floating-point values"},
        {true, 1, 2, kFloat, ShapeRule::Rank1, "1D tensor of floating-point values"}}},
      {"stablehlo.rng_bit_generator",
       {{false, 0, 0, kInt | kFloat, ShapeRule::Any,
         "ranked tensor of 2/4/8/16/32/64-bit integer or floating-point values"},
        {true, 0, 0, kInt | kFloat, ShapeRule::Any,
         "ranked tensor of 2/4/8/16/32/64-bit integer or floating-point values"},
        {true, 1, 1, kInt | kFloat, ShapeRule::Static,
         "statically shaped tensor of 2/4/8/16/32/64-bit integer or floating-point values"}}},
  };
  return table;
}

bool meetsShape(ShapeRule rule, ir::Type type) {
  std::span<const int64_t> shape = type.shape();
  bool isStatic = std::all_of(shape.begin(), shape.end(), [](int64_t d) { return isStaticDim(d); });
  switch (rule) {
  case ShapeRule::Any:
    return true;
  case ShapeRule::Rank0:
    return shape.empty();
  case ShapeRule::Rank1:
    return shape.size() == 1;
  case ShapeRule::Static:
  case ShapeRule::StaticOrBounded: // a bounded type is not a plain tensor: it never gets here
    return isStatic;
  case ShapeRule::Static1D:
    return isStatic && shape.size() == 1;
  }
  return true;
}

unsigned valueClassOf(ir::ElementType e) {
  return e == ir::ElementType::Index ? kIndex : classOf(e);
}

bool checkValueConstraints(const OpContext& ctx) {
  auto it = valueConstraints().find(ctx.op.name());
  if (it == valueConstraints().end())
    return true;
  // ODS checks the operands in order, then the results.
  for (bool results : {false, true}) {
    unsigned count = results ? ctx.op.numResults() : ctx.op.numOperands();
    for (const ValueConstraint& c : it->second) {
      if (c.result != results)
        continue;
      for (unsigned i = c.first; i < count && (c.last == kToEnd || i <= c.last); ++i) {
        ir::Type type = results ? ctx.resultType(i) : ctx.operandType(i);
        // Quantized, bounded, unranked, token and tuple types are judged elsewhere.
        if (!isTensor(type))
          continue;
        if ((valueClassOf(type.elementType()) & c.classes) && meetsShape(c.shape, type))
          continue;
        return ctx.opError(std::string(results ? "result #" : "operand #") + std::to_string(i) +
                           " must be " + std::string(c.description) + ", but got " +
                           quoted(type));
      }
    }
  }
  return true;
}

bool isBuffer(ir::Type type) {
  return type && type.kind() == ir::Type::Kind::Opaque && type.opaqueText().starts_with("memref<");
}

// Buffers (`memref<...>`) are values of only the ops whose declarations admit them: while,
// tuple, get_tuple_element, return and custom_call (HLO_...OrBuffer, HLO_CustomCallValue).
bool checkBuffers(const OpContext& ctx) {
  static const std::unordered_set<std::string_view> admitting = {
      "stablehlo.while", "stablehlo.tuple", "stablehlo.get_tuple_element", "stablehlo.return",
      "stablehlo.custom_call"};
  if (ctx.op.dialect() != "stablehlo" || admitting.contains(ctx.op.name()))
    return true;
  for (unsigned i = 0; i < ctx.op.numOperands(); ++i)
    if (isBuffer(ctx.operandType(i)))
      return ctx.opError("operand #" + std::to_string(i) +
                         " must be ranked tensor of any type values, but got " +
                         quoted(ctx.operandType(i)));
  const std::string variadic = hasVariadicResults(ctx.op.name()) ? "variadic of " : "";
  for (unsigned i = 0; i < ctx.op.numResults(); ++i)
    if (isBuffer(ctx.resultType(i)))
      return ctx.opError("result #" + std::to_string(i) + " must be " + variadic +
                         "ranked tensor of any type values, but got " + quoted(ctx.resultType(i)));
  return true;
}

} // namespace

bool checkElementTypeClasses(const OpContext& ctx) {
  if (!checkBuffers(ctx) || !checkValueConstraints(ctx))
    return false;
  auto it = operandClasses().find(ctx.op.name());
  if (it == operandClasses().end())
    return true;
  const OperandClass& expected = it->second;
  for (unsigned i = 0; i < ctx.op.numOperands(); ++i) {
    ir::Type type = ctx.operandType(i);
    if (!isTensor(type) || (classOf(type.elementType()) & expected.classes))
      continue;
    return ctx.opError("operand #" + std::to_string(i) + " must be ranked tensor of " +
                       std::string(expected.description) + " values, but got " + quoted(type));
  }
  return true;
}

} // namespace shardscope::verify::detail
