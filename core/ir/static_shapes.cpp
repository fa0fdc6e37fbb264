#include "core/ir/static_shapes.h"

#include "core/ir/module.h"

namespace shardscope::ir {

bool hasDynamicShape(Type type) {
  if (!type)
    return false;
  if (type.isTensor())
    return !type.hasStaticShape();
  if (type.kind() != Type::Kind::Opaque)
    return false;
  // Tensors with an encoding (bounds) are kept as text: look at the dimensions before the
  // element type, up to the first `,` or the end.
  std::string_view text = type.opaqueText();
  if (!text.starts_with("tensor<"))
    return false;
  std::string_view dims = text.substr(7, text.find(',') == std::string_view::npos
                                             ? std::string_view::npos
                                             : text.find(',') - 7);
  return dims.find('?') != std::string_view::npos || dims.starts_with('*');
}

bool requireStaticShapes(const Operation& scope, std::string_view step,
                         support::DiagnosticSink& sink) {
  bool ok = true;
  scope.walk([&](const Operation& op) {
    if (!ok)
      return;
    for (unsigned r = 0; r < op.numRegions() && ok; ++r)
      for (const auto& block : op.region(r).blocks())
        for (const auto& arg : block->arguments())
          if (ok && hasDynamicShape(arg->type())) {
            std::string owner = op.is("func.func") ? "@" + std::string(func::name(op))
                                                   : "'" + std::string(op.name()) + "'";
            sink.error(op.loc(), std::string(step) + " needs static shapes, but argument " +
                                     std::to_string(arg->index()) + " of " + owner +
                                     " has the dynamic shape '" + arg->type().str() + "'");
            ok = false;
          }
    for (const auto& result : op.results())
      if (ok && hasDynamicShape(result->type())) {
        sink.error(op.loc(), std::string(step) + " needs static shapes, but '" +
                                 std::string(op.name()) + "' has the dynamic result shape '" +
                                 result->type().str() + "'");
        ok = false;
      }
  });
  return ok;
}

} // namespace shardscope::ir
