#pragma once

#include "core/ir/module.h"
#include "core/support/diagnostic.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace shardscope::io::mlir {

/// Parses MLIR text (StableHLO + Shardy, pretty or generic op forms) into a module. `fileId`
/// is the `SourceManager` id of `text`, used for locations. Returns null after reporting at least
/// one located error to `sink`.
std::unique_ptr<ir::Module> parseModule(std::string_view text, uint32_t fileId,
                                        support::DiagnosticSink& sink);

/// Parses one attribute written as MLIR text (`[dense<1> : tensor<2xi32>]`, `4.0 : f32`); the
/// whole text must be the attribute. Returns a null attribute after reporting to `sink`.
ir::Attribute parseAttribute(std::string_view text, uint32_t fileId,
                             support::DiagnosticSink& sink);

/// How printed values are named.
enum class ValueNames {
  /// As MLIR numbers them (`%arg0`, `%3`, `%cst_1`): what `sdy_opt` prints.
  Numbered,
  /// By the names the source gave them, in every stage derived from it: the value written `%7`
  /// prints as `%7` after propagation and partitioning too. Values a pass made are named after
  /// their op (`%all_gather`, `%all_gather_1`); a source number that repeats (a duplicated
  /// constant) gets its op's name in front (`%constant_3`). The text still parses as MLIR.
  Source,
};

/// Prints `module` exactly as `sdy_opt` would. `sizeHint` (e.g. the size of the parsed text)
/// reserves the output buffer up front, which saves re-growing it for large modules.
std::string printModule(const ir::Module& module, size_t sizeHint = 0,
                        ValueNames names = ValueNames::Numbered);

/// Prints `module` as `printModule` does, handing the text to `write` in pieces of about
/// `chunkBytes` (each ends between two ops), so that the whole text is never held: what a
/// command writing a large program to a stream wants. Once `write` returns false (a write
/// error) it is not called again and the function returns false.
bool printModule(const ir::Module& module, const std::function<bool(std::string_view)>& write,
                 ValueNames names = ValueNames::Numbered, size_t chunkBytes = size_t{1} << 20);

/// Where an op starts in a printed module: its 1-based line.
struct PrintedOpLine {
  const ir::Operation* op = nullptr;
  uint32_t line = 0;
};
/// Prints `module` as `printModule` does and lists the line every op (at any depth, in print
/// order) starts on: what a view of the printed text needs to link lines and ops.
std::string printModule(const ir::Module& module, std::vector<PrintedOpLine>& lines,
                        size_t sizeHint = 0, ValueNames names = ValueNames::Numbered);

/// Returns the name every value of `module` has when printed (`%arg0`, `%3`, `%cst_1`, `%0#1`).
std::unordered_map<const ir::Value*, std::string> printedValueNames(
    const ir::Module& module, ValueNames names = ValueNames::Numbered);
/// The same for the values of one function (names inside a function do not depend on the rest
/// of the module), for callers that show one function of a big module.
std::unordered_map<const ir::Value*, std::string> printedValueNames(
    const ir::Operation& function, ValueNames names = ValueNames::Numbered);

/// One `// -----` chunk of a `-split-input-file` buffer.
struct InputChunk {
  std::string_view text;
  uint32_t firstLine = 1; ///< line of `text`'s first character in the whole buffer
};

/// Splits `text` at lines that are exactly `// -----`, as MLIR's `-split-input-file` does.
std::vector<InputChunk> splitInputFile(std::string_view text);

/// One `//--- name` section of a file in LLVM `split-file` format.
struct FileSection {
  std::string name;
  InputChunk chunk; ///< the section's text, after its `//--- name` line
};

/// Splits `text` at lines starting with `//--- ` as LLVM's `split-file` does. Text before the
/// first marker belongs to no section and is dropped. Returns no sections when there is no marker.
std::vector<FileSection> splitFileSections(std::string_view text);

/// Returns `chunk` preceded by newlines so that its lines keep the numbers they have in the whole
/// buffer (diagnostics and `expected-error @+1` annotations depend on it).
std::string paddedChunk(const InputChunk& chunk);

} // namespace shardscope::io::mlir
