#pragma once

// Stable ids of engine objects for snapshots (controller-internal: includes engine headers).

#include "core/ir/operation.h"

#include <QString>

namespace shardscope::widgets {

/// `LINE:COL:OPNAME`: stable across stages and runs for the ops of one source op.
inline QString opIdOf(const ir::Operation& op) {
  const std::string_view name = op.name();
  return QStringLiteral("%1:%2:%3")
      .arg(op.loc().line)
      .arg(op.loc().column)
      .arg(QString::fromUtf8(name.data(), static_cast<int>(name.size())));
}

/// A UTF-8 view as a QString.
inline QString qs(std::string_view s) {
  return QString::fromUtf8(s.data(), static_cast<int>(s.size()));
}

} // namespace shardscope::widgets
