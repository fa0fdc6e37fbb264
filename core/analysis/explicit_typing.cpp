#include "core/analysis/explicit_typing.h"

#include "core/analysis/detail/explicit_typing_builder.h"
#include "core/ir/attribute.h"

#include <algorithm>

namespace shardscope::analysis {

namespace {

bool isTerminator(const ir::Operation& op) {
  return op.is("func.return") || op.is("stablehlo.return") || op.is("sdy.return");
}

// JAX's current mesh: the one mesh with explicit axes, if there is exactly one.
std::string findContextMesh(const ir::Module& module, const AxisTypes& types) {
  std::string found;
  for (const auto& op : module.body().ops()) {
    const auto* name = op->is("sdy.mesh") ? op->attr("sym_name").as<ir::StringAttr>() : nullptr;
    if (!name || !types.hasExplicitAxis(name->value))
      continue;
    if (!found.empty())
      return "";
    found = name->value;
  }
  return found;
}

std::optional<AxisTypes> moduleAxisTypes(const ir::Module& module,
                                         const ExplicitTypingOptions& options,
                                         support::DiagnosticSink& sink) {
  if (options.explicitAxes)
    return explicitAxesOverride(module, *options.explicitAxes, sink);
  return readAxisTypes(module, sink);
}

// A Python tuple of integers: `(6,)`, `(6, 4)`.
std::string intTuple(const std::vector<int64_t>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return "(" + out + (values.size() == 1 ? ",)" : ")");
}

// `Sharding.shard_shape` as jit checks its arguments (`_check_divisibility` in pjit.py): JAX
// refuses an argument whose explicit sharding splits a dimension unevenly instead of padding it.
std::optional<std::string> unevenArgument(const ExplicitType& arg, const ir::Module& module,
                                          const AxisTypes& types) {
  if (!arg.known || arg.mesh.empty() || !arg.type.isTensor())
    return std::nullopt;
  const ir::Mesh* mesh = module.lookupMesh(arg.mesh);
  if (!mesh)
    return std::nullopt;
  std::span<const int64_t> shape = arg.type.shape();
  std::vector<int64_t> partitions;
  for (size_t d = 0; d < arg.dims.size() && d < shape.size(); ++d) {
    int64_t p = 1;
    for (const ir::AxisRef& axis : arg.dims[d])
      for (const ir::MeshAxis& meshAxis : mesh->axes)
        if (meshAxis.name == axis.name)
          p *= axis.subAxis ? axis.subAxis->size : meshAxis.size;
    partitions.push_back(p);
  }
  for (size_t d = 0; d < partitions.size(); ++d) {
    if (shape[d] < 0 || shape[d] % partitions[d] == 0)
      continue;
    std::string sharding = namedShardingRepr(arg, mesh, types);
    if (sharding.rfind("NamedSharding(mesh=Abstract", 0) == 0)
      sharding.erase(std::string("NamedSharding(mesh=").size(), std::string("Abstract").size());
    return "One of pjit arguments was given the sharding " + sharding +
           " implies that array axis " + std::to_string(d) + " is partitioned " +
           std::to_string(partitions[d]) + " times, but the dimension size is " +
           std::to_string(shape[d]) +
           " (full shape: " + intTuple(std::vector<int64_t>(shape.begin(), shape.end())) +
           ", per-dimension tiling factors: " + intTuple(partitions) +
           " should evenly divide the shape)";
  }
  return std::nullopt;
}

} // namespace

bool anyUnknown(const std::vector<ExplicitType>& types) {
  return std::any_of(types.begin(), types.end(), [](const ExplicitType& t) { return !t.known; });
}

const ExplicitType* ExplicitTyping::typeOf(const ir::Value& value) const {
  auto it = m_types.find(&value);
  return it == m_types.end() ? nullptr : &it->second;
}

void ExplicitTypingBuilder::typeFunction(const ir::Operation& fn) {
  const ir::Block* body = ir::func::body(fn);
  if (!body || m_done.count(&fn) || m_inProgress.count(&fn))
    return;
  m_inProgress.insert(&fn);
  const AxisTypes& types = m_out.m_axisTypes;
  const auto* visibility = fn.attr("sym_visibility").as<ir::StringAttr>();
  const bool entry = !visibility || visibility->value == "public";
  for (const auto& arg : body->arguments()) {
    ExplicitType type =
        typeFromSharding(arg->type(), ir::shardingOf(*arg), types, m_out.m_contextMesh);
    if (std::optional<std::string> uneven =
            entry ? unevenArgument(type, m_module, types) : std::nullopt) {
      m_out.m_rejections.push_back({&fn, {"IndivisibleError", *uneven}});
      m_sink.error(fn.loc(), *uneven);
    }
    set(*arg, std::move(type));
  }
  typeBlock(*body, types);
  m_inProgress.erase(&fn);
  m_done.insert(&fn);
}

void ExplicitTypingBuilder::typeBlock(const ir::Block& block, const AxisTypes& types) {
  for (const auto& op : block.ops())
    typeOp(*op, types);
}

void ExplicitTypingBuilder::typeOp(const ir::Operation& op, const AxisTypes& types) {
  if (isTerminator(op))
    return;
  if (op.is("stablehlo.while"))
    return typeWhile(op, types);
  if (op.is("stablehlo.case"))
    return typeCase(op, types);
  if (op.is("sdy.named_computation"))
    return typeNamedComputation(op, types);
  if (op.is("sdy.manual_computation"))
    return typeManualComputation(op, types);
  if (op.is("func.call"))
    return typeCall(op);
  typeScalarRegions(op, types);
  typeWithRule(op, types);
}

void ExplicitTypingBuilder::typeWithRule(const ir::Operation& op, const AxisTypes& types) {
  std::vector<ExplicitType> operands = operandTypes(op);
  // A reshard sets the type whatever its operand was; anything else after an error stays
  // untyped without a second message.
  bool setsType = op.is("sdy.reshard") || op.is("sdy.sharding_constraint");
  if (!setsType && anyUnknown(operands))
    return setUnknown(op);
  RuleOutcome outcome = applyExplicitRule(op, operands, context(types));
  switch (outcome.status) {
  case RuleOutcome::Status::Typed:
    for (unsigned i = 0; i < op.numResults() && i < outcome.results.size(); ++i)
      set(*op.result(i), std::move(outcome.results[i]));
    return;
  case RuleOutcome::Status::Rejected:
    return reject(op, *outcome.error);
  case RuleOutcome::Status::NoRule:
    return typeWithoutRule(op, operands);
  }
}

void ExplicitTypingBuilder::typeWithoutRule(const ir::Operation& op,
                                            const std::vector<ExplicitType>& operands) {
  if (op.numResults() == 0)
    return; // nothing to type (`sdy.sharding_group`, side effects)
  bool sharded = std::any_of(operands.begin(), operands.end(),
                             [](const ExplicitType& t) { return !t.isUnsharded(); });
  if (!sharded) {
    // Without a rule we cannot know what JAX does, but nothing explicit flows in, and no JAX
    // rule shards a result from unsharded inputs without an `out_sharding`.
    for (const auto& result : op.results())
      set(*result, unshardedType(result->type(), m_out.m_contextMesh));
    return;
  }
  ++m_out.m_numUntyped;
  m_sink.warning(op.loc(), "no explicit-sharding rule for '" + std::string(op.name()) +
                               "' in ShardScope: its results are left untyped");
  setUnknown(op);
}

void ExplicitTypingBuilder::typeScalarRegions(const ir::Operation& op, const AxisTypes& types) {
  // The bodies of reduce, sort, scatter, ... compute on scalars: their arguments are unsharded.
  for (unsigned r = 0; r < op.numRegions(); ++r) {
    for (const auto& block : op.region(r).blocks()) {
      for (const auto& arg : block->arguments())
        set(*arg, unshardedType(arg->type(), m_out.m_contextMesh));
      typeBlock(*block, types);
    }
  }
}

void ExplicitTypingBuilder::typeCall(const ir::Operation& op) {
  const auto* callee = op.attr("callee").as<ir::SymbolRefAttr>();
  const ir::Operation* fn =
      callee && !callee->path.empty() ? m_module.lookupFunction(callee->path.back()) : nullptr;
  if (fn)
    typeFunction(*fn);
  const ir::Block* body = fn ? ir::func::body(*fn) : nullptr;
  const ir::Operation* ret = body ? body->back() : nullptr;
  // A recursive call, or a call to a declaration, has no known result types.
  if (!ret || !m_done.count(fn) || ret->numOperands() != op.numResults())
    return setUnknown(op);
  std::vector<ExplicitType> results = operandTypes(*ret);
  for (unsigned i = 0; i < op.numResults(); ++i)
    set(*op.result(i), results[i]);
}

std::vector<ExplicitType> ExplicitTypingBuilder::operandTypes(const ir::Operation& op) const {
  std::vector<ExplicitType> types;
  for (const ir::Value* operand : op.operands()) {
    const ExplicitType* t = operand ? m_out.typeOf(*operand) : nullptr;
    types.push_back(t ? *t : unknownType(operand ? operand->type() : ir::Type()));
  }
  return types;
}

std::vector<ExplicitType> ExplicitTypingBuilder::returnTypes(const ir::Region& region) const {
  if (region.empty() || !region.front().back())
    return {};
  return operandTypes(*region.front().back());
}

void ExplicitTypingBuilder::set(const ir::Value& value, ExplicitType type) {
  type.type = value.type();
  if (type.type.isTensor() && type.dims.size() != type.type.shape().size())
    type = unknownType(value.type()); // a rule mismatched the rank: do not show a wrong type
  m_out.m_types[&value] = std::move(type);
}

void ExplicitTypingBuilder::setUnknown(const ir::Operation& op) {
  for (const auto& result : op.results())
    set(*result, unknownType(result->type()));
}

void ExplicitTypingBuilder::reject(const ir::Operation& op, const JaxError& error) {
  m_out.m_rejections.push_back({&op, error});
  m_sink.error(op.loc(), error.message);
  setUnknown(op);
}

std::optional<ExplicitTyping> computeExplicitTypes(const ir::Module& module,
                                                   const ExplicitTypingOptions& options,
                                                   support::DiagnosticSink& sink) {
  std::optional<AxisTypes> types = moduleAxisTypes(module, options, sink);
  if (!types)
    return std::nullopt;
  ExplicitTyping typing;
  typing.m_axisTypes = std::move(*types);
  typing.m_contextMesh = findContextMesh(module, typing.m_axisTypes);
  ExplicitTypingBuilder builder(module, sink, typing);
  for (const ir::Operation* fn : module.functions())
    builder.typeFunction(*fn);
  return typing;
}

} // namespace shardscope::analysis
