#include "core/partition/update_non_divisible.h"

#include "core/propagation/import_data_flow.h"

#include <numeric>

namespace shardscope::partition {
namespace {

using ir::Attribute;
using ir::Operation;
using ir::TensorSharding;

// The axes of one dimension of size `dimSize` that shard it evenly (see divisibleSharding).
std::vector<ir::AxisRef> divisibleAxes(const std::vector<ir::AxisRef>& axes, int64_t dimSize,
                                       const sharding::MeshView& mesh) {
  std::vector<ir::AxisRef> kept;
  int64_t capacity = dimSize;
  for (const ir::AxisRef& axis : axes) {
    int64_t size = mesh.sizeOf(axis);
    if (size > 0 && capacity % size == 0) {
      kept.push_back(axis);
      capacity /= size;
      continue;
    }
    int64_t gcd = size > 0 ? std::gcd(capacity, size) : 1;
    if (gcd > 1)
      kept.push_back({axis.name, ir::SubAxisInfo{sharding::MeshView::preSizeOf(axis), gcd}});
    break; // Axes after a non-dividing one would shard non-contiguous pieces.
  }
  return kept;
}

// Rewrites `sharding` in place when it refers to a mesh of `module`; returns whether it changed.
bool update(TensorSharding& sharding, const ir::Type& type, const ir::Module& module) {
  const ir::Mesh* mesh = ir::resolveMesh(module, sharding);
  if (!mesh || !type.isTensor() || type.rank() != static_cast<int64_t>(sharding.dims.size()))
    return false;
  TensorSharding updated = divisibleSharding(sharding, type.shape(), sharding::MeshView(*mesh));
  if (updated == sharding)
    return false;
  sharding = std::move(updated);
  return true;
}

void updateFunction(Operation& fn, const ir::Module& module) {
  ir::Type type = ir::func::type(fn);
  auto fix = [&](const ir::DictionaryAttr* attrs, const ir::Type& valueType, auto setter) {
    if (!attrs)
      return;
    const auto* attr = attrs->get("sdy.sharding").as<ir::ShardingAttr>();
    if (!attr)
      return;
    TensorSharding sharding = attr->sharding;
    if (update(sharding, valueType, module))
      setter(Attribute::sharding(std::move(sharding)));
  };
  for (unsigned i = 0; i < type.elements().size(); ++i)
    fix(ir::func::argAttrs(fn, i), type.elements()[i],
        [&](Attribute a) { ir::func::setArgAttr(fn, i, "sdy.sharding", std::move(a)); });
  for (unsigned i = 0; i < type.results().size(); ++i)
    fix(ir::func::resultAttrs(fn, i), type.results()[i],
        [&](Attribute a) { ir::func::setResultAttr(fn, i, "sdy.sharding", std::move(a)); });
}

// Updates the per-value sharding list `name` of `op`, whose entry i shards `types[i]`.
void updateList(Operation& op, std::string_view name, const std::vector<ir::Type>& types,
                const ir::Module& module) {
  const auto* attr = op.attr(name).as<ir::ShardingPerValueAttr>();
  if (!attr || attr->shardings.size() != types.size())
    return;
  std::vector<TensorSharding> shardings = attr->shardings;
  bool changed = false;
  for (size_t i = 0; i < shardings.size(); ++i)
    changed = update(shardings[i], types[i], module) || changed;
  if (!changed)
    return;
  bool inherent = op.isInherent(name);
  op.setAttr(name, Attribute::shardingPerValue(std::move(shardings)));
  op.setInherent(name, inherent);
}

} // namespace

TensorSharding divisibleSharding(const TensorSharding& sharding, std::span<const int64_t> shape,
                                 const sharding::MeshView& mesh) {
  TensorSharding out = sharding;
  for (size_t d = 0; d < out.dims.size() && d < shape.size(); ++d)
    if (shape[d] >= 0)
      out.dims[d].axes = divisibleAxes(out.dims[d].axes, shape[d], mesh);
  return out;
}

bool updateNonDivisibleInputOutputShardings(ir::Module& module, support::DiagnosticSink&) {
  for (Operation* op : propagation::preOrderOps(module.op())) {
    if (op->is("func.func"))
      updateFunction(*op, module);
    else if (op->is("func.call"))
      updateList(*op, "sdy.sharding", ir::resultTypes(*op), module);
    else if (op->is("sdy.manual_computation")) {
      updateList(*op, "in_shardings", ir::operandTypes(*op), module);
      updateList(*op, "out_shardings", ir::resultTypes(*op), module);
    }
  }
  return true;
}

} // namespace shardscope::partition
