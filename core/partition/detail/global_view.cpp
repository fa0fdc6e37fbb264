#include "core/partition/detail/global_view.h"

#include "core/partition/detail/cache_key.h"
#include "core/partition/detail/hlo_builder.h"
#include "core/partition/detail/mesh_groups.h"

#include <algorithm>

namespace shardscope::partition::detail {

namespace {

void mix(size_t& seed, size_t value) {
  seed ^= value + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2);
}

void mixAxes(size_t& seed, const std::vector<ir::AxisRef>& axes) {
  mix(seed, axes.size());
  for (const ir::AxisRef& axis : axes) {
    mix(seed, std::hash<std::string_view>()(axis.name));
    mix(seed, axis.subAxis
                  ? static_cast<size_t>(axis.subAxis->preSize * 1000003 + axis.subAxis->size)
                  : 0);
  }
}

// Hashes what TensorSharding::operator== compares (an inline mesh only by its presence).
size_t hashSharding(const ir::TensorSharding& sharding) {
  size_t seed = std::hash<std::string_view>()(sharding.meshName);
  mix(seed, sharding.inlineMesh != nullptr);
  mix(seed, sharding.dims.size());
  for (const ir::DimensionSharding& dim : sharding.dims) {
    mixAxes(seed, dim.axes);
    mix(seed, dim.isClosed);
    mix(seed, dim.priority ? static_cast<size_t>(*dim.priority) + 1 : 0);
  }
  mixAxes(seed, sharding.replicatedAxes);
  mixAxes(seed, sharding.unreducedAxes);
  mix(seed, std::hash<std::string_view>()(sharding.unreducedKind));
  return seed;
}

} // namespace

const ir::TensorSharding* ShardingPool::intern(const ir::TensorSharding& sharding) {
  size_t hash = hashSharding(sharding);
  auto [first, last] = m_byHash.equal_range(hash);
  for (auto it = first; it != last; ++it)
    if (*it->second == sharding)
      return it->second;
  m_shardings.push_back(sharding);
  m_byHash.emplace(hash, &m_shardings.back());
  return &m_shardings.back();
}

const sharding::ShardingLayout* LayoutCache::layoutOf(const GlobalInfo& info,
                                                      const ir::Module& module) {
  if (info.layoutKnown)
    return info.layout;
  info.layoutKnown = true;
  const ir::TensorSharding* s = info.sharding;
  if (!s || !info.type.isTensor() || !info.type.hasStaticShape())
    return nullptr;
  std::pair<const void*, const void*> view{s, info.type.opaquePointer()};
  if (auto known = m_layoutsByView.find(view); known != m_layoutsByView.end())
    return info.layout = known->second;
  info.layout = buildLayout(*s, info.type, module);
  m_layoutsByView.emplace(view, info.layout);
  return info.layout;
}

const sharding::ShardingLayout* LayoutCache::buildLayout(const ir::TensorSharding& viewSharding,
                                                         ir::Type type, const ir::Module& module) {
  const ir::Mesh* mesh = ir::resolveMesh(module, viewSharding);
  if (!mesh || static_cast<int64_t>(viewSharding.dims.size()) != type.rank())
    return nullptr;
  // Everything ShardingLayout::create reads: the mesh, the shape, each dimension's axes and the
  // unreduced axes. Named meshes belong to the module and inline ones are kept alive by the
  // shardings of the global views, so no mesh address is reused while the cache lives.
  CacheKey key;
  std::span<const int64_t> shape = type.shape();
  key.add(static_cast<const void*>(mesh)).add(shape);
  for (const ir::DimensionSharding& dim : viewSharding.dims)
    key.add(dim.axes);
  key.add(viewSharding.unreducedAxes);
  auto it = m_layouts.find(key.bytes());
  if (it == m_layouts.end())
    it = m_layouts.emplace(key.take(), sharding::ShardingLayout::create(viewSharding, *mesh, shape))
             .first;
  return it->second ? &*it->second : nullptr;
}

const std::vector<sharding::DeviceBlock>&
LayoutCache::blocks(const sharding::ShardingLayout& layout) {
  auto it = m_blocks.find(&layout);
  if (it == m_blocks.end())
    it = m_blocks.emplace(&layout, layout.blocks()).first;
  return it->second;
}

const sharding::DeviceBlock* LayoutCache::blockOf(const sharding::ShardingLayout& layout,
                                                  int64_t deviceId) {
  // The first device with that id, as ShardingLayout::blockOf finds it.
  const std::vector<sharding::DeviceBlock>& all = blocks(layout);
  auto it = std::find_if(all.begin(), all.end(),
                         [&](const sharding::DeviceBlock& b) { return b.deviceId == deviceId; });
  return it == all.end() ? nullptr : &*it;
}

const std::vector<std::vector<int64_t>>&
LayoutCache::groupsAlong(const ir::Mesh& mesh, std::span<const ir::AxisRef> axes) {
  CacheKey key;
  key.add(static_cast<const void*>(&mesh)).add(axes);
  auto it = m_groups.find(key.bytes());
  if (it == m_groups.end())
    it = m_groups.emplace(key.take(), detail::groupsAlong(sharding::MeshView(mesh), axes)).first;
  return it->second;
}

ir::Attribute LayoutCache::groupsMatrix(const std::vector<std::vector<int64_t>>& groups) {
  // Groups from `groupsAlong` live (unmoved) as long as the cache: their address is their key.
  auto it = m_groupMatrices.find(&groups);
  if (it == m_groupMatrices.end())
    it = m_groupMatrices.emplace(&groups, i64Matrix(groups)).first;
  return it->second;
}

ir::Type LayoutCache::localType(ir::Type type, const sharding::ShardingLayout& layout) {
  std::pair<const void*, const void*> key{type.opaquePointer(), &layout};
  auto it = m_localTypes.find(key);
  if (it == m_localTypes.end())
    it = m_localTypes.emplace(key, type.withShape(layout.localShape())).first;
  return it->second;
}

} // namespace shardscope::partition::detail
