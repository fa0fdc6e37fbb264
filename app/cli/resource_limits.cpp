#include "app/cli/resource_limits.h"

#include "app/cli/cli_support.h"
#include "core/session/resource_limits.h"

#include <cstdio>

namespace shardscope::cli {

bool checkTensorSizes(const ir::Module& module, int64_t maxBytes, support::DiagnosticSink& sink) {
  return session::checkTensorSizes(module, maxBytes, sink, "raise it with --max-tensor-bytes");
}

bool checkMeshDevices(const ir::Module& module, int64_t maxDevices,
                      support::DiagnosticSink& sink) {
  return session::checkMeshDevices(module, maxDevices, sink, "raise it with --max-devices");
}

std::optional<bool> parseLimitOption(const std::vector<std::string>& args, size_t& i,
                                     ResourceLimits& limits) {
  const std::string& a = args[i];
  for (auto [flag, target] : {std::pair{std::string("--max-tensor-bytes"), &limits.maxTensorBytes},
                              std::pair{std::string("--max-devices"), &limits.maxDevices}}) {
    std::string value;
    if (a == flag) {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "shardscope-cli: error: %s needs a value\n", flag.c_str());
        return false;
      }
      value = args[++i];
    } else if (a.starts_with(flag + "=")) {
      value = a.substr(flag.size() + 1);
    } else {
      continue;
    }
    std::optional<int64_t> n = parseOptionInteger(flag, value, 1);
    if (!n)
      return false;
    *target = *n;
    return true;
  }
  return std::nullopt;
}

} // namespace shardscope::cli
