#include "core/autodiff/detail/op_builder.h"

#include "core/support/float16.h"

#include <algorithm>
#include <cstring>
#include <memory>

namespace shardscope::autodiff::detail {

using ir::Attribute;
using ir::ElementType;
using ir::Operation;
using ir::Type;
using ir::Value;

namespace {

void appendBytes(std::vector<uint8_t>& raw, const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  raw.insert(raw.end(), bytes, bytes + size);
}

void appendInt(std::vector<uint8_t>& raw, int64_t value, int bits) {
  int bytes = std::max(1, bits / 8);
  for (int b = 0; b < bytes; ++b)
    raw.push_back(static_cast<uint8_t>((static_cast<uint64_t>(value) >> (8 * b)) & 0xff));
}

Attribute dense(std::shared_ptr<ir::DenseElementsAttr> storage) {
  return Attribute(std::shared_ptr<const ir::AttrStorage>(std::move(storage)));
}

} // namespace

ir::NamedAttribute named(std::string name, Attribute value) {
  return {std::move(name), value.impl()};
}

Attribute i64(int64_t value) { return Attribute::integer(value, Type::scalar(ElementType::I64)); }

Attribute i64Matrix(const std::vector<std::vector<int64_t>>& rows) {
  auto storage = std::make_shared<ir::DenseElementsAttr>();
  int64_t cols = rows.empty() ? 0 : static_cast<int64_t>(rows.front().size());
  storage->type =
      Type::tensor(std::vector<int64_t>{static_cast<int64_t>(rows.size()), cols}, ElementType::I64);
  for (const auto& row : rows)
    for (int64_t v : row)
      appendInt(storage->raw, v, 64);
  return dense(std::move(storage));
}

Attribute dotDims(const std::vector<int64_t> (&dims)[4]) {
  static constexpr const char* kFields[4] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                                             "lhs_contracting_dimensions",
                                             "rhs_contracting_dimensions"};
  std::string text = "#stablehlo.dot<";
  bool first = true;
  for (int i = 0; i < 4; ++i) {
    if (dims[i].empty())
      continue;
    text += (first ? "" : ", ") + std::string(kFields[i]) + " = [";
    for (size_t j = 0; j < dims[i].size(); ++j)
      text += (j ? ", " : "") + std::to_string(dims[i][j]);
    text += "]";
    first = false;
  }
  return Attribute::opaque(text + ">");
}

Operation* OpBuilder::create(std::string_view name, std::span<Value* const> operands,
                             std::span<const Type> resultTypes,
                             std::vector<ir::NamedAttribute> attrs) {
  auto op = Operation::create(name, operands, resultTypes, m_loc);
  for (ir::NamedAttribute& attr : attrs) {
    op->setAttr(attr.name, Attribute(attr.value));
    op->setInherent(attr.name, true);
  }
  return m_block->push_back(std::move(op));
}

Value* OpBuilder::create1(std::string_view name, std::vector<Value*> operands, Type type,
                          std::vector<ir::NamedAttribute> attrs) {
  std::vector<Type> types{type};
  return create(name, operands, types, std::move(attrs))->result(0);
}

Value* OpBuilder::splat(Type type, double value) {
  auto storage = std::make_shared<ir::DenseElementsAttr>();
  storage->type = type;
  ElementType element = type.elementType();
  if (element == ElementType::F64) {
    appendBytes(storage->raw, &value, sizeof value);
  } else if (element == ElementType::F32) {
    auto f = static_cast<float>(value);
    appendBytes(storage->raw, &f, sizeof f);
  } else if (element == ElementType::F16) {
    appendInt(storage->raw, support::floatToHalf(static_cast<float>(value)), 16);
  } else if (element == ElementType::BF16) {
    appendInt(storage->raw, support::floatToBf16(static_cast<float>(value)), 16);
  } else {
    appendInt(storage->raw, static_cast<int64_t>(value), ir::elementBitWidth(element));
  }
  storage->isSplat = type.numElements() != 1;
  return create1("stablehlo.constant", {}, type, {named("value", dense(std::move(storage)))});
}

Value* OpBuilder::intConstant(Type type, std::span<const int64_t> values) {
  auto storage = std::make_shared<ir::DenseElementsAttr>();
  storage->type = type;
  for (int64_t v : values)
    appendInt(storage->raw, v, ir::elementBitWidth(type.elementType()));
  storage->isSplat = values.size() == 1 && type.numElements() != 1;
  return create1("stablehlo.constant", {}, type, {named("value", dense(std::move(storage)))});
}

Value* OpBuilder::binary(std::string_view kind, Value* lhs, Value* rhs) {
  return create1("stablehlo." + std::string(kind), {lhs, rhs}, lhs->type());
}

Value* OpBuilder::unary(std::string_view kind, Value* x) {
  return create1("stablehlo." + std::string(kind), {x}, x->type());
}

Value* OpBuilder::compare(std::string_view direction, Value* lhs, Value* rhs) {
  Type pred = Type::tensor(lhs->type().shape(), ElementType::I1);
  return create1(
      "stablehlo.compare", {lhs, rhs}, pred,
      {named("comparison_direction", Attribute::opaque("#stablehlo<comparison_direction " +
                                                       std::string(direction) + ">"))});
}

Value* OpBuilder::select(Value* pred, Value* onTrue, Value* onFalse) {
  return create1("stablehlo.select", {pred, onTrue, onFalse}, onTrue->type());
}

Value* OpBuilder::convert(Value* x, Type type) {
  return x->type() == type ? x : create1("stablehlo.convert", {x}, type);
}

Value* OpBuilder::reshape(Value* x, Type type) {
  return x->type() == type ? x : create1("stablehlo.reshape", {x}, type);
}

Value* OpBuilder::transpose(Value* x, std::vector<int64_t> permutation) {
  bool identity = true;
  std::vector<int64_t> shape;
  for (size_t i = 0; i < permutation.size(); ++i) {
    identity = identity && permutation[i] == static_cast<int64_t>(i);
    shape.push_back(x->type().shape()[static_cast<size_t>(permutation[i])]);
  }
  if (identity)
    return x;
  return create1("stablehlo.transpose", {x}, x->type().withShape(shape),
                 {named("permutation", Attribute::denseI64Array(std::move(permutation)))});
}

Value* OpBuilder::broadcast(Value* x, Type type, std::vector<int64_t> dims) {
  return create1("stablehlo.broadcast_in_dim", {x}, type,
                 {named("broadcast_dimensions", Attribute::denseI64Array(std::move(dims)))});
}

void OpBuilder::addSumRegion(Operation& op, ElementType element) {
  Type scalar = Type::tensor({}, element);
  ir::Block& body = op.addRegion().front();
  Value* a = body.addArgument(scalar);
  Value* b = body.addArgument(scalar);
  OpBuilder inner(body);
  inner.setLoc(op.loc());
  Value* sum = inner.binary("add", a, b);
  inner.create("stablehlo.return", std::vector<Value*>{sum}, {});
}

Value* OpBuilder::reduceSum(Value* x, std::vector<int64_t> dims) {
  if (dims.empty())
    return x;
  std::sort(dims.begin(), dims.end());
  std::vector<int64_t> shape;
  auto xs = x->type().shape();
  for (size_t d = 0; d < xs.size(); ++d)
    if (!std::binary_search(dims.begin(), dims.end(), static_cast<int64_t>(d)))
      shape.push_back(xs[d]);
  Value* zero = splat(Type::tensor({}, x->type().elementType()), 0.0);
  std::vector<Type> types{x->type().withShape(shape)};
  Operation* op = create("stablehlo.reduce", std::vector<Value*>{x, zero}, types,
                         {named("dimensions", Attribute::denseI64Array(std::move(dims)))});
  addSumRegion(*op, x->type().elementType());
  return op->result(0);
}

Value* OpBuilder::slice(Value* x, std::vector<int64_t> start, std::vector<int64_t> limit,
                        std::vector<int64_t> strides) {
  std::vector<int64_t> shape;
  for (size_t d = 0; d < start.size(); ++d)
    shape.push_back((limit[d] - start[d] + strides[d] - 1) / strides[d]);
  return create1("stablehlo.slice", {x}, x->type().withShape(shape),
                 {named("start_indices", Attribute::denseI64Array(std::move(start))),
                  named("limit_indices", Attribute::denseI64Array(std::move(limit))),
                  named("strides", Attribute::denseI64Array(std::move(strides)))});
}

Value* OpBuilder::pad(Value* x, Value* padValue, std::vector<int64_t> low,
                      std::vector<int64_t> high, std::vector<int64_t> interior) {
  std::vector<int64_t> shape;
  for (size_t d = 0; d < low.size(); ++d) {
    int64_t n = x->type().shape()[d];
    shape.push_back(low[d] + high[d] + n + std::max<int64_t>(n - 1, 0) * interior[d]);
  }
  return create1("stablehlo.pad", {x, padValue}, x->type().withShape(shape),
                 {named("edge_padding_low", Attribute::denseI64Array(std::move(low))),
                  named("edge_padding_high", Attribute::denseI64Array(std::move(high))),
                  named("interior_padding", Attribute::denseI64Array(std::move(interior)))});
}

Value* OpBuilder::dynamicSlice(Value* x, std::span<Value* const> starts,
                               std::vector<int64_t> sizes) {
  std::vector<Value*> operands{x};
  operands.insert(operands.end(), starts.begin(), starts.end());
  Type type = x->type().withShape(sizes);
  return create1("stablehlo.dynamic_slice", operands, type,
                 {named("slice_sizes", Attribute::denseI64Array(std::move(sizes)))});
}

Value* OpBuilder::dynamicUpdateSlice(Value* x, Value* update, std::span<Value* const> starts) {
  std::vector<Value*> operands{x, update};
  operands.insert(operands.end(), starts.begin(), starts.end());
  return create1("stablehlo.dynamic_update_slice", operands, x->type());
}

Value* OpBuilder::dotGeneral(Value* lhs, Value* rhs, const std::vector<int64_t> (&dims)[4]) {
  auto ls = lhs->type().shape();
  auto rs = rhs->type().shape();
  auto contains = [](const std::vector<int64_t>& v, int64_t d) {
    return std::find(v.begin(), v.end(), d) != v.end();
  };
  std::vector<int64_t> shape;
  for (int64_t d : dims[0])
    shape.push_back(ls[static_cast<size_t>(d)]);
  for (size_t d = 0; d < ls.size(); ++d)
    if (!contains(dims[0], static_cast<int64_t>(d)) && !contains(dims[2], static_cast<int64_t>(d)))
      shape.push_back(ls[d]);
  for (size_t d = 0; d < rs.size(); ++d)
    if (!contains(dims[1], static_cast<int64_t>(d)) && !contains(dims[3], static_cast<int64_t>(d)))
      shape.push_back(rs[d]);
  return create1("stablehlo.dot_general", {lhs, rhs}, lhs->type().withShape(shape),
                 {named("dot_dimension_numbers", dotDims(dims))});
}

} // namespace shardscope::autodiff::detail
