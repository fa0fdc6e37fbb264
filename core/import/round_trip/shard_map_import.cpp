#include "core/import/round_trip/shard_map_import.h"

#include "core/import/common/frontend_attrs.h"
#include "core/import/common/op_rewrite.h"
#include "core/import/round_trip/frontend_attr_reader.h"
#include "core/import/round_trip/round_trip_constants.h"

#include <algorithm>
#include <string>
#include <vector>

namespace shardscope::import_ {

namespace {

using Kind = ir::Attribute::Kind;

std::string_view calleeOf(const ir::Operation& call) {
  const auto* callee = call.attr("callee").as<ir::SymbolRefAttr>();
  return callee && !callee->path.empty() ? std::string_view(callee->path.back())
                                         : std::string_view();
}

bool isShardMapBodyCall(const ir::Operation& op) {
  return op.is("func.call") && calleeOf(op).find(kManualComputationBodyFuncName) !=
                                   std::string_view::npos;
}

class ShardMapImporter {
public:
  ShardMapImporter(ir::Module& module, support::DiagnosticSink& sink)
      : m_module(module), m_sink(sink), m_reader(sink) {}

  bool run() {
    std::vector<ir::Operation*> calls;
    m_module.op().walk([&](ir::Operation& op) {
      if (isShardMapBodyCall(op))
        calls.push_back(&op);
    });
    for (ir::Operation* call : calls)
      if (!convert(*call))
        return false;
    eraseStrayShapeCalls();
    return !m_reader.failed();
  }

private:
  bool fail(const ir::Operation& call, const std::string& message) {
    m_sink.error(call.loc(), "'func.call' op " + message);
    m_sink.error(call.loc(), "failed to legalize operation 'func.call' that was explicitly "
                             "marked illegal");
    return false;
  }

  bool convert(ir::Operation& call) {
    std::string callee = "@" + std::string(calleeOf(call));
    // An operand (result) with no elements may have been replaced by a constant, so the shape
    // calls are found through the first operand that a custom call produces (the first user).
    ir::Operation* globalToLocal = nullptr;
    std::vector<ir::Value*> operands(call.operands().begin(), call.operands().end());
    if (!operands.empty()) {
      for (ir::Value* operand : operands) {
        ir::Operation* def = operand->definingOp();
        if (def && !customCallTarget(*def).empty()) {
          globalToLocal = def;
          break;
        }
      }
      if (!globalToLocal)
        return fail(call, "expected at least one operand of " + callee + " to be produced by a " +
                              std::string(kGlobalToLocalShapeTarget) + " CustomCallOp");
      operands.assign(globalToLocal->operands().begin(), globalToLocal->operands().end());
    }
    ir::Operation* localToGlobal = nullptr;
    if (call.numResults() > 0) {
      for (const auto& result : call.results())
        if (!localToGlobal && result->hasUses())
          localToGlobal = result->uses().front().user;
      if (!localToGlobal || customCallTarget(*localToGlobal).empty())
        return fail(call, "expected the first use of " + callee + " to be by a " +
                              std::string(kLocalToGlobalShapeTarget) + " CustomCallOp");
    }
    ir::Operation* body = m_module.lookupFunction(calleeOf(call));
    if (!body || !ir::func::body(*body))
      return fail(call, "expected a unique FuncOp per @xla.sdy.manual_computation_body call. "
                        "Were functions maybe somehow shared/de-duped between two "
                        "ManualComputations?");
    build(call, *body, globalToLocal, localToGlobal, operands);
    return true;
  }

  struct Attrs {
    ir::Attribute in, out, axes;
  };

  Attrs readAttrs(const ir::Operation& call, const ir::Operation* globalToLocal,
                  const ir::Operation* localToGlobal) {
    Attrs attrs;
    bool fromShapeCalls = false;
    auto readFrom = [&](const ir::Operation* op, std::string_view name, ir::Attribute& into) {
      if (!op || !frontendAttrs(*op))
        return;
      fromShapeCalls = true;
      into = m_reader.read(frontendAttrs(*op), name, Kind::ShardingPerValue, op->loc());
      if (!attrs.axes)
        attrs.axes = m_reader.read(frontendAttrs(*op), kManualAxesAttr, Kind::ManualAxes,
                                   op->loc());
    };
    readFrom(globalToLocal, kInShardingsAttr, attrs.in);
    readFrom(localToGlobal, kOutShardingsAttr, attrs.out);
    // Exports before the attributes moved to the shape calls kept them on the call.
    if (!fromShapeCalls && frontendAttrs(call)) {
      const ir::DictionaryAttr* dict = frontendAttrs(call);
      attrs.in = m_reader.read(dict, kInShardingsAttr, Kind::ShardingPerValue, call.loc());
      attrs.out = m_reader.read(dict, kOutShardingsAttr, Kind::ShardingPerValue, call.loc());
      attrs.axes = m_reader.read(dict, kManualAxesAttr, Kind::ManualAxes, call.loc());
    }
    if (!attrs.in)
      attrs.in = ir::Attribute::shardingPerValue({});
    if (!attrs.out)
      attrs.out = ir::Attribute::shardingPerValue({});
    if (!attrs.axes)
      attrs.axes = ir::Attribute::manualAxes({});
    return attrs;
  }

  void build(ir::Operation& call, ir::Operation& body, ir::Operation* globalToLocal,
             ir::Operation* localToGlobal, const std::vector<ir::Value*>& operands) {
    Attrs attrs = readAttrs(call, globalToLocal, localToGlobal);
    std::vector<ir::Type> resultTypes;
    if (localToGlobal)
      for (const auto& result : localToGlobal->results())
        resultTypes.push_back(result->type());
    auto created = ir::Operation::create("sdy.manual_computation", operands, resultTypes,
                                         call.loc());
    created->setAttr("in_shardings", attrs.in);
    created->setAttr("out_shardings", attrs.out);
    created->setAttr("manual_axes", attrs.axes);
    for (const char* name : {"in_shardings", "out_shardings", "manual_axes"})
      created->setInherent(name, true);
    created->addRegion();
    ir::Operation* manual = call.parentBlock()->insertBefore(&call, std::move(created));
    moveBody(body, manual->region(0).front());

    if (localToGlobal) {
      for (unsigned i = 0; i < localToGlobal->numResults(); ++i)
        localToGlobal->result(i)->replaceAllUsesWith(manual->result(i));
      localToGlobal->dropAllReferences();
      localToGlobal->parentBlock()->erase(localToGlobal);
    }
    // Remaining uses of the call (results replaced by constants) have nothing to refer to.
    call.dropAllReferences();
    call.parentBlock()->erase(&call);
    if (globalToLocal && std::all_of(globalToLocal->results().begin(),
                                     globalToLocal->results().end(),
                                     [](const auto& r) { return !r->hasUses(); })) {
      globalToLocal->dropAllReferences();
      globalToLocal->parentBlock()->erase(globalToLocal);
    }
    body.parentBlock()->erase(&body);
  }

  // Moves the ops of function `fn` into `into` (given the same arguments); `func.return` becomes
  // `sdy.return`.
  static void moveBody(ir::Operation& fn, ir::Block& into) {
    ir::Block& from = *ir::func::body(fn);
    for (unsigned i = 0; i < from.numArguments(); ++i) {
      ir::Value* arg = into.addArgument(from.argument(i)->type());
      from.argument(i)->replaceAllUsesWith(arg);
    }
    while (!from.empty()) {
      ir::Operation* op = from.ops().front().get();
      if (op->is("func.return")) {
        std::vector<ir::Value*> values(op->operands().begin(), op->operands().end());
        into.push_back(ir::Operation::create("sdy.return", values, {}, op->loc()));
        op->dropAllReferences();
        from.erase(op);
        continue;
      }
      into.push_back(from.take(op));
    }
  }

  void eraseStrayShapeCalls() {
    std::vector<ir::Operation*> stray;
    m_module.op().walk([&](ir::Operation& op) {
      std::string_view target = customCallTarget(op);
      if (target != kGlobalToLocalShapeTarget && target != kLocalToGlobalShapeTarget)
        return;
      for (const auto& result : op.results())
        if (result->hasUses())
          return;
      stray.push_back(&op);
    });
    for (ir::Operation* op : stray) {
      op->dropAllReferences();
      op->parentBlock()->erase(op);
    }
  }

  ir::Module& m_module;
  support::DiagnosticSink& m_sink;
  FrontendAttrReader m_reader;
};

} // namespace

bool importShardMaps(ir::Module& module, support::DiagnosticSink& sink) {
  return ShardMapImporter(module, sink).run();
}

} // namespace shardscope::import_
