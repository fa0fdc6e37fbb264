// XLA's `-xla-sdy-import-shardings` (xla/service/spmd/shardy/stablehlo_round_trip/
// stablehlo_import.cc): GSPMD strings become Shardy shardings on one derived mesh.
#include "core/import/gspmd/import_shardings.h"

#include "core/import/gspmd/hlo_sharding_parser.h"
#include "core/import/gspmd/tile_analysis.h"

#include <functional>
#include <numeric>
#include <set>

namespace shardscope::import_::gspmd {

namespace {

using ir::AxisRef;
using ir::DimensionSharding;
using ir::TensorSharding;

enum class Where { Arg, Result, Op };

// One `mhlo.sharding` attribute: where it is and what it says.
struct Site {
  ir::Operation* op = nullptr; // the function for arguments and results
  Where where = Where::Op;
  unsigned index = 0;
  HloSharding sharding;
};

std::string describe(const Site& site) {
  switch (site.where) {
  case Where::Arg:
    return "argument " + std::to_string(site.index) + " of @" +
           std::string(ir::func::name(*site.op));
  case Where::Result:
    return "result " + std::to_string(site.index) + " of @" +
           std::string(ir::func::name(*site.op));
  case Where::Op:
    return "'" + std::string(site.op->name()) + "'";
  }
  return {};
}

int64_t rankOf(ir::Type type) { return type.isTensor() ? type.rank() : 0; }

class ShardingImporter {
public:
  ShardingImporter(ir::Module& module, const ImportShardingsOptions& options,
                   support::DiagnosticSink& sink)
      : m_module(module), m_options(options), m_sink(sink) {}

  bool run();

private:
  void collect();
  void collectFrom(ir::Operation* op, Where where, unsigned index, const ir::Attribute& attr);
  bool deriveMesh();
  void createMeshes();
  void convert(const Site& site);
  bool openDims(const Site& site) const;
  void report(const Site& site, const std::string& message);

  ir::Module& m_module;
  const ImportShardingsOptions& m_options;
  support::DiagnosticSink& m_sink;
  bool m_failed = false;
  std::vector<Site> m_sites;
  std::vector<int64_t> m_axes;
  std::set<int64_t> m_maximalDevices;
  ir::Mesh m_mesh;
  std::string m_meshName;
  std::map<int64_t, std::string> m_maximalMeshNames;
};

void ShardingImporter::report(const Site& site, const std::string& message) {
  if (m_options.unreadableSeverity == support::Severity::Error)
    m_failed = true;
  support::Diagnostic diag;
  diag.severity = m_options.unreadableSeverity;
  diag.loc = site.op->loc();
  diag.message = "cannot import '" + std::string(kXlaShardingAttr) + "' of " + describe(site) +
                 ": " + message;
  m_sink.report(std::move(diag));
}

void ShardingImporter::collectFrom(ir::Operation* op, Where where, unsigned index,
                                   const ir::Attribute& attr) {
  const auto* text = attr.as<ir::StringAttr>();
  if (!text)
    return;
  Site site{op, where, index, {}};
  HloShardingParseError error;
  std::optional<HloSharding> parsed = parseHloSharding(text->value, error);
  if (!parsed) {
    report(site, "\"" + text->value + "\": " + error.message + " at offset " +
                     std::to_string(error.offset));
    return;
  }
  site.sharding = std::move(*parsed);
  m_sites.push_back(std::move(site));
}

void ShardingImporter::collect() {
  for (ir::Operation* fn : m_module.functions()) {
    ir::Type type = ir::func::type(*fn);
    for (unsigned i = 0; i < type.elements().size(); ++i)
      if (const ir::DictionaryAttr* attrs = ir::func::argAttrs(*fn, i))
        collectFrom(fn, Where::Arg, i, attrs->get(kXlaShardingAttr));
    for (unsigned i = 0; i < type.results().size(); ++i)
      if (const ir::DictionaryAttr* attrs = ir::func::resultAttrs(*fn, i))
        collectFrom(fn, Where::Result, i, attrs->get(kXlaShardingAttr));
    fn->walk([&](ir::Operation& op) {
      if (&op != fn)
        collectFrom(&op, Where::Op, 0, op.attr(kXlaShardingAttr));
    });
  }
}

// The common mesh: the shortest common factorization of the local meshes of every tiled
// sharding, in the order they appear.
bool ShardingImporter::deriveMesh() {
  std::vector<Site> kept;
  for (Site& site : m_sites) {
    std::vector<const HloSharding*> leaves;
    if (site.sharding.isTuple())
      for (const HloSharding& element : site.sharding.tupleElements)
        leaves.push_back(&element);
    else
      leaves.push_back(&site.sharding);
    bool ok = true;
    for (const HloSharding* leaf : leaves) {
      if (leaf->kind == HloSharding::Kind::Maximal)
        m_maximalDevices.insert(leaf->device);
      if (!leaf->isTiled())
        continue;
      std::optional<TileAnalysis> analysis = analyzeTileAssignment(leaf->tiles);
      if (!analysis) {
        report(site, "the device order of \"" + leaf->toString() +
                         "\" cannot be expressed as mesh axes");
        ok = false;
        break;
      }
      std::vector<int64_t> common =
          m_axes.empty() ? analysis->localMesh
                         : shortestCommonFactorization(analysis->localMesh, m_axes);
      if (common.empty()) {
        report(site, "\"" + leaf->toString() +
                         "\" has no common mesh with the shardings before it");
        ok = false;
        break;
      }
      m_axes = std::move(common);
    }
    if (ok)
      kept.push_back(std::move(site));
  }
  m_sites = std::move(kept);
  return !m_axes.empty() || !m_maximalDevices.empty();
}

std::string uniqueSymbol(const ir::Module& module, const std::string& base) {
  auto taken = [&](const std::string& name) {
    return module.lookupMeshOp(name) || module.lookupFunction(name);
  };
  if (!taken(base))
    return base;
  for (int suffix = 0;; ++suffix)
    if (std::string name = base + "_" + std::to_string(suffix); !taken(name))
      return name;
}

std::unique_ptr<ir::Operation> meshOp(const std::string& name, ir::Mesh mesh,
                                      support::SourceLocation loc) {
  auto op = ir::Operation::create("sdy.mesh", {}, {}, loc);
  op->setAttr("sym_name", ir::Attribute::string(name));
  op->setAttr("mesh", ir::Attribute::mesh(std::move(mesh)));
  return op;
}

void ShardingImporter::createMeshes() {
  for (size_t i = 0; i < m_axes.size(); ++i)
    m_mesh.axes.push_back({m_options.axisPrefix + std::to_string(i), m_axes[i]});
  ir::Block& body = m_module.body();
  ir::Operation* first = body.empty() ? nullptr : body.ops().front().get();
  m_meshName = uniqueSymbol(m_module, "mesh");
  body.insertBefore(first, meshOp(m_meshName, m_mesh, m_module.op().loc()));
  for (int64_t device : m_maximalDevices) {
    std::string name = uniqueSymbol(m_module, m_options.maximalMeshPrefix + std::to_string(device));
    ir::Mesh maximal;
    maximal.deviceIds = {device};
    body.insertBefore(first, meshOp(name, std::move(maximal), m_module.op().loc()));
    m_maximalMeshNames[device] = name;
  }
}

bool pickOpen(const std::vector<bool>& allow, unsigned index) {
  if (allow.empty())
    return false;
  if (allow.size() == 1)
    return allow.front();
  return index < allow.size() && allow[index];
}

bool ShardingImporter::openDims(const Site& site) const {
  if (site.where == Where::Op || ir::func::name(*site.op) != "main")
    return false;
  return pickOpen(site.where == Where::Arg ? m_options.allowPropagationToArgs
                                           : m_options.allowPropagationToResults,
                  site.index);
}

void ShardingImporter::convert(const Site& site) {
  std::string error;
  auto toSdy = [&](const HloSharding& leaf, int64_t rank, bool open) {
    return toSdySharding(leaf, m_mesh, m_meshName, m_maximalMeshNames, rank, open, error);
  };
  ir::Type type = ir::func::type(*site.op);
  if (site.where != Where::Op) {
    bool isArg = site.where == Where::Arg;
    ir::Type valueType = isArg ? type.elements()[site.index] : type.results()[site.index];
    const HloSharding& leaf =
        site.sharding.isTuple() && !site.sharding.tupleElements.empty()
            ? site.sharding.tupleElements.front()
            : site.sharding;
    std::optional<TensorSharding> sdy = toSdy(leaf, rankOf(valueType), openDims(site));
    if (!sdy)
      return report(site, error);
    auto set = isArg ? ir::func::setArgAttr : ir::func::setResultAttr;
    set(*site.op, site.index, "sdy.sharding", ir::Attribute::sharding(std::move(*sdy)));
    set(*site.op, site.index, kXlaShardingAttr, {});
    return;
  }
  ir::Operation& op = *site.op;
  std::vector<HloSharding> flat =
      site.sharding.isTuple() ? site.sharding.tupleElements : std::vector{site.sharding};
  std::vector<TensorSharding> shardings;
  if (op.numResults() == 0) {
    if (flat.empty())
      return report(site, "an empty tuple sharding on an op without results");
    std::optional<TensorSharding> sdy = toSdy(flat.front(), 0, false);
    if (!sdy)
      return report(site, error);
    shardings.push_back(std::move(*sdy));
  } else {
    if (flat.size() != op.numResults())
      return report(site, "expected " + std::to_string(op.numResults()) +
                              " shardings (one per result), got " + std::to_string(flat.size()));
    for (unsigned i = 0; i < op.numResults(); ++i) {
      std::optional<TensorSharding> sdy = toSdy(flat[i], rankOf(op.result(i)->type()), false);
      if (!sdy)
        return report(site, error);
      shardings.push_back(std::move(*sdy));
    }
  }
  op.setAttr("sdy.sharding", ir::Attribute::shardingPerValue(std::move(shardings)));
  op.removeAttr(kXlaShardingAttr);
}

bool ShardingImporter::run() {
  collect();
  if (!deriveMesh())
    return !m_failed;
  createMeshes();
  for (const Site& site : m_sites)
    convert(site);
  return !m_failed;
}

// The global axes (or sub-axes) that make up each local axis, walking both major to minor.
std::optional<std::vector<std::vector<AxisRef>>>
localToGlobalAxes(const std::vector<int64_t>& localMesh, const ir::Mesh& mesh, std::string& error) {
  std::vector<std::vector<AxisRef>> result;
  size_t globalIndex = 0;
  int64_t preSize = 1;
  for (int64_t remaining : localMesh) {
    std::vector<AxisRef>& axes = result.emplace_back();
    while (remaining > 1) {
      if (globalIndex >= mesh.axes.size()) {
        error = "the local mesh is larger than the mesh";
        return std::nullopt;
      }
      int64_t globalRemaining = mesh.axes[globalIndex].size / preSize;
      if (globalRemaining == 1) {
        ++globalIndex;
        preSize = 1;
        continue;
      }
      int64_t gcd = std::gcd(remaining, globalRemaining);
      if (gcd == 1) {
        error = "incompatible local and mesh axis sizes: " + std::to_string(remaining) + " vs " +
                std::to_string(globalRemaining);
        return std::nullopt;
      }
      const std::string& name = mesh.axes[globalIndex].name;
      if (gcd == globalRemaining && preSize == 1)
        axes.push_back({name, std::nullopt});
      else
        axes.push_back({name, ir::SubAxisInfo{preSize, gcd}});
      preSize *= gcd;
      remaining /= gcd;
    }
  }
  return result;
}

} // namespace

std::optional<TensorSharding> toSdySharding(const HloSharding& sharding, const ir::Mesh& globalMesh,
                                            const std::string& meshName,
                                            const std::map<int64_t, std::string>& maximalMeshNames,
                                            int64_t rank, bool openDims, std::string& error) {
  TensorSharding result;
  result.meshName = meshName;
  switch (sharding.kind) {
  case HloSharding::Kind::Maximal: {
    // Where a value lives on one device its dimensions do not matter: a rank-0 sharding.
    auto it = maximalMeshNames.find(sharding.device);
    if (it == maximalMeshNames.end()) {
      error = "no mesh for device " + std::to_string(sharding.device);
      return std::nullopt;
    }
    result.meshName = it->second;
    return result;
  }
  case HloSharding::Kind::Tuple:
    error = "a tuple sharding for a single value";
    return std::nullopt;
  case HloSharding::Kind::Replicated:
  case HloSharding::Kind::Manual:
  case HloSharding::Kind::Unknown:
  case HloSharding::Kind::Unreduced: {
    bool closed = sharding.kind != HloSharding::Kind::Unknown && !openDims;
    result.dims.assign(rank, DimensionSharding{{}, closed, std::nullopt});
    if (sharding.kind == HloSharding::Kind::Unreduced)
      for (const ir::MeshAxis& axis : globalMesh.axes)
        result.unreducedAxes.push_back({axis.name, std::nullopt});
    return result;
  }
  case HloSharding::Kind::Tiled:
    break;
  }
  std::optional<TileAnalysis> analysis = analyzeTileAssignment(sharding.tiles);
  if (!analysis) {
    error = "the device order of \"" + sharding.toString() + "\" cannot be expressed as mesh axes";
    return std::nullopt;
  }
  int64_t meshSize = 1;
  for (const ir::MeshAxis& axis : globalMesh.axes)
    meshSize *= axis.size;
  int64_t localSize = std::accumulate(analysis->localMesh.begin(), analysis->localMesh.end(),
                                      int64_t{1}, std::multiplies<>());
  if (localSize != meshSize) {
    error = "\"" + sharding.toString() + "\" spans " + std::to_string(localSize) +
            " devices, the mesh " + std::to_string(meshSize);
    return std::nullopt;
  }
  if (rank != sharding.tiledDataRank()) {
    error = "\"" + sharding.toString() + "\" tiles " + std::to_string(sharding.tiledDataRank()) +
            " dimensions, the value has rank " + std::to_string(rank);
    return std::nullopt;
  }
  auto globalAxes = localToGlobalAxes(analysis->localMesh, globalMesh, error);
  if (!globalAxes)
    return std::nullopt;

  // Per data dimension, the local axes of its sub-dimensions (stored minor to major).
  std::vector<std::vector<int64_t>> subDimAxes(rank);
  for (size_t local = 0; local < analysis->subDims.size(); ++local) {
    const SubDimInfo& info = analysis->subDims[local];
    if (info.tileDimIndex >= rank)
      continue;
    auto& slots = subDimAxes[info.tileDimIndex];
    if (info.tileSubDimIndex >= static_cast<int64_t>(slots.size()))
      slots.resize(info.tileSubDimIndex + 1, -1);
    slots[info.tileSubDimIndex] = static_cast<int64_t>(local);
  }
  for (const auto& slots : subDimAxes) {
    DimensionSharding dim;
    dim.isClosed = !openDims;
    for (auto it = slots.rbegin(); it != slots.rend(); ++it)
      if (*it >= 0)
        for (const AxisRef& axis : (*globalAxes)[*it])
          dim.axes.push_back(axis);
    result.dims.push_back(std::move(dim));
  }
  // Axes of the subgroup dimensions. As in XLA, the subgroup kind is looked up by the
  // sub-dimension index, and a `last_tile_dim_replicate` sharding (which has no subgroup kinds)
  // lists no replicated axes: they are implied.
  for (size_t local = 0; local < analysis->subDims.size(); ++local) {
    const SubDimInfo& info = analysis->subDims[local];
    if (info.tileDimIndex < rank)
      continue;
    size_t subgroup = static_cast<size_t>(info.tileSubDimIndex);
    if (subgroup >= sharding.subgroupTypes.size())
      continue;
    SubgroupType type = sharding.subgroupTypes[subgroup];
    if (type == SubgroupType::Replicated)
      for (const AxisRef& axis : (*globalAxes)[local])
        result.replicatedAxes.push_back(axis);
    else if (type == SubgroupType::Unreduced)
      for (const AxisRef& axis : (*globalAxes)[local])
        result.unreducedAxes.push_back(axis);
  }
  return result;
}

bool importShardings(ir::Module& module, const ImportShardingsOptions& options,
                     support::DiagnosticSink& sink) {
  return ShardingImporter(module, options, sink).run();
}

} // namespace shardscope::import_::gspmd
