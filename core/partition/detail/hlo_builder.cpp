#include "core/partition/detail/hlo_builder.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace shardscope::partition::detail {

using ir::Attribute;
using ir::ElementType;
using ir::NamedAttribute;
using ir::Operation;
using ir::Type;
using ir::Value;

namespace {

NamedAttribute named(std::string name, Attribute value) { return {std::move(name), value.impl()}; }

// Little-endian storage of `value` in an element of `bits` bits (one byte per `i1`).
void appendInt(std::vector<uint8_t>& raw, int64_t value, int bits) {
  int bytes = std::max(1, bits / 8);
  for (int b = 0; b < bytes; ++b)
    raw.push_back(static_cast<uint8_t>((static_cast<uint64_t>(value) >> (8 * b)) & 0xff));
}

Attribute denseInts(Type type, std::span<const int64_t> values) {
  auto storage = std::make_shared<ir::DenseElementsAttr>();
  storage->type = type;
  int bits = ir::elementBitWidth(type.elementType());
  for (int64_t v : values)
    appendInt(storage->raw, v, bits);
  storage->isSplat = values.size() == 1 && type.numElements() != 1;
  return Attribute(std::shared_ptr<const ir::AttrStorage>(std::move(storage)));
}

} // namespace

// Types are interned for the life of the process, and interning one prints it: the few types the
// builder asks for on every op are looked up once.
Type HloBuilder::i64Scalar() {
  static const Type type = Type::tensor({}, ElementType::I64);
  return type;
}

Operation* HloBuilder::create(std::string_view name, std::span<Value* const> operands,
                              std::span<const Type> resultTypes,
                              std::vector<NamedAttribute> attrs) {
  auto op = Operation::create(name, operands, resultTypes, m_before->loc());
  for (NamedAttribute& attr : attrs) {
    op->setAttr(attr.name, Attribute(attr.value));
    op->setInherent(attr.name, true);
  }
  return m_before->parentBlock()->insertBefore(m_before, std::move(op));
}

Value* HloBuilder::create1(std::string_view name, std::span<Value* const> operands, Type resultType,
                           std::vector<NamedAttribute> attrs) {
  std::vector<Type> types{resultType};
  return create(name, operands, types, std::move(attrs))->result(0);
}

Value* HloBuilder::intConstant(Type type, std::span<const int64_t> values) {
  return create1("stablehlo.constant", {}, type, {named("value", denseInts(type, values))});
}

Value* HloBuilder::zeros(Type type) {
  auto storage = std::make_shared<ir::DenseElementsAttr>();
  storage->type = type;
  int bits = ir::elementBitWidth(type.elementType());
  storage->raw.assign(static_cast<size_t>(std::max(1, bits / 8)), 0);
  storage->isSplat = type.numElements() != 1;
  Attribute value(std::shared_ptr<const ir::AttrStorage>(std::move(storage)));
  return create1("stablehlo.constant", {}, type, {named("value", value)});
}

Value* HloBuilder::deviceId() {
  static const Type u32 = Type::tensor({}, ElementType::UI32);
  if (!m_model.usesReplicas() && m_model.replicaCount > 1) {
    // Flattened id: replica_id * partition_count + partition_id.
    Value* replica = convert(create1("stablehlo.replica_id", {}, u32), i64Scalar());
    Value* partition = convert(create1("stablehlo.partition_id", {}, u32), i64Scalar());
    Value* scaled = binary("multiply", replica, scalarI64(m_model.partitionCount));
    return binary("add", scaled, partition);
  }
  std::string_view name =
      m_model.usesReplicas() ? "stablehlo.replica_id" : "stablehlo.partition_id";
  return convert(create1(name, {}, u32), i64Scalar());
}

Value* HloBuilder::lookup(std::span<const int64_t> perDevice) {
  // A table indexed by device id, read with a dynamic slice: it handles any device order
  // (`device_ids`) and sub-axis arithmetic in one form.
  bool uniform = std::all_of(perDevice.begin(), perDevice.end(),
                             [&](int64_t v) { return v == perDevice.front(); });
  if (perDevice.empty() || uniform)
    return scalarI64(perDevice.empty() ? 0 : perDevice.front());
  std::vector<int64_t> shape{static_cast<int64_t>(perDevice.size())};
  Value* table = intConstant(Type::tensor(shape, ElementType::I64), perDevice);
  Value* entry = dynamicSlice(table, {deviceId()}, {1});
  return reshape(entry, i64Scalar());
}

Value* HloBuilder::convert(Value* value, Type type) {
  if (value->type() == type)
    return value;
  std::vector<Value*> operands{value};
  return create1("stablehlo.convert", operands, type);
}

Value* HloBuilder::broadcast(Value* value, Type type, std::vector<int64_t> dims) {
  std::vector<Value*> operands{value};
  return create1("stablehlo.broadcast_in_dim", operands, type,
                 {named("broadcast_dimensions", Attribute::denseI64Array(std::move(dims)))});
}

Value* HloBuilder::binary(std::string_view kind, Value* lhs, Value* rhs) {
  std::vector<Value*> operands{lhs, rhs};
  return create1("stablehlo." + std::string(kind), operands, lhs->type());
}

Value* HloBuilder::compare(std::string_view direction, Value* lhs, Value* rhs) {
  std::vector<Value*> operands{lhs, rhs};
  Type pred = Type::tensor(lhs->type().shape(), ElementType::I1);
  return create1(
      "stablehlo.compare", operands, pred,
      {named("comparison_direction", Attribute::opaque("#stablehlo<comparison_direction " +
                                                       std::string(direction) + ">"))});
}

Value* HloBuilder::select(Value* pred, Value* onTrue, Value* onFalse) {
  std::vector<Value*> operands{pred, onTrue, onFalse};
  return create1("stablehlo.select", operands, onTrue->type());
}

Value* HloBuilder::reshape(Value* value, Type type) {
  if (value->type() == type)
    return value;
  std::vector<Value*> operands{value};
  return create1("stablehlo.reshape", operands, type);
}

Value* HloBuilder::transpose(Value* value, std::vector<int64_t> permutation) {
  std::vector<int64_t> shape;
  for (int64_t d : permutation)
    shape.push_back(value->type().shape()[static_cast<size_t>(d)]);
  std::vector<Value*> operands{value};
  return create1("stablehlo.transpose", operands, value->type().withShape(shape),
                 {named("permutation", Attribute::denseI64Array(std::move(permutation)))});
}

Value* HloBuilder::dynamicSlice(Value* value, std::vector<Value*> starts,
                                std::vector<int64_t> sizes) {
  std::vector<Value*> operands{value};
  operands.insert(operands.end(), starts.begin(), starts.end());
  Type type = value->type().withShape(sizes);
  return create1("stablehlo.dynamic_slice", operands, type,
                 {named("slice_sizes", Attribute::denseI64Array(std::move(sizes)))});
}

Value* HloBuilder::slice(Value* value, std::vector<int64_t> start, std::vector<int64_t> limit) {
  std::vector<int64_t> shape;
  for (size_t d = 0; d < start.size(); ++d)
    shape.push_back(limit[d] - start[d]);
  std::vector<int64_t> strides(start.size(), 1);
  std::vector<Value*> operands{value};
  return create1("stablehlo.slice", operands, value->type().withShape(shape),
                 {named("start_indices", Attribute::denseI64Array(std::move(start))),
                  named("limit_indices", Attribute::denseI64Array(std::move(limit))),
                  named("strides", Attribute::denseI64Array(std::move(strides)))});
}

Value* HloBuilder::pad(Value* value, Value* padValue, std::vector<int64_t> low,
                       std::vector<int64_t> high, std::vector<int64_t> interior) {
  std::vector<int64_t> shape;
  for (size_t d = 0; d < low.size(); ++d) {
    int64_t n = value->type().shape()[d];
    shape.push_back(low[d] + high[d] + n + std::max<int64_t>(n - 1, 0) * interior[d]);
  }
  std::vector<Value*> operands{value, padValue};
  return create1("stablehlo.pad", operands, value->type().withShape(shape),
                 {named("edge_padding_low", Attribute::denseI64Array(std::move(low))),
                  named("edge_padding_high", Attribute::denseI64Array(std::move(high))),
                  named("interior_padding", Attribute::denseI64Array(std::move(interior)))});
}

Attribute HloBuilder::channelHandle() {
  int64_t handle = (*m_nextChannel)++;
  return Attribute::opaque("#stablehlo.channel_handle<handle = " + std::to_string(handle) +
                           ", type = 1>");
}

std::vector<NamedAttribute>
HloBuilder::collectiveAttrs(const std::vector<std::vector<int64_t>>& groups, bool globalIds) {
  return collectiveAttrs(i64Matrix(groups), globalIds);
}

std::vector<NamedAttribute> HloBuilder::collectiveAttrs(Attribute replicaGroups, bool globalIds) {
  std::vector<NamedAttribute> attrs{named("replica_groups", std::move(replicaGroups))};
  if (!m_model.usesReplicas()) {
    attrs.push_back(named("channel_handle", channelHandle()));
    if (globalIds)
      attrs.push_back(named("use_global_device_ids", Attribute::unit()));
  }
  return attrs;
}

void HloBuilder::addReductionRegion(Operation& op, ElementType element, std::string_view kind) {
  ir::Block& block = op.addRegion().front();
  Type scalar = Type::tensor({}, element);
  Value* lhs = block.addArgument(scalar);
  Value* rhs = block.addArgument(scalar);
  std::vector<Value*> operands{lhs, rhs};
  std::vector<Type> types{scalar};
  Operation* combine = block.push_back(
      Operation::create("stablehlo." + std::string(kind), operands, types, op.loc()));
  std::vector<Value*> returned{combine->result(0)};
  block.push_back(Operation::create("stablehlo.return", returned, {}, op.loc()));
}

int64_t nextChannelHandle(const ir::Module& module) {
  int64_t next = 1;
  module.op().walk([&](const Operation& op) {
    const auto* handle = op.attr("channel_handle").as<ir::OpaqueAttr>();
    if (!handle)
      return;
    size_t pos = handle->text.find("handle = ");
    if (pos != std::string::npos)
      next = std::max<int64_t>(next, std::atoll(handle->text.c_str() + pos + 9) + 1);
  });
  return next;
}

Attribute i64Attr(int64_t value) {
  static const Type i64 = Type::scalar(ElementType::I64);
  return Attribute::integer(value, i64);
}

NamedAttribute namedAttr(std::string name, Attribute value) {
  return {std::move(name), value.impl()};
}

Attribute i64Matrix(const std::vector<std::vector<int64_t>>& rows) {
  std::vector<int64_t> flat;
  for (const auto& row : rows)
    flat.insert(flat.end(), row.begin(), row.end());
  int64_t cols = rows.empty() ? 0 : static_cast<int64_t>(rows.front().size());
  std::vector<int64_t> shape{static_cast<int64_t>(rows.size()), cols};
  auto storage = std::make_shared<ir::DenseElementsAttr>();
  storage->type = Type::tensor(shape, ElementType::I64);
  for (int64_t v : flat)
    appendInt(storage->raw, v, 64);
  return Attribute(std::shared_ptr<const ir::AttrStorage>(std::move(storage)));
}

} // namespace shardscope::partition::detail
