#include "core/sharding/detail/verify_support.h"

namespace shardscope::sharding::detail {

bool ErrorEmitter::operator()(const std::string& message,
                              std::vector<support::DiagnosticNote> notes) const {
  std::string prefix = m_hasOpName ? "'" + std::string(m_opName) + "' op " + m_prefix : m_prefix;
  m_sink->report({support::Severity::Error, prefix + message, m_loc, std::move(notes)});
  return false;
}

ErrorEmitter opError(const ir::Operation& op, support::DiagnosticSink& sink) {
  ErrorEmitter emit(sink, op.loc());
  emit.m_opName = op.name();
  emit.m_hasOpName = true;
  return emit;
}

ErrorEmitter valueEmitter(const ErrorEmitter& emit, size_t numValues, size_t index) {
  if (numValues == 1)
    return emit.extended("- ");
  return emit.extended(std::to_string(index) + " - ");
}

std::vector<ManualAxisOwner> parentManualAxes(const ir::Operation& op) {
  std::vector<ManualAxisOwner> owners;
  for (const ir::Operation* parent = op.parentOp(); parent; parent = parent->parentOp()) {
    if (!parent->is("sdy.manual_computation"))
      continue;
    const auto* axes = parent->attr("manual_axes").as<ir::ManualAxesAttr>();
    if (!axes)
      continue;
    for (const std::string& axis : axes->axes) {
      bool replaced = false;
      for (ManualAxisOwner& owner : owners)
        if (owner.axis == axis) {
          owner.owner = parent; // an outer op binding the same axis wins
          replaced = true;
        }
      if (!replaced)
        owners.push_back({axis, parent});
    }
  }
  return owners;
}

std::string quotedType(ir::Type type) { return "'" + (type ? type.str() : "<<NULL TYPE>>") + "'"; }

std::string quotedTypes(std::span<const ir::Type> types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i) {
    if (i)
      out += ", ";
    out += quotedType(types[i]);
  }
  return out;
}

bool isUnrankedTensor(ir::Type type) {
  return type && type.kind() == ir::Type::Kind::Opaque && type.opaqueText().starts_with("tensor<*");
}

bool isShapedType(ir::Type type) { return type && (type.isTensor() || isUnrankedTensor(type)); }

bool isFullyReplicated(const ir::TensorSharding& sharding) {
  for (const ir::DimensionSharding& dim : sharding.dims)
    if (!dim.axes.empty())
      return false;
  return true;
}

std::string reductionKindName(const ir::TensorSharding& sharding) {
  return sharding.unreducedKind.empty() ? "sum" : sharding.unreducedKind;
}


std::vector<ir::Type> terminatorOperandTypes(const ir::Operation& op) {
  std::vector<ir::Type> types;
  if (op.numRegions() == 0 || op.region(0).empty())
    return types;
  const ir::Operation* terminator = op.region(0).front().back();
  if (!terminator)
    return types;
  for (const ir::Value* v : terminator->operands())
    types.push_back(v->type());
  return types;
}

const ir::TensorSharding* shardingBypassingBarriers(const ir::Value& value,
                                                    std::optional<ir::TensorSharding>& storage) {
  const ir::Value* current = &value;
  while (const ir::Operation* def = current->definingOp()) {
    if (!def->is("sdy.propagation_barrier") || def->numOperands() != 1)
      break;
    current = def->operand(0);
  }
  return valueShardingRef(*current, storage);
}

} // namespace shardscope::sharding::detail
