// Verification of Shardy's discardable op attributes: `sdy.sharding`, `sdy.sharding_rule` and the
// propagation-edge attributes.
#include "core/ir/attribute.h"
#include "core/sharding/detail/verify_support.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace shardscope::sharding::detail {

namespace {

// --- sdy.sharding_rule
// -----------------------------------------------------------------------------

bool verifyRuleMappings(const ir::Operation& op, std::span<const ir::Type> types,
                        const std::vector<ir::TensorMapping>& mappings,
                        const std::vector<int64_t>& factorSizes, std::vector<bool>& seenFactors,
                        const std::string& kind, support::DiagnosticSink& sink) {
  ErrorEmitter emit = opError(op, sink);
  if (types.size() != mappings.size())
    return emit("number of " + kind + "s and mappings must match: " + std::to_string(types.size()) +
                " != " + std::to_string(mappings.size()));
  if (mappings.empty())
    return emit("number of " + kind +
                "s mappings cannot be 0. Op sharding rules can only be defined on operations with "
                "at least one operand and result.");
  auto numFactors = static_cast<int64_t>(factorSizes.size());
  for (size_t index = 0; index < types.size(); ++index) {
    ErrorEmitter valueEmit = valueEmitter(emit.extended(kind + " "), types.size(), index);
    ir::Type type = types[index];
    if (!type.isTensor() || !type.hasStaticShape())
      return valueEmit("expected a ranked tensor with a static shape. type: " + quotedType(type));
    const ir::TensorMapping& mapping = mappings[index];
    if (static_cast<int64_t>(mapping.dims.size()) != type.rank())
      return valueEmit("mapping rank must match: " + std::to_string(mapping.dims.size()) +
                       " != " + std::to_string(type.rank()));
    std::vector<bool> valueSeen(factorSizes.size(), false);
    for (const std::vector<int64_t>& factors : mapping.dims) {
      if (factors.empty())
        return valueEmit("dim mapping must have at least one factor");
      for (int64_t factor : factors) {
        if (factor < 0 || factor >= numFactors)
          return valueEmit("expecting factor indices to be within 0<=...<num_factors; received: " +
                           std::to_string(factor) + ", num_factors: " + std::to_string(numFactors));
        auto f = static_cast<size_t>(factor);
        if (valueSeen[f])
          return valueEmit("cannot reuse factors for the same tensor value");
        if (factorSizes[f] == 1 && factors.size() > 1)
          return valueEmit(
              "dim mapping can't have a factor of size 1 if there are multiple factors");
        valueSeen[f] = true;
        seenFactors[f] = true;
      }
    }
  }
  return true;
}

bool verifySpecialFactors(const ErrorEmitter& emit, int64_t numFactors,
                          const std::vector<int64_t>& indices) {
  if (indices.empty())
    return true;
  if (!std::is_sorted(indices.begin(), indices.end()))
    return emit("indices of special factors must be sorted");
  if (std::adjacent_find(indices.begin(), indices.end()) != indices.end())
    return emit("indices of special factors must be unique");
  if (indices.front() < 0)
    return emit("index must be non-negative");
  if (indices.back() >= numFactors)
    return emit("index must be less than " + std::to_string(numFactors) +
                ", got: " + std::to_string(indices.back()));
  return true;
}

bool verifyShardingRule(const VerifyContext& ctx, const ir::Operation& op,
                        const ir::OpShardingRule& rule) {
  std::vector<bool> seen(rule.factorSizes.size(), false);
  if (!verifyRuleMappings(op, ir::operandTypes(op), rule.operands, rule.factorSizes, seen,
                          "operand", ctx.sink) ||
      !verifyRuleMappings(op, ir::resultTypes(op), rule.results, rule.factorSizes, seen, "result",
                          ctx.sink))
    return false;
  ErrorEmitter emit = opError(op, ctx.sink);
  for (size_t i = 0; i < seen.size(); ++i)
    if (!seen[i])
      return emit("has factor " + ir::factorSymbol(static_cast<int64_t>(i)) + "=" +
                  std::to_string(rule.factorSizes[i]) +
                  " that isn't used in operand and result mappings");
  auto numFactors = static_cast<int64_t>(rule.factorSizes.size());
  if (!verifySpecialFactors(emit, numFactors, rule.reductionFactors) ||
      !verifySpecialFactors(emit, numFactors, rule.needReplicationFactors) ||
      !verifySpecialFactors(emit, numFactors, rule.permutationFactors))
    return false;
  std::set<int64_t> special(rule.reductionFactors.begin(), rule.reductionFactors.end());
  special.insert(rule.needReplicationFactors.begin(), rule.needReplicationFactors.end());
  special.insert(rule.permutationFactors.begin(), rule.permutationFactors.end());
  if (special.size() != rule.reductionFactors.size() + rule.needReplicationFactors.size() +
                            rule.permutationFactors.size())
    return emit("a factor can only be in one of the reduction, need replication, or permutation "
                "factor sets");
  if (!verifySpecialFactors(emit, numFactors, rule.blockedPropagationFactors))
    return false;
  // Reduction factors are the ones the results don't have.
  for (int64_t factor : rule.reductionFactors)
    for (const ir::TensorMapping& mapping : rule.results)
      for (const std::vector<int64_t>& dim : mapping.dims)
        if (std::find(dim.begin(), dim.end(), factor) != dim.end())
          return emit("reduction factor cannot be in result mappings");
  return true;
}

// --- propagation edges
// -------------------------------------------------------------------------------

constexpr std::string_view kEdgesPrefix = "#sdy.propagation_edges";

bool isPropagationEdges(const ir::Attribute& attr) {
  const auto* opaque = attr.as<ir::OpaqueAttr>();
  return opaque && opaque->text.starts_with(kEdgesPrefix);
}

// A `operand-N` / `result-N` reference in an edge.
struct ValueRef {
  bool isOperand = false;
  int64_t index = 0;
  bool operator==(const ValueRef&) const = default;
};

// `#sdy.propagation_edges<[{step-N = [{"axis" = source -> [targets]}, ...]}, ...]>`.
struct AxisEntry {
  std::string axisName; // the name of the axis ref (sub-axis info dropped)
  ValueRef source;
  std::vector<ValueRef> targets;
};
struct PropagationStep {
  int64_t stepIndex = 0;
  std::vector<AxisEntry> entries;
};

// Reads the text after `#sdy.propagation_edges`. Returns nothing when the text doesn't have the
// attribute's form (the attribute is then left alone).
class EdgesReader {
public:
  explicit EdgesReader(std::string_view text) : m_text(text) {}

  std::optional<std::vector<PropagationStep>> read() {
    std::vector<PropagationStep> steps;
    if (!eat('<') || !eat('['))
      return std::nullopt;
    if (eat(']'))
      return eat('>') ? std::optional(steps) : std::nullopt;
    do {
      std::optional<PropagationStep> step = readStep();
      if (!step)
        return std::nullopt;
      steps.push_back(std::move(*step));
    } while (eat(','));
    if (!eat(']') || !eat('>'))
      return std::nullopt;
    return steps;
  }

private:
  std::optional<PropagationStep> readStep() {
    PropagationStep step;
    if (!eat('{') || !eatWord("step") || !eat('-'))
      return std::nullopt;
    std::optional<int64_t> index = integer();
    if (!index || !eat('=') || !eat('['))
      return std::nullopt;
    step.stepIndex = *index;
    if (!eat(']')) {
      do {
        std::optional<AxisEntry> entry = readEntry();
        if (!entry)
          return std::nullopt;
        step.entries.push_back(std::move(*entry));
      } while (eat(','));
      if (!eat(']'))
        return std::nullopt;
    }
    if (!eat('}'))
      return std::nullopt;
    return step;
  }

  std::optional<AxisEntry> readEntry() {
    AxisEntry entry;
    if (!eat('{') || !eat('"'))
      return std::nullopt;
    size_t close = m_text.find('"', m_pos);
    if (close == std::string_view::npos)
      return std::nullopt;
    entry.axisName = std::string(m_text.substr(m_pos, close - m_pos));
    m_pos = close + 1;
    if (eat(':')) { // sub-axis info `:(m)k`
      if (!eat('(') || !integer() || !eat(')') || !integer())
        return std::nullopt;
    }
    std::optional<ValueRef> source;
    if (!eat('=') || !(source = valueRef()) || !eat('-') || !eat('>') || !eat('['))
      return std::nullopt;
    entry.source = *source;
    if (!eat(']')) {
      do {
        std::optional<ValueRef> target = valueRef();
        if (!target)
          return std::nullopt;
        entry.targets.push_back(*target);
      } while (eat(','));
      if (!eat(']'))
        return std::nullopt;
    }
    if (!eat('}'))
      return std::nullopt;
    return entry;
  }

  std::optional<ValueRef> valueRef() {
    ValueRef ref;
    if (eatWord("operand"))
      ref.isOperand = true;
    else if (!eatWord("result"))
      return std::nullopt;
    std::optional<int64_t> index;
    if (!eat('-') || !(index = integer()))
      return std::nullopt;
    ref.index = *index;
    return ref;
  }

  void skipSpaces() {
    while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
      ++m_pos;
  }
  bool eat(char c) {
    skipSpaces();
    if (m_pos >= m_text.size() || m_text[m_pos] != c)
      return false;
    ++m_pos;
    return true;
  }
  bool eatWord(std::string_view word) {
    skipSpaces();
    if (m_text.substr(m_pos, word.size()) != word)
      return false;
    m_pos += word.size();
    return true;
  }
  std::optional<int64_t> integer() {
    skipSpaces();
    size_t start = m_pos;
    bool negative = m_pos < m_text.size() && m_text[m_pos] == '-';
    if (negative)
      ++m_pos;
    int64_t value = 0;
    size_t digits = 0;
    while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos])) &&
           digits < 18) {
      value = value * 10 + (m_text[m_pos] - '0');
      ++m_pos;
      ++digits;
    }
    if (!digits) {
      m_pos = start;
      return std::nullopt;
    }
    return negative ? -value : value;
  }

  std::string_view m_text;
  size_t m_pos = 0;
};

std::optional<std::vector<PropagationStep>> readEdges(std::string_view text) {
  return EdgesReader(text.substr(kEdgesPrefix.size())).read();
}

// The value of `op` an edge references, or null when the index is out of range.
const ir::Value* edgeValue(const ir::Operation& op, const ValueRef& ref) {
  if (ref.index < 0)
    return nullptr;
  auto index = static_cast<size_t>(ref.index);
  if (ref.isOperand)
    return index < op.numOperands() ? op.operand(static_cast<unsigned>(index)) : nullptr;
  return index < op.numResults() ? op.result(static_cast<unsigned>(index)) : nullptr;
}

bool verifyEdgeValueRef(const ErrorEmitter& emit, const ir::Operation& op, const ValueRef& ref) {
  // Shardy doesn't check the references of a func data-flow edge.
  if (op.is("sdy.func_data_flow_edge"))
    return true;
  int64_t count = ref.isOperand ? op.numOperands() : op.numResults();
  if (ref.index < 0 || ref.index >= count)
    return emit(std::string("expected a value ref to have ") +
                (ref.isOperand ? "an operand" : "a result") + " index in range [0, " +
                std::to_string(count) + "), got: " + std::to_string(ref.index));
  return true;
}

// Shardy's `verifyPropagationEdgesShardingAttr`: the edges reference some sharded value, those
// shardings share a mesh that has every axis, and every reference is in range.
bool verifyPropagationEdgesOfOp(const VerifyContext& ctx, const ir::Operation& op,
                                const std::vector<PropagationStep>& steps) {
  ErrorEmitter emit = opError(op, ctx.sink);
  std::vector<ir::TensorSharding> shardings;
  auto addSharding = [&](const ValueRef& ref) {
    if (const ir::Value* value = edgeValue(op, ref))
      if (std::optional<ir::TensorSharding> sharding = valueSharding(*value))
        shardings.push_back(std::move(*sharding));
  };
  for (const PropagationStep& step : steps)
    for (const AxisEntry& entry : step.entries) {
      addSharding(entry.source);
      for (const ValueRef& target : entry.targets)
        addSharding(target);
    }
  if (shardings.empty())
    return emit("expected propagation edges attr to reference a sharding.");
  // Shardy's `getCommonMesh`: the first mesh, replaced while it is empty; empty ones skipped.
  const ir::Mesh* mesh = nullptr;
  bool common = true;
  for (const ir::TensorSharding& sharding : shardings) {
    const ir::Mesh* other = ctx.meshOf(sharding);
    if (!mesh || MeshView(*mesh).isEmpty()) {
      mesh = other;
      continue;
    }
    if (other && !MeshView(*other).isEmpty() && !(*other == *mesh))
      common = false;
  }
  if (!mesh || !common)
    return emit("expected a common mesh for propagation edges attr.");
  MeshView view(*mesh);
  for (const PropagationStep& step : steps)
    for (const AxisEntry& entry : step.entries) {
      if (!view.hasAxis(entry.axisName))
        return emit("expected axis ref to be in one of the meshes");
      if (!verifyEdgeValueRef(emit, op, entry.source))
        return false;
      for (const ValueRef& target : entry.targets)
        if (!verifyEdgeValueRef(emit, op, target))
          return false;
    }
  return true;
}

} // namespace

// PropagationEdgesAttr::verify, which MLIR runs while parsing the attribute.
bool verifyPropagationEdgesSyntax(std::string_view text, const ErrorEmitter& emit) {
  std::optional<std::vector<PropagationStep>> steps = readEdges(text);
  if (!steps)
    return true;
  std::vector<int64_t> seen;
  for (const PropagationStep& step : *steps) {
    if (step.stepIndex < 0)
      return emit("propagation edges have negative step index: " +
                  std::to_string(step.stepIndex));
    if (std::find(seen.begin(), seen.end(), step.stepIndex) != seen.end())
      return emit("propagation edges have duplicate step index: " +
                  std::to_string(step.stepIndex));
    seen.push_back(step.stepIndex);
    for (const AxisEntry& entry : step.entries) {
      std::vector<ValueRef> targets;
      for (const ValueRef& target : entry.targets) {
        if (target == entry.source)
          return emit("propagation edges have a source that is the same as a target");
        if (std::find(targets.begin(), targets.end(), target) != targets.end())
          return emit("propagation edges have duplicate targets for step index: " +
                      std::to_string(step.stepIndex) + " and axis: " + entry.axisName);
        targets.push_back(target);
      }
    }
  }
  return true;
}

bool verifyDiscardableAttr(const VerifyContext& ctx, const ir::Operation& op, std::string_view name,
                           const ir::Attribute& value) {
  ErrorEmitter emit = opError(op, ctx.sink);
  if (name == "sdy.sharding") {
    const auto* perValue = value.as<ir::ShardingPerValueAttr>();
    if (!perValue)
      return emit("should have a sharding attribute of type TensorShardingPerValueAttr");
    std::vector<ir::Type> types;
    for (const auto& result : op.results())
      types.push_back(result->type());
    return verifyShardingList(ctx, perValue->shardings, types, op, emit.extended("result "));
  }
  if (name == "sdy.sharding_rule") {
    const auto* rule = value.as<ir::ShardingRuleAttr>();
    if (!rule)
      return emit("should have a sharding rule attribute of type OpShardingRuleAttr for attr "
                  "named 'sdy.sharding_rule'");
    return verifyShardingRule(ctx, op, rule->rule);
  }
  if (name == "sdy.propagation_edges") {
    if (!isPropagationEdges(value))
      return emit("should have a propagation edges attribute of type PropagationEdgesAttr for "
                  "attr named 'sdy.propagation_edges'");
    std::optional<std::vector<PropagationStep>> steps = readEdges(value.as<ir::OpaqueAttr>()->text);
    return !steps || verifyPropagationEdgesOfOp(ctx, op, *steps);
  }
  if (name == "sdy.result_propagation_edges" || name == "sdy.block_arg_propagation_edges") {
    const auto* array = value.as<ir::ArrayAttr>();
    bool ok = array && std::all_of(array->elements.begin(), array->elements.end(),
                                   [](const ir::Attribute& a) { return isPropagationEdges(a); });
    if (!ok)
      return emit("should have a propagation edges attribute of type "
                  "ArrayAttr<PropagationEdgesAttr> for attr named 'sdy.result_propagation_edges' "
                  "or 'sdy.block_arg_propagation_edges'");
  }
  return true;
}

} // namespace shardscope::sharding::detail
