#pragma once
// Internal to core/partition: byte-string keys for the caches the passes keep of work that only
// depends on a few shardings, shapes and meshes (layouts, device groups, reshard plans).

#include "core/ir/sdy_types.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace shardscope::partition::detail {

/// Builds a key by appending fixed-width integers and length-prefixed strings, so that two
/// different sequences of parts never give the same bytes.
class CacheKey {
public:
  // Keys of op plans run to a few hundred bytes: grow the string once.
  CacheKey() { m_bytes.reserve(256); }

  CacheKey& add(int64_t value) {
    m_bytes.append(reinterpret_cast<const char*>(&value), sizeof(value));
    return *this;
  }
  CacheKey& add(std::string_view text) {
    add(static_cast<int64_t>(text.size()));
    m_bytes.append(text);
    return *this;
  }
  CacheKey& add(std::span<const int64_t> values) {
    add(static_cast<int64_t>(values.size()));
    for (int64_t v : values)
      add(v);
    return *this;
  }
  CacheKey& add(std::span<const ir::AxisRef> axes) {
    add(static_cast<int64_t>(axes.size()));
    for (const ir::AxisRef& axis : axes)
      add(axis.name)
          .add(axis.subAxis ? axis.subAxis->preSize : -1)
          .add(axis.subAxis ? axis.subAxis->size : -1);
    return *this;
  }
  CacheKey& add(const ir::TensorSharding& sharding) {
    add(sharding.meshName).add(static_cast<const void*>(sharding.inlineMesh.get()));
    add(static_cast<int64_t>(sharding.dims.size()));
    for (const ir::DimensionSharding& dim : sharding.dims)
      add(dim.axes)
          .add(int64_t{dim.isClosed})
          .add(dim.priority ? *dim.priority : -1)
          .add(int64_t{dim.priority.has_value()});
    return add(sharding.replicatedAxes).add(sharding.unreducedAxes).add(sharding.unreducedKind);
  }
  /// An object's address: for meshes that stay alive (and unmoved) as long as the cache.
  CacheKey& add(const void* address) {
    return add(static_cast<int64_t>(reinterpret_cast<uintptr_t>(address)));
  }

  const std::string& bytes() const { return m_bytes; }
  std::string take() { return std::move(m_bytes); }

private:
  std::string m_bytes;
};

} // namespace shardscope::partition::detail
