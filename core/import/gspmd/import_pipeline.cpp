#include "core/import/gspmd/import_pipeline.h"

#include "core/import/gspmd/import_shardings.h"

#include <algorithm>
#include <set>

namespace shardscope::import_::gspmd {

namespace {

constexpr const char* kShardingTarget = "Sharding";
constexpr const char* kFullToShardTarget = "SPMDFullToShardShape";
constexpr const char* kShardToFullTarget = "SPMDShardToFullShape";

bool isCustomCall(const ir::Operation* op, std::string_view target) {
  if (!op || !(op->is("stablehlo.custom_call") || op->is("mhlo.custom_call")))
    return false;
  const auto* name = op->attr("call_target_name").as<ir::StringAttr>();
  return name && name->value == target;
}

// XLA's `isShardMapCustomCall`: one operand, one used result, the right target.
bool isShardMapCustomCall(const ir::Operation* op, std::string_view target) {
  return isCustomCall(op, target) && op->numResults() == 1 && op->result(0)->hasUses() &&
         op->numOperands() == 1;
}

struct CallPair {
  ir::Operation* sharding = nullptr;
  ir::Operation* shapeTransform = nullptr;
};

struct ShardMapPattern {
  std::vector<CallPair> arguments;
  std::vector<CallPair> results; // null pairs for unused results
};

// The custom calls around a shard_map call, or XLA's message for what does not match.
bool matchPattern(const ir::Operation& call, ShardMapPattern& pattern, std::string& error) {
  for (ir::Value* operand : call.operands()) {
    ir::Operation* fullToShard = operand->definingOp();
    if (!fullToShard || !(fullToShard->is("stablehlo.custom_call") ||
                          fullToShard->is("mhlo.custom_call"))) {
      error = "expecting CustomCallOp as operand";
      return false;
    }
    if (!isShardMapCustomCall(fullToShard, kFullToShardTarget)) {
      error = "expecting SPMDFullToShardShape custom call as operand";
      return false;
    }
    ir::Operation* sharding = fullToShard->operand(0)->definingOp();
    if (!sharding) {
      error = "expecting CustomCallOp as operand of SPMDFullToShardShape";
      return false;
    }
    if (!isShardMapCustomCall(sharding, kShardingTarget)) {
      error = "expecting Sharding CustomCallOp as operand of SPMDFullToShardShape";
      return false;
    }
    pattern.arguments.push_back({sharding, fullToShard});
  }
  for (const auto& result : call.results()) {
    if (!result->hasUses()) {
      pattern.results.push_back({});
      continue;
    }
    if (result->uses().size() != 1) {
      error = "expecting each result of shmap_body to have one or no uses";
      return false;
    }
    ir::Operation* sharding = result->uses().front().user;
    if (!isShardMapCustomCall(sharding, kShardingTarget)) {
      error = "expecting Sharding CustomCallOp as the use of the result of the CallOp";
      return false;
    }
    if (sharding->result(0)->uses().size() != 1) {
      error = "expecting Sharding CustomCallOp user of the result to have one use";
      return false;
    }
    ir::Operation* shardToFull = sharding->result(0)->uses().front().user;
    if (!isShardMapCustomCall(shardToFull, kShardToFullTarget)) {
      error = "expecting SPMDShardToFullShape CustomCallOp as the use of Sharding CustomCallOp";
      return false;
    }
    pattern.results.push_back({sharding, shardToFull});
  }
  return true;
}

const ir::TensorSharding* firstSharding(const ir::Operation* op) {
  const auto* perValue = op->attr("sdy.sharding").as<ir::ShardingPerValueAttr>();
  return perValue && !perValue->shardings.empty() ? &perValue->shardings.front() : nullptr;
}

class ShardMapImporter {
public:
  ShardMapImporter(ir::Module& module, support::DiagnosticSink& sink)
      : m_module(module), m_sink(sink) {}

  bool run();

private:
  bool rewrite(ir::Operation& call, ir::Operation& callee);
  bool manualAxes(const ir::Operation& call, const std::vector<ir::TensorSharding>& shardings,
                  std::vector<std::string>& axes);

  ir::Module& m_module;
  support::DiagnosticSink& m_sink;
};

bool ShardMapImporter::manualAxes(const ir::Operation& call,
                                  const std::vector<ir::TensorSharding>& shardings,
                                  std::vector<std::string>& axes) {
  if (shardings.empty())
    return true;
  const std::string& meshName = shardings.front().meshName;
  for (const ir::TensorSharding& sharding : shardings)
    if (sharding.meshName != meshName || sharding.inlineMesh) {
      m_sink.error(call.loc(), "Multiple meshes in a single manual computation.");
      return false;
    }
  const ir::Mesh* mesh = m_module.lookupMesh(meshName);
  if (!mesh) {
    m_sink.error(call.loc(), "unknown mesh '@" + meshName + "' in a shard_map sharding");
    return false;
  }
  std::set<std::string> used;
  auto note = [&](const ir::AxisRef& axis) {
    if (axis.subAxis) {
      m_sink.error(call.loc(), "shard_map shardings must use full axes, got a sub-axis of \"" +
                                   axis.name + "\"");
      return false;
    }
    used.insert(axis.name);
    return true;
  };
  for (const ir::TensorSharding& sharding : shardings) {
    for (const ir::DimensionSharding& dim : sharding.dims)
      for (const ir::AxisRef& axis : dim.axes)
        if (!note(axis))
          return false;
    for (const ir::AxisRef& axis : sharding.replicatedAxes)
      if (!note(axis))
        return false;
  }
  for (const ir::MeshAxis& axis : mesh->axes)
    if (used.count(axis.name))
      axes.push_back(axis.name);
  return true;
}

bool ShardMapImporter::rewrite(ir::Operation& call, ir::Operation& callee) {
  ShardMapPattern pattern;
  std::string error;
  if (!matchPattern(call, pattern, error)) {
    m_sink.error(call.loc(), error);
    return false;
  }
  std::vector<ir::Value*> operands;
  std::vector<ir::TensorSharding> inShardings, outShardings, all;
  for (const CallPair& pair : pattern.arguments) {
    const ir::TensorSharding* sharding = firstSharding(pair.sharding);
    if (!sharding) {
      m_sink.error(pair.sharding->loc(), "expecting an imported sharding on the Sharding custom call");
      return false;
    }
    operands.push_back(pair.sharding->operand(0));
    inShardings.push_back(*sharding);
  }
  std::vector<ir::Type> resultTypes;
  for (const CallPair& pair : pattern.results) {
    if (!pair.shapeTransform)
      continue;
    const ir::TensorSharding* sharding = firstSharding(pair.shapeTransform);
    if (!sharding) {
      m_sink.error(pair.shapeTransform->loc(),
                   "expecting an imported sharding on the SPMDShardToFullShape custom call");
      return false;
    }
    resultTypes.push_back(pair.shapeTransform->result(0)->type());
    outShardings.push_back(*sharding);
  }
  all = inShardings;
  all.insert(all.end(), outShardings.begin(), outShardings.end());
  std::vector<std::string> axes;
  if (!manualAxes(call, all, axes))
    return false;

  ir::Block& block = *call.parentBlock();
  auto created = ir::Operation::create("sdy.manual_computation", operands, resultTypes, call.loc());
  created->setAttr("in_shardings", ir::Attribute::shardingPerValue(inShardings));
  created->setAttr("out_shardings", ir::Attribute::shardingPerValue(outShardings));
  created->setAttr("manual_axes", ir::Attribute::manualAxes(axes));
  ir::Operation* manual = block.insertBefore(&call, std::move(created));

  // The body: a copy of the callee's, with `func.return` turned into `sdy.return` of the used
  // results.
  ir::Block& body = manual->addRegion().front();
  ir::Block* calleeBody = ir::func::body(callee);
  ir::Operation::ValueMapping mapping;
  for (unsigned i = 0; i < calleeBody->numArguments(); ++i) {
    ir::Value* arg = body.addArgument(calleeBody->argument(i)->type());
    arg->setNameHint(calleeBody->argument(i)->nameHint());
    mapping[calleeBody->argument(i)] = arg;
  }
  for (const auto& op : calleeBody->ops()) {
    if (op.get() != calleeBody->back()) {
      body.push_back(op->clone(mapping));
      continue;
    }
    std::vector<ir::Value*> returned;
    for (unsigned i = 0; i < op->numOperands(); ++i) {
      if (i < pattern.results.size() && !pattern.results[i].shapeTransform)
        continue;
      auto it = mapping.find(op->operand(i));
      returned.push_back(it == mapping.end() ? op->operand(i) : it->second);
    }
    body.push_back(ir::Operation::create("sdy.return", returned, {}, op->loc()));
  }

  unsigned index = 0;
  for (const CallPair& pair : pattern.results)
    if (pair.shapeTransform)
      pair.shapeTransform->result(0)->replaceAllUsesWith(manual->result(index++));
  for (const CallPair& pair : pattern.results) {
    if (!pair.shapeTransform)
      continue;
    pair.shapeTransform->parentBlock()->erase(pair.shapeTransform);
    pair.sharding->parentBlock()->erase(pair.sharding);
  }
  block.erase(&call);
  std::set<ir::Operation*> erased;
  for (const CallPair& pair : pattern.arguments) {
    for (ir::Operation* op : {pair.shapeTransform, pair.sharding}) {
      if (erased.count(op) || op->result(0)->hasUses())
        continue;
      erased.insert(op);
      op->parentBlock()->erase(op);
    }
  }
  return true;
}

// A call of the function JAX outlines a shard_map body into (`@shmap_body`, `@shmap_body_0`, ...).
bool isShardMapBodyCall(const ir::Operation& op) {
  const auto* callee = op.attr("callee").as<ir::SymbolRefAttr>();
  return op.is("func.call") && callee && callee->path.size() == 1 &&
         callee->path.front().rfind("shmap_body", 0) == 0;
}

// The top-level op of `block` that holds `op` (itself, or an op whose regions nest it).
ir::Operation* ancestorIn(ir::Block& block, ir::Operation* op) {
  while (op && op->parentBlock() != &block)
    op = op->parentOp();
  return op;
}

// A `@Sharding` (or a bare use) feeding `@SPMDShardToFullShape`: where a shard_map body ends.
bool isBodyExit(const ir::Operation* op) {
  if (isCustomCall(op, kShardToFullTarget))
    return true;
  if (!isCustomCall(op, kShardingTarget) || op->numResults() != 1 || !op->result(0)->hasUses())
    return false;
  for (const ir::Use& use : op->result(0)->uses())
    if (!isCustomCall(use.user, kShardToFullTarget))
      return false;
  return true;
}

// JAX before the outlined form wrote a shard_map's body inline, between the
// `@SPMDFullToShardShape` calls of its operands and the `@Sharding`/`@SPMDShardToFullShape` calls
// of its results. Outlines each such body of `block` into a private `@shmap_body_inline_N` called
// in its place, the form `importShardMaps` reads. A body that reads a value from outside (other
// than its operands) is left as written, with a warning: it has no manual-computation form.
void outlineInlineShardMaps(ir::Module& module, ir::Block& block, unsigned& counter,
                            support::DiagnosticSink& sink) {
  std::vector<ir::Operation*> starts;
  for (const auto& op : block.ops())
    if (isShardMapCustomCall(op.get(), kFullToShardTarget))
      starts.push_back(op.get());
  std::set<ir::Operation*> done;
  for (ir::Operation* start : starts) {
    if (done.count(start) || start->parentBlock() != &block)
      continue;
    // Grow the body forward from the operands' calls; pull in the calls of operands it reads.
    std::vector<ir::Operation*> entries{start};
    std::set<ir::Operation*> body, entrySet{start};
    std::vector<ir::Value*> work{start->result(0)};
    bool ok = true, outlined = false;
    while (!work.empty() && ok && !outlined) {
      ir::Value* value = work.back();
      work.pop_back();
      for (const ir::Use& use : value->uses()) {
        ir::Operation* user = ancestorIn(block, use.user);
        if (!user || body.count(user) || entrySet.count(user) || isBodyExit(user))
          continue;
        if (user->is("func.return")) {
          ok = false;
          break;
        }
        if (isShardMapBodyCall(*user)) {
          outlined = true; // already JAX's outlined form, read as it is
          break;
        }
        body.insert(user);
        for (const auto& result : user->results())
          work.push_back(result.get());
        user->walk([&](ir::Operation& nested) {
          for (ir::Value* operand : nested.operands()) {
            ir::Operation* def = operand->definingOp();
            if (!def) {
              // An argument of the function reads a global value; one of a region nested in
              // the body is the body's own.
              if (operand->ownerBlock() == &block)
                ok = false;
              continue;
            }
            ir::Operation* top = ancestorIn(block, def);
            if (!top || body.count(top) || entrySet.count(top) || top == user)
              continue;
            if (isShardMapCustomCall(top, kFullToShardTarget)) {
              entries.push_back(top);
              entrySet.insert(top);
              work.push_back(top->result(0));
            } else {
              ok = false; // another op of the block: a global value
            }
          }
        });
      }
    }
    for (ir::Operation* entry : entries)
      done.insert(entry);
    if (outlined)
      continue;
    if (!ok) {
      sink.warning(start->loc(), "this @SPMDFullToShardShape starts a shard_map body that reads "
                                 "values from outside it; it is kept as written, not as a "
                                 "manual computation");
      continue;
    }
    // The body's results: its values (or entries' results) that the exits read.
    std::vector<ir::Operation*> ordered;
    ir::Operation* firstExit = nullptr;
    std::vector<ir::Value*> outputs;
    for (const auto& op : block.ops()) {
      if (body.count(op.get()))
        ordered.push_back(op.get());
      if (!isBodyExit(op.get()))
        continue;
      for (ir::Value* operand : op->operands()) {
        ir::Operation* def = operand->definingOp();
        if (def && (body.count(def) || entrySet.count(def)) &&
            std::find(outputs.begin(), outputs.end(), operand) == outputs.end()) {
          outputs.push_back(operand);
          if (!firstExit)
            firstExit = op.get();
        }
      }
    }
    if (!firstExit)
      continue;
    std::sort(entries.begin(), entries.end(), [&](ir::Operation* a, ir::Operation* b) {
      for (const auto& op : block.ops()) {
        if (op.get() == a)
          return a != b;
        if (op.get() == b)
          return false;
      }
      return false;
    });
    std::vector<ir::Type> argTypes, resultTypes;
    for (ir::Operation* entry : entries)
      argTypes.push_back(entry->result(0)->type());
    for (ir::Value* output : outputs)
      resultTypes.push_back(output->type());
    std::string name;
    do
      name = "shmap_body_inline_" + std::to_string(counter++);
    while (module.lookupFunction(name));
    auto fn = ir::Operation::create("func.func", {}, {}, start->loc());
    fn->setAttr("sym_name", ir::Attribute::string(name));
    fn->setAttr("function_type", ir::Attribute::type(ir::Type::function(argTypes, resultTypes)));
    fn->setAttr("sym_visibility", ir::Attribute::string("private"));
    for (const char* attr : {"sym_name", "function_type", "sym_visibility"})
      fn->setInherent(attr, true);
    ir::Block& fnBody = fn->addRegion().front();
    std::vector<ir::Value*> args;
    for (ir::Type type : argTypes)
      args.push_back(fnBody.addArgument(type));
    // The call takes the body's place; then the body moves into the function.
    auto call = ir::Operation::create("func.call",
                                      [&] {
                                        std::vector<ir::Value*> operands;
                                        for (ir::Operation* entry : entries)
                                          operands.push_back(entry->result(0));
                                        return operands;
                                      }(),
                                      resultTypes, start->loc());
    call->setAttr("callee", ir::Attribute::symbolRef({name}));
    call->setInherent("callee", true);
    ir::Operation* callOp = block.insertBefore(firstExit, std::move(call));
    for (size_t i = 0; i < outputs.size(); ++i) {
      const std::vector<ir::Use> uses = outputs[i]->uses();
      for (const ir::Use& use : uses)
        if (isBodyExit(use.user))
          use.user->setOperand(use.index, callOp->result(static_cast<unsigned>(i)));
    }
    for (size_t i = 0; i < entries.size(); ++i) {
      const std::vector<ir::Use> uses = entries[i]->result(0)->uses();
      for (const ir::Use& use : uses)
        if (use.user != callOp && body.count(ancestorIn(block, use.user)))
          use.user->setOperand(use.index, args[i]);
    }
    for (ir::Operation* op : ordered)
      fnBody.push_back(block.take(op));
    std::vector<ir::Value*> returned;
    for (ir::Value* output : outputs) {
      auto it = std::find_if(entries.begin(), entries.end(),
                             [&](ir::Operation* e) { return e->result(0) == output; });
      returned.push_back(it != entries.end() ? args[static_cast<size_t>(it - entries.begin())]
                                             : output);
    }
    fnBody.push_back(ir::Operation::create("func.return", returned, {}, start->loc()));
    module.body().push_back(std::move(fn));
  }
}

bool ShardMapImporter::run() {
  unsigned counter = 0;
  for (ir::Operation* fn : m_module.functions())
    if (ir::Block* body = ir::func::body(*fn))
      outlineInlineShardMaps(m_module, *body, counter, m_sink);
  std::vector<ir::Operation*> calls;
  for (ir::Operation* fn : m_module.functions())
    fn->walk([&](ir::Operation& op) {
      if (isShardMapBodyCall(op))
        calls.push_back(&op);
    });
  std::set<std::string> callees;
  for (ir::Operation* call : calls) {
    const std::string name = call->attr("callee").as<ir::SymbolRefAttr>()->path.front();
    ir::Operation* callee = m_module.lookupFunction(name);
    if (!callee || !ir::func::body(*callee)) {
      m_sink.error(call->loc(), "'func.call' op '@" + name + "' does not reference a valid function");
      return false;
    }
    if (!rewrite(*call, *callee))
      return false;
    callees.insert(name);
  }
  // Erase the callees nothing calls any more.
  for (const std::string& name : callees) {
    bool called = false;
    for (ir::Operation* fn : m_module.functions())
      fn->walk([&](ir::Operation& op) {
        const auto* callee = op.attr("callee").as<ir::SymbolRefAttr>();
        called |= callee && callee->path.size() == 1 && callee->path.front() == name;
      });
    if (!called)
      if (ir::Operation* fn = m_module.lookupFunction(name))
        m_module.body().erase(fn);
  }
  return true;
}

} // namespace

bool importShardMaps(ir::Module& module, support::DiagnosticSink& sink) {
  return ShardMapImporter(module, sink).run();
}

bool runGspmdImportPipeline(ir::Module& module, const GspmdImportPipelineSteps& steps,
                            support::DiagnosticSink& sink) {
  if (steps.commonPreImport && !steps.commonPreImport(module, sink))
    return false;
  ImportShardingsOptions options;
  options.axisPrefix = "axis_";
  if (!importShardings(module, options, sink))
    return false;
  if (!importShardMaps(module, sink))
    return false;
  return !steps.commonPostImport || steps.commonPostImport(module, sink);
}

} // namespace shardscope::import_::gspmd
