// The verifier's driver: what MLIR checks while parsing attributes first, then every op in the
// order MLIR's verifier visits them, stopping at the first failure as sdy_opt does.
#include "core/sharding/verifier.h"

#include "core/sharding/detail/verify_support.h"
#include "core/sharding/value_sharding.h"

namespace shardscope::sharding {

using detail::ErrorEmitter;
using detail::VerifyContext;

namespace {

// --- Parse-time checks ---------------------------------------------------------------------------
// MLIR verifies attributes (meshes, propagation edges) and dense literals while parsing them, so
// these errors come before any op verification and stop everything else.

bool checkAttributeAtParse(const ir::Attribute& attr, const ErrorEmitter& emit) {
  if (!attr)
    return true;
  switch (attr.kind()) {
  case ir::Attribute::Kind::Sharding: {
    const auto& s = attr.as<ir::ShardingAttr>()->sharding;
    return !s.inlineMesh || detail::verifyMesh(*s.inlineMesh, emit);
  }
  case ir::Attribute::Kind::ShardingPerValue:
    for (const ir::TensorSharding& s : attr.as<ir::ShardingPerValueAttr>()->shardings)
      if (s.inlineMesh && !detail::verifyMesh(*s.inlineMesh, emit))
        return false;
    return true;
  case ir::Attribute::Kind::Mesh:
    return detail::verifyMesh(attr.as<ir::MeshAttr>()->mesh, emit);
  case ir::Attribute::Kind::Array:
    for (const ir::Attribute& element : attr.as<ir::ArrayAttr>()->elements)
      if (!checkAttributeAtParse(element, emit))
        return false;
    return true;
  case ir::Attribute::Kind::Dictionary:
    for (const ir::NamedAttribute& entry : attr.as<ir::DictionaryAttr>()->entries)
      if (!checkAttributeAtParse(ir::Attribute(entry.value), emit))
        return false;
    return true;
  case ir::Attribute::Kind::Opaque: {
    const std::string& text = attr.as<ir::OpaqueAttr>()->text;
    return !text.starts_with("#sdy.propagation_edges") ||
           detail::verifyPropagationEdgesSyntax(text, emit);
  }
  case ir::Attribute::Kind::DenseElements: {
    ir::Type type = attr.as<ir::DenseElementsAttr>()->type;
    if (!type || !type.isTensor() || !type.hasStaticShape())
      return emit("elements literal type must have static shape");
    return true;
  }
  default:
    return true;
  }
}

bool checkAtParse(const ir::Operation& op, support::DiagnosticSink& sink) {
  ErrorEmitter emit(sink, op.loc());
  for (const ir::NamedAttribute& entry : op.attributes()) {
    ir::Attribute attr(entry.value);
    if (op.is("sdy.mesh") && entry.name == "mesh") {
      // The mesh of `sdy.mesh` is parsed by the op's custom parser, hence the prefix.
      if (const auto* mesh = attr.as<ir::MeshAttr>();
          mesh && !detail::verifyMesh(mesh->mesh, emit.extended("custom op 'sdy.mesh' ")))
        return false;
      continue;
    }
    if (!checkAttributeAtParse(attr, emit))
      return false;
  }
  for (unsigned r = 0; r < op.numRegions(); ++r)
    for (const auto& block : op.region(r).blocks())
      for (const auto& nested : block->ops())
        if (!checkAtParse(*nested, sink))
          return false;
  return true;
}

// --- Op verification -----------------------------------------------------------------------------

bool isIsolatedFromAbove(const ir::Operation& op) {
  return op.numRegions() != 0 &&
         (op.is("func.func") || op.is("builtin.module") || op.is("sdy.manual_computation") ||
          op.is("sdy.named_computation"));
}

bool verifyOp(const VerifyContext& ctx, const ir::Operation& op);

// MLIR verifies the ops of a block in order, but defers ops with isolated regions until the rest
// of the block is done.
bool verifyBlock(const VerifyContext& ctx, const ir::Block& block) {
  for (const auto& op : block.ops())
    if (!isIsolatedFromAbove(*op) && !verifyOp(ctx, *op))
      return false;
  for (const auto& op : block.ops())
    if (isIsolatedFromAbove(*op) && !verifyOp(ctx, *op))
      return false;
  return true;
}

// The shape every Shardy op must have before its own checks can look at it: operand, result and
// region counts and the attributes its format needs. Only the generic op form can get these
// wrong; the checks keep such input from reaching code that assumes them.
struct SdyOpShape {
  std::string_view name;
  int operands; // -1: any number
  int results;  // -1: any number
  int regions;
  std::vector<std::pair<std::string_view, ir::Attribute::Kind>> attrs;
};

const SdyOpShape* sdyOpShape(std::string_view name) {
  using K = ir::Attribute::Kind;
  static const std::vector<SdyOpShape> shapes = [] {
    std::vector<SdyOpShape> s = {
        {"sdy.mesh", 0, 0, 0, {{"sym_name", K::String}, {"mesh", K::Mesh}}},
        {"sdy.sharding_constraint", 1, 1, 0, {{"sharding", K::Sharding}}},
        {"sdy.reshard", 1, 1, 0, {{"sharding", K::Sharding}}},
        {"sdy.data_flow_edge", 1, 1, 0, {}},
        {"sdy.func_data_flow_edge", 1, 1, 0, {}},
        {"sdy.propagation_barrier", 1, 1, 0, {{"allowed_direction", K::Opaque}}},
        {"sdy.sharding_group", 1, 0, 0, {{"group_id", K::Integer}}},
        {"sdy.constant", 0, 1, 0, {{"value", K::DenseElements}}},
        {"sdy.return", -1, 0, 0, {}},
        {"sdy.manual_computation", -1, -1, 1,
         {{"in_shardings", K::ShardingPerValue}, {"out_shardings", K::ShardingPerValue},
          {"manual_axes", K::ManualAxes}}},
        {"sdy.named_computation", -1, -1, 1, {{"name", K::String}}},
    };
    for (std::string_view c : explicitCollectiveNames())
      s.push_back({c, 1, 1, 0, {{"out_sharding", K::Sharding}}});
    return s;
  }();
  for (const SdyOpShape& shape : shapes)
    if (shape.name == name)
      return &shape;
  return nullptr;
}

bool verifySdyOpShape(const VerifyContext& ctx, const ir::Operation& op) {
  const SdyOpShape* shape = sdyOpShape(op.name());
  if (!shape)
    return true;
  // Built only for an error: every Shardy op of the module gets here.
  auto prefix = [&] { return "'" + std::string(op.name()) + "' op "; };
  auto count = [&](const char* what, int expected, unsigned actual) {
    if (expected < 0 || static_cast<unsigned>(expected) == actual)
      return true;
    ctx.sink.error(op.loc(), prefix() + "requires " + std::to_string(expected) + " " + what +
                                 (expected == 1 ? "" : "s") + ", got " + std::to_string(actual));
    return false;
  };
  if (!count("operand", shape->operands, op.numOperands()) ||
      !count("result", shape->results, op.numResults()) ||
      !count("region", shape->regions, op.numRegions()))
    return false;
  for (const auto& [name, kind] : shape->attrs) {
    ir::Attribute attr = op.attr(name);
    if (!attr || attr.kind() != kind) {
      ctx.sink.error(op.loc(), prefix() + "requires attribute '" + std::string(name) + "'" +
                                   (attr ? " of another kind, got " + attr.str() : ""));
      return false;
    }
  }
  return true;
}

bool verifyOp(const VerifyContext& ctx, const ir::Operation& op) {
  // On entry: the dialect attributes (in name order), then the op's own invariants.
  for (const ir::NamedAttribute& entry : op.attributes())
    if (entry.name.starts_with("sdy.") && !op.isInherent(entry.name) &&
        !detail::verifyDiscardableAttr(ctx, op, entry.name, ir::Attribute(entry.value)))
      return false;
  if (op.is("func.func") && !detail::verifyFuncShardings(ctx, op))
    return false;
  if (op.dialect() == "sdy") {
    if (!verifySdyOpShape(ctx, op))
      return false;
    bool ok = isExplicitCollective(op) ? detail::verifyCollectiveInvariants(ctx, op)
                                       : detail::verifySdyOpInvariants(ctx, op);
    if (!ok)
      return false;
  }
  for (unsigned r = 0; r < op.numRegions(); ++r)
    for (const auto& block : op.region(r).blocks())
      if (!verifyBlock(ctx, *block))
        return false;
  // On exit: region invariants.
  if (op.is("sdy.manual_computation") || op.is("sdy.named_computation"))
    return detail::verifyIsolation(ctx, op);
  return true;
}

// The module's symbol table (meshes and functions) can't define a name twice; MLIR checks this
// when leaving the module, after its functions.
bool verifySymbolTable(const ir::Module& module, support::DiagnosticSink& sink) {
  std::vector<std::pair<std::string_view, const ir::Operation*>> seen;
  for (const auto& op : module.body().ops()) {
    const auto* name = op->attr("sym_name").as<ir::StringAttr>();
    if (!name)
      continue;
    for (const auto& [existing, first] : seen)
      if (existing == name->value)
        return ErrorEmitter(sink,
                            op->loc())("redefinition of symbol named '" + name->value + "'",
                                       {{"see existing symbol definition here", first->loc()}});
    seen.emplace_back(name->value, op.get());
  }
  return true;
}

// MLIR's symbol table verifier, once the whole module passed `verify()`: the
// `verifySymbolUses` hooks of every op, in pre-order.
bool verifySymbolUses(const VerifyContext& ctx, const ir::Block& block) {
  for (const auto& op : block.ops()) {
    if (op->dialect() == "sdy") {
      bool ok = isExplicitCollective(*op) ? detail::verifyCollectiveSymbolUses(ctx, *op)
                                          : detail::verifySdyOpSymbolUses(ctx, *op);
      if (!ok)
        return false;
    }
    for (unsigned r = 0; r < op->numRegions(); ++r)
      for (const auto& nested : op->region(r).blocks())
        if (!verifySymbolUses(ctx, *nested))
          return false;
  }
  return true;
}

} // namespace

bool verifyModule(const ir::Module& module, support::DiagnosticSink& sink) {
  if (!checkAtParse(module.op(), sink))
    return false;
  VerifyContext ctx{module, sink};
  return verifyBlock(ctx, module.body()) && verifySymbolTable(module, sink) &&
         verifySymbolUses(ctx, module.body());
}

} // namespace shardscope::sharding
