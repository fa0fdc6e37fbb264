#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <string>
#include <vector>

namespace shardscope::partition {

/// Why the pass inserted one collective: the side table that explains each `sdy.all_gather`,
/// `sdy.all_slice`, ... without adding attributes to the printed IR (which must match sdy_opt).
struct InsertedCollective {
  const ir::Operation* op = nullptr;
  /// In words, what this step of the reshard does (`gather "x" along dim 0`).
  std::string reason;
  /// The sharding the producer left the value in, and the one the consumer needed, in Shardy's
  /// notation (`#sdy.sharding<@mesh, [{"x"}, {}]>`).
  std::string producerSharding;
  std::string neededSharding;
  /// The op that needed the new sharding: the first user of the reshard (null when unused), and
  /// the op that produced its input (null for block arguments). Valid right after the pass only:
  /// either may be another reshard that a later rewrite replaces (session::Program::causeOf
  /// names the live neighbours instead).
  const ir::Operation* consumer = nullptr;
  const ir::Operation* producer = nullptr;
};

struct ReshardToCollectivesOptions {
  /// Keep `sdy.reshard` ops whose input already has the target sharding.
  bool keepRedundantReshards = false;
};

/// `-sdy-reshard-to-collectives`: replaces every `sdy.reshard` with the explicit collectives
/// (`all_slice`, `collective_permute`, `all_to_all`, `all_gather`) that produce its sharding from
/// its input's (see planReshardCollectives). A reshard to fully replicated gathers on the input's
/// mesh; one between meshes with the same axes in another device order ends on the target mesh
/// after a collective permute; reshards between other meshes, to/from a single device or between
/// ranks that differ stay, like in Shardy. Propagation barriers on the input are looked through.
/// When `log` is given, every inserted collective is appended to it with its reason.
bool reshardToCollectives(ir::Module& module, const ReshardToCollectivesOptions& options,
                          support::DiagnosticSink& sink,
                          std::vector<InsertedCollective>* log = nullptr);

} // namespace shardscope::partition
