// Registers the export passes of core/partition under `sdy_opt`'s names.
#include "core/partition/convert_global_to_local.h"
#include "core/partition/insert_explicit_reshards.h"
#include "core/partition/pad_for_divisibility.h"
#include "core/partition/reshard_to_collectives.h"
#include "core/partition/resolve_permutation_factors.h"
#include "core/partition/resolve_single_device_sharding.h"
#include "core/partition/update_non_divisible.h"
#include "core/pipeline/pass_manager.h"
#include "core/pipeline/passes.h"

#include <charconv>
#include <cstdint>

namespace shardscope::pipeline {

namespace {

bool runReshardToCollectives(ir::Module& module, const PassOptions& options,
                             support::DiagnosticSink& sink) {
  partition::ReshardToCollectivesOptions opts;
  opts.keepRedundantReshards = options.getBool("keep-redundant-reshards", false);
  return partition::reshardToCollectives(module, opts, sink);
}

bool runInsertExplicitReshards(ir::Module& module, const PassOptions& options,
                               support::DiagnosticSink& sink) {
  partition::InsertExplicitReshardsOptions opts;
  opts.enableFullVersion = options.getBool("enable-full-version", false);
  return partition::insertExplicitReshards(module, opts, sink);
}

// Option `name` as an integer, or `fallback` when absent or not a number.
int64_t intOption(const PassOptions& options, std::string_view name, int64_t fallback) {
  std::optional<std::string> v = options.get(name);
  if (!v || v->empty())
    return fallback;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), value);
  return ec == std::errc() && end == v->data() + v->size() ? value : fallback;
}

bool runConvertGlobalToLocal(ir::Module& module, const PassOptions& options,
                             support::DiagnosticSink& sink) {
  partition::ConvertGlobalToLocalOptions opts;
  opts.perDimAllGather = options.getBool("per-dim-all-gather", true);
  opts.replicaCount = intOption(options, "replica-count", 1);
  opts.partitionCount = intOption(options, "partition-count", 1);
  return partition::convertGlobalToLocal(module, opts, sink);
}

bool runResolvePermutationFactors(ir::Module& module, const PassOptions& options,
                                  support::DiagnosticSink& sink) {
  partition::ResolvePermutationFactorsOptions opts;
  opts.enableHaloExchange = options.getBool("enable-halo-exchange", true);
  opts.replicaCount = intOption(options, "replica-count", 1);
  opts.partitionCount = intOption(options, "partition-count", 1);
  return partition::resolvePermutationFactors(module, opts, sink);
}

bool runResolveSingleDeviceSharding(ir::Module& module, const PassOptions& options,
                                    support::DiagnosticSink& sink) {
  partition::ResolveSingleDeviceShardingOptions opts;
  opts.replicaCount = intOption(options, "replica-count", 1);
  opts.partitionCount = intOption(options, "partition-count", 1);
  return partition::resolveSingleDeviceSharding(module, opts, sink);
}

} // namespace

void registerPartitionPasses(PassRegistry& registry) {
  registry.add({"sdy-insert-explicit-reshards",
                "inserts sdy.reshard ops so each op's shardings match its sharding rule",
                {"enable-full-version"},
                runInsertExplicitReshards});
  registry.add({"sdy-reshard-to-collectives",
                "replaces each sdy.reshard with explicit collectives",
                {"keep-redundant-reshards"},
                runReshardToCollectives});
  registry.add(modulePass(
      "sdy-update-non-divisible-input-output-shardings",
      "makes function, call and manual-computation boundary shardings divisible",
      partition::updateNonDivisibleInputOutputShardings));
  registry.add({"sdy-convert-global-to-local",
                "rewrites functions from the global view to the program each device runs",
                {"per-dim-all-gather", "replica-count", "partition-count"},
                runConvertGlobalToLocal});
  registry.add({"sdy-resolve-permutation-factors",
                "leaves halo exchanges to convert-global-to-local, gathers around other ops "
                "that move data across devices",
                {"enable-halo-exchange", "replica-count", "partition-count"},
                runResolvePermutationFactors});
  registry.add(modulePass("sdy-pad-for-divisibility",
                          "rejects reductions over non-divisibly sharded dimensions (padding is "
                          "materialized by -sdy-convert-global-to-local)",
                          partition::padForDivisibility));
  registry.add({"sdy-resolve-single-device-sharding",
                "runs ops on a single-device mesh everywhere on that device's operands",
                {"replica-count", "partition-count"},
                runResolveSingleDeviceSharding});
}

} // namespace shardscope::pipeline
