#include "core/propagation/propagate_engine.h"

#include "core/ir/attribute.h"
#include "core/propagation/import_data_flow.h"
#include "core/propagation/op_sharding_rule_registry.h"
#include "core/propagation/propagate_aggressive.h"
#include "core/propagation/propagate_values.h"

#include <algorithm>
#include <typeinfo>

namespace shardscope::propagation {

using ir::Operation;
using ir::TensorSharding;
using ir::Value;

// --- Helpers --------------------------------------------------------------------------------

std::optional<CommonMesh> commonMesh(PropagationContext& context,
                                     std::span<const TensorSharding* const> shardings) {
  std::optional<CommonMesh> common;
  auto isEmpty = [](const ir::Mesh& m) { return m.axes.empty() && m.deviceIds.empty(); };
  for (const TensorSharding* s : shardings) {
    if (!s)
      continue;
    const ir::Mesh* mesh = context.mesh(*s);
    if (!mesh)
      continue;
    if (!common || isEmpty(*common->mesh)) {
      common = CommonMesh{mesh, s->meshName, s->inlineMesh};
      continue;
    }
    if (mesh != common->mesh && !(*mesh == *common->mesh) && !isEmpty(*mesh))
      return std::nullopt;
  }
  return common;
}

ir::OpShardingRule identityRule(const ir::Type& type, size_t numOperands) {
  ir::OpShardingRule rule;
  ir::TensorMapping mapping;
  if (type.isTensor()) {
    for (int64_t d = 0; d < type.rank(); ++d) {
      rule.factorSizes.push_back(type.shape()[static_cast<size_t>(d)]);
      mapping.dims.push_back({d});
    }
  }
  rule.operands.assign(numOperands, mapping);
  rule.results.push_back(mapping);
  return rule;
}

namespace {

// `shardingOf` for the common case, a result of a StableHLO op other than a data-flow op: its
// sharding is entry `index` of the op's `sdy.sharding` list, shared with the list's attribute.
// Nothing when the value isn't such a result; a null pointer when it has no sharding.
std::optional<std::shared_ptr<const TensorSharding>> fastShardingOf(const Value& value) {
  const Operation* def = value.definingOp();
  if (!def || value.isBlockArgument())
    return std::nullopt;
  std::string_view name = def->name();
  if (!name.starts_with("stablehlo.") || isDataFlowOp(*def))
    return std::nullopt;
  ir::Attribute attr = def->attr("sdy.sharding");
  const auto* list = attr.as<ir::ShardingPerValueAttr>();
  if (!list || value.index() >= list->shardings.size())
    return std::shared_ptr<const TensorSharding>();
  // Aliasing constructor: owns the attribute, points at the entry.
  return std::shared_ptr<const TensorSharding>(attr.impl(), &list->shardings[value.index()]);
}

std::shared_ptr<const TensorSharding> shareCopy(std::optional<TensorSharding> sharding) {
  return sharding ? std::make_shared<const TensorSharding>(std::move(*sharding)) : nullptr;
}

} // namespace

std::shared_ptr<const TensorSharding> readTensorShared(const TensorRef& ref) {
  switch (ref.kind) {
  case TensorRef::Kind::Value:
    if (!ref.value)
      return nullptr;
    if (auto fast = fastShardingOf(*ref.value))
      return std::move(*fast);
    return shareCopy(shardingOf(*ref.value));
  case TensorRef::Kind::EdgeTarget: {
    const auto* s = ref.op->attr("sharding").as<ir::ShardingAttr>();
    return shareCopy(transformEdgeSharding(
        *ref.op, s ? std::optional(s->sharding) : std::nullopt, EdgeTransform::BeforePropagation));
  }
  case TensorRef::Kind::FuncResult:
    return shareCopy(getFuncResultSharding(*ref.op, ref.index));
  }
  return nullptr;
}

std::optional<TensorSharding> readTensor(const TensorRef& ref) {
  if (std::shared_ptr<const TensorSharding> s = readTensorShared(ref))
    return *s;
  return std::nullopt;
}

void writeTensor(const TensorRef& ref, const TensorSharding& sharding) {
  switch (ref.kind) {
  case TensorRef::Kind::Value:
    setSharding(*ref.value, sharding);
    return;
  case TensorRef::Kind::EdgeTarget:
    ref.op->setAttr("sharding", ir::Attribute::sharding(*transformEdgeSharding(
                                    *ref.op, sharding, EdgeTransform::AfterPropagation)));
    return;
  case TensorRef::Kind::FuncResult:
    setFuncResultSharding(*ref.op, ref.index, sharding);
    return;
  }
}

namespace {

// The value holding the sharding of `ref` (the returned value for a function result).
Value* modifiedValue(const TensorRef& ref) {
  return ref.value ? shardableValue(*ref.value) : nullptr;
}

TraceTensor traceTensor(const TensorRef& ref) {
  if (ref.kind == TensorRef::Kind::FuncResult)
    return TraceTensor::funcResult(ref.op, ref.index);
  Value* v = modifiedValue(ref);
  return TraceTensor::of(v ? v : ref.value);
}

bool emptyAxes(const TensorSharding& s) {
  return s.replicatedAxes.empty() &&
         std::all_of(s.dims.begin(), s.dims.end(),
                     [](const ir::DimensionSharding& d) { return d.axes.empty(); });
}

// Ops the registered-rule pattern never applies to (structure, not computation).
bool isStructural(const Operation& op) {
  return op.is("builtin.module") || op.is("func.func") || op.is("sdy.mesh") ||
         isTerminatorOp(op) || op.is("sdy.sharding_group") ||
         op.is("sdy.manual_computation") || op.is("sdy.named_computation");
}

// The shardings of a step's tensors (operands ++ results), read without copying: `held` keeps
// them alive while the step writes tensors, `pointers` views them (null: no sharding).
struct StepShardings {
  std::vector<std::shared_ptr<const TensorSharding>> held;
  std::vector<const TensorSharding*> pointers;

  StepShardings(std::span<const TensorRef> operands, std::span<const TensorRef> results) {
    held.reserve(operands.size() + results.size());
    pointers.reserve(operands.size() + results.size());
    for (const TensorRef& ref : operands)
      add(readTensorShared(ref));
    for (const TensorRef& ref : results)
      add(readTensorShared(ref));
  }
  void add(std::shared_ptr<const TensorSharding> s) {
    pointers.push_back(s.get());
    held.push_back(std::move(s));
  }
};

// Returns true when every present sharding has the rank of its tensor mapping in `rule`.
bool fitsRule(std::span<const TensorSharding* const> shardings, size_t numOperands,
              const ir::OpShardingRule& rule) {
  for (size_t t = 0; t < shardings.size(); ++t) {
    const ir::TensorMapping& mapping =
        t < numOperands ? rule.operands[t] : rule.results[t - numOperands];
    if (shardings[t] && shardings[t]->dims.size() != mapping.dims.size())
      return false;
  }
  return true;
}

// The direction key of an op not asked for yet in the run.
constexpr uint64_t kUnknownDirections = ~uint64_t{0};

// Directions are kept as keys of 2 bits per factor, which fit up to this many factors.
constexpr size_t kMaxKeyFactors = 31;

uint64_t encodeDirections(std::span<const Direction> directions) {
  if (directions.size() > kMaxKeyFactors)
    return PropagationContext::kUncacheableDirections;
  uint64_t key = 0;
  for (size_t f = 0; f < directions.size(); ++f)
    key |= static_cast<uint64_t>(directions[f]) << (2 * f);
  return key;
}

void decodeDirections(uint64_t key, size_t numFactors, std::vector<Direction>& out) {
  out.resize(numFactors);
  for (size_t f = 0; f < numFactors; ++f)
    out[f] = static_cast<Direction>((key >> (2 * f)) & 3);
}

} // namespace

// --- Engine -------------------------------------------------------------------------------------

struct PropagationEngine::Step {
  Operation& op;
  std::span<const TensorRef> operands;
  std::span<const TensorRef> results;
  const ir::OpShardingRule& rule;
  StepShardings shardings; // operands ++ results, before the step
  CommonMesh mesh;
  sharding::MeshView view;
  ShardingProjection projection;
  std::optional<ShardingProjection> before; // kept only when tracing
  bool notify = true;

  size_t numOperands() const { return operands.size(); }
  const TensorRef& ref(size_t t) const {
    return t < operands.size() ? operands[t] : results[t - operands.size()];
  }
  const ir::TensorMapping& mapping(size_t t) const {
    return t < operands.size() ? rule.operands[t] : rule.results[t - operands.size()];
  }
};

PropagationContext::PropagationContext(ir::Module& module)
    : m_calls(std::make_unique<CallGraph>(module)), m_meshes(module) {
  for (auto& top : module.body().ops())
    top->walk([&](Operation& op) { m_ops.push_back(&op); });
  m_numPreorder = m_ops.size();
  for (size_t i = 0; i < m_ops.size(); ++i)
    addSlot(m_ops[i], static_cast<uint32_t>(i));
  m_kinds.assign(m_ops.size(), OpKind::Unknown);
}

PropagationContext::~PropagationContext() = default;

// The slot holding `op`, or the empty slot where it would go (linear probing from its hash).
size_t PropagationContext::slotOf(const Operation* op) const {
  size_t mask = m_slotOps.size() - 1;
  size_t slot = static_cast<size_t>((reinterpret_cast<uintptr_t>(op) * 0x9E3779B97F4A7C15ULL) >>
                                    (64 - m_slotBits));
  while (m_slotOps[slot] && m_slotOps[slot] != op)
    slot = (slot + 1) & mask;
  return slot;
}

void PropagationContext::addSlot(const Operation* op, uint32_t index) {
  // Keep the table at most half full, so probes stay short.
  if (2 * (static_cast<size_t>(index) + 1) > m_slotOps.size()) {
    std::vector<const Operation*> oldOps = std::move(m_slotOps);
    std::vector<uint32_t> oldIndices = std::move(m_slotIndices);
    m_slotBits = std::max(m_slotBits + 1, 4);
    while ((size_t{1} << m_slotBits) < 2 * (static_cast<size_t>(index) + 1))
      ++m_slotBits;
    m_slotOps.assign(size_t{1} << m_slotBits, nullptr);
    m_slotIndices.assign(size_t{1} << m_slotBits, 0);
    for (size_t i = 0; i < oldOps.size(); ++i)
      if (oldOps[i]) {
        size_t slot = slotOf(oldOps[i]);
        m_slotOps[slot] = oldOps[i];
        m_slotIndices[slot] = oldIndices[i];
      }
  }
  size_t slot = slotOf(op);
  m_slotOps[slot] = op;
  m_slotIndices[slot] = index;
}

uint32_t PropagationContext::indexOf(Operation* op) {
  if (!m_slotOps.empty()) {
    size_t slot = slotOf(op);
    if (m_slotOps[slot] == op)
      return m_slotIndices[slot];
  }
  auto index = static_cast<uint32_t>(m_ops.size());
  m_ops.push_back(op);
  m_kinds.push_back(OpKind::Unknown);
  addSlot(op, index);
  return index;
}

PropagationContext::OpKind PropagationContext::kind(uint32_t index) {
  OpKind& k = m_kinds[index];
  if (k != OpKind::Unknown)
    return k;
  const Operation& op = *m_ops[index];
  if (op.is("sdy.propagation_barrier"))
    k = OpKind::Barrier;
  else if (op.is("sdy.data_flow_edge"))
    k = OpKind::DataFlowEdge;
  else if (op.is("sdy.func_data_flow_edge"))
    k = OpKind::FuncDataFlowEdge;
  else if (op.is("func.call"))
    k = OpKind::Call;
  else if (isStructural(op))
    k = OpKind::Structural;
  else
    k = OpKind::Registered;
  return k;
}

namespace {

void hashCombine(uint64_t& seed, uint64_t value) {
  seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

void hashInts(uint64_t& seed, const std::vector<int64_t>& values) {
  hashCombine(seed, values.size());
  for (int64_t v : values)
    hashCombine(seed, static_cast<uint64_t>(v));
}

uint64_t hashRule(const ir::OpShardingRule& rule) {
  uint64_t seed = rule.isCustom ? 1 : 0;
  for (const auto* mappings : {&rule.operands, &rule.results}) {
    hashCombine(seed, mappings->size());
    for (const ir::TensorMapping& mapping : *mappings) {
      hashCombine(seed, mapping.dims.size());
      for (const std::vector<int64_t>& factors : mapping.dims)
        hashInts(seed, factors);
    }
  }
  for (const auto* list : {&rule.factorSizes, &rule.reductionFactors, &rule.needReplicationFactors,
                           &rule.permutationFactors, &rule.blockedPropagationFactors})
    hashInts(seed, *list);
  return seed;
}

} // namespace

const ir::OpShardingRule* PropagationContext::rule(uint32_t index, bool conservative,
                                                   bool attach) {
  if (index >= m_ruleStates.size()) {
    m_ruleStates.resize(m_ops.size(), RuleState::Unknown);
    m_rules.resize(m_ops.size());
  }
  if (m_ruleStates[index] == RuleState::Unknown) {
    Operation& op = *m_ops[index];
    ir::Attribute existing = op.attr("sdy.sharding_rule");
    if (existing.as<ir::ShardingRuleAttr>()) {
      m_rules[index] = std::move(existing); // what `shardingRuleFor` returns for the op
    } else if (std::optional<ir::OpShardingRule> built =
                   shardingRuleFor(op, RuleOptions{conservative})) {
      // Share one attribute among ops with equal rules (most ops of a program repeat a few).
      uint64_t hash = hashRule(*built);
      auto [first, last] = m_internedRules.equal_range(hash);
      auto same = std::find_if(first, last, [&](const auto& entry) {
        return entry.second.template as<ir::ShardingRuleAttr>()->rule == *built;
      });
      if (same == last)
        same = m_internedRules.emplace(hash, ir::Attribute::shardingRule(std::move(*built)));
      m_rules[index] = same->second;
      if (attach && !existing)
        op.setAttr("sdy.sharding_rule", m_rules[index]);
    }
    m_ruleStates[index] = m_rules[index] ? RuleState::Built : RuleState::None;
  }
  const auto* attr = m_rules[index].as<ir::ShardingRuleAttr>();
  return attr ? &attr->rule : nullptr;
}

void PropagationContext::beginRun(const void* strategy, bool conservative) {
  ++m_run;
  if (strategy != m_strategy || conservative != m_conservative)
    forgetCleanOps();
  m_strategy = strategy;
  m_conservative = conservative;
}

void PropagationContext::markClean(uint32_t index, uint64_t directions) {
  if (index >= m_clean.size())
    m_clean.resize(std::max<size_t>(m_ops.size(), index + 1));
  m_clean[index] = CleanState{directions, m_run};
}

void PropagationContext::forgetCleanOps() { std::fill(m_clean.begin(), m_clean.end(), CleanState{}); }

PropagationEngine::PropagationEngine(ir::Module& module, EngineConfig config,
                                     support::DiagnosticSink& sink)
    : m_module(module), m_config(std::move(config)), m_sink(sink) {
  static const BasicFactorPropagation kBasic;
  if (!m_config.factorPropagation)
    m_config.factorPropagation = &kBasic;
  m_context = m_config.context;
  if (!m_context) {
    m_ownContext = std::make_unique<PropagationContext>(module);
    m_context = m_ownContext.get();
  }
  m_calls = &m_context->calls();
}

bool checkStaticShapes(ir::Module& module, support::DiagnosticSink& sink) {
  bool ok = true;
  module.op().walk([&](Operation& op) {
    for (const auto& result : op.results()) {
      ir::Type type = result->type();
      if (!ok)
        return;
      if (type.isTensor() && !type.hasStaticShape()) {
        sink.error(op.loc(), "Shardy propagation only supports ranked tensors with a static "
                               "shape. type: " + type.str());
        ok = false;
      } else if (type && type.kind() == ir::Type::Kind::Tuple) {
        sink.error(op.loc(), "Shardy propagation doesn't support tuples: " + type.str());
        ok = false;
      }
    }
  });
  return ok;
}

void PropagationEngine::run() {
  m_context->beginRun(m_config.factorPropagation, m_config.conservative);
  m_directionKeys.assign(m_context->size(), kUnknownDirections);
  propagateFuncResults();
  // Like MLIR's greedy driver: re-run whole sweeps until one changes nothing (the worklist makes
  // the first sweep reach the fixpoint; the second confirms it).
  for (int iteration = 0; iteration < 10; ++iteration) {
    for (size_t i = m_context->preorder().size(); i-- > 0;)
      push(static_cast<uint32_t>(i));
    bool changed = false;
    uint32_t index = 0;
    while (pop(index)) {
      Operation* op = m_context->op(index);
      // A clean op would change nothing (see PropagationContext): skipping it changes neither the
      // IR nor the worklist.
      if (isClean(index))
        continue;
      m_current = op;
      bool opChanged = visit(*op, index);
      changed = opChanged || changed;
      if (!opChanged && m_context->kind(index) == PropagationContext::OpKind::Registered)
        m_context->markClean(index, directionKey(index));
    }
    m_current = nullptr;
    if (!changed)
      break;
  }
  propagateFuncResults();
}

bool PropagationEngine::visit(Operation& op) { return visit(op, m_context->indexOf(&op)); }

bool PropagationEngine::visit(Operation& op, uint32_t index) {
  using Kind = PropagationContext::OpKind;
  switch (m_context->kind(index)) {
  case Kind::Barrier:
    return visitBarrier(op);
  case Kind::DataFlowEdge:
    return visitDataFlowEdge(op);
  case Kind::FuncDataFlowEdge:
    return visitFuncDataFlowEdge(op);
  case Kind::Call:
    if (m_config.linkCalls)
      return visitCall(op);
    return visitRegistered(op, index);
  case Kind::Structural:
    return false;
  default:
    return visitRegistered(op, index);
  }
}

// Only registered ops are ever marked clean.
bool PropagationEngine::isClean(uint32_t index) {
  if (m_context->cleanInCurrentRun(index))
    return true;
  std::optional<uint64_t> cleanDirections = m_context->cleanDirections(index);
  return cleanDirections && *cleanDirections == directionKey(index);
}

void PropagationEngine::computeDirections(const Operation& op, const ir::OpShardingRule& rule,
                                          const OpDirectionsFn& direction,
                                          std::vector<Direction>& out) const {
  out.assign(rule.factorSizes.size(), Direction::Both);
  if (direction)
    direction(op, &rule, out);
  for (int64_t factor : rule.blockedPropagationFactors)
    if (factor >= 0 && static_cast<size_t>(factor) < out.size())
      out[static_cast<size_t>(factor)] = Direction::None;
}

// The directions of an op propagated with an identity of `numFactors` factors (no rule).
std::vector<Direction> PropagationEngine::identityDirections(const Operation& op,
                                                             size_t numFactors) const {
  std::vector<Direction> directions(numFactors, Direction::Both);
  if (m_config.direction)
    m_config.direction(op, nullptr, directions);
  return directions;
}

namespace {

FactorDirectionFn lookUp(const std::vector<Direction>& directions) {
  return [&directions](int64_t factor) {
    return static_cast<size_t>(factor) < directions.size()
               ? directions[static_cast<size_t>(factor)]
               : Direction::Both;
  };
}

} // namespace

// The directions of op `index` along each factor of its rule in this run (the direction
// functions are pure, so they are asked once per run), as a key (0 for an op without a rule).
uint64_t PropagationEngine::directionKey(uint32_t index) {
  if (index >= m_directionKeys.size())
    m_directionKeys.resize(std::max<size_t>(m_context->size(), index + 1), kUnknownDirections);
  uint64_t& key = m_directionKeys[index];
  if (key != kUnknownDirections)
    return key;
  const ir::OpShardingRule* rule =
      m_context->rule(index, m_config.conservative, m_config.keepShardingRules);
  auto keyOf = [&](const OpDirectionsFn& direction) {
    computeDirections(*m_context->op(index), *rule, direction, m_directions);
    return encodeDirections(m_directions);
  };
  if (!rule)
    key = 0;
  else if (!m_config.schedule.empty())
    key = m_context->scheduledDirections(index, m_config.schedule, m_config.round,
                                         [&](int round) { return keyOf(m_config.schedule[round]); });
  else
    key = keyOf(m_config.direction);
  return key;
}

bool PropagationEngine::visitRegistered(Operation& op, uint32_t index) {
  const ir::OpShardingRule* rule =
      m_context->rule(index, m_config.conservative, m_config.keepShardingRules);
  if (!rule)
    return false;
  const ir::OpShardingRule& r = *rule;
  if (r.operands.size() != op.numOperands() || r.results.size() != op.numResults())
    return false;
  // The direction of every factor, fixed for the run.
  uint64_t key = directionKey(index);
  if (key == PropagationContext::kUncacheableDirections)
    computeDirections(op, r, m_config.direction, m_directions);
  else
    decodeDirections(key, r.factorSizes.size(), m_directions);
  // The built-in strategies change nothing along factors that can't propagate.
  const std::type_info& strategy = typeid(*m_config.factorPropagation);
  if ((strategy == typeid(BasicFactorPropagation) ||
       strategy == typeid(AggressiveFactorPropagation)) &&
      std::all_of(m_directions.begin(), m_directions.end(),
                  [](Direction d) { return d == Direction::None; }))
    return false;
  FactorDirectionFn direction = lookUp(m_directions);
  std::vector<TensorRef> refs;
  refs.reserve(op.numOperands() + op.numResults());
  for (Value* v : op.operands())
    refs.push_back(TensorRef::of(v));
  for (const auto& result : op.results())
    refs.push_back(TensorRef::of(result.get()));
  std::span<const TensorRef> all(refs);
  return propagateTensors(op, all.first(op.numOperands()), all.subspan(op.numOperands()), r,
                          direction, true, m_config.conservative);
}

bool PropagationEngine::visitDataFlowEdge(Operation& edge) {
  if (edge.numOperands() != 1 || edge.numResults() != 1)
    return false;
  std::vector<TensorRef> sources;
  for (Value* source : dataFlowSources(edge))
    sources.push_back(TensorRef::of(source));
  TensorRef target{TensorRef::Kind::EdgeTarget, edge.result(0), &edge, 0};
  ir::OpShardingRule rule = identityRule(edge.result(0)->type(), sources.size());
  std::vector<Direction> directions = identityDirections(edge, rule.factorSizes.size());
  return propagateTensors(edge, sources, std::span(&target, 1), rule, lookUp(directions), true,
                          false);
}

bool PropagationEngine::visitFuncDataFlowEdge(Operation& edge) {
  if (edge.numOperands() != 1 || edge.numResults() != 1)
    return false;
  std::vector<TensorRef> sources;
  for (Value* source : m_calls->funcEdgeSources(edge))
    sources.push_back(TensorRef::of(source));
  TensorRef target = TensorRef::of(edge.result(0));
  ir::OpShardingRule rule = identityRule(edge.result(0)->type(), sources.size());
  std::vector<Direction> directions = identityDirections(edge, rule.factorSizes.size());
  return propagateTensors(edge, sources, std::span(&target, 1), rule, lookUp(directions), true,
                          false);
}

bool PropagationEngine::visitCall(Operation& call) {
  Operation* callee = m_calls->calleeOf(call);
  ir::Block* body = callee ? ir::func::body(*callee) : nullptr;
  if (!body || body->numArguments() != call.numOperands())
    return false;
  bool changed = false;
  // Every call site feeds the callee's argument; the callee's returned value feeds the result.
  for (unsigned i = 0; i < call.numOperands(); ++i) {
    std::vector<TensorRef> sources;
    for (Operation* site : m_calls->callsOf(*callee))
      sources.push_back(TensorRef::of(site->operand(i)));
    TensorRef arg = TensorRef::of(body->argument(i));
    ir::OpShardingRule rule = identityRule(arg.value->type(), sources.size());
    std::vector<Direction> directions = identityDirections(call, rule.factorSizes.size());
    changed = propagateTensors(call, sources, std::span(&arg, 1), rule, lookUp(directions), true,
                               false) ||
              changed;
  }
  Operation* term = body->back();
  for (unsigned i = 0; term && i < call.numResults() && i < term->numOperands(); ++i) {
    TensorRef returned = TensorRef::of(term->operand(i));
    TensorRef result = TensorRef::of(call.result(i));
    ir::OpShardingRule rule = identityRule(call.result(i)->type());
    std::vector<Direction> directions = identityDirections(call, rule.factorSizes.size());
    changed = propagateTensors(call, std::span(&returned, 1), std::span(&result, 1), rule,
                               lookUp(directions), true, false) ||
              changed;
  }
  return changed;
}

bool PropagationEngine::visitBarrier(Operation& barrier) {
  if (barrier.numOperands() != 1 || barrier.numResults() != 1)
    return false;
  const auto* text = barrier.attr("allowed_direction").as<ir::OpaqueAttr>();
  Direction allowed = text ? parseDirection(text->text) : Direction::None;
  TensorRef operand = TensorRef::of(barrier.operand(0));
  TensorRef result = TensorRef::of(barrier.result(0));
  ir::OpShardingRule rule = identityRule(barrier.result(0)->type());
  return propagateTensors(barrier, std::span(&operand, 1), std::span(&result, 1), rule,
                          [allowed](int64_t) { return allowed; }, true, false);
}

void PropagationEngine::propagateFuncResults() {
  for (Operation* fn : m_module.functions()) {
    // Private functions are callees: their results are bridged by `sdy.func_data_flow_edge`
    // ops on the call results instead (`sdy_opt` leaves their result attributes alone).
    const auto* visibility = fn->attr("sym_visibility").as<ir::StringAttr>();
    if (visibility && visibility->value == "private" && !m_config.linkCalls)
      continue;
    ir::Block* body = ir::func::body(*fn);
    Operation* term = body ? body->back() : nullptr;
    if (!term || !term->is("func.return"))
      continue;
    for (unsigned i = 0; i < term->numOperands(); ++i) {
      Value* returned = term->operand(i);
      ir::Type type = returned->type();
      if (!type.isTensor() || !type.hasStaticShape())
        continue; // tokens and dynamic shapes have no sharding
      TensorRef operand = TensorRef::of(returned);
      TensorRef result{TensorRef::Kind::FuncResult, returned, fn, i};
      propagateTensors(*fn, std::span(&operand, 1), std::span(&result, 1), identityRule(type),
                       [](int64_t) { return Direction::Both; }, false, false);
    }
  }
}

bool PropagationEngine::propagateTensors(Operation& op, std::span<const TensorRef> operands,
                                         std::span<const TensorRef> results,
                                         const ir::OpShardingRule& rule,
                                         const FactorDirectionFn& direction, bool notify,
                                         bool conservative) {
  StepShardings shardings(operands, results);
  std::span<const TensorSharding* const> all(shardings.pointers);
  std::optional<CommonMesh> mesh = commonMesh(*m_context, all);
  if (!mesh || !fitsRule(all, operands.size(), rule))
    return false;
  sharding::MeshView view(*mesh->mesh);
  ShardingProjection projection = ShardingProjection::build(
      all.first(operands.size()), all.subspan(operands.size()), rule, view);
  Step step{op,       operands, results,
            rule,     std::move(shardings), std::move(*mesh),
            view,     std::move(projection),
            std::nullopt, notify};
  if (m_config.trace)
    step.before = step.projection;
  FactorPropagationInput input{rule.factorSizes, &step.view, direction, &op, conservative};
  TensorUpdates updates = m_config.factorPropagation->propagate(step.projection, input);
  bool any = false;
  for (size_t t = 0; t < step.shardings.pointers.size(); ++t) {
    bool flagged = t < operands.size() ? updates.operands[t] : updates.results[t - operands.size()];
    if (flagged)
      any = updateTensor(step, t) || any;
  }
  return any;
}

bool PropagationEngine::updateTensor(Step& step, size_t t) {
  const TensorRef& ref = step.ref(t);
  TensorSharding updated = step.projection.tensor(t).toTensorSharding(
      step.mapping(t), step.rule.factorSizes, step.mesh.name, step.mesh.inlineMesh, step.view);
  const TensorSharding* old = step.shardings.pointers[t];
  // Nothing to do when projecting back loses the new axes (e.g. a strided view would be needed).
  if ((!old && emptyAxes(updated)) || (old && updated == *old))
    return false;
  writeTensor(ref, updated);
  if (m_config.trace)
    recordSteps(step, t);
  // A function result attribute has no value of its own: nothing to revisit, no group.
  Value* modified = ref.kind == TensorRef::Kind::FuncResult ? nullptr : modifiedValue(ref);
  if (step.notify && modified)
    notifyShardingModified(*modified);
  // Without notifications, no op that reads the value is known to be notified: none is clean.
  if (!step.notify && modified)
    m_context->forgetCleanOps();
  if (modified)
    updateGroupMembers(*modified, updated, step.notify);
  return true;
}

void PropagationEngine::updateGroupMembers(Value& modified, const TensorSharding& sharding,
                                           bool notify) {
  if (!m_config.groups)
    return;
  // Copy: notifications don't change groups, but keep the loop independent of the map.
  std::vector<Value*> members = m_config.groups->membersOf(modified);
  for (Value* member : members) {
    if (member == &modified)
      continue;
    setSharding(*member, sharding);
    if (m_config.trace)
      m_config.trace->addStep({m_config.groups->groupOpOf(*member), StepDirection::Group, -1,
                               {}, TraceTensor::of(&modified), TraceTensor::of(member)},
                              nullptr);
    if (notify)
      notifyShardingModified(*member);
  }
}

void PropagationEngine::recordSteps(const Step& step, size_t t) {
  const TensorFactorShardings& before = step.before->tensor(t);
  const TensorFactorShardings& after = step.projection.tensor(t);
  for (size_t f = 0; f < after.factors.size(); ++f) {
    const FactorSharding* now = after.find(static_cast<int64_t>(f));
    const FactorSharding* was = before.find(static_cast<int64_t>(f));
    if (!now || !was || now->axes == was->axes)
      continue;
    // The source is a tensor that already held the factor's new axes before the step.
    size_t source = t;
    for (size_t s = 0; s < step.shardings.pointers.size() && source == t; ++s) {
      const FactorSharding* held = step.before->tensor(s).find(static_cast<int64_t>(f));
      if (s != t && held && held->axes == now->axes)
        source = s;
    }
    bool fromOperand = source < step.numOperands(), toOperand = t < step.numOperands();
    StepDirection direction = fromOperand == toOperand ? StepDirection::Sideways
                              : fromOperand            ? StepDirection::Forward
                                                       : StepDirection::Backward;
    m_config.trace->addStep({&step.op, direction, static_cast<int64_t>(f), now->axes,
                             traceTensor(step.ref(source)), traceTensor(step.ref(t))},
                            step.shardings.pointers[source]);
  }
}

// --- Worklist -----------------------------------------------------------------------------------

void PropagationEngine::push(Operation* op) {
  uint32_t index = m_context->indexOf(op);
  m_context->markDirty(index); // notified: one of its tensors changed
  push(index);
}

void PropagationEngine::push(uint32_t index) {
  if (index >= m_inWorklist.size())
    m_inWorklist.resize(std::max<size_t>(m_context->size(), index + 1), 0);
  if (m_inWorklist[index])
    return;
  m_inWorklist[index] = 1;
  m_worklist.push_back(index);
}

bool PropagationEngine::pop(uint32_t& index) {
  if (m_worklist.empty())
    return false;
  index = m_worklist.back();
  m_worklist.pop_back();
  m_inWorklist[index] = 0;
  return true;
}

void PropagationEngine::notifyOp(Operation* op) {
  // The op being propagated needs no revisit; MLIR also re-queues every ancestor of a modified
  // op (below the module), innermost first.
  if (!op || op == m_current)
    return;
  // Functions are left out: visiting one does nothing (it is structural), so queueing it can't
  // change what happens, and every notification would look it up.
  for (Operation* cur = op; cur && !cur->is("builtin.module"); cur = cur->parentOp())
    if (!cur->is("func.func"))
      push(cur);
}

void PropagationEngine::notifyUsersModified(Value& value) {
  // MLIR walks a use list newest-first; ours is in creation order. (Notifying only fills the
  // worklist, so the list can't change while it is walked.)
  const std::vector<ir::Use>& uses = value.uses();
  for (auto it = uses.rbegin(); it != uses.rend(); ++it) {
    Operation* user = it->user;
    if (Operation* edge = dataFlowEdgeOfSource(*user, it->index)) {
      notifyOp(edge);
    } else if (isTerminatorOp(*user)) {
      if (user->is("func.return") && user->parentOp())
        notifyCallers(*user->parentOp(), it->index);
      notifyOp(user->parentOp());
    } else if (Operation* argEdge = user->is("func.call")
                                        ? m_calls->argEdgeOfCallOperand(*user, it->index)
                                        : nullptr) {
      notifyOp(argEdge);
    } else {
      notifyOp(user);
    }
  }
}

// Callers see a function's results through `sdy.func_data_flow_edge` ops on the call results,
// or directly when calls are linked.
void PropagationEngine::notifyCallers(Operation& fn, unsigned resultIndex) {
  for (Operation* callEdge : m_calls->resultEdgesOf(fn, resultIndex))
    notifyOp(callEdge);
  if (m_config.linkCalls)
    for (Operation* call : m_calls->callsOf(fn))
      notifyOp(call);
}

void PropagationEngine::notifyShardingModified(Value& value) {
  if (Operation* def = value.definingOp(); def && def->is("sdy.data_flow_edge"))
    for (Value* target : nonOwnerTargets(*def))
      notifyUsersModified(*target);
  Operation* owner = owningOp(value);
  if (m_config.linkCalls && value.isBlockArgument() && owner && owner->is("func.func"))
    for (Operation* call : m_calls->callsOf(*owner))
      notifyOp(call);
  notifyOp(owner);
  notifyUsersModified(value);
}

} // namespace shardscope::propagation
