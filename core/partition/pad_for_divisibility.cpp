#include "core/partition/pad_for_divisibility.h"

#include "core/ir/stablehlo_attrs.h"
#include "core/sharding/sharding_layout.h"
#include "core/sharding/value_sharding.h"

#include <algorithm>
#include <string>

namespace shardscope::partition {
namespace {

using ir::Operation;

// Returns true when dimension `dim` of `value` is sharded non-divisibly.
bool isPaddedDim(const ir::Value& value, int64_t dim, const ir::Module& module) {
  std::optional<ir::TensorSharding> scratch; // asked for every dot operand: avoid copies
  const ir::TensorSharding* s = sharding::valueShardingRef(value, scratch);
  if (!s || !value.type().isTensor() || !value.type().hasStaticShape())
    return false;
  const ir::Mesh* mesh = ir::resolveMesh(module, *s);
  if (!mesh || static_cast<int64_t>(s->dims.size()) != value.type().rank())
    return false;
  auto layout = sharding::ShardingLayout::create(*s, *mesh, value.type().shape());
  return layout && layout->isPadded(static_cast<size_t>(dim));
}

} // namespace

bool padForDivisibility(ir::Module& module, support::DiagnosticSink& sink) {
  bool ok = true;
  for (Operation* fn : module.functions()) {
    fn->walk([&](Operation& op) {
      std::vector<std::pair<const ir::Value*, int64_t>> reduced;
      if (op.is("stablehlo.reduce")) {
        if (auto dims = ir::stablehlo::intListAttr(op, "dimensions"))
          for (unsigned i = 0; i < op.numOperands() / 2; ++i)
            for (int64_t d : *dims)
              reduced.push_back({op.operand(i), d});
      } else if (op.is("stablehlo.dot_general")) {
        if (auto dims = ir::stablehlo::dotDimensionNumbers(op)) {
          for (int64_t d : dims->lhsContracting)
            reduced.push_back({op.operand(0), d});
          for (int64_t d : dims->rhsContracting)
            reduced.push_back({op.operand(1), d});
        }
      }
      for (const auto& [value, dim] : reduced)
        if (isPaddedDim(*value, dim, module)) {
          sink.error(op.loc(), "'" + std::string(op.name()) + "' reduces over dimension " +
                                   std::to_string(dim) +
                                   ", which its shards don't divide: the padding would be read");
          ok = false;
          return;
        }
    });
  }
  return ok;
}

} // namespace shardscope::partition
