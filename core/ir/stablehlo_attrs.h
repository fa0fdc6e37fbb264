#pragma once

// Typed readers for the StableHLO attributes the op sharding rules need. The parser keeps the
// structured `#stablehlo.*<...>` attributes (dot, gather, scatter and convolution dimension
// numbers, enums) as opaque text, so this file also holds the small text parsers for them.

#include "core/ir/operation.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::ir::stablehlo {

/// The shape of `value`'s type; empty for scalars, tokens and other non-tensor types.
std::span<const int64_t> shapeOf(const ir::Value* value);
/// The rank of `value`'s type (0 for non-tensor types).
int64_t rankOf(const ir::Value* value);

/// `name = 4 : i64` as an integer.
std::optional<int64_t> intAttr(const ir::Operation& op, std::string_view name);
/// `name = true`.
std::optional<bool> boolAttr(const ir::Operation& op, std::string_view name);
/// `name = "text"`; empty when absent.
std::string stringAttr(const ir::Operation& op, std::string_view name);
/// An integer list from `array<i64: ...>`, `dense<...> : tensor<...>` (flattened, row-major) or
/// `[1, 2]`.
std::optional<std::vector<int64_t>> intListAttr(const ir::Operation& op, std::string_view name);
/// The case of an enum attribute `#stablehlo<kind CASE>` ("CASE"); empty when absent.
std::string enumCase(const ir::Operation& op, std::string_view name);

/// The `key = [..]` / `key = n` fields of a `#stablehlo.<mnemonic><...>` attribute; scalar fields
/// are stored as one-element lists. Returns nothing when the text is not such an attribute.
std::optional<std::map<std::string, std::vector<int64_t>, std::less<>>>
parseStablehloStruct(std::string_view text, std::string_view mnemonic);

/// `#stablehlo.dot<...>`.
struct DotDimensionNumbers {
  std::vector<int64_t> lhsBatching, rhsBatching, lhsContracting, rhsContracting;
};
std::optional<DotDimensionNumbers> dotDimensionNumbers(const ir::Operation& op);

/// CHLO's `#chlo.ragged_dot<...>` (`chlo.ragged_dot`'s `ragged_dot_dimension_numbers`): dot
/// dimension numbers plus the lhs ragged dimensions and the rhs group dimensions. Absent fields
/// are empty lists. Returns nothing when the attribute is missing, not such an attribute, or
/// names a field CHLO does not have.
struct RaggedDotDimensionNumbers {
  DotDimensionNumbers dot;
  std::vector<int64_t> lhsRagged, rhsGroup;
};
std::optional<RaggedDotDimensionNumbers> raggedDotDimensionNumbers(const ir::Operation& op);

/// `#stablehlo.gather<...>` and `#stablehlo.scatter<...>`, in gather terms: for scatter,
/// `offsetDims` are the update window dims and `collapsedSliceDims` the inserted window dims.
struct GatherScatterDimensionNumbers {
  std::vector<int64_t> offsetDims, collapsedSliceDims, operandBatchingDims,
      indicesBatchingDims, startIndexMap;
  int64_t indexVectorDim = 0;
};
std::optional<GatherScatterDimensionNumbers> gatherDimensionNumbers(const ir::Operation& op);
std::optional<GatherScatterDimensionNumbers> scatterDimensionNumbers(const ir::Operation& op);

/// `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>` (or its `raw` form).
struct ConvDimensionNumbers {
  int64_t inputBatch = 0, inputFeature = 0;
  std::vector<int64_t> inputSpatial;
  int64_t kernelInputFeature = 0, kernelOutputFeature = 0;
  std::vector<int64_t> kernelSpatial;
  int64_t outputBatch = 0, outputFeature = 0;
  std::vector<int64_t> outputSpatial;
};
std::optional<ConvDimensionNumbers> convDimensionNumbers(const ir::Operation& op);

} // namespace shardscope::ir::stablehlo
