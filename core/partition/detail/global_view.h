#pragma once
// Internal to core/partition: what convert-global-to-local remembers about the global program
// while it rewrites it into the per-device one, and the per-layout data it derives from that.

#include "core/ir/module.h"
#include "core/ir/sdy_types.h"
#include "core/sharding/sharding_layout.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace shardscope::partition::detail {

/// The global (logical) view of a value, remembered before types become local.
struct GlobalInfo {
  ir::Type type;
  /// The sharding (`valueSharding`), interned in a `ShardingPool`; null when there is none.
  const ir::TensorSharding* sharding = nullptr;
  /// The layout of this view, filled in by the first `LayoutCache::layoutOf` (the view never
  /// changes, and rewrites ask for the same value's layout several times).
  mutable const sharding::ShardingLayout* layout = nullptr;
  mutable bool layoutKnown = false;
};

/// Value -> GlobalInfo, open addressing (linear probing) over a power-of-two slot array; the infos
/// live in a deque so their addresses stay valid while the table grows. One probe sequence over
/// contiguous slots instead of the bucket -> node pointer chase of std::unordered_map (this table
/// holds every value of the module and is read by nearly every rewrite).
class GlobalTable {
public:
  const GlobalInfo* find(const ir::Value* key) const {
    if (m_slots.empty())
      return nullptr;
    size_t mask = m_slots.size() - 1;
    for (size_t i = slotOf(key, mask);; i = (i + 1) & mask) {
      const Slot& slot = m_slots[i];
      if (slot.key == key)
        return &m_infos[slot.index];
      if (!slot.key)
        return nullptr;
    }
  }
  bool contains(const ir::Value* key) const { return find(key) != nullptr; }
  size_t size() const { return m_live; }
  // Like unordered_map::emplace: nothing happens when `key` is present.
  void emplace(const ir::Value* key, GlobalInfo info) {
    if (contains(key))
      return;
    if ((m_used + 1) * 4 > m_slots.size() * 3)
      rehash(std::max<size_t>(16, (m_live + 1) * 2));
    size_t mask = m_slots.size() - 1;
    size_t i = slotOf(key, mask);
    while (m_slots[i].key && m_slots[i].key != tombstone())
      i = (i + 1) & mask;
    if (!m_slots[i].key)
      ++m_used;
    m_infos.push_back(std::move(info));
    m_slots[i] = Slot{key, m_infos.size() - 1};
    ++m_live;
  }
  void erase(const ir::Value* key) {
    if (m_slots.empty())
      return;
    size_t mask = m_slots.size() - 1;
    for (size_t i = slotOf(key, mask);; i = (i + 1) & mask) {
      Slot& slot = m_slots[i];
      if (slot.key == key) {
        slot.key = tombstone();
        --m_live;
        return;
      }
      if (!slot.key)
        return;
    }
  }
  void reserve(size_t n) {
    if (n * 4 > m_slots.size() * 3)
      rehash(n);
  }

private:
  struct Slot {
    const ir::Value* key = nullptr;
    size_t index = 0;
  };
  static const ir::Value* tombstone() { return reinterpret_cast<const ir::Value*>(uintptr_t{1}); }
  static size_t slotOf(const ir::Value* key, size_t mask) {
    auto h = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(key)) * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(h ^ (h >> 29)) & mask;
  }
  // Room for `n` live entries below a 3/4 load.
  void rehash(size_t n) {
    size_t capacity = 16;
    while (capacity * 3 < std::max(n, m_live) * 4)
      capacity *= 2;
    std::vector<Slot> old = std::move(m_slots);
    m_slots.assign(capacity, Slot{});
    size_t mask = capacity - 1;
    for (const Slot& slot : old) {
      if (!slot.key || slot.key == tombstone())
        continue;
      size_t i = slotOf(slot.key, mask);
      while (m_slots[i].key)
        i = (i + 1) & mask;
      m_slots[i] = slot;
    }
    m_used = m_live;
  }
  std::vector<Slot> m_slots;
  std::deque<GlobalInfo> m_infos;
  size_t m_used = 0; // live entries and tombstones
  size_t m_live = 0;
};

/// Equal shardings stored once: the global views of a large program hold only a few distinct
/// shardings, and hashing one costs less than copying it.
class ShardingPool {
public:
  /// A stored sharding equal to `sharding`; it lives (unmoved) as long as the pool.
  const ir::TensorSharding* intern(const ir::TensorSharding& sharding);

private:
  std::deque<ir::TensorSharding> m_shardings;
  std::unordered_multimap<size_t, const ir::TensorSharding*> m_byHash;
};

/// Interns the `ShardingLayout`s of global views: values with equal shardings, shapes and meshes
/// share one layout, and its blocks and replica groups are built once. A 100k-op program has
/// hundreds of thousands of values but only a handful of distinct layouts, and every collective
/// and device-dependent op asks for blocks or groups several times.
class LayoutCache {
public:
  /// The layout of `info` on its mesh in `module` (null when `info` has no sharding or mesh,
  /// isn't a static tensor or the layout can't be built). The pointer stays valid as long as the
  /// cache. `info.sharding` must be interned (see `ShardingPool`), and the pool must outlive the
  /// cache.
  const sharding::ShardingLayout* layoutOf(const GlobalInfo& info, const ir::Module& module);
  /// The blocks of every device (`layout.blocks()`) of a layout returned by `layoutOf`.
  const std::vector<sharding::DeviceBlock>& blocks(const sharding::ShardingLayout& layout);
  /// The block of `deviceId` in a layout returned by `layoutOf` (`layout.blockOf`), or null.
  const sharding::DeviceBlock* blockOf(const sharding::ShardingLayout& layout, int64_t deviceId);
  /// `groupsAlong(MeshView(mesh), axes)` (see mesh_groups.h), built once per mesh and axes.
  const std::vector<std::vector<int64_t>>& groupsAlong(const ir::Mesh& mesh,
                                                       std::span<const ir::AxisRef> axes);

  /// The `replica_groups` matrix (`i64Matrix`) of groups returned by `groupsAlong`, built once.
  ir::Attribute groupsMatrix(const std::vector<std::vector<int64_t>>& groups);
  /// `type` (the global type of a value laid out by `layout`) with the local shape.
  ir::Type localType(ir::Type type, const sharding::ShardingLayout& layout);

private:
  const sharding::ShardingLayout* buildLayout(const ir::TensorSharding& viewSharding, ir::Type type,
                                              const ir::Module& module);
  struct PairHash {
    size_t operator()(const std::pair<const void*, const void*>& p) const {
      return std::hash<const void*>()(p.first) * 31 + std::hash<const void*>()(p.second);
    }
  };
  std::unordered_map<std::string, std::optional<sharding::ShardingLayout>> m_layouts;
  // (interned sharding, type) -> layout: skips the mesh lookup and the key for views seen before.
  std::unordered_map<std::pair<const void*, const void*>, const sharding::ShardingLayout*, PairHash>
      m_layoutsByView;
  std::unordered_map<const void*, ir::Attribute> m_groupMatrices;
  std::unordered_map<std::pair<const void*, const void*>, ir::Type, PairHash> m_localTypes;
  std::unordered_map<const sharding::ShardingLayout*, std::vector<sharding::DeviceBlock>> m_blocks;
  std::unordered_map<std::string, std::vector<std::vector<int64_t>>> m_groups;
};

} // namespace shardscope::partition::detail
