#include "core/session/debug_name.h"

namespace shardscope::session {

namespace {
DebugName nameAt(const ir::Module& module, ir::DebugLoc loc, std::string jaxName,
                 std::string label) {
  DebugName name;
  name.jaxName = std::move(jaxName);
  if (!name.jaxName.empty())
    name.shortName = ir::shortJaxName(name.jaxName);
  name.label = std::move(label);
  if (loc != ir::kUnknownLoc)
    name.location = module.locations().str(loc);
  return name;
}
} // namespace

DebugName debugNameOf(const ir::Module& module, const ir::Operation& op) {
  return nameAt(module, op.debugLoc(), module.jaxName(op), module.debugLabel(op));
}

DebugName debugNameOf(const ir::Module& module, const ir::Value& value) {
  if (value.isBlockArgument() || !value.definingOp())
    return nameAt(module, value.debugLoc(), module.jaxName(value), module.debugLabel(value));
  return debugNameOf(module, *value.definingOp());
}

} // namespace shardscope::session
