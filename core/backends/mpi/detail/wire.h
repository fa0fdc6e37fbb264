#pragma once

// Byte encoding of what the MPI backend sends between ranks: tensors, device snapshots and
// diagnostics. Every rank runs the same binary, so plain little-endian copies of fixed-width
// fields are enough; readers check bounds and report a truncated message instead of reading past
// the end.

#include "core/exec/spmd_executor.h"
#include "core/exec/tensor.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace shardscope::backends::mpi::detail {

/// An operand's element type and shape without its bytes: what the collective header tells
/// about every member's operands. Named like `exec::Tensor`'s accessors.
struct TensorType {
  ir::ElementType element = ir::ElementType::F32;
  std::vector<int64_t> dims;

  static TensorType of(const exec::Tensor& t) { return {t.elementType(), t.shape()}; }
  ir::ElementType elementType() const { return element; }
  const std::vector<int64_t>& shape() const { return dims; }
  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  int64_t numElements() const {
    int64_t n = 1;
    for (int64_t d : dims)
      n *= d;
    return n;
  }
  size_t byteSize() const {
    return static_cast<size_t>(numElements()) * exec::Tensor::elementBytes(element);
  }
  ir::Type type() const { return ir::Type::tensor(dims, element); }
};

/// Appends fields to a byte buffer.
class Writer {
public:
  template <typename T> void pod(const T& value) {
    const auto* p = reinterpret_cast<const uint8_t*>(&value);
    m_bytes.insert(m_bytes.end(), p, p + sizeof(T));
  }
  void string(const std::string& s);
  /// Element type, shape and bytes.
  void tensor(const exec::Tensor& t);
  /// Element type and shape only.
  void tensorType(const exec::Tensor& t);
  void snapshot(const exec::DeviceSnapshot& s);
  std::vector<uint8_t>& bytes() { return m_bytes; }

private:
  std::vector<uint8_t> m_bytes;
};

/// Reads fields back in the order they were written; `ok()` turns false on a truncated buffer
/// (reads then return zeros).
class Reader {
public:
  Reader(const uint8_t* data, size_t size) : m_data(data), m_size(size) {}
  template <typename T> T pod() {
    T value{};
    if (m_pos + sizeof(T) > m_size) {
      m_ok = false;
      return value;
    }
    std::memcpy(&value, m_data + m_pos, sizeof(T));
    m_pos += sizeof(T);
    return value;
  }
  std::string string();
  exec::Tensor tensor();
  /// The type written by `Writer::tensorType`.
  TensorType tensorType();
  exec::DeviceSnapshot snapshot();
  bool ok() const { return m_ok; }
  bool atEnd() const { return m_pos == m_size; }

private:
  const uint8_t* m_data;
  size_t m_size;
  size_t m_pos = 0;
  bool m_ok = true;
};

/// Splits `t` into `parts` equal parts along `dim`. Precondition: divisible.
std::vector<exec::Tensor> splitTensor(const exec::Tensor& t, int64_t dim, int64_t parts);
/// Concatenates `parts` (same element type, same shape except `dim`) along `dim`.
exec::Tensor concatTensors(const std::vector<const exec::Tensor*>& parts, int64_t dim);

/// 64-bit FNV-1a of `bytes`.
uint64_t fnv1a(const std::string& bytes);

} // namespace shardscope::backends::mpi::detail
