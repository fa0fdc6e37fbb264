#pragma once

// Qt spellings of the engine's stable ids (`core/session/identity.h`) for snapshots
// (controller-internal: includes engine headers).

#include "core/io/mlir/mlir.h"
#include "core/ir/module.h"
#include "core/session/identity.h"

#include <QString>

#include <string>
#include <unordered_map>

namespace shardscope::widgets {

/// The op's stable id (`LINE:COL:OPNAME`, see `session::opId`).
inline QString opIdOf(const ir::Operation& op) { return QString::fromStdString(session::opId(op)); }

/// A UTF-8 view as a QString.
inline QString qs(std::string_view s) {
  return QString::fromUtf8(s.data(), static_cast<int>(s.size()));
}

/// The names the app shows for the values of `module`: the source's names in every stage
/// (`%7`, `%x`), values a pass made named after their op (`%all_gather`), as the Stage IR text
/// prints them. Tables and graphs use these, so a value reads the same everywhere.
inline std::unordered_map<const ir::Value*, std::string> displayValueNames(
    const ir::Module& module) {
  return io::mlir::printedValueNames(module, io::mlir::ValueNames::Source);
}

} // namespace shardscope::widgets
