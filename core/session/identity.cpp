#include "core/session/identity.h"

#include "core/support/parse_number.h"

namespace shardscope::session {

namespace {

std::optional<unsigned> number(std::string_view text) {
  std::optional<uint32_t> n = support::parseInteger<uint32_t>(text);
  return n ? std::optional<unsigned>(*n) : std::nullopt;
}

// `LINE:COL:OPNAME` into `parts` (false when `text` is not one).
bool parseOpId(std::string_view text, ValueIdParts& parts) {
  const size_t c1 = text.find(':');
  const size_t c2 = c1 == std::string_view::npos ? c1 : text.find(':', c1 + 1);
  if (c2 == std::string_view::npos || c2 + 1 >= text.size())
    return false;
  std::optional<unsigned> line = number(text.substr(0, c1));
  std::optional<unsigned> column = number(text.substr(c1 + 1, c2 - c1 - 1));
  if (!line || !column)
    return false;
  parts.line = *line;
  parts.column = *column;
  parts.opName = std::string(text.substr(c2 + 1));
  return true;
}

bool hasId(const ir::Operation& op, const ValueIdParts& parts) {
  return op.loc().line == parts.line && op.loc().column == parts.column &&
         op.name() == parts.opName;
}

} // namespace

std::string opId(const ir::Operation& op) {
  std::string id = std::to_string(op.loc().line);
  id += ':';
  id += std::to_string(op.loc().column);
  id += ':';
  id += op.name();
  return id;
}

std::string valueId(const ir::Value& value) {
  if (const ir::Operation* def = value.definingOp())
    return opId(*def) + "#" + std::to_string(value.index());
  const ir::Block* block = value.ownerBlock();
  const ir::Operation* owner = block ? block->parentOp() : nullptr;
  if (!owner)
    return {};
  if (owner->is("func.func"))
    return "arg:" + std::string(ir::func::name(*owner)) + "#" + std::to_string(value.index());
  for (unsigned r = 0; r < owner->numRegions(); ++r)
    if (!owner->region(r).empty() && &owner->region(r).front() == block)
      return opId(*owner) + "@" + std::to_string(r) + "." + std::to_string(value.index());
  return {};
}

std::optional<ValueIdParts> parseValueId(std::string_view id) {
  ValueIdParts parts;
  if (id.starts_with("arg:")) {
    const size_t hash = id.rfind('#');
    std::optional<unsigned> index =
        hash == std::string_view::npos || hash <= 4 ? std::nullopt : number(id.substr(hash + 1));
    if (!index) // (no function name, or no index)
      return std::nullopt;
    parts.kind = ValueIdParts::Kind::FunctionArgument;
    parts.function = std::string(id.substr(4, hash - 4));
    parts.index = *index;
    return parts;
  }
  // A region argument ends in `@REGION.ARG` (op names hold no '@').
  if (const size_t at = id.rfind('@'); at != std::string_view::npos) {
    const std::string_view where = id.substr(at + 1);
    const size_t dot = where.find('.');
    std::optional<unsigned> region =
        dot == std::string_view::npos ? std::nullopt : number(where.substr(0, dot));
    std::optional<unsigned> arg =
        dot == std::string_view::npos ? std::nullopt : number(where.substr(dot + 1));
    if (!region || !arg || !parseOpId(id.substr(0, at), parts))
      return std::nullopt;
    parts.kind = ValueIdParts::Kind::RegionArgument;
    parts.region = *region;
    parts.index = *arg;
    return parts;
  }
  const size_t hash = id.rfind('#');
  if (hash == std::string_view::npos)
    return std::nullopt;
  std::optional<unsigned> result = number(id.substr(hash + 1));
  if (!result || !parseOpId(id.substr(0, hash), parts))
    return std::nullopt;
  parts.kind = ValueIdParts::Kind::Result;
  parts.index = *result;
  return parts;
}

const ir::Value* findValue(const ir::Module& module, std::string_view id) {
  std::optional<ValueIdParts> parts = parseValueId(id);
  if (!parts)
    return nullptr;
  if (parts->kind == ValueIdParts::Kind::FunctionArgument) {
    const ir::Operation* fn = module.lookupFunction(parts->function);
    const ir::Block* body = fn ? ir::func::body(*fn) : nullptr;
    return body && parts->index < body->numArguments() ? body->argument(parts->index) : nullptr;
  }
  const ir::Value* found = nullptr;
  module.op().walk([&](const ir::Operation& op) {
    if (found || !hasId(op, *parts))
      return;
    if (parts->kind == ValueIdParts::Kind::Result) {
      if (parts->index < op.numResults())
        found = op.result(parts->index);
    } else if (parts->region < op.numRegions() && !op.region(parts->region).empty() &&
               parts->index < op.region(parts->region).front().numArguments()) {
      found = op.region(parts->region).front().argument(parts->index);
    }
  });
  return found;
}

} // namespace shardscope::session
