#include "core/propagation/origin.h"

#include "core/ir/module.h"
#include "core/sharding/axis_refs.h"
#include "core/sharding/notation.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace shardscope::propagation {

void PropagationTrace::addStep(PropagationStep step, const ir::TensorSharding* sourceSharding) {
  // A source nothing was propagated to yet is a seed: keep the annotation it started from.
  if (sourceSharding && !changed(step.source) && !m_seedShardings.count(step.source))
    m_seedShardings.emplace(step.source, *sourceSharding);
  auto& incoming = m_incoming[step.target];
  if (incoming.empty())
    m_changedOrder.push_back(step.target);
  incoming.push_back(m_steps.size());
  m_steps.push_back(std::move(step));
}

std::vector<TraceTensor> PropagationTrace::changedTensors() const { return m_changedOrder; }

const ir::TensorSharding* PropagationTrace::seedSharding(const TraceTensor& seed) const {
  auto it = m_seedShardings.find(seed);
  return it == m_seedShardings.end() ? nullptr : &it->second;
}

Origin PropagationTrace::originOf(const TraceTensor& tensor) const {
  // Walk the steps backwards: a step can only have been caused by steps that happened before it
  // and targeted its source.
  Origin origin;
  std::set<size_t> chain;
  std::unordered_set<TraceTensor, TraceTensorHash> seeds;
  std::vector<std::pair<TraceTensor, size_t>> pending{{tensor, m_steps.size()}};
  while (!pending.empty()) {
    auto [current, before] = pending.back();
    pending.pop_back();
    auto it = m_incoming.find(current);
    bool any = false;
    if (it != m_incoming.end()) {
      for (size_t index : it->second) {
        if (index >= before)
          continue;
        any = true;
        if (chain.insert(index).second)
          pending.push_back({m_steps[index].source, index});
      }
    }
    if (!any && !(current == tensor) && seeds.insert(current).second)
      origin.seeds.push_back(current);
  }
  for (size_t index : chain)
    origin.chain.push_back(m_steps[index]);
  return origin;
}

void PropagationTrace::clear() {
  m_steps.clear();
  m_incoming.clear();
  m_seedShardings.clear();
  m_changedOrder.clear();
}

std::string funcResultName(const TraceTensor& tensor) {
  return "@" + std::string(ir::func::name(*tensor.funcResultOf)) + " result #" +
         std::to_string(tensor.index);
}

std::string annotationText(const ir::TensorSharding* sharding) {
  return sharding ? sharding::shardyNotation(*sharding) : std::string("(annotation)");
}

std::string describeStep(const PropagationStep& step) {
  static const char* kDirections[] = {"forward", "backward", "sideways", "group"};
  std::string out = step.op ? std::string(step.op->name()) : std::string("<unknown>");
  out += ' ';
  out += kDirections[static_cast<int>(step.direction)];
  if (step.factor >= 0)
    out += " factor " + ir::factorSymbol(step.factor);
  out += ' ' + sharding::axisRefListString(step.axes);
  return out;
}

} // namespace shardscope::propagation
