#include "core/session/program.h"

#include "core/analysis/collective_cost.h"
#include "core/autodiff/autodiff.h"
#include "core/io/mlir/mlir.h"
#include "core/ir/static_shapes.h"
#include "core/pipeline/pass_manager.h"
#include "core/propagation/op_sharding_rule_registry.h"
#include "core/propagation/origin.h"
#include "core/propagation/propagate_basic.h"
#include "core/sharding/notation.h"
#include "core/sharding/value_sharding.h"
#include "core/sharding/verifier.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace shardscope::session {

namespace {

// One pass of a stage: its registered name and options. Passes marked optional are skipped when
// the registry lacks them (they only matter for some programs).
struct StagePass {
  std::string_view name;
  std::string_view options;
  bool optional = false;
};

// The passes each stage adds to the previous one, in sdy_opt's partitioner order.
std::vector<StagePass> passesOf(Stage stage) {
  switch (stage) {
  case Stage::AsWritten:
    return {};
  case Stage::Propagated:
    return {{"sdy-propagation-pipeline", ""}};
  case Stage::Partitioned:
    return {{"sdy-insert-explicit-reshards", "enable-full-version=true"},
            {"sdy-resolve-permutation-factors", "", true}};
  case Stage::PerDevice:
    return {{"sdy-pad-for-divisibility", "", true},
            {"sdy-resolve-single-device-sharding", "", true},
            {"sdy-convert-global-to-local", ""},
            {"sdy-drop-sharding-and-mesh", ""}};
  case Stage::GradientEfficient:
  case Stage::GradientNaive:
    return {};
  }
  return {};
}

bool isBlank(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
    } else if (text.substr(i, 2) == "//") {
      size_t end = text.find('\n', i);
      i = end == std::string_view::npos ? text.size() : end;
    } else {
      return false;
    }
  }
  return true;
}

const ir::Mesh* meshOfSharding(const ir::Module& module, const ir::TensorSharding* sharding) {
  return sharding ? ir::resolveMesh(module, *sharding) : nullptr;
}

} // namespace

std::string_view stageName(Stage stage) {
  switch (stage) {
  case Stage::AsWritten: return "as-written";
  case Stage::Propagated: return "propagated";
  case Stage::Partitioned: return "partitioned";
  case Stage::PerDevice: return "per-device";
  case Stage::GradientEfficient: return "gradient-efficient";
  case Stage::GradientNaive: return "gradient-naive";
  }
  return "";
}

std::optional<Stage> parseStage(std::string_view name) {
  for (Stage stage : kAllStages)
    if (stageName(stage) == name)
      return stage;
  if (name == "written")
    return Stage::AsWritten;
  if (name == "local")
    return Stage::PerDevice;
  if (name == "grad" || name == "gradient")
    return Stage::GradientEfficient;
  if (name == "grad-naive")
    return Stage::GradientNaive;
  return std::nullopt;
}

std::unique_ptr<Program> Program::load(const std::string& path, support::DiagnosticSink& sink) {
  // Look before opening: opening a FIFO without a writer blocks, and a device such as /dev/zero
  // never ends. Only regular files (or links to them) are programs, as for the CLI.
  std::error_code error;
  std::filesystem::file_status status = std::filesystem::status(path, error);
  if (error) {
    sink.error({}, "cannot open '" + path + "': " + error.message());
    return nullptr;
  }
  if (std::filesystem::is_directory(status)) {
    sink.error({}, "'" + path + "' is a directory, not a program file");
    return nullptr;
  }
  if (!std::filesystem::is_regular_file(status)) {
    sink.error({}, "'" + path + "' is not a regular file (a device, FIFO or socket)");
    return nullptr;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    sink.error({}, "cannot open '" + path + "'");
    return nullptr;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return fromText(path, text.str(), sink);
}

std::unique_ptr<Program> Program::fromText(std::string name, std::string text,
                                           support::DiagnosticSink& sink) {
  std::unique_ptr<Program> program(new Program);
  program->m_fileId = program->m_sources.addBuffer(std::move(name), std::move(text));
  std::string_view source = program->m_sources.text(program->m_fileId);
  if (isBlank(source)) {
    sink.error({program->m_fileId, 1, 1, 0},
               "empty program: the input holds no module and no operations");
    return nullptr;
  }
  program->m_stages[0] = program->parse(sink);
  return program->m_stages[0] ? std::move(program) : nullptr;
}

std::unique_ptr<ir::Module> Program::parse(support::DiagnosticSink& sink) {
  // Forwards everything and keeps what is not an error.
  struct KeepingSink final : support::DiagnosticSink {
    KeepingSink(support::DiagnosticSink& next, std::vector<support::Diagnostic>& kept)
        : next(next), kept(kept) {}
    void report(support::Diagnostic diagnostic) override {
      if (diagnostic.severity != support::Severity::Error)
        kept.push_back(diagnostic);
      next.report(std::move(diagnostic));
    }
    support::DiagnosticSink& next;
    std::vector<support::Diagnostic>& kept;
  } keeping(sink, m_loadDiagnostics);
  LoadedModule loaded = loadModule(m_sources.text(m_fileId), m_fileId, keeping);
  m_inputForm = loaded.form;
  return std::move(loaded.module);
}

std::unique_ptr<ir::Module> Program::derive(Stage stage, const ir::Module& from,
                                            support::DiagnosticSink& sink,
                                            const CancelFlag* cancel) {
  support::ErrorTrackingSink tracking(sink);
  auto cancelled = [&] {
    if (!cancel || !cancel->load(std::memory_order_relaxed))
      return false;
    sink.error({m_fileId, 1, 1, 0},
               "cancelled while computing the " + std::string(stageName(stage)) + " stage");
    return true;
  };
  if (cancelled())
    return nullptr;
  // Shardy partitions static shapes only: say so instead of failing somewhere inside a pass.
  if (stage == Stage::Partitioned && !ir::requireStaticShapes(from.op(), "partitioning", tracking))
    return nullptr;
  std::unique_ptr<ir::Module> module = from.clone();
  const auto& registry = pipeline::PassRegistry::builtin();
  for (const StagePass& pass : passesOf(stage)) {
    const pipeline::PassInfo* info = registry.lookup(pass.name);
    if (!info) {
      if (pass.optional)
        continue;
      sink.error({m_fileId, 1, 1, 0}, "the " + std::string(stageName(stage)) +
                                          " stage needs pass -" + std::string(pass.name) +
                                          ", which this build does not have");
      return nullptr;
    }
    pipeline::PassInvocation invocation{info, {}};
    std::string error;
    if (!invocation.options.parse(pass.options, error)) {
      sink.error({m_fileId, 1, 1, 0}, "-" + std::string(pass.name) + ": " + error);
      return nullptr;
    }
    // The conversion runs directly, to keep the record of which op stands for which.
    if (pass.name == "sdy-convert-global-to-local" && pass.options.empty()) {
      std::vector<partition::StandIn> standIns;
      if (!partition::convertGlobalToLocal(*module, {}, tracking, nullptr, &standIns) ||
          tracking.hadError() || cancelled())
        return nullptr;
      m_standIns = std::move(standIns);
      continue;
    }
    if (!pipeline::runPasses(*module, std::span(&invocation, 1), tracking) ||
        tracking.hadError() || cancelled())
      return nullptr;
  }
  // Reshards become collectives here, directly, to keep the record of why each one exists.
  if (stage == Stage::Partitioned) {
    std::vector<partition::InsertedCollective> inserted;
    if (!partition::reshardToCollectives(*module, {}, tracking, &inserted) ||
        tracking.hadError() || cancelled())
      return nullptr;
    std::lock_guard lock(m_causeMutex);
    m_inserted = std::move(inserted);
    m_causeIndex.reset();
  }
  return module;
}

std::unique_ptr<ir::Module> Program::deriveGradient(Stage stage, const ir::Module& from,
                                                    support::DiagnosticSink& sink) {
  std::unique_ptr<ir::Module> module = from.clone();
  autodiff::GradOptions options;
  options.rules = stage == Stage::GradientNaive ? autodiff::CollectiveRules::Naive
                                                : autodiff::CollectiveRules::Efficient;
  // With respect to every float argument of the function the other stages run.
  const ir::Operation* function = pickFunction(*module, "", sink);
  if (!function)
    return nullptr;
  options.function = std::string(ir::func::name(*function));
  ir::Type type = ir::func::type(*function);
  for (unsigned i = 0; i < type.elements().size(); ++i)
    if (type.elements()[i].isTensor() && ir::isFloatElement(type.elements()[i].elementType()))
      options.wrt.push_back(std::to_string(i));
  if (options.wrt.empty()) {
    sink.error(function->loc(), "the gradient stages need a float argument to differentiate "
                                "'" + options.function + "' with respect to");
    return nullptr;
  }
  autodiff::AutodiffResult result = autodiff::grad(*module, options, sink);
  if (!result.function)
    return nullptr;
  m_defaultFunctions[static_cast<size_t>(stage)] = std::string(ir::func::name(*result.function));
  return module;
}

const ir::Module* Program::stage(Stage stage, support::DiagnosticSink& sink,
                                 const CancelFlag* cancel) {
  auto& slot = m_stages[static_cast<size_t>(stage)];
  if (slot)
    return slot.get();
  if (isGradientStage(stage)) {
    slot = deriveGradient(stage, asWritten(), sink);
    return slot.get();
  }
  const ir::Module* previous = this->stage(static_cast<Stage>(static_cast<int>(stage) - 1), sink,
                                           cancel);
  if (!previous)
    return nullptr;
  slot = derive(stage, *previous, sink, cancel);
  return slot.get();
}

std::string Program::defaultFunction(Stage stage) const {
  return m_defaultFunctions[static_cast<size_t>(stage)];
}

Program* Program::gradientProgram(Stage stage, support::DiagnosticSink& sink) {
  if (!isGradientStage(stage))
    return this;
  auto& slot = m_gradientPrograms[stage == Stage::GradientEfficient ? 0 : 1];
  if (slot)
    return slot.get();
  const ir::Module* gradient = this->stage(stage, sink);
  if (!gradient)
    return nullptr;
  slot.reset(new Program);
  slot->m_fileId = slot->m_sources.addBuffer(path(), std::string(m_sources.text(m_fileId)));
  slot->m_stages[0] = gradient->clone();
  return slot.get();
}

std::optional<propagation::PropagationLevel> parsePropagationStrategy(std::string_view name) {
  using propagation::PropagationLevel;
  if (name == "basic")
    return PropagationLevel::Basic;
  if (name == "aggressive")
    return PropagationLevel::Aggressive;
  if (name == "op-priority")
    return PropagationLevel::OpPriority;
  if (name == "user-priority")
    return PropagationLevel::UserPriority;
  return std::nullopt;
}

// The traced propagation `explainSharding` reads: a propagated copy of the as-written module.
struct Program::ExplainState {
  ir::Operation::ValueMapping copies; // as-written value -> its copy
  std::unordered_map<const ir::Value*, std::string> names;       // as MLIR numbers them
  std::unordered_map<const ir::Value*, std::string> sourceNames; // as the source names them
  std::unique_ptr<ir::Module> module;
  propagation::PropagationTrace trace;
  std::vector<support::Diagnostic> diagnostics; // of the propagation, replayed on failure
  bool ok = false;
};

std::optional<Program::ShardingExplanation>
Program::explainSharding(const ir::Value& value, const ExplainOptions& options,
                         support::DiagnosticSink* sink) {
  std::shared_ptr<ExplainState>& slot = m_explain[options.level];
  if (!slot) {
    auto state = std::make_shared<ExplainState>();
    state->module = asWritten().clone(&state->copies);
    state->names = io::mlir::printedValueNames(*state->module);
    state->sourceNames =
        io::mlir::printedValueNames(*state->module, io::mlir::ValueNames::Source);
    support::CollectingSink collected;
    propagation::PropagationOptions propagationOptions;
    propagationOptions.level = options.level;
    state->ok = propagation::propagate(*state->module, propagationOptions, collected,
                                       &state->trace) &&
                !collected.hasErrors();
    state->diagnostics = collected.diagnostics();
    slot = std::move(state);
  }
  const ExplainState& state = *slot;
  if (!state.ok) {
    if (sink)
      for (const support::Diagnostic& d : state.diagnostics)
        sink->report(d);
    return std::nullopt;
  }
  auto copy = state.copies.find(&value);
  if (copy == state.copies.end())
    return std::nullopt;
  auto shardingText = [](const std::optional<ir::TensorSharding>& s) {
    return s ? sharding::shardyNotation(*s) : std::string("(no sharding)");
  };
  auto name = [&](const propagation::TraceTensor& t) {
    if (!t.value)
      return propagation::funcResultName(t);
    const auto& names =
        options.names == ExplainOptions::Names::Source ? state.sourceNames : state.names;
    auto it = names.find(t.value);
    return it == names.end() ? std::string("<unnamed>") : it->second;
  };
  ShardingExplanation out;
  if (const ir::Operation* op = value.definingOp())
    if (std::optional<ir::OpShardingRule> rule = propagation::shardingRuleFor(*op))
      out.rule = ir::Attribute::shardingRule(std::move(*rule)).str();
  out.asWritten = shardingText(sharding::valueSharding(value));
  out.propagatedSharding = sharding::valueSharding(*copy->second);
  out.propagated = shardingText(out.propagatedSharding);
  const propagation::TraceTensor tensor = propagation::TraceTensor::of(copy->second);
  out.changed = state.trace.changed(tensor);
  if (!out.changed)
    return out;
  const propagation::OriginText text =
      propagation::describeOrigin(state.trace, state.trace.originOf(tensor), name);
  for (const propagation::OriginText::Seed& seed : text.seeds)
    out.seeds.push_back({seed.tensor, seed.annotation});
  for (const propagation::OriginText::Step& step : text.steps)
    out.steps.push_back({step.text, step.line});
  return out;
}

namespace {

std::string where(const ir::Operation* op) {
  if (!op)
    return "a function argument";
  return "'" + std::string(op->name()) + "' at " + std::to_string(op->loc().line) + ":" +
         std::to_string(op->loc().column);
}

} // namespace

const Program::CauseIndex& Program::causeIndex() const {
  // Indexed once: the record by op, and the source's ops (collectives of the source keep their
  // name and location through the pipeline).
  std::lock_guard lock(m_causeMutex);
  if (!m_causeIndex) {
    m_causeIndex = std::make_unique<CauseIndex>(asWritten());
    m_causeIndex->inserted.reserve(m_inserted.size());
    for (const partition::InsertedCollective& entry : m_inserted)
      m_causeIndex->inserted.emplace(entry.op, &entry);
  }
  return *m_causeIndex;
}

Program::CollectiveCause Program::causeOf(const ir::Operation& op) const {
  const CauseIndex& index = causeIndex();
  const auto& inserted = index.inserted;
  CollectiveCause cause;
  if (auto it = inserted.find(&op); it != inserted.end()) {
    const partition::InsertedCollective& entry = *it->second;
    cause.inserted = true;
    // The record's producer and consumer may have been reshards that later steps rewrote: take
    // the live neighbours, walking through the other steps of the same reshard.
    const ir::Operation* producer = op.numOperands() ? op.operand(0)->definingOp() : nullptr;
    while (producer && inserted.count(producer) && producer->numOperands())
      producer = producer->operand(0)->definingOp();
    const ir::Operation* consumer = &op;
    while (consumer && inserted.count(consumer))
      consumer = consumer->numResults() && consumer->result(0)->uses().size() == 1
                     ? consumer->result(0)->uses().front().user
                     : nullptr;
    cause.producer = producer;
    cause.consumer = consumer;
    cause.producerSharding = entry.producerSharding;
    cause.neededSharding = entry.neededSharding;
    std::string user = !consumer                             ? "its users need "
                       : consumer->name().ends_with("return") ? "the return needs "
                                                              : where(consumer) + " needs ";
    cause.why = "inserted: " + where(producer) + " produces " + entry.producerSharding + ", " +
                user + entry.neededSharding + "; this step " + entry.reason;
    return cause;
  }
  if (index.written.find(op)) {
    cause.why = "written in the program";
    return cause;
  }
  cause.inserted = true;
  cause.producer = op.numOperands() ? op.operand(0)->definingOp() : nullptr;
  if (op.numResults() && !op.result(0)->uses().empty())
    cause.consumer = op.result(0)->uses().front().user;
  if (op.is("sdy.all_reduce") || op.is("sdy.reduce_scatter")) {
    std::string axes;
    if (const auto* list = op.attr("reduction_axes").as<ir::AxisRefListAttr>())
      for (const ir::AxisRef& axis : list->axes)
        axes += (axes.empty() ? "" : ", ") + axis.name;
    cause.why = "inserted to sum the partial results of " + where(cause.producer) +
                ", whose reduction dimension is sharded" + (axes.empty() ? "" : " on " + axes);
  } else {
    cause.why = "inserted by partitioning for " + where(cause.consumer);
  }
  return cause;
}

namespace {

// The mesh of the first sharding on `fn`'s arguments, results or ops.
const ir::Mesh* functionMesh(const ir::Module& module, const ir::Operation& fn) {
  ir::Type type = ir::func::type(fn);
  auto attrMesh = [&](const ir::DictionaryAttr* attrs) -> const ir::Mesh* {
    if (const auto* sharding = attrs ? attrs->get("sdy.sharding").as<ir::ShardingAttr>() : nullptr)
      return meshOfSharding(module, &sharding->sharding);
    return nullptr;
  };
  for (unsigned i = 0; i < type.elements().size(); ++i)
    if (const ir::Mesh* mesh = attrMesh(ir::func::argAttrs(fn, i)))
      return mesh;
  for (unsigned i = 0; i < type.results().size(); ++i)
    if (const ir::Mesh* mesh = attrMesh(ir::func::resultAttrs(fn, i)))
      return mesh;
  const ir::Mesh* found = nullptr;
  fn.walk([&](const ir::Operation& op) {
    if (found)
      return;
    for (const auto& result : op.results())
      if (const ir::Mesh* mesh = meshOfSharding(module, ir::shardingOf(*result))) {
        found = mesh;
        return;
      }
    if (const auto* out = op.attr("out_sharding").as<ir::ShardingAttr>())
      found = meshOfSharding(module, &out->sharding);
    else if (const auto* in = op.attr("in_shardings").as<ir::ShardingPerValueAttr>())
      for (const ir::TensorSharding& sharding : in->shardings)
        if (!found)
          found = meshOfSharding(module, &sharding);
  });
  return found;
}

} // namespace

namespace {

// `@F_reference` next to `@F`, or `@sequential_X` next to `@parallel_X`: the unsharded twin a
// reference check runs, never the program's entry.
bool isReferenceTwin(const ir::Module& module, const ir::Operation& fn) {
  std::string_view name = ir::func::name(fn);
  constexpr std::string_view kSuffix = "_reference", kSequential = "sequential_";
  if (name.ends_with(kSuffix) &&
      module.lookupFunction(name.substr(0, name.size() - kSuffix.size())))
    return true;
  return name.starts_with(kSequential) &&
         module.lookupFunction("parallel_" + std::string(name.substr(kSequential.size())));
}

} // namespace

const ir::Operation* pickFunction(const ir::Module& module, const std::string& wanted,
                                  support::DiagnosticSink& sink) {
  if (!wanted.empty()) {
    std::string name = wanted.starts_with('@') ? wanted.substr(1) : wanted;
    if (const ir::Operation* fn = module.lookupFunction(name))
      return fn;
    std::string names;
    for (const ir::Operation* fn : module.functions())
      names += (names.empty() ? "@" : ", @") + std::string(ir::func::name(*fn));
    sink.error({}, "no function named '" + name + "'" +
                       (names.empty() ? std::string() : "; the program has " + names));
    return nullptr;
  }
  if (const ir::Operation* fn = module.lookupFunction("main"))
    return fn;
  std::vector<const ir::Operation*> publicFns, allFns;
  for (const ir::Operation* fn : module.functions()) {
    allFns.push_back(fn);
    const auto* visibility = fn->attr("sym_visibility").as<ir::StringAttr>();
    if ((!visibility || visibility->value == "public") && !isReferenceTwin(module, *fn))
      publicFns.push_back(fn);
  }
  if (publicFns.size() == 1)
    return publicFns.front();
  // Name the candidates, so the user can pick one without reading the program.
  const std::vector<const ir::Operation*>& named = publicFns.empty() ? allFns : publicFns;
  std::string names;
  for (const ir::Operation* fn : named)
    names += (names.empty() ? "@" : ", @") + std::string(ir::func::name(*fn));
  if (named.empty())
    sink.error({}, "the program has no functions to run");
  else if (publicFns.empty())
    sink.error({}, "the program has no @main and no public function (private: " + names +
                       "): pick one with --function");
  else
    sink.error({}, "the program has no @main and " + std::to_string(publicFns.size()) +
                       " public functions (" + names + "): pick one with --function");
  return nullptr;
}

const ir::Mesh* programMesh(const ir::Module& module, const ir::Operation* function) {
  if (function)
    if (const ir::Mesh* mesh = functionMesh(module, *function))
      return mesh;
  for (const ir::Operation* fn : module.functions())
    if (const ir::Mesh* mesh = functionMesh(module, *fn))
      return mesh;
  const ir::Mesh* only = nullptr;
  int meshes = 0;
  for (const auto& op : module.body().ops())
    if (op->is("sdy.mesh"))
      if (const auto* name = op->attr("sym_name").as<ir::StringAttr>()) {
        only = module.lookupMesh(name->value);
        ++meshes;
      }
  return meshes == 1 ? only : nullptr;
}

OpIndex::OpIndex(const ir::Module& module, std::span<const partition::StandIn> standIns)
    : OpIndex(module) {
  for (const partition::StandIn& s : standIns) {
    const support::SourceLocation loc = s.sourceLoc;
    m_standIns.emplace(s.op, std::make_tuple(loc.fileId, loc.line, loc.column, s.source));
    m_shadowed.emplace(loc.fileId, loc.line, loc.column, s.source);
  }
}

const ir::Operation* OpIndex::findFrom(const OpIndex& from, const ir::Operation& op) const {
  if (auto it = from.m_standIns.find(&op); it != from.m_standIns.end()) {
    const auto& [file, line, column, name] = it->second;
    auto found = m_ops.find(std::make_tuple(file, line, column, std::string_view(name)));
    return found == m_ops.end() ? nullptr : found->second;
  }
  const support::SourceLocation loc = op.loc();
  if (from.m_shadowed.count(std::make_tuple(loc.fileId, loc.line, loc.column, std::string(op.name()))))
    return nullptr; // a helper of a replaced op (its stand-in is another op)
  return find(op);
}

OpIndex::OpIndex(const ir::Module& module) {
  module.op().walk([&](const ir::Operation& op) {
    support::SourceLocation loc = op.loc();
    if (!loc.isValid())
      return;
    m_ops.emplace(std::make_tuple(loc.fileId, loc.line, loc.column, op.name()), &op);
    if (analysis::isCostedCollective(op))
      m_collectives[{loc.fileId, loc.line, loc.column}].push_back(&op);
  });
}

const ir::Operation* OpIndex::find(const ir::Operation& op) const {
  support::SourceLocation loc = op.loc();
  auto it = m_ops.find(std::make_tuple(loc.fileId, loc.line, loc.column, op.name()));
  return it == m_ops.end() ? nullptr : it->second;
}

const ir::Operation* OpIndex::collectiveAt(support::SourceLocation loc, size_t position) const {
  auto it = m_collectives.find({loc.fileId, loc.line, loc.column});
  return it == m_collectives.end() || position >= it->second.size() ? nullptr
                                                                     : it->second[position];
}

std::optional<size_t> OpIndex::collectivePosition(const ir::Operation& op) const {
  support::SourceLocation loc = op.loc();
  auto it = m_collectives.find({loc.fileId, loc.line, loc.column});
  if (it == m_collectives.end())
    return std::nullopt;
  auto found = std::find(it->second.begin(), it->second.end(), &op);
  if (found == it->second.end())
    return std::nullopt;
  return static_cast<size_t>(found - it->second.begin());
}

const ir::Operation* correspondingOp(const OpIndex& from, const OpIndex& to,
                                     const ir::Operation& op) {
  if (const ir::Operation* same = to.findFrom(from, op))
    return same;
  if (std::optional<size_t> position = from.collectivePosition(op))
    return to.collectiveAt(op.loc(), *position);
  return nullptr;
}

} // namespace shardscope::session
