#include "core/import/gspmd/tile_analysis.h"

#include <algorithm>
#include <tuple>

namespace shardscope::import_::gspmd {

std::vector<int64_t> shortestCommonFactorization(std::span<const int64_t> a,
                                                 std::span<const int64_t> b) {
  auto skipOnes = [](std::span<const int64_t> values, size_t index) {
    while (index < values.size() && values[index] == 1)
      ++index;
    return index;
  };
  std::vector<int64_t> result;
  size_t i = skipOnes(a, 0), j = skipOnes(b, 0);
  int64_t nextA = 1, nextB = 1, accumulated = 1;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && nextA == accumulated)
      nextA *= a[i++];
    if (j < b.size() && nextB == accumulated)
      nextB *= b[j++];
    int64_t small = std::min(nextA / accumulated, nextB / accumulated);
    int64_t large = std::max(nextA / accumulated, nextB / accumulated);
    if (small == 1 || large % small != 0)
      return {};
    result.push_back(small);
    accumulated *= small;
    i = skipOnes(a, i);
    j = skipOnes(b, j);
  }
  return result;
}

namespace {

// Splits the tile dimensions and the (transposed) iota dimensions into common axes, walking both
// from the minor end, then orders the axes by the iota dimension they come from (the device
// order), ties by tile dimension.
std::optional<std::vector<SubDimInfo>> orderedSubDims(const TileAssignment& iota) {
  std::vector<int64_t> deviceShape(iota.perm.size());
  for (size_t k = 0; k < iota.perm.size(); ++k)
    deviceShape[k] = iota.reshapeDims[iota.perm[k]];
  std::vector<int64_t> axisSizes = shortestCommonFactorization(iota.dims, deviceShape);
  if (axisSizes.empty())
    return std::nullopt;

  std::vector<SubDimInfo> subDims;
  int64_t tileDim = static_cast<int64_t>(iota.dims.size()) - 1;
  int64_t permIndex = static_cast<int64_t>(iota.perm.size()) - 1;
  int64_t tileAcc = 1, deviceAcc = 1, subDim = 0;
  for (auto it = axisSizes.rbegin(); it != axisSizes.rend(); ++it) {
    while (tileDim >= 0 && iota.dims[tileDim] == 1)
      --tileDim;
    if (tileDim < 0 || permIndex < 0)
      return std::nullopt;
    subDims.push_back({tileDim, subDim++, iota.perm[permIndex], *it});
    tileAcc *= *it;
    deviceAcc *= *it;
    if (iota.dims[tileDim] == tileAcc) {
      --tileDim;
      tileAcc = 1;
      subDim = 0;
    }
    if (deviceShape[permIndex] == deviceAcc) {
      deviceAcc = 1;
      --permIndex;
    }
  }
  std::sort(subDims.begin(), subDims.end(), [](const SubDimInfo& x, const SubDimInfo& y) {
    return std::tie(x.reshapeDimIndex, x.tileDimIndex) < std::tie(y.reshapeDimIndex, y.tileDimIndex);
  });
  return subDims;
}

} // namespace

std::optional<TileAnalysis> analyzeTileAssignment(const TileAssignment& tiles) {
  TileAssignment iota = tiles;
  if (!iota.isIota())
    iota = TileAssignment::fromDeviceArray(tiles.dims, tiles.devices);
  if (!iota.isIota())
    return std::nullopt;
  std::optional<std::vector<SubDimInfo>> subDims = orderedSubDims(iota);
  if (!subDims)
    return std::nullopt;
  TileAnalysis result;
  result.subDims = std::move(*subDims);
  for (const SubDimInfo& info : result.subDims)
    result.localMesh.push_back(info.size);
  return result;
}

} // namespace shardscope::import_::gspmd
