#include "core/analysis/variance.h"

#include "core/analysis/replication_check.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <tuple>

namespace shardscope::analysis {

const char* pbroadcastReasonName(PbroadcastReason reason) {
  switch (reason) {
  case PbroadcastReason::MixedOperands:
    return "mixed operands";
  case PbroadcastReason::CollectiveOperand:
    return "collective operand";
  case PbroadcastReason::LoopCarry:
    return "loop carry";
  case PbroadcastReason::OutSpec:
    return "out_shardings";
  }
  return "";
}

const VarianceSet* VarianceAnalysis::varianceOf(const ir::Value& value) const {
  auto it = m_variance.find(&value);
  return it == m_variance.end() ? nullptr : &it->second;
}

std::optional<CollectiveKind> VarianceAnalysis::kindOf(const ir::Operation& op) const {
  for (const CollectiveReading& reading : m_readings)
    if (reading.op == &op)
      return reading.kind;
  return collectiveKind(op);
}

const ManualComputationView* VarianceAnalysis::viewOf(const ir::Operation& op) const {
  for (const ManualComputationView& view : m_views)
    if (view.op == &op)
      return &view;
  return nullptr;
}

namespace {

// An integer that is `floor(d / stride) mod modulus` of the device's linear index `d` on the
// mesh (row-major over the mesh axes, as an iota device order numbers them). `partition_id` is
// {1, devices}; dividing by a constant that divides `modulus` and taking the remainder by one
// keep the form, so the digits of `d` the value reads, and with them its mesh axes, stay known.
struct DeviceIndexDigits {
  int64_t stride = 1;
  int64_t modulus = 1;
};

// The value of a splat integer constant, or nothing.
std::optional<int64_t> splatInteger(const ir::Value& value) {
  const ir::Operation* def = value.definingOp();
  if (!def || !def->is("stablehlo.constant"))
    return std::nullopt;
  const auto* dense = def->attr("value").as<ir::DenseElementsAttr>();
  if (!dense || !ir::isIntegerElement(dense->type.elementType()) || dense->numElements() < 1)
    return std::nullopt;
  int64_t first = dense->intAt(0);
  if (!dense->isSplat)
    for (int64_t i = 1; i < dense->numElements(); ++i)
      if (dense->intAt(i) != first)
        return std::nullopt;
  return first;
}

} // namespace

// Walks the bodies of manual computations and applies the typing rules of `VarianceAnalysis`.
class VarianceBuilder {
public:
  VarianceBuilder(const ir::Module& module, VarianceAnalysis& out)
      : m_module(module), m_out(out), m_values(&out.m_variance) {}

  void run() {
    m_out.m_views = viewManualComputations(m_module);
    for (const ManualComputationView& view : m_out.m_views)
      if (!view.parent)
        analyzeManual(*view.op, nullptr);
  }

private:
  using ValueMap = std::unordered_map<const ir::Value*, VarianceSet>;

  // What the ops of one body are analyzed against.
  struct Scope {
    const ManualComputationView* view = nullptr; // the innermost manual computation
    std::vector<std::string> axes;               // every manual axis in scope, mesh order
    // False while a loop iterates to its fixed point: values are still typed, but sites and
    // collectives are not recorded (the final pass records them once).
    bool record = true;
  };

  std::span<const std::string> order(const Scope& scope) const { return scope.view->meshAxes; }

  const VarianceSet& get(const ir::Value* value) const {
    static const VarianceSet kInvariant;
    auto it = m_values->find(value);
    return it == m_values->end() ? kInvariant : it->second;
  }

  void set(const ir::Value* value, VarianceSet variance) {
    (*m_values)[value] = std::move(variance);
  }

  // A callee called twice from one body is recorded once.
  void addSite(const Scope& scope, const ir::Operation& op, unsigned operand,
               std::vector<std::string> axes, PbroadcastReason reason) {
    if (scope.record && !axes.empty() &&
        m_recordedSites.insert({&op, scope.view->op, operand}).second)
      m_out.m_sites.push_back({&op, operand, std::move(axes), reason, scope.view->op});
  }

  VarianceSet joinOperands(const ir::Operation& op, const Scope& scope) const {
    VarianceSet joined;
    for (const ir::Value* operand : op.operands())
      joined.unite(get(operand), order(scope));
    return joined;
  }

  void analyzeBlock(const ir::Block& block, const Scope& scope) {
    for (const auto& op : block.ops())
      analyzeOp(*op, scope);
  }

  void analyzeOp(const ir::Operation& op, const Scope& scope) {
    if (op.is("sdy.manual_computation"))
      return analyzeManual(op, &scope);
    if (std::optional<CollectiveKind> kind = m_out.kindOf(op))
      return analyzeCollective(op, *kind, scope);
    if (op.is("stablehlo.partition_id") || op.is("stablehlo.replica_id"))
      return analyzeDeviceId(op, scope);
    if (analyzeDeviceIndexArithmetic(op, scope))
      return;
    if (op.is("stablehlo.while"))
      return analyzeWhile(op, scope);
    if (op.is("stablehlo.case") || op.is("stablehlo.if"))
      return analyzeBranches(op, scope);
    if (op.is("func.call") || op.is("call"))
      return analyzeCall(op, scope);
    if (op.is("stablehlo.optimization_barrier") || op.is("sdy.named_computation"))
      return analyzePerPosition(op, scope);
    analyzeGeneric(op, scope);
  }

  void analyzeManual(const ir::Operation& op, const Scope* outer);
  void analyzeGeneric(const ir::Operation& op, const Scope& scope);
  void analyzeCollective(const ir::Operation& op, CollectiveKind kind, const Scope& scope);
  void analyzeDeviceId(const ir::Operation& op, const Scope& scope);
  bool analyzeDeviceIndexArithmetic(const ir::Operation& op, const Scope& scope);
  VarianceSet dependentAxes(const VarianceSet& deviceId, const DeviceIndexDigits& digits,
                            const Scope& scope) const;
  void analyzeWhile(const ir::Operation& op, const Scope& scope);
  void analyzeBranches(const ir::Operation& op, const Scope& scope);
  void analyzeCall(const ir::Operation& op, const Scope& scope);
  const std::vector<VarianceSet>& calleeResults(const ir::Operation& fn, const ir::Block& body,
                                                const std::vector<VarianceSet>& args,
                                                const Scope& scope);
  void analyzePerPosition(const ir::Operation& op, const Scope& scope);
  void recordOutSpecSites(const ir::Operation& op, const Scope& scope);

  const ir::Module& m_module;
  VarianceAnalysis& m_out;
  ValueMap* m_values;
  std::vector<const ir::Operation*> m_callStack;
  std::unordered_map<std::string, std::vector<VarianceSet>> m_calleeCache;
  std::set<std::tuple<const ir::Operation*, const ir::Operation*, unsigned>> m_recordedSites;
  // Integer values computed from `partition_id` by the arithmetic JAX's `axis_index` lowers to.
  std::unordered_map<const ir::Value*, DeviceIndexDigits> m_deviceDigits;
};

void VarianceBuilder::analyzeManual(const ir::Operation& op, const Scope* outer) {
  const ManualComputationView* view = m_out.viewOf(op);
  if (!view || op.numRegions() == 0 || op.region(0).empty())
    return;
  Scope scope{view, view->scopeAxes(), outer ? outer->record : true};
  const ir::Block& body = op.region(0).front();
  unsigned n = std::min(body.numArguments(), op.numOperands());
  for (unsigned i = 0; i < n; ++i) {
    // Inside a nested computation an argument keeps what it varied over outside.
    VarianceSet v = outer ? get(op.operand(i)) : VarianceSet();
    if (i < view->arguments.size())
      for (const std::string& axis : view->arguments[i].manualAxes)
        v.add({axis, VarianceSource::InSharding, &op, i}, order(scope));
    set(body.argument(i), std::move(v));
  }
  analyzeBlock(body, scope);
  recordOutSpecSites(op, scope);
  const ir::Operation* ret = body.back();
  if (!outer || !ret)
    return;
  // Outside, this computation's own manual axes are free axes again: only the enclosing
  // computations' axes are tracked.
  for (unsigned i = 0; i < op.numResults() && i < ret->numOperands(); ++i) {
    VarianceSet r = get(ret->operand(i));
    r.restrictTo(outer->axes);
    set(op.result(i), std::move(r));
  }
}

// JAX lifts each output to the variance its out_specs names (`_implicit_pvary_on_output`).
void VarianceBuilder::recordOutSpecSites(const ir::Operation& op, const Scope& scope) {
  const ir::Operation* ret = op.region(0).front().back();
  if (!ret)
    return;
  for (unsigned i = 0; i < ret->numOperands() && i < scope.view->results.size(); ++i) {
    const VarianceSet& returned = get(ret->operand(i));
    std::vector<std::string> missing;
    for (const std::string& axis : scope.view->results[i].manualAxes)
      if (!returned.contains(axis))
        missing.push_back(axis);
    addSite(scope, *ret, i, std::move(missing), PbroadcastReason::OutSpec);
  }
}

// The operands at which a lifting pbroadcast can be needed. JAX's reductions (`reduce_sum`,
// `reduce_max`, windowed reductions) keep their init value as a constant of the lowering, not as
// an operand, so StableHLO's init operands (the second half) never get one.
unsigned liftableOperands(const ir::Operation& op) {
  if (op.is("stablehlo.reduce") || op.is("stablehlo.reduce_window"))
    return op.numOperands() / 2;
  return op.numOperands();
}

void VarianceBuilder::analyzeGeneric(const ir::Operation& op, const Scope& scope) {
  VarianceSet joined = joinOperands(op, scope);
  if (op.numResults() > 0 && op.numOperands() >= 2)
    for (unsigned i = 0; i < liftableOperands(op); ++i)
      if (op.operand(i)->type().isTensor())
        addSite(scope, op, i, get(op.operand(i)).missing(joined), PbroadcastReason::MixedOperands);
  // Region bodies (reducers, comparators) see elements of the operands; whatever they capture
  // from the enclosing body also flows into the results.
  for (unsigned r = 0; r < op.numRegions(); ++r)
    for (const auto& block : op.region(r).blocks()) {
      for (const auto& arg : block->arguments())
        set(arg.get(), joined);
      analyzeBlock(*block, scope);
      if (const ir::Operation* term = block->back())
        for (const ir::Value* v : term->operands())
          joined.unite(get(v), order(scope));
    }
  for (const auto& result : op.results())
    set(result.get(), joined);
}

void VarianceBuilder::analyzeCollective(const ir::Operation& op, CollectiveKind kind,
                                        const Scope& scope) {
  AxesMatch match = collectiveAxes(op, kind, scope.view->mesh, scope.axes);
  if (scope.record && m_recordedSites.insert({&op, scope.view->op, ~0u}).second)
    m_out.m_collectives.push_back({&op, kind, match, scope.view->op});
  // The reducer body is not analyzed: it combines values of different devices and has no
  // per-device type.
  VarianceSet joined = joinOperands(op, scope);
  if (match.matched && liftsOperand(kind))
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      std::vector<std::string> lifted;
      for (const std::string& axis : match.axes)
        if (!get(op.operand(i)).contains(axis))
          lifted.push_back(axis);
      addSite(scope, op, i, std::move(lifted), PbroadcastReason::CollectiveOperand);
    }
  for (unsigned i = 0; i < op.numResults(); ++i) {
    // Variadic collectives pair result i with operand i.
    VarianceSet v = i < op.numOperands() ? get(op.operand(i)) : joined;
    // Either way the operand's variance over the collective's axes is consumed; a collective
    // with a varying result is then the origin of that variance (all_gather's result varies
    // because all_gather has a pbroadcast fused into it, not because its operand varied).
    if (match.matched)
      for (const std::string& axis : match.axes) {
        v.remove(axis);
        if (varianceEffect(kind) == VarianceEffect::KeepsVarying)
          v.add({axis, VarianceSource::Collective, &op, 0}, order(scope));
      }
    set(op.result(i), std::move(v));
  }
}

void VarianceBuilder::analyzeDeviceId(const ir::Operation& op, const Scope& scope) {
  VarianceSet v;
  for (const std::string& axis : scope.axes)
    v.add({axis, VarianceSource::DeviceId, &op, 0}, order(scope));
  for (const auto& result : op.results())
    set(result.get(), v);
  // With the iota device order of a mesh without device ids, device d is partition d.
  const ir::Mesh* mesh = scope.view->mesh.mesh;
  if (op.is("stablehlo.partition_id") && op.numResults() == 1 && mesh && mesh->deviceIds.empty()) {
    int64_t devices = 1;
    for (const ir::MeshAxis& axis : mesh->axes)
      devices *= axis.size;
    m_deviceDigits[op.result(0)] = {1, devices};
  }
}

// `remainder(divide(partition_id, stride), size)` is how JAX lowers `axis_index`: the result
// varies only over the mesh axes whose digits of the device index it reads. Each step keeps
// the exact form while the constant divides the modulus; past that the value keeps the axes it
// had (never fewer than it really reads).
bool VarianceBuilder::analyzeDeviceIndexArithmetic(const ir::Operation& op, const Scope& scope) {
  bool divide = op.is("stablehlo.divide"), remainder = op.is("stablehlo.remainder");
  bool convert = op.is("stablehlo.convert");
  if (!(divide || remainder || convert) || op.numResults() != 1 || op.numOperands() == 0)
    return false;
  auto it = m_deviceDigits.find(op.operand(0));
  if (it == m_deviceDigits.end())
    return false;
  DeviceIndexDigits digits = it->second;
  if (convert) {
    if (!ir::isIntegerElement(op.result(0)->type().elementType()))
      return false;
  } else {
    std::optional<int64_t> k = op.numOperands() == 2 ? splatInteger(*op.operand(1)) : std::nullopt;
    if (!k || *k <= 0 || digits.modulus % *k != 0)
      return false;
    if (divide) {
      digits.stride *= *k;
      digits.modulus /= *k;
    } else {
      digits.modulus = *k;
    }
  }
  m_deviceDigits[op.result(0)] = digits;
  set(op.result(0), dependentAxes(get(op.operand(0)), digits, scope));
  return true;
}

// The axes of `deviceId`'s set whose digits of the device index `digits` reads.
VarianceSet VarianceBuilder::dependentAxes(const VarianceSet& deviceId,
                                           const DeviceIndexDigits& digits,
                                           const Scope& scope) const {
  const ir::Mesh* mesh = scope.view->mesh.mesh;
  VarianceSet out = deviceId;
  if (!mesh)
    return out;
  int64_t axisStride = 1; // of the axis being looked at: the product of the axes after it
  const int64_t end = digits.modulus > std::numeric_limits<int64_t>::max() / digits.stride
                          ? std::numeric_limits<int64_t>::max()
                          : digits.stride * digits.modulus;
  for (auto axis = mesh->axes.rbegin(); axis != mesh->axes.rend(); ++axis) {
    const int64_t axisEnd = axisStride * axis->size;
    bool read = axis->size > 1 && axisEnd > digits.stride && axisStride < end;
    if (!read)
      out.remove(axis->name);
    axisStride = axisEnd;
  }
  return out;
}

void VarianceBuilder::analyzeWhile(const ir::Operation& op, const Scope& scope) {
  if (op.numRegions() < 2 || op.region(0).empty() || op.region(1).empty())
    return analyzeGeneric(op, scope);
  const ir::Block& cond = op.region(0).front();
  const ir::Block& body = op.region(1).front();
  std::vector<VarianceSet> carry;
  for (const ir::Value* operand : op.operands())
    carry.push_back(get(operand));
  auto runBodies = [&](const Scope& s) {
    for (const ir::Block* block : {&cond, &body})
      for (unsigned i = 0; i < block->numArguments() && i < carry.size(); ++i)
        set(block->argument(i), carry[i]);
    analyzeBlock(cond, s);
    analyzeBlock(body, s);
  };
  // Sets only grow and are bounded by the axes in scope, so this reaches a fixed point quickly.
  Scope quiet = scope;
  quiet.record = false;
  for (size_t iteration = 0; iteration <= scope.axes.size() + 1; ++iteration) {
    runBodies(quiet);
    bool changed = false;
    const ir::Operation* yield = body.back();
    // JAX types the body once, on the initial carry, and requires the same types back.
    for (unsigned i = 0; iteration == 0 && yield && i < yield->numOperands() && i < carry.size();
         ++i)
      if (!carry[i].sameAxes(get(yield->operand(i))) && scope.record &&
          m_recordedSites.insert({&op, scope.view->op, ~0u - 1 - i}).second)
        m_out.m_carryMismatches.push_back(
            {&op, i, carry[i], get(yield->operand(i)), scope.view->op});
    for (unsigned i = 0; yield && i < yield->numOperands() && i < carry.size(); ++i)
      if (!carry[i].missing(get(yield->operand(i))).empty()) {
        carry[i].unite(get(yield->operand(i)), order(scope));
        changed = true;
      }
    if (!changed)
      break;
  }
  runBodies(scope);
  for (unsigned i = 0; i < carry.size(); ++i) {
    addSite(scope, op, i, get(op.operand(i)).missing(carry[i]), PbroadcastReason::LoopCarry);
    if (i < op.numResults())
      set(op.result(i), carry[i]);
  }
}

void VarianceBuilder::analyzeBranches(const ir::Operation& op, const Scope& scope) {
  // A result varies over whatever any branch returns for it varies over, and over what the
  // predicate / branch index varies over: devices may take different branches.
  VarianceSet predicate = joinOperands(op, scope);
  std::vector<VarianceSet> results(op.numResults(), predicate);
  for (unsigned r = 0; r < op.numRegions(); ++r) {
    if (op.region(r).empty())
      continue;
    const ir::Block& branch = op.region(r).front();
    analyzeBlock(branch, scope);
    const ir::Operation* ret = branch.back();
    for (unsigned i = 0; ret && i < ret->numOperands() && i < results.size(); ++i)
      results[i].unite(get(ret->operand(i)), order(scope));
  }
  for (unsigned i = 0; i < op.numResults(); ++i)
    set(op.result(i), results[i]);
}

// Ops that pass each operand through to the result (and region argument) at the same position:
// their operands never meet, so nothing is joined and no pbroadcast is needed.
void VarianceBuilder::analyzePerPosition(const ir::Operation& op, const Scope& scope) {
  const ir::Block* body =
      op.numRegions() && !op.region(0).empty() ? &op.region(0).front() : nullptr;
  for (unsigned i = 0; body && i < body->numArguments() && i < op.numOperands(); ++i)
    set(body->argument(i), get(op.operand(i)));
  if (body)
    analyzeBlock(*body, scope);
  const ir::Operation* ret = body ? body->back() : &op;
  for (unsigned i = 0; i < op.numResults(); ++i)
    set(op.result(i), ret && i < ret->numOperands() ? get(ret->operand(i)) : VarianceSet());
}

void VarianceBuilder::analyzeCall(const ir::Operation& op, const Scope& scope) {
  const auto* callee = op.attr("callee").as<ir::SymbolRefAttr>();
  const ir::Operation* fn =
      callee && !callee->path.empty() ? m_module.lookupFunction(callee->path.back()) : nullptr;
  const ir::Block* body = fn ? ir::func::body(*fn) : nullptr;
  bool recursive = std::find(m_callStack.begin(), m_callStack.end(), fn) != m_callStack.end();
  if (!body || recursive || body->numArguments() != op.numOperands())
    return analyzeGeneric(op, scope);
  std::vector<VarianceSet> args;
  for (const ir::Value* operand : op.operands())
    args.push_back(get(operand));
  const std::vector<VarianceSet>& results = calleeResults(*fn, *body, args, scope);
  for (unsigned i = 0; i < op.numResults(); ++i)
    set(op.result(i), i < results.size() ? results[i] : VarianceSet());
}

const std::vector<VarianceSet>& VarianceBuilder::calleeResults(const ir::Operation& fn,
                                                               const ir::Block& body,
                                                               const std::vector<VarianceSet>& args,
                                                               const Scope& scope) {
  // Memoized per callee, argument sets and axes in scope, so that call chains are analyzed once.
  std::string key = std::to_string(reinterpret_cast<uintptr_t>(&fn));
  for (const VarianceSet& arg : args)
    key += "|" + arg.str();
  for (const std::string& axis : scope.axes)
    key += "," + axis;
  // Per manual computation, so that the callee's collectives and sites are recorded for each.
  key += "@" + std::to_string(reinterpret_cast<uintptr_t>(scope.view->op));
  if (auto it = m_calleeCache.find(key); it != m_calleeCache.end())
    return it->second;
  // The callee is typed for this call's operands in a map of its own: another call site may
  // pass operands of other variance.
  ValueMap local;
  for (unsigned i = 0; i < args.size(); ++i)
    local[body.argument(i)] = args[i];
  ValueMap* caller = m_values;
  m_values = &local;
  m_callStack.push_back(&fn);
  // The callee's collectives and pbroadcast sites belong to the calling manual computation: a
  // nested jax.jit's psum is the shard_map's psum.
  analyzeBlock(body, scope);
  std::vector<VarianceSet> results;
  if (const ir::Operation* ret = body.back())
    for (const ir::Value* v : ret->operands())
      results.push_back(get(v));
  m_callStack.pop_back();
  m_values = caller;
  return m_calleeCache[key] = std::move(results);
}

VarianceAnalysis VarianceAnalysis::run(const ir::Module& module) {
  std::vector<CollectiveReading> readings;
  for (;;) {
    VarianceAnalysis analysis;
    analysis.m_readings = readings;
    VarianceBuilder(module, analysis).run();
    // An output that varies only because an unmarked all_gather was read as varying: JAX
    // accepted the program, so it was all_gather_invariant. Each round settles at least one.
    size_t before = readings.size();
    for (const ReplicationError& error : checkReplication(analysis))
      for (const ReplicationFailure& failure : error.failures)
        for (const std::string& axis : failure.axes) {
          const AxisOrigin* origin = failure.variance.originOf(axis);
          if (!origin || origin->source != VarianceSource::Collective || !origin->op ||
              !origin->op->is("stablehlo.all_gather") || origin->op->hasAttr(kInvariantAttr))
            continue;
          bool known = std::any_of(readings.begin(), readings.end(),
                                   [&](const CollectiveReading& r) { return r.op == origin->op; });
          if (!known)
            readings.push_back({origin->op, CollectiveKind::AllGatherInvariant,
                                "the out_shardings of the manual computation at line " +
                                    std::to_string(error.manualComputation->loc().line) +
                                    " need its value replicated over '" + axis + "'"});
        }
    if (readings.size() == before)
      return analysis;
  }
}

} // namespace shardscope::analysis
