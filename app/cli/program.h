#pragma once

#include "core/ir/module.h"
#include "core/session/input_form.h"
#include "core/support/source_manager.h"

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace shardscope::cli {

/// A program loaded for the inspection commands: the parsed and verified module, its source, and
/// the names its values print with.
struct LoadedProgram {
  support::SourceManager sources;
  uint32_t fileId = 0;
  std::unique_ptr<ir::Module> module;
  session::InputForm form = session::InputForm::Unsharded; ///< as written, before the import
  size_t loadWarnings = 0; ///< warnings printed while loading (e.g. shardings not understood)
  std::unordered_map<const ir::Value*, std::string> names;
};

/// Reads, parses and verifies `path`. Diagnostics are printed to stderr with caret context.
/// Returns null on any error (unreadable or empty file, syntax error, invalid sharding).
std::unique_ptr<LoadedProgram> loadProgram(const std::string& path);

/// A value found by name, with the function holding it.
struct NamedValue {
  const ir::Value* value = nullptr;
  const ir::Operation* function = nullptr;
};

/// Finds the values printed as `name` (`%3`, `%arg0`; the `%` is optional) or written so in the
/// source, in every function or only in `function` (`main` or `@main`) when it is not empty.
std::vector<NamedValue> findValuesByName(const LoadedProgram& program, const std::string& name,
                                         const std::string& function);

/// The short name of a value for humans: its printed name, or `<unnamed>`.
const std::string& displayName(const LoadedProgram& program, const ir::Value* value);

} // namespace shardscope::cli
