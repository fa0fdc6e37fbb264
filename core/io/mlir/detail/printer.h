#pragma once

#include "core/io/mlir/mlir.h"
#include "core/ir/module.h"

#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace shardscope::io::mlir::detail {

/// Prints IR exactly as MLIR's `AsmPrinter` (and so `sdy_opt`) does: pretty forms for ops with a
/// format, the generic form otherwise, two-space indentation, and MLIR's SSA naming (`%argN`,
/// `%N`, `%cst`, `%c`, `%iterArg`, with `_N` suffixes on conflicts).
class Printer {
public:
  explicit Printer(std::string& out) : m_out(out) {}

  /// Prints the module (always as `module ... { ... }`).
  void printModule(const ir::Module& module);
  /// Makes `printOperation` append each op and the offset in the output where it starts (its
  /// result names, or its name for ops without results) to `starts`; null stops recording.
  void recordOpStarts(std::vector<std::pair<const ir::Operation*, size_t>>* starts) {
    m_opStarts = starts;
  }
  /// How values are named: as MLIR numbers them, or by their source names.
  void setValueNames(ValueNames names) { m_valueNames = names; }
  /// Hands the output to `flush` whenever it holds `chunkBytes` or more between two ops (the
  /// output is cleared after each call), so that printing a large module does not hold all of
  /// its text. Not with `recordOpStarts`, whose offsets count from the start of the text.
  void streamTo(std::function<void(std::string&)> flush, size_t chunkBytes) {
    m_flush = std::move(flush);
    m_chunkBytes = chunkBytes;
  }
  /// Assigns every value of `module` the name `printModule` would print, without printing.
  void nameModule(const ir::Module& module) {
    std::unordered_set<std::string> used;
    nameRegion(module.op().region(0), {}, used);
  }
  /// The same for the values of one op isolated from above (a function): its names do not
  /// depend on the rest of the module.
  void nameIsolated(const ir::Operation& op) {
    for (unsigned i = 0; i < op.numRegions(); ++i) {
      std::unordered_set<std::string> used;
      nameRegion(op.region(i), {}, used);
    }
  }

  // Primitives for op formats.
  std::string& out() { return m_out; }
  Printer& operator<<(std::string_view s) {
    m_out += s;
    return *this;
  }
  void printOperand(const ir::Value* value);
  void printOperands(std::span<ir::Value* const> values);
  void printType(ir::Type type) { type.print(m_out); }
  void printTypes(std::span<ir::Type const> types);
  void printAttribute(const ir::Attribute& attr, bool elidePrefix = false) {
    attr.print(m_out, elidePrefix);
  }
  /// Prints ` {a = 1, b}` with all attributes of `op` except `elided`; nothing when empty.
  void printOptionalAttrDict(const ir::Operation& op, std::initializer_list<std::string_view> elided,
                             bool withKeyword = false);
  /// `(operand types) -> result types`, MLIR's functional-type directive.
  void printFunctionalType(const ir::Operation& op);
  /// A single type when operands and results all have one type, else the functional type.
  void printSameOrFunctionalType(const ir::Operation& op);
  /// Prints `{`, the region's ops, `}` at the current indentation. Entry arguments are written as
  /// `^bb0(...)` when `printEntryArgs`.
  void printRegion(const ir::Region& region, bool printEntryArgs);
  /// `%arg1: tensor<4xf32>` pairs for a custom format's region argument list.
  void printBlockArgList(const ir::Block& block, bool withParens = true);
  /// Prints a full op (results, name, body) on the current line.
  void printOperation(const ir::Operation& op);
  /// Prints `op` in MLIR's generic form.
  void printGeneric(const ir::Operation& op);
  /// Newline plus the current indentation.
  void newline();
  int& indent() { return m_indent; }

  /// The printed name of `value` (`%arg0`, `%3`, `%cst_1`).
  const std::string& nameOf(const ir::Value* value);
  /// Every name assigned so far, moved out of the printer (which can no longer print names).
  std::unordered_map<const ir::Value*, std::string> takeNames() { return std::move(m_names); }
  /// Reserves room for the names of about `values` values.
  void reserveNames(size_t values) { m_names.reserve(values); }

private:
  struct NameCounters {
    unsigned nextValue = 0;
    unsigned nextArg = 0;
    unsigned nextConflict = 0;
  };
  /// Names `region`'s values; `used` holds the enclosing regions' names (and is as before on
  /// return).
  void nameRegion(const ir::Region& region, NameCounters counters,
                  std::unordered_set<std::string>& used);
  std::string uniqueName(const std::string& base, NameCounters& counters,
                         std::unordered_set<std::string>& used);
  /// The base of a value's name under `ValueNames::Source`: its source name `hint` when it can
  /// be printed and (for a number) is free, else `derived` (with the number appended).
  static std::string sourceBase(const std::string& hint, std::string_view derived,
                                const std::unordered_set<std::string>& used);
  template <typename Unique>
  void nameResultsBySource(const ir::Operation& op, const std::vector<std::string>& hints,
                           Unique& unique, const std::unordered_set<std::string>& used);
  void printFunction(const ir::Operation& fn);
  /// The `{-# dialect_resources #-}` section for the resources `module` refers to.
  void printFileMetadata(const ir::Module& module);

  std::string& m_out;
  int m_indent = 0;
  ValueNames m_valueNames = ValueNames::Numbered;
  std::unordered_map<const ir::Value*, std::string> m_names;
  /// The shared `%N` of ops with several unhinted results, keyed by their first result.
  std::unordered_map<const ir::Value*, std::string> m_resultGroupNames;
  std::vector<std::pair<const ir::Operation*, size_t>>* m_opStarts = nullptr;
  std::function<void(std::string&)> m_flush;
  size_t m_chunkBytes = 0;
};

} // namespace shardscope::io::mlir::detail
