#include "core/ir/attribute.h"

#include "core/ir/minifloat.h"

#include "core/support/float16.h"

#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace shardscope::ir {

using support::bf16ToFloat;
using support::floatToBf16;
using support::floatToHalf;
using support::halfToFloat;

std::string factorSymbol(int64_t index) {
  if (index < 18)
    return std::string(1, static_cast<char>('i' + index));
  return "z_" + std::to_string(index - 17);
}

Attribute::Kind Attribute::kind() const { return m_impl->kind; }

namespace {

template <typename T, typename... Args> Attribute make(Args&&... args) {
  auto storage = std::make_shared<T>();
  return Attribute(std::move(storage));
}

template <typename T> std::shared_ptr<T> alloc() { return std::make_shared<T>(); }

bool isBareIdentifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
  });
}

// MLIR's `printEscapedString`: printable ASCII stays, a backslash doubles, and a quote or any
// other byte becomes `\XX` in upper-case hex (so `"` prints as `\22` and a newline as `\0A`).
void printQuoted(std::string_view s, std::string& out) {
  static const char* hex = "0123456789ABCDEF";
  out += '"';
  for (unsigned char c : s) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c >= 0x20 && c < 0x7f && c != '"') {
      out += static_cast<char>(c);
    } else {
      out += '\\';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  out += '"';
}

void printSymbol(std::string_view name, std::string& out) {
  out += '@';
  if (isBareIdentifier(name))
    out += name;
  else
    printQuoted(name, out);
}

size_t elementBytes(ElementType e) {
  if (e == ElementType::I1)
    return 1;
  int bits = elementBitWidth(e);
  return static_cast<size_t>(bits < 8 ? 1 : bits / 8);
}

double readFloat(const uint8_t* p, ElementType e) {
  switch (e) {
  case ElementType::F64:
  case ElementType::Complex128: {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  case ElementType::F32:
  case ElementType::Complex64: {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  case ElementType::F16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return halfToFloat(h);
  }
  case ElementType::BF16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return bf16ToFloat(h);
  }
  default:
    // 8-, 6- and 4-bit float formats: one encoding per byte.
    return isMiniFloat(e) ? miniFloatToDouble(p[0], e) : static_cast<double>(p[0]);
  }
}

int64_t readInt(const uint8_t* p, ElementType e) {
  switch (elementBytes(e)) {
  case 1: {
    // Sub-byte integers (i2, i4, ui2, ui4) use the low bits of their byte.
    int shift = e == ElementType::I1 ? 0 : 8 - std::min(8, elementBitWidth(e));
    auto low = static_cast<uint8_t>(static_cast<uint8_t>(p[0] << shift) >> shift);
    if (isUnsignedElement(e) || e == ElementType::I1)
      return static_cast<int64_t>(low);
    return static_cast<int8_t>(static_cast<uint8_t>(p[0] << shift)) >> shift;
  }
  case 2: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return isUnsignedElement(e) ? static_cast<int64_t>(v) : static_cast<int16_t>(v);
  }
  case 4: {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return isUnsignedElement(e) ? static_cast<int64_t>(v) : static_cast<int32_t>(v);
  }
  default: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
  }
}

void printIntValue(int64_t v, ElementType e, std::string& out) {
  if (e == ElementType::I1) {
    out += v ? "true" : "false";
  } else if (e == ElementType::UI64) {
    out += std::to_string(static_cast<uint64_t>(v));
  } else {
    out += std::to_string(v);
  }
}

} // namespace

double roundToElement(double value, ElementType type) {
  switch (type) {
  case ElementType::F32:
  case ElementType::Complex64:
    return static_cast<float>(value);
  case ElementType::F16:
    return halfToFloat(floatToHalf(static_cast<float>(value)));
  case ElementType::BF16:
    return bf16ToFloat(floatToBf16(static_cast<float>(value)));
  default:
    return isMiniFloat(type) ? miniFloatToDouble(miniFloatFromDouble(value, type), type) : value;
  }
}

void printFloat(double value, ElementType type, std::string& out) {
  char buf[64];
  if (std::isfinite(value)) {
    std::snprintf(buf, sizeof buf, "%.6e", value);
    double back = roundToElement(std::strtod(buf, nullptr), type);
    if (std::bit_cast<uint64_t>(back) == std::bit_cast<uint64_t>(value)) {
      out += buf;
      return;
    }
    // Otherwise APFloat's default `toString`: as many significant digits as the type's
    // precision gives ((bits * 59 + 195) / 196), trailing zeros dropped.
    int mantissaBits = type == ElementType::F64 || type == ElementType::Complex128 ? 53
                       : type == ElementType::F16 ? 11
                       : type == ElementType::BF16 ? 8
                       : isMiniFloat(type)         ? miniFloatMantissaBits(type) + 1
                                                   : 24;
    int digits = (mantissaBits * 59 + 195) / 196;
    std::snprintf(buf, sizeof buf, "%.*g", digits, value);
    std::string s = buf;
    if (s.find('e') != std::string::npos) {
      std::replace(s.begin(), s.end(), 'e', 'E');
    } else if (s.find('.') == std::string::npos) {
      s += ".0";
    }
    if (s.find('.') != std::string::npos) {
      out += s;
      return;
    }
  }
  // Non-finite values (and anything not expressible in decimal) print as their bit pattern.
  uint64_t bits;
  int digits;
  switch (type) {
  case ElementType::F32:
  case ElementType::Complex64:
    bits = std::bit_cast<uint32_t>(static_cast<float>(value));
    digits = 8;
    break;
  case ElementType::F16:
    bits = floatToHalf(static_cast<float>(value));
    digits = 4;
    break;
  case ElementType::BF16:
    bits = floatToBf16(static_cast<float>(value));
    digits = 4;
    break;
  default:
    if (isMiniFloat(type)) {
      bits = miniFloatFromDouble(value, type);
      digits = 2;
      break;
    }
    bits = std::bit_cast<uint64_t>(value);
    digits = 16;
  }
  std::snprintf(buf, sizeof buf, "0x%0*" PRIX64, digits, bits);
  out += buf;
}

double DenseElementsAttr::floatAt(int64_t i) const {
  ElementType e = type.elementType();
  size_t width = elementBytes(e); // a whole complex element: real then imaginary part
  size_t index = isSplat ? 0 : static_cast<size_t>(i);
  const uint8_t* p = raw.data() + index * width;
  return isFloatElement(e) || isComplexElement(e) ? readFloat(p, e)
                                                  : static_cast<double>(readInt(p, e));
}

double DenseElementsAttr::imagAt(int64_t i) const {
  ElementType e = type.elementType();
  size_t half = elementBytes(e) / 2;
  size_t index = isSplat ? 0 : static_cast<size_t>(i);
  return readFloat(raw.data() + index * 2 * half + half, e);
}

int64_t DenseElementsAttr::intAt(int64_t i) const {
  ElementType e = type.elementType();
  size_t index = isSplat ? 0 : static_cast<size_t>(i);
  if (isFloatElement(e))
    return static_cast<int64_t>(floatAt(i));
  return readInt(raw.data() + index * elementBytes(e), e);
}

Attribute DictionaryAttr::get(std::string_view name) const {
  for (const NamedAttribute& entry : entries)
    if (entry.name == name)
      return Attribute(entry.value);
  return {};
}

// ---------------------------------------------------------------------------------------------
// Factories

Attribute Attribute::unit() {
  static const Attribute u(std::make_shared<UnitAttr>());
  return u;
}

Attribute Attribute::boolean(bool value) {
  auto a = alloc<BoolAttr>();
  a->value = value;
  return Attribute(std::move(a));
}

Attribute Attribute::integer(int64_t value, Type type) {
  auto a = alloc<IntegerAttr>();
  a->value = value;
  a->type = type;
  return Attribute(std::move(a));
}

Attribute Attribute::floating(double value, Type type) {
  auto a = alloc<FloatAttr>();
  a->value = value;
  a->type = type;
  return Attribute(std::move(a));
}

Attribute Attribute::string(std::string value) {
  auto a = alloc<StringAttr>();
  a->value = std::move(value);
  return Attribute(std::move(a));
}

Attribute Attribute::type(Type value) {
  auto a = alloc<TypeAttr>();
  a->value = value;
  return Attribute(std::move(a));
}

Attribute Attribute::array(std::vector<Attribute> elements) {
  auto a = alloc<ArrayAttr>();
  a->elements = std::move(elements);
  return Attribute(std::move(a));
}

Attribute Attribute::denseI64Array(std::vector<int64_t> values) {
  auto a = alloc<DenseArrayAttr>();
  a->element = ElementType::I64;
  a->ints = std::move(values);
  return Attribute(std::move(a));
}

Attribute Attribute::dictionary(std::vector<NamedAttribute> entries) {
  auto a = alloc<DictionaryAttr>();
  std::stable_sort(entries.begin(), entries.end(),
                   [](const NamedAttribute& x, const NamedAttribute& y) { return x.name < y.name; });
  a->entries = std::move(entries);
  return Attribute(std::move(a));
}

Attribute Attribute::symbolRef(std::vector<std::string> path) {
  auto a = alloc<SymbolRefAttr>();
  a->path = std::move(path);
  return Attribute(std::move(a));
}

Attribute Attribute::opaque(std::string text) {
  auto a = alloc<OpaqueAttr>();
  a->text = std::move(text);
  return Attribute(std::move(a));
}

Attribute Attribute::mesh(Mesh mesh) {
  auto a = alloc<MeshAttr>();
  a->mesh = std::move(mesh);
  return Attribute(std::move(a));
}

Attribute Attribute::sharding(TensorSharding sharding) {
  auto a = alloc<ShardingAttr>();
  a->sharding = std::move(sharding);
  return Attribute(std::move(a));
}

Attribute Attribute::shardingPerValue(std::vector<TensorSharding> shardings) {
  auto a = alloc<ShardingPerValueAttr>();
  a->shardings = std::move(shardings);
  return Attribute(std::move(a));
}

Attribute Attribute::manualAxes(std::vector<std::string> axes) {
  auto a = alloc<ManualAxesAttr>();
  a->axes = std::move(axes);
  return Attribute(std::move(a));
}

Attribute Attribute::shardingRule(OpShardingRule rule) {
  auto a = alloc<ShardingRuleAttr>();
  a->rule = std::move(rule);
  return Attribute(std::move(a));
}

Attribute Attribute::axisRefList(std::vector<AxisRef> axes) {
  auto a = alloc<AxisRefListAttr>();
  a->axes = std::move(axes);
  return Attribute(std::move(a));
}

Attribute Attribute::axisRefListList(std::vector<std::vector<AxisRef>> lists) {
  auto a = alloc<AxisRefListListAttr>();
  a->lists = std::move(lists);
  return Attribute(std::move(a));
}

Attribute Attribute::allToAllParams(std::vector<AllToAllParam> params) {
  auto a = alloc<AllToAllParamsAttr>();
  a->params = std::move(params);
  return Attribute(std::move(a));
}

Attribute Attribute::dimShardingList(std::vector<DimensionSharding> dims) {
  auto a = alloc<DimShardingListAttr>();
  a->dims = std::move(dims);
  return Attribute(std::move(a));
}

void printResourceKey(std::string_view key, std::string& out) {
  if (isBareIdentifier(key))
    out += key;
  else
    printQuoted(key, out);
}

std::shared_ptr<const DenseElementsAttr> DenseResourceAttr::toDense(std::string& error) const {
  if (!blob || !blob->defined) {
    error = "dense resource '" + (blob ? blob->key : std::string()) + "' has no data";
    return nullptr;
  }
  if (!type.isTensor() || !type.hasStaticShape()) {
    error = "dense resource of type '" + type.str() + "' has no static shape";
    return nullptr;
  }
  ElementType e = type.elementType();
  int bits = elementBitWidth(e);
  // MLIR stores i1 resources one byte per element, like everything narrower than a byte.
  size_t width = bits < 8 ? 1 : static_cast<size_t>(bits / 8);
  size_t expected = width * static_cast<size_t>(type.numElements());
  if (blob->data.size() != expected) {
    error = "dense resource '" + blob->key + "' holds " + std::to_string(blob->data.size()) +
            " bytes, but '" + type.str() + "' needs " + std::to_string(expected);
    return nullptr;
  }
  auto dense = std::make_shared<DenseElementsAttr>();
  dense->type = type;
  dense->raw = blob->data;
  dense->isSplat = false;
  return dense;
}

bool Attribute::operator==(const Attribute& other) const {
  if (m_impl == other.m_impl)
    return true;
  if (!m_impl || !other.m_impl || kind() != other.kind())
    return false;
  return str() == other.str();
}

// ---------------------------------------------------------------------------------------------
// Shardy building blocks

void printAxisRef(const AxisRef& axis, std::string& out) {
  printQuoted(axis.name, out);
  if (axis.subAxis) {
    out += ":(";
    out += std::to_string(axis.subAxis->preSize);
    out += ')';
    out += std::to_string(axis.subAxis->size);
  }
}

void printAxisRefList(std::span<const AxisRef> axes, std::string& out) {
  out += '{';
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i)
      out += ", ";
    printAxisRef(axes[i], out);
  }
  out += '}';
}

void printDimSharding(const DimensionSharding& dim, std::string& out) {
  out += '{';
  for (size_t i = 0; i < dim.axes.size(); ++i) {
    if (i)
      out += ", ";
    printAxisRef(dim.axes[i], out);
  }
  if (!dim.isClosed)
    out += dim.axes.empty() ? "?" : ", ?";
  out += '}';
  if (dim.priority) {
    out += 'p';
    out += std::to_string(*dim.priority);
  }
}

void printMesh(const Mesh& mesh, std::string& out) {
  out += "<[";
  for (size_t i = 0; i < mesh.axes.size(); ++i) {
    if (i)
      out += ", ";
    printQuoted(mesh.axes[i].name, out);
    out += '=';
    out += std::to_string(mesh.axes[i].size);
  }
  out += ']';
  bool isIota = true;
  for (size_t i = 0; i < mesh.deviceIds.size(); ++i)
    isIota = isIota && mesh.deviceIds[i] == static_cast<int64_t>(i);
  // Iota device ids are the default and are dropped, except for a maximal mesh, whose single
  // device id is what makes it maximal.
  if (!mesh.deviceIds.empty() && (!isIota || mesh.axes.empty())) {
    out += ", device_ids=[";
    for (size_t i = 0; i < mesh.deviceIds.size(); ++i) {
      if (i)
        out += ", ";
      out += std::to_string(mesh.deviceIds[i]);
    }
    out += ']';
  }
  out += '>';
}

void printTensorSharding(const TensorSharding& s, std::string& out) {
  out += '<';
  if (s.inlineMesh) {
    out += "mesh";
    printMesh(*s.inlineMesh, out);
  } else {
    printSymbol(s.meshName, out);
  }
  out += ", [";
  for (size_t i = 0; i < s.dims.size(); ++i) {
    if (i)
      out += ", ";
    printDimSharding(s.dims[i], out);
  }
  out += ']';
  if (!s.replicatedAxes.empty()) {
    out += ", replicated=";
    printAxisRefList(s.replicatedAxes, out);
  }
  if (!s.unreducedAxes.empty()) {
    out += ", unreduced=";
    out += s.unreducedKind;
    printAxisRefList(s.unreducedAxes, out);
  }
  out += '>';
}

namespace {

void printFactorSet(const char* keyword, const std::vector<int64_t>& factors, std::string& out) {
  if (factors.empty())
    return;
  out += ' ';
  out += keyword;
  out += "={";
  for (size_t i = 0; i < factors.size(); ++i) {
    if (i)
      out += ", ";
    out += factorSymbol(factors[i]);
  }
  out += '}';
}

void printMappings(const std::vector<TensorMapping>& mappings, std::string& out) {
  out += '(';
  for (size_t t = 0; t < mappings.size(); ++t) {
    if (t)
      out += ", ";
    out += '[';
    for (size_t d = 0; d < mappings[t].dims.size(); ++d) {
      if (d)
        out += ", ";
      for (int64_t f : mappings[t].dims[d])
        out += factorSymbol(f);
    }
    out += ']';
  }
  out += ')';
}

void printShardingRule(const OpShardingRule& rule, std::string& out) {
  out += '<';
  printMappings(rule.operands, out);
  out += "->";
  printMappings(rule.results, out);
  if (!rule.factorSizes.empty()) {
    out += " {";
    for (size_t f = 0; f < rule.factorSizes.size(); ++f) {
      if (f)
        out += ", ";
      out += factorSymbol(static_cast<int64_t>(f));
      out += '=';
      out += std::to_string(rule.factorSizes[f]);
    }
    out += '}';
  }
  printFactorSet("reduction", rule.reductionFactors, out);
  printFactorSet("need_replication", rule.needReplicationFactors, out);
  printFactorSet("permutation", rule.permutationFactors, out);
  printFactorSet("blocked_propagation", rule.blockedPropagationFactors, out);
  if (rule.isCustom)
    out += ", custom";
  out += '>';
}

void printDenseElements(const DenseElementsAttr& d, std::string& out) {
  ElementType e = d.type.elementType();
  auto printElement = [&](int64_t i) {
    if (isComplexElement(e)) {
      out += '(';
      printFloat(d.floatAt(i), e, out);
      out += ',';
      printFloat(d.imagAt(i), e, out);
      out += ')';
    } else if (isFloatElement(e)) {
      printFloat(d.floatAt(i), e, out);
    } else {
      printIntValue(d.intAt(i), e, out);
    }
  };
  out += "dense<";
  int64_t n = d.numElements();
  // MLIR stores (and so prints) a literal whose elements are all equal as a splat.
  bool allEqual = !d.isSplat && n > 1 && !d.raw.empty();
  if (allEqual) {
    size_t width = d.raw.size() / static_cast<size_t>(n);
    for (size_t off = width; allEqual && off < d.raw.size(); off += width)
      allEqual = std::equal(d.raw.begin(), d.raw.begin() + static_cast<long>(width),
                            d.raw.begin() + static_cast<long>(off));
  }
  if (d.isSplat || allEqual || n == 1) {
    if (d.isSplat || allEqual || d.type.rank() == 0) {
      printElement(0);
    } else {
      for (int64_t k = 0; k < d.type.rank(); ++k)
        out += '[';
      printElement(0);
      for (int64_t k = 0; k < d.type.rank(); ++k)
        out += ']';
    }
  } else if (n > 100) {
    // MLIR prints large element attributes as the hex of their storage.
    static const char* hex = "0123456789ABCDEF";
    out += "\"0x";
    for (uint8_t b : d.raw) {
      out += hex[b >> 4];
      out += hex[b & 15];
    }
    out += '"';
  } else if (n == 0) {
    // Empty tensors print with no literal at all: `dense<> : tensor<0xf32>`.
  } else {
    // Element i opens one bracket for every dimension whose block starts at i and closes one for
    // every dimension whose block ends at i.
    std::span<const int64_t> shape = d.type.shape();
    int64_t rank = d.type.rank();
    std::vector<int64_t> blockSize(rank, 1);
    for (int64_t k = rank - 1; k >= 0; --k)
      blockSize[k] = shape[k] * (k + 1 < rank ? blockSize[k + 1] : 1);
    for (int64_t i = 0; i < n; ++i) {
      if (i != 0)
        out += ", ";
      for (int64_t k = 0; k < rank; ++k)
        if (i % blockSize[k] == 0)
          out += '[';
      printElement(i);
      for (int64_t k = 0; k < rank; ++k)
        if ((i + 1) % blockSize[k] == 0)
          out += ']';
    }
  }
  out += "> : ";
  d.type.print(out);
}

// Appends `print(item)` for each of `items`, with `separator` between them.
template <typename Items, typename Print>
void printJoined(const Items& items, const char* separator, std::string& out, Print&& print) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (i)
      out += separator;
    print(items[i]);
  }
}

void printInteger(const IntegerAttr& a, std::string& out) {
  ElementType e = a.type ? a.type.elementType() : ElementType::I64;
  if (e == ElementType::I1) {
    out += a.value ? "true" : "false";
    return;
  }
  printIntValue(a.value, e, out);
  out += " : ";
  a.type.print(out);
}

void printDenseArray(const DenseArrayAttr& a, std::string& out) {
  out += "array<";
  out += elementTypeName(a.element);
  if (a.size() != 0)
    out += ": ";
  for (size_t i = 0; i < a.size(); ++i) {
    if (i)
      out += ", ";
    if (isFloatElement(a.element))
      printFloat(a.floats[i], a.element, out);
    else
      printIntValue(a.ints[i], a.element, out);
  }
  out += '>';
}

void printDictionary(const DictionaryAttr& a, std::string& out) {
  out += '{';
  printJoined(a.entries, ", ", out, [&](const NamedAttribute& entry) {
    if (isBareIdentifier(entry.name))
      out += entry.name;
    else
      printQuoted(entry.name, out);
    if (entry.value->kind != Attribute::Kind::Unit) {
      out += " = ";
      Attribute(entry.value).print(out);
    }
  });
  out += '}';
}

// The attributes of the Shardy dialect: `#sdy.name<...>` / `#sdy<name ...>`, with the prefix
// elided when `elidePrefix` is set (custom op formats print them bare).
void printSdyAttribute(const Attribute& attr, bool elidePrefix, std::string& out) {
  auto prefix = [&](const char* p) {
    if (!elidePrefix)
      out += p;
  };
  auto axisRefList = [&](std::span<const AxisRef> axes) { printAxisRefList(axes, out); };
  switch (attr.kind()) {
  case Attribute::Kind::Mesh:
    prefix("#sdy.mesh");
    printMesh(attr.as<MeshAttr>()->mesh, out);
    return;
  case Attribute::Kind::Sharding:
    prefix("#sdy.sharding");
    printTensorSharding(attr.as<ShardingAttr>()->sharding, out);
    return;
  case Attribute::Kind::ShardingPerValue:
    prefix("#sdy.sharding_per_value");
    out += "<[";
    printJoined(attr.as<ShardingPerValueAttr>()->shardings, ", ", out,
                [&](const TensorSharding& s) { printTensorSharding(s, out); });
    out += "]>";
    return;
  case Attribute::Kind::ManualAxes:
    prefix("#sdy<manual_axes");
    out += '{';
    printJoined(attr.as<ManualAxesAttr>()->axes, ", ", out,
                [&](const std::string& axis) { printQuoted(axis, out); });
    out += '}';
    prefix(">");
    return;
  case Attribute::Kind::ShardingRule:
    prefix("#sdy.op_sharding_rule");
    printShardingRule(attr.as<ShardingRuleAttr>()->rule, out);
    return;
  case Attribute::Kind::AxisRefList:
    prefix("#sdy<axis_ref_list");
    printAxisRefList(attr.as<AxisRefListAttr>()->axes, out);
    prefix(">");
    return;
  case Attribute::Kind::AxisRefListList:
    prefix("#sdy<list_of_axis_ref_lists");
    out += '[';
    printJoined(attr.as<AxisRefListListAttr>()->lists, ", ", out, axisRefList);
    out += ']';
    prefix(">");
    return;
  case Attribute::Kind::AllToAllParams:
    prefix("#sdy<all_to_all_param_list");
    out += '[';
    printJoined(attr.as<AllToAllParamsAttr>()->params, ", ", out, [&](const AllToAllParam& p) {
      printAxisRefList(p.axes, out);
      out += ": " + std::to_string(p.srcDim) + "->" + std::to_string(p.tgtDim);
    });
    out += ']';
    prefix(">");
    return;
  case Attribute::Kind::DimShardingList:
    prefix("#sdy<dim_sharding_list");
    out += '[';
    printJoined(attr.as<DimShardingListAttr>()->dims, ", ", out,
                [&](const DimensionSharding& dim) { printDimSharding(dim, out); });
    out += ']';
    prefix(">");
    return;
  default: // the builtin kinds, printed by Attribute::print
    return;
  }
}

} // namespace

std::string Attribute::str() const {
  std::string out;
  print(out);
  return out;
}

void Attribute::print(std::string& out, bool elidePrefix) const {
  if (!m_impl) {
    out += "<<NULL ATTRIBUTE>>";
    return;
  }
  switch (kind()) {
  case Kind::Unit:
    out += "unit";
    return;
  case Kind::Bool:
    out += as<BoolAttr>()->value ? "true" : "false";
    return;
  case Kind::Integer:
    printInteger(*as<IntegerAttr>(), out);
    return;
  case Kind::Float: {
    const auto* a = as<FloatAttr>();
    printFloat(a->value, a->type.elementType(), out);
    out += " : ";
    a->type.print(out);
    return;
  }
  case Kind::String:
    printQuoted(as<StringAttr>()->value, out);
    return;
  case Kind::Type:
    as<TypeAttr>()->value.print(out);
    return;
  case Kind::Array:
    out += '[';
    printJoined(as<ArrayAttr>()->elements, ", ", out,
                [&](const Attribute& element) { element.print(out); });
    out += ']';
    return;
  case Kind::DenseArray:
    printDenseArray(*as<DenseArrayAttr>(), out);
    return;
  case Kind::Dictionary:
    printDictionary(*as<DictionaryAttr>(), out);
    return;
  case Kind::SymbolRef:
    printJoined(as<SymbolRefAttr>()->path, "::", out,
                [&](const std::string& name) { printSymbol(name, out); });
    return;
  case Kind::DenseElements:
    printDenseElements(*as<DenseElementsAttr>(), out);
    return;
  case Kind::DenseResource: {
    const auto* a = as<DenseResourceAttr>();
    out += "dense_resource<";
    printResourceKey(a->blob ? std::string_view(a->blob->key) : std::string_view(), out);
    out += "> : ";
    a->type.print(out);
    return;
  }
  case Kind::Opaque:
    out += as<OpaqueAttr>()->text;
    return;
  case Kind::Mesh:
  case Kind::Sharding:
  case Kind::ShardingPerValue:
  case Kind::ManualAxes:
  case Kind::ShardingRule:
  case Kind::AxisRefList:
  case Kind::AxisRefListList:
  case Kind::AllToAllParams:
  case Kind::DimShardingList:
    printSdyAttribute(*this, elidePrefix, out);
    return;
  }
}

} // namespace shardscope::ir
