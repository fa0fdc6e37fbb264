#pragma once

// The 8-, 6- and 4-bit float formats of StableHLO (the f8 family, f6E2M3FN, f6E3M2FN,
// f4E2M1FN), as LLVM's APFloat defines them: exponent and mantissa widths, bias, and which
// encodings are infinities and NaNs. One element is stored in the low bits of one byte.

#include "core/ir/type.h"

#include <cstdint>

namespace shardscope::ir {

/// Returns true for the f8, f6 and f4 element types.
bool isMiniFloat(ElementType type);

/// The value of the encoding `bits` (low bits of the byte) of mini float type `type`.
/// Precondition: `isMiniFloat(type)`.
double miniFloatToDouble(uint8_t bits, ElementType type);

/// The encoding of `value` in `type`, rounded to nearest, ties to even. Values beyond the largest
/// finite one become infinity where the format has one, else NaN where it has one, else the
/// largest finite value of that sign; NaN becomes the format's NaN (0 where there is none).
/// Precondition: `isMiniFloat(type)`.
uint8_t miniFloatFromDouble(double value, ElementType type);

/// Number of mantissa bits (without the implicit one) of a mini float type; 0 otherwise.
int miniFloatMantissaBits(ElementType type);

/// The position of the sign bit of a mini float type's encoding, or -1 when it has none
/// (`f8E8M0FNU`).
int miniFloatSignBit(ElementType type);

} // namespace shardscope::ir
