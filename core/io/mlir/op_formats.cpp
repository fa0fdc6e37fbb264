// The registry of op formats and the formats of the builtin, func and Shardy ops. StableHLO's
// formats live in op_formats_stablehlo.cpp.
#include "core/io/mlir/detail/op_format.h"

#include "core/io/mlir/detail/parser.h"
#include "core/io/mlir/detail/printer.h"
#include "core/io/mlir/detail/op_format_helpers.h"

#include <unordered_map>

namespace shardscope::io::mlir::detail {

using ir::Attribute;
using ir::Operation;
using ir::Type;

namespace {

// --- func ------------------------------------------------------------------------------------

bool parseFunc(Parser& p, OperationState& s) {
  if (p.tok().isKeyword("private") || p.tok().isKeyword("public") || p.tok().isKeyword("nested")) {
    if (!p.tok().isKeyword("public"))
      s.addAttr("sym_visibility", Attribute::string(std::string(p.tok().spelling)));
    p.consume();
  }
  std::string name;
  if (!p.parseSymbolName(name))
    return false;
  s.addAttr("sym_name", Attribute::string(name));
  std::vector<BlockArgDef> args;
  std::vector<std::vector<ir::NamedAttribute>> argAttrs;
  if (!p.parseArgumentList(args, /*allowAttrs=*/true, &argAttrs))
    return false;
  std::vector<Type> results;
  std::vector<std::vector<ir::NamedAttribute>> resAttrs;
  if (p.consumeIf(TokenKind::Arrow)) {
    if (p.consumeIf(TokenKind::LParen)) {
      if (!p.tok().is(TokenKind::RParen)) {
        do {
          Type t;
          std::vector<ir::NamedAttribute> attrs;
          if (!p.parseType(t) || !p.parseOptionalAttrDict(attrs))
            return false;
          results.push_back(t);
          resAttrs.push_back(std::move(attrs));
        } while (p.consumeIf(TokenKind::Comma));
      }
      if (!p.expect(TokenKind::RParen, ")"))
        return false;
    } else {
      Type t;
      if (!p.parseType(t))
        return false;
      results.push_back(t);
      resAttrs.emplace_back();
    }
  }
  std::vector<Type> inputs;
  for (const BlockArgDef& a : args)
    inputs.push_back(a.type);
  s.addAttr("function_type", Attribute::type(Type::function(inputs, results)));
  auto toDicts = [](std::vector<std::vector<ir::NamedAttribute>>& all) {
    bool any = false;
    std::vector<Attribute> dicts;
    for (auto& attrs : all) {
      any = any || !attrs.empty();
      dicts.push_back(Attribute::dictionary(std::move(attrs)));
    }
    return any ? Attribute::array(std::move(dicts)) : Attribute();
  };
  if (Attribute a = toDicts(argAttrs))
    s.addAttr("arg_attrs", a);
  if (Attribute a = toDicts(resAttrs))
    s.addAttr("res_attrs", a);
  if (p.consumeKeywordIf("attributes")) {
    std::vector<ir::NamedAttribute> attrs;
    if (!p.tok().is(TokenKind::LBrace))
      return p.emitError("expected '{'");
    if (!p.parseOptionalAttrDict(attrs))
      return false;
    for (auto& a : attrs)
      s.addAttr(a.name, Attribute(a.value), false);
  }
  auto region = std::make_unique<ir::Region>(nullptr);
  if (p.tok().is(TokenKind::LBrace)) {
    if (!p.parseRegion(*region, args, /*isolated=*/true))
      return false;
  }
  s.regions.push_back(std::move(region));
  return true;
}

void printFunc(Printer& p, const Operation& op) {
  if (const auto* vis = op.attr("sym_visibility").as<ir::StringAttr>())
    p << " " << vis->value;
  p << " @" << ir::func::name(op);
  Type type = ir::func::type(op);
  const ir::Block* body = ir::func::body(op);
  auto printAttrsOf = [&](const ir::DictionaryAttr* attrs) {
    if (attrs && !attrs->entries.empty()) {
      p << " ";
      Attribute(std::make_shared<ir::DictionaryAttr>(*attrs)).print(p.out());
    }
  };
  p << "(";
  for (size_t i = 0; i < type.elements().size(); ++i) {
    if (i)
      p << ", ";
    if (body) {
      p.printOperand(body->argument(static_cast<unsigned>(i)));
      p << ": ";
    }
    p.printType(type.elements()[i]);
    printAttrsOf(ir::func::argAttrs(op, static_cast<unsigned>(i)));
  }
  p << ")";
  auto results = type.results();
  if (!results.empty()) {
    bool anyAttrs = false;
    for (size_t i = 0; i < results.size(); ++i)
      if (const auto* d = ir::func::resultAttrs(op, static_cast<unsigned>(i)); d && !d->entries.empty())
        anyAttrs = true;
    p << " -> ";
    bool parens = results.size() > 1 || anyAttrs || results[0].kind() == Type::Kind::Function;
    if (parens)
      p << "(";
    for (size_t i = 0; i < results.size(); ++i) {
      if (i)
        p << ", ";
      p.printType(results[i]);
      printAttrsOf(ir::func::resultAttrs(op, static_cast<unsigned>(i)));
    }
    if (parens)
      p << ")";
  }
  p.printOptionalAttrDict(op, {"sym_name", "function_type", "arg_attrs", "res_attrs", "sym_visibility"},
                          /*withKeyword=*/true);
  if (body) {
    p << " ";
    p.printRegion(op.region(0), /*printEntryArgs=*/false);
  }
}

// `return` / `sdy.return`: attr-dict ($operands `:` types)?
bool parseReturnLike(Parser& p, OperationState& s) {
  std::vector<ir::NamedAttribute> attrs;
  if (!p.parseOptionalAttrDict(attrs))
    return false;
  for (auto& a : attrs)
    s.addAttr(a.name, Attribute(a.value), false);
  std::vector<UnresolvedOperand> operands;
  if (!p.parseOperandList(operands))
    return false;
  std::vector<Type> types;
  if (!operands.empty() && (!p.expect(TokenKind::Colon, ":") || !p.parseTypeList(types)))
    return false;
  return p.resolveOperands(operands, types, s.operands);
}

void printReturnLike(Printer& p, const Operation& op) {
  p.printOptionalAttrDict(op, {});
  if (op.numOperands() == 0)
    return;
  p << " ";
  p.printOperands(op.operands());
  p << " : ";
  std::vector<Type> types;
  for (ir::Value* v : op.operands())
    types.push_back(v->type());
  p.printTypes(types);
}

// `call @f(%a) {attrs} : (types) -> types`
bool parseCall(Parser& p, OperationState& s) {
  std::string callee;
  std::vector<UnresolvedOperand> operands;
  if (!p.parseSymbolName(callee) || !p.expect(TokenKind::LParen, "(") ||
      !p.parseOperandList(operands) || !p.expect(TokenKind::RParen, ")"))
    return false;
  s.addAttr("callee", Attribute::symbolRef({callee}));
  if (!parseAttrDictInto(p, s))
    return false;
  std::vector<Type> inputs;
  if (!p.expect(TokenKind::Colon, ":") || !p.parseFunctionType(inputs, s.resultTypes))
    return false;
  return p.resolveOperands(operands, inputs, s.operands);
}

void printCall(Printer& p, const Operation& op) {
  p << " ";
  op.attr("callee").print(p.out());
  p << "(";
  p.printOperands(op.operands());
  p << ")";
  p.printOptionalAttrDict(op, {"callee"});
  p << " : ";
  p.printFunctionalType(op);
}

// --- sdy -------------------------------------------------------------------------------------

bool parseMeshOp(Parser& p, OperationState& s) {
  std::string name;
  ir::Mesh mesh;
  if (!p.parseSymbolName(name) || !p.expect(TokenKind::Equal, "="))
    return false;
  p.setErrorPrefix("custom op 'sdy.mesh' ");
  // MLIR's custom attribute parsing also accepts the attribute's full form `#sdy.mesh<...>`.
  if (p.tok().is(TokenKind::HashIdentifier) && p.tok().spelling == "#sdy.mesh")
    p.consume();
  bool parsed = p.parseMesh(mesh);
  p.setErrorPrefix({});
  if (!parsed)
    return false;
  s.addAttr("sym_name", Attribute::string(name));
  s.addAttr("mesh", Attribute::mesh(std::move(mesh)));
  return parseAttrDictInto(p, s);
}

void printMeshOp(Printer& p, const Operation& op) {
  p << " @" << op.attr("sym_name").as<ir::StringAttr>()->value << " = ";
  op.attr("mesh").print(p.out(), /*elidePrefix=*/true);
  p.printOptionalAttrDict(op, {"sym_name", "mesh"});
}

// `%x <sharding> attr-dict : type` (sharding_constraint, reshard)
bool parseValueWithSharding(Parser& p, OperationState& s) {
  UnresolvedOperand input;
  ir::TensorSharding sharding;
  if (!p.parseOperand(input) || !p.parseTensorSharding(sharding))
    return false;
  s.addAttr("sharding", Attribute::sharding(std::move(sharding)));
  return parseAttrDictInto(p, s) && parseSameTypeSingle(p, s, {input});
}

void printValueWithSharding(Printer& p, const Operation& op) {
  p << " ";
  p.printOperand(op.operand(0));
  p << " ";
  op.attr("sharding").print(p.out(), /*elidePrefix=*/true);
  p.printOptionalAttrDict(op, {"sharding"});
  p << " : ";
  p.printType(op.result(0)->type());
}

// `%x group_id=N attr-dict : type`
bool parseShardingGroup(Parser& p, OperationState& s) {
  UnresolvedOperand input;
  int64_t id;
  if (!p.parseOperand(input) || !p.parseKeywordEqual("group_id") || !p.parseInteger(id))
    return false;
  s.addAttr("group_id", Attribute::integer(id, Type::scalar(ir::ElementType::I64)));
  if (!parseAttrDictInto(p, s))
    return false;
  Type t;
  if (!p.expect(TokenKind::Colon, ":") || !p.parseType(t))
    return false;
  std::vector<Type> types{t};
  return p.resolveOperands({input}, types, s.operands);
}

void printShardingGroup(Printer& p, const Operation& op) {
  p << " ";
  p.printOperand(op.operand(0));
  p << " group_id=" << std::to_string(op.attr("group_id").as<ir::IntegerAttr>()->value);
  p.printOptionalAttrDict(op, {"group_id"});
  p << " : ";
  p.printType(op.operand(0)->type());
}

// `%x allowed_direction=NONE attr-dict : type`
bool parsePropagationBarrier(Parser& p, OperationState& s) {
  UnresolvedOperand input;
  if (!p.parseOperand(input) || !p.parseKeywordEqual("allowed_direction"))
    return false;
  if (!p.tok().is(TokenKind::BareIdentifier))
    return p.emitError("expected propagation direction");
  s.addAttr("allowed_direction", Attribute::opaque(std::string(p.tok().spelling)));
  p.consume();
  return parseAttrDictInto(p, s) && parseSameTypeSingle(p, s, {input});
}

void printPropagationBarrier(Printer& p, const Operation& op) {
  p << " ";
  p.printOperand(op.operand(0));
  p << " allowed_direction=";
  op.attr("allowed_direction").print(p.out());
  p.printOptionalAttrDict(op, {"allowed_direction"});
  p << " : ";
  p.printType(op.result(0)->type());
}

// `%x (sharding=<...>)? attr-dict : type`
bool parseDataFlowEdge(Parser& p, OperationState& s) {
  UnresolvedOperand input;
  if (!p.parseOperand(input))
    return false;
  if (p.consumeKeywordIf("sharding")) {
    ir::TensorSharding sharding;
    if (!p.expect(TokenKind::Equal, "=") || !p.parseTensorSharding(sharding))
      return false;
    s.addAttr("sharding", Attribute::sharding(std::move(sharding)));
  }
  return parseAttrDictInto(p, s) && parseSameTypeSingle(p, s, {input});
}

void printDataFlowEdge(Printer& p, const Operation& op) {
  p << " ";
  p.printOperand(op.operand(0));
  if (Attribute sharding = op.attr("sharding")) {
    p << " sharding=";
    sharding.print(p.out(), /*elidePrefix=*/true);
  }
  p.printOptionalAttrDict(op, {"sharding"});
  p << " : ";
  p.printType(op.result(0)->type());
}

// `sdy.constant attr-dict dense<...> : type`, also `stablehlo.constant`. When the result type is
// not the value's type (quantized constants), StableHLO falls back to
// `stablehlo.constant() <{value = ...}> : () -> type`.
// The tensor type of a constant's `value`: inline `dense<...>` or `dense_resource<...>`; null for
// anything else.
Type elementsType(const Attribute& value) {
  if (const auto* dense = value.as<ir::DenseElementsAttr>())
    return dense->type;
  if (const auto* resource = value.as<ir::DenseResourceAttr>())
    return resource->type;
  return {};
}

bool parseConstantWithType(Parser& p, OperationState& s) {
  if (!p.expect(TokenKind::LParen, "(") || !p.expect(TokenKind::RParen, ")"))
    return false;
  std::vector<ir::NamedAttribute> attrs;
  if (p.consumeIf(TokenKind::Less)) {
    if (!p.expect(TokenKind::LBrace, "{") || !p.parseAttrDictEntries(attrs) ||
        !p.expect(TokenKind::Greater, ">"))
      return false;
  }
  if (!p.parseOptionalAttrDict(attrs))
    return false;
  for (auto& a : attrs)
    s.addAttr(a.name, Attribute(a.value), a.name == "value");
  if (!elementsType(s.attr("value")))
    return p.emitError("expected a dense 'value' attribute");
  std::vector<Type> inputs;
  if (!p.expect(TokenKind::Colon, ":") || !p.parseFunctionType(inputs, s.resultTypes))
    return false;
  if (!inputs.empty() || s.resultTypes.size() != 1)
    return p.emitError("expected '() -> type'");
  return true;
}

bool parseConstant(Parser& p, OperationState& s) {
  if (p.tok().is(TokenKind::LParen))
    return parseConstantWithType(p, s);
  if (!parseAttrDictInto(p, s))
    return false;
  Attribute value;
  if (!p.parseAttribute(value))
    return false;
  Type type = elementsType(value);
  if (!type)
    return p.emitError("expected dense elements attribute");
  s.addAttr("value", value);
  s.resultTypes.push_back(type);
  return true;
}

void printConstant(Printer& p, const Operation& op) {
  Attribute value = op.attr("value");
  if (elementsType(value) != op.result(0)->type()) {
    p << "() <{value = ";
    value.print(p.out());
    p << "}>";
    p.printOptionalAttrDict(op, {"value"});
    p << " : ";
    p.printFunctionalType(op);
    return;
  }
  p.printOptionalAttrDict(op, {"value"});
  p << " ";
  value.print(p.out());
}

void constantResultName(const Operation& op, std::vector<std::string>& names) {
  ir::Type t = op.result(0)->type();
  bool isInt = t.isTensor() && ir::isIntegerElement(t.elementType());
  names.assign(1, isInt ? "c" : "cst");
}

// `(%a, %b) in_shardings=[...] out_shardings=[...] manual_axes={...} (%args) {body} attr-dict :
// functional-type`
bool parseShardingList(Parser& p, std::vector<ir::TensorSharding>& list) {
  if (!p.expect(TokenKind::LSquare, "["))
    return false;
  if (p.consumeIf(TokenKind::RSquare))
    return true;
  do {
    ir::TensorSharding s;
    if (!p.parseTensorSharding(s))
      return false;
    list.push_back(std::move(s));
  } while (p.consumeIf(TokenKind::Comma));
  return p.expect(TokenKind::RSquare, "]");
}

void printShardingList(Printer& p, const Attribute& attr) {
  p << "[";
  if (const auto* list = attr.as<ir::ShardingPerValueAttr>())
    for (size_t i = 0; i < list->shardings.size(); ++i) {
      if (i)
        p << ", ";
      ir::printTensorSharding(list->shardings[i], p.out());
    }
  p << "]";
}

// The common tail of manual and named computations: `(%arg: type, ...) { body } attr-dict :
// (operand types) -> result types`.
bool parseBodyAndSignature(Parser& p, OperationState& s,
                           const std::vector<UnresolvedOperand>& operands) {
  std::vector<BlockArgDef> args;
  if (!p.parseArgumentList(args, false, nullptr))
    return false;
  auto region = std::make_unique<ir::Region>(nullptr);
  if (!p.parseRegion(*region, args, /*isolated=*/false))
    return false;
  s.regions.push_back(std::move(region));
  if (!parseAttrDictInto(p, s))
    return false;
  std::vector<Type> inputs;
  if (!p.expect(TokenKind::Colon, ":") || !p.parseFunctionType(inputs, s.resultTypes))
    return false;
  return p.resolveOperands(operands, inputs, s.operands);
}

bool parseManualComputation(Parser& p, OperationState& s) {
  std::vector<UnresolvedOperand> operands;
  if (!p.expect(TokenKind::LParen, "(") || !p.parseOperandList(operands) ||
      !p.expect(TokenKind::RParen, ")"))
    return false;
  std::vector<ir::TensorSharding> in, out;
  if (!p.parseKeywordEqual("in_shardings") || !parseShardingList(p, in) ||
      !p.parseKeywordEqual("out_shardings") || !parseShardingList(p, out) ||
      !p.parseKeywordEqual("manual_axes"))
    return false;
  std::vector<ir::AxisRef> axisRefs;
  if (!p.parseAxisRefList(axisRefs))
    return false;
  std::vector<std::string> axes;
  for (auto& a : axisRefs)
    axes.push_back(a.name);
  s.addAttr("in_shardings", Attribute::shardingPerValue(std::move(in)));
  s.addAttr("out_shardings", Attribute::shardingPerValue(std::move(out)));
  s.addAttr("manual_axes", Attribute::manualAxes(std::move(axes)));
  return parseBodyAndSignature(p, s, operands);
}

void printManualComputation(Printer& p, const Operation& op) {
  p << "(";
  p.printOperands(op.operands());
  p << ") in_shardings=";
  printShardingList(p, op.attr("in_shardings"));
  p << " out_shardings=";
  printShardingList(p, op.attr("out_shardings"));
  p << " manual_axes=";
  op.attr("manual_axes").print(p.out(), /*elidePrefix=*/true);
  p << " ";
  p.printBlockArgList(op.region(0).front());
  p << " ";
  p.printRegion(op.region(0), false);
  p.printOptionalAttrDict(op, {"in_shardings", "out_shardings", "manual_axes"});
  p << " : ";
  p.printFunctionalType(op);
}

bool parseNamedComputation(Parser& p, OperationState& s) {
  std::string name;
  std::vector<UnresolvedOperand> operands;
  if (!p.expect(TokenKind::Less, "<") || !p.parseString(name) || !p.expect(TokenKind::Greater, ">") ||
      !p.expect(TokenKind::LParen, "(") || !p.parseOperandList(operands) ||
      !p.expect(TokenKind::RParen, ")"))
    return false;
  s.addAttr("name", Attribute::string(name));
  for (const char* key : {"in_shardings", "out_shardings"}) {
    if (p.consumeKeywordIf(key)) {
      std::vector<ir::TensorSharding> list;
      if (!p.expect(TokenKind::Equal, "=") || !parseShardingList(p, list))
        return false;
      s.addAttr(key, Attribute::shardingPerValue(std::move(list)));
    }
  }
  return parseBodyAndSignature(p, s, operands);
}

void printNamedComputation(Printer& p, const Operation& op) {
  p << "<\"" << op.attr("name").as<ir::StringAttr>()->value << "\">(";
  p.printOperands(op.operands());
  p << ")";
  for (const char* key : {"in_shardings", "out_shardings"})
    if (Attribute a = op.attr(key)) {
      p << " " << key << "=";
      printShardingList(p, a);
    }
  p << " ";
  p.printBlockArgList(op.region(0).front());
  p << " ";
  p.printRegion(op.region(0), false);
  p.printOptionalAttrDict(op, {"name", "in_shardings", "out_shardings"});
  p << " : ";
  p.printFunctionalType(op);
}

// Explicit collectives: `sdy.all_gather [{}, {"x"}] %x out_sharding=<...> attr-dict : type`.
enum class CollectiveParam { None, DimLists, AxisList, AllToAll, ReductionAxisList };

template <CollectiveParam kParam> bool parseCollective(Parser& p, OperationState& s) {
  // Reductions may name their kind first: `sdy.all_reduce max {"x"} ...`.
  bool reduces = s.name == "sdy.all_reduce" || s.name == "sdy.reduce_scatter";
  if (reduces && p.tok().is(TokenKind::BareIdentifier)) {
    s.addAttr("reduction_kind", Attribute::opaque(std::string(p.tok().spelling)));
    p.consume();
  }
  if constexpr (kParam == CollectiveParam::DimLists) {
    std::vector<std::vector<ir::AxisRef>> lists;
    if (!p.expect(TokenKind::LSquare, "["))
      return false;
    if (!p.tok().is(TokenKind::RSquare)) {
      do {
        lists.emplace_back();
        if (!p.parseAxisRefList(lists.back()))
          return false;
      } while (p.consumeIf(TokenKind::Comma));
    }
    if (!p.expect(TokenKind::RSquare, "]"))
      return false;
    std::string key = s.name == "sdy.all_gather"           ? "gathering_axes"
                      : s.name == "sdy.all_slice"          ? "slicing_axes"
                      : s.name == "sdy.reduce_scatter"     ? "reduce_scatter_axes"
                                                           : "sharding_axes";
    s.addAttr(key, Attribute::axisRefListList(std::move(lists)));
  } else if constexpr (kParam == CollectiveParam::AxisList ||
                       kParam == CollectiveParam::ReductionAxisList) {
    std::vector<ir::AxisRef> axes;
    if (!p.parseAxisRefList(axes))
      return false;
    s.addAttr(s.name == "sdy.all_reduce" ? "reduction_axes" : "axes",
              Attribute::axisRefList(std::move(axes)));
  } else if constexpr (kParam == CollectiveParam::AllToAll) {
    std::vector<ir::AllToAllParam> params;
    if (!p.expect(TokenKind::LSquare, "["))
      return false;
    // An empty list parses; the verifier reports it with Shardy's message.
    if (!p.tok().is(TokenKind::RSquare)) do {
      ir::AllToAllParam param;
      if (!p.parseAxisRefList(param.axes) || !p.expect(TokenKind::Colon, ":") ||
          !p.parseInteger(param.srcDim) || !p.expect(TokenKind::Arrow, "->") ||
          !p.parseInteger(param.tgtDim))
        return false;
      params.push_back(std::move(param));
    } while (p.consumeIf(TokenKind::Comma));
    if (!p.expect(TokenKind::RSquare, "]"))
      return false;
    s.addAttr("params", Attribute::allToAllParams(std::move(params)));
  }
  UnresolvedOperand input;
  ir::TensorSharding out;
  if (!p.parseOperand(input) || !p.parseKeywordEqual("out_sharding") || !p.parseTensorSharding(out))
    return false;
  s.addAttr("out_sharding", Attribute::sharding(std::move(out)));
  return parseAttrDictInto(p, s) && parseSameTypeSingle(p, s, {input});
}

void printCollective(Printer& p, const Operation& op) {
  if (Attribute kind = op.attr("reduction_kind")) {
    p << " ";
    kind.print(p.out());
  }
  for (const char* key : {"gathering_axes", "slicing_axes", "reduce_scatter_axes", "sharding_axes",
                          "params"})
    if (Attribute a = op.attr(key)) {
      p << " ";
      a.print(p.out(), /*elidePrefix=*/true);
    }
  for (const char* key : {"reduction_axes", "axes"})
    if (Attribute a = op.attr(key)) {
      p << " ";
      a.print(p.out(), /*elidePrefix=*/true);
    }
  p << " ";
  p.printOperand(op.operand(0));
  p << " out_sharding=";
  op.attr("out_sharding").print(p.out(), /*elidePrefix=*/true);
  p.printOptionalAttrDict(op, {"gathering_axes", "slicing_axes", "reduce_scatter_axes",
                               "sharding_axes", "params", "reduction_kind", "reduction_axes",
                               "axes", "out_sharding"});
  p << " : ";
  p.printType(op.result(0)->type());
}

std::unordered_map<std::string_view, OpFormat> buildRegistry() {
  std::unordered_map<std::string_view, OpFormat> r;
  auto add = [&](OpFormat f) { r.emplace(f.name, std::move(f)); };
  add({"func.func", parseFunc, printFunc, {}, nullptr, nullptr, /*isolatedFromAbove=*/true});
  add({"func.return", parseReturnLike, printReturnLike});
  add({"func.call", parseCall, printCall, {"callee"}});
  registerCheckFormats(add);
  add({"sdy.mesh", parseMeshOp, printMeshOp, {"sym_name", "mesh"}});
  add({"sdy.sharding_constraint", parseValueWithSharding, printValueWithSharding, {"sharding"}});
  add({"sdy.reshard", parseValueWithSharding, printValueWithSharding, {"sharding"}});
  add({"sdy.sharding_group", parseShardingGroup, printShardingGroup, {"group_id"}});
  add({"sdy.propagation_barrier", parsePropagationBarrier, printPropagationBarrier,
       {"allowed_direction"}});
  add({"sdy.data_flow_edge", parseDataFlowEdge, printDataFlowEdge, {"sharding"}});
  add({"sdy.func_data_flow_edge", parseDataFlowEdge, printDataFlowEdge, {"sharding"}});
  add({"sdy.constant", parseConstant, printConstant, {"value"}});
  add({"sdy.return", parseReturnLike, printReturnLike});
  add({"sdy.manual_computation", parseManualComputation, printManualComputation,
       {"in_shardings", "out_shardings", "manual_axes"}});
  add({"sdy.named_computation", parseNamedComputation, printNamedComputation,
       {"name", "in_shardings", "out_shardings"}});
  add({"sdy.all_gather", parseCollective<CollectiveParam::DimLists>, printCollective,
       {"gathering_axes", "out_sharding"}});
  add({"sdy.all_slice", parseCollective<CollectiveParam::DimLists>, printCollective,
       {"slicing_axes", "out_sharding"}});
  add({"sdy.reduce_scatter", parseCollective<CollectiveParam::DimLists>, printCollective,
       {"reduce_scatter_axes", "reduction_kind", "out_sharding"}});
  add({"sdy.sharded_to_unreduced", parseCollective<CollectiveParam::DimLists>, printCollective,
       {"sharding_axes", "out_sharding"}});
  add({"sdy.all_to_all", parseCollective<CollectiveParam::AllToAll>, printCollective,
       {"params", "out_sharding"}});
  add({"sdy.collective_permute", parseCollective<CollectiveParam::None>, printCollective,
       {"out_sharding"}});
  add({"sdy.all_reduce", parseCollective<CollectiveParam::ReductionAxisList>, printCollective,
       {"reduction_axes", "reduction_kind", "out_sharding"}});
  add({"sdy.replicated_to_unreduced", parseCollective<CollectiveParam::AxisList>, printCollective,
       {"axes", "out_sharding"}});
  add({"stablehlo.constant", parseConstant, printConstant, {"value"}, constantResultName});
  add({"arith.constant", parseConstant, printConstant, {"value"}, constantResultName});
  registerStablehloFormats(add);
  // MHLO (XLA's tests, older exports) writes these ops exactly as StableHLO does.
  for (auto [mhlo, stablehlo] :
       {std::pair{"mhlo.add", "stablehlo.add"}, {"mhlo.compare", "stablehlo.compare"},
        {"mhlo.constant", "stablehlo.constant"}, {"mhlo.copy", "stablehlo.abs"},
        {"mhlo.custom_call", "stablehlo.custom_call"}, {"mhlo.return", "stablehlo.return"},
        {"mhlo.while", "stablehlo.while"}}) {
    OpFormat format = r.at(stablehlo);
    format.name = mhlo;
    add(std::move(format));
  }
  return r;
}

const std::unordered_map<std::string_view, OpFormat>& registry() {
  static const auto* r = new std::unordered_map<std::string_view, OpFormat>(buildRegistry());
  return *r;
}

} // namespace

const OpFormat* lookupOpFormat(std::string_view name) {
  const auto& r = registry();
  auto it = r.find(name);
  return it == r.end() ? nullptr : &it->second;
}

bool isKnownOp(std::string_view name) {
  return lookupOpFormat(name) != nullptr || name == "builtin.module";
}

} // namespace shardscope::io::mlir::detail
