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

bool ShardMapImporter::run() {
  std::vector<ir::Operation*> calls;
  for (ir::Operation* fn : m_module.functions())
    fn->walk([&](ir::Operation& op) {
      const auto* callee = op.attr("callee").as<ir::SymbolRefAttr>();
      if (op.is("func.call") && callee && callee->path.size() == 1 &&
          callee->path.front().rfind("shmap_body", 0) == 0)
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
