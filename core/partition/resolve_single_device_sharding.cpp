#include "core/partition/resolve_single_device_sharding.h"

#include "core/partition/detail/hlo_builder.h"
#include "core/sharding/mesh_view.h"
#include "core/sharding/value_sharding.h"

#include <algorithm>
#include <numeric>
#include <optional>

namespace shardscope::partition {
namespace {

using ir::Attribute;
using ir::Operation;
using ir::TensorSharding;
using ir::Value;

bool hasAxes(const TensorSharding& s) {
  return std::any_of(s.dims.begin(), s.dims.end(),
                     [](const ir::DimensionSharding& d) { return !d.axes.empty(); });
}

// The number of devices the program runs on: the replica or partition count when given, else
// the largest mesh of the module.
int64_t deviceCount(const ir::Module& module, const detail::DeviceModel& model) {
  if (model.replicaCount > 1 || model.partitionCount > 1)
    return model.replicaCount * model.partitionCount;
  int64_t count = 1;
  for (const auto& op : module.body().ops()) {
    if (!op->is("sdy.mesh"))
      continue;
    const auto* mesh = op->attr("mesh").as<ir::MeshAttr>();
    if (!mesh)
      continue;
    sharding::MeshView view(mesh->mesh);
    count = std::max(count, view.totalSize());
    for (int64_t id : view.deviceIds())
      count = std::max(count, id + 1);
  }
  return count;
}

// Gathers `value` when it is sharded over a mesh; returns the replicated value.
Value* gatherIfSharded(Operation& before, Value* value, const ir::Module& module,
                       std::vector<InsertedCollective>* log) {
  std::optional<TensorSharding> s = sharding::valueSharding(*value);
  if (!s || !hasAxes(*s) || !ir::resolveMesh(module, *s))
    return value;
  TensorSharding replicated;
  replicated.meshName = s->meshName;
  replicated.inlineMesh = s->inlineMesh;
  replicated.dims.assign(s->dims.size(), ir::DimensionSharding{});
  std::vector<std::vector<ir::AxisRef>> axes;
  for (const auto& d : s->dims)
    axes.push_back(d.axes);
  std::vector<Value*> operands{value};
  std::vector<ir::Type> types{value->type()};
  auto op = Operation::create("sdy.all_gather", operands, types, before.loc());
  op->setAttr("gathering_axes", Attribute::axisRefListList(axes));
  op->setInherent("gathering_axes", true);
  op->setAttr("out_sharding", Attribute::sharding(replicated));
  op->setInherent("out_sharding", true);
  Operation* inserted = before.parentBlock()->insertBefore(&before, std::move(op));
  if (log) {
    InsertedCollective entry;
    entry.op = inserted;
    entry.reason = "an operand of an op on a single device is gathered first";
    entry.producerSharding = Attribute::sharding(*s).str();
    entry.neededSharding = Attribute::sharding(replicated).str();
    entry.consumer = &before;
    entry.producer = value->definingOp();
    log->push_back(std::move(entry));
  }
  return inserted->result(0);
}

} // namespace

bool resolveSingleDeviceSharding(ir::Module& module,
                                 const ResolveSingleDeviceShardingOptions& options,
                                 support::DiagnosticSink&, std::vector<InsertedCollective>* log) {
  detail::DeviceModel model{options.replicaCount, options.partitionCount};
  int64_t devices = deviceCount(module, model);
  std::vector<int64_t> all(static_cast<size_t>(devices));
  std::iota(all.begin(), all.end(), 0);
  // Finding a fresh channel handle walks the whole module: only do it for a program that has an
  // op on a single device.
  std::optional<int64_t> nextChannel;
  for (Operation* fn : module.functions()) {
    std::vector<Operation*> ops;
    fn->walk([&](Operation& op) {
      if (&op != fn && op.attr("sdy.sharding").as<ir::ShardingPerValueAttr>())
        ops.push_back(&op);
    });
    for (Operation* op : ops) {
      const auto* attr = op->attr("sdy.sharding").as<ir::ShardingPerValueAttr>();
      if (attr->shardings.empty())
        continue;
      const ir::Mesh* mesh = ir::resolveMesh(module, attr->shardings.front());
      if (!mesh || !sharding::MeshView(*mesh).isMaximal())
        continue;
      int64_t device = mesh->deviceIds.front();
      if (!nextChannel)
        nextChannel = detail::nextChannelHandle(module);
      detail::HloBuilder b(*op, model, &*nextChannel);
      for (unsigned i = 0; i < op->numOperands(); ++i) {
        Value* value = op->operand(i);
        ir::Type type = value->type();
        if (!type.isTensor() || !type.hasStaticShape() || ir::isComplexElement(type.elementType()))
          continue;
        value = gatherIfSharded(*op, value, module, log);
        // Device `device`'s value, everywhere: mask the others to zero and add over all devices.
        Value* isOwner = b.compare("EQ", b.deviceId(), b.scalarI64(device));
        Value* mask = b.broadcast(isOwner, ir::Type::tensor(type.shape(), ir::ElementType::I1), {});
        Value* masked = b.select(mask, value, b.zeros(type));
        std::vector<Value*> operands{masked};
        std::vector<ir::Type> types{type};
        Operation* reduce = b.create("stablehlo.all_reduce", operands, types,
                                     b.collectiveAttrs({all}, /*globalIds=*/true));
        bool isBool = type.elementType() == ir::ElementType::I1;
        b.addReductionRegion(*reduce, type.elementType(), isBool ? "or" : "add");
        if (log) {
          InsertedCollective entry;
          entry.op = reduce;
          entry.reason = "'" + std::string(op->name()) + "' runs on device " +
                         std::to_string(device) + ": every device takes that device's operand " +
                         std::to_string(i);
          entry.consumer = op;
          entry.producer = op->operand(i)->definingOp();
          log->push_back(std::move(entry));
        }
        op->setOperand(i, reduce->result(0));
      }
    }
  }
  return true;
}

} // namespace shardscope::partition
