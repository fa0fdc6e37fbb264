#pragma once

#include "core/ir/sdy_types.h"
#include "core/ir/type.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::ir {

struct AttrStorage;
class Attribute;

/// A name/value pair in an attribute dictionary.
struct NamedAttribute {
  std::string name;
  std::shared_ptr<const AttrStorage> value;
};

/// An immutable attribute value (MLIR's `Attribute`). Cheap to copy (a shared pointer). A default
/// constructed `Attribute` is null. Use `as<T>()` to view it as one of the concrete kinds below.
class Attribute {
public:
  enum class Kind : uint8_t {
    Unit, Bool, Integer, Float, String, Type, Array, DenseArray, Dictionary, SymbolRef,
    DenseElements, DenseResource, Opaque,
    // Shardy attributes.
    Mesh, Sharding, ShardingPerValue, ManualAxes, ShardingRule, AxisRefList, AxisRefListList,
    AllToAllParams, DimShardingList,
  };

  Attribute() = default;
  Attribute(std::shared_ptr<const AttrStorage> impl) : m_impl(std::move(impl)) {}

  explicit operator bool() const { return m_impl != nullptr; }
  Kind kind() const;

  /// Returns this attribute viewed as `T`, or null when it is of another kind.
  template <typename T> const T* as() const {
    return m_impl && kind() == T::kKind ? static_cast<const T*>(m_impl.get()) : nullptr;
  }

  /// Prints the attribute in MLIR syntax (`#sdy.sharding<...>`, `dense<...> : tensor<...>`).
  std::string str() const;
  /// Appends the MLIR syntax to `out`. Dialect attributes are printed with their `#dialect.name`
  /// prefix unless `elidePrefix` is set (custom op formats print `<@mesh, ...>` bare).
  void print(std::string& out, bool elidePrefix = false) const;

  /// Structural equality.
  bool operator==(const Attribute& other) const;

  const std::shared_ptr<const AttrStorage>& impl() const { return m_impl; }

  // Factories.
  static Attribute unit();
  static Attribute boolean(bool value);
  static Attribute integer(int64_t value, Type type);
  static Attribute floating(double value, Type type);
  static Attribute string(std::string value);
  static Attribute type(Type value);
  static Attribute array(std::vector<Attribute> elements);
  static Attribute denseI64Array(std::vector<int64_t> values);
  static Attribute dictionary(std::vector<NamedAttribute> entries);
  static Attribute symbolRef(std::vector<std::string> path);
  static Attribute opaque(std::string text);
  static Attribute mesh(Mesh mesh);
  static Attribute sharding(TensorSharding sharding);
  static Attribute shardingPerValue(std::vector<TensorSharding> shardings);
  static Attribute manualAxes(std::vector<std::string> axes);
  static Attribute shardingRule(OpShardingRule rule);
  static Attribute axisRefList(std::vector<AxisRef> axes);
  static Attribute axisRefListList(std::vector<std::vector<AxisRef>> lists);
  static Attribute allToAllParams(std::vector<AllToAllParam> params);
  static Attribute dimShardingList(std::vector<DimensionSharding> dims);

private:
  std::shared_ptr<const AttrStorage> m_impl;
};

/// Base of every attribute payload.
struct AttrStorage {
  explicit AttrStorage(Attribute::Kind k) : kind(k) {}
  virtual ~AttrStorage() = default;
  Attribute::Kind kind;
};

template <Attribute::Kind K> struct AttrBase : AttrStorage {
  static constexpr Attribute::Kind kKind = K;
  AttrBase() : AttrStorage(K) {}
};

struct UnitAttr : AttrBase<Attribute::Kind::Unit> {};
struct BoolAttr : AttrBase<Attribute::Kind::Bool> {
  bool value = false;
};
/// An integer with its type (`4 : i64`). Unsigned 64-bit values are stored as their bit pattern.
struct IntegerAttr : AttrBase<Attribute::Kind::Integer> {
  int64_t value = 0;
  Type type;
};
struct FloatAttr : AttrBase<Attribute::Kind::Float> {
  double value = 0;
  Type type;
};
struct StringAttr : AttrBase<Attribute::Kind::String> {
  std::string value;
};
struct TypeAttr : AttrBase<Attribute::Kind::Type> {
  Type value;
};
struct ArrayAttr : AttrBase<Attribute::Kind::Array> {
  std::vector<Attribute> elements;
};
/// `array<i64: 1, 2>`; booleans and integers are stored in `ints`, floats in `floats`.
struct DenseArrayAttr : AttrBase<Attribute::Kind::DenseArray> {
  ElementType element = ElementType::I64;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  size_t size() const { return isFloatElement(element) ? floats.size() : ints.size(); }
};
/// A dictionary, sorted by name as MLIR keeps it.
struct DictionaryAttr : AttrBase<Attribute::Kind::Dictionary> {
  std::vector<NamedAttribute> entries;
  /// Returns the entry named `name`, or null.
  Attribute get(std::string_view name) const;
};
/// `@root::@nested`.
struct SymbolRefAttr : AttrBase<Attribute::Kind::SymbolRef> {
  std::vector<std::string> path;
};
/// `dense<...> : tensor<...>`. `raw` holds the elements in little-endian storage order, one byte
/// per `i1`, real then imaginary part for complex. A splat holds one element.
struct DenseElementsAttr : AttrBase<Attribute::Kind::DenseElements> {
  Type type;
  std::vector<uint8_t> raw;
  bool isSplat = false;

  /// Number of elements of the tensor type.
  int64_t numElements() const { return type.numElements(); }
  /// Element `i` as a double (real part for complex). Precondition: i < numElements().
  double floatAt(int64_t i) const;
  /// Element `i` as a signed 64-bit integer (bit pattern for ui64, 0/1 for i1).
  int64_t intAt(int64_t i) const;
  /// Imaginary part of complex element `i`.
  double imagAt(int64_t i) const;
};
/// One blob of a file's `{-# dialect_resources: { builtin: { key: "0x..." } } #-}` section. The
/// hex text starts with the blob's alignment (4 bytes, little-endian), then its raw bytes.
struct ResourceBlob {
  std::string key;
  uint32_t alignment = 0;
  std::vector<uint8_t> data; ///< without the alignment prefix
  bool defined = false;      ///< false while (or if) the file never gives the blob's data
};

/// `dense_resource<key> : tensor<...>`: elements stored in a resource blob of the file rather
/// than inline. Prints back as written; `toDense` gives the elements.
struct DenseResourceAttr : AttrBase<Attribute::Kind::DenseResource> {
  Type type;
  std::shared_ptr<const ResourceBlob> blob;

  /// The elements as a dense attribute (little-endian data, one byte per `i1`, as
  /// `DenseElementsAttr` keeps them). Returns null and sets `error` when the blob has no data or
  /// its size does not fit `type`.
  std::shared_ptr<const DenseElementsAttr> toDense(std::string& error) const;
};

/// Prints `key` as MLIR prints a resource key: bare when it is an identifier, else quoted.
void printResourceKey(std::string_view key, std::string& out);

/// An attribute the IR keeps as text and prints verbatim (`#stablehlo.gather<...>`,
/// `#stablehlo<comparison_direction LT>`, `loc(...)`, ...).
struct OpaqueAttr : AttrBase<Attribute::Kind::Opaque> {
  std::string text;
};
struct MeshAttr : AttrBase<Attribute::Kind::Mesh> {
  Mesh mesh;
};
struct ShardingAttr : AttrBase<Attribute::Kind::Sharding> {
  TensorSharding sharding;
};
struct ShardingPerValueAttr : AttrBase<Attribute::Kind::ShardingPerValue> {
  std::vector<TensorSharding> shardings;
};
struct ManualAxesAttr : AttrBase<Attribute::Kind::ManualAxes> {
  std::vector<std::string> axes;
};
struct ShardingRuleAttr : AttrBase<Attribute::Kind::ShardingRule> {
  OpShardingRule rule;
};
struct AxisRefListAttr : AttrBase<Attribute::Kind::AxisRefList> {
  std::vector<AxisRef> axes;
};
struct AxisRefListListAttr : AttrBase<Attribute::Kind::AxisRefListList> {
  std::vector<std::vector<AxisRef>> lists;
};
struct AllToAllParamsAttr : AttrBase<Attribute::Kind::AllToAllParams> {
  std::vector<AllToAllParam> params;
};
struct DimShardingListAttr : AttrBase<Attribute::Kind::DimShardingList> {
  std::vector<DimensionSharding> dims;
};

/// Prints `value` the way MLIR prints a float of element type `type`: `1.000000e+00` when that
/// reads back exactly, else the shortest exact decimal, else the bit pattern in hex.
void printFloat(double value, ElementType type, std::string& out);

/// Rounds `value` to `type` (f16, bf16, f32, ...) and back to double.
double roundToElement(double value, ElementType type);

/// Printers for Shardy building blocks, shared by the attribute printer and custom op formats.
void printAxisRef(const AxisRef& axis, std::string& out);
void printAxisRefList(std::span<const AxisRef> axes, std::string& out); // {"x", "y"}
void printDimSharding(const DimensionSharding& dim, std::string& out);
void printMesh(const Mesh& mesh, std::string& out);                // <["x"=2], device_ids=[..]>
void printTensorSharding(const TensorSharding& s, std::string& out); // <@mesh, [...]>

} // namespace shardscope::ir
