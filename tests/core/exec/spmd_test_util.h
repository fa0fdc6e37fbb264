#pragma once

// Helpers for multi-device interpreter tests: run one function per device of a grid on the
// local backend and collect results and diagnostics.
#include "core/backends/local/local_communicator.h"
#include "core/exec/spmd_executor.h"
#include "core/io/mlir/mlir.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace shardscope::exec::testing {

/// A parsed module plus an executor over a `numReplicas` x `numPartitions` local grid.
struct SpmdRun {
  support::CollectingSink sink;
  std::unique_ptr<ir::Module> module;
  std::unique_ptr<backends::local::LocalCommunicator> comm;
  std::unique_ptr<SpmdExecutor> executor;

  /// Parses `text` and starts `function` on every device with `inputs[d]` (no inputs when
  /// `inputs` is empty).
  SpmdRun(const std::string& text, int64_t numReplicas, int64_t numPartitions,
          std::vector<std::vector<Tensor>> inputs = {}, const std::string& function = "main") {
    module = io::mlir::parseModule(text, /*fileId=*/1, sink);
    EXPECT_TRUE(module) << messages();
    if (!module)
      return;
    int64_t n = numReplicas * numPartitions;
    comm = std::make_unique<backends::local::LocalCommunicator>(n);
    SpmdOptions options;
    options.numReplicas = numReplicas;
    options.numPartitions = numPartitions;
    executor = std::make_unique<SpmdExecutor>(*module, *comm, options);
    if (inputs.empty())
      inputs.resize(static_cast<size_t>(n));
    executor->start(std::vector<std::string>(static_cast<size_t>(n), function), std::move(inputs),
                    sink);
  }

  /// Runs to the end; returns true on success.
  bool run() { return executor && executor->runToEnd(); }

  /// All diagnostics, one per line.
  std::string messages() const {
    std::string all;
    for (const auto& d : sink.diagnostics())
      all += d.message + "\n";
    return all;
  }
};

} // namespace shardscope::exec::testing
