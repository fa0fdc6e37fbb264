#include "core/import/chlo/detail/hlo_emitter.h"

#include "core/ir/attribute.h"

#include <algorithm>
#include <memory>

namespace shardscope::import_::chlo::detail {

using ir::Attribute;
using ir::ElementType;
using ir::Type;
using ir::Value;

namespace {

Attribute i64Attr(int64_t value) {
  return Attribute::integer(value, Type::scalar(ElementType::I64));
}

// Storage bytes of one element as `DenseElementsAttr` keeps them (one byte per `i1`, `i2`, `i4`).
size_t elementBytes(ElementType element) {
  return static_cast<size_t>(std::max(1, ir::elementBitWidth(element) / 8));
}

Attribute denseAttr(Type type, std::vector<uint8_t> raw, bool splat) {
  auto storage = std::make_shared<ir::DenseElementsAttr>();
  storage->type = type;
  storage->raw = std::move(raw);
  storage->isSplat = splat;
  return Attribute(std::shared_ptr<const ir::AttrStorage>(std::move(storage)));
}

std::string dotDimsText(const DotDims& dims) {
  const std::pair<const char*, const std::vector<int64_t>*> fields[] = {
      {"lhs_batching_dimensions", &dims.lhsBatching},
      {"rhs_batching_dimensions", &dims.rhsBatching},
      {"lhs_contracting_dimensions", &dims.lhsContracting},
      {"rhs_contracting_dimensions", &dims.rhsContracting}};
  std::string text = "#stablehlo.dot<";
  bool first = true;
  for (const auto& [name, values] : fields) {
    if (values->empty())
      continue;
    text += (first ? "" : ", ") + std::string(name) + " = [";
    for (size_t i = 0; i < values->size(); ++i)
      text += (i ? ", " : "") + std::to_string((*values)[i]);
    text += "]";
    first = false;
  }
  return text + ">";
}

bool contains(const std::vector<int64_t>& dims, int64_t dim) {
  return std::find(dims.begin(), dims.end(), dim) != dims.end();
}

} // namespace

ir::NamedAttribute named(std::string name, Attribute value) {
  return {std::move(name), value.impl()};
}

HloEmitter::HloEmitter(ir::Operation& before)
    : m_block(before.parentBlock()), m_before(&before), m_loc(before.loc()),
      m_debugLoc(before.debugLoc()) {}

HloEmitter::HloEmitter(ir::Block& block, const ir::Operation& origin)
    : m_block(&block), m_before(nullptr), m_loc(origin.loc()), m_debugLoc(origin.debugLoc()) {}

ir::Operation* HloEmitter::create(std::string_view name, std::span<Value* const> operands,
                                  std::span<const Type> resultTypes,
                                  std::vector<ir::NamedAttribute> attrs) {
  auto op = ir::Operation::create(name, operands, resultTypes, m_loc);
  op->setDebugLoc(m_debugLoc);
  for (ir::NamedAttribute& attr : attrs) {
    op->setAttr(attr.name, Attribute(attr.value));
    op->setInherent(attr.name, true);
  }
  return m_before ? m_block->insertBefore(m_before, std::move(op))
                  : m_block->push_back(std::move(op));
}

Value* HloEmitter::create1(std::string_view name, std::vector<Value*> operands, Type type,
                           std::vector<ir::NamedAttribute> attrs) {
  Type types[] = {type};
  return create(name, operands, types, std::move(attrs))->result(0);
}

Value* HloEmitter::intConstant(Type type, std::vector<int64_t> values) {
  size_t bytes = elementBytes(type.elementType());
  std::vector<uint8_t> raw;
  for (int64_t v : values)
    for (size_t b = 0; b < bytes; ++b)
      raw.push_back(static_cast<uint8_t>((static_cast<uint64_t>(v) >> (8 * b)) & 0xff));
  bool splat = values.size() == 1 && type.numElements() != 1;
  return create1("stablehlo.constant", {}, type, {named("value", denseAttr(type, raw, splat))});
}

Value* HloEmitter::scalarI64(int64_t value) {
  return intConstant(Type::tensor({}, ElementType::I64), {value});
}

Value* HloEmitter::zeros(Type type) {
  // Zero is all-zero bytes in every element type (integers, floats, both parts of a complex).
  std::vector<uint8_t> raw(elementBytes(type.elementType()), 0);
  bool splat = type.numElements() != 1;
  return create1("stablehlo.constant", {}, type, {named("value", denseAttr(type, raw, splat))});
}

Value* HloEmitter::binary(std::string_view kind, Value* lhs, Value* rhs) {
  return create1("stablehlo." + std::string(kind), {lhs, rhs}, lhs->type());
}

Value* HloEmitter::compare(std::string_view direction, Value* lhs, Value* rhs) {
  Type pred = Type::tensor(lhs->type().shape(), ElementType::I1);
  Attribute dir =
      Attribute::opaque("#stablehlo<comparison_direction " + std::string(direction) + ">");
  return create1("stablehlo.compare", {lhs, rhs}, pred, {named("comparison_direction", dir)});
}

Value* HloEmitter::select(Value* pred, Value* onTrue, Value* onFalse) {
  return create1("stablehlo.select", {pred, onTrue, onFalse}, onTrue->type());
}

Value* HloEmitter::convert(Value* value, ElementType element) {
  if (value->type().elementType() == element)
    return value;
  return create1("stablehlo.convert", {value}, Type::tensor(value->type().shape(), element));
}

Value* HloEmitter::reshape(Value* value, std::vector<int64_t> shape) {
  Type type = Type::tensor(shape, value->type().elementType());
  return type == value->type() ? value : create1("stablehlo.reshape", {value}, type);
}

Value* HloEmitter::broadcast(Value* value, Type type, std::vector<int64_t> dims) {
  return create1("stablehlo.broadcast_in_dim", {value}, type,
                 {named("broadcast_dimensions", Attribute::denseI64Array(std::move(dims)))});
}

Value* HloEmitter::iota(Type type, int64_t dimension) {
  return create1("stablehlo.iota", {}, type, {named("iota_dimension", i64Attr(dimension))});
}

Value* HloEmitter::slice(Value* value, std::vector<int64_t> start, std::vector<int64_t> limit) {
  std::vector<int64_t> shape, strides(start.size(), 1);
  for (size_t d = 0; d < start.size(); ++d)
    shape.push_back(limit[d] - start[d]);
  return create1("stablehlo.slice", {value}, Type::tensor(shape, value->type().elementType()),
                 {named("start_indices", Attribute::denseI64Array(std::move(start))),
                  named("limit_indices", Attribute::denseI64Array(std::move(limit))),
                  named("strides", Attribute::denseI64Array(std::move(strides)))});
}

Value* HloEmitter::dynamicSlice(Value* value, std::vector<Value*> starts,
                                std::vector<int64_t> sizes) {
  std::vector<Value*> operands{value};
  operands.insert(operands.end(), starts.begin(), starts.end());
  Type type = Type::tensor(sizes, value->type().elementType());
  return create1("stablehlo.dynamic_slice", operands, type,
                 {named("slice_sizes", Attribute::denseI64Array(std::move(sizes)))});
}

Value* HloEmitter::dynamicUpdateSlice(Value* value, Value* update, std::vector<Value*> starts) {
  std::vector<Value*> operands{value, update};
  operands.insert(operands.end(), starts.begin(), starts.end());
  return create1("stablehlo.dynamic_update_slice", operands, value->type());
}

Value* HloEmitter::concatenate(std::vector<Value*> values, int64_t dimension) {
  std::vector<int64_t> shape(values.front()->type().shape().begin(),
                             values.front()->type().shape().end());
  shape[dimension] = 0;
  for (Value* v : values)
    shape[dimension] += v->type().shape()[dimension];
  Type type = Type::tensor(shape, values.front()->type().elementType());
  return create1("stablehlo.concatenate", values, type, {named("dimension", i64Attr(dimension))});
}

Value* dotGeneral(HloEmitter& emitter, Value* lhs, Value* rhs, const DotDims& dims,
                  ElementType element, Attribute precision) {
  std::span<const int64_t> l = lhs->type().shape(), r = rhs->type().shape();
  std::vector<int64_t> shape;
  for (int64_t d : dims.lhsBatching)
    shape.push_back(l[d]);
  for (int64_t d = 0; d < static_cast<int64_t>(l.size()); ++d)
    if (!contains(dims.lhsBatching, d) && !contains(dims.lhsContracting, d))
      shape.push_back(l[d]);
  for (int64_t d = 0; d < static_cast<int64_t>(r.size()); ++d)
    if (!contains(dims.rhsBatching, d) && !contains(dims.rhsContracting, d))
      shape.push_back(r[d]);
  std::vector<ir::NamedAttribute> attrs{
      named("dot_dimension_numbers", Attribute::opaque(dotDimsText(dims)))};
  if (precision)
    attrs.push_back(named("precision_config", precision));
  return emitter.create1("stablehlo.dot_general", {lhs, rhs}, Type::tensor(shape, element),
                         std::move(attrs));
}

} // namespace shardscope::import_::chlo::detail
