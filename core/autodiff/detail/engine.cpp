#include "core/autodiff/detail/engine.h"

#include "core/analysis/manual_computation.h"
#include "core/autodiff/detail/preconditions.h"

#include <algorithm>
#include <cstdlib>

namespace shardscope::autodiff::detail {

using ir::Operation;
using ir::Value;

Axes unite(const Axes& a, const Axes& b) {
  Axes out = a;
  out.insert(out.end(), b.begin(), b.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Axes minus(const Axes& a, const Axes& b) {
  Axes out;
  for (const std::string& axis : a)
    if (std::find(b.begin(), b.end(), axis) == b.end())
      out.push_back(axis);
  std::sort(out.begin(), out.end());
  return out;
}

bool intersects(const Axes& a, const Axes& b) {
  return std::any_of(a.begin(), a.end(), [&](const std::string& axis) {
    return std::find(b.begin(), b.end(), axis) != b.end();
  });
}

// ---- RuleContext ------------------------------------------------------------------------------

bool RuleContext::isActive(unsigned operand) const {
  return scope.active.count(op.operand(operand)) != 0;
}

Value* RuleContext::primal(unsigned operand) const {
  auto it = scope.primal.find(op.operand(operand));
  return it == scope.primal.end() ? nullptr : it->second;
}

Value* RuleContext::primalResult(unsigned result) const {
  auto it = scope.primal.find(op.result(result));
  return it == scope.primal.end() ? nullptr : it->second;
}

Value* RuleContext::ct(unsigned result) const {
  return result < m_cts.size() ? m_cts[result] : nullptr;
}

void RuleContext::add(unsigned operand, Value* value, const Axes* lifted) {
  const Value* target = op.operand(operand);
  Axes pending = m_pending;
  if (engine.rules() == CollectiveRules::Efficient) {
    Axes from = lifted ? *lifted : engine.axesOf(op.numResults() ? op.result(0) : nullptr);
    pending = unite(pending, minus(from, engine.axesOf(target)));
  }
  engine.addCt(scope, b, target, Cotangent{value, std::move(pending)});
}

bool RuleContext::fail(const std::string& message) const {
  engine.sink().error(op.loc(), message);
  return false;
}

// ---- Engine -----------------------------------------------------------------------------------

Engine::Engine(ir::Module& module, Mode mode, CollectiveRules rules, support::DiagnosticSink& sink)
    : m_module(module), m_mode(mode), m_rules(rules), m_sink(sink),
      m_variance(analysis::VarianceAnalysis::run(module)) {
  module.op().walk([&](const Operation& op) {
    const auto* handle = op.attr("channel_handle").as<ir::OpaqueAttr>();
    if (!handle)
      return;
    size_t pos = handle->text.find("handle = ");
    if (pos != std::string::npos)
      m_nextChannel =
          std::max<int64_t>(m_nextChannel, std::atoll(handle->text.c_str() + pos + 9) + 1);
  });
}

Axes Engine::axesOf(const Value* value) const {
  const analysis::VarianceSet* set = value ? m_variance.varianceOf(*value) : nullptr;
  if (!set)
    return {};
  Axes axes = set->axes();
  std::sort(axes.begin(), axes.end());
  return axes;
}

ir::Attribute Engine::channelHandle() {
  return ir::Attribute::opaque(
      "#stablehlo.channel_handle<handle = " + std::to_string(m_nextChannel++) + ", type = 1>");
}

std::vector<std::vector<int64_t>> Engine::groupsOf(const Scope& scope, const Axes& axes,
                                                   std::vector<int64_t>* positionOfDevice) const {
  const ir::Mesh* mesh = scope.view ? scope.view->mesh.mesh : nullptr;
  if (!mesh)
    return {};
  int64_t total = 1;
  for (const ir::MeshAxis& axis : mesh->axes)
    total *= axis.size;
  std::vector<std::vector<int64_t>> groups;
  std::vector<std::vector<int64_t>> keys;
  if (positionOfDevice)
    positionOfDevice->assign(static_cast<size_t>(total), 0);
  for (int64_t index = 0; index < total; ++index) {
    // Coordinates of `index` (row-major over the mesh axes); the group key is the coordinates
    // on the axes outside `axes`.
    std::vector<int64_t> key;
    int64_t rest = index;
    for (size_t a = mesh->axes.size(); a-- > 0;) {
      int64_t coord = rest % mesh->axes[a].size;
      rest /= mesh->axes[a].size;
      bool inGroup = std::find(axes.begin(), axes.end(), mesh->axes[a].name) != axes.end();
      key.push_back(inGroup ? -1 : coord);
    }
    int64_t device = mesh->deviceIds.empty() ? index : mesh->deviceIds[static_cast<size_t>(index)];
    auto it = std::find(keys.begin(), keys.end(), key);
    size_t g = static_cast<size_t>(it - keys.begin());
    if (it == keys.end()) {
      keys.push_back(key);
      groups.emplace_back();
    }
    if (positionOfDevice && device >= 0 && device < total)
      (*positionOfDevice)[static_cast<size_t>(device)] = static_cast<int64_t>(groups[g].size());
    groups[g].push_back(device);
  }
  return groups;
}

Value* Engine::psum(Scope& scope, OpBuilder& b, Value* value, const Axes& axes) {
  std::vector<ir::Type> types{value->type()};
  std::vector<Value*> operands{value};
  Operation* op = b.create("stablehlo.all_reduce", operands, types,
                           {named("channel_handle", channelHandle()),
                            named("replica_groups", i64Matrix(groupsOf(scope, axes))),
                            named("use_global_device_ids", ir::Attribute::unit())});
  OpBuilder::addSumRegion(*op, value->type().elementType());
  return op->result(0);
}

Value* Engine::materialize(Scope& scope, OpBuilder& b, Cotangent c) {
  if (c.pending.empty() || !c.value)
    return c.value;
  return psum(scope, b, c.value, c.pending);
}

void Engine::addCt(Scope& scope, OpBuilder& b, const Value* value, Cotangent contribution) {
  if (!contribution.value)
    return;
  auto it = scope.ct.find(value);
  if (it == scope.ct.end()) {
    scope.ct.emplace(value, std::move(contribution));
    return;
  }
  Cotangent& existing = it->second;
  if (existing.pending != contribution.pending) {
    existing.value = materialize(scope, b, existing);
    existing.pending.clear();
    contribution.value = materialize(scope, b, contribution);
  }
  existing.value = b.binary("add", existing.value, contribution.value);
}

Operation* Engine::clone(const Operation& op, ir::Block& target,
                         std::unordered_map<const Value*, Value*>& map) {
  std::vector<Value*> operands;
  for (Value* operand : op.operands()) {
    auto it = map.find(operand);
    operands.push_back(it == map.end() ? operand : it->second);
  }
  std::vector<ir::Type> types;
  for (const auto& result : op.results())
    types.push_back(result->type());
  auto copy = Operation::create(op.name(), operands, types, op.loc());
  for (const ir::NamedAttribute& attr : op.attributes()) {
    copy->setAttr(attr.name, ir::Attribute(attr.value));
    copy->setInherent(attr.name, op.isInherent(attr.name));
  }
  for (unsigned r = 0; r < op.numRegions(); ++r) {
    ir::Region& region = copy->addRegion();
    for (const auto& block : op.region(r).blocks()) {
      ir::Block& newBlock = region.addBlock();
      for (const auto& arg : block->arguments()) {
        Value* newArg = newBlock.addArgument(arg->type());
        newArg->setNameHint(arg->nameHint());
        map[arg.get()] = newArg;
      }
      for (const auto& inner : block->ops())
        clone(*inner, newBlock, map);
    }
  }
  Operation* placed = target.push_back(std::move(copy));
  for (unsigned i = 0; i < op.numResults(); ++i)
    map[op.result(i)] = placed->result(i);
  return placed;
}

bool Engine::forward(Scope& scope) {
  for (const auto& owned : scope.source->ops()) {
    const Operation& op = *owned;
    if (&op == scope.source->back())
      break;
    // Regions of control flow ops may use values of this block directly (only manual
    // computations are isolated), so look at every nested operand.
    bool active = false;
    op.walk([&](const Operation& inner) {
      for (Value* v : inner.operands())
        active = active || scope.active.count(v) != 0;
    });
    if (active)
      for (const auto& result : op.results())
        scope.active.insert(result.get());
    if (!active || m_mode == Mode::Grad)
      clone(op, *scope.target, scope.primal);
  }
  return true;
}

bool Engine::backward(Scope& scope, const Operation& op, OpBuilder& b) {
  // The result cotangents, with their pending psums.
  std::vector<Cotangent> cts(op.numResults());
  bool any = false;
  for (unsigned i = 0; i < op.numResults(); ++i) {
    auto it = scope.ct.find(op.result(i));
    if (it != scope.ct.end()) {
      cts[i] = it->second;
      any = true;
    }
  }
  if (!any)
    return true;
  // A pending psum commutes with the op's transpose when every operand the rule may read is
  // invariant over its axes and the op is not itself communicating; otherwise emit it now. (An
  // active operand never varies over pending axes: they are axes the result is invariant over.)
  Axes pending;
  for (const Cotangent& c : cts)
    pending = unite(pending, c.pending);
  bool communicates = op.is("sdy.manual_computation") || analysis::collectiveKind(op).has_value();
  bool commutes = !communicates;
  for (unsigned i = 0; i < op.numOperands() && commutes; ++i)
    if (intersects(axesOf(op.operand(i)), pending))
      commutes = false;
  bool samePending = std::all_of(
      cts.begin(), cts.end(), [&](const Cotangent& c) { return !c.value || c.pending == pending; });
  RuleContext ctx(*this, scope, op, b, commutes && samePending ? pending : Axes{});
  for (unsigned i = 0; i < op.numResults(); ++i)
    ctx.setCt(i, commutes && samePending ? cts[i].value : materialize(scope, b, cts[i]));

  if (op.is("sdy.manual_computation"))
    return transposeManualComputation(ctx);
  // The rules index shapes with the op's attributes; an op the verifier let through with
  // attributes out of range is refused here instead of read out of bounds.
  if (std::optional<std::string> problem = violatedPrecondition(op))
    return ctx.fail(*problem);
  if (std::optional<bool> done = transposeCollective(ctx))
    return *done;
  if (std::optional<bool> done = transposeLinear(ctx))
    return *done;
  if (m_mode == Mode::Grad)
    if (std::optional<bool> done = differentiateNonlinear(ctx))
      return *done;
  if (op.numRegions() > 0 && !op.is("stablehlo.reduce"))
    return ctx.fail("'" + std::string(op.name()) + "' with differentiated operands is not " +
                    "supported (control flow and calls are not transformed)");
  if (m_mode == Mode::Grad)
    return ctx.fail("no derivative rule for '" + std::string(op.name()) + "'");
  return ctx.fail("'" + std::string(op.name()) +
                  "' is not linear in the linear arguments; only linear ops can be transposed");
}

std::optional<std::vector<Value*>> Engine::run(Scope& scope, const Seeds& seeds) {
  if (!forward(scope))
    return std::nullopt;
  OpBuilder b(*scope.target);
  const Operation* terminator = scope.source->back();
  b.setLoc(terminator ? terminator->loc() : support::SourceLocation{});
  for (unsigned i = 0; terminator && i < terminator->numOperands(); ++i) {
    const Value* returned = terminator->operand(i);
    if (!scope.active.count(returned) || i >= seeds.cts.size() || !seeds.cts[i])
      continue;
    Axes pending;
    if (m_rules == CollectiveRules::Efficient && i < seeds.axes.size())
      pending = minus(seeds.axes[i], axesOf(returned));
    addCt(scope, b, returned, Cotangent{seeds.cts[i], std::move(pending)});
  }
  std::vector<const Operation*> ops;
  for (const auto& op : scope.source->ops())
    if (op.get() != terminator)
      ops.push_back(op.get());
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    const Operation& op = **it;
    bool active = std::any_of(op.results().begin(), op.results().end(),
                              [&](const auto& r) { return scope.active.count(r.get()) != 0; });
    if (!active)
      continue;
    b.setLoc(op.loc());
    if (!backward(scope, op, b))
      return std::nullopt;
  }
  // Psums still pending at the arguments belong to the block's owner (the manual computation
  // whose unmapped input received a varying cotangent), so they take its location.
  const Operation* owner = scope.source->parentOp();
  b.setLoc(owner ? owner->loc() : support::SourceLocation{});
  std::vector<Value*> out;
  for (const auto& arg : scope.source->arguments()) {
    if (!scope.active.count(arg.get()))
      continue;
    auto it = scope.ct.find(arg.get());
    out.push_back(it == scope.ct.end() ? b.splat(arg->type(), 0.0)
                                       : materialize(scope, b, it->second));
  }
  return out;
}

void eraseDeadOps(ir::Block& block) {
  bool changed = true;
  while (changed) {
    changed = false;
    std::vector<Operation*> dead;
    for (const auto& op : block.ops()) {
      if (op.get() == block.back())
        continue;
      if (op->is("sdy.manual_computation"))
        eraseDeadOps(op->region(0).front());
      bool used = std::any_of(op->results().begin(), op->results().end(),
                              [](const auto& r) { return r->hasUses(); });
      if (!used && op->numResults() > 0)
        dead.push_back(op.get());
    }
    for (auto it = dead.rbegin(); it != dead.rend(); ++it) {
      (*it)->dropAllReferences();
      block.erase(*it);
      changed = true;
    }
  }
}

} // namespace shardscope::autodiff::detail
