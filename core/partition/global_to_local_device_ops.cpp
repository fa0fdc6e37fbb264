#include "core/partition/detail/global_to_local_converter.h"

#include <algorithm>
#include <cstdint>
#include <iterator>

// -sdy-convert-global-to-local: the StableHLO ops whose per-device form depends on the device's
// position (its block's offsets, read from per-device-id tables) or on its local shapes.

namespace shardscope::partition::detail {
namespace {

using ir::Attribute;
using ir::AxisRef;
using ir::Operation;
using ir::Type;
using ir::Value;

} // namespace

bool GlobalToLocalConverter::rewriteConstant(Operation& op) {
  Value* result = op.result(0);
  Type global = globalType(result);
  Type local = result->type();
  Attribute value = op.attr("value");
  const auto* dense = value.as<ir::DenseElementsAttr>();
  HloBuilder b = builder(op);
  if (global == local || !dense) {
    if (op.is("stablehlo.constant"))
      return true;
    std::vector<Type> types{global};
    Operation* c = b.create("stablehlo.constant", {}, types, {namedAttr("value", value)});
    std::vector<Value*> with{c->result(0)};
    replace(op, with);
    return true;
  }
  auto layout = layoutOf(result);
  Value* out = nullptr;
  if (dense->isSplat) {
    auto storage = std::make_shared<ir::DenseElementsAttr>(*dense);
    storage->type = local;
    Attribute splat(std::shared_ptr<const ir::AttrStorage>(std::move(storage)));
    out = b.create1("stablehlo.constant", {}, local, {namedAttr("value", splat)});
  } else {
    Value* full = b.create1("stablehlo.constant", {}, global, {namedAttr("value", value)});
    std::vector<Value*> starts;
    std::vector<int64_t> localShape = layout->localShape();
    for (size_t d = 0; d < localShape.size(); ++d)
      starts.push_back(b.lookup(blockStarts(*layout, d, localShape[d])));
    out = b.dynamicSlice(full, starts, localShape);
    logOp(out, op, "each device keeps its block of the sharded constant");
  }
  std::vector<Value*> with{out};
  replace(op, with);
  return true;
}

bool GlobalToLocalConverter::rewriteIota(Operation& op) {
  Value* result = op.result(0);
  auto layout = layoutOf(result);
  auto dim = ir::stablehlo::intAttr(op, "iota_dimension");
  if (!layout || !dim || layout->shardsPerDim()[static_cast<size_t>(*dim)] == 1)
    return true;
  size_t d = static_cast<size_t>(*dim);
  int64_t localSize = result->type().shape()[d];
  HloBuilder b = builder(op);
  std::vector<Type> types{result->type()};
  Operation* iota =
      b.create("stablehlo.iota", {}, types, {namedAttr("iota_dimension", i64Attr(*dim))});
  Value* offset = b.lookup(blockStarts(*layout, d, localSize));
  Type scalar = Type::tensor({}, result->type().elementType());
  Value* shifted =
      b.binary("add", iota->result(0), b.broadcast(b.convert(offset, scalar), result->type(), {}));
  logOp(shifted, op, "the iota is offset by the start of the device's block");
  std::vector<Value*> with{shifted};
  replace(op, with);
  return true;
}

bool GlobalToLocalConverter::rewriteDynamicSlice(Operation& op) {
  // Sharded dimensions are sliced whole (see resolvePermutationFactors): local sizes.
  std::span<const int64_t> local = op.result(0)->type().shape();
  op.setAttr("slice_sizes", Attribute::denseI64Array({local.begin(), local.end()}));
  return true;
}

// Reverse and reshape stay as they are when every device's block maps to its own block; the
// element counts tell when they don't.
bool GlobalToLocalConverter::checkLocal(Operation& op) {
  Value* operand = op.operand(0);
  Value* result = op.result(0);
  bool bad = false;
  if (op.is("stablehlo.reshape")) {
    bad = operand->type().numElements() != result->type().numElements();
  } else if (auto dims = ir::stablehlo::intListAttr(op, "dimensions")) {
    for (int64_t d : *dims)
      bad = bad || operand->type().shape()[static_cast<size_t>(d)] !=
                       globalType(operand).shape()[static_cast<size_t>(d)];
  }
  if (bad)
    m_sink.error(op.loc(), "'" + std::string(op.name()) +
                               "' moves data across devices; run "
                               "-sdy-resolve-permutation-factors first");
  return !bad;
}

bool GlobalToLocalConverter::rewriteConvolution(Operation& op) {
  auto dims = ir::stablehlo::convDimensionNumbers(op);
  if (!dims)
    return true;
  auto shrink = [&](std::string_view attr, int64_t dim) {
    auto count = ir::stablehlo::intAttr(op, attr);
    if (!count || *count <= 1)
      return;
    int64_t global = globalType(op.operand(0)).shape()[static_cast<size_t>(dim)];
    int64_t local = op.operand(0)->type().shape()[static_cast<size_t>(dim)];
    if (local > 0 && global % local == 0 && *count % (global / local) == 0)
      op.setAttr(attr, i64Attr(*count / (global / local)));
  };
  shrink("feature_group_count", dims->inputFeature);
  shrink("batch_group_count", dims->inputBatch);
  return true;
}

// What the gather rewrite works from: the operand's layout, the dimension numbers, the slice
// sizes as written (global) and the operand dimensions whose rows are masked (sharded and sliced
// in part).
struct GatherMasking {
  const sharding::ShardingLayout& layout;
  const ir::stablehlo::GatherScatterDimensionNumbers& dims;
  const std::vector<int64_t>& sliceSizes;
  std::vector<size_t> masked;
};

// Gather from an operand sharded along a dimension the indices select into: each device looks
// the index up in its own block (shifted by the block's start) and zeroes the rows whose index
// falls outside it, so that the all-reduce that follows (the dimension is a reduction factor)
// sums exactly one real value.
bool GlobalToLocalConverter::rewriteGather(Operation& op) {
  auto layout = layoutOf(op.operand(0));
  auto dims = ir::stablehlo::gatherDimensionNumbers(op);
  auto sliceSizes = ir::stablehlo::intListAttr(op, "slice_sizes");
  if (!layout || !dims || !sliceSizes)
    return true;
  Value* operand = op.operand(0);
  Type globalOperand = globalType(operand);
  std::span<const int64_t> local = operand->type().shape();
  std::vector<int64_t> newSizes = *sliceSizes;
  GatherMasking g{*layout, *dims, *sliceSizes, {}};
  for (size_t d = 0; d < local.size(); ++d) {
    if (layout->shardsPerDim()[d] == 1 ||
        std::count(dims->operandBatchingDims.begin(), dims->operandBatchingDims.end(),
                   static_cast<int64_t>(d)))
      continue;
    if ((*sliceSizes)[d] == globalOperand.shape()[d])
      newSizes[d] = local[d];
    else
      g.masked.push_back(d);
  }
  if (newSizes != *sliceSizes)
    op.setAttr("slice_sizes", Attribute::denseI64Array(newSizes));
  if (g.masked.empty())
    return true;
  Value* valid = shiftGatherIndices(op, g);
  maskGatherResult(op, *dims, valid);
  return true;
}

Value* GlobalToLocalConverter::shiftGatherIndices(Operation& op, const GatherMasking& g) {
  HloBuilder b = builder(op);
  Value* indices = op.operand(1);
  Type globalOperand = globalType(op.operand(0));
  std::span<const int64_t> local = op.operand(0)->type().shape();
  Type indexType = indices->type();
  std::vector<int64_t> idxShape(indexType.shape().begin(), indexType.shape().end());
  size_t ivd = static_cast<size_t>(g.dims.indexVectorDim);
  bool implicitVector = ivd == idxShape.size();
  Value* idx = indices;
  if (implicitVector) {
    idxShape.push_back(1);
    idx = b.reshape(indices, indexType.withShape(idxShape));
  }
  std::vector<int64_t> compShape = idxShape;
  compShape[ivd] = 1;
  Type compType = indexType.withShape(compShape);
  Type scalarIdx = Type::tensor({}, indexType.elementType());
  Type predType = Type::tensor(compShape, ir::ElementType::I1);
  auto splat = [&](int64_t v) { return b.intConstant(compType, std::vector{v}); };
  auto offsetOf = [&](size_t d) { return b.lookup(blockStarts(g.layout, d, local[d])); };
  Value* valid = nullptr;
  auto andValid = [&](Value* v) { valid = valid ? b.binary("and", valid, v) : v; };
  std::vector<Value*> components;
  int64_t numComponents = idxShape[ivd];
  for (int64_t c = 0; c < numComponents; ++c) {
    std::vector<int64_t> start(idxShape.size(), 0), limit = idxShape;
    start[ivd] = c;
    limit[ivd] = c + 1;
    Value* comp = numComponents == 1 ? idx : b.slice(idx, start, limit);
    size_t d = static_cast<size_t>(g.dims.startIndexMap[static_cast<size_t>(c)]);
    if (std::find(g.masked.begin(), g.masked.end(), d) == g.masked.end()) {
      components.push_back(comp);
      continue;
    }
    int64_t size = g.sliceSizes[d];
    // The global gather clamps the start into [0, dim - size]; do that first, then shift.
    Value* clamped = b.binary("minimum", b.binary("maximum", comp, splat(0)),
                              splat(globalOperand.shape()[d] - size));
    Value* off = b.broadcast(b.convert(offsetOf(d), scalarIdx), compType, {});
    Value* shifted = b.binary("subtract", clamped, off);
    andValid(b.compare("GE", shifted, splat(0)));
    andValid(b.compare("LE", shifted, splat(local[d] - size)));
    components.push_back(shifted);
  }
  // Masked dimensions the indices don't select start at 0 globally.
  for (size_t d : g.masked) {
    if (std::count(g.dims.startIndexMap.begin(), g.dims.startIndexMap.end(),
                   static_cast<int64_t>(d)))
      continue;
    Value* isFirst = b.compare("EQ", b.convert(offsetOf(d), scalarIdx),
                               b.intConstant(scalarIdx, std::vector<int64_t>{0}));
    andValid(b.broadcast(isFirst, predType, {}));
  }
  Value* newIdx = components.front();
  if (components.size() > 1)
    newIdx = b.create1("stablehlo.concatenate", components, indexType.withShape(idxShape),
                       {namedAttr("dimension", i64Attr(static_cast<int64_t>(ivd)))});
  if (implicitVector)
    newIdx = b.reshape(newIdx, indexType);
  op.setOperand(1, newIdx);
  return valid;
}

void GlobalToLocalConverter::maskGatherResult(
    Operation& op, const ir::stablehlo::GatherScatterDimensionNumbers& dims, Value* valid) {
  // Batch dimensions of the result are the index dims (minus the vector dim); `valid` has the
  // shape of the indices with a unit index vector dimension.
  Value* result = op.result(0);
  Type resultType = result->type();
  std::vector<int64_t> compShape(valid->type().shape().begin(), valid->type().shape().end());
  size_t ivd = static_cast<size_t>(dims.indexVectorDim);
  std::vector<int64_t> batchShape;
  for (size_t i = 0; i < compShape.size(); ++i)
    if (i != ivd)
      batchShape.push_back(compShape[i]);
  std::vector<int64_t> batchDims;
  for (int64_t i = 0; i < resultType.rank(); ++i)
    if (!std::count(dims.offsetDims.begin(), dims.offsetDims.end(), i))
      batchDims.push_back(i);
  Operation* next =
      &*std::next(std::find_if(op.parentBlock()->ops().begin(), op.parentBlock()->ops().end(),
                               [&](const auto& o) { return o.get() == &op; }))
            ->get();
  HloBuilder after = builder(*next);
  Value* mask = after.reshape(valid, Type::tensor(batchShape, ir::ElementType::I1));
  mask = after.broadcast(mask, Type::tensor(resultType.shape(), ir::ElementType::I1), batchDims);
  Value* masked0 = after.select(mask, result, after.zeros(resultType));
  for (const ir::Use& use : std::vector<ir::Use>(result->uses()))
    if (use.user != masked0->definingOp())
      use.user->setOperand(use.index, masked0);
  logOp(masked0, op, "rows whose index lies outside the device's block of the operand are zeroed");
}

// Scatter into an operand sharded along a dimension the indices select into: the indices are
// shifted by the device's block start; updates that fall outside the block are out of bounds
// and skipped, as the StableHLO spec says. Updates sharded along scatter batch dimensions the
// operand isn't sharded on (a reduction factor) must see the operand on only one device.
bool GlobalToLocalConverter::rewriteScatter(Operation& op) {
  if (op.numOperands() != 3)
    return true;
  auto dims = ir::stablehlo::scatterDimensionNumbers(op);
  if (!dims)
    return true;
  HloBuilder b = builder(op);
  shiftScatterIndices(op, b, *dims);
  countScatterOperandOnce(op, b, *dims);
  return true;
}

void GlobalToLocalConverter::shiftScatterIndices(
    Operation& op, HloBuilder& b, const ir::stablehlo::GatherScatterDimensionNumbers& dims) {
  Value* operand = op.operand(0);
  Value* indices = op.operand(1);
  auto layout = layoutOf(operand);
  std::span<const int64_t> local = operand->type().shape();
  Type indexType = indices->type();
  size_t ivd = static_cast<size_t>(dims.indexVectorDim);
  bool anySharded = false;
  if (layout)
    for (int64_t d : dims.startIndexMap)
      anySharded = anySharded || layout->shardsPerDim()[static_cast<size_t>(d)] > 1;
  if (!anySharded)
    return;
  std::vector<Value*> offsetValues;
  bool any = false;
  Type scalarIdx = Type::tensor({}, indexType.elementType());
  for (size_t c = 0; c < dims.startIndexMap.size(); ++c) {
    size_t d = static_cast<size_t>(dims.startIndexMap[c]);
    if (layout->shardsPerDim()[d] == 1) {
      offsetValues.push_back(b.intConstant(scalarIdx, std::vector<int64_t>{0}));
      continue;
    }
    any = true;
    offsetValues.push_back(b.convert(b.lookup(blockStarts(*layout, d, local[d])), scalarIdx));
  }
  if (!any)
    return;
  // Broadcast the per-component offsets along the index vector dimension.
  std::vector<int64_t> vecShape{static_cast<int64_t>(offsetValues.size())};
  Type vecType = Type::tensor(vecShape, indexType.elementType());
  std::vector<Value*> pieces;
  for (Value* v : offsetValues)
    pieces.push_back(b.reshape(v, Type::tensor(std::vector<int64_t>{1}, indexType.elementType())));
  Value* vec = pieces.size() == 1 ? pieces.front()
                                  : b.create1("stablehlo.concatenate", pieces, vecType,
                                              {namedAttr("dimension", i64Attr(0))});
  std::vector<int64_t> bdims;
  if (ivd < static_cast<size_t>(indexType.rank()))
    bdims.push_back(static_cast<int64_t>(ivd));
  Value* off = bdims.empty() ? b.broadcast(b.reshape(vec, scalarIdx), indexType, {})
                             : b.broadcast(vec, indexType, bdims);
  Value* shifted = b.binary("subtract", indices, off);
  op.setOperand(1, shifted);
  logOp(shifted, op, "indices are shifted into the device's block of the operand");
}

// Axes sharding the updates' scatter batch dims but not the operand: only the first device
// along them keeps the operand, the others start from zero, so the all-reduce adds it once.
void GlobalToLocalConverter::countScatterOperandOnce(
    Operation& op, HloBuilder& b, const ir::stablehlo::GatherScatterDimensionNumbers& dims) {
  Value* operand = op.operand(0);
  Value* updates = op.operand(2);
  auto updLayout = layoutOf(updates);
  auto updInfo = info(updates);
  auto opInfo = info(operand);
  if (!updLayout || !updInfo || !updInfo->sharding)
    return;
  std::vector<AxisRef> operandAxes;
  if (opInfo && opInfo->sharding)
    for (const auto& dim : opInfo->sharding->dims)
      operandAxes.insert(operandAxes.end(), dim.axes.begin(), dim.axes.end());
  bool reduced = false;
  for (int64_t d = 0; d < updates->type().rank(); ++d) {
    if (std::count(dims.offsetDims.begin(), dims.offsetDims.end(), d))
      continue;
    for (const AxisRef& axis : updInfo->sharding->dims[static_cast<size_t>(d)].axes)
      if (std::find(operandAxes.begin(), operandAxes.end(), axis) == operandAxes.end())
        reduced = true;
  }
  if (!reduced)
    return;
  std::vector<int64_t> first = table(*updLayout, [&](const sharding::DeviceBlock& blk) {
    int64_t isFirst = 1;
    for (int64_t d = 0; d < updates->type().rank(); ++d)
      if (!std::count(dims.offsetDims.begin(), dims.offsetDims.end(), d) &&
          blk.shardIndex[static_cast<size_t>(d)] != 0)
        isFirst = 0;
    return isFirst;
  });
  Value* keep = b.compare("EQ", b.lookup(first), b.scalarI64(1));
  Type predType = Type::tensor(operand->type().shape(), ir::ElementType::I1);
  Value* base = b.select(b.broadcast(keep, predType, {}), operand, b.zeros(operand->type()));
  op.setOperand(0, base);
  logOp(base, op, "the operand counts once in the reduction over the updates' axes");
}

} // namespace shardscope::partition::detail
