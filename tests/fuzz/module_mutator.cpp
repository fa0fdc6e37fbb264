#include "tests/fuzz/module_mutator.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <optional>
#include <vector>

namespace shardscope::fuzz {

namespace {

struct Span {
  size_t begin = 0;
  size_t end = 0; // one past the last character
};

bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}

size_t pick(size_t n, std::mt19937_64& random) {
  return std::uniform_int_distribution<size_t>(0, n - 1)(random);
}

template <typename T> const T& pickFrom(const std::vector<T>& items, std::mt19937_64& random) {
  return items[pick(items.size(), random)];
}

// A boundary value near `current` (or anywhere): what size and index checks must get right.
std::string interestingInteger(std::optional<int64_t> current, std::mt19937_64& random) {
  static const std::array<const char*, 24> fixed = {
      "0",          "1",          "2",          "3",
      "4",          "5",          "7",          "8",
      "16",         "31",         "32",         "64",
      "128",        "255",        "1024",       "65536",
      "-1",         "-2",         "2147483647", "2147483648",
      "4294967296", "4611686018427387904",     "9223372036854775807",
      "-9223372036854775808"};
  if (current && random() % 3 == 0) {
    int64_t n = *current;
    switch (random() % 4) {
    case 0: return std::to_string(n == INT64_MAX ? n : n + 1);
    case 1: return std::to_string(n == INT64_MIN ? n : n - 1);
    case 2: return std::to_string(n > INT64_MAX / 2 || n < INT64_MIN / 2 ? n : n * 2);
    default: return std::to_string(n / 2);
    }
  }
  return fixed[pick(fixed.size(), random)];
}

std::optional<int64_t> parseInt(std::string_view s) {
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size())
    return std::nullopt;
  return v;
}

// Decimal integer literals that stand alone (not part of `%arg0`, `f32`, `#map1`), with a leading
// minus sign; the digits before a `x` in a shape count (`4x8xf32`).
std::vector<Span> integerLiterals(std::string_view text) {
  std::vector<Span> spans;
  for (size_t i = 0; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i])))
      continue;
    char before = i ? text[i - 1] : ' ';
    size_t begin = i;
    size_t end = i;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
      ++end;
    bool standalone = !(std::isalnum(static_cast<unsigned char>(before)) || before == '_' ||
                        before == '%' || before == '#' || before == '^' || before == '.' ||
                        before == '@' || before == '$');
    if (before == '-')
      begin = i - 1;
    if (standalone)
      spans.push_back({begin, end});
    i = end;
  }
  return spans;
}

// The bodies of `tensor<...>` types (between the angle brackets).
std::vector<Span> tensorBodies(std::string_view text) {
  std::vector<Span> spans;
  for (size_t at = text.find("tensor<"); at != std::string_view::npos;
       at = text.find("tensor<", at + 1)) {
    size_t begin = at + 7;
    int depth = 1;
    size_t end = begin;
    while (end < text.size() && depth > 0 && text[end] != '\n') {
      if (text[end] == '<')
        ++depth;
      else if (text[end] == '>')
        --depth;
      if (depth > 0)
        ++end;
    }
    if (depth == 0)
      spans.push_back({begin, end});
  }
  return spans;
}

// Splits a tensor body `4x?x8xf32` (possibly with an encoding after a comma) into its dimension
// spans and the span of the element type.
struct ShapeParts {
  std::vector<Span> dims;
  Span element;
};
std::optional<ShapeParts> splitShape(std::string_view text, Span body) {
  ShapeParts parts;
  size_t i = body.begin;
  while (i < body.end) {
    size_t j = i;
    while (j < body.end && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '?'))
      ++j;
    if (j > i && j < body.end && text[j] == 'x') {
      parts.dims.push_back({i, j});
      i = j + 1;
      continue;
    }
    break;
  }
  size_t end = i;
  int depth = 0;
  while (end < body.end && (depth > 0 || text[end] != ',')) {
    depth += text[end] == '<';
    depth -= text[end] == '>';
    ++end;
  }
  if (end == i)
    return std::nullopt;
  parts.element = {i, end};
  return parts;
}

bool editInteger(std::string& text, std::mt19937_64& random) {
  std::vector<Span> spans = integerLiterals(text);
  if (spans.empty())
    return false;
  Span s = pickFrom(spans, random);
  std::optional<int64_t> current = parseInt(std::string_view(text).substr(s.begin, s.end - s.begin));
  text.replace(s.begin, s.end - s.begin, interestingInteger(current, random));
  return true;
}

bool editShape(std::string& text, std::mt19937_64& random) {
  std::vector<Span> bodies = tensorBodies(text);
  if (bodies.empty())
    return false;
  Span body = pickFrom(bodies, random);
  std::optional<ShapeParts> parts = splitShape(text, body);
  if (!parts)
    return false;
  static const std::array<const char*, 8> sizes = {"0", "1", "2", "3", "5", "8", "?", "16"};
  switch (parts->dims.empty() ? 2 : random() % 4) {
  case 0: { // change one dimension to another size
    Span d = pickFrom(parts->dims, random);
    std::string old = text.substr(d.begin, d.end - d.begin);
    std::string size = sizes[pick(sizes.size(), random)];
    if (size == old)
      size = old == "1" ? "2" : "1";
    text.replace(d.begin, d.end - d.begin, size);
    return true;
  }
  case 1: { // drop one dimension
    Span d = pickFrom(parts->dims, random);
    text.erase(d.begin, d.end - d.begin + 1);
    return true;
  }
  case 2: { // add a dimension
    size_t at = parts->dims.empty() ? parts->element.begin : pickFrom(parts->dims, random).begin;
    text.insert(at, std::string(sizes[pick(sizes.size(), random)]) + "x");
    return true;
  }
  default: { // a boundary size: huge, negative, zero
    Span d = pickFrom(parts->dims, random);
    std::string old = text.substr(d.begin, d.end - d.begin);
    std::string size = interestingInteger(std::nullopt, random);
    if (size == old)
      size = "-1";
    text.replace(d.begin, d.end - d.begin, size);
    return true;
  }
  }
}

bool editElementType(std::string& text, std::mt19937_64& random) {
  std::vector<Span> elements;
  for (Span body : tensorBodies(text))
    if (std::optional<ShapeParts> parts = splitShape(text, body))
      elements.push_back(parts->element);
  if (elements.empty())
    return false;
  static const std::array<const char*, 12> types = {
      "f32", "f64", "f16", "bf16", "i1", "i8", "i32", "i64", "ui32", "complex<f32>",
      "f8E4M3FN", "!stablehlo.token"};
  std::string replacement = types[pick(types.size(), random)];
  Span chosen = pickFrom(elements, random);
  std::string old = text.substr(chosen.begin, chosen.end - chosen.begin);
  if (random() % 2) { // every tensor of that element type, so the module stays consistent
    std::sort(elements.begin(), elements.end(),
              [](Span a, Span b) { return a.begin > b.begin; });
    for (Span e : elements)
      if (text.compare(e.begin, e.end - e.begin, old) == 0)
        text.replace(e.begin, e.end - e.begin, replacement);
  } else {
    text.replace(chosen.begin, chosen.end - chosen.begin, replacement);
  }
  return true;
}

// Short quoted identifiers: mesh axis names in meshes and shardings.
std::vector<Span> quotedNames(std::string_view text) {
  std::vector<Span> spans;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '"')
      continue;
    size_t j = i + 1;
    while (j < text.size() && j - i <= 17 &&
           (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
      ++j;
    if (j < text.size() && text[j] == '"' && j > i + 1) {
      spans.push_back({i, j + 1});
      i = j;
    } else if (j < text.size() && text[j] == '"') {
      i = j;
    }
  }
  return spans;
}

bool editAxisName(std::string& text, std::mt19937_64& random) {
  std::vector<Span> names = quotedNames(text);
  if (names.empty())
    return false;
  Span target = pickFrom(names, random);
  std::string replacement;
  switch (random() % 4) {
  case 0: replacement = "\"zz\""; break;
  case 1: {
    static const std::array<const char*, 5> subAxes = {":(1)2", ":(2)2", ":(1)4", ":(2)3", ":(0)1"};
    replacement = text.substr(target.begin, target.end - target.begin) +
                  subAxes[pick(subAxes.size(), random)];
    break;
  }
  default: {
    Span other = pickFrom(names, random);
    replacement = text.substr(other.begin, other.end - other.begin);
  }
  }
  text.replace(target.begin, target.end - target.begin, replacement);
  return true;
}

// `{...}` groups that look like a dimension sharding: only quoted axis names (with sub-axis
// suffixes), commas, spaces and `?` inside.
std::vector<Span> dimShardings(std::string_view text) {
  std::vector<Span> spans;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '{')
      continue;
    size_t j = i + 1;
    while (j < text.size() && text[j] != '}' &&
           (std::isalnum(static_cast<unsigned char>(text[j])) || std::string_view("\"_:(), ?").find(text[j]) != std::string_view::npos))
      ++j;
    if (j < text.size() && text[j] == '}' && i > 0 &&
        (text[i - 1] == '[' || text[i - 1] == ' ' || text[i - 1] == ','))
      spans.push_back({i, j + 1});
  }
  return spans;
}

bool editDimSharding(std::string& text, std::mt19937_64& random) {
  std::vector<Span> groups = dimShardings(text);
  if (groups.empty())
    return false;
  Span g = pickFrom(groups, random);
  std::vector<Span> names = quotedNames(text);
  auto someAxis = [&] {
    if (names.empty())
      return std::string("\"x\"");
    Span n = pickFrom(names, random);
    return text.substr(n.begin, n.end - n.begin);
  };
  std::string replacement;
  switch (random() % 7) {
  case 0: replacement = "{}"; break;
  case 1: replacement = "{?}"; break;
  case 2: replacement = "{" + someAxis() + "}"; break;
  case 3: replacement = "{" + someAxis() + ", " + someAxis() + "}"; break;
  case 4: replacement = "{" + someAxis() + ", ?}"; break;
  case 5: { // drop the group and its separating comma: the sharding's rank changes
    size_t begin = g.begin, end = g.end;
    if (end + 1 < text.size() && text[end] == ',' && text[end + 1] == ' ')
      end += 2;
    else if (begin >= 2 && text[begin - 2] == ',' && text[begin - 1] == ' ')
      begin -= 2;
    text.erase(begin, end - begin);
    return true;
  }
  default: // duplicate it
    text.insert(g.end, ", " + text.substr(g.begin, g.end - g.begin));
    return true;
  }
  text.replace(g.begin, g.end - g.begin, replacement);
  return true;
}

// The elements of integer lists: `array<i64: 1, 0>` and `[1, 0]` (dims, permutations, strides).
std::vector<Span> integerLists(std::string_view text) {
  std::vector<Span> spans;
  for (size_t i = 0; i < text.size(); ++i) {
    size_t begin;
    char close;
    if (text.compare(i, 11, "array<i64: ") == 0) {
      begin = i + 11;
      close = '>';
    } else if (text[i] == '[') {
      begin = i + 1;
      close = ']';
    } else {
      continue;
    }
    size_t j = begin;
    while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) ||
                               text[j] == ',' || text[j] == ' ' || text[j] == '-'))
      ++j;
    if (j < text.size() && text[j] == close && j > begin)
      spans.push_back({begin, j});
  }
  return spans;
}

bool editIntegerList(std::string& text, std::mt19937_64& random) {
  std::vector<Span> lists = integerLists(text);
  if (lists.empty())
    return false;
  Span list = pickFrom(lists, random);
  std::vector<std::string> items;
  std::string body = text.substr(list.begin, list.end - list.begin);
  for (size_t at = 0; at <= body.size();) {
    size_t comma = body.find(',', at);
    std::string item = body.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    item.erase(0, item.find_first_not_of(' '));
    if (!item.empty())
      items.push_back(item);
    if (comma == std::string::npos)
      break;
    at = comma + 1;
  }
  if (items.empty())
    return false;
  switch (random() % 5) {
  case 0: std::shuffle(items.begin(), items.end(), random); break;
  case 1: items.erase(items.begin() + static_cast<std::ptrdiff_t>(pick(items.size(), random))); break;
  case 2: items.push_back(items[pick(items.size(), random)]); break;
  case 3: items.push_back(std::to_string(items.size())); break;
  default: {
    std::string& item = items[pick(items.size(), random)];
    item = interestingInteger(parseInt(item), random);
  }
  }
  std::string joined;
  for (size_t k = 0; k < items.size(); ++k)
    joined += (k ? ", " : "") + items[k];
  text.replace(list.begin, list.end - list.begin, joined);
  return true;
}

bool editSsaUse(std::string& text, std::mt19937_64& random) {
  std::vector<Span> uses;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%')
      continue;
    size_t j = i + 1;
    while (j < text.size() && isIdentChar(text[j]))
      ++j;
    if (j > i + 1)
      uses.push_back({i, j});
    i = j - 1;
  }
  if (uses.size() < 2)
    return false;
  Span target = pickFrom(uses, random);
  Span other = pickFrom(uses, random);
  std::string name = text.substr(other.begin, other.end - other.begin);
  text.replace(target.begin, target.end - target.begin, name);
  return true;
}

bool editOpName(std::string& text, std::mt19937_64& random) {
  static const std::vector<std::vector<std::string_view>> families = {
      {"stablehlo.add", "stablehlo.subtract", "stablehlo.multiply", "stablehlo.divide",
       "stablehlo.maximum", "stablehlo.minimum", "stablehlo.power", "stablehlo.remainder",
       "stablehlo.and", "stablehlo.or", "stablehlo.xor", "stablehlo.atan2",
       "stablehlo.shift_left"},
      {"stablehlo.abs", "stablehlo.negate", "stablehlo.exponential", "stablehlo.log",
       "stablehlo.sqrt", "stablehlo.rsqrt", "stablehlo.tanh", "stablehlo.sine", "stablehlo.floor",
       "stablehlo.not", "stablehlo.sign", "stablehlo.convert", "stablehlo.bitcast_convert",
       "stablehlo.reshape", "stablehlo.popcnt"},
      {"stablehlo.all_reduce", "stablehlo.reduce_scatter", "stablehlo.all_gather",
       "stablehlo.all_to_all", "stablehlo.collective_permute", "stablehlo.collective_broadcast"},
      {"sdy.all_gather", "sdy.all_slice", "sdy.all_reduce", "sdy.reduce_scatter",
       "sdy.all_to_all", "sdy.collective_permute", "sdy.reshard", "sdy.sharding_constraint"},
      {"stablehlo.reduce", "stablehlo.reduce_window", "stablehlo.scatter", "stablehlo.sort",
       "stablehlo.select_and_scatter", "stablehlo.map"},
      {"stablehlo.dynamic_slice", "stablehlo.slice", "stablehlo.pad", "stablehlo.gather",
       "stablehlo.dynamic_update_slice", "stablehlo.concatenate"},
  };
  struct Hit {
    Span span;
    const std::vector<std::string_view>* family;
  };
  std::vector<Hit> hits;
  for (const auto& family : families)
    for (std::string_view name : family)
      for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
        size_t end = at + name.size();
        if ((end == text.size() || !isIdentChar(text[end])) && (at == 0 || !isIdentChar(text[at - 1])))
          hits.push_back({{at, end}, &family});
      }
  if (hits.empty())
    return false;
  const Hit& hit = pickFrom(hits, random);
  std::string_view replacement = (*hit.family)[pick(hit.family->size(), random)];
  text.replace(hit.span.begin, hit.span.end - hit.span.begin, replacement);
  return true;
}

} // namespace

bool applyModuleEdit(std::string& text, ModuleEdit edit, std::mt19937_64& random) {
  switch (edit) {
  case ModuleEdit::Integer: return editInteger(text, random);
  case ModuleEdit::Shape: return editShape(text, random);
  case ModuleEdit::ElementType: return editElementType(text, random);
  case ModuleEdit::AxisName: return editAxisName(text, random);
  case ModuleEdit::DimSharding: return editDimSharding(text, random);
  case ModuleEdit::IntegerList: return editIntegerList(text, random);
  case ModuleEdit::SsaUse: return editSsaUse(text, random);
  case ModuleEdit::OpName: return editOpName(text, random);
  }
  return false;
}

bool mutateModuleText(std::string& text, std::mt19937_64& random) {
  // Mostly one edit, so that most mutants differ from a valid module in one place.
  uint64_t roll = random() % 6;
  int edits = roll < 3 ? 1 : roll < 5 ? 2 : 3;
  bool any = false;
  for (int attempt = 0; attempt < 8 && edits > 0; ++attempt) {
    auto edit = static_cast<ModuleEdit>(random() % kModuleEditCount);
    if (applyModuleEdit(text, edit, random)) {
      any = true;
      --edits;
    }
  }
  return any;
}

} // namespace shardscope::fuzz
