#include "core/partition/explicit_reshards_util.h"

#include <algorithm>
#include <vector>

namespace shardscope::partition {

ir::Operation* insertReshardBefore(ir::Operation& before, ir::Value* input,
                                   const ir::TensorSharding& sharding) {
  std::vector<ir::Value*> operands{input};
  std::vector<ir::Type> types{input->type()};
  auto reshard = ir::Operation::create("sdy.reshard", operands, types, before.loc());
  reshard->setAttr("sharding", ir::Attribute::sharding(sharding));
  reshard->setInherent("sharding", true);
  return before.parentBlock()->insertBefore(&before, std::move(reshard));
}

ir::Value* insertAllReduceBefore(ir::Operation& before, ir::Value* input,
                                 const std::vector<ir::AxisRef>& axes,
                                 const ir::TensorSharding& outSharding,
                                 support::SourceLocation loc) {
  std::vector<ir::Value*> operands{input};
  std::vector<ir::Type> types{input->type()};
  auto allReduce = ir::Operation::create("sdy.all_reduce", operands, types, loc);
  allReduce->setAttr("reduction_axes", ir::Attribute::axisRefList(axes));
  allReduce->setInherent("reduction_axes", true);
  allReduce->setAttr("out_sharding", ir::Attribute::sharding(outSharding));
  allReduce->setInherent("out_sharding", true);
  return before.parentBlock()->insertBefore(&before, std::move(allReduce))->result(0);
}

ir::TensorSharding replicatedOn(const std::string& meshName, int64_t rank) {
  ir::TensorSharding out;
  out.meshName = meshName;
  out.dims.resize(static_cast<size_t>(rank));
  return out;
}

bool isFullyReplicated(const std::optional<ir::TensorSharding>& sharding) {
  if (!sharding)
    return true;
  return sharding->unreducedAxes.empty() &&
         std::all_of(sharding->dims.begin(), sharding->dims.end(),
                     [](const ir::DimensionSharding& d) { return d.axes.empty(); });
}

bool equivalentShardings(const std::optional<ir::TensorSharding>& a,
                         const std::optional<ir::TensorSharding>& b) {
  if (isFullyReplicated(a) && isFullyReplicated(b))
    return true;
  if (!a || !b || a->meshName != b->meshName || a->dims.size() != b->dims.size() ||
      a->unreducedAxes != b->unreducedAxes)
    return false;
  for (size_t d = 0; d < a->dims.size(); ++d)
    if (a->dims[d].axes != b->dims[d].axes)
      return false;
  return true;
}

ir::Operation* nextOp(ir::Operation& op) {
  bool found = false;
  for (const auto& p : op.parentBlock()->ops()) {
    if (found)
      return p.get();
    if (p.get() == &op)
      found = true;
  }
  return nullptr;
}

} // namespace shardscope::partition
