#include "core/import/round_trip/dedup_meshes.h"

#include "core/import/round_trip/clone_manual_computation_calls.h"
#include "core/import/round_trip/sharding_transform.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace shardscope::import_ {

namespace {

int64_t deviceCount(const ir::Mesh& mesh) {
  int64_t n = 1;
  for (const auto& axis : mesh.axes)
    n *= axis.size;
  return n;
}

std::vector<ir::Operation*> meshOps(const ir::Module& module) {
  std::vector<ir::Operation*> meshes;
  for (const auto& op : module.body().ops())
    if (op->is("sdy.mesh") && op->attr("mesh").as<ir::MeshAttr>())
      meshes.push_back(op.get());
  return meshes;
}

const ir::Mesh& meshOf(const ir::Operation& op) { return op.attr("mesh").as<ir::MeshAttr>()->mesh; }

std::string meshName(const ir::Operation& op) {
  return op.attr("sym_name").as<ir::StringAttr>()->value;
}

// An axis ref as a span [begin, end) of the device order in log-free form: the product of the
// sizes of everything more major than it, and that times its size.
struct Span {
  int64_t begin = 1;
  int64_t end = 1;
};

std::optional<Span> spanOf(const ir::Mesh& mesh, const ir::AxisRef& ref) {
  // Axes are major to minor, so the most minor axis has the smallest multiplier.
  int64_t minorProduct = 1;
  for (auto it = mesh.axes.rbegin(); it != mesh.axes.rend(); ++it) {
    if (it->name == ref.name) {
      // Inside the axis, a sub-axis `(pre)size` has `pre` major devices before it.
      int64_t axisEnd = minorProduct * it->size;
      if (!ref.subAxis)
        return Span{minorProduct, axisEnd};
      int64_t end = axisEnd / ref.subAxis->preSize;
      return Span{end / ref.subAxis->size, end};
    }
    minorProduct *= it->size;
  }
  return std::nullopt;
}

// The axis refs of `main` covering `span`, major to minor; nothing when they do not divide it.
std::optional<std::vector<ir::AxisRef>> refsCovering(const ir::Mesh& main, Span span) {
  std::vector<ir::AxisRef> refs;
  int64_t minorProduct = deviceCount(main);
  for (const auto& axis : main.axes) {
    int64_t axisEnd = minorProduct;
    int64_t axisBegin = minorProduct / axis.size;
    minorProduct = axisBegin;
    int64_t lo = std::max(axisBegin, span.begin);
    int64_t hi = std::min(axisEnd, span.end);
    if (lo >= hi)
      continue;
    if (lo % axisBegin != 0 || axisEnd % hi != 0 || hi % lo != 0)
      return std::nullopt;
    if (lo == axisBegin && hi == axisEnd) {
      refs.push_back({axis.name, std::nullopt});
      continue;
    }
    refs.push_back({axis.name, ir::SubAxisInfo{axisEnd / hi, hi / lo}});
  }
  return refs;
}

using AxisMap = std::map<std::string, std::vector<ir::AxisRef>>;

// Maps every axis ref of `dup`'s axes, when `main` can express each of them.
std::optional<AxisMap> mapAxes(const ir::Mesh& dup, const ir::Mesh& main) {
  AxisMap map;
  for (const auto& axis : dup.axes) {
    auto refs = refsCovering(main, *spanOf(dup, {axis.name, std::nullopt}));
    if (!refs)
      return std::nullopt;
    map[axis.name] = std::move(*refs);
  }
  return map;
}

// Appends `refs` to `out`, merging a sub-axis with the one before it when they are adjacent parts
// of the same axis, and turning a sub-axis that covers its whole axis back into the axis.
void appendMerged(const ir::Mesh& main, const std::vector<ir::AxisRef>& refs,
                  std::vector<ir::AxisRef>& out) {
  for (const auto& ref : refs) {
    if (!out.empty() && out.back().name == ref.name && out.back().subAxis && ref.subAxis &&
        out.back().subAxis->preSize * out.back().subAxis->size == ref.subAxis->preSize) {
      out.back().subAxis->size *= ref.subAxis->size;
    } else {
      out.push_back(ref);
    }
    ir::AxisRef& last = out.back();
    if (!last.subAxis)
      continue;
    for (const auto& axis : main.axes)
      if (axis.name == last.name && last.subAxis->preSize == 1 &&
          last.subAxis->size == axis.size)
        last.subAxis.reset();
  }
}

std::vector<ir::AxisRef> remap(const ir::Mesh& dup, const ir::Mesh& main,
                               const std::vector<ir::AxisRef>& refs) {
  std::vector<ir::AxisRef> out;
  for (const auto& ref : refs) {
    auto span = spanOf(dup, ref);
    auto mapped = span ? refsCovering(main, *span) : std::nullopt;
    if (mapped)
      appendMerged(main, *mapped, out);
    else
      out.push_back(ref);
  }
  return out;
}

struct Duplicate {
  std::string mainName;
  const ir::Mesh* dup = nullptr;
  const ir::Mesh* main = nullptr;
};

} // namespace

// Shardy's lift-inlined-meshes first keeps one symbol per distinct mesh: a later symbol with an
// equal mesh is erased and references to it use the first.
void eraseEqualMeshSymbols(ir::Module& module) {
  std::map<std::string, std::string> renamed;
  std::vector<ir::Operation*> kept;
  for (ir::Operation* op : meshOps(module)) {
    auto same = std::find_if(kept.begin(), kept.end(),
                             [&](ir::Operation* k) { return meshOf(*k) == meshOf(*op); });
    if (same == kept.end()) {
      kept.push_back(op);
      continue;
    }
    renamed[meshName(*op)] = meshName(**same);
    module.body().erase(op);
  }
  if (renamed.empty())
    return;
  transformShardings(module, [&](const ir::TensorSharding& sharding) {
    auto it = sharding.inlineMesh ? renamed.end() : renamed.find(sharding.meshName);
    if (it == renamed.end())
      return sharding;
    ir::TensorSharding out = sharding;
    out.meshName = it->second;
    return out;
  });
}

bool liftInlinedMeshes(ir::Module& module, support::DiagnosticSink& /*sink*/) {
  eraseEqualMeshSymbols(module);
  std::vector<ir::Operation*> existing = meshOps(module);
  ir::Operation* insertAfter = existing.empty() ? nullptr : existing.back();
  transformShardings(module, [&](const ir::TensorSharding& sharding) {
    if (!sharding.inlineMesh)
      return sharding;
    const ir::Mesh& mesh = *sharding.inlineMesh;
    std::string name;
    for (ir::Operation* op : meshOps(module))
      if (meshOf(*op) == mesh) {
        name = meshName(*op);
        break;
      }
    if (name.empty()) {
      bool maximal = mesh.axes.empty() && mesh.deviceIds.size() == 1;
      bool empty = mesh.axes.empty() && mesh.deviceIds.empty();
      name = uniqueSymbolName(module, maximal ? "maximal_mesh_" +
                                                    std::to_string(mesh.deviceIds.front())
                                      : empty ? std::string("empty_mesh")
                                              : std::string("mesh"));
      auto op = ir::Operation::create("sdy.mesh", {}, {}, module.op().loc());
      op->setAttr("sym_name", ir::Attribute::string(name));
      op->setAttr("mesh", ir::Attribute::mesh(mesh));
      op->setInherent("sym_name", true);
      op->setInherent("mesh", true);
      ir::Block& body = module.body();
      ir::Operation* before = nullptr;
      if (insertAfter) {
        auto it = body.ops().begin();
        while (it != body.ops().end() && it->get() != insertAfter)
          ++it;
        if (it != body.ops().end() && ++it != body.ops().end())
          before = it->get();
      } else if (!body.empty()) {
        before = body.ops().front().get();
      }
      insertAfter = body.insertBefore(before, std::move(op));
    }
    ir::TensorSharding lifted = sharding;
    lifted.inlineMesh.reset();
    lifted.meshName = name;
    return lifted;
  });
  return true;
}

bool dedupMeshes(ir::Module& module, support::DiagnosticSink& /*sink*/) {
  std::vector<ir::Operation*> meshes = meshOps(module);
  if (meshes.size() < 2)
    return true;
  std::map<std::string, Duplicate> duplicates;
  std::vector<ir::Operation*> mains;
  for (ir::Operation* op : meshes) {
    const ir::Mesh& mesh = meshOf(*op);
    bool folded = false;
    for (ir::Operation* mainOp : mains) {
      const ir::Mesh& main = meshOf(*mainOp);
      if (main.deviceIds != mesh.deviceIds || deviceCount(main) != deviceCount(mesh) ||
          main.axes.empty() != mesh.axes.empty() || !mapAxes(mesh, main))
        continue;
      duplicates[meshName(*op)] = {meshName(*mainOp), &mesh, &main};
      folded = true;
      break;
    }
    if (!folded)
      mains.push_back(op);
  }
  if (duplicates.empty())
    return true;
  transformShardings(module, [&](const ir::TensorSharding& sharding) {
    auto it = sharding.inlineMesh ? duplicates.end() : duplicates.find(sharding.meshName);
    if (it == duplicates.end())
      return sharding;
    const Duplicate& d = it->second;
    ir::TensorSharding out = sharding;
    out.meshName = d.mainName;
    for (auto& dim : out.dims)
      dim.axes = remap(*d.dup, *d.main, dim.axes);
    out.replicatedAxes = remap(*d.dup, *d.main, sharding.replicatedAxes);
    out.unreducedAxes = remap(*d.dup, *d.main, sharding.unreducedAxes);
    return out;
  });
  for (ir::Operation* op : meshes)
    if (duplicates.count(meshName(*op)))
      module.body().erase(op);
  return true;
}

} // namespace shardscope::import_
