#include "widgets/controller/value_rows.h"

#include "widgets/controller/op_ids.h"

#include "core/session/debug_name.h"
#include "core/session/input_form.h"
#include "core/sharding/axis_refs.h"
#include "core/sharding/notation.h"
#include "core/sharding/sharding_layout.h"
#include "core/sharding/value_sharding.h"

#include <map>

namespace shardscope::widgets {

namespace {

std::string plainTyped(ir::Type type) {
  if (!type.isTensor())
    return type.str();
  std::string out = sharding::jaxDtypeName(type.elementType()) + "[";
  for (size_t d = 0; d < type.shape().size(); ++d) {
    if (d)
      out += ',';
    const int64_t size = type.shape()[d];
    out += size == ir::kDynamicSize ? "?" : std::to_string(size);
  }
  return out + "]";
}

} // namespace

LayoutInfo layoutInfo(const ir::Module& module, const ir::TensorSharding& s, ir::Type type) {
  LayoutInfo info;
  if (!type.isTensor() || !type.hasStaticShape())
    return info;
  const ir::Mesh* mesh = ir::resolveMesh(module, s);
  if (!mesh)
    return info;
  std::string error;
  std::optional<sharding::ShardingLayout> layout =
      sharding::ShardingLayout::create(s, *mesh, type.shape(), &error);
  if (!layout) {
    info.error = QString::fromStdString(error);
    return info;
  }
  info.valid = true;
  for (int64_t d : layout->globalShape())
    info.shape.push_back(d);
  for (int64_t d : layout->shardsPerDim())
    info.shards.push_back(d);
  for (int64_t d : layout->localShape())
    info.localShape.push_back(d);
  for (const sharding::DeviceBlock& b : layout->blocks()) {
    DeviceBlockInfo block;
    block.device = b.deviceId;
    for (int64_t i : b.shardIndex)
      block.shardIndex.push_back(i);
    for (const sharding::IndexRange& r : b.ranges) {
      block.begin.push_back(r.begin);
      block.end.push_back(r.end);
    }
    info.blocks.push_back(block);
  }
  for (const std::vector<int64_t>& group : layout->replicaGroups()) {
    QVector<qint64> g;
    for (int64_t d : group)
      g.push_back(d);
    info.replicaGroups.push_back(g);
  }
  if (s.unreducedAxes.empty()) {
    info.blockGroups = info.replicaGroups;
  } else {
    // Replica groups are sorted by shard index first, so the groups of one block are adjacent.
    const std::vector<sharding::DeviceBlock>& blocks = layout->blocks();
    std::map<std::vector<int64_t>, int> blockIndex;
    for (const sharding::DeviceBlock& b : blocks) {
      auto [it, inserted] = blockIndex.emplace(b.shardIndex, info.blockGroups.size());
      if (inserted)
        info.blockGroups.push_back({});
      info.blockGroups[it->second].push_back(b.deviceId);
    }
    for (const ir::AxisRef& axis : s.unreducedAxes)
      info.partialAxes.push_back(QString::fromStdString(sharding::axisRefString(axis)).remove(QLatin1Char('"')));
    info.partialKind = QString::fromStdString(s.unreducedKind);
  }
  return info;
}

bool collectValues(const ir::Module& module, const analysis::ShardMapAnalysis* shardMaps,
                   QVector<ValueRow>& out, const std::atomic<bool>* cancel,
                   const analysis::ExplicitTyping* typing) {
  const auto stopped = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
  const auto names = displayValueNames(module);
  auto rowFor = [&](const ir::Value& value, const ir::Operation& fn) {
    ValueRow row;
    auto it = names.find(&value);
    row.name = it != names.end() ? QString::fromStdString(it->second) : QStringLiteral("?");
    row.function = qs(ir::func::name(fn));
    row.type = QString::fromStdString(value.type().str());
    // What the devices hold: a partial result before its reduction says so (`unreduced={'x'}`).
    std::optional<ir::TensorSharding> s = sharding::heldSharding(value);
    if (s) {
      row.typed = QString::fromStdString(sharding::jaxTypedNotation(*s, value.type()));
      row.spec = QString::fromStdString(sharding::partitionSpecNotation(*s));
      row.shardy = QString::fromStdString(sharding::shardyNotation(*s));
      row.gspmd = QString::fromStdString(session::gspmdNotation(module, value));
      // The layout the data really has: partial results before an all_reduce differ per device.
      row.layout = layoutInfo(module, *s, value.type());
    } else {
      row.typed = QString::fromStdString(plainTyped(value.type()));
    }
    if (const analysis::ExplicitType* t = typing ? typing->typeOf(value) : nullptr; t && t->known)
      row.typed = QString::fromStdString(analysis::shortTypeStr(*t));
    row.jaxName = qs(session::debugNameOf(module, value).jaxName);
    const analysis::VarianceSet* v = shardMaps ? shardMaps->variance.varianceOf(value) : nullptr;
    if (v) {
      row.variance = QString::fromStdString(v->str());
      for (const std::string& axis : v->axes())
        row.varyingAxes.push_back(QString::fromStdString(axis));
    }
    return row;
  };
  for (ir::Operation* fn : module.functions()) {
    const ir::Block* body = ir::func::body(*fn);
    if (!body)
      continue;
    if (stopped())
      return false;
    for (const auto& arg : body->arguments()) {
      ValueRow row = rowFor(*arg, *fn);
      row.id = QString::fromStdString(session::valueId(*arg));
      row.opName = QStringLiteral("argument");
      row.line = static_cast<int>(fn->loc().line);
      row.column = static_cast<int>(fn->loc().column);
      out.push_back(row);
    }
    int64_t visited = 0;
    bool cancelled = false;
    static_cast<const ir::Operation&>(*fn).walk([&](const ir::Operation& op) {
      // (A huge function is checked every 1024 ops: a queued command must not wait for it.)
      if (&op == fn || cancelled || (++visited % 1024 == 0 && (cancelled = stopped())))
        return;
      // Region arguments (a shard_map body's per-device operands, loop-carried values) first.
      for (unsigned r = 0; r < op.numRegions(); ++r) {
        const ir::Region& region = op.region(r);
        if (region.empty())
          continue;
        for (const auto& arg : region.front().arguments()) {
          ValueRow row = rowFor(*arg, *fn);
          row.opId = opIdOf(op);
          row.id = QString::fromStdString(session::valueId(*arg));
          row.opName = QStringLiteral("%1 region argument").arg(qs(op.name()));
          row.line = static_cast<int>(op.loc().line);
          row.column = static_cast<int>(op.loc().column);
          out.push_back(row);
        }
      }
      for (const auto& result : op.results()) {
        ValueRow row = rowFor(*result, *fn);
        row.opId = opIdOf(op);
        row.id = QString::fromStdString(session::valueId(*result));
        row.opName = qs(op.name());
        row.line = static_cast<int>(op.loc().line);
        row.column = static_cast<int>(op.loc().column);
        out.push_back(row);
      }
    });
    if (cancelled)
      return false;
  }
  return true;
}

} // namespace shardscope::widgets
