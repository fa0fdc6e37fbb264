#include "app/cli/resource_limits.h"

#include "app/cli/cli_support.h"
#include "core/exec/tensor.h"
#include "core/session/program.h"
#include "core/support/checked_math.h"

#include <cstdio>

namespace shardscope::cli {

namespace {

// The bytes of a tensor of `type`, or nothing when it overflows; 0 for a non-tensor or dynamic
// shape (nothing is allocated up front for those).
std::optional<int64_t> bytesOf(const ir::Type& type) {
  if (!type.isTensor() || !type.hasStaticShape())
    return 0;
  std::optional<int64_t> elements = support::checkedProduct(type.shape());
  if (!elements)
    return std::nullopt;
  return support::checkedMul(
      *elements, static_cast<int64_t>(exec::Tensor::elementBytes(type.elementType())));
}

// Reports `type` at `loc` when it is too large; returns false then.
bool checkType(const ir::Type& type, support::SourceLocation loc, int64_t maxBytes,
               support::DiagnosticSink& sink) {
  std::optional<int64_t> bytes = bytesOf(type);
  if (!bytes) {
    sink.error(loc, "'" + type.str() + "' has more bytes than fit in 64 bits");
    return false;
  }
  if (*bytes > maxBytes) {
    sink.error(loc, "'" + type.str() + "' needs " + std::to_string(*bytes) +
                        " bytes, more than the limit of " + std::to_string(maxBytes) +
                        " (raise it with --max-tensor-bytes)");
    return false;
  }
  return true;
}

} // namespace

bool checkTensorSizes(const ir::Module& module, int64_t maxBytes, support::DiagnosticSink& sink) {
  bool ok = true;
  module.op().walk([&](const ir::Operation& op) {
    if (!ok)
      return;
    for (unsigned r = 0; r < op.numRegions() && ok; ++r)
      for (const auto& block : op.region(r).blocks())
        for (const auto& arg : block->arguments())
          if (ok)
            ok = checkType(arg->type(), op.loc(), maxBytes, sink);
    for (unsigned i = 0; i < op.numResults() && ok; ++i)
      ok = checkType(op.result(i)->type(), op.loc(), maxBytes, sink);
  });
  return ok;
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
