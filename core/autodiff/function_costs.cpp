#include "core/autodiff/function_costs.h"

#include <algorithm>

namespace shardscope::autodiff {

analysis::CostSummary functionCosts(const ir::Module& module, const ir::Operation& function) {
  analysis::CostSummary summary;
  function.walk([&](const ir::Operation& op) {
    std::optional<analysis::CollectiveCost> cost = analysis::collectiveCost(module, op);
    if (!cost)
      return;
    summary.totalBytesSent += cost->bytesSent;
    for (const analysis::AxisTraffic& traffic : cost->perAxis) {
      auto it =
          std::find_if(summary.perAxis.begin(), summary.perAxis.end(),
                       [&](const analysis::AxisTraffic& t) { return t.axis == traffic.axis; });
      if (it == summary.perAxis.end())
        summary.perAxis.push_back(traffic);
      else
        it->bytesSent += traffic.bytesSent;
    }
    summary.collectives.push_back(std::move(*cost));
  });
  return summary;
}

int countOps(const ir::Operation& function, std::string_view name) {
  int count = 0;
  function.walk([&](const ir::Operation& op) { count += op.is(name) ? 1 : 0; });
  return count;
}

} // namespace shardscope::autodiff
