#include "core/import/common/import_constants.h"

#include "core/import/common/op_rewrite.h"

namespace shardscope::import_ {

bool importConstants(ir::Module& module, support::DiagnosticSink& /*sink*/) {
  for (ir::Operation* fn : module.functions()) {
    forEachNestedOp(*fn, [](ir::Operation& op) {
      if (!op.is("stablehlo.constant") && !op.is("mhlo.constant"))
        return;
      std::vector<ir::Type> types;
      for (const auto& result : op.results())
        types.push_back(result->type());
      auto constant = ir::Operation::create("sdy.constant", {}, types, op.loc());
      // Every attribute moves over, discardable ones included, as XLA's generic rebuild does.
      for (const auto& attr : op.attributes()) {
        constant->setAttr(attr.name, ir::Attribute(attr.value));
        constant->setInherent(attr.name, op.isInherent(attr.name));
      }
      replaceOp(op, std::move(constant));
    });
  }
  return true;
}

} // namespace shardscope::import_
