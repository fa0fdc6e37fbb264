#pragma once
// The contract the pipeline fuzzer checks on one program text: whatever a (mutated) module holds,
// loading it, verifying it, propagating, inserting explicit reshards, partitioning and running it
// a few steps on every device either works or fails with an error located in the input, within
// the resource limits. A crash, a sanitizer report, an uncaught exception or a hang is found by
// libFuzzer itself; this check adds what only the engine can tell: a stage or run that fails
// without saying why, or says it without a location in the input, and a sharded run whose
// values differ from the unsharded reference run.

#include <cstdint>
#include <string>
#include <string_view>

namespace shardscope::fuzz {

/// Small bounds, so one input runs in milliseconds: the fuzzer looks for logic errors, not for
/// the cost of big tensors (the limits themselves are checked through the CLI's own functions).
struct PipelineLimits {
  int64_t maxDevices = 8;
  int64_t maxTensorBytes = int64_t{1} << 16;
  int64_t maxSteps = 2000;
};

/// Runs `text` through load (parse, import, verify), the resource-limit checks, every pipeline
/// stage up to the per-device program, and a run of the default function with the reference
/// check. Returns a description of the first broken promise, or an empty string. A divergence
/// the reference check reports is one, except devices of a manual computation disagreeing on a
/// block it claims replicated (the program's own per-device code, not the pipeline, broke it).
std::string checkPipeline(std::string_view text, const PipelineLimits& limits = {});

} // namespace shardscope::fuzz
