#include "core/pipeline/passes.h"

#include "core/pipeline/pass_manager.h"

namespace shardscope::pipeline {

void registerBuiltinPasses(PassRegistry& registry) {
  registerCanonicalizePass(registry);
  registerRulePasses(registry);
  registerImportPasses(registry);
  registerPropagationPasses(registry);
  registerPartitionPasses(registry);
  registerExportPipeline(registry);
  registerXlaGspmdPasses(registry);
  registerXlaRoundTripPasses(registry);
  registerStablehloPasses(registry);
}

} // namespace shardscope::pipeline
