#include "core/session/values.h"

#include "core/io/npy/npy.h"
#include "core/support/parse_number.h"

#include <cstring>
#include <random>
#include <set>

namespace shardscope::session {

namespace {

size_t storageBytes(ir::ElementType element) { return exec::Tensor::elementBytes(element); }

// Calls `fn(localIndex, globalIndex)` for every element of the block `ranges` (global index
// ranges per dimension) that lies inside the global tensor, with row-major linear indices into a
// local tensor of `localShape` and the global tensor of `globalShape`.
template <typename Fn>
void forEachBlockElement(const std::vector<sharding::IndexRange>& ranges,
                         const std::vector<int64_t>& localShape,
                         const std::vector<int64_t>& globalShape, Fn&& fn) {
  size_t rank = ranges.size();
  std::vector<int64_t> extent(rank);
  for (size_t d = 0; d < rank; ++d) {
    extent[d] = std::max<int64_t>(0, ranges[d].size());
    if (extent[d] == 0)
      return;
  }
  std::vector<int64_t> index(rank, 0);
  while (true) {
    int64_t local = 0, global = 0;
    for (size_t d = 0; d < rank; ++d) {
      local = local * localShape[d] + index[d];
      global = global * globalShape[d] + ranges[d].begin + index[d];
    }
    fn(local, global);
    size_t d = rank;
    while (d > 0) {
      --d;
      if (++index[d] < extent[d])
        break;
      index[d] = 0;
      if (d == 0)
        return;
    }
    if (rank == 0)
      return;
  }
}

} // namespace

exec::Tensor blockOf(const exec::Tensor& global, const sharding::ShardingLayout& layout,
                     int64_t deviceId) {
  exec::Tensor local(global.elementType(), layout.localShape());
  std::optional<sharding::DeviceBlock> block = layout.blockOf(deviceId);
  if (!block)
    return local;
  size_t bytes = storageBytes(global.elementType());
  const uint8_t* src = global.bytes().data();
  uint8_t* dst = local.bytes().data();
  forEachBlockElement(block->ranges, local.shape(), global.shape(),
                      [&](int64_t l, int64_t g) { std::memcpy(dst + l * bytes, src + g * bytes, bytes); });
  return local;
}

std::optional<Assembled> assemble(const sharding::ShardingLayout& layout, ir::Type globalType,
                                  const std::function<const exec::Tensor*(int64_t)>& blockOn,
                                  std::string& error) {
  std::vector<int64_t> globalShape(globalType.shape().begin(), globalType.shape().end());
  Assembled out{exec::Tensor(globalType.elementType(), globalShape), {}};
  size_t bytes = storageBytes(globalType.elementType());
  std::vector<int64_t> localShape = layout.localShape();
  std::set<std::vector<int64_t>> placed; // blocks written so far, by shard index
  for (const std::vector<int64_t>& group : layout.replicaGroups()) {
    const exec::Tensor* first = nullptr;
    int64_t firstDevice = -1;
    for (int64_t device : group) {
      const exec::Tensor* block = blockOn(device);
      if (!block) {
        error = "device " + std::to_string(device) + " holds no value";
        return std::nullopt;
      }
      if (block->shape() != localShape || block->elementType() != globalType.elementType()) {
        error = "device " + std::to_string(device) + " holds " + block->type().str() +
                ", the sharding gives it " +
                ir::Type::tensor(localShape, globalType.elementType()).str();
        return std::nullopt;
      }
      if (!first) {
        first = block;
        firstDevice = device;
        continue;
      }
      if (out.replicaProblem.empty() && !(*block == *first)) {
        exec::CompareResult diff = exec::compareTensors(*first, *block);
        out.replicaProblem = "devices " + std::to_string(firstDevice) + " and " +
                             std::to_string(device) +
                             " should hold the same block but differ: " + diff.message;
      }
    }
    if (!first)
      continue;
    std::optional<sharding::DeviceBlock> block = layout.blockOf(firstDevice);
    if (!block)
      continue;
    // Groups that hold the same block with another unreduced index hold partial results of it:
    // the global value is their sum (integers wrap, floats add in double per element).
    bool partial = !placed.insert(block->shardIndex).second;
    const uint8_t* src = first->bytes().data();
    uint8_t* dst = out.value.bytes().data();
    exec::Tensor& global = out.value;
    bool isFloat = ir::isFloatElement(globalType.elementType());
    forEachBlockElement(block->ranges, localShape, globalShape, [&](int64_t l, int64_t g) {
      if (!partial)
        std::memcpy(dst + g * bytes, src + l * bytes, bytes);
      else if (isFloat)
        global.setFloat(g, global.floatAt(g) + first->floatAt(l));
      else
        global.setInt(g, global.intAt(g) + first->intAt(l));
    });
  }
  return out;
}

const InputSource& InputSpec::sourceOf(int64_t index) const {
  for (const auto& [argument, source] : perArgument)
    if (argument == index)
      return source;
  return all;
}

namespace {

std::optional<InputSource> parseSource(std::string_view text, std::string& error) {
  InputSource source;
  if (text == "zeros") {
    source.kind = InputSource::Kind::Zeros;
  } else if (text == "ones") {
    source.kind = InputSource::Kind::Ones;
  } else if (text == "iota") {
    source.kind = InputSource::Kind::Iota;
  } else if (text == "small") {
    source.kind = InputSource::Kind::Small;
  } else if (text == "random" || text.starts_with("random:")) {
    source.kind = InputSource::Kind::Random;
    if (text.size() > 6) {
      std::optional<int64_t> seed = support::parseInteger<int64_t>(text.substr(7));
      if (!seed || *seed < 0) {
        error = "bad random seed in '" + std::string(text) + "'";
        return std::nullopt;
      }
      source.seed = static_cast<uint64_t>(*seed);
    }
  } else if (text.ends_with(".npy")) {
    source.kind = InputSource::Kind::Npy;
    source.path = std::string(text);
  } else {
    error = "unknown input '" + std::string(text) +
            "' (expected zeros, ones, iota, small, random[:SEED] or a .npy file)";
    return std::nullopt;
  }
  return source;
}

} // namespace

std::optional<InputSpec> parseInputSpec(const std::string& text, std::string& error) {
  InputSpec spec;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string_view item = std::string_view(text).substr(
        start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? text.size() + 1 : comma + 1;
    if (item.empty()) {
      error = "empty item in input spec '" + text + "'";
      return std::nullopt;
    }
    size_t eq = item.find('=');
    std::optional<InputSource> source =
        parseSource(eq == std::string_view::npos ? item : item.substr(eq + 1), error);
    if (!source)
      return std::nullopt;
    if (eq == std::string_view::npos) {
      spec.all = *source;
      continue;
    }
    std::optional<int64_t> index = support::parseInteger<int64_t>(item.substr(0, eq));
    if (!index || *index < 0) {
      error = "bad argument index in '" + std::string(item) + "'";
      return std::nullopt;
    }
    spec.perArgument.emplace_back(*index, *source);
  }
  return spec;
}

std::optional<exec::Tensor> makeInput(const InputSource& source, ir::Type type, int64_t index,
                                      std::string& error) {
  std::string argument = "argument " + std::to_string(index);
  if (!type.isTensor() || !type.hasStaticShape() ||
      !exec::Tensor::isSupportedElement(type.elementType())) {
    error = argument + ": cannot make a value of type " + type.str();
    return std::nullopt;
  }
  std::vector<int64_t> shape(type.shape().begin(), type.shape().end());
  exec::Tensor tensor(type.elementType(), shape);
  int64_t n = tensor.numElements();
  bool isFloat = ir::isFloatElement(type.elementType());
  switch (source.kind) {
  case InputSource::Kind::Zeros:
    return tensor;
  case InputSource::Kind::Ones:
    for (int64_t i = 0; i < n; ++i)
      tensor.setInt(i, 1);
    return tensor;
  case InputSource::Kind::Iota:
    for (int64_t i = 0; i < n; ++i)
      tensor.setInt(i, i + 1000 * index);
    return tensor;
  case InputSource::Kind::Small:
    for (int64_t i = 0; i < n; ++i) {
      if (isFloat)
        tensor.setFloat(i, static_cast<double>((i + 3 * index) % 17 - 8) / 8.0);
      else
        tensor.setInt(i, i + 1000 * index);
    }
    return tensor;
  case InputSource::Kind::Random: {
    // A fixed engine and hand-made distributions (std's differ between libraries), so a seed
    // gives the same inputs everywhere.
    std::mt19937_64 engine(source.seed * 1'000'003 + static_cast<uint64_t>(index));
    for (int64_t i = 0; i < n; ++i) {
      uint64_t bits = engine();
      if (type.elementType() == ir::ElementType::I1)
        tensor.setInt(i, static_cast<int64_t>(bits & 1));
      else if (isFloat)
        tensor.setFloat(i, static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0);
      else if (ir::isUnsignedElement(type.elementType()))
        tensor.setInt(i, static_cast<int64_t>(bits % 101));
      else
        tensor.setInt(i, static_cast<int64_t>(bits % 201) - 100);
    }
    return tensor;
  }
  case InputSource::Kind::Npy: {
    std::optional<io::npy::Array> array = io::npy::read(source.path, error);
    if (!array) {
      error = argument + ": " + error;
      return std::nullopt;
    }
    ir::Type got = ir::Type::tensor(array->shape, array->element);
    if (got != type) {
      error = argument + ": " + source.path + " holds " + got.str() + ", the function takes " +
              type.str();
      return std::nullopt;
    }
    std::memcpy(tensor.bytes().data(), array->data.data(), array->data.size());
    return tensor;
  }
  }
  return std::nullopt;
}

} // namespace shardscope::session
