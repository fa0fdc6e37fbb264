// `chlo.scan` as StableHLO's ChloLegalizeToStablehlo.cpp lowers it (`ConvertScanOp`): a
// `stablehlo.while` whose state is (step counter, carries..., outputs...). Each step slices
// position `pos` (the counter, or N-1 minus it for `is_reverse`) out of every input, runs the
// scan body on the slices and the carries, and writes the step's outputs back at `pos`.
#include "core/import/chlo/detail/hlo_emitter.h"
#include "core/import/chlo/detail/lowerings.h"

#include "core/ir/attribute.h"
#include "core/ir/stablehlo_attrs.h"

namespace shardscope::import_::chlo::detail {

using ir::ElementType;
using ir::Type;
using ir::Value;

namespace {

struct ScanShape {
  unsigned numInputs = 0;
  unsigned numCarries = 0;
  unsigned numOutputs = 0;
  int64_t dim = 0;
  int64_t size = 0;
  bool reverse = false;
};

ScanShape scanShape(const ir::Operation& op) {
  ScanShape s;
  const auto* segments = op.attr("operandSegmentSizes").as<ir::DenseArrayAttr>();
  s.numInputs = static_cast<unsigned>(segments->ints[0]);
  s.numCarries = static_cast<unsigned>(segments->ints[1]);
  s.numOutputs = op.numResults() - s.numCarries;
  s.dim = ir::stablehlo::intAttr(op, "dimension").value_or(0);
  s.size = scanDimensionSize(op);
  s.reverse = ir::stablehlo::boolAttr(op, "is_reverse").value_or(false);
  return s;
}

// Rank-0 `i64` start indices: `pos` at the scan dim, zero elsewhere.
std::vector<Value*> startIndices(HloEmitter& e, int64_t rank, int64_t dim, Value* pos) {
  Value* zero = rank > 1 ? e.scalarI64(0) : nullptr;
  std::vector<Value*> starts(static_cast<size_t>(rank), zero);
  starts[static_cast<size_t>(dim)] = pos;
  return starts;
}

// Input `input` at position `pos` of the scan dim, with that dim dropped.
Value* sliceAt(HloEmitter& e, Value* input, int64_t dim, Value* pos) {
  std::span<const int64_t> shape = input->type().shape();
  std::vector<int64_t> sizes(shape.begin(), shape.end());
  sizes[dim] = 1;
  Value* slice = e.dynamicSlice(input, startIndices(e, input->type().rank(), dim, pos), sizes);
  sizes.erase(sizes.begin() + dim);
  return e.reshape(slice, sizes);
}

void buildCondition(ir::Block& block, const ir::Operation& op, const ScanShape& s) {
  HloEmitter e(block, op);
  Value* more = e.compare("LT", block.argument(0), e.scalarI64(s.size));
  e.create("stablehlo.return", std::vector<Value*>{more}, {});
}

// The loop body: block arguments are (counter, carries..., outputs...).
void buildBody(ir::Block& block, const ir::Operation& op, const ScanShape& s) {
  HloEmitter e(block, op);
  Value* counter = block.argument(0);
  Value* pos = s.reverse ? e.binary("subtract", e.scalarI64(s.size - 1), counter) : counter;
  const ir::Block& scanBody = op.region(0).front();
  ir::Operation::ValueMapping mapping;
  for (unsigned i = 0; i < s.numInputs; ++i)
    mapping[scanBody.argument(i)] = sliceAt(e, op.operand(i), s.dim, pos);
  for (unsigned j = 0; j < s.numCarries; ++j)
    mapping[scanBody.argument(s.numInputs + j)] = block.argument(1 + j);
  for (const auto& nested : scanBody.ops())
    if (nested.get() != scanBody.back())
      block.push_back(nested->clone(mapping));
  auto mapped = [&](Value* v) {
    auto it = mapping.find(v);
    return it == mapping.end() ? v : it->second;
  };
  const ir::Operation& terminator = *scanBody.back();
  std::vector<Value*> next{e.binary("add", counter, e.scalarI64(1))};
  for (unsigned j = 0; j < s.numCarries; ++j)
    next.push_back(mapped(terminator.operand(s.numOutputs + j)));
  for (unsigned k = 0; k < s.numOutputs; ++k) {
    Value* output = block.argument(1 + s.numCarries + k);
    std::vector<int64_t> shape(output->type().shape().begin(), output->type().shape().end());
    shape[s.dim] = 1;
    Value* step = e.reshape(mapped(terminator.operand(k)), shape);
    next.push_back(
        e.dynamicUpdateSlice(output, step, startIndices(e, output->type().rank(), s.dim, pos)));
  }
  e.create("stablehlo.return", next, {});
}

} // namespace

int64_t scanDimensionSize(const ir::Operation& op) {
  const auto* segments = op.attr("operandSegmentSizes").as<ir::DenseArrayAttr>();
  int64_t dim = ir::stablehlo::intAttr(op, "dimension").value_or(0);
  if (!segments || segments->ints.size() != 2)
    return ir::kDynamicSize;
  auto sizeAt = [&](const Value* v) {
    Type t = v->type();
    return t.isTensor() && dim < t.rank() ? t.shape()[dim] : ir::kDynamicSize;
  };
  for (int64_t i = 0; i < segments->ints[0]; ++i)
    if (int64_t size = sizeAt(op.operand(static_cast<unsigned>(i))); size != ir::kDynamicSize)
      return size;
  for (int64_t k = 0; k + segments->ints[1] < op.numResults(); ++k)
    if (int64_t size = sizeAt(op.result(static_cast<unsigned>(k))); size != ir::kDynamicSize)
      return size;
  return ir::stablehlo::intAttr(op, "scan_dim_size").value_or(ir::kDynamicSize);
}

void lowerScan(ir::Operation& op) {
  ScanShape s = scanShape(op);
  HloEmitter e(op);
  std::vector<Value*> initial{e.scalarI64(0)};
  for (unsigned j = 0; j < s.numCarries; ++j)
    initial.push_back(op.operand(s.numInputs + j));
  for (unsigned k = 0; k < s.numOutputs; ++k)
    initial.push_back(e.zeros(op.result(k)->type()));
  std::vector<Type> types;
  for (Value* v : initial)
    types.push_back(v->type());
  ir::Operation* loop = e.create("stablehlo.while", initial, types);
  for (int r = 0; r < 2; ++r) {
    ir::Block& block = loop->addRegion().front();
    for (const Type& t : types)
      block.addArgument(t);
  }
  buildCondition(loop->region(0).front(), op, s);
  buildBody(loop->region(1).front(), op, s);
  std::vector<Value*> replacements;
  for (unsigned k = 0; k < s.numOutputs; ++k)
    replacements.push_back(loop->result(1 + s.numCarries + k));
  for (unsigned j = 0; j < s.numCarries; ++j)
    replacements.push_back(loop->result(1 + j));
  replaceOp(op, replacements);
}

} // namespace shardscope::import_::chlo::detail
