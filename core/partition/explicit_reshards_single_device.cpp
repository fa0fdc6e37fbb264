#include "core/partition/explicit_reshards_single_device.h"

#include "core/partition/explicit_reshards_util.h"
#include "core/sharding/mesh_view.h"
#include "core/sharding/sharding_equivalence.h"
#include "core/sharding/value_sharding.h"

#include <string>
#include <vector>

namespace shardscope::partition {
namespace {

using ir::TensorSharding;

bool onMaximalMesh(const ir::Module& module, const TensorSharding& sharding) {
  const ir::Mesh* mesh = ir::resolveMesh(module, sharding);
  return mesh && sharding::MeshView(*mesh).isMaximal();
}

// (A separate overload, so that asking about a sharding held elsewhere copies nothing.)
bool onMaximalMesh(const ir::Module& module, const std::optional<TensorSharding>& sharding) {
  return sharding && onMaximalMesh(module, *sharding);
}

// The mesh replicated values live on around a single-device op: the module's first mesh with
// axes.
std::string globalMeshName(const ir::Module& module) {
  for (const auto& op : module.body().ops()) {
    if (!op->is("sdy.mesh"))
      continue;
    const auto* mesh = op->attr("mesh").as<ir::MeshAttr>();
    const auto* name = op->attr("sym_name").as<ir::StringAttr>();
    if (mesh && name && !mesh->mesh.axes.empty())
      return name->value;
  }
  return {};
}

TensorSharding maximalSharding(const std::string& meshName) {
  TensorSharding out;
  out.meshName = meshName;
  return out;
}

void reshardOperands(ir::Operation& op, const std::string& global, const std::string& device,
                     const ir::Module& module) {
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    ir::Value* operand = op.operand(i);
    if (!operand->type().isTensor())
      continue;
    std::optional<TensorSharding> s = sharding::valueSharding(*operand);
    if (s && onMaximalMesh(module, s) && s->meshName == device)
      continue;
    ir::Value* current = operand;
    if (s && !onMaximalMesh(module, s) &&
        (!sharding::isFullyReplicated(s) || s->meshName != global))
      current =
          insertReshardBefore(op, current, replicatedOn(global, operand->type().rank()))->result(0);
    current = insertReshardBefore(op, current, maximalSharding(device))->result(0);
    op.setOperand(i, current);
  }
}

} // namespace

SingleDeviceOutcome processSingleDeviceOp(ir::Module& module, ir::Operation& op,
                                          ir::MeshResolver& meshes,
                                          support::DiagnosticSink& sink) {
  const auto* perValue = op.attr("sdy.sharding").as<ir::ShardingPerValueAttr>();
  if (!perValue || perValue->shardings.size() != op.numResults())
    return SingleDeviceOutcome::NotSingleDevice;
  std::string device;
  for (const TensorSharding& s : perValue->shardings) {
    const ir::Mesh* mesh = meshes(s);
    if (!mesh || !sharding::MeshView(*mesh).isMaximal())
      continue;
    if (!device.empty() && device != s.meshName) {
      sink.error(op.loc(), "'" + std::string(op.name()) +
                               "' op has conflicting single-device result shardings");
      return SingleDeviceOutcome::Failed;
    }
    device = s.meshName;
  }
  if (device.empty())
    return SingleDeviceOutcome::NotSingleDevice;
  const std::string global = globalMeshName(module);
  ir::Operation* after = nextOp(op);
  if (global.empty() || !after)
    return SingleDeviceOutcome::Handled;
  reshardOperands(op, global, device, module);
  std::vector<TensorSharding> shardings = perValue->shardings;
  for (unsigned r = 0; r < op.numResults(); ++r) {
    ir::Value* result = op.result(r);
    if (!result->type().isTensor())
      continue;
    const TensorSharding original = shardings[r];
    shardings[r] = maximalSharding(device);
    std::vector<ir::Use> uses = result->uses();
    ir::Value* current =
        insertReshardBefore(*after, result, replicatedOn(global, result->type().rank()))->result(0);
    if (!onMaximalMesh(module, original) &&
        (!sharding::isFullyReplicated(&original) || original.meshName != global))
      current = insertReshardBefore(*after, current, original)->result(0);
    for (const ir::Use& use : uses)
      use.user->setOperand(use.index, current);
  }
  op.setAttr("sdy.sharding", ir::Attribute::shardingPerValue(shardings));
  return SingleDeviceOutcome::Handled;
}

bool verifyNoSingleDeviceBoundary(const ir::Module& module, ir::Operation& func,
                                  support::DiagnosticSink& sink) {
  bool ok = true;
  auto check = [&](const ir::DictionaryAttr* attrs, const char* what, unsigned i) {
    if (!attrs)
      return;
    const auto* attr = attrs->get("sdy.sharding").as<ir::ShardingAttr>();
    if (attr && onMaximalMesh(module, attr->sharding)) {
      sink.error(func.loc(), "'func.func' op function " + std::string(what) + " " +
                                 std::to_string(i) +
                                 " cannot have a single-device (maximal) sharding attribute");
      ok = false;
    }
  };
  ir::Type type = ir::func::type(func);
  for (unsigned i = 0; i < type.elements().size(); ++i)
    check(ir::func::argAttrs(func, i), "argument", i);
  for (unsigned i = 0; i < type.results().size(); ++i)
    check(ir::func::resultAttrs(func, i), "result", i);
  return ok;
}

} // namespace shardscope::partition
