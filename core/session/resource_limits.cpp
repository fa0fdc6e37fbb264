#include "core/session/resource_limits.h"

#include "core/exec/tensor.h"
#include "core/ir/attribute.h"
#include "core/ir/quant_type.h"
#include "core/support/checked_math.h"

#include <algorithm>
#include <optional>
#include <string>

namespace shardscope::session {

namespace {

// The bytes of a tensor of `type`, or nothing when it overflows; 0 for a non-tensor or dynamic
// shape (nothing is allocated up front for those). A quantized tensor is held in its storage
// type and, while an op computes on it, in its expressed type: the larger of the two counts.
std::optional<int64_t> bytesOf(const ir::Type& type) {
  if (std::optional<ir::QuantType> q = ir::quantTypeOf(type)) {
    std::optional<int64_t> storage = bytesOf(q->storageType());
    std::optional<int64_t> expressed = bytesOf(q->expressedType());
    if (!storage || !expressed)
      return std::nullopt;
    return std::max(*storage, *expressed);
  }
  if (!type.isTensor() || !type.hasStaticShape())
    return 0;
  std::optional<int64_t> elements = support::checkedProduct(type.shape());
  if (!elements)
    return std::nullopt;
  return support::checkedMul(*elements,
                             static_cast<int64_t>(exec::Tensor::elementBytes(type.elementType())));
}

// Reports `type` at `loc` when it is too large; returns false then.
bool checkType(const ir::Type& type, support::SourceLocation loc, int64_t maxBytes,
               support::DiagnosticSink& sink, std::string_view raiseHint) {
  // A tuple's tensors are tensors like any other (a custom call or a loop may make them).
  if (type && type.kind() == ir::Type::Kind::Tuple) {
    for (const ir::Type& element : type.elements())
      if (!checkType(element, loc, maxBytes, sink, raiseHint))
        return false;
    return true;
  }
  std::optional<int64_t> bytes = bytesOf(type);
  if (!bytes) {
    sink.error(loc, "'" + type.str() + "' has more bytes than fit in 64 bits");
    return false;
  }
  if (*bytes > maxBytes) {
    sink.error(loc, "'" + type.str() + "' needs " + std::to_string(*bytes) +
                        " bytes, more than the limit of " + std::to_string(maxBytes) + " (" +
                        std::string(raiseHint) + ")");
    return false;
  }
  return true;
}

} // namespace

bool checkMeshDevices(const ir::Module& module, int64_t maxDevices, support::DiagnosticSink& sink,
                      std::string_view raiseHint) {
  for (const auto& op : module.body().ops()) {
    const auto* attr = op->attr("mesh").as<ir::MeshAttr>();
    if (!op->is("sdy.mesh") || !attr)
      continue;
    int64_t devices = 1;
    bool overflow = false;
    for (const ir::MeshAxis& axis : attr->mesh.axes) {
      std::optional<int64_t> next = support::checkedMul(devices, axis.size);
      overflow = overflow || !next || axis.size < 0;
      devices = next.value_or(devices);
    }
    if (overflow || devices > maxDevices) {
      sink.error(op->loc(), "the mesh has " +
                                (overflow ? std::string("more devices than fit in 64 bits")
                                          : std::to_string(devices) + " devices") +
                                ", more than the limit of " + std::to_string(maxDevices) + " (" +
                                std::string(raiseHint) + ")");
      return false;
    }
  }
  return true;
}

bool checkTensorSizes(const ir::Module& module, int64_t maxBytes, support::DiagnosticSink& sink,
                      std::string_view raiseHint) {
  bool ok = true;
  module.op().walk([&](const ir::Operation& op) {
    if (!ok)
      return;
    for (unsigned r = 0; r < op.numRegions() && ok; ++r)
      for (const auto& block : op.region(r).blocks())
        for (const auto& arg : block->arguments())
          if (ok)
            ok = checkType(arg->type(), op.loc(), maxBytes, sink, raiseHint);
    for (unsigned i = 0; i < op.numResults() && ok; ++i)
      ok = checkType(op.result(i)->type(), op.loc(), maxBytes, sink, raiseHint);
  });
  return ok;
}

} // namespace shardscope::session
