#include "core/partition/explicit_reshards_unreduced.h"

#include "core/partition/explicit_reshards_util.h"
#include "core/sharding/axis_refs.h"
#include "core/sharding/value_sharding.h"

#include <algorithm>
#include <utility>

namespace shardscope::partition {
namespace {

using ir::AxisRef;

AxisRef fromInterval(const std::string& name, int64_t lo, int64_t hi,
                     const sharding::MeshView& mesh) {
  if (lo == 1 && hi == mesh.axisSize(name))
    return AxisRef{name, std::nullopt};
  return AxisRef{name, ir::SubAxisInfo{lo, hi / lo}};
}

// Inserts collective `name` (with its axes attribute `key`) of `input` before `before`.
ir::Operation* insertCollective(ir::Operation& before, const char* name, const char* key,
                                ir::Attribute axes, ir::Value* input,
                                const ir::TensorSharding& out) {
  std::vector<ir::Value*> operands{input};
  std::vector<ir::Type> types{input->type()};
  auto op = ir::Operation::create(name, operands, types, before.loc());
  op->setAttr(key, std::move(axes));
  op->setInherent(key, true);
  op->setAttr("out_sharding", ir::Attribute::sharding(out));
  op->setInherent("out_sharding", true);
  return before.parentBlock()->insertBefore(&before, std::move(op));
}

} // namespace

std::vector<AxisRef> axisSetDiff(const std::vector<AxisRef>& a, const std::vector<AxisRef>& b,
                                 const sharding::MeshView& mesh) {
  return sharding::sortAndMerge(sharding::axisRefSetDiff(a, b, mesh), mesh);
}

std::optional<ir::TensorSharding>
allReduceUnreducedOperand(const ir::Module& module, ir::Operation& user, unsigned index,
                          const std::optional<ir::TensorSharding>& target, ir::Operation* before) {
  ir::Value* operand = user.operand(index);
  std::optional<ir::TensorSharding> source = sharding::valueSharding(*operand);
  if (!source || source->unreducedAxes.empty())
    return source;
  const ir::Mesh* mesh = ir::resolveMesh(module, *source);
  if (!mesh)
    return source;
  const sharding::MeshView view(*mesh);
  const std::vector<AxisRef> targetAxes = target ? target->unreducedAxes : std::vector<AxisRef>{};
  std::vector<AxisRef> axes = axisSetDiff(source->unreducedAxes, targetAxes, view);
  if (axes.empty())
    return source;
  ir::TensorSharding reduced = *source;
  reduced.unreducedAxes = targetAxes;
  if (targetAxes.empty())
    reduced.unreducedKind.clear();
  ir::Operation* at = before ? before : &user;
  user.setOperand(index, insertAllReduceBefore(*at, operand, axes, reduced, user.loc(),
                                               source->unreducedKind));
  return reduced;
}

bool makeOperandUnreduced(const ir::Module& module, ir::Operation& user, unsigned index,
                          const ir::TensorSharding& source, const ir::TensorSharding& target) {
  const ir::Mesh* mesh = ir::resolveMesh(module, source);
  if (!mesh || source.meshName != target.meshName || source.dims.size() != target.dims.size())
    return false;
  const sharding::MeshView view(*mesh);
  std::vector<AxisRef> added = axisSetDiff(target.unreducedAxes, source.unreducedAxes, view);
  if (added.empty() || !axisSetDiff(source.unreducedAxes, target.unreducedAxes, view).empty())
    return false;
  ir::Value* current = user.operand(index);
  bool sameDims = true;
  for (size_t d = 0; d < source.dims.size(); ++d)
    sameDims = sameDims && source.dims[d].axes == target.dims[d].axes;
  if (!sameDims) {
    ir::TensorSharding resharded = target;
    resharded.unreducedAxes = source.unreducedAxes;
    resharded.unreducedKind = source.unreducedKind;
    std::vector<ir::Value*> operands{current};
    std::vector<ir::Type> types{current->type()};
    auto reshard = ir::Operation::create("sdy.reshard", operands, types, user.loc());
    reshard->setAttr("sharding", ir::Attribute::sharding(resharded));
    reshard->setInherent("sharding", true);
    current = user.parentBlock()->insertBefore(&user, std::move(reshard))->result(0);
  }
  current = insertCollective(user, "sdy.replicated_to_unreduced", "axes",
                             ir::Attribute::axisRefList(added), current, target)
                ->result(0);
  user.setOperand(index, current);
  return true;
}

bool convertReshardToUnreducedCollectives(const ir::Module& module, ir::Operation& op) {
  if (!op.is("sdy.reshard") || op.numOperands() != 1)
    return false;
  std::optional<ir::TensorSharding> in = sharding::valueSharding(*op.operand(0));
  const auto* outAttr = op.attr("sharding").as<ir::ShardingAttr>();
  if (!in || !outAttr || outAttr->sharding.unreducedAxes.empty())
    return false;
  const ir::TensorSharding& out = outAttr->sharding;
  const ir::Mesh* mesh = ir::resolveMesh(module, *in);
  if (!mesh || in->meshName != out.meshName || in->dims.size() != out.dims.size())
    return false;
  const sharding::MeshView view(*mesh);
  std::vector<AxisRef> added = axisSetDiff(out.unreducedAxes, in->unreducedAxes, view);
  if (added.empty() || !axisSetDiff(in->unreducedAxes, out.unreducedAxes, view).empty())
    return false;
  // Each output dimension must keep a prefix of the input's axes; the rest becomes unreduced.
  std::vector<std::vector<AxisRef>> perDim(in->dims.size());
  std::vector<AxisRef> shardedAxes;
  for (size_t d = 0; d < in->dims.size(); ++d) {
    const std::vector<AxisRef>& inAxes = in->dims[d].axes;
    const std::vector<AxisRef>& outAxes = out.dims[d].axes;
    if (inAxes == outAxes)
      continue;
    if (outAxes.size() > inAxes.size() ||
        !std::equal(outAxes.begin(), outAxes.end() - (outAxes.empty() ? 0 : 1), inAxes.begin()))
      return false;
    if (!outAxes.empty() && !(outAxes.back() == inAxes[outAxes.size() - 1])) {
      const AxisRef& last = inAxes[outAxes.size() - 1];
      if (!sharding::axisPrefixOf(outAxes.back(), last))
        return false;
      const int64_t pre =
          sharding::MeshView::preSizeOf(outAxes.back()) * view.sizeOf(outAxes.back());
      const int64_t end = sharding::MeshView::preSizeOf(last) * view.sizeOf(last);
      perDim[d].push_back(fromInterval(last.name, pre, end, view));
    }
    perDim[d].insert(perDim[d].end(), inAxes.begin() + static_cast<std::ptrdiff_t>(outAxes.size()),
                     inAxes.end());
    shardedAxes.insert(shardedAxes.end(), perDim[d].begin(), perDim[d].end());
  }
  std::vector<AxisRef> replicated = axisSetDiff(added, shardedAxes, view);
  ir::Value* current = op.operand(0);
  if (!replicated.empty()) {
    ir::TensorSharding r2u = *in;
    r2u.replicatedAxes = out.replicatedAxes;
    std::vector<AxisRef> unreduced = in->unreducedAxes;
    unreduced.insert(unreduced.end(), replicated.begin(), replicated.end());
    r2u.unreducedAxes = sharding::sortAndMerge(std::move(unreduced), view);
    current = insertCollective(op, "sdy.replicated_to_unreduced", "axes",
                               ir::Attribute::axisRefList(replicated), current, r2u)
                  ->result(0);
  }
  if (!shardedAxes.empty())
    current = insertCollective(op, "sdy.sharded_to_unreduced", "sharding_axes",
                               ir::Attribute::axisRefListList(perDim), current, out)
                  ->result(0);
  const std::vector<ir::Use> uses = op.result(0)->uses();
  for (const ir::Use& use : uses)
    use.user->setOperand(use.index, current);
  forgetOp(op);
  op.parentBlock()->erase(&op);
  return true;
}

void allReduceUnreducedOperands(const ir::Module& module, ir::Operation& op) {
  if (op.numResults() == 0)
    return;
  // Nearly every op has no unreduced operand: check that without copying any sharding.
  bool anyUnreduced = false;
  for (ir::Value* operand : op.operands())
    if (const ir::TensorSharding* s = sharding::storedSharding(*operand))
      anyUnreduced = anyUnreduced || !s->unreducedAxes.empty();
  if (!anyUnreduced)
    return;
  std::optional<ir::TensorSharding> target = sharding::valueSharding(*op.result(0));
  // An explicit reduction (written, or inserted by an earlier run of this pass) is itself the
  // sum of the pending partial values over its axes: they count as unreduced where it reads them,
  // or the sum would be taken twice.
  if (target && (op.is("sdy.all_reduce") || op.is("sdy.reduce_scatter")))
    if (const auto* axes = op.attr("reduction_axes").as<ir::AxisRefListAttr>())
      if (const ir::Mesh* mesh = ir::resolveMesh(module, *target)) {
        std::vector<AxisRef> pending = target->unreducedAxes;
        pending.insert(pending.end(), axes->axes.begin(), axes->axes.end());
        target->unreducedAxes = sharding::sortAndMerge(std::move(pending), sharding::MeshView(*mesh));
      }
  for (unsigned i = 0; i < op.numOperands(); ++i)
    allReduceUnreducedOperand(module, op, i, target);
}

} // namespace shardscope::partition
