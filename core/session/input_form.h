#pragma once

// The three ways a sharded program reaches ShardScope, told apart when it loads: Shardy's own
// dialect, XLA's GSPMD sharding strings, and the round-trip form `jax.export` and XLA write.

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <memory>
#include <string>
#include <string_view>

namespace shardscope::session {

/// The form a program's shardings were written in.
enum class InputForm {
  Unsharded, ///< no sharding of any kind
  Shardy,    ///< `sdy.mesh`, `#sdy.sharding` (what Shardy's tools and JAX with Shardy print)
  Gspmd,     ///< `mhlo.sharding = "{devices=[...]...}"`, `@Sharding`, `@SPMDFullToShardShape`
  /// `mhlo.frontend_attributes = {xla.sdy.sharding = "..."}`, `xla.sdy.*` custom calls
  ShardyRoundTrip,
};

/// `Shardy`, `GSPMD`, `Shardy round-trip`, `unsharded`.
std::string_view inputFormName(InputForm form);
/// One line for a user: the form and how it is recognised.
std::string_view inputFormDescription(InputForm form);

/// What `module`, as parsed, is written in. A module holding several forms is taken as the one
/// that must be imported (round-trip before GSPMD before Shardy).
InputForm detectInputForm(const ir::Module& module);

/// A parsed module brought into Shardy's form and verified.
struct LoadedModule {
  std::unique_ptr<ir::Module> module;
  InputForm form = InputForm::Unsharded;
};

/// Parses `text`, imports GSPMD or round-trip shardings into Shardy's form (the pipelines XLA
/// runs for them), and verifies the result. Warns about what is sharding-like but was not
/// understood, and about a module that declares several partitions but carries no sharding ShardScope
/// can read. A null module after reporting at least one error to `sink`.
LoadedModule loadModule(std::string_view text, uint32_t fileId, support::DiagnosticSink& sink);

/// The sharding of `value` (of `module`) as XLA's HLO dumps print it
/// (`{devices=[2,2]<=[4]}`), manual axes of enclosing manual computations included; empty when
/// the value has no sharding.
std::string gspmdNotation(const ir::Module& module, const ir::Value& value);

} // namespace shardscope::session
