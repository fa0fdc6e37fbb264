#pragma once

// NumPy's `.npy` format (versions 1.0, 2.0 and 3.0): a magic string, a header dictionary with
// `descr`, `fortran_order` and `shape`, then the raw elements. ShardScope reads and writes the
// little-endian forms of the element types its interpreter holds.

#include "core/ir/type.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace shardscope::io::npy {

/// A dense array as stored in a `.npy` file, always in C (row-major) order once read: Fortran
/// order files are transposed on reading. One byte per `i1` element (NumPy's `|b1`).
struct Array {
  ir::ElementType element = ir::ElementType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;
};

/// The NumPy `descr` of `element` (`<f4`, `|b1`, `<V2` for bf16, ...), or nothing for element
/// types NumPy cannot describe.
std::optional<std::string> descrOf(ir::ElementType element);

/// Parses the bytes of a `.npy` file. On failure returns nothing and sets `error` to a message
/// naming what is wrong (`unsupported dtype '>f4' (big-endian)`, `file is truncated: header says
/// 24 bytes of data, found 16`).
std::optional<Array> parse(std::span<const uint8_t> bytes, std::string& error);

/// Reads `path`. Errors name the file.
std::optional<Array> read(const std::string& path, std::string& error);

/// Serializes `array` (version 1.0 when the header fits, else 2.0). `data` must hold exactly the
/// shape's element count of the element type.
std::vector<uint8_t> serialize(const Array& array);

/// Writes `array` to `path` atomically: a temporary file next to it is renamed over `path`, so a
/// failure never leaves a partial file. Returns false and sets `error` on failure.
bool write(const std::string& path, const Array& array, std::string& error);

} // namespace shardscope::io::npy
