// `chlo.ragged_dot` as StableHLO's ChloLegalizeToStablehlo.cpp decomposes it
// (`handleRaggedDotMode1/2/3`): the rows (mode 1) or the contracting positions (mode 2) of each
// group are selected from the lhs with an iota mask between the group's start and limit, and
// multiplied with one `dot_general` per group.
#include "core/import/chlo/detail/hlo_emitter.h"
#include "core/import/chlo/detail/lowerings.h"

#include "core/ir/attribute.h"
#include "core/ir/stablehlo_attrs.h"

#include <algorithm>

namespace shardscope::import_::chlo::detail {

using ir::Attribute;
using ir::ElementType;
using ir::Type;
using ir::Value;

namespace {

bool contains(const std::vector<int64_t>& dims, int64_t dim) {
  return std::find(dims.begin(), dims.end(), dim) != dims.end();
}

// `[#chlo<precision X>, ...]` as `[#stablehlo<precision X>, ...]`; null when absent.
Attribute stablehloPrecision(const ir::Operation& op) {
  const auto* config = op.attr("precision_config").as<ir::ArrayAttr>();
  if (!config)
    return {};
  std::vector<Attribute> cases;
  for (const Attribute& element : config->elements) {
    const auto* text = element.as<ir::OpaqueAttr>();
    std::string value = "DEFAULT";
    for (const char* known : {"HIGHEST", "HIGH"})
      if (text && text->text.find(std::string(" ") + known + ">") != std::string::npos) {
        value = known;
        break;
      }
    cases.push_back(Attribute::opaque("#stablehlo<precision " + value + ">"));
  }
  return Attribute::array(std::move(cases));
}

// What the lowering of one ragged_dot needs, read once.
struct RaggedDot {
  ir::stablehlo::RaggedDotDimensionNumbers dn;
  Value* lhs;
  Value* rhs;
  Value* groupSizes;
  ElementType resultElement;
  Attribute precision;
  int64_t ragged;
  int64_t numGroups;
  // The lhs dims group_sizes is indexed by before its group dim (empty for a `[g]` group_sizes,
  // which applies to every lhs position).
  std::vector<int64_t> prefixDims;
};

// The lhs dims of group_sizes' leading dims (ChloOps.cpp's `checkRaggedDotConstraints`): the
// batching dims before the ragged dim, then the contracting (mode 2) or the free (mode 1) dims
// before it.
std::vector<int64_t> prefixDims(const RaggedDot& r, int64_t lhsRank) {
  const ir::stablehlo::DotDimensionNumbers& d = r.dn.dot;
  std::vector<int64_t> dims(d.lhsBatching.begin(), d.lhsBatching.end());
  if (contains(d.lhsContracting, r.ragged)) {
    dims.insert(dims.end(), d.lhsContracting.begin(),
                std::find(d.lhsContracting.begin(), d.lhsContracting.end(), r.ragged));
    return dims;
  }
  for (int64_t i = 0; i < std::min(r.ragged, lhsRank); ++i)
    if (!contains(d.lhsBatching, i) && !contains(d.lhsContracting, i))
      dims.push_back(i);
  return dims;
}

RaggedDot readRaggedDot(const ir::Operation& op) {
  RaggedDot r{*ir::stablehlo::raggedDotDimensionNumbers(op),
              op.operand(0),
              op.operand(1),
              op.operand(2),
              op.result(0)->type().elementType(),
              stablehloPrecision(op),
              0,
              0,
              {}};
  r.ragged = r.dn.lhsRagged[0];
  r.numGroups = r.groupSizes->type().shape().back();
  if (r.groupSizes->type().rank() > 1)
    r.prefixDims = prefixDims(r, r.lhs->type().rank());
  return r;
}

// The size of group `i` at every prefix position, as `i64`.
Value* groupSize(HloEmitter& e, const RaggedDot& r, int64_t i) {
  std::span<const int64_t> shape = r.groupSizes->type().shape();
  std::vector<int64_t> start(shape.size(), 0), limit(shape.begin(), shape.end());
  start.back() = i;
  limit.back() = i + 1;
  std::vector<int64_t> prefix(shape.begin(), shape.end() - 1);
  return e.convert(e.reshape(e.slice(r.groupSizes, start, limit), prefix), ElementType::I64);
}

// The lhs with every position outside [start, limit) along the ragged dim set to zero.
Value* maskLhs(HloEmitter& e, const RaggedDot& r, Value* iota, Value* zeros, Value* start,
               Value* limit) {
  Value* from = e.broadcast(start, iota->type(), r.prefixDims);
  Value* to = e.broadcast(limit, iota->type(), r.prefixDims);
  Value* inGroup = e.binary("and", e.compare("GE", iota, from), e.compare("LT", iota, to));
  return e.select(inGroup, r.lhs, zeros);
}

// Calls `fn(group, maskedLhs)` for every group, in order.
template <typename Fn> void forEachGroup(HloEmitter& e, const RaggedDot& r, Fn&& fn) {
  std::span<const int64_t> gsShape = r.groupSizes->type().shape();
  Type prefix = Type::tensor(gsShape.subspan(0, gsShape.size() - 1), ElementType::I64);
  Value* iota = e.iota(Type::tensor(r.lhs->type().shape(), ElementType::I64), r.ragged);
  Value* zeros = e.zeros(r.lhs->type());
  Value* start = e.zeros(prefix);
  for (int64_t i = 0; i < r.numGroups; ++i) {
    Value* limit = e.binary("add", start, groupSize(e, r, i));
    fn(i, maskLhs(e, r, iota, zeros, start, limit));
    start = limit;
  }
}

DotDims dotDims(const ir::stablehlo::DotDimensionNumbers& d) {
  return {d.lhsBatching, d.rhsBatching, d.lhsContracting, d.rhsContracting};
}

// Mode 1, [b,m,k] x [g,b,k,n] -> [b,m,n]: the sum over groups of the group's rows times the
// group's rhs.
Value* lowerNonContracting(HloEmitter& e, const RaggedDot& r) {
  int64_t groupDim = r.dn.rhsGroup[0];
  auto withoutGroup = [&](int64_t dim) { return dim > groupDim ? dim - 1 : dim; };
  DotDims dims = dotDims(r.dn.dot);
  std::transform(dims.rhsBatching.begin(), dims.rhsBatching.end(), dims.rhsBatching.begin(),
                 withoutGroup);
  std::transform(dims.rhsContracting.begin(), dims.rhsContracting.end(),
                 dims.rhsContracting.begin(), withoutGroup);
  std::span<const int64_t> rhsShape = r.rhs->type().shape();
  std::vector<int64_t> sliceShape(rhsShape.begin(), rhsShape.end());
  sliceShape.erase(sliceShape.begin() + groupDim);
  Value* sum = nullptr;
  forEachGroup(e, r, [&](int64_t i, Value* lhs) {
    std::vector<int64_t> start(rhsShape.size(), 0), limit(rhsShape.begin(), rhsShape.end());
    start[groupDim] = i;
    limit[groupDim] = i + 1;
    Value* rhs = e.reshape(e.slice(r.rhs, start, limit), sliceShape);
    Value* product = dotGeneral(e, lhs, rhs, dims, r.resultElement, r.precision);
    sum = sum ? e.binary("add", sum, product) : product;
  });
  return sum;
}

// Mode 2, [b,m,k] x [b,k,n] -> [g,b,m,n]: each group's contraction over its own positions,
// stacked along a new leading dim.
Value* lowerContracting(HloEmitter& e, const RaggedDot& r) {
  std::vector<Value*> products;
  forEachGroup(e, r, [&](int64_t, Value* lhs) {
    Value* product = dotGeneral(e, lhs, r.rhs, dotDims(r.dn.dot), r.resultElement, r.precision);
    std::vector<int64_t> shape{1};
    shape.insert(shape.end(), product->type().shape().begin(), product->type().shape().end());
    products.push_back(e.reshape(product, shape));
  });
  return e.concatenate(products, 0);
}

} // namespace

void lowerRaggedDot(ir::Operation& op) {
  RaggedDot r = readRaggedDot(op);
  HloEmitter e(op);
  Value* result;
  if (r.numGroups == 0 && !contains(r.dn.dot.lhsBatching, r.ragged)) {
    result = e.zeros(op.result(0)->type()); // no group: no row and no position takes part
  } else if (contains(r.dn.dot.lhsBatching, r.ragged)) {
    // Mode 3, ragged batch dim: groups share no positions, so this is the batched dot itself.
    result = dotGeneral(e, r.lhs, r.rhs, dotDims(r.dn.dot), r.resultElement, r.precision);
  } else if (contains(r.dn.dot.lhsContracting, r.ragged)) {
    result = lowerContracting(e, r);
  } else {
    result = lowerNonContracting(e, r);
  }
  replaceOp(op, {result});
}

} // namespace shardscope::import_::chlo::detail
