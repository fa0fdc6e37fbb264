#include "core/import/common/frontend_attrs.h"

#include "core/io/mlir/mlir.h"
#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <vector>

namespace shardscope::import_ {

namespace {

constexpr std::string_view kWrapperKey = "shardscope.parsed";

const ir::DictionaryAttr* frontendIn(const ir::DictionaryAttr* attrs) {
  if (!attrs)
    return nullptr;
  return attrs->get(kFrontendAttributesAttr).as<ir::DictionaryAttr>();
}

} // namespace

const ir::DictionaryAttr* frontendAttrs(const ir::Operation& op) {
  return op.attr(kFrontendAttributesAttr).as<ir::DictionaryAttr>();
}

const ir::DictionaryAttr* argFrontendAttrs(const ir::Operation& fn, unsigned i) {
  return frontendIn(ir::func::argAttrs(fn, i));
}

const ir::DictionaryAttr* resultFrontendAttrs(const ir::Operation& fn, unsigned i) {
  return frontendIn(ir::func::resultAttrs(fn, i));
}

std::optional<std::string> frontendString(const ir::DictionaryAttr* dict, std::string_view name) {
  if (!dict)
    return std::nullopt;
  if (const auto* str = dict->get(name).as<ir::StringAttr>())
    return str->value;
  return std::nullopt;
}

ir::Attribute withoutEntry(const ir::DictionaryAttr* dict, std::string_view name) {
  if (!dict)
    return {};
  std::vector<ir::NamedAttribute> kept;
  for (const auto& entry : dict->entries)
    if (entry.name != name)
      kept.push_back(entry);
  if (kept.empty())
    return {};
  return ir::Attribute::dictionary(std::move(kept));
}

void removeFrontendAttr(ir::Operation& op, std::string_view name) {
  const auto* dict = frontendAttrs(op);
  if (!dict || !dict->get(name))
    return;
  if (ir::Attribute rest = withoutEntry(dict, name))
    op.setAttr(kFrontendAttributesAttr, rest);
  else
    op.removeAttr(kFrontendAttributesAttr);
}

void removeArgFrontendAttr(ir::Operation& fn, unsigned i, std::string_view name) {
  const auto* dict = argFrontendAttrs(fn, i);
  if (!dict || !dict->get(name))
    return;
  ir::func::setArgAttr(fn, i, kFrontendAttributesAttr, withoutEntry(dict, name));
}

void removeResultFrontendAttr(ir::Operation& fn, unsigned i, std::string_view name) {
  const auto* dict = resultFrontendAttrs(fn, i);
  if (!dict || !dict->get(name))
    return;
  ir::func::setResultAttr(fn, i, kFrontendAttributesAttr, withoutEntry(dict, name));
}

namespace {

ir::Attribute withEntry(const ir::DictionaryAttr* dict, std::string_view name, std::string value) {
  std::vector<ir::NamedAttribute> entries;
  if (dict)
    for (const auto& entry : dict->entries)
      if (entry.name != name)
        entries.push_back(entry);
  entries.push_back({std::string(name), ir::Attribute::string(std::move(value)).impl()});
  return ir::Attribute::dictionary(std::move(entries));
}

} // namespace

void setFrontendString(ir::Operation& op, std::string_view name, std::string value) {
  op.setAttr(kFrontendAttributesAttr, withEntry(frontendAttrs(op), name, std::move(value)));
}

void setArgFrontendString(ir::Operation& fn, unsigned i, std::string_view name,
                          std::string value) {
  ir::func::setArgAttr(fn, i, kFrontendAttributesAttr,
                       withEntry(argFrontendAttrs(fn, i), name, std::move(value)));
}

namespace {

int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

// Reads the escape after a backslash at `text[i]` into `out`; advances `i` past it.
bool unescapeOne(std::string_view text, size_t& i, std::string& out) {
  if (i >= text.size())
    return false;
  char c = text[i++];
  switch (c) {
  case 'n': out += '\n'; return true;
  case 't': out += '\t'; return true;
  case 'r': out += '\r'; return true;
  case 'a': out += '\a'; return true;
  case 'b': out += '\b'; return true;
  case 'f': out += '\f'; return true;
  case 'v': out += '\v'; return true;
  case '\\': case '"': case '\'': case '?': out += c; return true;
  case 'x': {
    int value = 0, digits = 0;
    while (i < text.size() && hexValue(text[i]) >= 0 && digits < 2) {
      value = value * 16 + hexValue(text[i++]);
      ++digits;
    }
    out += static_cast<char>(value);
    return digits > 0;
  }
  default:
    if (c < '0' || c > '7')
      return false;
    int value = c - '0';
    for (int digits = 1; digits < 3 && i < text.size() && text[i] >= '0' && text[i] <= '7';
         ++digits)
      value = value * 8 + (text[i++] - '0');
    if (value > 255)
      return false;
    out += static_cast<char>(value);
    return true;
  }
}

} // namespace

std::optional<std::string> cUnescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text[i] != '\\') {
      out += text[i++];
      continue;
    }
    ++i;
    if (!unescapeOne(text, i, out))
      return std::nullopt;
  }
  return out;
}

ir::Attribute parseAttributeText(std::string_view text, std::string& error) {
  // The MLIR reader only reads whole modules, so the text becomes the single attribute of an
  // empty module. Anything that escapes that slot (a second entry, ops in the body) is rejected.
  std::string wrapped = "module attributes {";
  wrapped += kWrapperKey;
  wrapped += " = ";
  wrapped += text;
  wrapped += "} {\n}\n";
  support::CollectingSink sink;
  std::unique_ptr<ir::Module> module = io::mlir::parseModule(wrapped, /*fileId=*/0, sink);
  if (!module) {
    error = "failed to parse attribute";
    for (const auto& diag : sink.diagnostics())
      if (diag.severity == support::Severity::Error) {
        error = diag.message;
        break;
      }
    return {};
  }
  const auto& attrs = module->op().attributes();
  if (attrs.size() != 1 || attrs.front().name != kWrapperKey || !module->body().empty()) {
    error = "unexpected text after the attribute";
    return {};
  }
  return ir::Attribute(attrs.front().value);
}

} // namespace shardscope::import_
