#include "core/import/round_trip/remove_size_one_axes.h"

#include "core/import/round_trip/sharding_transform.h"

#include <algorithm>
#include <vector>

namespace shardscope::import_ {

namespace {

bool isSizeOne(const ir::Mesh& mesh, const ir::AxisRef& axis) {
  if (axis.subAxis)
    return axis.subAxis->size == 1;
  for (const auto& meshAxis : mesh.axes)
    if (meshAxis.name == axis.name)
      return meshAxis.size == 1;
  return false;
}

class SizeOneAxisRemover {
public:
  explicit SizeOneAxisRemover(const ir::Module& module) : m_module(module) {}

  ir::TensorSharding apply(const ir::TensorSharding& sharding) const {
    const ir::Mesh* mesh = ir::resolveMesh(m_module, sharding);
    if (!mesh)
      return sharding;
    auto sizeOne = [&](const ir::AxisRef& axis) { return isSizeOne(*mesh, axis); };
    ir::TensorSharding out = sharding;
    for (auto& dim : out.dims) {
      std::erase_if(dim.axes, sizeOne);
      if (dim.axes.empty() && dim.isClosed)
        dim.priority.reset();
    }
    std::erase_if(out.replicatedAxes, sizeOne);
    std::erase_if(out.unreducedAxes, sizeOne);
    return out;
  }

private:
  const ir::Module& m_module;
};

bool hasSizeOneAxis(const ir::Module& module) {
  for (const auto& op : module.body().ops()) {
    const auto* mesh = op->is("sdy.mesh") ? op->attr("mesh").as<ir::MeshAttr>() : nullptr;
    if (mesh && std::any_of(mesh->mesh.axes.begin(), mesh->mesh.axes.end(),
                            [](const ir::MeshAxis& a) { return a.size == 1; }))
      return true;
  }
  return false;
}

} // namespace

bool removeSizeOneAxes(ir::Module& module, support::DiagnosticSink& /*sink*/) {
  if (!hasSizeOneAxis(module))
    return true;
  SizeOneAxisRemover remover(module);
  transformShardings(module, [&](const ir::TensorSharding& s) { return remover.apply(s); });
  return true;
}

} // namespace shardscope::import_
