#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace shardscope::import_::gspmd {

/// Which devices hold which tile: XLA's `TileAssignment`. A tile assignment is an array of
/// device ids with dimensions `dims`, written either as an explicit list
/// (`devices=[2,2]0,2,1,3`, XLA's "V1" form) or as a transposed iota
/// (`devices=[2,2]<=[2,2]T(1,0)`, the "V2" form: `iota(reshapeDims)` transposed by `perm`, then
/// reshaped to `dims`).
struct TileAssignment {
  std::vector<int64_t> dims;
  /// The iota form (empty `reshapeDims` means the explicit form in `devices`).
  std::vector<int64_t> reshapeDims;
  std::vector<int64_t> perm;
  /// The explicit device list, row-major over `dims`.
  std::vector<int64_t> devices;

  /// Returns true for the iota (V2) form.
  bool isIota() const { return !reshapeDims.empty(); }
  /// The number of devices (the product of `dims`).
  int64_t numElements() const;
  /// The device ids, row-major over `dims`.
  std::vector<int64_t> materialize() const;

  /// An iota tile assignment, canonicalized as XLA does (dimensions of size 1 removed, runs of
  /// dimensions that stay adjacent after the transpose merged). Precondition: `perm` is a
  /// permutation of `0..reshapeDims.size()-1` and the products of `dims` and `reshapeDims` agree.
  static TileAssignment iota(std::vector<int64_t> dims, std::vector<int64_t> reshapeDims,
                             std::vector<int64_t> perm);
  /// An explicit tile assignment. Precondition: `devices.size()` is the product of `dims`.
  static TileAssignment explicitDevices(std::vector<int64_t> dims, std::vector<int64_t> devices);
  /// The iota form equivalent to the device array `devices` (row-major over `dims`), or an
  /// empty optional-like result (`reshapeDims` empty) when the order is not a transposed iota.
  static TileAssignment fromDeviceArray(std::vector<int64_t> dims, std::vector<int64_t> devices);

  /// Prints `devices=[...]...` as XLA's `TileAssignment::Print` does.
  void print(std::string& out) const;

  bool operator==(const TileAssignment&) const = default;
};

/// The kind of a subgroup dimension after the data dimensions (`last_tile_dims={...}`).
enum class SubgroupType { Replicated, Manual, Unreduced, Maximal };

/// The printed name of a subgroup type (`manual`, `replicated`, ...).
const char* subgroupTypeName(SubgroupType type);

/// An HLO sharding, as XLA's `HloSharding` models the strings `HloSharding::ToString` prints:
/// `{replicated}`, `{maximal device=3}`, `{manual}`, `{unknown}`, `{unreduced}`, tiled shardings
/// (`{devices=[2,1,4]<=[8] last_tile_dim_replicate}`) and tuples of them.
struct HloSharding {
  enum class Kind { Replicated, Maximal, Manual, Unknown, Unreduced, Tiled, Tuple };

  Kind kind = Kind::Replicated;
  /// The device of a maximal sharding.
  int64_t device = 0;
  /// The tile assignment of a tiled sharding: one dimension per data dimension, then one per
  /// subgroup (`last_tile_dim_replicate` is one replicated subgroup).
  TileAssignment tiles;
  bool lastTileDimReplicate = false;
  std::vector<SubgroupType> subgroupTypes;
  /// The elements of a tuple sharding.
  std::vector<HloSharding> tupleElements;
  /// The text inside `metadata={...}`, kept verbatim (it does not change the sharding).
  std::string metadata;

  static HloSharding replicate();
  static HloSharding manual();
  static HloSharding unknown();
  static HloSharding maximal(int64_t device);
  static HloSharding tuple(std::vector<HloSharding> elements);
  /// A tiled sharding without subgroups.
  static HloSharding tile(TileAssignment tiles);
  /// XLA's `HloSharding::Subgroup`: `tiles` has one dimension per data dimension followed by one
  /// per entry of `types`. Normalizes as XLA does: a sharding with no tiled data dimension and a
  /// single subgroup kind becomes `{replicated}` / `{manual}` / `{unreduced}`; subgroup dimensions
  /// of size 1 are dropped, same-kind ones merged, kinds ordered manual, unreduced, replicated;
  /// a lone replicated subgroup becomes `last_tile_dim_replicate` with each replica group's
  /// devices sorted.
  static HloSharding subgroup(TileAssignment tiles, std::vector<SubgroupType> types);

  bool isTuple() const { return kind == Kind::Tuple; }
  bool isTiled() const { return kind == Kind::Tiled; }
  /// The number of data dimensions a tiled sharding tiles.
  int64_t tiledDataRank() const;
  /// The number of subgroup dimensions after the data dimensions.
  int64_t numSubgroupDims() const;

  /// Prints the sharding as XLA's `HloSharding::ToString` does (`metadata` only when asked).
  std::string toString(bool includeMetadata = false) const;

  bool operator==(const HloSharding& other) const;
};

} // namespace shardscope::import_::gspmd
