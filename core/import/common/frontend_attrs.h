#pragma once

#include "core/ir/attribute.h"
#include "core/ir/operation.h"

#include <optional>
#include <string>
#include <string_view>

namespace shardscope::import_ {

/// The attribute XLA keeps its frontend attributes in: a dictionary of (mostly string) entries.
inline constexpr std::string_view kFrontendAttributesAttr = "mhlo.frontend_attributes";

/// Returns the frontend attribute dictionary of `op`, or null when it has none.
const ir::DictionaryAttr* frontendAttrs(const ir::Operation& op);
/// Returns the frontend attribute dictionary of argument `i` of function `fn`, or null.
const ir::DictionaryAttr* argFrontendAttrs(const ir::Operation& fn, unsigned i);
/// Returns the frontend attribute dictionary of result `i` of function `fn`, or null.
const ir::DictionaryAttr* resultFrontendAttrs(const ir::Operation& fn, unsigned i);

/// Returns the string entry `name` of `dict` (null `dict` allowed), or nothing when absent or not
/// a string.
std::optional<std::string> frontendString(const ir::DictionaryAttr* dict, std::string_view name);

/// Returns `dict` (null allowed) without entry `name`; a null attribute when nothing is left.
ir::Attribute withoutEntry(const ir::DictionaryAttr* dict, std::string_view name);

/// Removes entry `name` from the frontend attributes of `op`, and the dictionary itself when it
/// becomes empty (as XLA's `removeFrontendAttribute` does).
void removeFrontendAttr(ir::Operation& op, std::string_view name);
/// The same for argument `i` of function `fn`.
void removeArgFrontendAttr(ir::Operation& fn, unsigned i, std::string_view name);
/// The same for result `i` of function `fn`.
void removeResultFrontendAttr(ir::Operation& fn, unsigned i, std::string_view name);

/// Sets entry `name` of the frontend attributes of `op` to the string `value`, keeping the other
/// entries (XLA's `setFrontendAttribute`).
void setFrontendString(ir::Operation& op, std::string_view name, std::string value);
/// The same for argument `i` of function `fn`.
void setArgFrontendString(ir::Operation& fn, unsigned i, std::string_view name, std::string value);

/// Undoes C-style escapes (`\\`, `\"`, `\n`, octal `\101`, hex `\x41`, ...) as XLA does
/// (`absl::CUnescape`) before parsing an attribute string: strings that went through HLO more
/// than once are escaped again. Returns nothing for a malformed escape.
std::optional<std::string> cUnescape(std::string_view text);

/// Parses `text`, an attribute in MLIR syntax as XLA keeps it in a frontend attribute string
/// (`#sdy.sharding<@mesh, [{"a"}]>`, `{mesh = #sdy.mesh<...>}`, `21 : i64`). Returns a null
/// attribute and sets `error` (MLIR's message) when it does not parse.
ir::Attribute parseAttributeText(std::string_view text, std::string& error);

} // namespace shardscope::import_
