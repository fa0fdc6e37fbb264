#pragma once
// A structure-aware mutator for MLIR text, for the pipeline fuzzer's custom mutator hook.
//
// Byte-level mutations of a valid module almost always stop at the parser. These edits know the
// pieces of StableHLO/Shardy text that later stages depend on and change one of them while
// leaving the rest well-formed, so that most mutants parse and reach the verifier, propagation,
// partitioning and the interpreter with something they must reject or handle:
//   - integer literals (dimension sizes, mesh axis sizes, attribute values, dims) replaced by
//     boundary values (0, 1, -1, a neighbour, 2^31, INT64_MAX, ...);
//   - tensor shapes: a dimension changed, dropped or added, the element type swapped;
//   - shardings: an axis name replaced by another of the module's axes or by a sub-axis, a
//     dimension sharding emptied, opened (`?`) or given another axis, one dropped or added;
//   - `array<i64: ...>` and `[...]` integer lists (dims, permutations, strides) permuted,
//     shortened or lengthened;
//   - SSA uses redirected to another value; op names swapped within a family.

#include <cstdint>
#include <random>
#include <string>
#include <string_view>

namespace shardscope::fuzz {

/// The kinds of edit `mutateModuleText` can make.
enum class ModuleEdit {
  Integer,
  Shape,
  ElementType,
  AxisName,
  DimSharding,
  IntegerList,
  SsaUse,
  OpName,
};
inline constexpr int kModuleEditCount = 8;

/// Applies one edit of kind `edit` to `text` at a place chosen by `random`. Returns false (and
/// leaves `text` alone) when `text` has nothing that edit applies to.
bool applyModuleEdit(std::string& text, ModuleEdit edit, std::mt19937_64& random);

/// Applies one to three edits of random kinds. Returns false when none applied.
bool mutateModuleText(std::string& text, std::mt19937_64& random);

} // namespace shardscope::fuzz
