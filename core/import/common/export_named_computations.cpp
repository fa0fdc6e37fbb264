#include "core/import/common/export_named_computations.h"

#include "core/import/common/op_rewrite.h"
#include "core/sharding/sharding_equivalence.h"

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace shardscope::import_ {

namespace {

void collectPostOrder(ir::Operation& op, std::vector<ir::Operation*>& out) {
  for (unsigned r = 0; r < op.numRegions(); ++r)
    for (auto& block : op.region(r).blocks())
      for (auto& nested : block->ops())
        collectPostOrder(*nested, out);
  if (op.is("sdy.named_computation"))
    out.push_back(&op);
}

// As MLIR's `SymbolTable::insert`: a taken name gets the suffix `_N`, with one counter for the
// whole pass (so `@bar_0` is followed by `@foo_1`, not `@foo_0`).
std::string uniqueFunctionName(const ir::Module& module, const std::string& base,
                               unsigned& uniquingCounter) {
  auto taken = [&](const std::string& name) {
    return module.lookupFunction(name) || module.lookupMeshOp(name);
  };
  if (!taken(base))
    return base;
  for (;;)
    if (std::string candidate = base + "_" + std::to_string(uniquingCounter++); !taken(candidate))
      return candidate;
}

// A private function `name` holding the body of `named` (which is left empty).
ir::Operation* outline(ir::Module& module, ir::Operation& named, const std::string& name,
                       const std::string& originalName) {
  std::vector<ir::Type> results;
  for (const auto& result : named.results())
    results.push_back(result->type());
  ir::Operation* fn = outlineRegion(module, named, name, results, "private");
  fn->setAttr("sdy.original_func_name", ir::Attribute::string(originalName));
  return fn;
}

std::string nameOf(const ir::Operation& named) {
  if (const auto* name = named.attr("name").as<ir::StringAttr>())
    return name->value;
  return {};
}

// A private function holding the body of `named`, with its in/out shardings as the argument/result
// shardings. Returns the function's (unique) name.
std::string createFunction(ir::Module& module, ir::Operation& named, unsigned& uniquingCounter) {
  std::string original = nameOf(named);
  std::string name = uniqueFunctionName(module, original, uniquingCounter);
  ir::Operation* fn = outline(module, named, name, original);
  if (const auto* in = named.attr("in_shardings").as<ir::ShardingPerValueAttr>())
    for (unsigned i = 0; i < in->shardings.size(); ++i)
      ir::func::setArgAttr(*fn, i, "sdy.sharding", ir::Attribute::sharding(in->shardings[i]));
  if (const auto* out = named.attr("out_shardings").as<ir::ShardingPerValueAttr>())
    for (unsigned i = 0; i < out->shardings.size(); ++i)
      ir::func::setResultAttr(*fn, i, "sdy.sharding", ir::Attribute::sharding(out->shardings[i]));
  return name;
}

// Replaces `named` by a call of `callee`, keeping its discardable attributes.
ir::Operation* replaceByCall(ir::Operation& named, const std::string& callee) {
  std::vector<ir::Type> results;
  for (const auto& result : named.results())
    results.push_back(result->type());
  auto call = ir::Operation::create("func.call", named.operands(), results, named.loc());
  call->setAttr("callee", ir::Attribute::symbolRef({callee}));
  call->setInherent("callee", true);
  for (const auto& attr : named.attributes())
    if (!named.isInherent(attr.name))
      call->setAttr(attr.name, ir::Attribute(attr.value));
  return replaceOp(named, std::move(call));
}

void exportNamedComputation(ir::Module& module, ir::Operation& named, unsigned& uniquingCounter) {
  std::string name = createFunction(module, named, uniquingCounter);
  ir::Attribute out = named.attr("out_shardings");
  ir::Operation* call = replaceByCall(named, name);
  if (out.as<ir::ShardingPerValueAttr>())
    call->setAttr("sdy.sharding", out);
}

// --- dedup-functions-fully -------------------------------------------------------------------

ir::TensorSharding fullyLike(const ir::TensorSharding& sharding, size_t rank, bool closed) {
  ir::TensorSharding out;
  out.meshName = sharding.meshName;
  out.inlineMesh = sharding.inlineMesh;
  out.dims.assign(rank, ir::DimensionSharding{{}, closed, std::nullopt});
  return out;
}

size_t rankOf(const ir::Type& type) { return type.shape().size(); }

const ir::TensorSharding* shardingIn(const ir::DictionaryAttr* attrs) {
  if (!attrs)
    return nullptr;
  for (const auto& entry : attrs->entries)
    if (entry.name == "sdy.sharding" && entry.value->kind == ir::Attribute::Kind::Sharding)
      return &static_cast<const ir::ShardingAttr*>(entry.value.get())->sharding;
  return nullptr;
}

// XLA's `getFuncArgShardings`/`getFuncResultShardings`: none when no argument (result) has a
// sharding, else every one, fully open on the first sharding's mesh where missing.
std::optional<std::vector<ir::TensorSharding>> functionShardings(const ir::Operation& fn,
                                                                 bool results) {
  ir::Type type = ir::func::type(fn);
  const auto& types = results ? type.results() : type.elements();
  std::vector<const ir::TensorSharding*> given;
  const ir::TensorSharding* first = nullptr;
  for (unsigned i = 0; i < types.size(); ++i) {
    given.push_back(shardingIn(results ? ir::func::resultAttrs(fn, i) : ir::func::argAttrs(fn, i)));
    if (!first)
      first = given.back();
  }
  if (!first)
    return std::nullopt;
  std::vector<ir::TensorSharding> out;
  for (unsigned i = 0; i < types.size(); ++i)
    out.push_back(given[i] ? *given[i] : fullyLike(*first, rankOf(types[i]), /*closed=*/false));
  return out;
}

ir::Operation* copyOf(ir::Value& value, const ir::TensorSharding& sharding, ir::Block& block,
                      ir::Operation* before, support::SourceLocation loc) {
  ir::Value* operands[] = {&value};
  ir::Type types[] = {value.type()};
  auto copy = ir::Operation::create("mhlo.copy", operands, types, loc);
  copy->setAttr("sdy.sharding", ir::Attribute::shardingPerValue({sharding}));
  return block.insertBefore(before, std::move(copy));
}

ir::Operation* opAfter(ir::Operation& op) {
  ir::Block* block = op.parentBlock();
  for (auto it = block->ops().begin(); it != block->ops().end(); ++it)
    if (it->get() == &op)
      return ++it == block->ops().end() ? nullptr : it->get();
  return nullptr;
}

// A call of the function kept for all named computations of one name: an operand whose sharding
// isn't equivalent to the function's argument sharding is copied to it before the call; the call
// gets the function's result shardings and a result whose sharding differs from the named
// computation's out sharding is copied to the latter after the call. A missing out sharding (or a
// function without result shardings) counts as fully closed, replicated.
void reshardAroundCall(const ir::Operation& fn, ir::Operation& call,
                       const ir::ShardingPerValueAttr* outShardings) {
  ir::Block& block = *call.parentBlock();
  if (auto args = functionShardings(fn, /*results=*/false))
    for (unsigned i = 0; i < call.numOperands(); ++i)
      if (!sharding::equivalentShardings(&(*args)[i], ir::shardingOf(*call.operand(i))))
        call.setOperand(i, copyOf(*call.operand(i), (*args)[i], block, &call, call.loc())->result(0));

  std::optional<std::vector<ir::TensorSharding>> fnResults = functionShardings(fn, true);
  std::optional<std::vector<ir::TensorSharding>> wanted;
  if (outShardings)
    wanted = outShardings->shardings;
  if (!fnResults && !wanted)
    return;
  auto closedLike = [&](const std::vector<ir::TensorSharding>& shardings) {
    std::vector<ir::TensorSharding> out;
    for (unsigned i = 0; i < shardings.size(); ++i)
      out.push_back(fullyLike(shardings[i], rankOf(call.result(i)->type()), /*closed=*/true));
    return out;
  };
  if (!fnResults)
    fnResults = closedLike(*wanted);
  if (!wanted)
    wanted = closedLike(*fnResults);
  for (unsigned i = 0; i < call.numResults(); ++i) {
    if (sharding::equivalentShardings(&(*fnResults)[i], &(*wanted)[i]))
      continue;
    ir::Value* result = call.result(i);
    std::vector<ir::Use> uses = result->uses();
    ir::Operation* copy = copyOf(*result, (*wanted)[i], block, opAfter(call), call.loc());
    for (const ir::Use& use : uses)
      use.user->setOperand(use.index, copy->result(0));
  }
  call.setAttr("sdy.sharding", ir::Attribute::shardingPerValue(std::move(*fnResults)));
}

using FunctionKey = std::pair<std::string, std::string>; // name, manual axes

FunctionKey functionKeyOf(const ir::Operation& named) {
  ir::Attribute manual = named.attr("xla.sdy.manual_axes");
  return {nameOf(named), manual ? manual.str() : std::string()};
}

// XLA's `dedup-functions-fully`: one function per name (and manual axes), made from the named
// computation whose in/out shardings occur most often among those of its name (the earliest on a
// tie, counting innermost first); every named computation of the name calls it.
void exportDedupedFully(ir::Module& module, const std::vector<ir::Operation*>& named,
                        unsigned& uniquingCounter) {
  auto printed = [](const ir::Operation& op, const char* attr) {
    ir::Attribute value = op.attr(attr);
    return value ? value.str() : std::string();
  };
  using ShardingsKey = std::tuple<FunctionKey, std::string, std::string>;
  std::map<ShardingsKey, int> counts;
  std::map<FunctionKey, std::pair<ir::Operation*, int>> chosen;
  std::vector<FunctionKey> order;
  for (ir::Operation* op : named) {
    FunctionKey key = functionKeyOf(*op);
    int count = counts[{key, printed(*op, "in_shardings"), printed(*op, "out_shardings")}]++;
    auto [it, inserted] = chosen.try_emplace(key, op, count);
    if (inserted)
      order.push_back(key);
    else if (count > it->second.second)
      it->second = {op, count};
  }
  std::map<FunctionKey, std::string> functions;
  for (const FunctionKey& key : order)
    functions[key] = createFunction(module, *chosen[key].first, uniquingCounter);
  for (ir::Operation* op : named) {
    const std::string& callee = functions[functionKeyOf(*op)];
    ir::Attribute out = op->attr("out_shardings");
    ir::Operation* call = replaceByCall(*op, callee);
    reshardAroundCall(*module.lookupFunction(callee), *call, out.as<ir::ShardingPerValueAttr>());
  }
}

} // namespace

bool exportNamedComputations(ir::Module& module, bool dedupFunctionsFully,
                             support::DiagnosticSink& /*sink*/) {
  std::vector<ir::Operation*> named;
  for (ir::Operation* fn : module.functions())
    collectPostOrder(*fn, named);
  unsigned uniquingCounter = 0;
  if (dedupFunctionsFully) {
    exportDedupedFully(module, named, uniquingCounter);
    return true;
  }
  for (ir::Operation* op : named)
    exportNamedComputation(module, *op, uniquingCounter);
  return true;
}

bool exportNamedComputations(ir::Module& module, support::DiagnosticSink& sink) {
  return exportNamedComputations(module, false, sink);
}

} // namespace shardscope::import_
