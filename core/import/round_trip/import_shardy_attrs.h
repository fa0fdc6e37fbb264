#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

namespace shardscope::import_ {

/// `-xla-sdy-round-trip-import-shardy-attrs`: reads back what the round-trip export kept in
/// frontend attributes. The module's `xla.sdy.meshes` dictionary becomes `sdy.mesh` ops at the
/// start of the module; function arguments' `xla.sdy.sharding` becomes `sdy.sharding`;
/// `@xla.sdy.FuncResultSharding` calls move their sharding to the function results they feed
/// (and become `sdy.sharding_constraint`s when they feed anything else); `@Sharding` calls,
/// Python callbacks, `stablehlo.send` and `stablehlo.recv` get their `sdy.sharding`; every op's
/// `xla.sdy.sharding_rule` becomes `sdy.sharding_rule`. Shardings on other ops are dropped, as
/// XLA does (XLA copies frontend attributes onto ops of other shapes), and so is every
/// `mhlo.sharding`. Returns false after located errors for malformed attribute strings.
bool importShardyAttrs(ir::Module& module, support::DiagnosticSink& sink);

} // namespace shardscope::import_
