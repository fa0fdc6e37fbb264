#include "core/sharding/sharding_equivalence.h"

#include <algorithm>

namespace shardscope::sharding {

bool isFullyReplicated(const ir::TensorSharding* sharding) {
  if (!sharding)
    return true;
  return sharding->unreducedAxes.empty() &&
         std::all_of(sharding->dims.begin(), sharding->dims.end(),
                     [](const ir::DimensionSharding& d) { return d.axes.empty(); });
}

bool isFullyReplicated(const std::optional<ir::TensorSharding>& sharding) {
  return isFullyReplicated(sharding ? &*sharding : nullptr);
}

bool equivalentShardings(const ir::TensorSharding* a, const ir::TensorSharding* b) {
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

bool equivalentShardings(const std::optional<ir::TensorSharding>& a,
                         const std::optional<ir::TensorSharding>& b) {
  return equivalentShardings(a ? &*a : nullptr, b ? &*b : nullptr);
}

} // namespace shardscope::sharding
