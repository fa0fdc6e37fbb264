#pragma once

#include "core/ir/module.h"
#include "core/partition/reshard_to_collectives.h"
#include "core/support/diagnostic.h"

#include <cstdint>

namespace shardscope::partition {

struct ResolvePermutationFactorsOptions {
  /// Move the halo of shifted slices and pads between neighbouring blocks with collective
  /// permutes instead of gathering the whole operand.
  bool enableHaloExchange = true;
  int64_t replicaCount = 1;
  int64_t partitionCount = 1;
};

/// `-sdy-resolve-permutation-factors`: makes every `stablehlo.slice`, `pad`, `reverse`,
/// `reshape`, `concatenate`, `dynamic_slice` and `dynamic_update_slice` executable block by block.
/// With `enableHaloExchange`, a slice or pad that keeps the axes of every dimension is left as it
/// is: -sdy-convert-global-to-local brings each device the neighbouring blocks it reads with
/// collective permutes (the halo). Otherwise an op is kept when each device's result block is
/// computed from its own operand block by the same op applied locally (slices from 0 with unit
/// stride keeping the block size, pads whose shifted elements stay on their device, reverses of
/// unsharded dimensions, reshapes whose blocks line up element by element, checked exhaustively;
/// concatenates and dynamic (update) slices whose sharded dimensions they pass through whole);
/// any other is resolved by all-gathering its operands (`sdy.all_gather`), running it replicated
/// and slicing its result back to its sharding (`sdy.all_slice`).
/// When `log` is given, every inserted `sdy.all_gather` / `sdy.all_slice` is appended with why.
bool resolvePermutationFactors(ir::Module& module, const ResolvePermutationFactorsOptions& options,
                               support::DiagnosticSink& sink,
                               std::vector<InsertedCollective>* log = nullptr);

} // namespace shardscope::partition
