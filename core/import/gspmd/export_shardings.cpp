// The way back from Shardy to GSPMD: XLA's `convertToHloSharding` and
// `-xla-sdy-stablehlo-export-shardings` (xla/service/spmd/shardy/stablehlo_round_trip/
// export_shardings.cc).
#include "core/import/gspmd/export_shardings.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace shardscope::import_::gspmd {

namespace {

using ir::AxisRef;
using ir::TensorSharding;

/// The key ManualAxes are kept under between the shard map export and this export.
constexpr const char* kManualAxesAttr = "xla.sdy.manual_axes";

int64_t axisSize(const ir::Mesh& mesh, const std::string& name) {
  for (const ir::MeshAxis& axis : mesh.axes)
    if (axis.name == name)
      return axis.size;
  return 1;
}

int64_t refSize(const ir::Mesh& mesh, const AxisRef& ref) {
  return ref.subAxis ? ref.subAxis->size : axisSize(mesh, ref.name);
}

std::string refKey(const AxisRef& ref) {
  if (!ref.subAxis)
    return ref.name;
  return ref.name + ":(" + std::to_string(ref.subAxis->preSize) + ")" +
         std::to_string(ref.subAxis->size);
}

// Shardy's `getOrderedAxisRefs`: every mesh axis in mesh order, split at every boundary of the
// sub-axes `sharding` uses, so that each axis ref of the sharding is one of the pieces.
std::vector<AxisRef> orderedAxisRefs(const TensorSharding& sharding, const ir::Mesh& mesh) {
  std::map<std::string, std::set<int64_t>> bounds;
  auto note = [&](const AxisRef& ref) {
    if (ref.subAxis) {
      bounds[ref.name].insert(ref.subAxis->preSize);
      bounds[ref.name].insert(ref.subAxis->preSize * ref.subAxis->size);
    }
  };
  for (const ir::DimensionSharding& dim : sharding.dims)
    std::for_each(dim.axes.begin(), dim.axes.end(), note);
  std::for_each(sharding.replicatedAxes.begin(), sharding.replicatedAxes.end(), note);
  std::for_each(sharding.unreducedAxes.begin(), sharding.unreducedAxes.end(), note);
  std::vector<AxisRef> result;
  for (const ir::MeshAxis& axis : mesh.axes) {
    std::set<int64_t> cuts = bounds[axis.name];
    cuts.insert(1);
    cuts.insert(axis.size);
    int64_t previous = 1;
    for (int64_t cut : cuts) {
      if (cut == 1)
        continue;
      if (previous == 1 && cut == axis.size)
        result.push_back({axis.name, std::nullopt});
      else
        result.push_back({axis.name, ir::SubAxisInfo{previous, cut / previous}});
      previous = cut;
    }
  }
  return result;
}

void appendNamedAxis(const AxisRef& ref, std::string& out) {
  out += "'" + ref.name + "'";
  if (ref.subAxis)
    out += ":(" + std::to_string(ref.subAxis->preSize) + ")" + std::to_string(ref.subAxis->size);
}

void appendNamedAxisList(const char* label, const std::vector<AxisRef>& axes, std::string& out) {
  if (axes.empty())
    return;
  out += std::string(", ") + label + "={";
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i)
      out += ", ";
    appendNamedAxis(axes[i], out);
  }
  out += '}';
}

} // namespace

HloSharding toHloSharding(const TensorSharding& sharding, const ir::Mesh& mesh,
                          std::span<const std::string> manualAxes) {
  if (mesh.axes.empty())
    return mesh.deviceIds.empty() ? HloSharding::replicate()
                                  : HloSharding::maximal(mesh.deviceIds.front());
  if (mesh.axes.size() == manualAxes.size())
    return HloSharding::manual();

  std::vector<int64_t> tileDims(sharding.dims.size(), 1);
  std::map<std::string, int64_t> shardedPos;
  std::vector<SubgroupType> types;
  int64_t position = 0;
  for (size_t d = 0; d < sharding.dims.size(); ++d)
    for (const AxisRef& ref : sharding.dims[d].axes) {
      tileDims[d] *= refSize(mesh, ref);
      shardedPos[refKey(ref)] = position++;
    }
  if (!manualAxes.empty()) {
    types.push_back(SubgroupType::Manual);
    int64_t size = 1;
    for (const std::string& axis : manualAxes) {
      size *= axisSize(mesh, axis);
      shardedPos[axis] = position++;
    }
    tileDims.push_back(size);
  }
  if (!sharding.unreducedAxes.empty()) {
    types.push_back(SubgroupType::Unreduced);
    int64_t size = 1;
    for (const AxisRef& ref : sharding.unreducedAxes) {
      size *= refSize(mesh, ref);
      shardedPos[refKey(ref)] = position++;
    }
    tileDims.push_back(size);
  }

  // Every mesh (sub-)axis becomes one iota dimension; the transpose puts the sharded ones first
  // in sharding order, then the replicated ones in mesh order.
  std::vector<AxisRef> refs = orderedAxisRefs(sharding, mesh);
  std::vector<int64_t> reshapeDims(refs.size());
  std::vector<int64_t> perm(refs.size());
  int64_t replicatedPos = position;
  int64_t replicatedSize = 1;
  for (size_t k = 0; k < refs.size(); ++k) {
    reshapeDims[k] = refSize(mesh, refs[k]);
    auto it = shardedPos.find(refKey(refs[k]));
    if (it == shardedPos.end()) {
      if (replicatedPos < static_cast<int64_t>(perm.size()))
        perm[replicatedPos] = static_cast<int64_t>(k);
      ++replicatedPos;
      replicatedSize *= reshapeDims[k];
    } else if (it->second < static_cast<int64_t>(perm.size())) {
      perm[it->second] = static_cast<int64_t>(k);
    }
  }
  if (replicatedSize > 1) {
    tileDims.push_back(replicatedSize);
    types.push_back(SubgroupType::Replicated);
  }
  TileAssignment tiles = TileAssignment::iota(tileDims, reshapeDims, perm);
  if (!mesh.deviceIds.empty()) {
    std::vector<int64_t> devices = tiles.materialize();
    for (int64_t& device : devices)
      device = device < static_cast<int64_t>(mesh.deviceIds.size()) ? mesh.deviceIds[device] : device;
    tiles = TileAssignment::explicitDevices(tileDims, std::move(devices));
  }
  return HloSharding::subgroup(std::move(tiles), std::move(types));
}

std::string toNamedShardingString(const TensorSharding& sharding, const ir::Mesh& mesh,
                                  std::span<const std::string> manualAxes,
                                  bool simplifyReplicated) {
  if (mesh.axes.empty() && !mesh.deviceIds.empty())
    return "{maximal device=" + std::to_string(mesh.deviceIds.front()) + "}";
  bool shardsNothing = sharding.unreducedAxes.empty() && manualAxes.empty() &&
                       std::all_of(sharding.dims.begin(), sharding.dims.end(),
                                   [](const ir::DimensionSharding& dim) {
                                     return dim.axes.empty() && dim.isClosed;
                                   });
  if (simplifyReplicated && shardsNothing)
    return "{mesh[], replicated}";
  std::string out = "{mesh[";
  for (size_t i = 0; i < mesh.axes.size(); ++i) {
    if (i)
      out += ',';
    out += "'" + mesh.axes[i].name + "'=" + std::to_string(mesh.axes[i].size);
  }
  out += "]";
  if (!mesh.deviceIds.empty()) {
    out += ", device_ids=[";
    for (size_t i = 0; i < mesh.deviceIds.size(); ++i)
      out += (i ? "," : "") + std::to_string(mesh.deviceIds[i]);
    out += "]";
  }
  out += ", [";
  for (size_t d = 0; d < sharding.dims.size(); ++d) {
    const ir::DimensionSharding& dim = sharding.dims[d];
    out += d ? ", {" : "{";
    for (size_t i = 0; i < dim.axes.size(); ++i) {
      if (i)
        out += ", ";
      appendNamedAxis(dim.axes[i], out);
    }
    if (!dim.isClosed)
      out += dim.axes.empty() ? "?" : ", ?";
    out += '}';
  }
  out += ']';
  appendNamedAxisList("replicated", sharding.replicatedAxes, out);
  appendNamedAxisList("unreduced", sharding.unreducedAxes, out);
  std::vector<AxisRef> manual;
  for (const std::string& axis : manualAxes)
    manual.push_back({axis, std::nullopt});
  appendNamedAxisList("manual", manual, out);
  out += '}';
  return out;
}

std::string gspmdString(const TensorSharding& sharding, const ir::Module& module,
                        std::span<const std::string> manualAxes) {
  const ir::Mesh* mesh = ir::resolveMesh(module, sharding);
  return mesh ? toHloSharding(sharding, *mesh, manualAxes).toString() : std::string();
}

std::vector<std::string> enclosingManualAxes(const ir::Value& value) {
  const ir::Operation* op = value.definingOp();
  if (!op && value.ownerBlock())
    op = value.ownerBlock()->parentOp();
  else if (op)
    op = op->parentOp();
  std::vector<std::string> axes;
  for (; op; op = op->parentOp()) {
    if (!op->is("sdy.manual_computation"))
      continue;
    if (const auto* manual = op->attr("manual_axes").as<ir::ManualAxesAttr>())
      axes.insert(axes.begin(), manual->axes.begin(), manual->axes.end());
  }
  return axes;
}

namespace {

class ShardingExporter {
public:
  ShardingExporter(ir::Module& module, const ExportShardingsOptions& options,
                   support::DiagnosticSink& sink)
      : m_module(module), m_options(options), m_sink(sink) {}

  bool run();

private:
  std::optional<std::string> leafString(const TensorSharding& sharding,
                                        std::span<const std::string> manualAxes,
                                        support::SourceLocation loc);
  void exportFunction(ir::Operation& fn);
  void exportOp(ir::Operation& op);
  void inlineMeshesOfManualComputations();
  void exportModuleShardings();

  ir::Module& m_module;
  const ExportShardingsOptions& m_options;
  support::DiagnosticSink& m_sink;
  bool m_failed = false;
};

std::vector<std::string> manualAxesOf(const ir::Attribute& attr) {
  if (const auto* axes = attr.as<ir::ManualAxesAttr>())
    return axes->axes;
  return {};
}

std::optional<std::string> ShardingExporter::leafString(const TensorSharding& sharding,
                                                        std::span<const std::string> manualAxes,
                                                        support::SourceLocation loc) {
  const ir::Mesh* mesh = ir::resolveMesh(m_module, sharding);
  if (!mesh) {
    m_sink.error(loc, "cannot export sharding: unknown mesh '@" + sharding.meshName + "'");
    m_failed = true;
    return std::nullopt;
  }
  if (m_options.enableHloShardingV3)
    return toNamedShardingString(sharding, *mesh, manualAxes,
                                 m_options.simplifyReplicatedShardings);
  return toHloSharding(sharding, *mesh, manualAxes).toString();
}

void ShardingExporter::exportFunction(ir::Operation& fn) {
  ir::Type type = ir::func::type(fn);
  auto exportSide = [&](unsigned count, auto getAttrs, auto setAttr) {
    for (unsigned i = 0; i < count; ++i) {
      const ir::DictionaryAttr* attrs = getAttrs(fn, i);
      if (!attrs)
        continue;
      const auto* sharding = attrs->get("sdy.sharding").template as<ir::ShardingAttr>();
      if (!sharding)
        continue;
      std::vector<std::string> manual = manualAxesOf(attrs->get(kManualAxesAttr));
      std::optional<std::string> text = leafString(sharding->sharding, manual, fn.loc());
      if (!text)
        continue;
      setAttr(fn, i, kManualAxesAttr, ir::Attribute());
      setAttr(fn, i, "mhlo.sharding", ir::Attribute::string(*text));
      setAttr(fn, i, "sdy.sharding", ir::Attribute());
    }
  };
  exportSide(static_cast<unsigned>(type.elements().size()), ir::func::argAttrs,
             ir::func::setArgAttr);
  exportSide(static_cast<unsigned>(type.results().size()), ir::func::resultAttrs,
             ir::func::setResultAttr);
}

void ShardingExporter::exportOp(ir::Operation& op) {
  std::vector<std::string> manual = manualAxesOf(op.attr(kManualAxesAttr));
  op.removeAttr(kManualAxesAttr);
  const auto* perValue = op.attr("sdy.sharding").as<ir::ShardingPerValueAttr>();
  if (!perValue) {
    bool controlFlow =
        op.is("stablehlo.while") || op.is("stablehlo.case") || op.is("stablehlo.if");
    if (m_options.addMissingShardingToControlFlow && controlFlow && !op.hasAttr("mhlo.sharding"))
      op.setAttr("mhlo.sharding", ir::Attribute::string(m_options.enableHloShardingV3
                                                            ? "{mesh[], replicated}"
                                                            : "{replicated}"));
    return;
  }
  std::vector<std::string> leaves;
  for (const TensorSharding& sharding : perValue->shardings) {
    std::optional<std::string> text = leafString(sharding, manual, op.loc());
    if (!text)
      return;
    leaves.push_back(std::move(*text));
  }
  std::string text;
  if (leaves.size() == 1 && op.numResults() <= 1) {
    text = leaves.front();
  } else {
    text = "{";
    for (size_t i = 0; i < leaves.size(); ++i) {
      if (i > 0)
        text += i % 5 == 0 ? ", /*index=" + std::to_string(i) + "*/" : std::string(", ");
      text += leaves[i];
    }
    text += "}";
  }
  op.removeAttr("sdy.sharding");
  op.setAttr("mhlo.sharding", ir::Attribute::string(std::move(text)));
}

// The entry computation's parameter and output shardings, kept on the module by JAX, become
// XLA's `mhlo.spmd_parameters_shardings` (one string per parameter) and
// `mhlo.spmd_output_sharding` (one string, a tuple for several outputs).
void ShardingExporter::exportModuleShardings() {
  ir::Operation& module = m_module.op();
  auto strings = [&](const char* name) {
    std::vector<std::string> result;
    if (const auto* perValue = module.attr(name).as<ir::ShardingPerValueAttr>())
      for (const TensorSharding& sharding : perValue->shardings)
        if (std::optional<std::string> text = leafString(sharding, {}, module.loc()))
          result.push_back(std::move(*text));
    return result;
  };
  if (module.hasAttr("sdy.parameters_shardings")) {
    std::vector<ir::Attribute> elements;
    for (std::string& text : strings("sdy.parameters_shardings"))
      elements.push_back(ir::Attribute::string(std::move(text)));
    module.removeAttr("sdy.parameters_shardings");
    module.setAttr("mhlo.spmd_parameters_shardings", ir::Attribute::array(std::move(elements)));
  }
  if (module.hasAttr("sdy.output_shardings")) {
    std::vector<std::string> outputs = strings("sdy.output_shardings");
    std::string text = outputs.size() == 1 ? outputs.front() : "{";
    if (outputs.size() != 1) {
      for (size_t i = 0; i < outputs.size(); ++i)
        text += (i ? ", " : "") + outputs[i];
      text += "}";
    }
    module.removeAttr("sdy.output_shardings");
    module.setAttr("mhlo.spmd_output_sharding", ir::Attribute::string(std::move(text)));
  }
}

// The meshes go away with the export; a manual computation kept in Shardy form keeps them
// inline (`<mesh<["x"=2]>, [...]>`), so the module stays valid.
void ShardingExporter::inlineMeshesOfManualComputations() {
  auto inlined = [&](TensorSharding sharding) {
    if (!sharding.inlineMesh)
      if (const ir::Mesh* mesh = m_module.lookupMesh(sharding.meshName)) {
        sharding.inlineMesh = std::make_shared<const ir::Mesh>(*mesh);
        sharding.meshName.clear();
      }
    return sharding;
  };
  auto rewrite = [&](ir::Operation& op) {
    std::vector<std::pair<std::string, ir::Attribute>> updates;
    for (const ir::NamedAttribute& named : op.attributes()) {
      ir::Attribute attr(named.value);
      if (const auto* one = attr.as<ir::ShardingAttr>()) {
        updates.emplace_back(named.name, ir::Attribute::sharding(inlined(one->sharding)));
      } else if (const auto* many = attr.as<ir::ShardingPerValueAttr>()) {
        std::vector<TensorSharding> shardings;
        for (const TensorSharding& sharding : many->shardings)
          shardings.push_back(inlined(sharding));
        updates.emplace_back(named.name, ir::Attribute::shardingPerValue(std::move(shardings)));
      }
    }
    for (auto& [name, attr] : updates)
      op.setAttr(name, std::move(attr));
  };
  for (ir::Operation* fn : m_module.functions())
    fn->walk([&](ir::Operation& op) {
      if (op.is("sdy.manual_computation") && !op.parentOfName("sdy.manual_computation"))
        op.walk(rewrite);
    });
}

bool ShardingExporter::run() {
  // Manual computations stay as they are (their export to XLA's custom calls is not modelled),
  // and so do the meshes they refer to.
  bool keptManual = false;
  std::function<void(ir::Operation&)> visit = [&](ir::Operation& op) {
    if (op.is("sdy.manual_computation")) {
      keptManual = true;
      return;
    }
    if (!op.is("func.func"))
      exportOp(op);
    for (unsigned r = 0; r < op.numRegions(); ++r)
      for (auto& block : op.region(r).blocks())
        for (auto& nested : block->ops())
          visit(*nested);
  };
  for (ir::Operation* fn : m_module.functions()) {
    exportFunction(*fn);
    visit(*fn);
  }
  // StableHLO has no `erf` / `topk`: their sharding rides in `mhlo.attributes`, which the
  // conversion to MHLO lifts back onto the op.
  for (ir::Operation* fn : m_module.functions())
    fn->walk([&](ir::Operation& op) {
      if (!op.is("stablehlo.custom_call"))
        return;
      const auto* target = op.attr("call_target_name").as<ir::StringAttr>();
      ir::Attribute sharding = op.attr("mhlo.sharding");
      if (!target || !sharding || (target->value != "mhlo.erf" && target->value != "mhlo.topk"))
        return;
      std::vector<ir::NamedAttribute> entries;
      if (const auto* dict = op.attr("mhlo.attributes").as<ir::DictionaryAttr>())
        entries = dict->entries;
      entries.push_back({"mhlo.sharding", sharding.impl()});
      std::sort(entries.begin(), entries.end(),
                [](const ir::NamedAttribute& a, const ir::NamedAttribute& b) {
                  return a.name < b.name;
                });
      op.removeAttr("mhlo.sharding");
      op.setAttr("mhlo.attributes", ir::Attribute::dictionary(std::move(entries)));
    });
  exportModuleShardings();
  if (m_failed)
    return false;
  if (keptManual)
    inlineMeshesOfManualComputations();
  ir::Block& body = m_module.body();
  std::vector<ir::Operation*> meshes;
  for (const auto& op : body.ops())
    if (op->is("sdy.mesh"))
      meshes.push_back(op.get());
  for (ir::Operation* mesh : meshes)
    body.erase(mesh);
  return true;
}

} // namespace

bool exportShardings(ir::Module& module, const ExportShardingsOptions& options,
                     support::DiagnosticSink& sink) {
  return ShardingExporter(module, options, sink).run();
}

} // namespace shardscope::import_::gspmd
