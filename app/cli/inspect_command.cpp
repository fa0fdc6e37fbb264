// `shardscope-cli inspect FILE --value NAME`: a text picture of which device holds which block
// of one tensor, in the spirit of `jax.debug.visualize_array_sharding` but for any rank.
#include "app/cli/cli_support.h"
#include "app/cli/program.h"
#include "app/cli/resource_limits.h"

#include "core/ir/attribute.h"
#include "core/sharding/notation.h"
#include "core/sharding/value_sharding.h"
#include "core/sharding/sharding_layout.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace shardscope::cli {

namespace {

struct InspectOptions {
  std::string file;
  std::string value;
  std::string function;
  ResourceLimits limits;
};

bool parseInspectArgs(const std::vector<std::string>& args, InspectOptions& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto takeValue = [&](std::string& out) {
      if (i + 1 >= args.size())
        return false;
      out = args[++i];
      return true;
    };
    if (std::optional<bool> ok = parseLimitOption(args, i, o.limits)) {
      if (!*ok)
        return false;
    } else if (a == "--value" || a == "-value") {
      if (!takeValue(o.value))
        return false;
    } else if (a.starts_with("--value=")) {
      o.value = a.substr(8);
    } else if (a == "--function" || a == "-function") {
      if (!takeValue(o.function))
        return false;
    } else if (a.starts_with("--function=")) {
      o.function = a.substr(11);
    } else if (o.file.empty() && (a == "-" || !a.starts_with("-"))) {
      o.file = a;
    } else {
      return false;
    }
  }
  return !o.file.empty() && !o.value.empty();
}

std::string rangeLabel(const sharding::IndexRange& r, int64_t blockSize) {
  if (r.empty())
    return "padding only";
  std::string out = std::to_string(r.begin) + ":" + std::to_string(r.end);
  if (r.size() < blockSize)
    out += " (+" + std::to_string(blockSize - r.size()) + " pad)";
  return out;
}

std::string repeat(const char* s, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i)
    out += s;
  return out;
}

// Draws one 2-D grid: rows are the blocks along `rowDim`, columns those along `colDim` (a rank-1
// tensor has no row dim: rowDim == -1). `fixed` gives the shard index of every other dimension.
void drawGrid(const sharding::ShardingLayout& layout,
              const std::map<std::vector<int64_t>, std::vector<const sharding::DeviceBlock*>>& byShard,
              int rowDim, int colDim, std::vector<int64_t> fixed) {
  std::vector<int64_t> local = layout.localShape();
  int64_t rows = rowDim < 0 ? 1 : layout.shardsPerDim()[rowDim];
  int64_t cols = colDim < 0 ? 1 : layout.shardsPerDim()[colDim];
  std::vector<std::vector<std::string>> cells(rows, std::vector<std::string>(cols));
  std::vector<std::string> rowLabels(rows), colLabels(cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      if (rowDim >= 0)
        fixed[rowDim] = r;
      if (colDim >= 0)
        fixed[colDim] = c;
      auto it = byShard.find(fixed);
      if (it == byShard.end())
        continue;
      std::string text;
      for (const sharding::DeviceBlock* b : it->second)
        text += (text.empty() ? "" : " ") + std::to_string(b->deviceId);
      cells[r][c] = text;
      const sharding::DeviceBlock& first = *it->second.front();
      if (rowDim >= 0)
        rowLabels[r] = rangeLabel(first.ranges[rowDim], local[rowDim]);
      if (colDim >= 0)
        colLabels[c] = rangeLabel(first.ranges[colDim], local[colDim]);
    }
  std::vector<size_t> width(cols, 0);
  for (int64_t c = 0; c < cols; ++c) {
    width[c] = colLabels[c].size();
    for (int64_t r = 0; r < rows; ++r)
      width[c] = std::max(width[c], cells[r][c].size());
    width[c] += 2;
  }
  size_t labelWidth = 0;
  for (const std::string& l : rowLabels)
    labelWidth = std::max(labelWidth, l.size());
  std::string indent(4 + labelWidth + 1, ' ');
  auto border = [&](const char* left, const char* mid, const char* right) {
    std::string line = indent + left;
    for (int64_t c = 0; c < cols; ++c)
      line += repeat("─", width[c]) + (c + 1 < cols ? mid : right);
    std::printf("%s\n", line.c_str());
  };
  if (colDim >= 0) {
    std::string header = indent + " ";
    for (int64_t c = 0; c < cols; ++c) {
      std::string l = colLabels[c];
      header += " " + l + std::string(width[c] - l.size() - 1, ' ') + " ";
    }
    std::printf("%s\n", header.c_str());
  }
  border("┌", "┬", "┐");
  for (int64_t r = 0; r < rows; ++r) {
    std::string line = "    " + rowLabels[r] + std::string(labelWidth - rowLabels[r].size(), ' ') + " │";
    for (int64_t c = 0; c < cols; ++c)
      line += " " + cells[r][c] + std::string(width[c] - cells[r][c].size() - 1, ' ') + "│";
    std::printf("%s\n", line.c_str());
    if (r + 1 < rows)
      border("├", "┼", "┤");
  }
  border("└", "┴", "┘");
}

void describeDims(const ir::TensorSharding& s, const sharding::ShardingLayout& layout) {
  std::vector<int64_t> local = layout.localShape();
  for (size_t d = 0; d < layout.globalShape().size(); ++d) {
    int64_t size = layout.globalShape()[d];
    int64_t shards = layout.shardsPerDim()[d];
    if (shards == 1) {
      std::printf("  dim %zu: %lld, not split\n", d, static_cast<long long>(size));
      continue;
    }
    std::string axes;
    ir::printAxisRefList(s.dims[d].axes, axes);
    std::printf("  dim %zu: %lld split %lld ways over %s -> %lld per device%s\n", d,
                static_cast<long long>(size), static_cast<long long>(shards), axes.c_str(),
                static_cast<long long>(local[d]),
                layout.isPadded(d) ? " (padded: not divisible)" : "");
  }
}

int drawValue(const LoadedProgram& program, const NamedValue& m) {
  const ir::Value& value = *m.value;
  ir::Type type = value.type();
  std::printf("%s : %s  in @%s\n", displayName(program, &value).c_str(), type.str().c_str(),
              std::string(ir::func::name(*m.function)).c_str());
  std::optional<ir::TensorSharding> valueSharding = sharding::heldSharding(value);
  const ir::TensorSharding* s = valueSharding ? &*valueSharding : nullptr;
  if (!type.isTensor() || !type.hasStaticShape()) {
    std::printf("  not a statically shaped tensor: nothing to lay out\n");
    return 0;
  }
  if (!s) {
    std::printf("  no sharding: every device holds the whole tensor (fully replicated)\n");
    return 0;
  }
  const ir::Mesh* mesh = ir::resolveMesh(*program.module, *s);
  std::printf("  Shardy         %s\n", sharding::shardyNotation(*s).c_str());
  std::printf("  PartitionSpec  %s\n", sharding::partitionSpecNotation(*s).c_str());
  std::printf("  typed          %s\n", sharding::jaxTypedNotation(*s, type).c_str());
  std::string error;
  auto layout = mesh ? sharding::ShardingLayout::create(*s, *mesh, type.shape(), &error)
                     : std::nullopt;
  if (!layout) {
    std::fprintf(stderr, "shardscope-cli: error: cannot lay out %s: %s\n",
                 displayName(program, &value).c_str(), mesh ? error.c_str() : "unknown mesh");
    return 1;
  }
  std::string meshText;
  ir::printMesh(*mesh, meshText);
  std::string localText;
  for (int64_t d : layout->localShape())
    localText += (localText.empty() ? "" : "x") + std::to_string(d);
  std::printf("  mesh           %s%s  (%lld devices)\n",
              s->inlineMesh ? "" : ("@" + s->meshName + " = ").c_str(), meshText.c_str(),
              static_cast<long long>(layout->numDevices()));
  int64_t copies = layout->numDevices() / std::max<int64_t>(1, layout->numShards());
  std::printf("  local shape    %s  (%lld distinct block%s, %lld cop%s each)\n",
              localText.empty() ? "scalar" : localText.c_str(),
              static_cast<long long>(layout->numShards()), layout->numShards() == 1 ? "" : "s",
              static_cast<long long>(copies), copies == 1 ? "y" : "ies");
  describeDims(*s, *layout);

  std::vector<sharding::DeviceBlock> blocks = layout->blocks();
  std::map<std::vector<int64_t>, std::vector<const sharding::DeviceBlock*>> byShard;
  for (const sharding::DeviceBlock& b : blocks)
    byShard[b.shardIndex].push_back(&b);
  int rank = static_cast<int>(type.rank());
  std::printf("\n  blocks (cells list the devices holding each block):\n");
  if (rank <= 2) {
    drawGrid(*layout, byShard, rank == 2 ? 0 : -1, rank >= 1 ? rank - 1 : -1,
             std::vector<int64_t>(rank, 0));
    return 0;
  }
  // Rank > 2: one grid of the last two dimensions per block of the leading dimensions.
  std::vector<int64_t> lead(rank - 2, 0);
  const auto& shards = layout->shardsPerDim();
  while (true) {
    std::vector<int64_t> fixed = lead;
    fixed.resize(rank, 0);
    std::string title;
    const sharding::DeviceBlock& any = *byShard.at(fixed).front();
    for (int d = 0; d < rank - 2; ++d)
      title += (title.empty() ? "" : ", ") + std::string("dim ") + std::to_string(d) + " = " +
               std::to_string(any.ranges[d].begin) + ":" + std::to_string(any.ranges[d].end);
    std::printf("\n  slice where %s\n", title.c_str());
    drawGrid(*layout, byShard, rank - 2, rank - 1, fixed);
    int d = rank - 3;
    while (d >= 0 && ++lead[d] == shards[d])
      lead[d--] = 0;
    if (d < 0)
      break;
  }
  return 0;
}

} // namespace

int runInspect(const std::vector<std::string>& args) {
  InspectOptions options;
  if (!parseInspectArgs(args, options)) {
    std::fprintf(stderr, "shardscope-cli: error: usage: shardscope-cli inspect FILE --value NAME "
                         "[--function NAME] [--max-devices N]\n");
    return 1;
  }
  std::unique_ptr<LoadedProgram> program = loadProgram(options.file);
  if (!program)
    return 1;
  {
    // The block map lists every device of the value's mesh.
    StderrSink sink(program->sources);
    if (!checkMeshDevices(*program->module, options.limits.maxDevices, sink))
      return 1;
  }
  std::vector<NamedValue> matches = findValuesByName(*program, options.value, options.function);
  if (matches.empty()) {
    std::fprintf(stderr, "shardscope-cli: error: no value named '%s'%s%s (values print as %%argN, %%N, "
                         "%%cst...; see 'shardscope-cli check')\n",
                 options.value.c_str(), options.function.empty() ? "" : " in function ",
                 options.function.c_str());
    return 1;
  }
  if (matches.size() > 1) {
    std::fprintf(stderr, "shardscope-cli: error: '%s' names %zu values; pick one with --function:\n",
                 options.value.c_str(), matches.size());
    for (const NamedValue& m : matches)
      std::fprintf(stderr, "  @%s\n", std::string(ir::func::name(*m.function)).c_str());
    return 1;
  }
  return drawValue(*program, matches.front());
}

} // namespace shardscope::cli
