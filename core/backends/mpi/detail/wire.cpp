#include "core/backends/mpi/detail/wire.h"

#include <algorithm>

namespace shardscope::backends::mpi::detail {

void Writer::string(const std::string& s) {
  pod<uint64_t>(s.size());
  m_bytes.insert(m_bytes.end(), s.begin(), s.end());
}

void Writer::tensorType(const exec::Tensor& t) {
  pod<int32_t>(static_cast<int32_t>(t.elementType()));
  pod<int32_t>(static_cast<int32_t>(t.rank()));
  for (int64_t d : t.shape())
    pod<int64_t>(d);
}

void Writer::tensor(const exec::Tensor& t) {
  tensorType(t);
  m_bytes.insert(m_bytes.end(), t.bytes().begin(), t.bytes().end());
}

void Writer::snapshot(const exec::DeviceSnapshot& s) {
  pod<int64_t>(s.device);
  pod<int32_t>(static_cast<int32_t>(s.status));
  pod<int64_t>(s.op);
  pod<int64_t>(s.depth);
  pod<uint8_t>(s.executed ? 1 : 0);
  pod<uint32_t>(static_cast<uint32_t>(s.group.size()));
  for (int64_t g : s.group)
    pod<int64_t>(g);
  pod<uint32_t>(static_cast<uint32_t>(s.diagnostics.size()));
  for (const support::Diagnostic& d : s.diagnostics) {
    pod<int32_t>(static_cast<int32_t>(d.severity));
    string(d.message);
    pod(d.loc);
    pod<uint32_t>(static_cast<uint32_t>(d.notes.size()));
    for (const support::DiagnosticNote& n : d.notes) {
      string(n.message);
      pod(n.loc);
    }
  }
}

std::string Reader::string() {
  uint64_t n = pod<uint64_t>();
  if (!m_ok || m_pos + n > m_size) {
    m_ok = false;
    return {};
  }
  std::string s(reinterpret_cast<const char*>(m_data + m_pos), n);
  m_pos += n;
  return s;
}

TensorType Reader::tensorType() {
  auto element = static_cast<ir::ElementType>(pod<int32_t>());
  int32_t rank = pod<int32_t>();
  std::vector<int64_t> shape;
  for (int32_t i = 0; i < rank && m_ok; ++i)
    shape.push_back(pod<int64_t>());
  if (!m_ok || rank < 0 || !exec::Tensor::isSupportedElement(element) ||
      std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d < 0; })) {
    m_ok = false;
    return {};
  }
  return {element, std::move(shape)};
}

exec::Tensor Reader::tensor() {
  TensorType type = tensorType();
  // Checked before allocating, so that a bad size cannot ask for absurd amounts of memory.
  size_t n = type.byteSize();
  if (!m_ok || n > m_size - m_pos) {
    m_ok = false;
    return {};
  }
  exec::Tensor t = exec::Tensor::uninitialized(type.element, std::move(type.dims));
  if (n)
    std::memcpy(t.bytes().data(), m_data + m_pos, n);
  m_pos += n;
  return t;
}

exec::DeviceSnapshot Reader::snapshot() {
  exec::DeviceSnapshot s;
  s.device = pod<int64_t>();
  s.status = static_cast<exec::DeviceStatus>(pod<int32_t>());
  s.op = pod<int64_t>();
  s.depth = pod<int64_t>();
  s.executed = pod<uint8_t>() != 0;
  uint32_t groupSize = pod<uint32_t>();
  for (uint32_t i = 0; i < groupSize && m_ok; ++i)
    s.group.push_back(pod<int64_t>());
  uint32_t numDiags = pod<uint32_t>();
  for (uint32_t i = 0; i < numDiags && m_ok; ++i) {
    support::Diagnostic d;
    d.severity = static_cast<support::Severity>(pod<int32_t>());
    d.message = string();
    d.loc = pod<support::SourceLocation>();
    uint32_t numNotes = pod<uint32_t>();
    for (uint32_t k = 0; k < numNotes && m_ok; ++k) {
      support::DiagnosticNote note;
      note.message = string();
      note.loc = pod<support::SourceLocation>();
      d.notes.push_back(std::move(note));
    }
    s.diagnostics.push_back(std::move(d));
  }
  return s;
}

namespace {

// A tensor as `outer` rows of `dimSize * inner` bytes: the rows before `dim`, the bytes of one
// index of `dim` and everything after it.
struct Layout {
  int64_t outer = 1;
  size_t innerBytes = 0;
};

Layout layoutOf(const exec::Tensor& t, int64_t dim) {
  Layout l;
  for (int64_t d = 0; d < dim; ++d)
    l.outer *= t.shape()[d];
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < t.rank(); ++d)
    inner *= t.shape()[d];
  l.innerBytes = static_cast<size_t>(inner) * exec::Tensor::elementBytes(t.elementType());
  return l;
}

} // namespace

std::vector<exec::Tensor> splitTensor(const exec::Tensor& t, int64_t dim, int64_t parts) {
  std::vector<int64_t> shape = t.shape();
  int64_t size = shape[dim] / parts;
  shape[dim] = size;
  Layout l = layoutOf(t, dim);
  size_t partRow = static_cast<size_t>(size) * l.innerBytes;
  size_t fullRow = static_cast<size_t>(t.shape()[dim]) * l.innerBytes;
  std::vector<exec::Tensor> out;
  for (int64_t p = 0; p < parts; ++p) {
    exec::Tensor part = exec::Tensor::uninitialized(t.elementType(), shape); // fully written
    for (int64_t o = 0; o < l.outer && partRow; ++o)
      std::memcpy(part.bytes().data() + o * partRow,
                  t.bytes().data() + o * fullRow + p * partRow, partRow);
    out.push_back(std::move(part));
  }
  return out;
}

exec::Tensor concatTensors(const std::vector<const exec::Tensor*>& parts, int64_t dim) {
  std::vector<int64_t> shape = parts[0]->shape();
  shape[dim] = 0;
  for (const exec::Tensor* p : parts)
    shape[dim] += p->shape()[dim];
  exec::Tensor out = exec::Tensor::uninitialized(parts[0]->elementType(), shape); // fully written
  Layout l = layoutOf(out, dim);
  size_t outRow = static_cast<size_t>(shape[dim]) * l.innerBytes;
  size_t offset = 0;
  for (const exec::Tensor* p : parts) {
    size_t row = static_cast<size_t>(p->shape()[dim]) * l.innerBytes;
    for (int64_t o = 0; o < l.outer && row; ++o)
      std::memcpy(out.bytes().data() + o * outRow + offset, p->bytes().data() + o * row, row);
    offset += row;
  }
  return out;
}

uint64_t fnv1a(const std::string& bytes) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

} // namespace shardscope::backends::mpi::detail
