#include "core/backends/local/detail/tensor_blocks.h"

#include <cstring>

namespace shardscope::backends::local::detail {

namespace {

// Elements before `dim` (outer) and the bytes of one index step of `dim` (inner block).
std::pair<int64_t, size_t> blockSizes(const std::vector<int64_t>& shape, int64_t dim,
                                      ir::ElementType element) {
  int64_t outer = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= shape[d];
  size_t inner = exec::Tensor::elementBytes(element);
  for (size_t d = static_cast<size_t>(dim) + 1; d < shape.size(); ++d)
    inner *= static_cast<size_t>(shape[d]);
  return {outer, inner};
}

} // namespace

std::vector<exec::Tensor> splitTensor(const exec::Tensor& t, int64_t dim, int64_t parts) {
  std::vector<int64_t> shape = t.shape();
  int64_t full = shape[dim];
  int64_t len = full / parts;
  shape[dim] = len;
  auto [outer, inner] = blockSizes(t.shape(), dim, t.elementType());
  std::vector<exec::Tensor> out;
  for (int64_t j = 0; j < parts; ++j) {
    exec::Tensor part = exec::Tensor::uninitialized(t.elementType(), shape); // fully written
    size_t chunk = static_cast<size_t>(len) * inner;
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(part.bytes().data() + static_cast<size_t>(o) * chunk,
                  t.bytes().data() + (static_cast<size_t>(o * full + j * len)) * inner, chunk);
    out.push_back(std::move(part));
  }
  return out;
}

exec::Tensor concatTensors(const std::vector<const exec::Tensor*>& parts, int64_t dim) {
  std::vector<int64_t> shape = parts.front()->shape();
  int64_t full = 0;
  for (const exec::Tensor* p : parts)
    full += p->shape()[dim];
  shape[dim] = full;
  // Every byte is written below: no zero fill.
  exec::Tensor out = exec::Tensor::uninitialized(parts.front()->elementType(), shape);
  auto [outer, inner] = blockSizes(shape, dim, out.elementType());
  int64_t offset = 0;
  for (const exec::Tensor* p : parts) {
    int64_t len = p->shape()[dim];
    size_t chunk = static_cast<size_t>(len) * inner;
    for (int64_t o = 0; o < outer; ++o)
      std::memcpy(out.bytes().data() + static_cast<size_t>(o * full + offset) * inner,
                  p->bytes().data() + static_cast<size_t>(o) * chunk, chunk);
    offset += len;
  }
  return out;
}

} // namespace shardscope::backends::local::detail
