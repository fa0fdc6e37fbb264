#include "core/import/round_trip/frontend_attr_reader.h"

#include "core/import/common/frontend_attrs.h"

#include <optional>
#include <string>
#include <vector>

namespace shardscope::import_ {

namespace {

// The MLIR reader keeps `#sdy<manual_axes{"a", "b"}>` as opaque text; its axis list reads as an
// array of strings.
ir::Attribute manualAxesFromOpaque(const ir::Attribute& attr) {
  const auto* opaque = attr.as<ir::OpaqueAttr>();
  constexpr std::string_view kPrefix = "#sdy<manual_axes{";
  if (!opaque || !std::string_view(opaque->text).starts_with(kPrefix) ||
      !std::string_view(opaque->text).ends_with("}>"))
    return {};
  std::string_view list(opaque->text);
  list = list.substr(kPrefix.size(), list.size() - kPrefix.size() - 2);
  std::string error;
  ir::Attribute parsed = parseAttributeText("[" + std::string(list) + "]", error);
  const auto* array = parsed.as<ir::ArrayAttr>();
  if (!array)
    return {};
  std::vector<std::string> axes;
  for (const auto& element : array->elements) {
    const auto* name = element.as<ir::StringAttr>();
    if (!name)
      return {};
    axes.push_back(name->value);
  }
  return ir::Attribute::manualAxes(std::move(axes));
}

} // namespace

ir::Attribute FrontendAttrReader::read(const ir::DictionaryAttr* dict, std::string_view name,
                                       ir::Attribute::Kind kind, support::SourceLocation loc) {
  if (!dict)
    return {};
  ir::Attribute entry = dict->get(name);
  if (!entry)
    return {};
  const auto* text = entry.as<ir::StringAttr>();
  std::string error;
  // XLA unescapes the string first: strings that went through HLO twice are escaped twice.
  std::optional<std::string> unescaped = text ? cUnescape(text->value) : std::nullopt;
  ir::Attribute parsed = unescaped ? parseAttributeText(*unescaped, error) : ir::Attribute();
  if (text && !unescaped)
    error = "malformed escape sequence";
  if (parsed && kind == ir::Attribute::Kind::ManualAxes && parsed.kind() != kind)
    if (ir::Attribute axes = manualAxesFromOpaque(parsed))
      parsed = axes;
  if (!text)
    error = "expected a string";
  else if (parsed && parsed.kind() != kind)
    error = "unexpected kind of attribute";
  if (parsed && error.empty())
    return parsed;
  m_failed = true;
  m_sink.error(loc, "malformed frontend attribute '" + std::string(name) + "'" +
                        (text ? " \"" + text->value + "\"" : std::string()) + ": " + error);
  return {};
}

} // namespace shardscope::import_
