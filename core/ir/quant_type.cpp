#include "core/ir/quant_type.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace shardscope::ir {

namespace {

// A tiny cursor over the type's text.
struct Cursor {
  std::string_view s;
  void skipSpace() {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
      s.remove_prefix(1);
  }
  bool eat(std::string_view p) {
    skipSpace();
    if (!s.starts_with(p))
      return false;
    s.remove_prefix(p.size());
    return true;
  }
  bool number(double& v) {
    skipSpace();
    std::string text(s.substr(0, std::min<size_t>(s.size(), 64)));
    char* end = nullptr;
    v = std::strtod(text.c_str(), &end);
    if (end == text.c_str())
      return false;
    s.remove_prefix(static_cast<size_t>(end - text.c_str()));
    return true;
  }
  bool integer(int64_t& v) {
    skipSpace();
    const char* begin = s.data();
    if (!s.empty() && s.front() == '+')
      ++begin;
    auto [end, ec] = std::from_chars(begin, s.data() + s.size(), v);
    if (ec != std::errc())
      return false;
    s.remove_prefix(static_cast<size_t>(end - s.data()));
    return true;
  }
  std::string_view word() {
    skipSpace();
    size_t n = 0;
    while (n < s.size() && (std::isalnum(static_cast<unsigned char>(s[n])) || s[n] == '_'))
      ++n;
    std::string_view w = s.substr(0, n);
    s.remove_prefix(n);
    return w;
  }
};

int storageBits(const QuantType& q) { return elementBitWidth(q.storage); }

// The range of a `bits`-wide storage integer, saturated to int64 (a 64-bit storage type is
// refused by the invariants, but its range is read first).
int64_t defaultStorageMin(QuantType::Sign sign, int bits) {
  if (sign == QuantType::Sign::Unsigned)
    return 0;
  return bits >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (bits - 1));
}
int64_t defaultStorageMax(QuantType::Sign sign, int bits) {
  if (sign == QuantType::Sign::Unsigned)
    return bits >= 63 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << bits) - 1;
  return bits >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (bits - 1)) - 1;
}

// `i8`, `si8` or `ui8`: the storage integer of one of the widths the IR has.
bool parseStorage(std::string_view word, QuantType& q) {
  QuantType::Sign sign = QuantType::Sign::Signless;
  if (word.starts_with("si")) {
    sign = QuantType::Sign::Signed;
    word.remove_prefix(1);
  } else if (word.starts_with("ui")) {
    sign = QuantType::Sign::Unsigned;
    word.remove_prefix(1);
  }
  std::optional<ElementType> storage =
      parseElementTypeName(sign == QuantType::Sign::Unsigned ? "u" + std::string(word)
                                                             : std::string(word));
  if (!storage || !isIntegerElement(*storage) || *storage == ElementType::I1)
    return false;
  q.storage = *storage;
  q.storageSign = sign;
  int bits = storageBits(q);
  q.storageMin = defaultStorageMin(sign, bits);
  q.storageMax = defaultStorageMax(sign, bits);
  return true;
}

// `scale` or `scale:zero_point`.
bool parseParam(Cursor& c, QuantType& q) {
  double scale = 0;
  int64_t zp = 0;
  if (!c.number(scale))
    return false;
  if (c.eat(":") && !c.integer(zp))
    return false;
  q.scales.push_back(scale);
  q.zeroPoints.push_back(zp);
  return true;
}

// MLIR streams a double into text and diagnostics as `%e`.
std::string mlirDouble(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%e", v);
  return buffer;
}

// The shortest decimal that reads back to `v`.
std::string exactDouble(double v) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
  return ec == std::errc() ? std::string(buffer, end) : mlirDouble(v);
}

std::string text(const QuantType& q, std::string (*scaleText)(double)) {
  std::string out = q.unranked ? "tensor<*x" : "tensor<";
  for (int64_t d : q.shape)
    out += std::to_string(d) + "x";
  out += "!quant.uniform<";
  int bits = storageBits(q);
  out += q.storageSign == QuantType::Sign::Signed     ? "si"
         : q.storageSign == QuantType::Sign::Unsigned ? "ui"
                                                      : "i";
  out += std::to_string(bits);
  if (q.storageMin != defaultStorageMin(q.storageSign, bits) ||
      q.storageMax != defaultStorageMax(q.storageSign, bits))
    out += "<" + std::to_string(q.storageMin) + ":" + std::to_string(q.storageMax) + ">";
  out += ":";
  out += elementTypeName(q.expressed);
  if (q.perAxis())
    out += ":" + std::to_string(q.axis);
  out += ", ";
  auto param = [&](size_t i) {
    std::string p = scaleText(q.scales[i]);
    if (q.zeroPoints[i] != 0)
      p += ":" + std::to_string(q.zeroPoints[i]);
    return p;
  };
  if (q.perAxis()) {
    out += "{";
    for (size_t i = 0; i < q.scales.size(); ++i)
      out += (i ? "," : "") + param(i);
    out += "}";
  } else if (!q.scales.empty()) {
    out += param(0);
  }
  return out + ">>";
}

// The positive range of the expressed type's finite values, subnormals included; nothing for
// the narrow float types, whose range is not checked here.
std::optional<std::pair<double, double>> scaleRange(ElementType expressed) {
  switch (expressed) {
  case ElementType::F16:
    return std::pair{std::ldexp(1.0, -24), 65504.0};
  case ElementType::BF16:
    return std::pair{std::ldexp(1.0, -133), std::ldexp(255.0 / 128.0, 127)};
  case ElementType::F32:
    return std::pair{double(std::numeric_limits<float>::denorm_min()),
                     double(std::numeric_limits<float>::max())};
  case ElementType::F64:
    return std::pair{std::numeric_limits<double>::denorm_min(),
                     std::numeric_limits<double>::max()};
  default:
    return std::nullopt;
  }
}

} // namespace

bool QuantType::sameElement(const QuantType& other) const {
  return storage == other.storage && storageSign == other.storageSign &&
         expressed == other.expressed && axis == other.axis && scales == other.scales &&
         zeroPoints == other.zeroPoints && storageMin == other.storageMin &&
         storageMax == other.storageMax;
}

Type QuantType::storageType() const { return Type::tensor(shape, storage); }
Type QuantType::expressedType() const { return Type::tensor(shape, expressed); }
Type QuantType::type() const { return Type::opaque(identityText(), printedText()); }
std::string QuantType::identityText() const { return text(*this, &exactDouble); }
std::string QuantType::printedText() const { return text(*this, &mlirDouble); }

std::optional<QuantType> parseQuantTensorText(std::string_view typeText) {
  Cursor c{typeText};
  QuantType q;
  if (!c.eat("tensor<"))
    return std::nullopt;
  if (c.eat("*")) {
    if (!c.eat("x"))
      return std::nullopt;
    q.unranked = true;
  }
  while (!q.unranked) {
    c.skipSpace();
    if (c.s.empty() || !std::isdigit(static_cast<unsigned char>(c.s.front())))
      break;
    int64_t d = 0;
    if (!c.integer(d) || !c.eat("x"))
      return std::nullopt;
    q.shape.push_back(d);
  }
  if (!c.eat("!quant.uniform<") || !parseStorage(c.word(), q))
    return std::nullopt;
  if (c.eat("<")) { // an explicit storage range `i8<-127:127>`
    if (!c.integer(q.storageMin) || !c.eat(":") || !c.integer(q.storageMax) || !c.eat(">"))
      return std::nullopt;
  }
  if (!c.eat(":"))
    return std::nullopt;
  std::optional<ElementType> expressed = parseElementTypeName(c.word());
  if (!expressed)
    return std::nullopt;
  q.expressed = *expressed;
  if (c.eat(":")) {
    if (!c.integer(q.axis))
      return std::nullopt;
    q.axisWritten = true;
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
  c.skipSpace();
  return c.s.empty() ? std::optional<QuantType>(std::move(q)) : std::nullopt;
}

std::optional<std::string> quantInvariantError(const QuantType& q) {
  int bits = storageBits(q);
  if (bits > 32)
    return "illegal storage type size: " + std::to_string(bits);
  if (q.storageMax <= q.storageMin || q.storageMin < defaultStorageMin(q.storageSign, bits) ||
      q.storageMax > defaultStorageMax(q.storageSign, bits))
    return "illegal storage min and storage max: (" + std::to_string(q.storageMin) + ":" +
           std::to_string(q.storageMax) + ")";
  if (!isFloatElement(q.expressed))
    return std::string("expressed type must be floating point");
  std::optional<std::pair<double, double>> range = scaleRange(q.expressed);
  for (double scale : q.scales) {
    if (range && (scale < range->first || scale > range->second))
      return "scale " + mlirDouble(scale) + " out of expressed type range [" +
             mlirDouble(range->first) + ", " + mlirDouble(range->second) + "]";
    if (!(scale > 0) || std::isinf(scale))
      return "illegal scale: " + mlirDouble(scale);
  }
  if (q.axisWritten && q.axis < 0)
    return "illegal quantized dimension: " + std::to_string(q.axis);
  return std::nullopt;
}

bool isValidStablehloQuantType(const QuantType& q) {
  int bits = storageBits(q);
  if (q.storageSign == QuantType::Sign::Signed || bits < 2 || bits > 32)
    return false;
  if (std::ranges::any_of(q.zeroPoints,
                          [&](int64_t zp) { return zp < q.storageMin || zp > q.storageMax; }))
    return false;
  return !q.perAxis() || (q.axis < static_cast<int64_t>(q.shape.size()) &&
                          static_cast<int64_t>(q.scales.size()) == q.shape[q.axis]);
}

std::optional<QuantType> quantTypeOf(Type type) {
  if (!type || type.kind() != Type::Kind::Opaque)
    return std::nullopt;
  std::optional<QuantType> q = parseQuantTensorText(type.opaqueText());
  if (!q || q->unranked || (q->axisWritten && q->axis < 0))
    return std::nullopt;
  bool perAxisOk = q->axis < 0 ? q->scales.size() == 1
                               : q->axis < static_cast<int64_t>(q->shape.size()) &&
                                     static_cast<int64_t>(q->scales.size()) == q->shape[q->axis];
  return perAxisOk ? q : std::nullopt;
}

} // namespace shardscope::ir
