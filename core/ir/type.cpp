#include "core/ir/type.h"

#include "core/support/checked_math.h"

#include <array>
#include <charconv>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace shardscope::ir {

struct TypeStorage {
  explicit TypeStorage(Type::Kind k) : kind(k) {}
  Type::Kind kind;
  ElementType element = ElementType::F32;
  std::vector<int64_t> shape;
  std::vector<Type> elements;
  std::vector<Type> results;
  std::string text;
  /// The printed form, computed once when the type is interned (printing is then a copy).
  std::string printed;
};

namespace {

struct ElementInfo {
  ElementType type;
  std::string_view name;
  int bits;
};

constexpr std::array kElements = {
    ElementInfo{ElementType::F64, "f64", 64},
    ElementInfo{ElementType::F32, "f32", 32},
    ElementInfo{ElementType::F16, "f16", 16},
    ElementInfo{ElementType::BF16, "bf16", 16},
    ElementInfo{ElementType::I1, "i1", 1},
    ElementInfo{ElementType::I2, "i2", 2},
    ElementInfo{ElementType::I4, "i4", 4},
    ElementInfo{ElementType::I8, "i8", 8},
    ElementInfo{ElementType::I16, "i16", 16},
    ElementInfo{ElementType::I32, "i32", 32},
    ElementInfo{ElementType::I64, "i64", 64},
    ElementInfo{ElementType::UI2, "ui2", 2},
    ElementInfo{ElementType::UI4, "ui4", 4},
    ElementInfo{ElementType::UI8, "ui8", 8},
    ElementInfo{ElementType::UI16, "ui16", 16},
    ElementInfo{ElementType::UI32, "ui32", 32},
    ElementInfo{ElementType::UI64, "ui64", 64},
    ElementInfo{ElementType::F8E4M3FN, "f8E4M3FN", 8},
    ElementInfo{ElementType::F8E5M2, "f8E5M2", 8},
    ElementInfo{ElementType::F8E4M3FNUZ, "f8E4M3FNUZ", 8},
    ElementInfo{ElementType::F8E5M2FNUZ, "f8E5M2FNUZ", 8},
    ElementInfo{ElementType::F8E4M3B11FNUZ, "f8E4M3B11FNUZ", 8},
    ElementInfo{ElementType::Index, "index", 64},
    ElementInfo{ElementType::Complex64, "complex<f32>", 64},
    ElementInfo{ElementType::Complex128, "complex<f64>", 128},
    ElementInfo{ElementType::F8E3M4, "f8E3M4", 8},
    ElementInfo{ElementType::F8E4M3, "f8E4M3", 8},
    ElementInfo{ElementType::F8E8M0FNU, "f8E8M0FNU", 8},
    ElementInfo{ElementType::F6E2M3FN, "f6E2M3FN", 6},
    ElementInfo{ElementType::F6E3M2FN, "f6E3M2FN", 6},
    ElementInfo{ElementType::F4E2M1FN, "f4E2M1FN", 4},
};

const ElementInfo& info(ElementType type) { return kElements[static_cast<size_t>(type)]; }

// Types are interned process-wide by their printed form (an opaque type by its text): types
// are few and small, and interning
// makes equality a pointer comparison and keeps a 100k-op module's memory flat.
class TypeInterner {
public:
  const TypeStorage* intern(TypeStorage storage) {
    // The key is the printed form plus the kind. Look it up before allocating anything: almost
    // every request (one per type in the input) is for a type that already exists.
    std::string key;
    printStorage(storage, key);
    size_t printedSize = key.size();
    key.push_back(static_cast<char>('0' + static_cast<int>(storage.kind)));
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_types.find(key);
    if (it != m_types.end())
      return it->second.get();
    auto owned = std::make_unique<TypeStorage>(std::move(storage));
    if (owned->printed.empty())
      owned->printed = key.substr(0, printedSize);
    return m_types.emplace(std::move(key), std::move(owned)).first->second.get();
  }

  static void printStorage(const TypeStorage& s, std::string& out);

private:
  std::mutex m_mutex;
  std::unordered_map<std::string, std::unique_ptr<TypeStorage>> m_types;
};

TypeInterner& interner() {
  static TypeInterner* instance = new TypeInterner(); // intentionally leaked: types outlive all
  return *instance;
}

void printTypeList(std::span<const Type> types, std::string& out) {
  for (size_t i = 0; i < types.size(); ++i) {
    if (i)
      out += ", ";
    types[i].print(out);
  }
}

void TypeInterner::printStorage(const TypeStorage& s, std::string& out) {
  switch (s.kind) {
  case Type::Kind::Tensor:
    out += "tensor<";
    for (int64_t d : s.shape) {
      if (d == kDynamicSize) {
        out += '?';
      } else {
        char buf[24];
        auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), d);
        out.append(buf, static_cast<size_t>(end - buf));
      }
      out += 'x';
    }
    out += elementTypeName(s.element);
    out += '>';
    return;
  case Type::Kind::Scalar:
    out += elementTypeName(s.element);
    return;
  case Type::Kind::Token:
    out += "!stablehlo.token";
    return;
  case Type::Kind::None:
    out += "none";
    return;
  case Type::Kind::Tuple:
    out += "tuple<";
    printTypeList(s.elements, out);
    out += '>';
    return;
  case Type::Kind::Function:
    out += '(';
    printTypeList(s.elements, out);
    out += ") -> ";
    if (s.results.size() == 1 && s.results[0].kind() != Type::Kind::Function) {
      s.results[0].print(out);
    } else {
      out += '(';
      printTypeList(s.results, out);
      out += ')';
    }
    return;
  case Type::Kind::Opaque:
    out += s.text;
    return;
  }
}

} // namespace

std::string_view elementTypeName(ElementType type) { return info(type).name; }

std::optional<ElementType> parseElementTypeName(std::string_view name) {
  for (const ElementInfo& e : kElements)
    if (e.name == name)
      return e.type;
  return std::nullopt;
}

int elementBitWidth(ElementType type) { return info(type).bits; }

bool isFloatElement(ElementType type) {
  switch (type) {
  case ElementType::F64:
  case ElementType::F32:
  case ElementType::F16:
  case ElementType::BF16:
  case ElementType::F8E4M3FN:
  case ElementType::F8E5M2:
  case ElementType::F8E4M3FNUZ:
  case ElementType::F8E5M2FNUZ:
  case ElementType::F8E4M3B11FNUZ:
  case ElementType::F8E3M4:
  case ElementType::F8E4M3:
  case ElementType::F8E8M0FNU:
  case ElementType::F6E2M3FN:
  case ElementType::F6E3M2FN:
  case ElementType::F4E2M1FN:
    return true;
  default:
    return false;
  }
}

bool isComplexElement(ElementType type) {
  return type == ElementType::Complex64 || type == ElementType::Complex128;
}

bool isIntegerElement(ElementType type) { return !isFloatElement(type) && !isComplexElement(type); }

bool isUnsignedElement(ElementType type) {
  switch (type) {
  case ElementType::UI2:
  case ElementType::UI4:
  case ElementType::UI8:
  case ElementType::UI16:
  case ElementType::UI32:
  case ElementType::UI64:
    return true;
  default:
    return false;
  }
}

Type Type::tensor(std::span<const int64_t> shape, ElementType element) {
  TypeStorage s{Kind::Tensor};
  s.element = element;
  s.shape.assign(shape.begin(), shape.end());
  return Type(interner().intern(std::move(s)));
}

Type Type::scalar(ElementType element) {
  TypeStorage s{Kind::Scalar};
  s.element = element;
  return Type(interner().intern(std::move(s)));
}

Type Type::token() {
  static const Type t(interner().intern(TypeStorage{Kind::Token}));
  return t;
}

Type Type::none() {
  static const Type t(interner().intern(TypeStorage{Kind::None}));
  return t;
}

Type Type::tuple(std::span<const Type> elements) {
  TypeStorage s{Kind::Tuple};
  s.elements.assign(elements.begin(), elements.end());
  return Type(interner().intern(std::move(s)));
}

Type Type::function(std::span<const Type> inputs, std::span<const Type> results) {
  TypeStorage s{Kind::Function};
  s.elements.assign(inputs.begin(), inputs.end());
  s.results.assign(results.begin(), results.end());
  return Type(interner().intern(std::move(s)));
}

Type Type::opaque(std::string_view text, std::string_view printed) {
  TypeStorage s{Kind::Opaque};
  s.text = std::string(text);
  s.printed = std::string(printed);
  return Type(interner().intern(std::move(s)));
}

Type::Kind Type::kind() const { return m_impl->kind; }
ElementType Type::elementType() const { return m_impl->element; }
std::span<const int64_t> Type::shape() const { return m_impl->shape; }
std::span<const Type> Type::elements() const { return m_impl->elements; }
std::span<const Type> Type::results() const { return m_impl->results; }
std::string_view Type::opaqueText() const { return m_impl->text; }

bool Type::hasStaticShape() const {
  for (int64_t d : shape())
    if (d == kDynamicSize)
      return false;
  return true;
}

int64_t Type::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape()) {
    if (d == kDynamicSize)
      return -1;
    // Saturates instead of overflowing: the parser refuses such types, but passes build types too.
    n = support::checkedMul(n, d).value_or(INT64_MAX);
  }
  return n;
}

Type Type::withShape(std::span<const int64_t> newShape) const {
  return tensor(newShape, elementType());
}

std::string Type::str() const {
  std::string out;
  print(out);
  return out;
}

void Type::print(std::string& out) const {
  if (!m_impl) {
    out += "<<NULL TYPE>>";
    return;
  }
  out += m_impl->printed;
}

} // namespace shardscope::ir
