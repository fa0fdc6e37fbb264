#include "core/import/common/common_import_steps.h"

#include "core/import/common/import_constants.h"
#include "core/import/common/import_sdy_custom_calls.h"
#include "core/import/common/open_while_free_vars_sharding.h"
#include "core/propagation/import_pipeline.h"

namespace shardscope::import_ {

bool runCommonPreImport(ir::Module& module, const CommonPreImportOptions& options,
                        support::DiagnosticSink& sink) {
  if (!propagation::eraseDeadSymbols(module, sink))
    return false;
  return !options.importConstants || importConstants(module, sink);
}

bool runCommonPostImport(ir::Module& module, support::DiagnosticSink& sink) {
  return importSdyCustomCalls(module, sink) && openWhileFreeVarsSharding(module, sink);
}

} // namespace shardscope::import_
