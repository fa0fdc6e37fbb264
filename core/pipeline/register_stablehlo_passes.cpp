// Registers the passes of `stablehlo-opt` that ShardScope implements, under their StableHLO
// names, so the RUN lines of StableHLO's tests (`stablehlo-opt --chlo-legalize-to-stablehlo`)
// run as written.
#include "core/import/chlo/chlo_legalize.h"
#include "core/pipeline/pass_manager.h"
#include "core/pipeline/passes.h"

namespace shardscope::pipeline {

void registerStablehloPasses(PassRegistry& registry) {
  registry.add(modulePass("chlo-legalize-to-stablehlo",
                          "Lower chlo.mulhi, chlo.ragged_dot and chlo.scan to StableHLO ops",
                          &import_::legalizeChloToStablehlo));
}

} // namespace shardscope::pipeline
