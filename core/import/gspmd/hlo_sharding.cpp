#include "core/import/gspmd/hlo_sharding.h"

#include <algorithm>
#include <array>
#include <functional>
#include <numeric>

namespace shardscope::import_::gspmd {

namespace {

int64_t product(const std::vector<int64_t>& values) {
  return std::accumulate(values.begin(), values.end(), int64_t{1}, std::multiplies<>());
}

void appendJoined(const std::vector<int64_t>& values, std::string& out) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      out += ',';
    out += std::to_string(values[i]);
  }
}

// XLA keeps iota tile assignments in one canonical form, so that equal device orders print the
// same: dimensions of size 1 are dropped and dimensions that stay adjacent (in order) after the
// transpose are merged, until nothing changes.
void canonicalizeIota(std::vector<int64_t>& dims, std::vector<int64_t>& perm) {
  while (dims.size() > 1) {
    std::vector<int64_t> newIndex(dims.size(), -1);
    std::vector<int64_t> keptDims;
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] == 1)
        continue;
      newIndex[i] = static_cast<int64_t>(keptDims.size());
      keptDims.push_back(dims[i]);
    }
    std::vector<int64_t> keptPerm;
    for (int64_t p : perm)
      if (newIndex[p] >= 0)
        keptPerm.push_back(newIndex[p]);
    dims = std::move(keptDims);
    perm = std::move(keptPerm);
    bool changed = false;
    for (size_t i = 1, base = 0; i < dims.size(); ++i) {
      if (perm[base] + static_cast<int64_t>(i - base) == perm[i]) {
        dims[perm[base]] *= dims[perm[i]];
        dims[perm[i]] = 1;
        changed = true;
      } else {
        base = i;
      }
    }
    if (!changed)
      break;
  }
  if (dims.empty() || (dims.size() == 1 && dims[0] == 1)) {
    dims = {1};
    perm = {0};
  }
}

// Transposes the row-major array `values` of shape `shape` so that result dimension i is source
// dimension `perm[i]`.
std::vector<int64_t> transposeArray(const std::vector<int64_t>& values,
                                    const std::vector<int64_t>& shape,
                                    const std::vector<int64_t>& perm) {
  size_t rank = shape.size();
  std::vector<int64_t> strides(rank, 1);
  for (size_t i = rank; i-- > 1;)
    strides[i - 1] = strides[i] * shape[i];
  std::vector<int64_t> result(values.size());
  std::vector<int64_t> index(rank, 0); // index into the result, over shape[perm[i]]
  for (size_t flat = 0; flat < values.size(); ++flat) {
    int64_t source = 0;
    for (size_t i = 0; i < rank; ++i)
      source += index[i] * strides[perm[i]];
    result[flat] = values[source];
    for (size_t i = rank; i-- > 0;) {
      if (++index[i] < shape[perm[i]])
        break;
      index[i] = 0;
    }
  }
  return result;
}

// Sorts the devices of each replica group (the last dimension) of `tiles`, as XLA's
// `HloSharding::PartialTile` does. An iota order stays an iota when sorting changes nothing or
// when the sorted order is again an iota.
TileAssignment sortReplicaGroups(const TileAssignment& tiles) {
  int64_t groupSize = tiles.dims.back();
  // An iota whose last transposed dimension is a multiple of the group size steps each group
  // along that one dimension: its groups are increasing already. Deciding that from the iota
  // spares listing every device of a pod-sized mesh.
  if (tiles.isIota() && !tiles.perm.empty() && groupSize > 0) {
    int64_t last = tiles.reshapeDims[static_cast<size_t>(tiles.perm.back())];
    if (last % groupSize == 0)
      return tiles;
  }
  std::vector<int64_t> devices = tiles.materialize();
  std::vector<int64_t> sorted = devices;
  for (size_t start = 0; start < sorted.size(); start += groupSize)
    std::sort(sorted.begin() + start, sorted.begin() + start + groupSize);
  if (sorted == devices)
    return tiles;
  if (tiles.isIota()) {
    TileAssignment iota = TileAssignment::fromDeviceArray(tiles.dims, sorted);
    if (iota.isIota())
      return iota;
  }
  return TileAssignment::explicitDevices(tiles.dims, std::move(sorted));
}

HloSharding partialTile(const TileAssignment& tiles) {
  if (tiles.dims.size() == 1 || tiles.dims.back() == tiles.numElements())
    return HloSharding::replicate();
  if (tiles.dims.back() == 1) {
    TileAssignment reshaped = tiles;
    reshaped.dims.pop_back();
    return HloSharding::tile(std::move(reshaped));
  }
  HloSharding sharding = HloSharding::tile(sortReplicaGroups(tiles));
  sharding.lastTileDimReplicate = true;
  return sharding;
}

HloSharding createSubgroupSharding(const TileAssignment& tiles,
                                   const std::vector<SubgroupType>& types) {
  if (types.size() == 1 && types.back() == SubgroupType::Replicated)
    return partialTile(tiles);
  if (types.size() == 1 && types.back() == SubgroupType::Manual &&
      tiles.numElements() == tiles.dims.back())
    return HloSharding::manual();
  HloSharding sharding;
  if (!types.empty() && types.back() == SubgroupType::Replicated) {
    sharding = partialTile(tiles);
    if (!sharding.isTiled())
      sharding = HloSharding::tile(tiles);
    sharding.lastTileDimReplicate = false;
  } else {
    sharding = HloSharding::tile(tiles);
  }
  sharding.subgroupTypes = types;
  return sharding;
}

} // namespace

const char* subgroupTypeName(SubgroupType type) {
  switch (type) {
  case SubgroupType::Replicated:
    return "replicated";
  case SubgroupType::Manual:
    return "manual";
  case SubgroupType::Unreduced:
    return "unreduced";
  case SubgroupType::Maximal:
    return "maximal";
  }
  return "error_type.";
}

int64_t TileAssignment::numElements() const { return product(dims); }

std::vector<int64_t> TileAssignment::materialize() const {
  if (!isIota())
    return devices;
  std::vector<int64_t> values(static_cast<size_t>(product(reshapeDims)));
  std::iota(values.begin(), values.end(), int64_t{0});
  return transposeArray(values, reshapeDims, perm);
}

TileAssignment TileAssignment::iota(std::vector<int64_t> dims, std::vector<int64_t> reshapeDims,
                                    std::vector<int64_t> perm) {
  canonicalizeIota(reshapeDims, perm);
  TileAssignment result;
  result.dims = std::move(dims);
  result.reshapeDims = std::move(reshapeDims);
  result.perm = std::move(perm);
  return result;
}

TileAssignment TileAssignment::explicitDevices(std::vector<int64_t> dims,
                                               std::vector<int64_t> devices) {
  TileAssignment result;
  result.dims = std::move(dims);
  result.devices = std::move(devices);
  return result;
}

TileAssignment TileAssignment::fromDeviceArray(std::vector<int64_t> dims,
                                               std::vector<int64_t> devices) {
  TileAssignment none = explicitDevices(dims, devices);
  if (devices.empty() || devices[0] != 0)
    return none;
  // Peel digits of the flat index from the minor end: the longest run `0, s, 2s, ...` is one
  // digit of size `f` and stride `s` (adjacent iota dimensions with matching strides merge into
  // one run, which is what canonicalization would do anyway).
  struct Digit {
    int64_t size;
    int64_t stride;
  };
  std::vector<Digit> digits; // minor to major in tile order
  std::vector<int64_t> current = devices;
  while (current.size() > 1) {
    int64_t stride = current[1];
    if (stride <= 0)
      return none;
    size_t run = 1;
    while (run < current.size() && current[run] == static_cast<int64_t>(run) * stride)
      ++run;
    if (current.size() % run != 0)
      return none;
    digits.push_back({static_cast<int64_t>(run), stride});
    std::vector<int64_t> next;
    for (size_t t = 0; t < current.size(); t += run)
      next.push_back(current[t]);
    current = std::move(next);
  }
  // The strides must be those of a row-major array over some order of the digits.
  std::vector<size_t> byStride(digits.size());
  std::iota(byStride.begin(), byStride.end(), size_t{0});
  std::sort(byStride.begin(), byStride.end(),
            [&](size_t a, size_t b) { return digits[a].stride < digits[b].stride; });
  int64_t expected = 1;
  for (size_t i : byStride) {
    if (digits[i].stride != expected)
      return none;
    expected *= digits[i].size;
  }
  // Reshape dims major to minor (descending stride); the transpose lists, for each tile-order
  // digit major to minor, its reshape dimension.
  std::vector<int64_t> reshapeDims;
  std::vector<int64_t> reshapeIndexOf(digits.size());
  for (size_t k = byStride.size(); k-- > 0;) {
    reshapeIndexOf[byStride[k]] = static_cast<int64_t>(reshapeDims.size());
    reshapeDims.push_back(digits[byStride[k]].size);
  }
  std::vector<int64_t> perm;
  for (size_t k = digits.size(); k-- > 0;)
    perm.push_back(reshapeIndexOf[k]);
  if (reshapeDims.empty()) {
    reshapeDims = {1};
    perm = {0};
  }
  TileAssignment result = iota(dims, std::move(reshapeDims), std::move(perm));
  if (result.materialize() != devices)
    return none;
  return result;
}

void TileAssignment::print(std::string& out) const {
  out += "devices=[";
  appendJoined(dims, out);
  out += ']';
  if (isIota()) {
    out += "<=[";
    appendJoined(reshapeDims, out);
    out += ']';
    if (reshapeDims.size() > 1) {
      out += "T(";
      appendJoined(perm, out);
      out += ')';
    }
    return;
  }
  appendJoined(devices, out);
}

HloSharding HloSharding::replicate() { return HloSharding{}; }

HloSharding HloSharding::manual() {
  HloSharding s;
  s.kind = Kind::Manual;
  return s;
}

HloSharding HloSharding::unknown() {
  HloSharding s;
  s.kind = Kind::Unknown;
  return s;
}

HloSharding HloSharding::maximal(int64_t device) {
  HloSharding s;
  s.kind = Kind::Maximal;
  s.device = device;
  return s;
}

HloSharding HloSharding::tuple(std::vector<HloSharding> elements) {
  HloSharding s;
  s.kind = Kind::Tuple;
  s.tupleElements = std::move(elements);
  return s;
}

HloSharding HloSharding::tile(TileAssignment tiles) {
  HloSharding s;
  s.kind = Kind::Tiled;
  s.tiles = std::move(tiles);
  return s;
}

HloSharding HloSharding::subgroup(TileAssignment tiles, std::vector<SubgroupType> types) {
  if (types.empty())
    return tile(std::move(tiles));
  size_t dataDims = tiles.dims.size() - types.size();
  int64_t dataTiles = 1;
  for (size_t i = 0; i < dataDims; ++i)
    dataTiles *= tiles.dims[i];
  bool oneKind = std::all_of(types.begin(), types.end(),
                             [&](SubgroupType t) { return t == types.front(); });
  if (oneKind && dataTiles == 1) {
    if (types.front() == SubgroupType::Manual)
      return manual();
    if (types.front() == SubgroupType::Replicated)
      return replicate();
    if (types.front() == SubgroupType::Unreduced) {
      HloSharding s;
      s.kind = Kind::Unreduced;
      return s;
    }
  }
  constexpr std::array<SubgroupType, 4> kOrder = {SubgroupType::Maximal, SubgroupType::Manual,
                                                  SubgroupType::Unreduced,
                                                  SubgroupType::Replicated};
  std::array<std::vector<int64_t>, 4> dimsOfType;
  std::vector<int64_t> removed;
  bool needsMerging = false;
  int kinds = 0;
  for (size_t i = 0; i < types.size(); ++i) {
    int64_t dim = static_cast<int64_t>(dataDims + i);
    if (tiles.dims[dim] == 1) {
      removed.push_back(dim);
      needsMerging = true;
      continue;
    }
    auto slot = std::find(kOrder.begin(), kOrder.end(), types[i]) - kOrder.begin();
    if (!dimsOfType[slot].empty())
      needsMerging = true;
    else
      ++kinds;
    dimsOfType[slot].push_back(dim);
  }
  needsMerging |= kinds > 1;
  if (!needsMerging)
    return createSubgroupSharding(tiles, types);

  std::vector<int64_t> perm(dataDims);
  std::iota(perm.begin(), perm.end(), int64_t{0});
  std::vector<int64_t> mergedShape(tiles.dims.begin(), tiles.dims.begin() + dataDims);
  std::vector<SubgroupType> mergedTypes;
  for (size_t slot = 0; slot < kOrder.size(); ++slot) {
    if (dimsOfType[slot].empty())
      continue;
    int64_t size = 1;
    for (int64_t dim : dimsOfType[slot]) {
      perm.push_back(dim);
      size *= tiles.dims[dim];
    }
    mergedShape.push_back(size);
    mergedTypes.push_back(kOrder[slot]);
  }
  perm.insert(perm.end(), removed.begin(), removed.end());
  std::vector<int64_t> moved = transposeArray(tiles.materialize(), tiles.dims, perm);
  TileAssignment merged = tiles.isIota() ? TileAssignment::fromDeviceArray(mergedShape, moved)
                                         : TileAssignment::explicitDevices(mergedShape, moved);
  return createSubgroupSharding(merged, mergedTypes);
}

int64_t HloSharding::tiledDataRank() const {
  if (!isTiled())
    return 0;
  return static_cast<int64_t>(tiles.dims.size()) - numSubgroupDims();
}

int64_t HloSharding::numSubgroupDims() const {
  return lastTileDimReplicate ? 1 : static_cast<int64_t>(subgroupTypes.size());
}

std::string HloSharding::toString(bool includeMetadata) const {
  std::string out;
  if (isTuple()) {
    out += '{';
    for (size_t i = 0; i < tupleElements.size(); ++i) {
      if (i > 0)
        out += i % 5 == 0 ? ", /*index=" + std::to_string(i) + "*/" : std::string(", ");
      out += tupleElements[i].toString(includeMetadata);
    }
    out += '}';
    return out;
  }
  out += '{';
  switch (kind) {
  case Kind::Replicated:
    out += "replicated";
    break;
  case Kind::Manual:
    out += "manual";
    break;
  case Kind::Unknown:
    out += "unknown";
    break;
  case Kind::Unreduced:
    out += "unreduced";
    break;
  case Kind::Maximal:
    out += "maximal device=" + std::to_string(device);
    break;
  case Kind::Tiled:
    tiles.print(out);
    if (lastTileDimReplicate)
      out += " last_tile_dim_replicate";
    if (!subgroupTypes.empty()) {
      out += " last_tile_dims={";
      for (size_t i = 0; i < subgroupTypes.size(); ++i) {
        if (i)
          out += ", ";
        out += subgroupTypeName(subgroupTypes[i]);
      }
      out += '}';
    }
    break;
  case Kind::Tuple:
    break;
  }
  if (includeMetadata && !metadata.empty())
    out += " metadata=" + metadata;
  out += '}';
  return out;
}

bool HloSharding::operator==(const HloSharding& other) const {
  if (kind != other.kind)
    return false;
  switch (kind) {
  case Kind::Maximal:
    return device == other.device;
  case Kind::Tuple:
    return tupleElements == other.tupleElements;
  case Kind::Tiled:
    return tiles.dims == other.tiles.dims && tiles.materialize() == other.tiles.materialize() &&
           lastTileDimReplicate == other.lastTileDimReplicate &&
           subgroupTypes == other.subgroupTypes;
  default:
    return true;
  }
}

} // namespace shardscope::import_::gspmd
