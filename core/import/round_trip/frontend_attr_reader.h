#pragma once

#include "core/ir/attribute.h"
#include "core/support/diagnostic.h"

#include <string_view>

namespace shardscope::import_ {

/// Reads Shardy attributes kept as strings in frontend attribute dictionaries and reports every
/// malformed one as a located error (the attribute name, the text and the reader's message).
/// `failed()` says whether any was malformed.
class FrontendAttrReader {
public:
  explicit FrontendAttrReader(support::DiagnosticSink& sink) : m_sink(sink) {}

  /// Returns entry `name` of `dict` (null allowed) parsed as an attribute of kind `kind`; null
  /// when the entry is absent, and null after an error when it is malformed or of another kind.
  ir::Attribute read(const ir::DictionaryAttr* dict, std::string_view name,
                     ir::Attribute::Kind kind, support::SourceLocation loc);

  bool failed() const { return m_failed; }

private:
  support::DiagnosticSink& m_sink;
  bool m_failed = false;
};

} // namespace shardscope::import_
