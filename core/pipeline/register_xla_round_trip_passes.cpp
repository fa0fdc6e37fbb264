// Registers the passes of XLA's Shardy integration (core/import) under `sdy_opt`'s names
// (`-xla-sdy-...`).
#include "core/import/common/import_constants.h"
#include "core/import/common/import_sdy_custom_calls.h"
#include "core/import/common/open_while_free_vars_sharding.h"
#include "core/pipeline/pass_manager.h"
#include "core/pipeline/passes.h"

namespace shardscope::pipeline {

void registerXlaRoundTripPasses(PassRegistry& registry) {
  registry.add(modulePass("xla-sdy-import-constants",
                          "turns stablehlo.constant ops into sdy.constant ops",
                          import_::importConstants));
  registry.add(modulePass("xla-sdy-import-sdy-custom-calls",
                          "turns Sharding, xla.sdy.ShardingGroup and xla.sdy.PropagationBarrier "
                          "custom calls into Shardy ops",
                          import_::importSdyCustomCalls));
  registry.add(modulePass("xla-sdy-open-while-free-vars-sharding",
                          "adds fully open sharding constraints on sharded free variables of "
                          "while loops",
                          import_::openWhileFreeVarsSharding));
}

} // namespace shardscope::pipeline
