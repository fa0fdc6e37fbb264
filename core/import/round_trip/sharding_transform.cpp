#include "core/import/round_trip/sharding_transform.h"

#include <vector>

namespace shardscope::import_ {

namespace {

// Returns `attr` with its shardings rewritten, or null when it holds no sharding.
ir::Attribute transformAttr(const ir::Attribute& attr, const ShardingFn& fn) {
  if (const auto* one = attr.as<ir::ShardingAttr>())
    return ir::Attribute::sharding(fn(one->sharding));
  if (const auto* many = attr.as<ir::ShardingPerValueAttr>()) {
    std::vector<ir::TensorSharding> shardings;
    shardings.reserve(many->shardings.size());
    for (const auto& s : many->shardings)
      shardings.push_back(fn(s));
    return ir::Attribute::shardingPerValue(std::move(shardings));
  }
  return {};
}

void transformFunctionAttrs(ir::Operation& fn, const ShardingFn& rewrite) {
  ir::Type type = ir::func::type(fn);
  for (unsigned i = 0; i < type.elements().size(); ++i)
    if (const auto* attrs = ir::func::argAttrs(fn, i))
      if (ir::Attribute s = transformAttr(attrs->get("sdy.sharding"), rewrite))
        ir::func::setArgAttr(fn, i, "sdy.sharding", s);
  for (unsigned i = 0; i < type.results().size(); ++i)
    if (const auto* attrs = ir::func::resultAttrs(fn, i))
      if (ir::Attribute s = transformAttr(attrs->get("sdy.sharding"), rewrite))
        ir::func::setResultAttr(fn, i, "sdy.sharding", s);
}

} // namespace

void transformShardings(ir::Module& module, const ShardingFn& fn) {
  for (ir::Operation* function : module.functions()) {
    transformFunctionAttrs(*function, fn);
    function->walk([&](ir::Operation& op) {
      if (&op == function)
        return;
      std::vector<ir::NamedAttribute> attrs = op.attributes();
      for (const auto& attr : attrs) {
        ir::Attribute updated = transformAttr(ir::Attribute(attr.value), fn);
        if (!updated)
          continue;
        bool inherent = op.isInherent(attr.name);
        op.setAttr(attr.name, updated);
        op.setInherent(attr.name, inherent);
      }
    });
  }
}

} // namespace shardscope::import_
