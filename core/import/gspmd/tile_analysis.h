#pragma once

#include "core/import/gspmd/hlo_sharding.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace shardscope::import_::gspmd {

/// The shortest common refinement of two factorizations (XLA's `shortestCommonFactorization` /
/// `ExtractCommonFactorSequence`): the shortest sequence whose prefix products include every
/// prefix product of `a` and of `b` (entries of 1 ignored). `[4, 8]` and `[8, 4]` give
/// `[4, 2, 4]`. Returns an empty vector when there is none (`[2, 3]` and `[3, 2]`).
std::vector<int64_t> shortestCommonFactorization(std::span<const int64_t> a,
                                                 std::span<const int64_t> b);

/// One axis of the local mesh of a tile assignment: the tile dimension it splits
/// (`tileDimIndex`), which part of it (`tileSubDimIndex`, minor to major), the iota reshape
/// dimension it comes from and its size.
struct SubDimInfo {
  int64_t tileDimIndex = 0;
  int64_t tileSubDimIndex = 0;
  int64_t reshapeDimIndex = 0;
  int64_t size = 1;
};

/// A tile assignment read as a mesh: `localMesh` (axis sizes major to minor, in the device
/// order) and, per axis, the tile dimension it shards.
struct TileAnalysis {
  std::vector<SubDimInfo> subDims;
  std::vector<int64_t> localMesh;
};

/// XLA's `AnalyzeTileAssignment`: the local mesh of a tile assignment. An explicit device list
/// is first rewritten as an iota when it is one. Returns nothing when the device order cannot be
/// expressed as mesh axes (`{devices=[2,3]<=[2,3]T(1,0)}`, or an arbitrary device list).
std::optional<TileAnalysis> analyzeTileAssignment(const TileAssignment& tiles);

} // namespace shardscope::import_::gspmd
