#include "core/backends/local/local_communicator.h"

#include "core/backends/local/detail/tensor_blocks.h"

#include <algorithm>
#include <numeric>

namespace shardscope::backends::local {

using exec::CommResult;
using exec::Tensor;
using Outputs = std::vector<std::vector<Tensor>>;

/// One collective in flight: the inputs deposited so far, then everyone's outputs.
struct LocalCommunicator::Rendezvous {
  std::vector<int64_t> group;
  std::string primitive; // "allReduce", "collectivePermute[0>1,1>0]", ...
  std::string opName, where;
  std::vector<std::vector<Tensor>> inputs;
  std::vector<bool> arrived;
  size_t count = 0;
  bool complete = false;
  std::string error;
  Outputs outputs;
};

namespace {

std::string deviceList(std::vector<int64_t> ids) {
  std::sort(ids.begin(), ids.end());
  std::string s = ids.size() == 1 ? "device " : "devices ";
  for (size_t i = 0; i < ids.size();) {
    size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1)
      ++j;
    s += (i ? "," : "") + std::to_string(ids[i]);
    if (j >= i + 2)
      s += "-" + std::to_string(ids[j]);
    else if (j == i + 1)
      s += "," + std::to_string(ids[j]);
    i = j + 1;
  }
  return s;
}

std::string groupStr(const std::vector<int64_t>& ids) {
  std::string s = "[";
  for (size_t i = 0; i < ids.size(); ++i)
    s += (i ? ", " : "") + std::to_string(ids[i]);
  return s + "]";
}

std::string opStr(const std::string& name, const std::string& where) {
  return "'" + name + "'" + (where.empty() ? "" : " at " + where);
}

std::vector<int64_t> arrivedDevices(const LocalCommunicator::Rendezvous& r) {
  std::vector<int64_t> ids;
  for (size_t i = 0; i < r.group.size(); ++i)
    if (r.arrived[i])
      ids.push_back(r.group[i]);
  return ids;
}

// Group positions in ascending device order: the reduction order every backend follows.
std::vector<size_t> ascendingPositions(const std::vector<int64_t>& group) {
  std::vector<size_t> order(group.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return group[a] < group[b]; });
  return order;
}

std::optional<std::string> sameTypes(const std::vector<std::vector<Tensor>>& inputs) {
  for (size_t i = 1; i < inputs.size(); ++i) {
    if (inputs[i].size() != inputs[0].size())
      return "members pass different operand counts";
    for (size_t k = 0; k < inputs[i].size(); ++k)
      if (inputs[i][k].type() != inputs[0][k].type())
        return "members pass different operand types: " + inputs[0][k].type().str() + " and " +
               inputs[i][k].type().str();
  }
  return std::nullopt;
}

CommResult<std::vector<Tensor>> reduceAll(const std::vector<int64_t>& group,
                                          const std::vector<std::vector<Tensor>>& inputs,
                                          const exec::Reduction& reduction) {
  if (auto bad = sameTypes(inputs))
    return CommResult<std::vector<Tensor>>::failure(*bad);
  std::vector<size_t> order = ascendingPositions(group);
  std::vector<Tensor> acc = inputs[order[0]];
  for (size_t i = 1; i < order.size(); ++i) {
    std::optional<std::vector<Tensor>> next = reduction.combine(acc, inputs[order[i]]);
    if (!next)
      return CommResult<std::vector<Tensor>>::failure("the reduction failed");
    acc = std::move(*next);
  }
  return acc;
}

// The builtin-kind all-reduce without allocating: the lowest device's buffer accumulates the
// others in ascending device order, then the result is copied into every other member's input
// buffer, which becomes that member's output.
CommResult<Outputs> reduceInPlace(const std::vector<int64_t>& group,
                                  std::vector<std::vector<Tensor>>& inputs,
                                  exec::Reduction::Kind kind) {
  if (auto bad = sameTypes(inputs))
    return CommResult<Outputs>::failure(*bad);
  std::vector<size_t> order = ascendingPositions(group);
  std::vector<Tensor>& acc = inputs[order[0]];
  for (size_t i = 1; i < order.size(); ++i)
    for (size_t k = 0; k < acc.size(); ++k)
      exec::reduceInto(kind, acc[k], inputs[order[i]][k]);
  Outputs out(inputs.size());
  for (size_t p = 0; p < inputs.size(); ++p) {
    if (p == order[0])
      continue;
    for (size_t k = 0; k < acc.size(); ++k) {
      std::span<const uint8_t> from = acc[k].bytes();
      std::copy(from.begin(), from.end(), inputs[p][k].bytes().begin());
    }
    out[p] = std::move(inputs[p]);
  }
  out[order[0]] = std::move(acc);
  return out;
}

std::vector<const Tensor*> firsts(const std::vector<std::vector<Tensor>>& inputs) {
  std::vector<const Tensor*> out;
  for (const auto& in : inputs)
    out.push_back(&in[0]);
  return out;
}

} // namespace

LocalCommunicator::LocalCommunicator(int64_t numDevices, LocalOptions options)
    : m_numDevices(numDevices), m_options(options),
      m_states(static_cast<size_t>(numDevices), State::Running),
      m_waitingIn(static_cast<size_t>(numDevices)) {}

LocalCommunicator::~LocalCommunicator() = default;

void LocalCommunicator::reset() {
  std::lock_guard lock(m_mutex);
  std::fill(m_states.begin(), m_states.end(), State::Running);
  m_open.clear();
}

void LocalCommunicator::failRendezvousLocked(Rendezvous& r, const std::string& message) {
  if (r.complete)
    return;
  r.complete = true;
  r.error = message;
  for (size_t i = 0; i < r.group.size(); ++i)
    if (r.arrived[i] && m_states[r.group[i]] == State::Waiting)
      m_states[r.group[i]] = State::Running;
  auto it = m_open.find(r.group);
  if (it != m_open.end() && it->second.get() == &r)
    m_open.erase(it);
  m_cv.notify_all();
}

void LocalCommunicator::failStalledLocked() {
  // A stall: no device is running (so none can still arrive) but some wait. Every open
  // rendezvous then fails with one message describing all of them.
  if (m_open.empty() ||
      std::any_of(m_states.begin(), m_states.end(), [](State s) { return s == State::Running; }))
    return;
  std::string message = "deadlock: ";
  bool firstClause = true;
  std::vector<int64_t> done;
  for (int64_t d = 0; d < m_numDevices; ++d)
    if (m_states[d] == State::Finished || m_states[d] == State::Failed)
      done.push_back(d);
  for (const auto& [group, r] : m_open) {
    message += (firstClause ? "" : "; ") + deviceList(arrivedDevices(*r)) + " wait in " +
               opStr(r->opName, r->where) + " (group " + groupStr(group) + ")";
    firstClause = false;
  }
  if (!done.empty())
    message += "; " + deviceList(done) + " finished";
  std::vector<std::shared_ptr<Rendezvous>> open;
  for (auto& entry : m_open)
    open.push_back(entry.second);
  for (auto& r : open)
    failRendezvousLocked(*r, message);
}

std::optional<std::string> LocalCommunicator::validateCall(const exec::CollectiveCall& call) const {
  const std::vector<int64_t>& group = call.group;
  if (call.device < 0 || call.device >= m_numDevices ||
      std::find(group.begin(), group.end(), call.device) == group.end())
    return "device " + std::to_string(call.device) + " is not in group " + groupStr(group);
  for (size_t i = 0; i < group.size(); ++i)
    if (group[i] < 0 || group[i] >= m_numDevices ||
        std::find(group.begin() + i + 1, group.end(), group[i]) != group.end())
      return "invalid group " + groupStr(group) + " for " + std::to_string(m_numDevices) +
             " devices";
  return std::nullopt;
}

std::optional<std::string> LocalCommunicator::failIfMemberDoneLocked(const exec::CollectiveCall& call) {
  for (int64_t e : call.group) {
    if (e == call.device || (m_states[e] != State::Finished && m_states[e] != State::Failed))
      continue;
    auto open = m_open.find(call.group);
    std::vector<int64_t> waiting = {call.device};
    if (open != m_open.end()) {
      waiting = arrivedDevices(*open->second);
      waiting.push_back(call.device);
    }
    std::string message = deviceList({e}) +
                          (m_states[e] == State::Finished ? " finished" : " failed") + " while " +
                          deviceList(waiting) + " wait in " + opStr(call.id.opName, call.id.where);
    if (open != m_open.end())
      failRendezvousLocked(*open->second, message);
    return message;
  }
  return std::nullopt;
}

void LocalCommunicator::completeLocked(std::unique_lock<std::mutex>& lock, Rendezvous& r,
                                       const Compute& compute) {
  // The last member computes for everyone, outside the lock so that other groups proceed; the
  // rendezvous left `m_open`, so nobody else touches its inputs meanwhile.
  m_open.erase(r.group);
  lock.unlock();
  CommResult<Outputs> outputs = compute(r.inputs);
  lock.lock();
  r.complete = true;
  if (outputs)
    r.outputs = std::move(*outputs);
  else
    r.error = outputs.error() + " in " + opStr(r.opName, r.where);
  for (int64_t e : r.group)
    if (m_states[e] == State::Waiting)
      m_states[e] = State::Running;
  m_cv.notify_all();
}

void LocalCommunicator::waitLocked(std::unique_lock<std::mutex>& lock,
                                   const std::shared_ptr<Rendezvous>& r, int64_t device) {
  m_states[device] = State::Waiting;
  m_waitingIn[device] = r;
  failStalledLocked();
  auto ready = [&] { return r->complete; };
  if (m_options.timeout.count() == 0) {
    m_cv.wait(lock, ready);
  } else if (!m_cv.wait_for(lock, m_options.timeout, ready)) {
    std::vector<int64_t> missing;
    for (size_t i = 0; i < r->group.size(); ++i)
      if (!r->arrived[i])
        missing.push_back(r->group[i]);
    failRendezvousLocked(*r, "timed out after " + std::to_string(m_options.timeout.count()) +
                                 " ms: " + deviceList(arrivedDevices(*r)) + " wait in " +
                                 opStr(r->opName, r->where) + " for " + deviceList(missing));
  }
  m_waitingIn[device].reset();
  if (m_states[device] == State::Waiting)
    m_states[device] = State::Running;
}

CommResult<std::vector<Tensor>> LocalCommunicator::exchange(const exec::CollectiveCall& call,
                                                            std::string primitive,
                                                            std::vector<Tensor> inputs,
                                                            const Compute& compute) {
  using Result = CommResult<std::vector<Tensor>>;
  if (std::optional<std::string> bad = validateCall(call))
    return Result::failure(*bad);
  const std::vector<int64_t>& group = call.group;
  size_t index = static_cast<size_t>(std::find(group.begin(), group.end(), call.device) -
                                     group.begin());
  std::unique_lock lock(m_mutex);
  if (std::optional<std::string> done = failIfMemberDoneLocked(call))
    return Result::failure(*done);
  std::shared_ptr<Rendezvous>& slot = m_open[group];
  if (!slot) {
    slot = std::make_shared<Rendezvous>();
    slot->group = group;
    slot->primitive = primitive;
    slot->opName = call.id.opName;
    slot->where = call.id.where;
    slot->inputs.resize(group.size());
    slot->arrived.assign(group.size(), false);
  }
  std::shared_ptr<Rendezvous> r = slot;
  if (r->primitive != primitive || r->opName != call.id.opName || r->arrived[index]) {
    std::string message = deviceList(arrivedDevices(*r)) + " reached " +
                          opStr(r->opName, r->where) + " but " + deviceList({call.device}) +
                          " reached " + opStr(call.id.opName, call.id.where) + " (group " +
                          groupStr(group) + ")";
    if (r->opName == call.id.opName && !r->arrived[index])
      message += ": different " + r->primitive + " and " + primitive;
    failRendezvousLocked(*r, message);
    return Result::failure(message);
  }
  r->inputs[index] = std::move(inputs);
  r->arrived[index] = true;
  if (++r->count == group.size())
    completeLocked(lock, *r, compute);
  else
    waitLocked(lock, r, call.device);
  if (!r->error.empty())
    return Result::failure(r->error);
  // Each member owns its output slot; the rendezvous is dropped once all have taken theirs.
  return std::move(r->outputs[index]);
}

void LocalCommunicator::deviceDone(int64_t device, bool failed) {
  std::lock_guard lock(m_mutex);
  if (device < 0 || device >= m_numDevices)
    return;
  m_states[device] = failed ? State::Failed : State::Finished;
  std::vector<std::shared_ptr<Rendezvous>> affected;
  for (auto& [group, r] : m_open)
    if (std::find(group.begin(), group.end(), device) != group.end())
      affected.push_back(r);
  for (auto& r : affected)
    failRendezvousLocked(*r, deviceList({device}) + (failed ? " failed" : " finished") +
                                 " while " + deviceList(arrivedDevices(*r)) + " wait in " +
                                 opStr(r->opName, r->where));
  failStalledLocked();
}

CommResult<std::vector<Tensor>> LocalCommunicator::allReduce(const exec::CollectiveCall& call,
                                                             std::vector<Tensor> inputs,
                                                             const exec::Reduction& reduction) {
  const std::vector<int64_t>& group = call.group;
  return exchange(call, "allReduce", std::move(inputs),
                  [&](std::vector<std::vector<Tensor>>& in) -> CommResult<Outputs> {
                    if (reduction.kind != exec::Reduction::Kind::Custom)
                      return reduceInPlace(group, in, reduction.kind);
                    auto reduced = reduceAll(group, in, reduction);
                    if (!reduced)
                      return CommResult<Outputs>::failure(reduced.error());
                    return Outputs(in.size(), *reduced);
                  });
}

namespace {

// Unwraps the single tensor of a one-tensor exchange.
CommResult<Tensor> single(CommResult<std::vector<Tensor>> r) {
  if (!r)
    return CommResult<Tensor>::failure(r.error());
  return std::move(r.value()[0]);
}

bool sameExceptDim(const Tensor& a, const Tensor& b, int64_t dim) {
  if (a.elementType() != b.elementType() || a.rank() != b.rank())
    return false;
  for (int64_t d = 0; d < a.rank(); ++d)
    if (d != dim && a.shape()[d] != b.shape()[d])
      return false;
  return true;
}

} // namespace

CommResult<Tensor> LocalCommunicator::allGather(const exec::CollectiveCall& call, Tensor input,
                                                int64_t dim) {
  std::string primitive = "allGather(dim " + std::to_string(dim) + ")";
  return single(exchange(call, primitive, {std::move(input)},
                         [&](std::vector<std::vector<Tensor>>& in) -> CommResult<Outputs> {
                           for (const auto& v : in)
                             if (dim >= v[0].rank() || !sameExceptDim(v[0], in[0][0], dim))
                               return CommResult<Outputs>::failure(
                                   "members pass incompatible tensors " + in[0][0].type().str() +
                                   " and " + v[0].type().str());
                           Tensor all = detail::concatTensors(firsts(in), dim);
                           return Outputs(in.size(), std::vector<Tensor>{all});
                         }));
}

CommResult<Tensor> LocalCommunicator::reduceScatter(const exec::CollectiveCall& call, Tensor input,
                                                    int64_t dim, const exec::Reduction& reduction) {
  const std::vector<int64_t>& group = call.group;
  std::string primitive = "reduceScatter(dim " + std::to_string(dim) + ")";
  return single(exchange(
      call, primitive, {std::move(input)},
      [&](std::vector<std::vector<Tensor>>& in) -> CommResult<Outputs> {
        auto reduced = reduceAll(group, in, reduction);
        if (!reduced)
          return CommResult<Outputs>::failure(reduced.error());
        const Tensor& t = (*reduced)[0];
        int64_t n = static_cast<int64_t>(in.size());
        if (dim >= t.rank() || t.shape()[dim] % n != 0)
          return CommResult<Outputs>::failure("dimension " + std::to_string(dim) + " of " +
                                              t.type().str() + " does not split into " +
                                              std::to_string(n) + " parts");
        Outputs out;
        for (Tensor& part : detail::splitTensor(t, dim, n))
          out.push_back({std::move(part)});
        return out;
      }));
}

CommResult<Tensor> LocalCommunicator::allToAll(const exec::CollectiveCall& call, Tensor input,
                                               int64_t splitDim, int64_t concatDim) {
  std::string primitive =
      "allToAll(split " + std::to_string(splitDim) + ", concat " + std::to_string(concatDim) + ")";
  return single(exchange(
      call, primitive, {std::move(input)},
      [&](std::vector<std::vector<Tensor>>& in) -> CommResult<Outputs> {
        if (auto bad = sameTypes(in))
          return CommResult<Outputs>::failure(*bad);
        int64_t n = static_cast<int64_t>(in.size());
        const Tensor& t0 = in[0][0];
        if (splitDim >= t0.rank() || concatDim >= t0.rank() || t0.shape()[splitDim] % n != 0)
          return CommResult<Outputs>::failure("cannot split " + t0.type().str() +
                                              " into " + std::to_string(n) + " parts");
        std::vector<std::vector<Tensor>> parts; // parts[sender][receiver]
        for (const auto& v : in)
          parts.push_back(detail::splitTensor(v[0], splitDim, n));
        Outputs out;
        for (int64_t j = 0; j < n; ++j) {
          std::vector<const Tensor*> received;
          for (int64_t i = 0; i < n; ++i)
            received.push_back(&parts[i][j]);
          out.push_back({detail::concatTensors(received, concatDim)});
        }
        return out;
      }));
}

CommResult<Tensor>
LocalCommunicator::collectivePermute(const exec::CollectiveCall& call, Tensor input,
                                     const std::vector<std::pair<int64_t, int64_t>>& pairs) {
  // The pairs are part of the key: members that disagree on them are a mismatch.
  std::string primitive = "collectivePermute[";
  for (const auto& [s, t] : pairs)
    primitive += std::to_string(s) + ">" + std::to_string(t) + ",";
  primitive += "]";
  const std::vector<int64_t>& group = call.group;
  return single(exchange(
      call, primitive, {std::move(input)},
      [&](std::vector<std::vector<Tensor>>& in) -> CommResult<Outputs> {
        if (auto bad = sameTypes(in))
          return CommResult<Outputs>::failure(*bad);
        Outputs out(in.size());
        std::vector<bool> targeted(in.size(), false);
        for (const auto& [source, target] : pairs) {
          auto s = std::find(group.begin(), group.end(), source);
          auto t = std::find(group.begin(), group.end(), target);
          if (s == group.end() || t == group.end())
            return CommResult<Outputs>::failure("pair (" + std::to_string(source) + ", " +
                                                std::to_string(target) + ") leaves group " +
                                                groupStr(group));
          size_t ti = static_cast<size_t>(t - group.begin());
          if (targeted[ti])
            return CommResult<Outputs>::failure("device " + std::to_string(target) +
                                                " is the target of more than one pair");
          targeted[ti] = true;
          out[ti] = {in[static_cast<size_t>(s - group.begin())][0]};
        }
        for (size_t i = 0; i < in.size(); ++i)
          if (!targeted[i]) // the spec: processes that receive nothing produce zeros
            out[i] = {Tensor(in[i][0].elementType(), in[i][0].shape())};
        return out;
      }));
}

CommResult<Tensor> LocalCommunicator::collectiveBroadcast(const exec::CollectiveCall& call,
                                                          Tensor input) {
  return single(exchange(call, "collectiveBroadcast", {std::move(input)},
                         [&](std::vector<std::vector<Tensor>>& in) -> CommResult<Outputs> {
                           if (auto bad = sameTypes(in))
                             return CommResult<Outputs>::failure(*bad);
                           return Outputs(in.size(), in[0]);
                         }));
}

exec::CommunicatorFactory localCommunicatorFactory(LocalOptions options) {
  return [options](int64_t numDevices) -> std::unique_ptr<exec::Communicator> {
    return std::make_unique<LocalCommunicator>(numDevices, options);
  };
}

void registerLocalBackend(exec::BackendRegistry& registry) {
  registry.add("local", "simulated devices: one thread each, shared memory, in this process",
               localCommunicatorFactory());
}

} // namespace shardscope::backends::local
