#include "core/partition/explicit_reshards_factor_axes.h"

#include "core/sharding/axis_refs.h"

#include <algorithm>
#include <optional>
#include <set>
#include <tuple>

namespace shardscope::partition {
namespace {

using ir::AxisRef;
using sharding::MeshView;

bool inList(const std::vector<int64_t>& list, int64_t factor) {
  return std::count(list.begin(), list.end(), factor) != 0;
}

// Returns true when `prefix` is a strict prefix of `axes`, axis by axis (Shardy does not extend a
// picked sub-axis to the full axis it is a prefix of).
bool isStrictPrefix(const FactorAxes& prefix, const FactorAxes& axes) {
  return prefix.size() < axes.size() && std::equal(prefix.begin(), prefix.end(), axes.begin());
}

// The part of `axis` major to every axis of `others` it overlaps, or nothing.
std::optional<AxisRef> prefixWithoutOverlap(const AxisRef& axis, const FactorAxes& others) {
  std::optional<AxisRef> result = axis;
  for (const AxisRef& other : others) {
    if (!result)
      break;
    result = sharding::axisPrefixWithoutOverlap(*result, other);
  }
  return result;
}

// Truncates `axes` at the first axis overlapping `others`, keeping the non-overlapping major part
// of that axis. Returns true when it changed `axes`.
bool truncateWithoutOverlap(FactorAxes& axes, const FactorAxes& others) {
  for (size_t i = 0; i < axes.size(); ++i) {
    std::optional<AxisRef> prefix = prefixWithoutOverlap(axes[i], others);
    if (prefix && *prefix == axes[i])
      continue;
    axes.resize(i);
    if (prefix)
      axes.push_back(*prefix);
    return true;
  }
  return false;
}

struct Candidate {
  int64_t factor = -1;
  FactorAxes axes;
  int64_t totalSource = 0;
  int64_t largestLocal = 0;
  int64_t shardingSize = 0;
  int64_t precedence = 3; // pass-through 3, reduction 2, permutation 1
  auto key() const {
    return std::make_tuple(totalSource, precedence, largestLocal, shardingSize, factor);
  }
};

bool axisLess(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name)
    return a.name < b.name;
  auto sub = [](const AxisRef& r) {
    return r.subAxis ? std::make_pair(r.subAxis->preSize, r.subAxis->size)
                     : std::make_pair(int64_t{0}, int64_t{0});
  };
  return sub(a) < sub(b);
}

// Candidate ordering: Shardy takes the greatest (source size, factor type, local size, sharding
// size, factor, axes) tuple: ties beyond the sizes go to the higher factor index, then the longer
// axes, then the axes with the greater names.
bool better(const Candidate& a, const Candidate& b) {
  if (a.key() != b.key())
    return a.key() > b.key();
  if (a.axes.size() != b.axes.size())
    return a.axes.size() > b.axes.size();
  for (size_t i = 0; i < a.axes.size(); ++i)
    if (!(a.axes[i] == b.axes[i]))
      return axisLess(b.axes[i], a.axes[i]);
  return false;
}

// The factors each factor waits for: a factor may only be sharded once the factor just major to
// it in every dimension is fully sharded (anything else would need a strided view).
std::vector<std::set<int64_t>> factorDependencies(const ir::OpShardingRule& rule) {
  std::vector<std::set<int64_t>> deps(rule.factorSizes.size());
  for (const auto* list : {&rule.operands, &rule.results})
    for (const ir::TensorMapping& mapping : *list)
      for (const std::vector<int64_t>& factors : mapping.dims)
        for (size_t i = 1; i < factors.size(); ++i)
          deps[static_cast<size_t>(factors[i])].insert(factors[i - 1]);
  return deps;
}

std::vector<Candidate> initialCandidates(const std::vector<TensorFactorAxes>& tensors,
                                         const std::vector<int64_t>& tensorSizes,
                                         const ir::OpShardingRule& rule, const MeshView& mesh) {
  std::vector<Candidate> cands;
  for (size_t t = 0; t < tensors.size(); ++t)
    for (const auto& entry : tensors[t]) {
      // Named copies, not structured bindings: clang 14 cannot capture those in the lambda below.
      const int64_t factor = entry.first;
      const FactorAxes& axes = entry.second;
      for (size_t n = axes.size(); n > 0; --n) {
        FactorAxes prefix(axes.begin(), axes.begin() + static_cast<std::ptrdiff_t>(n));
        auto it = std::find_if(cands.begin(), cands.end(), [&](const Candidate& c) {
          return c.factor == factor && c.axes == prefix;
        });
        if (it != cands.end()) {
          it->totalSource += tensorSizes[t];
          it->largestLocal = std::max(it->largestLocal, tensorSizes[t]);
          continue;
        }
        int64_t precedence = inList(rule.needReplicationFactors, factor) ? 0
                             : inList(rule.reductionFactors, factor)     ? 2
                             : inList(rule.permutationFactors, factor)   ? 1
                                                                         : 3;
        cands.push_back({factor, prefix, tensorSizes[t], tensorSizes[t],
                         factorAxesSize(mesh, prefix), precedence});
      }
    }
  return cands;
}

// Drops or trims the candidates after `best` was assigned, as Shardy's candidate bag does.
std::vector<Candidate> updateCandidates(std::vector<Candidate> cands, const Candidate& best,
                                        const std::vector<FactorAxes>& assigned,
                                        const MeshView& mesh) {
  std::vector<Candidate> kept;
  for (Candidate& c : cands) {
    if (c.factor == best.factor) {
      if (isStrictPrefix(best.axes, c.axes)) {
        c.shardingSize = factorAxesSize(mesh, c.axes) / factorAxesSize(mesh, best.axes);
        kept.push_back(c);
      }
      continue;
    }
    if (truncateWithoutOverlap(c.axes, best.axes)) {
      const FactorAxes& current = assigned[static_cast<size_t>(c.factor)];
      if (c.axes == current)
        continue;
      c.shardingSize = factorAxesSize(mesh, c.axes) / factorAxesSize(mesh, current);
      kept.push_back(c);
      continue;
    }
    c.shardingSize = factorAxesSize(mesh, c.axes);
    kept.push_back(c);
  }
  return kept;
}

std::vector<FactorAxes> commonAxesHeuristic(const std::vector<TensorFactorAxes>& tensors,
                                            const std::vector<int64_t>& tensorSizes,
                                            const ir::OpShardingRule& rule, const MeshView& mesh) {
  std::vector<Candidate> cands = initialCandidates(tensors, tensorSizes, rule, mesh);
  std::vector<std::set<int64_t>> deps = factorDependencies(rule);
  std::vector<FactorAxes> assigned(rule.factorSizes.size());
  while (true) {
    std::optional<size_t> bestIndex;
    for (size_t i = 0; i < cands.size(); ++i)
      if (deps[static_cast<size_t>(cands[i].factor)].empty() &&
          (!bestIndex || better(cands[i], cands[*bestIndex])))
        bestIndex = i;
    if (!bestIndex)
      break;
    Candidate best = cands[*bestIndex];
    assigned[static_cast<size_t>(best.factor)] = best.axes;
    if (factorAxesSize(mesh, best.axes) == rule.factorSizes[static_cast<size_t>(best.factor)])
      for (std::set<int64_t>& d : deps)
        d.erase(best.factor);
    cands = updateCandidates(std::move(cands), best, assigned, mesh);
    for (Candidate& c : cands)
      c.largestLocal = 0;
    for (size_t t = 0; t < tensors.size(); ++t) {
      int64_t local = tensorSizes[t];
      for (const auto& [factor, _] : tensors[t])
        local /= factorAxesSize(mesh, assigned[static_cast<size_t>(factor)]);
      for (Candidate& c : cands)
        if (tensors[t].count(c.factor))
          c.largestLocal = std::max(c.largestLocal, local);
    }
  }
  return assigned;
}

// Shardy moves the axes picked for each need-replication factor (when the factor is in every
// non-scalar tensor) onto the batching factors that have room for them.
void distributeNeedReplicationAxes(const std::vector<TensorFactorAxes>& tensors,
                                   const ir::OpShardingRule& rule, const MeshView& mesh,
                                   std::vector<FactorAxes>& assigned) {
  auto inAllNonScalar = [&](int64_t factor) {
    for (const TensorFactorAxes& t : tensors)
      if (!t.empty() && !t.count(factor))
        return false;
    return true;
  };
  std::vector<int64_t> batching;
  for (int64_t f = 0; f < static_cast<int64_t>(rule.factorSizes.size()); ++f)
    if (!inList(rule.reductionFactors, f) && !inList(rule.needReplicationFactors, f) &&
        !inList(rule.permutationFactors, f) && inAllNonScalar(f))
      batching.push_back(f);
  for (int64_t factor : rule.needReplicationFactors) {
    if (!inAllNonScalar(factor)) {
      assigned[static_cast<size_t>(factor)].clear();
      continue;
    }
    // The axes the heuristic picked for the factor can't stay on it: they move to batching
    // factors with room for them.
    std::optional<FactorAxes> prefix = std::move(assigned[static_cast<size_t>(factor)]);
    assigned[static_cast<size_t>(factor)].clear();
    if (!prefix || prefix->empty())
      continue;
    size_t next = 0;
    for (int64_t f : batching) {
      const int64_t factorSize = rule.factorSizes[static_cast<size_t>(f)];
      if (factorSize == 0)
        continue;
      FactorAxes& axes = assigned[static_cast<size_t>(f)];
      const int64_t shardingSize = factorAxesSize(mesh, axes);
      if (factorSize % shardingSize != 0)
        continue;
      int64_t capacity = factorSize / shardingSize;
      while (next < prefix->size()) {
        const int64_t size = mesh.sizeOf((*prefix)[next]);
        if (size <= 0 || capacity % size != 0)
          break;
        sharding::appendAxisOrMerge(axes, (*prefix)[next], mesh);
        capacity /= size;
        ++next;
      }
      if (next == prefix->size())
        break;
    }
  }
}

bool shardedPermutation(const TensorFactorAxes& tensor, const ir::OpShardingRule& rule) {
  return std::any_of(tensor.begin(), tensor.end(), [&](const auto& f) {
    return !f.second.empty() && inList(rule.permutationFactors, f.first);
  });
}

std::vector<FactorAxes> commonAxesUnary(const std::vector<TensorFactorAxes>& tensors,
                                        const std::vector<int64_t>& tensorSizes,
                                        const std::vector<size_t>& nonScalar,
                                        const ir::OpShardingRule& rule, const MeshView& mesh) {
  auto pref = [&](size_t t) {
    int64_t shardingSize = 1;
    for (const auto& [factor, axes] : tensors[t])
      shardingSize *= factorAxesSize(mesh, axes);
    return std::make_tuple(!shardedPermutation(tensors[t], rule), tensorSizes[t], shardingSize);
  };
  size_t preferred = nonScalar[0], other = nonScalar[1];
  if (!(pref(preferred) >= pref(other)))
    std::swap(preferred, other);
  std::vector<FactorAxes> assigned(rule.factorSizes.size());
  FactorAxes used;
  for (const auto& [factor, axes] : tensors[preferred]) {
    assigned[static_cast<size_t>(factor)] = axes;
    used.insert(used.end(), axes.begin(), axes.end());
  }
  for (const auto& [factor, axes] : tensors[other]) {
    if (tensors[preferred].count(factor))
      continue;
    FactorAxes truncated = axes;
    truncateWithoutOverlap(truncated, used);
    assigned[static_cast<size_t>(factor)] = truncated;
  }
  return assigned;
}

bool hasMultiFactorDims(const ir::OpShardingRule& rule) {
  for (const auto* list : {&rule.operands, &rule.results})
    for (const ir::TensorMapping& mapping : *list)
      for (const std::vector<int64_t>& factors : mapping.dims)
        if (factors.size() > 1)
          return true;
  return false;
}

} // namespace

int64_t factorAxesSize(const MeshView& mesh, const FactorAxes& axes) {
  int64_t size = 1;
  for (const AxisRef& a : axes)
    size *= mesh.sizeOf(a);
  return size;
}

std::vector<FactorAxes> findCommonFactorAxes(const std::vector<TensorFactorAxes>& tensors,
                                             const std::vector<int64_t>& tensorSizes,
                                             const ir::OpShardingRule& rule, const MeshView& mesh) {
  std::vector<size_t> nonScalar;
  for (size_t t = 0; t < tensors.size(); ++t)
    if (!tensors[t].empty())
      nonScalar.push_back(t);
  if (nonScalar.size() == 2 && rule.needReplicationFactors.empty() && !hasMultiFactorDims(rule))
    return commonAxesUnary(tensors, tensorSizes, nonScalar, rule, mesh);
  std::vector<FactorAxes> assigned = commonAxesHeuristic(tensors, tensorSizes, rule, mesh);
  distributeNeedReplicationAxes(tensors, rule, mesh, assigned);
  return assigned;
}

} // namespace shardscope::partition
