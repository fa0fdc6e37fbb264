#include "core/ir/location.h"

namespace shardscope::ir {

namespace {
// Location aliases may be defined after use, so a hostile file can make a location contain
// itself. Every walk below stops at this depth; real locations nest a few dozen levels (one
// call-site per Python frame).
constexpr int kMaxWalkDepth = 256;
} // namespace

LocationTable::LocationTable() { m_locs.emplace_back(); }

DebugLoc LocationTable::add(DebugLocation loc) {
  m_locs.push_back(std::move(loc));
  return static_cast<DebugLoc>(m_locs.size() - 1);
}

void LocationTable::set(DebugLoc id, DebugLocation loc) {
  if (id != kUnknownLoc && id < m_locs.size())
    m_locs[id] = std::move(loc);
}

const DebugLocation& LocationTable::get(DebugLoc id) const {
  return id < m_locs.size() ? m_locs[id] : m_locs[0];
}

std::string_view LocationTable::jaxName(DebugLoc id) const {
  for (int depth = 0; depth < kMaxWalkDepth; ++depth) {
    const DebugLocation& loc = get(id);
    if (loc.kind == DebugLocation::Kind::Fused) {
      DebugLoc named = kUnknownLoc;
      for (DebugLoc part : loc.children)
        if (named == kUnknownLoc && get(part).kind == DebugLocation::Kind::Name)
          named = part;
      if (named == kUnknownLoc)
        return {};
      id = named;
      continue;
    }
    if (loc.kind != DebugLocation::Kind::Name)
      return {};
    // Follow the chain while the child is itself a name: JAX writes `"dot_general:"("jit(f)/
    // jit(main)/dot_general"(callsite(...)))`, and the inner name is the full path.
    if (loc.children.empty() || get(loc.children[0]).kind != DebugLocation::Kind::Name)
      return loc.text;
    id = loc.children[0];
  }
  return {};
}

std::string LocationTable::fileLine(DebugLoc id) const {
  std::vector<std::pair<DebugLoc, int>> stack{{id, 0}};
  while (!stack.empty()) {
    auto [current, depth] = stack.back();
    stack.pop_back();
    const DebugLocation& loc = get(current);
    if (loc.kind == DebugLocation::Kind::FileLineCol)
      return loc.text + ":" + std::to_string(loc.line);
    if (depth >= kMaxWalkDepth)
      continue;
    for (auto it = loc.children.rbegin(); it != loc.children.rend(); ++it)
      stack.emplace_back(*it, depth + 1);
  }
  return {};
}

std::string LocationTable::label(DebugLoc id) const {
  std::string_view name = jaxName(id);
  if (!name.empty())
    return std::string(name);
  return fileLine(id);
}

namespace {
void printQuoted(std::string_view s, std::string& out) {
  out += '"';
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  out += '"';
}
} // namespace

void LocationTable::print(DebugLoc id, std::string& out, int depth) const {
  const DebugLocation& loc = get(id);
  if (depth > kMaxWalkDepth) {
    out += "...";
    return;
  }
  switch (loc.kind) {
  case DebugLocation::Kind::Unknown:
    out += "unknown";
    return;
  case DebugLocation::Kind::FileLineCol:
    printQuoted(loc.text, out);
    out += ':' + std::to_string(loc.line) + ':' + std::to_string(loc.column);
    if (loc.endLine != 0 || loc.endColumn != 0) {
      out += " to ";
      if (loc.endLine != loc.line)
        out += std::to_string(loc.endLine);
      out += ':' + std::to_string(loc.endColumn);
    }
    return;
  case DebugLocation::Kind::Name:
    printQuoted(loc.text, out);
    if (!loc.children.empty()) {
      out += '(';
      print(loc.children[0], out, depth + 1);
      out += ')';
    }
    return;
  case DebugLocation::Kind::CallSite:
    out += "callsite(";
    if (loc.children.size() == 2) {
      print(loc.children[0], out, depth + 1);
      out += " at ";
      print(loc.children[1], out, depth + 1);
    }
    out += ')';
    return;
  case DebugLocation::Kind::Fused:
    out += "fused";
    if (!loc.text.empty())
      out += '<' + loc.text + '>';
    out += '[';
    for (size_t i = 0; i < loc.children.size(); ++i) {
      if (i)
        out += ", ";
      print(loc.children[i], out, depth + 1);
    }
    out += ']';
    return;
  }
}

std::string LocationTable::str(DebugLoc id) const {
  std::string out = "loc(";
  print(id, out, 0);
  out += ')';
  return out;
}

std::string shortJaxName(std::string_view name) {
  // Find the last `/` that is not inside `[...]` or `(...)`.
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '[' || c == '(')
      ++depth;
    else if ((c == ']' || c == ')') && depth > 0)
      --depth;
    else if (c == '/' && depth == 0)
      start = i + 1;
  }
  std::string_view last = name.substr(start);
  if (size_t bracket = last.find('['); bracket != std::string_view::npos && bracket > 0)
    last = last.substr(0, bracket);
  while (!last.empty() && last.back() == ':')
    last.remove_suffix(1);
  return std::string(last.empty() ? name : last);
}

} // namespace shardscope::ir
