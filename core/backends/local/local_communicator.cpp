#include "core/backends/local/local_communicator.h"

#include "core/backends/local/detail/tensor_blocks.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <numeric>
#include <thread>

namespace shardscope::backends::local {

using exec::CommResult;
using exec::Tensor;
using exec::deviceGroupText;
using exec::deviceListText;
using exec::differingOperandTypes;
using exec::opText;
using Outputs = LocalCommunicator::Buffers;
using Plan = LocalCommunicator::Plan;

/// One collective in flight: the inputs deposited so far, then the plan whose chunks the members
/// run, then everyone's outputs.
struct LocalCommunicator::Rendezvous {
  std::vector<int64_t> group;
  std::string primitive; // "allReduce", "collectivePermute[0>1,1>0]", ...
  std::string opName, where;
  Buffers inputs;
  std::vector<bool> arrived;
  size_t count = 0;
  bool ready = false;    // every member arrived and `plan` is set: chunks may run
  bool complete = false; // outputs (or `error`) final: members may return
  std::string error;
  Plan plan;
  std::atomic<size_t> nextChunk{0}; // the next chunk nobody has claimed yet
  std::atomic<size_t> chunksDone{0};
};

namespace {

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

CommResult<std::vector<Tensor>> reduceAll(const std::vector<int64_t>& group,
                                          const std::vector<std::vector<Tensor>>& inputs,
                                          const exec::Reduction& reduction) {
  if (auto bad = differingOperandTypes(inputs))
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

// The bytes of work of one chunk: large enough that claiming it (one atomic increment) costs
// nothing, small enough that a chunk's accumulator stays in L2 while the other members'
// contributions stream through, and that 8 threads on few cores balance well.
constexpr size_t kChunkBytes = size_t{64} << 10;
// Within a chunk, reductions run block by block so that the accumulator block stays in L1 while
// each contribution is added and while the result is copied out.
constexpr size_t kBlockBytes = size_t{8} << 10;

// Reduces elements [begin, end) of operand `operand` into the buffer of group position
// `order[0]` with the buffers of `order[1..]`, in that order, block by block (all contributions
// of a block in one fused pass, see `exec::reduceInto`) so that the accumulator block is still in
// L1 when `blockDone(b, e)` runs after each block is final.
template <typename F>
void reduceBlocks(exec::Reduction::Kind kind, const std::vector<size_t>& order, Outputs& buffers,
                  size_t operand, int64_t begin, int64_t end, F blockDone) {
  Tensor& acc = buffers[order[0]][operand];
  std::vector<const Tensor*> rhs;
  for (size_t i = 1; i < order.size(); ++i)
    rhs.push_back(&buffers[order[i]][operand]);
  int64_t step = static_cast<int64_t>(
      std::max<size_t>(1, kBlockBytes / Tensor::elementBytes(acc.elementType())));
  for (int64_t b = begin; b < end; b += step) {
    int64_t e = std::min(end, b + step);
    exec::reduceInto(kind, acc, rhs, b, e);
    blockDone(b, e);
  }
}

std::string splitError(const Tensor& t, int64_t dim, int64_t n) {
  return "dimension " + std::to_string(dim) + " of " + t.type().str() + " does not split into " +
         std::to_string(n) + " parts";
}

// The operand list of a one-tensor collective. (A braced list would copy the tensor: the
// elements of an initializer_list are const.)
std::vector<Tensor> one(Tensor t) {
  std::vector<Tensor> v;
  v.push_back(std::move(t));
  return v;
}

// A plan whose outputs are final already (no chunks to run).
Plan finished(Outputs outputs) {
  Plan plan;
  plan.outputs = std::move(outputs);
  return plan;
}

// The builtin-kind all-reduce without allocating: every member's input buffer becomes its
// output. Each chunk is one element range of one operand: the lowest device's buffer accumulates
// the others over that range in ascending device order, then the range is copied into every
// other member's buffer while it is still in cache. Per element this is exactly the sequential
// reduction, so the split into chunks and the threads that run them change no bit.
CommResult<Plan> planReduceInPlace(const std::vector<int64_t>& group, Outputs& inputs,
                                   exec::Reduction::Kind kind) {
  if (auto bad = differingOperandTypes(inputs))
    return CommResult<Plan>::failure(*bad);
  struct Piece {
    size_t operand;
    int64_t begin, end;
  };
  std::vector<Piece> pieces;
  for (size_t k = 0; k < inputs[0].size() && inputs.size() > 1; ++k) {
    const Tensor& t = inputs[0][k];
    int64_t step = static_cast<int64_t>(
        std::max<size_t>(1, kChunkBytes / Tensor::elementBytes(t.elementType())));
    for (int64_t begin = 0; begin < t.numElements(); begin += step)
      pieces.push_back({k, begin, std::min(t.numElements(), begin + step)});
  }
  // Chunks write every member's buffer from several threads: a buffer shared with another tensor
  // (a value the run keeps) is made private here, before they start.
  for (std::vector<Tensor>& member : inputs)
    for (Tensor& t : member)
      (void)t.bytes();
  Plan plan;
  plan.outputs = std::move(inputs);
  plan.numChunks = pieces.size();
  plan.runChunk = [kind, order = ascendingPositions(group),
                   pieces = std::move(pieces)](Outputs&, Outputs& out, size_t c) {
    const Piece& piece = pieces[c];
    Tensor& acc = out[order[0]][piece.operand];
    size_t width = Tensor::elementBytes(acc.elementType());
    reduceBlocks(kind, order, out, piece.operand, piece.begin, piece.end,
                 [&](int64_t begin, int64_t end) {
                   size_t offset = static_cast<size_t>(begin) * width;
                   size_t bytes = static_cast<size_t>(end - begin) * width;
                   for (size_t i = 1; i < order.size(); ++i)
                     std::memcpy(out[order[i]][piece.operand].bytes().data() + offset,
                                 acc.bytes().data() + offset, bytes);
                 });
  };
  return plan;
}

// The builtin-kind reduce-scatter: one chunk per member, which reduces exactly the elements of
// that member's part (in place in the lowest device's input, ascending device order) and copies
// them into the member's result.
CommResult<Plan> planReduceScatter(const std::vector<int64_t>& group, Outputs& inputs,
                                   int64_t dim, exec::Reduction::Kind kind) {
  if (auto bad = differingOperandTypes(inputs))
    return CommResult<Plan>::failure(*bad);
  const Tensor& t = inputs[0][0];
  int64_t n = static_cast<int64_t>(inputs.size());
  if (dim >= t.rank() || t.shape()[dim] % n != 0)
    return CommResult<Plan>::failure(splitError(t, dim, n));
  // Chunks accumulate into the lowest device's buffer from several threads: make it private first.
  (void)inputs[ascendingPositions(group)[0]][0].bytes();
  Plan plan;
  plan.outputs.resize(inputs.size());
  plan.numChunks = inputs.size();
  plan.runChunk = [kind, dim, order = ascendingPositions(group)](Outputs& in, Outputs& out,
                                                                 size_t p) {
    const Tensor& acc = in[order[0]][0];
    std::vector<int64_t> shape = acc.shape();
    int64_t full = shape[dim], len = full / static_cast<int64_t>(order.size());
    shape[dim] = len;
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d)
      outer *= shape[d];
    for (int64_t d = dim + 1; d < acc.rank(); ++d)
      inner *= shape[d];
    Tensor part = Tensor::uninitialized(acc.elementType(), shape); // every element is written
    size_t width = Tensor::elementBytes(acc.elementType());
    int64_t block = len * inner; // elements of the part in one outer index
    for (int64_t o = 0; o < outer; ++o) {
      int64_t first = o * full * inner + static_cast<int64_t>(p) * block;
      reduceBlocks(kind, order, in, 0, first, first + block, [&](int64_t begin, int64_t end) {
        std::memcpy(part.bytes().data() + static_cast<size_t>(o * block + begin - first) * width,
                    in[order[0]][0].bytes().data() + static_cast<size_t>(begin) * width,
                    static_cast<size_t>(end - begin) * width);
      });
    }
    out[p] = one(std::move(part));
  };
  return plan;
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
      m_cores(std::max(1u, std::thread::hardware_concurrency())),
      m_wake(static_cast<size_t>(numDevices)),
      m_states(static_cast<size_t>(numDevices), State::Running),
      m_waitingIn(static_cast<size_t>(numDevices)) {
  exec::retainFreedTensorMemory();
}

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
  wakeLocked(r);
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
    message += (firstClause ? "" : "; ") + deviceListText(arrivedDevices(*r)) + " wait in " +
               opText(r->opName, r->where) + " (group " + deviceGroupText(group) + ")";
    firstClause = false;
  }
  if (!done.empty())
    message += "; " + deviceListText(done) + " finished";
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
    return "device " + std::to_string(call.device) + " is not in group " + deviceGroupText(group);
  for (size_t i = 0; i < group.size(); ++i)
    if (group[i] < 0 || group[i] >= m_numDevices ||
        std::find(group.begin() + i + 1, group.end(), group[i]) != group.end())
      return "invalid group " + deviceGroupText(group) + " for " + std::to_string(m_numDevices) +
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
    std::string message = deviceListText({e}) +
                          (m_states[e] == State::Finished ? " finished" : " failed") + " while " +
                          deviceListText(waiting) + " wait in " + opText(call.id.opName, call.id.where);
    if (open != m_open.end())
      failRendezvousLocked(*open->second, message);
    return message;
  }
  return std::nullopt;
}

void LocalCommunicator::wakeLocked(const Rendezvous& r) {
  for (int64_t e : r.group)
    m_wake[e].notify_all();
}

void LocalCommunicator::startLocked(std::unique_lock<std::mutex>& lock, Rendezvous& r,
                                    int64_t device, const Compute& compute) {
  // The last member plans for everyone, outside the lock so that other groups proceed; the
  // rendezvous left `m_open`, so nobody else touches its inputs meanwhile. Every member is
  // running again from here on: the chunks need no other device to make progress.
  m_open.erase(r.group);
  lock.unlock();
  CommResult<Plan> plan = compute(r.inputs);
  lock.lock();
  if (plan) {
    r.plan = std::move(*plan);
    r.ready = true;
    r.complete = r.plan.numChunks == 0;
  } else {
    r.complete = true;
    r.error = plan.error() + " in " + opText(r.opName, r.where);
  }
  for (int64_t e : r.group)
    if (m_states[e] == State::Waiting)
      m_states[e] = State::Running;
  if (r.complete) {
    wakeLocked(r);
    return;
  }
  // Only as many members as there are hardware threads work on the chunks (this one included);
  // the others sleep on until the outputs are complete. Waking all of them would only make
  // them queue for the cores and for the mutex.
  size_t helpers = std::min(r.plan.numChunks, m_cores) - 1;
  for (size_t i = 0; i < r.group.size() && helpers > 0; ++i)
    if (r.group[i] != device) {
      m_wake[r.group[i]].notify_all();
      --helpers;
    }
}

void LocalCommunicator::runChunks(Rendezvous& r) {
  // Called without the lock by every member once the rendezvous is ready. Members claim chunks
  // until none is left, so the threads that happen to be running do the work, and the member
  // finishing the last chunk publishes the outputs (its unlock orders every chunk's writes
  // before any member's read of its output).
  size_t n = r.plan.numChunks;
  for (size_t c = r.nextChunk.fetch_add(1); c < n; c = r.nextChunk.fetch_add(1)) {
    r.plan.runChunk(r.inputs, r.plan.outputs, c);
    if (r.chunksDone.fetch_add(1) + 1 == n) {
      std::lock_guard lock(m_mutex);
      r.complete = true;
      wakeLocked(r);
    }
  }
}

void LocalCommunicator::waitLocked(std::unique_lock<std::mutex>& lock,
                                   const std::shared_ptr<Rendezvous>& r, int64_t device) {
  m_states[device] = State::Waiting;
  m_waitingIn[device] = r;
  failStalledLocked();
  auto ready = [&] { return r->ready || r->complete; };
  if (m_options.timeout.count() == 0) {
    m_wake[device].wait(lock, ready);
  } else if (!m_wake[device].wait_for(lock, m_options.timeout, ready)) {
    std::vector<int64_t> missing;
    for (size_t i = 0; i < r->group.size(); ++i)
      if (!r->arrived[i])
        missing.push_back(r->group[i]);
    failRendezvousLocked(*r, "timed out after " + std::to_string(m_options.timeout.count()) +
                                 " ms: " + deviceListText(arrivedDevices(*r)) + " wait in " +
                                 opText(r->opName, r->where) + " for " + deviceListText(missing));
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
    std::string message = deviceListText(arrivedDevices(*r)) + " reached " +
                          opText(r->opName, r->where) + " but " + deviceListText({call.device}) +
                          " reached " + opText(call.id.opName, call.id.where) + " (group " +
                          deviceGroupText(group) + ")";
    if (r->opName == call.id.opName && !r->arrived[index])
      message += ": different " + r->primitive + " and " + primitive;
    failRendezvousLocked(*r, message);
    return Result::failure(message);
  }
  r->inputs[index] = std::move(inputs);
  r->arrived[index] = true;
  if (++r->count == group.size())
    startLocked(lock, *r, call.device, compute);
  else
    waitLocked(lock, r, call.device);
  if (!r->complete) {
    lock.unlock();
    runChunks(*r);
    lock.lock();
    m_wake[call.device].wait(lock, [&] { return r->complete; });
  }
  if (!r->error.empty())
    return Result::failure(r->error);
  // Each member owns its output slot; the rendezvous is dropped once all have taken theirs.
  return std::move(r->plan.outputs[index]);
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
    failRendezvousLocked(*r, deviceListText({device}) + (failed ? " failed" : " finished") +
                                 " while " + deviceListText(arrivedDevices(*r)) + " wait in " +
                                 opText(r->opName, r->where));
  failStalledLocked();
}

CommResult<std::vector<Tensor>> LocalCommunicator::allReduce(const exec::CollectiveCall& call,
                                                             std::vector<Tensor> inputs,
                                                             const exec::Reduction& reduction) {
  const std::vector<int64_t>& group = call.group;
  return exchange(call, "allReduce", std::move(inputs),
                  [&](Outputs& in) -> CommResult<Plan> {
                    if (reduction.kind != exec::Reduction::Kind::Custom)
                      return planReduceInPlace(group, in, reduction.kind);
                    auto reduced = reduceAll(group, in, reduction);
                    if (!reduced)
                      return CommResult<Plan>::failure(reduced.error());
                    return finished(Outputs(in.size(), *reduced));
                  });
}

namespace {

// A collective computed whole by the last member to arrive (no chunks).
template <typename F> LocalCommunicator::Compute whole(F computeOutputs) {
  return [computeOutputs](Outputs& in) -> CommResult<Plan> {
    CommResult<Outputs> outputs = computeOutputs(in);
    if (!outputs)
      return CommResult<Plan>::failure(outputs.error());
    return finished(std::move(*outputs));
  };
}

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
  // The planner gathers once into the first member's result; the other members' results share
  // its buffer (tensors copy on write), so the gather writes the result once, for every member.
  std::string primitive = "allGather(dim " + std::to_string(dim) + ")";
  return single(exchange(call, primitive, one(std::move(input)),
                         [dim](Outputs& in) -> CommResult<Plan> {
                           for (const auto& v : in)
                             if (dim >= v[0].rank() || !sameExceptDim(v[0], in[0][0], dim))
                               return CommResult<Plan>::failure(
                                   "members pass incompatible tensors " + in[0][0].type().str() +
                                   " and " + v[0].type().str());
                           Plan plan;
                           plan.outputs.resize(in.size());
                           plan.outputs[0] = one(detail::concatTensors(firsts(in), dim));
                           in.clear(); // the contributions are no longer needed
                           plan.numChunks = plan.outputs.size() - 1;
                           plan.runChunk = [](Outputs&, Outputs& out, size_t c) {
                             out[c + 1] = out[0];
                           };
                           return plan;
                         }));
}

CommResult<Tensor> LocalCommunicator::reduceScatter(const exec::CollectiveCall& call, Tensor input,
                                                    int64_t dim, const exec::Reduction& reduction) {
  const std::vector<int64_t>& group = call.group;
  std::string primitive = "reduceScatter(dim " + std::to_string(dim) + ")";
  return single(exchange(
      call, primitive, one(std::move(input)),
      [&](Outputs& in) -> CommResult<Plan> {
        if (reduction.kind != exec::Reduction::Kind::Custom)
          return planReduceScatter(group, in, dim, reduction.kind);
        auto reduced = reduceAll(group, in, reduction);
        if (!reduced)
          return CommResult<Plan>::failure(reduced.error());
        const Tensor& t = (*reduced)[0];
        int64_t n = static_cast<int64_t>(in.size());
        if (dim >= t.rank() || t.shape()[dim] % n != 0)
          return CommResult<Plan>::failure(splitError(t, dim, n));
        Outputs out;
        for (Tensor& part : detail::splitTensor(t, dim, n))
          out.push_back(one(std::move(part)));
        return finished(std::move(out));
      }));
}

CommResult<Tensor> LocalCommunicator::allToAll(const exec::CollectiveCall& call, Tensor input,
                                               int64_t splitDim, int64_t concatDim) {
  std::string primitive =
      "allToAll(split " + std::to_string(splitDim) + ", concat " + std::to_string(concatDim) + ")";
  return single(exchange(
      call, primitive, one(std::move(input)),
      whole([&](Outputs& in) -> CommResult<Outputs> {
        if (auto bad = differingOperandTypes(in))
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
      })));
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
      call, primitive, one(std::move(input)),
      whole([&](Outputs& in) -> CommResult<Outputs> {
        if (auto bad = differingOperandTypes(in))
          return CommResult<Outputs>::failure(*bad);
        Outputs out(in.size());
        std::vector<bool> targeted(in.size(), false);
        for (const auto& [source, target] : pairs) {
          auto s = std::find(group.begin(), group.end(), source);
          auto t = std::find(group.begin(), group.end(), target);
          if (s == group.end() || t == group.end())
            return CommResult<Outputs>::failure("pair (" + std::to_string(source) + ", " +
                                                std::to_string(target) + ") leaves group " +
                                                deviceGroupText(group));
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
      })));
}

CommResult<Tensor> LocalCommunicator::collectiveBroadcast(const exec::CollectiveCall& call,
                                                          Tensor input) {
  return single(exchange(call, "collectiveBroadcast", one(std::move(input)),
                         whole([&](Outputs& in) -> CommResult<Outputs> {
                           if (auto bad = differingOperandTypes(in))
                             return CommResult<Outputs>::failure(*bad);
                           return Outputs(in.size(), in[0]);
                         })));
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
