#pragma once
// The `serve` server: a program session driven by JSON-lines requests read from one file
// descriptor, answered on another (`app/cli/SERVE_PROTOCOL.md`). On the MPI backend every rank
// runs it: rank 0 reads the requests and drives the run, the others follow it.

#include "core/session/program.h"
#include "core/support/diagnostic.h"
#include "core/support/source_manager.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace shardscope::session::serve {

/// Reads the program at `path`, adds its text to `sources` (which outlive it: the diagnostics of a
/// failed load are formatted with them, so the text goes in before it is parsed, under the file
/// id the program's locations use) and loads it; null after reporting to `sink`.
using ProgramLoader = std::function<std::unique_ptr<Program>(
    const std::string& path, support::SourceManager& sources, support::DiagnosticSink& sink)>;

struct ServerOptions {
  std::string backend = "local"; ///< `local` or `mpi`
  int64_t devicesPerRank = 0;    ///< on MPI; 0: the run divides the devices among the ranks
  double mpiTimeout = 0;         ///< seconds; 0 for the backend's default
  /// The longest request line accepted; longer lines are refused.
  int64_t maxLineBytes = 0;
  /// The largest tensor a run creates, and the largest mesh it runs, with how to raise each
  /// (the end of their errors: `raise it with --max-tensor-bytes`).
  int64_t maxTensorBytes = 0;
  std::string maxTensorBytesHint;
  int64_t maxDevices = 0;
  std::string maxDevicesHint;
  /// The ops each device may execute in one run.
  int64_t maxSteps = 0;
  ProgramLoader loadProgram;
  /// Requests are read from `inputFd`, responses written to `outputFd`.
  int inputFd = 0;
  int outputFd = 1;
};

/// Runs the server until the input ends or a `quit` request. Returns the process exit code; on
/// failure (an unknown backend, a response that cannot be written) `error` says why.
int serve(const ServerOptions& options, std::string& error);

/// True when `backend` is one this build serves (`mpi` needs the MPI backend).
bool hasBackend(const std::string& backend);

} // namespace shardscope::session::serve
