// `shardscope-cli serve [--backend local|mpi]`: reads the server's options and runs it
// (core/session/serve): a session server speaking versioned JSON lines on stdin/stdout. See
// SERVE_PROTOCOL.md.

#include "app/cli/cli_support.h"
#include "app/cli/program.h"
#include "app/cli/resource_limits.h"

#include "core/session/execution.h"
#include "core/session/serve/protocol.h"
#include "core/session/serve/server.h"
#include "core/support/parse_number.h"

#include <cstdio>
#include <optional>

namespace shardscope::cli {

namespace {

struct ServeArgs {
  std::string backend = "local";
  int64_t devicesPerRank = 0;
  double mpiTimeout = 0;
  /// The longest request line accepted (`--max-line-bytes`); longer lines are refused.
  int64_t maxLineBytes = session::serve::kDefaultMaxLineBytes;
  ResourceLimits limits{kDefaultMaxTensorBytes, kDefaultMaxRunDevices};
  /// `--max-steps`: the ops each device may execute in one run.
  int64_t maxSteps = session::ExecutionOptions{}.stepLimit;
};

} // namespace

int runServe(const std::vector<std::string>& args) {
  ServeArgs options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const std::string& flag) -> std::optional<std::string> {
      if (a == flag && i + 1 < args.size())
        return args[++i];
      if (a.starts_with(flag + "="))
        return a.substr(flag.size() + 1);
      return std::nullopt;
    };
    auto bad = [&](const std::string& flag, const std::string& v, const char* expected) {
      std::fprintf(stderr, "shardscope-cli: error: %s '%s': expected %s\n", flag.c_str(),
                   v.c_str(), expected);
      return 1;
    };
    if (std::optional<bool> ok = parseLimitOption(args, i, options.limits)) {
      if (!*ok)
        return 1;
    } else if (auto v = value("--backend")) {
      options.backend = *v;
    } else if (auto v = value("--devices-per-rank")) {
      std::optional<int64_t> n = support::parseInteger<int64_t>(*v);
      if (!n || *n < 1)
        return bad("--devices-per-rank", *v, "a positive integer");
      options.devicesPerRank = *n;
    } else if (auto v = value("--mpi-timeout")) {
      std::optional<double> seconds = parsePositiveSeconds(*v);
      if (!seconds)
        return bad("--mpi-timeout", *v, "a positive number of seconds");
      options.mpiTimeout = *seconds;
    } else if (auto v = value("--max-steps")) {
      std::optional<int64_t> n = support::parseInteger<int64_t>(*v);
      if (!n || *n < 1)
        return bad("--max-steps", *v, "a positive integer");
      options.maxSteps = *n;
    } else if (auto v = value("--max-line-bytes")) {
      std::optional<int64_t> n = support::parseInteger<int64_t>(*v);
      if (!n || *n < 1)
        return bad("--max-line-bytes", *v, "a positive integer");
      options.maxLineBytes = *n;
    } else {
      std::fprintf(stderr, "shardscope-cli: error: unexpected argument '%s'\nusage: "
                           "shardscope-cli serve [--backend local|mpi] [--devices-per-rank K] "
                           "[--max-line-bytes N] [--max-steps N] [--max-tensor-bytes N] [--max-devices N]\n",
                   a.c_str());
      return 1;
    }
  }
  if (!session::serve::hasBackend(options.backend)) {
    std::fprintf(stderr, "shardscope-cli: error: unknown backend '%s'\n", options.backend.c_str());
    return 1;
  }
  session::serve::ServerOptions server;
  server.backend = options.backend;
  server.devicesPerRank = options.devicesPerRank;
  server.mpiTimeout = options.mpiTimeout;
  server.maxLineBytes = options.maxLineBytes;
  server.maxTensorBytes = options.limits.maxTensorBytes;
  server.maxTensorBytesHint = "raise it with --max-tensor-bytes";
  server.maxDevices = options.limits.maxDevices;
  server.maxDevicesHint = "raise it with --max-devices";
  server.maxSteps = options.maxSteps;
  server.loadProgram = loadSessionProgram;
  std::string error;
  int code = session::serve::serve(server, error);
  if (!error.empty())
    std::fprintf(stderr, "shardscope-cli: error: %s\n", error.c_str());
  return code;
}

} // namespace shardscope::cli
