#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::ir {

/// An index into a module's `LocationTable`. Ops and block arguments store this instead of the
/// location itself, so keeping MLIR's debug locations costs four bytes per op. `kUnknownLoc` is
/// `loc(unknown)`, the location of everything built without one.
using DebugLoc = uint32_t;
inline constexpr DebugLoc kUnknownLoc = 0;

/// One MLIR debug location (`loc(...)`): what the program's producer (JAX, XLA) said an op came
/// from. This is not where the op is in the text being read: that is the op's `SourceLocation`,
/// which diagnostics use.
struct DebugLocation {
  enum class Kind : uint8_t {
    Unknown,     ///< `loc(unknown)`
    FileLineCol, ///< `loc("file":1:2)`, `loc("file":1:2 to 3:4)`, `loc("file":1:2 to :4)`
    Name,        ///< `loc("name")` or `loc("name"(child))`
    CallSite,    ///< `loc(callsite(callee at caller))`
    Fused,       ///< `loc(fused[a, b])` or `loc(fused<metadata>[a, b])`
  };
  Kind kind = Kind::Unknown;
  /// The file of a `FileLineCol`, the name of a `Name`, the metadata text of a `Fused` (may be
  /// empty).
  std::string text;
  uint32_t line = 0;
  uint32_t column = 0;
  /// The end of a range (`to 3:4`); 0 when there is none. `to :4` keeps `endLine == line`.
  uint32_t endLine = 0;
  uint32_t endColumn = 0;
  /// Nested locations: the child of a `Name` (none when it has none), callee then caller of a
  /// `CallSite`, the parts of a `Fused`.
  std::vector<DebugLoc> children;
};

/// The debug locations of a module, shared (append-only) by the module and its clones. Entry 0 is
/// always `loc(unknown)`.
class LocationTable {
public:
  LocationTable();

  /// Adds `loc` and returns its index.
  DebugLoc add(DebugLocation loc);
  /// Reserves an index to be filled later by `set` (a `#loc3` alias used before it is defined).
  DebugLoc reserve() { return add(DebugLocation{}); }
  /// Replaces the location at `id` (which must exist).
  void set(DebugLoc id, DebugLocation loc);
  /// The location at `id`; `loc(unknown)` when `id` is out of range.
  const DebugLocation& get(DebugLoc id) const;
  size_t size() const { return m_locs.size(); }

  /// The full name a JAX or XLA producer gave the op at `id` (`jit(f)/jit(main)/dot_general`):
  /// the innermost of the chain of name locations that starts at `id` (JAX wraps its name path
  /// in a short op-kind name), looking through fused locations; empty when there is none. Names
  /// of call-site frames (Python function names) are not op names and are not used.
  std::string_view jaxName(DebugLoc id) const;
  /// The first `file:line` found in `id`, callees before callers; empty when there is none.
  std::string fileLine(DebugLoc id) const;
  /// The best human label for `id`: its `jaxName`, else its `fileLine`, else empty.
  std::string label(DebugLoc id) const;
  /// `id` in MLIR syntax without aliases (`loc("a"("f.py":1:2))`), for tooltips and tests.
  std::string str(DebugLoc id) const;

private:
  void print(DebugLoc id, std::string& out, int depth) const;
  std::vector<DebugLocation> m_locs;
};

/// The last component of a JAX name path, without its parameters: `jit(f)/jit(main)/dot_general`
/// gives `dot_general`, `jit(g)/reshape[new_sizes=(2, 4)]` gives `reshape`. `/` inside brackets
/// or parentheses does not separate components.
std::string shortJaxName(std::string_view name);

} // namespace shardscope::ir
