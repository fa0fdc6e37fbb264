// The element type classes of StableHLO's elementwise ops' operands (StablehloOps.td, Base.td):
// `sine` takes floats, complex numbers or quantized integers, `and` booleans or integers,
// `shift_left` integers, ... An operand outside its class is ODS's "operand #0 must be ranked
// tensor of ... values" error, checked before the op's other rules. Quantized operands are
// `checkQuantTypeClasses`'s; other types (tuples, tokens, unranked) are not judged here.

#include "core/verify/detail/op_context.h"
#include "core/verify/detail/quant_rules.h"

#include <unordered_map>

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

} // namespace

bool checkElementTypeClasses(const OpContext& ctx) {
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
