#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <cstdint>
#include <string>
#include <vector>

namespace shardscope::partition {

struct ConvertGlobalToLocalOptions {
  /// Lower an `sdy.all_gather` over several dimensions to one `stablehlo.all_gather` per
  /// dimension; when false, to a single all-gather over all its axes along a new leading
  /// dimension, followed by a reshape and transpose that put the pieces in place.
  bool perDimAllGather = true;
  /// The number of replicas the program runs on. With more than one replica and one partition
  /// the devices are replicas (`stablehlo.replica_id`, cross-replica collectives); otherwise they
  /// are partitions (`stablehlo.partition_id`, collectives with a channel handle and global ids).
  int64_t replicaCount = 1;
  /// The number of partitions the program runs on (see `replicaCount`).
  int64_t partitionCount = 1;
};

/// Why one StableHLO op is in the per-device program: the side table the GUI shows, since the
/// printed IR carries no extra attributes.
struct LoweredCollective {
  /// The inserted op (`stablehlo.all_gather`, `stablehlo.dynamic_slice`, ...).
  const ir::Operation* op = nullptr;
  /// The name of the op it was lowered from (`sdy.all_gather`, `sdy.reshard`, ...), or of the
  /// op whose device-dependent semantics it implements (`stablehlo.iota`, `stablehlo.pad`, ...).
  std::string source;
  /// Where that op is in the source (the inserted op carries the same location); collectives
  /// that -sdy-reshard-to-collectives inserted carry the location of their `sdy.reshard`.
  support::SourceLocation sourceLoc;
  /// Why, in words (which axes, which device grouping).
  std::string reason;
};

/// An op of the per-device program whose result stands for the result of a global StableHLO op
/// that the conversion replaced by several ops at the same location (a sharded `iota` by a local
/// `iota` plus an offset `add`: the `add` stands for the `iota`). Tools that pair per-device ops
/// with global ones by location and name pair this op with `source`, and the other ops named
/// `source` at that location (the local `iota`) with none.
struct StandIn {
  const ir::Operation* op = nullptr;
  std::string source;
  support::SourceLocation sourceLoc;
};

/// `-sdy-convert-global-to-local`: rewrites every function from the global (logical) view to
/// the program one device runs. Every value gets its per-device type (`ShardingLayout` local
/// shape of its sharding); `sdy.manual_computation` bodies are inlined; ops whose result depends
/// on the device's position read it from `stablehlo.partition_id` (or `replica_id`): sharded
/// `iota` and constants (offset / dynamic slice by the device's block), `slice` and `pad` along
/// sharded dimensions (halo exchange with `collective_permute` between neighbouring blocks),
/// convolution group counts, gather/scatter indices into sharded operand dimensions (shifted,
/// gathers masked); Shardy's collectives become StableHLO collectives with replica groups from
/// the mesh (`device_ids`, sub-axes): `all_gather`,
/// `all_reduce`, `reduce_scatter`, `all_to_all`, `collective_permute`, `all_slice` as a local
/// dynamic slice, `replicated_to_unreduced` / `sharded_to_unreduced` by zeroing; sharding
/// constraints and reshards left unlowered go through the replicated value. Shardings and meshes
/// stay (`-sdy-drop-sharding-and-mesh`, core/propagation, removes them). When `log` is given, each
/// inserted device-dependent op is appended with what it came from; when `standIns` is given,
/// each replaced StableHLO op's stand-in (see StandIn).
bool convertGlobalToLocal(ir::Module& module, const ConvertGlobalToLocalOptions& options,
                          support::DiagnosticSink& sink,
                          std::vector<LoweredCollective>* log = nullptr,
                          std::vector<StandIn>* standIns = nullptr);

} // namespace shardscope::partition
