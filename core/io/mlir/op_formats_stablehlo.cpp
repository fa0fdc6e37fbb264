// Pretty forms of StableHLO ops, as StableHLO's assembly formats print them, and the registry of
// the StableHLO ops that only have the generic form. This file holds the elementwise and other
// attribute-free formats; the rest live in op_formats_stablehlo_{shape,dot,region}.cpp.
#include "core/io/mlir/op_formats_stablehlo.h"

namespace shardscope::io::mlir::detail {

using ir::Attribute;
using ir::Operation;
using ir::Type;

namespace {

using namespace shlo;

// `%a, %b attr-dict : type` with exactly `N` operands (SameOperandsAndResultType).
template <size_t N> bool parseElementwise(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> operands(N);
  for (size_t i = 0; i < N; ++i)
    if ((i && !p.expect(TokenKind::Comma, ",")) || !p.parseOperand(operands[i]))
      return false;
  return parseAttrDict(p, s) && parseSameOperandsAndResultType(p, s, operands, N);
}

void printElementwise(Printer& p, const Operation& op) {
  p << " ";
  p.printOperands(op.operands());
  printAttrDict(p, op, {});
  p << " : ";
  printSameOperandsAndResultType(p, op);
}

// `operands attr-dict : functional-type(operands, results)`.
bool parseFunctional(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> operands;
  return p.parseOperandList(operands) && parseAttrDict(p, s) &&
         parseFunctionalTypeFor(p, s, operands);
}

void printFunctional(Printer& p, const Operation& op) {
  p << " ";
  p.printOperands(op.operands());
  printAttrDict(p, op, {});
  p << " : ";
  p.printFunctionalType(op);
}

// `stablehlo.complex %a, %b : tensor<4xcomplex<f32>>`: the operand types are the real
// counterpart of the result type unless written as a function type.
Type realTypeOf(Type complex) {
  if (!complex.isTensor() || !ir::isComplexElement(complex.elementType()))
    return {};
  bool is64 = complex.elementType() == ir::ElementType::Complex64;
  return Type::tensor(complex.shape(), is64 ? ir::ElementType::F32 : ir::ElementType::F64);
}

bool parseComplex(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> operands(2);
  if (!p.parseOperand(operands[0]) || !p.expect(TokenKind::Comma, ",") ||
      !p.parseOperand(operands[1]) || !parseAttrDict(p, s))
    return false;
  if (!p.expect(TokenKind::Colon, ":"))
    return false;
  if (p.tok().is(TokenKind::LParen)) {
    std::vector<Type> inputs;
    return p.parseFunctionType(inputs, s.resultTypes) &&
           p.resolveOperands(operands, inputs, s.operands);
  }
  support::SourceLocation typeLoc = p.loc();
  Type t;
  if (!p.parseType(t))
    return false;
  Type real = realTypeOf(t);
  if (!real)
    return p.emitError(typeLoc, "expected tensor with complex element type");
  s.resultTypes.push_back(t);
  return p.resolveOperands(operands, {real, real}, s.operands);
}

void printComplex(Printer& p, const Operation& op) {
  p << " ";
  p.printOperands(op.operands());
  printAttrDict(p, op, {});
  p << " : ";
  Type result = op.result(0)->type();
  Type real = realTypeOf(result);
  if (real && op.operand(0)->type() == real && op.operand(1)->type() == real)
    p.printType(result);
  else
    p.printFunctionalType(op);
}

// `stablehlo.select %p, %t, %f : pred_type, result_type` when the branches have the result type.
bool parseSelect(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> operands;
  if (!p.parseOperandList(operands) || !parseAttrDict(p, s) || !p.expect(TokenKind::Colon, ":"))
    return false;
  support::SourceLocation typeLoc = p.loc();
  std::vector<Type> types;
  if (!p.parseTypeList(types))
    return false;
  std::vector<Type> inputs;
  if (types.size() == 2) {
    inputs = {types[0], types[1], types[1]};
    s.resultTypes.push_back(types[1]);
  } else if (types.size() == 1 && types[0].kind() == Type::Kind::Function) {
    inputs.assign(types[0].elements().begin(), types[0].elements().end());
    if (types[0].results().size() != 1)
      return p.emitError(typeLoc, "expected single output");
    s.resultTypes.push_back(types[0].results()[0]);
  } else {
    return p.emitError(typeLoc, "expected functional type or list of two types");
  }
  if (operands.size() != inputs.size())
    return p.emitError(typeLoc, std::to_string(operands.size()) +
                                    " operands present, but expected " +
                                    std::to_string(inputs.size()));
  return p.resolveOperands(operands, inputs, s.operands);
}

void printSelect(Printer& p, const Operation& op) {
  p << " ";
  p.printOperands(op.operands());
  printAttrDict(p, op, {});
  p << " : ";
  Type result = op.result(0)->type();
  if (op.numOperands() == 3 && op.operand(1)->type() == result && op.operand(2)->type() == result) {
    p.printType(op.operand(0)->type());
    p << ", ";
    p.printType(result);
  } else {
    p.printFunctionalType(op);
  }
}

// `attr-dict : type(results)` (replica_id, partition_id, create_token).
bool parseNullary(Parser& p, OperationState& s) {
  Type t;
  if (!parseAttrDict(p, s) || !p.expect(TokenKind::Colon, ":") || !p.parseType(t))
    return false;
  s.resultTypes.push_back(t);
  return true;
}

void printNullary(Printer& p, const Operation& op) {
  printAttrDict(p, op, {});
  p << " : ";
  p.printType(op.result(0)->type());
}

// `stablehlo.after_all %a, %b : !stablehlo.token` (VariadicSameOperandsAndResultType).
bool parseAfterAll(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> operands;
  return p.parseOperandList(operands) && parseAttrDict(p, s) &&
         parseSameOperandsAndResultType(p, s, operands, operands.size());
}

// `stablehlo.tuple %a, %b : tuple<...>`: the operand types are the tuple's elements.
bool parseTuple(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> operands;
  if (!p.parseOperandList(operands) || !parseAttrDict(p, s) || !p.expect(TokenKind::Colon, ":"))
    return false;
  support::SourceLocation typeLoc = p.loc();
  Type t;
  if (!p.parseType(t))
    return false;
  if (t.kind() != Type::Kind::Tuple)
    return p.emitError(typeLoc, "expected tuple type");
  s.resultTypes.push_back(t);
  return p.resolveOperands(operands, {t.elements().begin(), t.elements().end()}, s.operands);
}

void printTuple(Printer& p, const Operation& op) {
  p << " ";
  p.printOperands(op.operands());
  printAttrDict(p, op, {});
  p << " : ";
  p.printType(op.result(0)->type());
}

// `stablehlo.get_tuple_element %t[0] : (tuple<...>) -> type`.
bool parseGetTupleElement(Parser& p, OperationState& s) {
  UnresolvedOperand operand;
  int64_t index = 0;
  if (!p.parseOperand(operand) || !p.expect(TokenKind::LSquare, "[") || !p.parseInteger(index) ||
      !p.expect(TokenKind::RSquare, "]"))
    return false;
  s.addAttr("index", i32Attr(index));
  return parseAttrDict(p, s) && parseFunctionalTypeFor(p, s, {operand});
}

void printGetTupleElement(Printer& p, const Operation& op) {
  std::optional<int64_t> index = intValue(op.attr("index"));
  if (!index || op.numOperands() != 1)
    return printGenericBody(p, op);
  p << " ";
  p.printOperand(op.operand(0));
  p << "[" << std::to_string(*index) << "]";
  printAttrDict(p, op, {"index"});
  p << " : ";
  p.printFunctionalType(op);
}

// `stablehlo.return %a, %b attr-dict : t1, t2`. The space before the (possibly empty) operand
// list is unconditional in the ODS printer, so a bare return ends with a space.
bool parseReturn(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> operands;
  if (!p.parseOperandList(operands) || !parseAttrDict(p, s))
    return false;
  std::vector<Type> types;
  if (p.consumeIf(TokenKind::Colon) && !p.parseTypeList(types))
    return false;
  return p.resolveOperands(operands, types, s.operands);
}

void printReturn(Printer& p, const Operation& op) {
  p << " ";
  p.printOperands(op.operands());
  printAttrDict(p, op, {});
  if (op.numOperands() > 0) {
    p << " : ";
    p.printTypes(ir::operandTypes(op));
  }
}

// `stablehlo.optimization_barrier attr-dict %a, %b : t1, t2`, or `()` without operands: the
// attributes come first because the operand group is optional.
bool parseOptimizationBarrier(Parser& p, OperationState& s) {
  if (!parseAttrDict(p, s))
    return false;
  if (p.consumeIf(TokenKind::LParen))
    return p.expect(TokenKind::RParen, ")");
  std::vector<UnresolvedOperand> operands;
  std::vector<Type> types;
  if (!p.parseOperandList(operands) || !p.expect(TokenKind::Colon, ":") || !p.parseTypeList(types))
    return false;
  s.resultTypes = types;
  return p.resolveOperands(operands, types, s.operands);
}

void printOptimizationBarrier(Printer& p, const Operation& op) {
  printAttrDict(p, op, {});
  if (op.numOperands() == 0) {
    p << "()";
    return;
  }
  p << " ";
  p.printOperands(op.operands());
  p << " : ";
  p.printTypes(ir::operandTypes(op));
}

// Ops StableHLO prints generically, with the attributes that are their own parameters.
void registerGenericOps(const AddFormat& add) {
  const std::vector<std::string_view> conv = {
      "window_strides",      "padding",           "lhs_dilation",
      "rhs_dilation",        "window_reversal",   "dimension_numbers",
      "feature_group_count", "batch_group_count", "precision_config"};
  const std::pair<std::string_view, std::vector<std::string_view>> ops[] = {
      {"stablehlo.all_gather",
       {"all_gather_dim", "replica_groups", "channel_handle", "use_global_device_ids"}},
      {"stablehlo.all_reduce", {"replica_groups", "channel_handle", "use_global_device_ids"}},
      {"stablehlo.reduce_scatter",
       {"scatter_dimension", "replica_groups", "channel_handle", "use_global_device_ids"}},
      {"stablehlo.all_to_all",
       {"split_dimension", "concat_dimension", "split_count", "replica_groups", "channel_handle"}},
      {"stablehlo.collective_permute", {"source_target_pairs", "channel_handle"}},
      {"stablehlo.collective_broadcast", {"replica_groups", "channel_handle"}},
      {"stablehlo.cross-replica-sum", {"replica_groups"}},
      {"stablehlo.case", {}},
      {"stablehlo.if", {}},
      {"stablehlo.sort", {"dimension", "is_stable"}},
      {"stablehlo.gather", {"dimension_numbers", "slice_sizes", "indices_are_sorted"}},
      {"stablehlo.dynamic_gather", {"dimension_numbers", "indices_are_sorted"}},
      {"stablehlo.scatter", {"scatter_dimension_numbers", "indices_are_sorted", "unique_indices"}},
      {"stablehlo.reduce_window",
       {"window_dimensions", "window_strides", "base_dilations", "window_dilations", "padding"}},
      {"stablehlo.select_and_scatter", {"window_dimensions", "window_strides", "padding"}},
      {"stablehlo.triangular_solve", {"left_side", "lower", "unit_diagonal", "transpose_a"}},
      {"stablehlo.batch_norm_grad", {"epsilon", "feature_index"}},
      {"stablehlo.batch_norm_inference", {"epsilon", "feature_index"}},
      {"stablehlo.batch_norm_training", {"epsilon", "feature_index"}},
      {"stablehlo.map", {"dimensions"}},
      {"stablehlo.infeed", {"infeed_config", "layout"}},
      {"stablehlo.outfeed", {"outfeed_config"}},
      {"stablehlo.send", {"channel_handle", "is_host_transfer", "source_target_pairs"}},
      {"stablehlo.recv", {"channel_handle", "is_host_transfer", "source_target_pairs"}},
      {"stablehlo.torch_index_select", {"dim", "batch_dims"}},
      {"stablehlo.dynamic_conv", conv},
  };
  for (const auto& [name, inherent] : ops)
    add({name, nullptr, nullptr, inherent});
}

} // namespace

void registerStablehloFormats(const AddFormat& add) {
  for (std::string_view name : {"stablehlo.abs",
                                "stablehlo.cbrt",
                                "stablehlo.ceil",
                                "stablehlo.convert",
                                "stablehlo.count_leading_zeros",
                                "stablehlo.cosine",
                                "stablehlo.exponential",
                                "stablehlo.exponential_minus_one",
                                "stablehlo.floor",
                                "stablehlo.imag",
                                "stablehlo.log",
                                "stablehlo.log_plus_one",
                                "stablehlo.logistic",
                                "stablehlo.not",
                                "stablehlo.negate",
                                "stablehlo.popcnt",
                                "stablehlo.real",
                                "stablehlo.round_nearest_afz",
                                "stablehlo.round_nearest_even",
                                "stablehlo.rsqrt",
                                "stablehlo.sign",
                                "stablehlo.sine",
                                "stablehlo.sqrt",
                                "stablehlo.tan",
                                "stablehlo.tanh",
                                "stablehlo.uniform_quantize",
                                "stablehlo.uniform_dequantize"})
    add({name, parseElementwise<1>, printElementwise, {}});
  for (std::string_view name :
       {"stablehlo.add", "stablehlo.atan2", "stablehlo.divide", "stablehlo.maximum",
        "stablehlo.minimum", "stablehlo.multiply", "stablehlo.power", "stablehlo.remainder",
        "stablehlo.shift_left", "stablehlo.shift_right_arithmetic", "stablehlo.shift_right_logical",
        "stablehlo.subtract", "stablehlo.and", "stablehlo.or", "stablehlo.xor"})
    add({name, parseElementwise<2>, printElementwise, {}});
  add({"stablehlo.clamp", parseElementwise<3>, printElementwise, {}});
  for (std::string_view name :
       {"stablehlo.is_finite", "stablehlo.reshape", "stablehlo.bitcast_convert",
        "stablehlo.dynamic_update_slice", "stablehlo.dynamic_reshape",
        "stablehlo.real_dynamic_slice", "stablehlo.dynamic_pad", "stablehlo.compute_reshape_shape",
        "stablehlo.cstr_reshapable"})
    add({name, parseFunctional, printFunctional, {}});
  add({"stablehlo.complex", parseComplex, printComplex, {}});
  add({"stablehlo.select", parseSelect, printSelect, {}});
  for (std::string_view name :
       {"stablehlo.replica_id", "stablehlo.partition_id", "stablehlo.create_token"})
    add({name, parseNullary, printNullary, {}});
  add({"stablehlo.after_all", parseAfterAll, printElementwise, {}});
  add({"stablehlo.tuple", parseTuple, printTuple, {}});
  add({"stablehlo.get_tuple_element", parseGetTupleElement, printGetTupleElement, {"index"}});
  add({"stablehlo.return", parseReturn, printReturn, {}});
  add({"stablehlo.optimization_barrier", parseOptimizationBarrier, printOptimizationBarrier, {}});
  registerGenericOps(add);
  shlo::registerShapeFormats(add);
  shlo::registerDotConvFormats(add);
  shlo::registerRegionFormats(add);
  shlo::registerChloFormats(add);
}

} // namespace shardscope::io::mlir::detail
