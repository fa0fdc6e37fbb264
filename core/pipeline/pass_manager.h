#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shardscope::pipeline {

/// The options of one pass invocation, as written after `=` on the command line:
/// `-sdy-basic-propagate='keep-sharding-rules=true conservative-propagation=false'`.
class PassOptions {
public:
  /// Parses `a=1 b=true` (space separated). Returns false and sets `error` on malformed input.
  bool parse(std::string_view text, std::string& error);
  /// Returns the raw value of option `name`, if given.
  std::optional<std::string> get(std::string_view name) const;
  /// Returns option `name` as a bool (`true`/`false`/`1`/`0`), or `fallback` when absent.
  bool getBool(std::string_view name, bool fallback) const;
  const std::vector<std::pair<std::string, std::string>>& entries() const { return m_entries; }

private:
  std::vector<std::pair<std::string, std::string>> m_entries;
};

/// A transformation of a whole module. Passes are deterministic and report problems to the sink;
/// they return false when the module could not be transformed.
using PassFn =
    std::function<bool(ir::Module&, const PassOptions&, support::DiagnosticSink&)>;

/// A registered pass: its command-line name (`sdy-basic-propagate`), a one-line summary, the
/// options it accepts and its implementation.
struct PassInfo {
  std::string name;
  std::string summary;
  std::vector<std::string> options;
  PassFn run;
};

/// A pass without options that runs `fn(module, sink)`.
PassInfo modulePass(std::string name, std::string summary,
                    bool (*fn)(ir::Module&, support::DiagnosticSink&));

/// Every pass the tool knows, by name.
class PassRegistry {
public:
  /// Adds `pass`. Precondition: no pass of that name is registered.
  void add(PassInfo pass);
  /// Returns the pass named `name`, or null.
  const PassInfo* lookup(std::string_view name) const;
  /// All passes, sorted by name.
  std::vector<const PassInfo*> all() const;

  /// The registry holding every built-in pass.
  static const PassRegistry& builtin();

private:
  std::vector<PassInfo> m_passes;
};

/// One pass with its options, ready to run.
struct PassInvocation {
  const PassInfo* pass = nullptr;
  PassOptions options;
};

/// Parses a command-line pass argument (`sdy-foo` or `sdy-foo=opt=value`, leading dashes already
/// stripped). Returns false with a message in `error` for unknown passes or options.
bool parsePassArgument(std::string_view arg, const PassRegistry& registry, PassInvocation& out,
                       std::string& error);

/// Runs `passes` in order on `module`, stopping at the first failure. Returns true on success.
bool runPasses(ir::Module& module, std::span<const PassInvocation> passes,
               support::DiagnosticSink& sink);

} // namespace shardscope::pipeline
