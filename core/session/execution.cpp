#include "core/session/execution.h"

#include "core/analysis/collective_cost.h"
#include "core/backends/local/local_communicator.h"
#include "core/exec/process_groups.h"
#include "core/ir/static_shapes.h"
#include "core/sharding/value_sharding.h"

#include <algorithm>
#include <deque>
#include <set>
#include <cmath>
#include <cstdio>

namespace shardscope::session {

namespace {

// Whether `fn` runs a manual computation, itself or in a function it calls (JAX's nested jits).
bool containsManualComputation(const ir::Module& module, const ir::Operation& fn,
                               std::set<const ir::Operation*>& seen) {
  if (!seen.insert(&fn).second)
    return false;
  bool found = false;
  fn.walk([&](const ir::Operation& op) {
    if (found)
      return;
    if (op.is("sdy.manual_computation")) {
      found = true;
    } else if (op.is("func.call")) {
      const auto* callee = op.attr("callee").as<ir::SymbolRefAttr>();
      if (callee && callee->path.size() == 1)
        if (const ir::Operation* f = module.lookupFunction(callee->path.front()))
          found = containsManualComputation(module, *f, seen);
    }
  });
  return found;
}

bool containsManualComputation(const ir::Module& module, const ir::Operation& fn) {
  std::set<const ir::Operation*> seen;
  return containsManualComputation(module, fn, seen);
}

std::string bytesText(int64_t bytes) {
  if (bytes >= (int64_t{1} << 20))
    return std::to_string(bytes >> 20) + " MB";
  if (bytes >= 1024)
    return std::to_string(bytes >> 10) + " KB";
  return std::to_string(bytes) + " bytes";
}

bool isFloatTensor(const exec::Tensor& t) { return ir::isFloatElement(t.elementType()); }

std::string jsonEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
        out += buffer;
      } else {
        out += c;
      }
    }
  }
  return out;
}

} // namespace

exec::CompareOptions referenceTolerance(const exec::Tensor& expected) {
  double scale = 1.0;
  for (int64_t i = 0; i < expected.numElements(); ++i) {
    double v = std::abs(expected.floatAt(i));
    if (std::isfinite(v))
      scale = std::max(scale, v);
  }
  switch (expected.elementType()) {
  case ir::ElementType::F64:
  case ir::ElementType::Complex128:
    return {0, 1e-9, 1e-12 * scale};
  case ir::ElementType::F16:
  case ir::ElementType::BF16:
    return {0, 1e-2, 1e-2 * scale};
  default:
    return {0, 1e-4, 1e-5 * scale};
  }
}

std::string_view stopReasonName(StopReason reason) {
  switch (reason) {
  case StopReason::Stepped: return "stepped";
  case StopReason::Breakpoint: return "breakpoint";
  case StopReason::Diverged: return "diverged";
  case StopReason::Finished: return "finished";
  case StopReason::Failed: return "failed";
  case StopReason::Cancelled: return "cancelled";
  }
  return "";
}

struct Execution::History {
  using Key = std::pair<int64_t, const ir::Value*>;
  mutable std::mutex mutex;
  std::map<Key, exec::Tensor> kept;       // recorded or in the history
  std::deque<Key> order;                  // history entries, oldest first
  std::set<Key> pinnedKeys;               // kept because their value is recorded
  std::set<const ir::Value*> recorded;    // `recordValue`
  std::map<Key, const ir::Operation*> freedAt;
  int64_t bytes = 0;                      // history entries only
};

Execution::Execution(support::DiagnosticSink& sink)
    : m_sink(sink), m_history(std::make_unique<History>()) {}

Execution::~Execution() = default;

void Execution::keepFreed(int64_t device, const ir::Value& value, const ir::Operation& lastUser,
                          const exec::Tensor& tensor) {
  History& h = *m_history;
  std::lock_guard lock(h.mutex);
  History::Key key{device, &value};
  h.freedAt[key] = &lastUser;
  auto erase = [&](const History::Key& k) {
    auto it = h.kept.find(k);
    if (it == h.kept.end())
      return;
    if (!h.pinnedKeys.erase(k))
      h.bytes -= static_cast<int64_t>(it->second.storageBytes());
    h.kept.erase(it);
  };
  erase(key); // a loop body frees its values once per iteration: the last one is kept
  std::erase(h.order, key);
  if (h.recorded.count(&value)) {
    h.kept[key] = tensor; // shares the buffer: no copy
    h.pinnedKeys.insert(key);
    return;
  }
  auto size = static_cast<int64_t>(tensor.storageBytes());
  if (size > m_options.historyBytes)
    return;
  while (h.bytes + size > m_options.historyBytes && !h.order.empty()) {
    erase(h.order.front());
    h.order.pop_front();
  }
  h.kept[key] = tensor;
  h.order.push_back(key);
  h.bytes += size;
}

void Execution::recordValue(const ir::Value* value, bool enabled) {
  std::lock_guard lock(m_history->mutex);
  if (enabled)
    m_history->recorded.insert(value);
  else
    m_history->recorded.erase(value);
}

int64_t Execution::historyBytesUsed() const {
  std::lock_guard lock(m_history->mutex);
  return m_history->bytes;
}

std::unique_ptr<Execution> Execution::create(Program& program, ExecutionOptions options,
                                             support::DiagnosticSink& sink) {
  std::unique_ptr<Execution> execution(new Execution(sink));
  if (!execution->prepare(program, std::move(options)))
    return nullptr;
  return execution;
}

bool Execution::prepare(Program& program, ExecutionOptions options) {
  m_options = std::move(options);
  if (m_options.distributed)
    m_programText = std::string(program.sources().text(program.fileId()));
  // A gradient stage runs like a program of its own: its per-device form on the mesh.
  Stage stage = m_options.stage;
  std::string function = m_options.function;
  if (isGradientStage(stage)) {
    Program* gradient = program.gradientProgram(stage, m_sink);
    if (!gradient)
      return false;
    if (function.empty())
      function = program.defaultFunction(stage);
    return prepareStage(*gradient, Stage::PerDevice, function);
  }
  return prepareStage(program, stage, function);
}

bool Execution::prepareStage(Program& program, Stage stage, const std::string& functionName) {
  m_module = program.stage(stage, m_sink);
  if (!m_module)
    return false;
  bool perDevice = stage == Stage::PerDevice;
  m_global = perDevice ? program.stage(Stage::Partitioned, m_sink) : m_module;
  if (!m_global)
    return false;
  m_function = pickFunction(*m_module, functionName, m_sink);
  if (!m_function)
    return false;
  if (!ir::requireStaticShapes(*m_function, "execution", m_sink))
    return false;
  std::string name(ir::func::name(*m_function));
  m_globalFunction = m_global->lookupFunction(name);
  if (!m_globalFunction) {
    m_sink.error(m_function->loc(), "function '" + name + "' is missing from the global program");
    return false;
  }
  m_globalIndex = std::make_unique<OpIndex>(*m_global);
  m_moduleIndex = m_global == m_module
                      ? nullptr
                      : std::make_unique<OpIndex>(*m_module, program.standIns());
  m_mesh = perDevice ? programMesh(*m_global, m_globalFunction) : nullptr;
  m_numDevices = m_mesh ? sharding::MeshView(*m_mesh).totalSize() : 1;

  // The reference: the same function as written, or its sequential twin. A manual computation
  // (shard_map) is per-device code, so it has no unsharded meaning without a twin.
  const ir::Module& written = program.asWritten();
  m_reference = &written;
  for (std::string twin : {name + "_reference", name.starts_with("parallel_")
                                                      ? "sequential_" + name.substr(9)
                                                      : std::string()}) {
    if (!twin.empty() && (m_referenceFunction = written.lookupFunction(twin)))
      break;
  }
  if (m_referenceFunction &&
      ir::func::type(*m_referenceFunction) != ir::func::type(*m_globalFunction)) {
    m_noReference = "@" + std::string(ir::func::name(*m_referenceFunction)) +
                    " has another signature than @" + name;
    m_referenceFunction = nullptr;
  } else if (!m_referenceFunction) {
    // (falls through to the function itself below)
    const ir::Operation* same = written.lookupFunction(name);
    if (same && containsManualComputation(written, *same))
      m_noReference = "@" + name +
                      " contains a manual computation (shard_map), which has no unsharded "
                      "meaning; add @" + name + "_reference computing the same on global values";
    else
      m_referenceFunction = same;
  }
  if (m_referenceFunction)
    m_referenceIndex = std::make_unique<OpIndex>(written);
  return true;
}

bool Execution::setInputs(const InputSpec& spec) {
  ir::Type type = ir::func::type(*m_globalFunction);
  std::vector<exec::Tensor> globals;
  for (size_t i = 0; i < type.elements().size(); ++i) {
    std::string error;
    std::optional<exec::Tensor> input =
        makeInput(spec.sourceOf(static_cast<int64_t>(i)), type.elements()[i],
                  static_cast<int64_t>(i), error);
    if (!input) {
      m_sink.error(m_globalFunction->loc(), error);
      return false;
    }
    globals.push_back(std::move(*input));
  }
  for (const auto& [index, source] : spec.perArgument)
    if (index >= static_cast<int64_t>(type.elements().size())) {
      m_sink.error(m_globalFunction->loc(),
                   "input for argument " + std::to_string(index) + ", but @" +
                       std::string(ir::func::name(*m_globalFunction)) + " takes " +
                       std::to_string(type.elements().size()) + " arguments");
      return false;
    }
  return setInputs(std::move(globals));
}

bool Execution::setInputs(std::vector<exec::Tensor> globals) {
  ir::Type type = ir::func::type(*m_globalFunction);
  if (globals.size() != type.elements().size()) {
    m_sink.error(m_globalFunction->loc(),
                 "@" + std::string(ir::func::name(*m_globalFunction)) + " takes " +
                     std::to_string(type.elements().size()) + " arguments, got " +
                     std::to_string(globals.size()));
    return false;
  }
  for (size_t i = 0; i < globals.size(); ++i)
    if (globals[i].type() != type.elements()[i]) {
      m_sink.error(m_globalFunction->loc(), "argument " + std::to_string(i) + ": expected " +
                                                type.elements()[i].str() + ", got " +
                                                globals[i].type().str());
      return false;
    }
  m_inputs = std::move(globals);
  return true;
}

std::optional<sharding::ShardingLayout> Execution::argumentLayout(unsigned index) const {
  if (!m_mesh)
    return std::nullopt;
  ir::Type type = ir::func::type(*m_globalFunction).elements()[index];
  ir::TensorSharding sharding;
  if (const auto* attrs = ir::func::argAttrs(*m_globalFunction, index))
    if (const auto* attr = attrs->get("sdy.sharding").as<ir::ShardingAttr>())
      sharding = attr->sharding;
  if (sharding.dims.empty())
    sharding.dims.resize(static_cast<size_t>(type.rank()));
  return sharding::ShardingLayout::create(sharding, *m_mesh, type.shape());
}

std::optional<sharding::ShardingLayout> Execution::layoutOf(const ir::Operation& op,
                                                            unsigned result) const {
  if (!m_mesh)
    return std::nullopt;
  const ir::Operation* global = correspondingOp(m_moduleIndex ? *m_moduleIndex : *m_globalIndex, *m_globalIndex, op);
  if (!global || result >= global->numResults())
    return std::nullopt;
  ir::Type type = global->result(result)->type();
  if (!type.isTensor() || !type.hasStaticShape())
    return std::nullopt;
  // Inside a manual computation values are per-device by definition: there is no global view.
  for (const ir::Operation* parent = global->parentOp(); parent; parent = parent->parentOp())
    if (parent->is("sdy.manual_computation"))
      return std::nullopt;
  // Values that an all_reduce or reduce_scatter reduces hold partial results over its axes.
  std::optional<ir::TensorSharding> sharding = sharding::heldSharding(*global->result(result));
  ir::TensorSharding replicated;
  if (!sharding) {
    replicated.dims.resize(static_cast<size_t>(type.rank()));
    sharding = replicated;
  }
  const ir::Mesh* mesh = ir::resolveMesh(*m_global, *sharding);
  if (!mesh || sharding::MeshView(*mesh).totalSize() != m_numDevices)
    mesh = m_mesh;
  return sharding::ShardingLayout::create(*sharding, *mesh, type.shape());
}

bool Execution::start() {
  if (m_inputs.empty() && !ir::func::type(*m_globalFunction).elements().empty()) {
    InputSpec defaults; // `small`: float sums of these are exact in any order
    if (!setInputs(defaults))
      return false;
  }
  m_epoch = std::chrono::steady_clock::now();
  // Only the driving process compares with the reference (followers never inspect values); it
  // runs before the handshake of a distributed run, which then starts every process together.
  bool driver = !m_options.distributed || m_options.distributedDriver;
  if (m_options.checkReference && m_referenceFunction && driver && !startReference())
    return false;
  if (m_options.distributed) {
    // Every process computed the stage and inputs on its own; they must agree before any step.
    std::string inputs;
    for (const exec::Tensor& t : m_inputs)
      inputs += t.type().str() + ":" + std::string(t.bytes().begin(), t.bytes().end()) + ";";
    std::string error;
    m_coordinator = m_options.distributed(
        m_numDevices,
        {{"program", m_programText},
         {"stage and function", std::string(stageName(m_options.stage)) + " @" +
                                    std::string(ir::func::name(*m_function))},
         {"inputs", inputs}},
        error);
    if (!m_coordinator) {
      m_sink.error({}, error);
      m_failed = true;
      return false;
    }
  }

  std::vector<std::vector<exec::Tensor>> perDevice(static_cast<size_t>(m_numDevices));
  for (unsigned i = 0; i < m_inputs.size(); ++i) {
    std::optional<sharding::ShardingLayout> layout = argumentLayout(i);
    for (int64_t d = 0; d < m_numDevices; ++d)
      perDevice[d].push_back(layout ? blockOf(m_inputs[i], *layout, d) : m_inputs[i]);
  }
  if (!m_coordinator)
    m_comm = m_options.communicatorFactory
                 ? m_options.communicatorFactory(m_numDevices)
                 : std::make_unique<backends::local::LocalCommunicator>(m_numDevices);
  exec::SpmdOptions spmd;
  spmd.numPartitions = m_numDevices;
  spmd.stepLimit = m_options.stepLimit;
  spmd.coordinator = m_coordinator.get();
  // Values go after their last use; what the app may inspect later is kept deliberately.
  spmd.retention = exec::ValueRetention::FreeAfterLastUse;
  spmd.onRelease = [this](int64_t device, const ir::Value& value, const ir::Operation& lastUser,
                          const exec::Tensor& tensor) {
    keepFreed(device, value, lastUser, tensor);
  };
  m_executor = std::make_unique<exec::SpmdExecutor>(
      *m_module, m_coordinator ? m_coordinator->communicator() : *m_comm, spmd);
  std::vector<std::string> functions(static_cast<size_t>(m_numDevices),
                                     std::string(ir::func::name(*m_function)));
  if (!m_executor->start(functions, std::move(perDevice), m_sink)) {
    m_failed = true;
    return false;
  }
  m_started = true;
  return true;
}

bool Execution::follow() {
  return m_coordinator && m_executor && m_coordinator->follow(*m_executor);
}

bool Execution::startReference() {
  // The whole reference runs up front, one device, recording the values of the function's
  // top-level ops for the comparisons made as the devices step.
  exec::Interpreter reference(*m_reference);
  reference.setStepLimit(m_options.stepLimit);
  m_bounds = std::make_unique<ReorderBounds>(*m_reference);
  support::CollectingSink sink;
  if (!reference.start(ir::func::name(*m_referenceFunction), m_inputs, sink)) {
    m_noReference = "the reference run could not start";
    return true;
  }
  while (true) {
    const ir::Operation* op = reference.currentOp();
    size_t depth = reference.depth();
    if (!reference.step() && !reference.finished())
      break;
    if (op && depth == 1 && reference.depth() == 1) {
      std::vector<exec::Tensor> values;
      for (unsigned i = 0; i < op->numResults(); ++i)
        if (const exec::Tensor* t = reference.lookup(op->result(i)))
          values.push_back(*t);
      if (values.size() == op->numResults())
        m_referenceValues[op] = std::move(values);
      m_bounds->record(*op, [&](const ir::Value* v) { return reference.lookup(v); });
    }
    if (reference.finished())
      break;
  }
  if (!reference.finished()) {
    // The reference is the program as written, so its diagnostics point into the same source:
    // report the first where it happened (a custom call the interpreter cannot run, ...).
    if (sink.diagnostics().empty()) {
      m_sink.error(m_referenceFunction->loc(), "the reference run failed: unknown error");
    } else {
      const support::Diagnostic& first = sink.diagnostics().front();
      m_sink.error(first.loc.isValid() ? first.loc : m_referenceFunction->loc(),
                   "the reference run failed: " + first.message);
    }
    return false;
  }
  m_referenceResults = reference.results();
  return true;
}

const exec::Tensor* Execution::referenceValue(const ir::Operation& op, unsigned index) const {
  if (!m_referenceFunction)
    return nullptr;
  // Reference ops come from the same source, so they match by location and name.
  const ir::Operation* refOp = m_referenceIndex ? referenceOpOf(op) : nullptr;
  auto it = refOp ? m_referenceValues.find(refOp) : m_referenceValues.end();
  if (it == m_referenceValues.end() || index >= it->second.size())
    return nullptr;
  return &it->second[index];
}

std::optional<exec::Tensor> Execution::referenceBlock(const ir::Value* value,
                                                      int64_t device) const {
  const ir::Operation* op = value ? value->definingOp() : nullptr;
  const exec::Tensor* expected = op ? referenceValue(*op, value->index()) : nullptr;
  if (!expected)
    return std::nullopt;
  if (!m_mesh)
    return *expected; // one device holds all of it
  std::optional<sharding::ShardingLayout> layout = layoutOf(*op, value->index());
  if (!layout)
    return std::nullopt;
  return blockOf(*expected, *layout, device);
}

bool Execution::compared(const ir::Value* value) const {
  const ir::Operation* op = value ? value->definingOp() : nullptr;
  return op && m_compared.count({op, value->index()}) > 0;
}

// The reference op `op` (of the running module) stands for: as its own location and name, or as
// the per-device conversion's stand-ins say (the `add` that offsets a local `iota` is the iota).
const ir::Operation* Execution::referenceOpOf(const ir::Operation& op) const {
  return m_moduleIndex ? m_referenceIndex->findFrom(*m_moduleIndex, op) : m_referenceIndex->find(op);
}

const exec::Tensor* Execution::referenceBound(const ir::Operation& op, unsigned index) const {
  const ir::Operation* refOp = m_referenceIndex && m_bounds ? referenceOpOf(op) : nullptr;
  return refOp && index < refOp->numResults() ? m_bounds->bound(refOp->result(index)) : nullptr;
}

bool Execution::referenceEstimated(const ir::Operation& op, unsigned index) const {
  const ir::Operation* refOp = m_referenceIndex && m_bounds ? referenceOpOf(op) : nullptr;
  return refOp && index < refOp->numResults() && m_bounds->estimated(refOp->result(index));
}

bool Execution::referenceUnstable(const ir::Operation& op, unsigned index) const {
  const ir::Operation* refOp = m_referenceIndex && m_bounds ? referenceOpOf(op) : nullptr;
  return refOp && index < refOp->numResults() && m_bounds->unstable(refOp->result(index));
}

void Execution::checkExecuted(const ir::Operation& op) {
  for (unsigned r = 0; r < op.numResults(); ++r) {
    std::string error;
    std::optional<Assembled> assembled = globalValue(op.result(r), error);
    if (!assembled)
      continue;
    if (!assembled->replicaProblem.empty())
      m_divergences.push_back({&op, r, "replicas", {}, assembled->replicaProblem});
    const exec::Tensor* expected = referenceValue(op, r);
    if (!expected || expected->type() != assembled->value.type())
      continue;
    if (referenceUnstable(op, r)) {
      ++m_unstable; // reordered float sums may flip it: no exact comparison means anything
      continue;
    }
    ++m_checked;
    m_compared.insert({&op, r});
    const exec::Tensor* bound = referenceBound(op, r);
    exec::CompareOptions options = toleranceFor(*expected, bound);
    if (bound && referenceEstimated(op, r))
      options.boundWhat = "the relative tolerance of an op without a reordering analysis";
    exec::CompareResult result = exec::compareTensors(*expected, assembled->value, options);
    if (result.equal)
      continue;
    if (!bound)
      result.message += " (beyond the relative tolerance: this op has no reordering analysis)";
    Divergence divergence{&op, r, "reference", {}, result.message};
    // Name the devices whose blocks hold a differing element.
    if (std::optional<sharding::ShardingLayout> layout = layoutOf(op, r)) {
      for (int64_t d = 0; d < m_numDevices; ++d) {
        const exec::Tensor* mine = value(d, op.result(r));
        exec::CompareOptions local = options;
        std::optional<exec::Tensor> localBound;
        if (options.bounds) {
          localBound = blockOf(*options.bounds, *layout, d);
          local.bounds = &*localBound;
        }
        if (mine && !exec::compareTensors(blockOf(*expected, *layout, d), *mine, local).equal)
          divergence.devices.push_back(d);
      }
    }
    m_divergences.push_back(std::move(divergence));
  }
}

exec::CompareOptions Execution::toleranceFor(const exec::Tensor& expected,
                                             const exec::Tensor* bound) const {
  if (!isFloatTensor(expected) && !ir::isComplexElement(expected.elementType()))
    return {};
  if (m_options.tolerance)
    return *m_options.tolerance;
  if (bound && bound->shape() == expected.shape() && isFloatTensor(expected)) {
    exec::CompareOptions options;
    options.maxUlps = 2;
    options.bounds = bound;
    return options;
  }
  return referenceTolerance(expected);
}

void Execution::checkResults() {
  const ir::Block* body = ir::func::body(*m_function);
  const ir::Operation* ret = body && !body->ops().empty() ? body->ops().back().get() : nullptr;
  if (!ret)
    return;
  for (size_t i = 0; i < m_executor->results(0).size(); ++i) {
    std::string error;
    std::optional<Assembled> result = globalResult(i, error);
    if (!result)
      continue;
    std::string what = "function result " + std::to_string(i) + ": ";
    if (!result->replicaProblem.empty())
      m_divergences.push_back(
          {ret, static_cast<unsigned>(i), "replicas", {}, what + result->replicaProblem});
    if (i >= m_referenceResults.size() || m_referenceResults[i].type() != result->value.type())
      continue;
    const exec::Tensor& expected = m_referenceResults[i];
    // The bound of a result is the bound of the value the reference function returns.
    const exec::Tensor* bound = nullptr;
    const ir::Block* refBody = ir::func::body(*m_referenceFunction);
    if (m_bounds && refBody && !refBody->ops().empty()) {
      const ir::Operation& refReturn = *refBody->ops().back();
      if (i < refReturn.numOperands()) {
        if (m_bounds->unstable(refReturn.operand(static_cast<unsigned>(i)))) {
          ++m_unstable;
          continue;
        }
        bound = m_bounds->bound(refReturn.operand(static_cast<unsigned>(i)));
      }
    }
    ++m_checked;
    exec::CompareOptions options = toleranceFor(expected, bound);
    if (bound && refBody && i < refBody->ops().back()->numOperands() &&
        m_bounds->estimated(refBody->ops().back()->operand(static_cast<unsigned>(i))))
      options.boundWhat = "the relative tolerance of an op without a reordering analysis";
    exec::CompareResult compared = exec::compareTensors(expected, result->value, options);
    if (!compared.equal && !bound)
      compared.message += " (beyond the relative tolerance: no reordering analysis)";
    if (!compared.equal)
      m_divergences.push_back(
          {ret, static_cast<unsigned>(i), "reference", {}, what + compared.message});
  }
}

StopReason Execution::advance() {
  if (!m_started || m_failed)
    return StopReason::Failed;
  if (finished())
    return StopReason::Finished;
  std::vector<const ir::Operation*> before(static_cast<size_t>(m_numDevices));
  std::vector<size_t> depthBefore(static_cast<size_t>(m_numDevices));
  for (int64_t d = 0; d < m_numDevices; ++d) {
    before[d] = m_executor->currentOp(d);
    depthBefore[d] = m_executor->depth(d);
  }
  auto t0 = std::chrono::steady_clock::now();
  bool more = m_executor->stepAll();
  auto t1 = std::chrono::steady_clock::now();
  ++m_steps;
  if (m_executor->failed()) {
    m_failed = true;
    return StopReason::Failed;
  }
  size_t divergencesBefore = m_divergences.size();
  const ir::Operation* executedTop = nullptr;
  TimelineStep stepped;
  for (int64_t d = 0; d < m_numDevices; ++d) {
    const ir::Operation* op = before[d];
    bool executed = op && (m_executor->currentOp(d) != op ||
                           m_executor->status(d) == exec::DeviceStatus::Finished);
    if (!executed)
      continue;
    if (d == 0 && depthBefore[d] == 1)
      executedTop = op;
    if (!stepped.op) {
      stepped.op = op;
      stepped.depth = static_cast<uint32_t>(depthBefore[d]);
      stepped.collective = exec::isCollectiveOp(op->name());
    }
    if (m_options.trace) {
      TraceSpan span;
      span.device = d;
      span.name = std::string(op->name());
      span.location = std::to_string(op->loc().line) + ":" + std::to_string(op->loc().column);
      if (std::optional<analysis::CollectiveCost> cost = analysis::collectiveCost(*m_module, *op)) {
        span.collective = true;
        span.bytesSent = cost->bytesSent;
      }
      span.startUs = std::chrono::duration<double, std::micro>(t0 - m_epoch).count();
      span.durationUs = std::chrono::duration<double, std::micro>(t1 - t0).count();
      m_trace.push_back(std::move(span));
    }
  }
  if (m_options.checkReference && executedTop && executedTop->numResults() > 0)
    checkExecuted(*executedTop);
  stepped.diverged = m_divergences.size() > divergencesBefore;
  m_timeline.push_back(stepped);
  for (const ir::Value* watched : m_valueBreakpoints)
    if (!m_valueBreakpointsHit.count(watched) && value(0, watched)) {
      m_valueBreakpointsHit.insert(watched);
      m_stopRequested = true;
    }
  if (!more) {
    if (!finished())
      return StopReason::Failed;
    if (m_options.checkReference)
      checkResults();
    m_timeline.back().diverged = m_divergences.size() > divergencesBefore;
    return StopReason::Finished;
  }
  if (m_options.stopOnDivergence && m_divergences.size() > divergencesBefore)
    return StopReason::Diverged;
  return StopReason::Stepped;
}

bool Execution::cancelRequested(StopReason& reason) const {
  if (!m_options.cancel || !m_options.cancel->load(std::memory_order_relaxed))
    return false;
  reason = StopReason::Cancelled;
  return true;
}

bool Execution::atBreakpoint() const {
  if (m_stopRequested)
    return true;
  for (int64_t d = 0; d < m_numDevices; ++d)
    if (const ir::Operation* op = m_executor->currentOp(d); op && m_breakpoints.count(op))
      return true;
  return false;
}

StopReason Execution::step() {
  m_stopRequested = false;
  StopReason reason = advance();
  if (reason == StopReason::Stepped && m_stopRequested)
    return StopReason::Breakpoint;
  return reason;
}

StopReason Execution::stepOver() {
  if (!m_started || finished() || m_failed)
    return advance();
  size_t depth = m_executor->depth(0);
  m_stopRequested = false;
  StopReason reason = advance();
  while (reason == StopReason::Stepped && m_executor->depth(0) > depth && !atBreakpoint() &&
         !cancelRequested(reason))
    reason = advance();
  return reason == StopReason::Stepped && atBreakpoint() ? StopReason::Breakpoint : reason;
}

StopReason Execution::stepOut() {
  if (!m_started || finished() || m_failed)
    return advance();
  // The current frame has returned when the depth drops, or when it stays but the next op is in
  // another block (a while condition returning into the loop body pushes a frame of the same
  // depth).
  size_t depth = m_executor->depth(0);
  const ir::Operation* here = m_executor->currentOp(0);
  const ir::Block* block = here ? here->parentBlock() : nullptr;
  auto returned = [&] {
    const ir::Operation* now = m_executor->currentOp(0);
    return m_executor->depth(0) < depth ||
           (m_executor->depth(0) == depth && now && now->parentBlock() != block);
  };
  m_stopRequested = false;
  StopReason reason = advance();
  if (depth <= 1) { // stepping out of the entry function runs to its end
    while (reason == StopReason::Stepped && !atBreakpoint() && !cancelRequested(reason))
      reason = advance();
  } else {
    while (reason == StopReason::Stepped && !returned() && !atBreakpoint() &&
           !cancelRequested(reason))
      reason = advance();
  }
  return reason == StopReason::Stepped && atBreakpoint() ? StopReason::Breakpoint : reason;
}

StopReason Execution::continueRun() {
  m_stopRequested = false;
  StopReason reason = advance();
  while (reason == StopReason::Stepped && !atBreakpoint() && !cancelRequested(reason))
    reason = advance();
  return reason == StopReason::Stepped ? StopReason::Breakpoint : reason;
}

StopReason Execution::runToStep(int64_t step) {
  StopReason reason = StopReason::Stepped;
  while (m_steps < step && !finished() && !m_failed) {
    reason = advance();
    if (reason == StopReason::Diverged)
      reason = StopReason::Stepped; // a divergence is on the timeline; the jump goes on
    if (reason != StopReason::Stepped || cancelRequested(reason))
      return reason;
  }
  if (m_failed)
    return StopReason::Failed;
  return finished() ? StopReason::Finished : StopReason::Stepped;
}

StopReason Execution::runToEnd() {
  StopReason reason = advance();
  while ((reason == StopReason::Stepped || reason == StopReason::Breakpoint ||
          (reason == StopReason::Diverged && !finished())) &&
         !cancelRequested(reason))
    reason = advance();
  return reason;
}

void Execution::setBreakpoint(const ir::Operation* op, bool enabled) {
  if (enabled)
    m_breakpoints.insert(op);
  else
    m_breakpoints.erase(op);
}

void Execution::setValueBreakpoint(const ir::Value* value, bool enabled) {
  if (enabled) {
    m_valueBreakpoints.insert(value);
  } else {
    m_valueBreakpoints.erase(value);
    m_valueBreakpointsHit.erase(value);
  }
}

bool Execution::finished() const { return m_executor && m_executor->finished(); }

const ir::Operation* Execution::currentOp(int64_t device) const {
  return m_executor ? m_executor->currentOp(device) : nullptr;
}

size_t Execution::depth(int64_t device) const {
  return m_executor ? m_executor->depth(device) : 0;
}

const exec::Tensor* Execution::value(int64_t device, const ir::Value* value) const {
  if (!m_executor)
    return nullptr;
  if (const exec::Tensor* live = m_executor->lookup(device, value))
    return live;
  {
    std::lock_guard lock(m_history->mutex);
    if (auto it = m_history->kept.find({device, value}); it != m_history->kept.end())
      return &it->second;
  }
  // A finished device still has its results: the operands of the function's return.
  if (m_executor->status(device) != exec::DeviceStatus::Finished)
    return nullptr;
  const ir::Block* body = ir::func::body(*m_function);
  const ir::Operation* ret = body && !body->ops().empty() ? body->ops().back().get() : nullptr;
  const std::vector<exec::Tensor>& results = m_executor->results(device);
  for (unsigned i = 0; ret && i < ret->numOperands() && i < results.size(); ++i)
    if (ret->operand(i) == value)
      return &results[i];
  return nullptr;
}

std::string Execution::whyNoValue(int64_t device, const ir::Value* v) const {
  if (!m_executor)
    return "the run has not started";
  if (value(device, v))
    return "";
  const ir::Operation* lastUser = nullptr;
  {
    std::lock_guard lock(m_history->mutex);
    if (auto it = m_history->freedAt.find({device, v}); it != m_history->freedAt.end())
      lastUser = it->second;
  }
  if (lastUser) {
    std::string where = "'" + std::string(lastUser->name()) + "'";
    if (lastUser->loc().line > 0)
      where += " (line " + std::to_string(lastUser->loc().line) + ")";
    std::string why =
        m_options.historyBytes <= 0
            ? "this run keeps no history of freed values; select the value before it runs to "
              "keep it"
            : "the run's history keeps only the most recent " + bytesText(m_options.historyBytes) +
                  " of freed values; select the value before it runs to keep it";
    return "not kept: freed after its last use at " + where + "; " + why;
  }
  if (m_executor->status(device) == exec::DeviceStatus::Finished)
    return "not computed on this device (its op did not run)";
  if (m_executor->status(device) == exec::DeviceStatus::Failed)
    return "not computed on this device (the run failed before it)";
  return "not computed yet on this device";
}

std::optional<Assembled> Execution::globalValue(const ir::Value* v, std::string& error) const {
  if (!m_executor) {
    error = "the run has not started";
    return std::nullopt;
  }
  if (m_numDevices == 1 || !v->definingOp()) {
    const exec::Tensor* t = value(0, v);
    if (!t) {
      error = whyNoValue(0, v);
      return std::nullopt;
    }
    if (!v->definingOp() && m_numDevices > 1) {
      // A block argument: function arguments assemble with the argument's sharding.
      if (v->ownerBlock() == ir::func::body(*m_function))
        if (auto layout = argumentLayout(v->index()))
          return assemble(*layout, ir::func::type(*m_globalFunction).elements()[v->index()],
                          [&](int64_t d) { return value(d, v); }, error);
    }
    return Assembled{*t, {}};
  }
  const ir::Operation& op = *v->definingOp();
  std::optional<sharding::ShardingLayout> layout = layoutOf(op, v->index());
  if (!layout) {
    error = "no global counterpart of this value";
    return std::nullopt;
  }
  std::vector<int64_t> shape = layout->globalShape();
  std::optional<Assembled> assembled =
      assemble(*layout, ir::Type::tensor(shape, v->type().elementType()),
               [&](int64_t d) { return value(d, v); }, error);
  // Say why a device has nothing rather than only that it has nothing.
  for (int64_t d = 0; !assembled && d < m_numDevices; ++d)
    if (!value(d, v)) {
      error = "device " + std::to_string(d) + ": " + whyNoValue(d, v);
      break;
    }
  return assembled;
}

std::optional<Assembled> Execution::globalResult(size_t i, std::string& error) const {
  const std::vector<exec::Tensor>& first = m_executor->results(0);
  if (i >= first.size()) {
    error = "no result " + std::to_string(i);
    return std::nullopt;
  }
  if (m_numDevices == 1)
    return Assembled{first[i], {}};
  ir::Type global = ir::func::type(*m_globalFunction).results()[i];
  ir::TensorSharding sharding;
  if (const auto* attrs = ir::func::resultAttrs(*m_globalFunction, static_cast<unsigned>(i)))
    if (const auto* attr = attrs->get("sdy.sharding").as<ir::ShardingAttr>())
      sharding = attr->sharding;
  if (sharding.dims.empty())
    sharding.dims.resize(static_cast<size_t>(global.rank()));
  auto layout = sharding::ShardingLayout::create(sharding, *m_mesh, global.shape());
  if (!layout) {
    error = "result " + std::to_string(i) + " has an invalid sharding";
    return std::nullopt;
  }
  return assemble(*layout, global,
                  [&](int64_t d) -> const exec::Tensor* {
                    const auto& results = m_executor->results(d);
                    return i < results.size() ? &results[i] : nullptr;
                  },
                  error);
}

std::optional<std::vector<exec::Tensor>> Execution::globalResults(std::string& error) const {
  if (!finished()) {
    error = "the run has not finished";
    return std::nullopt;
  }
  std::vector<exec::Tensor> out;
  for (size_t i = 0; i < m_executor->results(0).size(); ++i) {
    std::optional<Assembled> assembled = globalResult(i, error);
    if (!assembled)
      return std::nullopt;
    out.push_back(std::move(assembled->value));
  }
  return out;
}

std::string Execution::referenceSummary() const {
  if (!m_options.checkReference)
    return "reference check off";
  if (!m_referenceFunction)
    return "no reference: " + m_noReference;
  size_t reference = 0, replicas = 0;
  for (const Divergence& d : m_divergences)
    (d.kind == "reference" ? reference : replicas)++;
  std::string unstable =
      m_unstable == 0 ? ""
                      : " (" + std::to_string(m_unstable) + " integer value" +
                            (m_unstable == 1 ? "" : "s") +
                            " not compared: reordered float sums may flip the comparisons "
                            "they come from)";
  if (reference == 0 && replicas == 0 && m_checked == 0)
    return "no value compared with the reference yet" + unstable;
  if (reference == 0 && replicas == 0)
    return "all " + std::to_string(m_checked) + " checked values match the reference" + unstable;
  return std::to_string(reference) + " of " + std::to_string(m_checked) +
         " checked values differ from the reference, " + std::to_string(replicas) +
         " replicated values differ between devices" + unstable;
}

std::string Execution::chromeTrace() const {
  std::string out = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  bool first = true;
  auto add = [&](const std::string& event) {
    out += first ? "" : ",\n";
    out += event;
    first = false;
  };
  add("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":{\"name\":\"ShardScope " +
      jsonEscape(std::string(stageName(m_options.stage))) + " @" +
      jsonEscape(ir::func::name(*m_function)) + "\"}}");
  for (int64_t d = 0; d < m_numDevices; ++d)
    add("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":" + std::to_string(d) +
        ",\"args\":{\"name\":\"device " + std::to_string(d) + "\"}}");
  char number[64];
  for (const TraceSpan& span : m_trace) {
    std::string event = "{\"name\":\"" + jsonEscape(span.name) + "\",\"cat\":\"" +
                        (span.collective ? "collective" : "op") + "\",\"ph\":\"X\",\"pid\":0," +
                        "\"tid\":" + std::to_string(span.device);
    std::snprintf(number, sizeof number, ",\"ts\":%.3f,\"dur\":%.3f", span.startUs,
                  span.durationUs);
    event += number;
    event += ",\"args\":{\"loc\":\"" + jsonEscape(span.location) + "\"";
    if (span.collective)
      event += ",\"bytes_sent\":" + std::to_string(span.bytesSent);
    event += "}}";
    add(event);
  }
  out += "\n]}\n";
  return out;
}

} // namespace shardscope::session
