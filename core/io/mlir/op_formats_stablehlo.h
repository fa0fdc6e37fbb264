#pragma once
// Pieces shared by the StableHLO op formats (op_formats_stablehlo*.cpp). Internal to io_mlir.
//
// Storage conventions: StableHLO's own attributes are kept so that the generic form prints them
// exactly as sdy_opt does: dimension lists as `array<i64: ...>`, enums as opaque
// `#stablehlo<comparison_direction LT>`, structured attributes as opaque `#stablehlo.dot<...>`.
#include "core/io/mlir/detail/op_format_helpers.h"

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shardscope::io::mlir::detail::shlo {

// --- Attribute values -----------------------------------------------------------------------

/// `v : i64` / `v : i32`.
ir::Attribute i64Attr(int64_t v);
ir::Attribute i32Attr(int64_t v);
/// `#stablehlo<kind value>`, StableHLO's spelling of an enum attribute.
ir::Attribute enumAttr(std::string_view kind, std::string_view value);
/// The case of an enum attribute (`LT` of `#stablehlo<comparison_direction LT>`), or "".
std::string enumValue(const ir::Attribute& attr);
/// The integers of `array<i64: ...>`, `dense<...>` or `[1, 2]`; nothing for other kinds.
std::optional<std::vector<int64_t>> intList(const ir::Attribute& attr);
/// The value of an integer attribute; nothing for other kinds.
std::optional<int64_t> intValue(const ir::Attribute& attr);

// --- Parsing --------------------------------------------------------------------------------

/// Parses an optional `{...}`. Entries naming one of the op's own parameters become inherent, as
/// MLIR moves them into the op's properties.
bool parseAttrDict(Parser& p, OperationState& s);
/// Parses a bare enum case that must be one of `cases`; `what` names the enum in errors.
bool parseEnumCase(Parser& p, std::string_view what, const std::vector<std::string_view>& cases,
                   std::string& value);
/// Parses `key = [1, 2]` and adds it as the i64 array attribute `attr`.
bool parseKeyedList(Parser& p, std::string_view key, OperationState& s, const char* attr);
/// Parses `%a, %b,`: operands each followed by a comma, up to the first non-operand
/// (StableHLO's VariadicOperandWithAttribute).
bool parseOperandsWithCommas(Parser& p, std::vector<UnresolvedOperand>& operands);
/// Parses `: type` or `: (types) -> type` for `operands` (SameOperandsAndResultType), checking
/// that exactly `count` operands were written.
bool parseSameOperandsAndResultType(Parser& p, OperationState& s,
                                    const std::vector<UnresolvedOperand>& operands, size_t count);

// --- Printing -------------------------------------------------------------------------------

/// `[1, 2]`.
void printIntList(Printer& p, std::span<const int64_t> values);
/// ` {a = 1, b}` with the attributes of `op` except `elided` and those equal to their default
/// value (MLIR omits default-valued properties from a custom form's attribute dictionary).
void printAttrDict(Printer& p, const ir::Operation& op,
                   const std::vector<std::string_view>& elided);
/// MLIR's `printGenericOp(op, /*printOpName=*/false)`: the generic body after the already printed
/// name, for ops whose attributes the pretty form cannot express.
void printGenericBody(Printer& p, const ir::Operation& op);
/// `(operand types) -> result` or the single type when all operand and result types agree.
void printSameOperandsAndResultType(Printer& p, const ir::Operation& op);

// --- Registration (one function per source file) --------------------------------------------

void registerShapeFormats(const AddFormat& add);   // op_formats_stablehlo_shape.cpp
void registerDotConvFormats(const AddFormat& add); // op_formats_stablehlo_dot.cpp
void registerRegionFormats(const AddFormat& add);  // op_formats_stablehlo_region.cpp
void registerChloFormats(const AddFormat& add);    // op_formats_chlo.cpp

} // namespace shardscope::io::mlir::detail::shlo
