#pragma once

#include "core/ir/module.h"
#include "core/session/input_form.h"
#include "core/session/program.h"
#include "core/support/source_manager.h"

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace shardscope::cli {

/// A program loaded for the inspection commands: the engine's program (its module as written,
/// its stages and analyses), its source for diagnostics, and the names its values print with.
struct LoadedProgram {
  /// The text, under the program's name and file id, so diagnostics show their source line.
  support::SourceManager sources;
  uint32_t fileId = 0;
  /// The engine's program (`loadProgram`); absent for the chunks `interpret` loads on its own.
  std::unique_ptr<session::Program> session;
  /// The module as written: the session's, or `owned`.
  const ir::Module* module = nullptr;
  std::unique_ptr<ir::Module> owned;
  session::InputForm form = session::InputForm::Unsharded; ///< as written, before the import
  size_t loadWarnings = 0; ///< warnings printed while loading (e.g. shardings not understood)
  std::unordered_map<const ir::Value*, std::string> names;
};

/// Reads, parses and verifies `path`. Diagnostics are printed to stderr with caret context.
/// Returns null on any error (unreadable or empty file, syntax error, invalid sharding).
std::unique_ptr<LoadedProgram> loadProgram(const std::string& path);

/// Reads `path` (`-`: standard input) and loads it as a session program (parse, import, verify).
/// The text is first added to `sources` too, under the same name and so the same file id as in the
/// program, so that `sink` can show load diagnostics with their source line even when the load
/// fails and the program (with its own copy) is gone. Null after reporting why.
std::unique_ptr<session::Program> loadSessionProgram(const std::string& path,
                                                     support::SourceManager& sources,
                                                     support::DiagnosticSink& sink);

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
