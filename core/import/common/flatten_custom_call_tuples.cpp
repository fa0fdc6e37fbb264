#include "core/import/common/flatten_custom_call_tuples.h"

#include "core/import/common/op_rewrite.h"

#include <span>

#include <optional>
#include <vector>

namespace shardscope::import_ {

namespace {

bool isTuple(ir::Type type) { return type && type.kind() == ir::Type::Kind::Tuple; }

void flattenType(ir::Type type, std::vector<ir::Type>& out) {
  if (!isTuple(type)) {
    out.push_back(type);
    return;
  }
  for (ir::Type element : type.elements())
    flattenType(element, out);
}

size_t leafCount(ir::Type type) {
  std::vector<ir::Type> leaves;
  flattenType(type, leaves);
  return leaves.size();
}

// The leaves of `value`, looking through `stablehlo.tuple`; nothing when a tuple comes from
// anything else.
bool flattenValue(ir::Value* value, std::vector<ir::Value*>& out) {
  if (!isTuple(value->type())) {
    out.push_back(value);
    return true;
  }
  ir::Operation* def = value->definingOp();
  if (!def || !def->is("stablehlo.tuple"))
    return false;
  for (ir::Value* element : def->operands())
    if (!flattenValue(element, out))
      return false;
  return true;
}

std::optional<int64_t> tupleIndex(const ir::Operation& op) {
  if (const auto* index = op.attr("index").as<ir::IntegerAttr>())
    return index->value;
  return std::nullopt;
}

// True when every use of `value`, through tuple-typed element reads, is an element read.
bool onlyElementReads(const ir::Value& value) {
  for (const ir::Use& use : value.uses()) {
    if (!use.user->is("stablehlo.get_tuple_element") || !tupleIndex(*use.user))
      return false;
    if (isTuple(use.user->result(0)->type()) && !onlyElementReads(*use.user->result(0)))
      return false;
  }
  return true;
}

// Makes the element reads of `value` (a tuple standing for `leaves`) read the leaves, and erases
// them. Precondition: `onlyElementReads(value)`.
void replaceElementReads(ir::Value& value, std::span<ir::Value* const> leaves) {
  std::vector<ir::Use> uses = value.uses();
  auto elements = value.type().elements();
  for (const ir::Use& use : uses) {
    ir::Operation* read = use.user;
    int64_t index = *tupleIndex(*read);
    size_t offset = 0;
    for (int64_t i = 0; i < index; ++i)
      offset += leafCount(elements[i]);
    auto sub = leaves.subspan(offset, leafCount(elements[index]));
    if (isTuple(elements[index]))
      replaceElementReads(*read->result(0), sub);
    else
      read->result(0)->replaceAllUsesWith(sub[0]);
    read->dropAllReferences();
    read->parentBlock()->erase(read);
  }
}

// Erases the `stablehlo.tuple` ops in `tuples` (and the ones feeding them) nothing uses any more.
void eraseDeadTuples(std::vector<ir::Operation*> tuples) {
  while (!tuples.empty()) {
    ir::Operation* tuple = tuples.back();
    tuples.pop_back();
    if (!tuple->is("stablehlo.tuple") || tuple->result(0)->hasUses())
      continue;
    for (ir::Value* operand : tuple->operands())
      if (isTuple(operand->type()) && operand->definingOp())
        tuples.push_back(operand->definingOp());
    tuple->dropAllReferences();
    tuple->parentBlock()->erase(tuple);
  }
}

void flattenCall(ir::Operation& call) {
  bool hasTuple = false;
  for (ir::Value* operand : call.operands())
    hasTuple = hasTuple || isTuple(operand->type());
  for (const auto& result : call.results())
    hasTuple = hasTuple || isTuple(result->type());
  if (!hasTuple)
    return;
  std::vector<ir::Value*> operands;
  for (ir::Value* operand : call.operands())
    if (!flattenValue(operand, operands))
      return;
  // Every use of a tuple result must be an element read, else the tuple stays.
  for (const auto& result : call.results())
    if (isTuple(result->type()) && !onlyElementReads(*result))
      return;
  std::vector<ir::Type> types;
  for (const auto& result : call.results())
    flattenType(result->type(), types);
  auto flat = ir::Operation::create(call.name(), operands, types, call.loc());
  for (const auto& attr : call.attributes()) {
    flat->setAttr(attr.name, ir::Attribute(attr.value));
    flat->setInherent(attr.name, call.isInherent(attr.name));
  }
  ir::Operation* inserted = call.parentBlock()->insertBefore(&call, std::move(flat));
  size_t next = 0;
  for (const auto& result : call.results()) {
    size_t count = leafCount(result->type());
    std::vector<ir::Value*> leaves;
    for (size_t i = 0; i < count; ++i)
      leaves.push_back(inserted->result(static_cast<unsigned>(next + i)));
    next += count;
    if (isTuple(result->type()))
      replaceElementReads(*result, leaves);
    else
      result->replaceAllUsesWith(leaves[0]);
  }
  std::vector<ir::Operation*> tuples;
  for (ir::Value* operand : call.operands())
    if (isTuple(operand->type()) && operand->definingOp())
      tuples.push_back(operand->definingOp());
  call.dropAllReferences();
  call.parentBlock()->erase(&call);
  eraseDeadTuples(tuples);
}

} // namespace

bool flattenCustomCallTuples(ir::Module& module, support::DiagnosticSink& /*sink*/) {
  // Collected first: flattening erases element reads, which a walk could still visit.
  std::vector<ir::Operation*> calls;
  for (ir::Operation* fn : module.functions())
    fn->walk([&](ir::Operation& op) {
      if (op.is("stablehlo.custom_call"))
        calls.push_back(&op);
    });
  for (ir::Operation* call : calls)
    flattenCall(*call);
  return true;
}

} // namespace shardscope::import_
