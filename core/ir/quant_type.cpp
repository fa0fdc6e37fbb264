#include "core/ir/quant_type.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <string_view>

namespace shardscope::ir {

namespace {

// A tiny cursor over the type's text.
struct Cursor {
  std::string_view s;
  bool eat(std::string_view p) {
    while (!s.empty() && s.front() == ' ')
      s.remove_prefix(1);
    if (!s.starts_with(p))
      return false;
    s.remove_prefix(p.size());
    return true;
  }
  bool number(double& v) {
    while (!s.empty() && s.front() == ' ')
      s.remove_prefix(1);
    std::string text(s.substr(0, std::min<size_t>(s.size(), 64)));
    char* end = nullptr;
    v = std::strtod(text.c_str(), &end);
    if (end == text.c_str())
      return false;
    s.remove_prefix(static_cast<size_t>(end - text.c_str()));
    return true;
  }
  std::string_view word() {
    size_t n = 0;
    while (n < s.size() && (std::isalnum(static_cast<unsigned char>(s[n])) || s[n] == '_'))
      ++n;
    std::string_view w = s.substr(0, n);
    s.remove_prefix(n);
    return w;
  }
};

// `scale` or `scale:zero_point`.
bool parseParam(Cursor& c, QuantType& q) {
  double scale = 0, zp = 0;
  if (!c.number(scale))
    return false;
  if (c.eat(":") && !c.number(zp))
    return false;
  q.scales.push_back(scale);
  q.zeroPoints.push_back(static_cast<int64_t>(zp));
  return true;
}

} // namespace

bool QuantType::sameElement(const QuantType& other) const {
  return storage == other.storage && expressed == other.expressed && axis == other.axis &&
         scales == other.scales && zeroPoints == other.zeroPoints &&
         storageMin == other.storageMin && storageMax == other.storageMax;
}

Type QuantType::storageType() const { return Type::tensor(shape, storage); }
Type QuantType::expressedType() const { return Type::tensor(shape, expressed); }

std::optional<QuantType> quantTypeOf(Type type) {
  if (!type || type.kind() != Type::Kind::Opaque)
    return std::nullopt;
  Cursor c{type.opaqueText()};
  QuantType q;
  if (!c.eat("tensor<"))
    return std::nullopt;
  while (!c.s.empty() && std::isdigit(static_cast<unsigned char>(c.s.front()))) {
    double d = 0;
    if (!c.number(d) || !c.eat("x"))
      return std::nullopt;
    q.shape.push_back(static_cast<int64_t>(d));
  }
  if (!c.eat("!quant.uniform<"))
    return std::nullopt;
  std::optional<ElementType> storage = parseElementTypeName(c.word());
  if (!storage || !isIntegerElement(*storage))
    return std::nullopt;
  q.storage = *storage;
  int bits = elementBitWidth(q.storage);
  bool isUnsigned = isUnsignedElement(q.storage);
  q.storageMin = isUnsigned ? 0 : -(int64_t{1} << (bits - 1));
  q.storageMax = isUnsigned ? (int64_t{1} << bits) - 1 : (int64_t{1} << (bits - 1)) - 1;
  if (c.eat("<")) { // explicit storage range `i8<-127:127>`
    double lo = 0, hi = 0;
    if (!c.number(lo) || !c.eat(":") || !c.number(hi) || !c.eat(">"))
      return std::nullopt;
    q.storageMin = static_cast<int64_t>(lo);
    q.storageMax = static_cast<int64_t>(hi);
  }
  if (!c.eat(":"))
    return std::nullopt;
  std::optional<ElementType> expressed = parseElementTypeName(c.word());
  if (!expressed || !isFloatElement(*expressed))
    return std::nullopt;
  q.expressed = *expressed;
  if (c.eat(":")) {
    double axis = 0;
    if (!c.number(axis))
      return std::nullopt;
    q.axis = static_cast<int64_t>(axis);
  }
  if (!c.eat(","))
    return std::nullopt;
  if (c.eat("{")) {
    do {
      if (!parseParam(c, q))
        return std::nullopt;
    } while (c.eat(","));
    if (!c.eat("}"))
      return std::nullopt;
  } else if (!parseParam(c, q)) {
    return std::nullopt;
  }
  if (!c.eat(">") || !c.eat(">"))
    return std::nullopt;
  bool perAxisOk = q.axis < 0 ? q.scales.size() == 1
                              : q.axis < static_cast<int64_t>(q.shape.size()) &&
                                    static_cast<int64_t>(q.scales.size()) == q.shape[q.axis];
  return perAxisOk ? std::optional<QuantType>(q) : std::nullopt;
}

} // namespace shardscope::ir
