#include "core/backends/mpi/mpi_communicator.h"

#include "core/backends/mpi/detail/wire.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <numeric>

namespace shardscope::backends::mpi {

using exec::CommResult;
using exec::Tensor;
using exec::deviceGroupText;
using exec::deviceListText;
using exec::differingOperandTypes;
using exec::opText;
using Buffers = MpiCommunicator::Buffers;

std::optional<DevicePlacement> DevicePlacement::create(int64_t numDevices, int ranks,
                                                       int64_t devicesPerRank, std::string& error) {
  if (devicesPerRank <= 0) {
    if (numDevices % ranks != 0) {
      error = "the mesh has " + std::to_string(numDevices) + " devices, which do not divide over " +
              std::to_string(ranks) + " ranks; pick --devices-per-rank";
      return std::nullopt;
    }
    devicesPerRank = std::max<int64_t>(1, numDevices / ranks);
  }
  if (numDevices % devicesPerRank != 0 || devicesPerRank * ranks < numDevices) {
    error = std::to_string(numDevices) + " devices do not split into " +
            std::to_string(devicesPerRank) + " devices per rank over " + std::to_string(ranks) +
            " ranks";
    return std::nullopt;
  }
  return DevicePlacement{numDevices, devicesPerRank};
}

/// One collective in flight on this rank: the local members' inputs, then their outputs.
struct MpiCommunicator::Rendezvous {
  std::string primitive, opName, where;
  Buffers inputs;
  size_t localCount = 0;
  size_t arrived = 0;
  bool complete = false;
  std::string error;
  Buffers outputs;
};

/// What a collective knows about its group once the header exchange is done.
struct MpiCommunicator::Group {
  MpiWorld* world = nullptr;
  DevicePlacement placement;
  std::vector<int64_t> devices; // group order
  std::vector<int> ranks;       // participating ranks, ascending (= communicator ranks)
  int myIndex = 0;              // this rank's index in `ranks`
  MPI_Comm comm = MPI_COMM_NULL;
  std::string primitive, opName, where;
  // Every member's operand types (from the header exchange for remote members).
  std::vector<std::vector<detail::TensorType>> types;
  // Receive buffers reused across calls (see `MpiCommunicator::takeScratch`).
  MpiCommunicator* owner = nullptr;
  // Data messages this rank sent with the header (`exchangeHeader`); the collective waits for
  // them with its own and sets `earlyUsed` when it receives the others' in the same way.
  std::vector<MPI_Request> early;
  std::vector<int> earlyTags; // the tag of each of `early`
  bool speculated = false; // `early` was posted (for every message of the plan)
  bool earlyUsed = false;  // the collective took the path the plans were made for
  // (tag, bytes) of the messages each communicator rank sent to this rank with its header.
  std::vector<std::vector<std::pair<int, int>>> peerEarly;

  bool multiRank() const { return ranks.size() > 1; }
  bool isLocal(size_t position) const {
    return placement.rankOf(devices[position]) == ranks[myIndex];
  }
  int indexOfRank(int rank) const {
    return static_cast<int>(std::lower_bound(ranks.begin(), ranks.end(), rank) - ranks.begin());
  }
  std::vector<size_t> localPositions() const {
    std::vector<size_t> out;
    for (size_t p = 0; p < devices.size(); ++p)
      if (isLocal(p))
        out.push_back(p);
    return out;
  }
  // Group positions in ascending device order: the reduction order.
  std::vector<size_t> ascending() const {
    std::vector<size_t> order(devices.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return devices[a] < devices[b]; });
    return order;
  }
};

namespace {

// A one-tensor list without copying (a braced list would copy its elements).
std::vector<Tensor> one(Tensor t) {
  std::vector<Tensor> v;
  v.push_back(std::move(t));
  return v;
}

template <typename T> CommResult<T> failure(std::string message) {
  return CommResult<T>::failure(std::move(message));
}

// Gathers `mine` from every rank of the group (index = communicator rank).
std::vector<std::vector<uint8_t>> allgatherBytes(MpiCommunicator::Group& g,
                                                 const std::vector<uint8_t>& mine,
                                                 const std::string& what) {
  int n = static_cast<int>(g.ranks.size());
  std::vector<int> sizes(static_cast<size_t>(n));
  int mySize = static_cast<int>(mine.size());
  std::vector<MPI_Request> requests(1);
  MPI_Iallgather(&mySize, 1, MPI_INT, sizes.data(), 1, MPI_INT, g.comm, &requests[0]);
  g.world->waitAll(requests, what);
  std::vector<int> displs(static_cast<size_t>(n));
  int64_t total = 0;
  for (int r = 0; r < n; ++r) {
    displs[r] = static_cast<int>(total);
    total += sizes[r];
  }
  if (total > INT_MAX)
    g.world->fail("a collective exchanges more than 2 GiB in " + what);
  std::vector<uint8_t> all(static_cast<size_t>(total));
  MPI_Iallgatherv(mine.data(), mySize, MPI_BYTE, all.data(), sizes.data(), displs.data(),
                  MPI_BYTE, g.comm, &requests[0]);
  g.world->waitAll(requests, what);
  std::vector<std::vector<uint8_t>> out;
  for (int r = 0; r < n; ++r)
    out.emplace_back(all.begin() + displs[r], all.begin() + displs[r] + sizes[r]);
  return out;
}

// Like `allgatherBytes` for a few bytes: fixed-size blocks exchanged point to point (eager
// messages, a few microseconds; MPI's nonblocking all-gather costs hundreds here). Ranks whose
// bytes do not fit say so in their block, and then all ranks repeat with `allgatherBytes`.
// Safe on a shared communicator because every rank runs its groups one at a time, in the same
// order, and messages with one tag between two ranks never overtake each other.
std::vector<std::vector<uint8_t>> allgatherSmall(MpiCommunicator::Group& g,
                                                 const std::vector<uint8_t>& mine,
                                                 const std::string& what,
                                                 const std::function<void()>& afterSends = {}) {
  constexpr size_t kBlock = 512;
  constexpr int kHeaderTag = 1 << 20;
  int n = static_cast<int>(g.ranks.size());
  std::vector<uint8_t> block(kBlock, 0), all(kBlock * static_cast<size_t>(n));
  uint32_t size = mine.size() + 4 <= kBlock ? static_cast<uint32_t>(mine.size()) : UINT32_MAX;
  std::memcpy(block.data(), &size, 4);
  if (size != UINT32_MAX && !mine.empty())
    std::memcpy(block.data() + 4, mine.data(), mine.size());
  std::memcpy(all.data() + g.myIndex * kBlock, block.data(), kBlock);
  std::vector<MPI_Request> requests;
  for (int r = 0; r < n; ++r) {
    if (r == g.myIndex)
      continue;
    requests.emplace_back();
    MPI_Irecv(all.data() + r * kBlock, static_cast<int>(kBlock), MPI_BYTE, r, kHeaderTag, g.comm,
              &requests.back());
  }
  for (int r = 0; r < n; ++r) {
    if (r == g.myIndex)
      continue;
    requests.emplace_back();
    MPI_Isend(block.data(), static_cast<int>(kBlock), MPI_BYTE, r, kHeaderTag, g.comm,
              &requests.back());
  }
  if (afterSends)
    afterSends();
  g.world->waitAll(requests, what);
  std::vector<std::vector<uint8_t>> out;
  for (int r = 0; r < n; ++r) {
    uint32_t theirs = 0;
    std::memcpy(&theirs, all.data() + r * kBlock, 4);
    if (theirs == UINT32_MAX)
      return allgatherBytes(g, mine, what);
    const uint8_t* data = all.data() + r * kBlock + 4;
    out.emplace_back(data, data + theirs);
  }
  return out;
}

// The header: every member's operand types and the primitive, so that all ranks agree on sizes
// and detect members that called something else.
//
// With a `plan`, the collective's first data messages (what this rank sends if everybody agrees,
// judged from its own inputs) are posted right after the header instead of after the exchange:
// the transfers start one round trip earlier. The header lists them (peer, tag, size), so when
// the members turn out to disagree (a different op or primitive, other types, another path),
// every rank knows exactly which messages were sent to it and `drainEarly` receives and drops
// them: nothing stays queued to confuse a later collective. A plan whose list would not fit in
// the small header block is not used.
std::optional<std::string> exchangeHeader(MpiCommunicator::Group& g, Buffers& inputs,
                                          const MpiCommunicator::Plan& plan) {
  g.types.assign(g.devices.size(), {});
  g.peerEarly.assign(g.ranks.size(), {});
  detail::Writer w;
  w.string(g.primitive);
  w.string(g.opName);
  std::vector<size_t> local = g.localPositions();
  w.pod<uint32_t>(static_cast<uint32_t>(local.size()));
  for (size_t p : local) {
    w.pod<uint32_t>(static_cast<uint32_t>(p));
    w.pod<uint32_t>(static_cast<uint32_t>(inputs[p].size()));
    for (const Tensor& t : inputs[p])
      w.tensorType(t);
  }
  if (!g.multiRank()) {
    for (size_t p : local)
      for (const Tensor& t : inputs[p])
        g.types[p].push_back(detail::TensorType::of(t));
    return std::nullopt;
  }
  std::vector<MpiCommunicator::EarlySend> sends;
  if (plan)
    sends = plan(g, inputs);
  constexpr size_t kEntryBytes = 12;
  if (w.bytes().size() + 4 + sends.size() * kEntryBytes > 400) // leaves room in the 512-byte block
    sends.clear();
  w.pod<uint32_t>(static_cast<uint32_t>(sends.size()));
  for (const auto& e : sends) {
    w.pod<int32_t>(e.peer);
    w.pod<int32_t>(e.tag);
    w.pod<int32_t>(e.bytes);
  }
  auto postEarly = [&] {
    g.speculated = !sends.empty();
    for (const auto& e : sends) {
      g.earlyTags.push_back(e.tag);
      g.early.emplace_back();
      MPI_Isend(e.data, e.bytes, MPI_BYTE, e.peer, e.tag, g.comm, &g.early.back());
    }
  };
  std::vector<std::vector<uint8_t>> headers =
      allgatherSmall(g, w.bytes(), opText(g.opName, g.where), postEarly);
  std::vector<int64_t> agree, disagree;
  std::string otherOp, otherPrimitive;
  std::optional<std::string> malformed;
  for (size_t r = 0; r < headers.size(); ++r) {
    detail::Reader reader(headers[r].data(), headers[r].size());
    std::string primitive = reader.string();
    std::string opName = reader.string();
    uint32_t count = reader.pod<uint32_t>();
    std::vector<int64_t> members;
    for (uint32_t i = 0; i < count && reader.ok(); ++i) {
      uint32_t p = reader.pod<uint32_t>();
      uint32_t operands = reader.pod<uint32_t>();
      if (p >= g.devices.size()) {
        malformed = "rank " + std::to_string(g.ranks[r]) + " sent a malformed header";
        break;
      }
      members.push_back(g.devices[p]);
      g.types[p].clear();
      for (uint32_t k = 0; k < operands && reader.ok(); ++k)
        g.types[p].push_back(reader.tensorType());
    }
    uint32_t entries = reader.pod<uint32_t>();
    for (uint32_t i = 0; i < entries && reader.ok(); ++i) {
      int32_t peer = reader.pod<int32_t>();
      int32_t tag = reader.pod<int32_t>();
      int32_t bytes = reader.pod<int32_t>();
      if (peer == g.myIndex && static_cast<int>(r) != g.myIndex)
        g.peerEarly[r].emplace_back(tag, bytes);
    }
    if (!reader.ok() || malformed)
      return malformed ? *malformed
                       : "rank " + std::to_string(g.ranks[r]) + " sent a malformed header";
    if (primitive == g.primitive && opName == g.opName) {
      agree.insert(agree.end(), members.begin(), members.end());
    } else {
      disagree.insert(disagree.end(), members.begin(), members.end());
      otherOp = opName;
      otherPrimitive = primitive;
    }
  }
  if (!disagree.empty()) {
    std::string message = deviceListText(agree) + " reached " + opText(g.opName, g.where) + " but " +
                          deviceListText(disagree) + " reached '" + otherOp + "' (group " +
                          deviceGroupText(g.devices) + ")";
    if (otherOp == g.opName)
      message += ": different " + g.primitive + " and " + otherPrimitive;
    return message;
  }
  return std::nullopt;
}

// Completes the messages of `exchangeHeader`'s plans when the collective did not use them:
// receives (and drops) what the others sent to this rank early and waits until they did the
// same with this rank's.
void drainEarly(MpiCommunicator::Group& g) {
  if (g.earlyUsed)
    return;
  std::vector<MPI_Request> requests = std::move(g.early);
  g.early.clear();
  size_t total = 0;
  for (const auto& list : g.peerEarly)
    for (const auto& [tag, bytes] : list)
      total += static_cast<size_t>(bytes);
  if (requests.empty() && total == 0)
    return;
  std::vector<uint8_t> sink(std::max<size_t>(total, 1));
  size_t offset = 0;
  for (size_t r = 0; r < g.peerEarly.size(); ++r)
    for (const auto& [tag, bytes] : g.peerEarly[r]) {
      requests.emplace_back();
      MPI_Irecv(sink.data() + offset, bytes, MPI_BYTE, static_cast<int>(r), tag, g.comm,
                &requests.back());
      offset += static_cast<size_t>(bytes);
    }
  g.world->waitAll(requests, opText(g.opName, g.where));
}

// Every member's operands on every member rank (the generic path).
Buffers gatherAll(MpiCommunicator::Group& g, Buffers& inputs) {
  if (!g.multiRank())
    return std::move(inputs);
  detail::Writer w;
  for (size_t p : g.localPositions())
    for (const Tensor& t : inputs[p])
      w.tensor(t);
  std::vector<std::vector<uint8_t>> blobs = allgatherBytes(g, w.bytes(), opText(g.opName, g.where));
  Buffers all(g.devices.size());
  for (size_t r = 0; r < blobs.size(); ++r) {
    detail::Reader reader(blobs[r].data(), blobs[r].size());
    for (size_t p = 0; p < g.devices.size(); ++p)
      if (g.placement.rankOf(g.devices[p]) == g.ranks[r])
        for (size_t k = 0; k < g.types[p].size(); ++k)
          all[p].push_back(reader.tensor());
    if (!reader.ok())
      g.world->fail("rank " + std::to_string(g.ranks[r]) + " sent truncated operands in " +
                    opText(g.opName, g.where));
  }
  return all;
}

// Reduces every member's operands in ascending device order (the generic path).
CommResult<std::vector<Tensor>> reduceAll(const MpiCommunicator::Group& g, const Buffers& all,
                                          const exec::Reduction& reduction) {
  if (auto bad = differingOperandTypes(all))
    return failure<std::vector<Tensor>>(*bad);
  std::vector<size_t> order = g.ascending();
  std::vector<Tensor> acc = all[order[0]];
  for (size_t i = 1; i < order.size(); ++i) {
    if (reduction.kind != exec::Reduction::Kind::Custom) {
      for (size_t k = 0; k < acc.size(); ++k)
        exec::reduceInto(reduction.kind, acc[k], all[order[i]][k]);
      continue;
    }
    std::optional<std::vector<Tensor>> next = reduction.combine(acc, all[order[i]]);
    if (!next)
      return failure<std::vector<Tensor>>("the reduction failed");
    acc = std::move(*next);
  }
  return acc;
}

// Outputs for the local positions: `make(position)` for each.
template <typename F> Buffers localOutputs(const MpiCommunicator::Group& g, F make) {
  Buffers out(g.devices.size());
  for (size_t p : g.localPositions())
    out[p] = make(p);
  return out;
}

// The same outputs for every local position: copies, and the value itself for the last.
Buffers shared(const MpiCommunicator::Group& g, std::vector<Tensor> value) {
  Buffers out(g.devices.size());
  std::vector<size_t> local = g.localPositions();
  for (size_t i = 0; i + 1 < local.size(); ++i)
    out[local[i]] = value;
  out[local.back()] = std::move(value);
  return out;
}

// Every rank's `counts[r]` bytes land at `displs[r]` of `out` on every rank; this rank's come
// from `send`. Point to point (MPI's nonblocking all-gather adds a scheduling layer that costs
// more than the copy for small and medium sizes); see `allgatherSmall` for why tags suffice.
constexpr int kDataTag = (1 << 20) + 1;

void allgatherInto(MpiCommunicator::Group& g, const uint8_t* send, uint8_t* out,
                   const std::vector<int>& counts, const std::vector<int>& displs,
                   bool sentEarly = false) {
  int n = static_cast<int>(g.ranks.size());
  std::vector<MPI_Request> requests;
  for (int r = 0; r < n; ++r) {
    if (r == g.myIndex)
      continue;
    requests.emplace_back();
    MPI_Irecv(out + displs[r], counts[r], MPI_BYTE, r, kDataTag, g.comm, &requests.back());
  }
  if (sentEarly) { // `exchangeHeader` posted the sends (see `planAllGather`)
    requests.insert(requests.end(), g.early.begin(), g.early.end());
    g.early.clear();
  } else {
    for (int r = 0; r < n; ++r) {
      if (r == g.myIndex)
        continue;
      requests.emplace_back();
      MPI_Isend(send, counts[g.myIndex], MPI_BYTE, r, kDataTag, g.comm, &requests.back());
    }
  }
  if (counts[g.myIndex] > 0 && send != out + displs[g.myIndex])
    std::memcpy(out + displs[g.myIndex], send, static_cast<size_t>(counts[g.myIndex]));
  g.world->waitAll(requests, opText(g.opName, g.where));
}

int checkedInt(int64_t bytes, MpiCommunicator::Group& g) {
  if (bytes > INT_MAX)
    g.world->fail("a tensor of more than 2 GiB in " + opText(g.opName, g.where) +
                  " is too large for the MPI backend");
  return static_cast<int>(bytes);
}

// The builtin all-reduce across ranks: a reduce-scatter in which the owner of each element range
// folds every member's contribution in ascending device order, then an all-gather of the ranges.
// No byte is copied outside MPI: the result tensor is the accumulator. Its range starts as the
// first contribution in ascending device order — the local input itself when that device lives
// here (the input becomes the result), else received straight into a new uninitialised tensor —
// and the later contributions are folded into it in order (`exec::reduceInto` over the range,
// reading local inputs in place and remote ones from receive buffers indexed like the tensor),
// and the reduced range is sent to the other ranks from where it lies.
void reduceOperandAcrossRanks(MpiCommunicator::Group& g, Buffers& inputs, size_t k,
                              exec::Reduction::Kind kind, Tensor& out) {
  const detail::TensorType& type = g.types[0][k];
  int64_t elements = type.numElements();
  size_t width = Tensor::elementBytes(type.elementType());
  int n = static_cast<int>(g.ranks.size());
  auto begin = [&](int c) { return elements * c / n; };
  auto length = [&](int c) { return begin(c + 1) - begin(c); };
  int tag = static_cast<int>(k);
  std::vector<size_t> order = g.ascending();
  std::vector<size_t> local;
  for (size_t p : order)
    if (g.isLocal(p))
      local.push_back(p);

  int me = g.myIndex;
  size_t first = order[0];
  bool firstLocal = g.isLocal(first);
  if (firstLocal)
    out = std::move(inputs[first][k]);
  else
    out = Tensor::uninitialized(type.elementType(), type.shape());
  auto contribution = [&](size_t p) -> const Tensor& {
    return firstLocal && p == first ? out : inputs[p][k];
  };

  // Contributions to my range: the first in order lands in `out` (or is there already), the
  // others in receive buffers (stale contents: only my range is written and read).
  std::vector<Tensor> received;
  std::vector<const Tensor*> rhs; // the contributions after the first, in ascending order
  std::vector<MPI_Request> requests;
  received.reserve(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    size_t p = order[i];
    if (g.isLocal(p)) {
      if (i > 0)
        rhs.push_back(&contribution(p));
      continue;
    }
    uint8_t* into;
    if (i == 0) {
      into = out.bytes().data();
    } else {
      received.push_back(g.owner->takeScratch(type.elementType(), elements));
      rhs.push_back(&received.back());
      into = received.back().bytes().data();
    }
    requests.emplace_back();
    MPI_Irecv(into + begin(me) * width, checkedInt(length(me) * width, g), MPI_BYTE,
              g.indexOfRank(g.placement.rankOf(g.devices[p])), tag, g.comm, &requests.back());
  }
  g.earlyUsed = true; // the others' early messages are among those received above
  if (g.speculated) {
    // `exchangeHeader` posted these sends (see `planAllReduce`), every operand's: wait for this
    // operand's only (the others complete once the peers reach that operand).
    for (size_t i = 0; i < g.early.size(); ++i)
      if (g.earlyTags[i] == tag && g.early[i] != MPI_REQUEST_NULL) {
        requests.push_back(g.early[i]);
        g.early[i] = MPI_REQUEST_NULL;
      }
  } else {
    for (int c = 0; c < n; ++c) {
      if (c == me)
        continue;
      for (size_t p : local) {
        requests.emplace_back();
        MPI_Isend(contribution(p).bytes().data() + begin(c) * width,
                  checkedInt(length(c) * width, g), MPI_BYTE, c, tag, g.comm, &requests.back());
      }
    }
  }
  g.world->waitAll(requests, opText(g.opName, g.where));
  if (!rhs.empty())
    exec::reduceInto(kind, out, rhs, begin(me), begin(me) + length(me));

  // Every rank's reduced range, gathered straight into the result (mine is there already).
  std::vector<int> counts(static_cast<size_t>(n)), displs(static_cast<size_t>(n));
  for (int c = 0; c < n; ++c) {
    counts[c] = checkedInt(length(c) * width, g);
    displs[c] = checkedInt(begin(c) * width, g);
  }
  uint8_t* result = out.bytes().data();
  allgatherInto(g, result + displs[me], result, counts, displs);
  for (Tensor& part : received)
    g.owner->giveScratch(std::move(part));
}

// The all-reduce's first messages if every member agrees (`reduceOperandAcrossRanks`, builtin
// reductions across ranks): each local member's contribution to every other rank's range, for
// every operand, in the order that function sends them.
std::vector<MpiCommunicator::EarlySend> planAllReduce(MpiCommunicator::Group& g, Buffers& in) {
  std::vector<size_t> local;
  for (size_t p : g.ascending())
    if (g.isLocal(p))
      local.push_back(p);
  size_t operands = in[local[0]].size();
  for (size_t p : local)
    if (in[p].size() != operands)
      return {};
  int n = static_cast<int>(g.ranks.size());
  std::vector<MpiCommunicator::EarlySend> sends;
  for (size_t k = 0; k < operands; ++k) {
    const Tensor& first = in[local[0]][k];
    for (size_t p : local)
      if (in[p][k].elementType() != first.elementType() || in[p][k].shape() != first.shape())
        return {};
    int64_t elements = first.numElements();
    int64_t width = static_cast<int64_t>(Tensor::elementBytes(first.elementType()));
    auto begin = [&](int c) { return elements * c / n; };
    for (int c = 0; c < n; ++c) {
      if (c == g.myIndex)
        continue;
      int64_t bytes = (begin(c + 1) - begin(c)) * width;
      if (bytes > INT_MAX)
        return {};
      for (size_t p : local)
        sends.push_back({c, static_cast<int>(k), in[p][k].bytes().data() + begin(c) * width,
                         static_cast<int>(bytes)});
    }
  }
  return sends;
}

// True when every rank's members sit next to each other in the group (so that each rank's
// blocks of an all-gather along a leading dimension form one piece of the result).
bool ranksContiguous(const MpiCommunicator::Group& g) {
  std::vector<bool> seen(g.ranks.size(), false);
  int last = -1;
  for (int64_t d : g.devices) {
    int r = g.indexOfRank(g.placement.rankOf(d));
    if (r != last && seen[static_cast<size_t>(r)])
      return false;
    seen[static_cast<size_t>(r)] = true;
    last = r;
  }
  return true;
}

// The all-gather's first messages if every member agrees and the fast path applies (one local
// member, nothing before `dim`, ranks contiguous): this rank's block to every other rank.
std::vector<MpiCommunicator::EarlySend> planAllGather(MpiCommunicator::Group& g, Buffers& in,
                                                      int64_t dim) {
  std::vector<size_t> local = g.localPositions();
  if (local.size() != 1 || in[local[0]].size() != 1 || !ranksContiguous(g))
    return {};
  const Tensor& t = in[local[0]][0];
  if (dim < 0 || dim >= t.rank())
    return {};
  for (int64_t d = 0; d < dim; ++d)
    if (t.shape()[d] != 1)
      return {};
  int64_t bytes = static_cast<int64_t>(t.bytes().size());
  if (bytes * static_cast<int64_t>(g.devices.size()) > INT_MAX)
    return {};
  std::vector<MpiCommunicator::EarlySend> sends;
  for (int c = 0; c < static_cast<int>(g.ranks.size()); ++c)
    if (c != g.myIndex)
      sends.push_back({c, kDataTag, t.bytes().data(), static_cast<int>(bytes)});
  return sends;
}

bool sameExceptDim(const detail::TensorType& a, const detail::TensorType& b, int64_t dim) {
  if (a.elementType() != b.elementType() || a.rank() != b.rank())
    return false;
  for (int64_t d = 0; d < a.rank(); ++d)
    if (d != dim && a.shape()[d] != b.shape()[d])
      return false;
  return true;
}

} // namespace

Tensor MpiCommunicator::takeScratch(ir::ElementType element, int64_t elements) {
  std::lock_guard lock(m_scratchMutex);
  auto it = m_scratch.find({element, elements});
  if (it == m_scratch.end() || it->second.empty())
    return Tensor::uninitialized(element, {elements});
  Tensor t = std::move(it->second.back());
  it->second.pop_back();
  return t;
}

void MpiCommunicator::giveScratch(Tensor t) {
  std::lock_guard lock(m_scratchMutex);
  std::vector<Tensor>& free = m_scratch[{t.elementType(), t.numElements()}];
  if (free.size() < 8)
    free.push_back(std::move(t));
}

MpiCommunicator::MpiCommunicator(MpiWorld& world, DevicePlacement placement)
    : m_world(world), m_placement(placement) {}

MpiCommunicator::~MpiCommunicator() {
  if (!MpiWorld::active())
    return;
  for (auto& [ranks, comm] : m_comms)
    MPI_Comm_free(&comm);
}

MPI_Comm MpiCommunicator::commFor(const std::vector<int>& ranks) {
  auto it = m_comms.find(ranks);
  if (it != m_comms.end())
    return it->second;
  // Collective over the member ranks only; every rank creates its groups' communicators in the
  // same order because the executor runs collectives in the same order everywhere.
  MPI_Group world, group;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, static_cast<int>(ranks.size()), ranks.data(), &group);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_create_group(MPI_COMM_WORLD, group, /*tag=*/4242, &comm);
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  m_comms.emplace(ranks, comm);
  return comm;
}

CommResult<std::vector<Tensor>> MpiCommunicator::run(const exec::CollectiveCall& call,
                                                     const std::string& primitive,
                                                     std::vector<Tensor> inputs,
                                                     const Compute& compute, const Plan& plan) {
  using Result = CommResult<std::vector<Tensor>>;
  const std::vector<int64_t>& group = call.group;
  if (std::find(group.begin(), group.end(), call.device) == group.end())
    return Result::failure("device " + std::to_string(call.device) + " is not in group " +
                           deviceGroupText(group));
  for (size_t i = 0; i < group.size(); ++i)
    if (group[i] < 0 || group[i] >= numDevices() ||
        std::find(group.begin() + i + 1, group.end(), group[i]) != group.end())
      return Result::failure("invalid group " + deviceGroupText(group) + " for " +
                             std::to_string(numDevices()) + " devices");
  if (!isLocal(call.device))
    return Result::failure("device " + std::to_string(call.device) + " does not live on rank " +
                           std::to_string(m_world.rank()));
  size_t position =
      static_cast<size_t>(std::find(group.begin(), group.end(), call.device) - group.begin());
  std::unique_lock lock(m_mutex);
  std::shared_ptr<Rendezvous>& slot = m_open[group];
  if (!slot) {
    slot = std::make_shared<Rendezvous>();
    slot->primitive = primitive;
    slot->opName = call.id.opName;
    slot->where = call.id.where;
    slot->inputs.resize(group.size());
    slot->localCount = static_cast<size_t>(
        std::count_if(group.begin(), group.end(), [&](int64_t d) { return isLocal(d); }));
  }
  std::shared_ptr<Rendezvous> r = slot;
  if (r->primitive != primitive || r->opName != call.id.opName) {
    std::string message = "devices of group " + deviceGroupText(group) + " reached " +
                          opText(r->opName, r->where) + " but " + deviceListText({call.device}) +
                          " reached " + opText(call.id.opName, call.id.where);
    r->complete = true;
    r->error = message;
    m_open.erase(group);
    m_cv.notify_all();
    return Result::failure(message);
  }
  r->inputs[position] = std::move(inputs);
  if (++r->arrived == r->localCount) {
    // The last local member does this rank's part for all of them.
    m_open.erase(group);
    lock.unlock();
    Group g;
    g.world = &m_world;
    g.placement = m_placement;
    g.devices = group;
    for (int64_t d : group)
      g.ranks.push_back(m_placement.rankOf(d));
    std::sort(g.ranks.begin(), g.ranks.end());
    g.ranks.erase(std::unique(g.ranks.begin(), g.ranks.end()), g.ranks.end());
    g.myIndex = g.indexOfRank(m_world.rank());
    if (g.multiRank())
      g.comm = commFor(g.ranks);
    g.owner = this;
    g.primitive = primitive;
    g.opName = r->opName;
    g.where = r->where;
    std::optional<std::string> bad = exchangeHeader(g, r->inputs, plan);
    CommResult<Buffers> outputs =
        bad ? CommResult<Buffers>::failure(*bad) : compute(g, r->inputs);
    drainEarly(g);
    lock.lock();
    if (outputs)
      r->outputs = std::move(*outputs);
    else
      r->error = bad ? outputs.error() : outputs.error() + " in " + opText(r->opName, r->where);
    r->complete = true;
    m_cv.notify_all();
  } else if (!m_cv.wait_for(lock, m_world.timeout(), [&] { return r->complete; })) {
    r->complete = true;
    r->error = "timed out waiting for the other local members of group " + deviceGroupText(group) +
               " in " + opText(r->opName, r->where);
    m_cv.notify_all();
  }
  if (!r->error.empty())
    return Result::failure(r->error);
  return std::move(r->outputs[position]);
}

void MpiCommunicator::deviceDone(int64_t device, bool failed) {
  // Collectives start only once every member waits in them (the executor exchanges that across
  // ranks first), so a finished device can only strand local members of an open rendezvous.
  std::lock_guard lock(m_mutex);
  for (auto it = m_open.begin(); it != m_open.end();) {
    if (std::find(it->first.begin(), it->first.end(), device) == it->first.end()) {
      ++it;
      continue;
    }
    it->second->complete = true;
    it->second->error = deviceListText({device}) + (failed ? " failed" : " finished") +
                        " while members wait in " +
                        opText(it->second->opName, it->second->where);
    it = m_open.erase(it);
  }
  m_cv.notify_all();
}

namespace {

CommResult<Tensor> single(CommResult<std::vector<Tensor>> r) {
  if (!r)
    return CommResult<Tensor>::failure(r.error());
  return std::move(r.value()[0]);
}

} // namespace

CommResult<std::vector<Tensor>> MpiCommunicator::allReduce(const exec::CollectiveCall& call,
                                                           std::vector<Tensor> inputs,
                                                           const exec::Reduction& reduction) {
  return run(call, "allReduce", std::move(inputs), [&](Group& g, Buffers& in) -> CommResult<Buffers> {
    if (auto bad = differingOperandTypes(g.types))
      return failure<Buffers>(*bad);
    if (reduction.kind == exec::Reduction::Kind::Custom || !g.multiRank()) {
      Buffers all = gatherAll(g, in);
      CommResult<std::vector<Tensor>> reduced = reduceAll(g, all, reduction);
      if (!reduced)
        return failure<Buffers>(reduced.error());
      return shared(g, std::move(*reduced));
    }
    std::vector<Tensor> result(g.types[0].size());
    for (size_t k = 0; k < result.size(); ++k)
      reduceOperandAcrossRanks(g, in, k, reduction.kind, result[k]);
    return shared(g, std::move(result));
  }, reduction.kind == exec::Reduction::Kind::Custom ? Plan() : Plan(planAllReduce));
}

CommResult<Tensor> MpiCommunicator::allGather(const exec::CollectiveCall& call, Tensor input,
                                              int64_t dim) {
  std::string primitive = "allGather(dim " + std::to_string(dim) + ")";
  return single(run(call, primitive, one(std::move(input)), [dim](Group& g, Buffers& in) -> CommResult<Buffers> {
    for (const auto& v : g.types)
      if (v.size() != 1 || dim >= v[0].rank() || !sameExceptDim(v[0], g.types[0][0], dim))
        return failure<Buffers>("members pass incompatible tensors " +
                                g.types[0][0].type().str() + " and " + v[0].type().str());
    std::vector<int64_t> shape = g.types[0][0].shape();
    shape[dim] = 0;
    for (const auto& v : g.types)
      shape[dim] += v[0].shape()[dim];
    // Every byte is written below: by the all-gather on the fast path, else replaced.
    Tensor out = Tensor::uninitialized(g.types[0][0].elementType(), shape);
    int64_t outer = 1;
    for (int64_t d = 0; d < dim; ++d)
      outer *= out.shape()[d];
    // Fast path: blocks are contiguous in the result (nothing before `dim`) and every rank's
    // members sit next to each other in the group, so each rank's part lands in one piece.
    std::vector<int> counts(g.ranks.size(), 0), displs(g.ranks.size(), -1);
    bool contiguous = outer == 1 && g.multiRank();
    int64_t offset = 0;
    int lastRank = -1;
    for (size_t p = 0; p < g.devices.size() && contiguous; ++p) {
      int r = g.indexOfRank(g.placement.rankOf(g.devices[p]));
      int64_t bytes = static_cast<int64_t>(g.types[p][0].byteSize());
      if (displs[r] < 0)
        displs[r] = static_cast<int>(offset);
      else if (r != lastRank)
        contiguous = false;
      counts[r] += static_cast<int>(bytes);
      offset += bytes;
      lastRank = r;
      contiguous = contiguous && offset <= INT_MAX;
    }
    if (!contiguous) {
      Buffers all = gatherAll(g, in);
      std::vector<const Tensor*> parts;
      for (const auto& v : all)
        parts.push_back(&v[0]);
      Tensor result = detail::concatTensors(parts, dim);
      return shared(g, one(std::move(result)));
    }
    // One local member: its input is sent as it is and copied into the result while the
    // transfers run (the one copy raw MPI_Allgather makes too). Several: their blocks are
    // copied to their place in the result first and sent from there.
    std::vector<size_t> local = g.localPositions();
    uint8_t* result = out.bytes().data();
    const uint8_t* send = in[local[0]][0].bytes().data();
    if (local.size() > 1) {
      uint8_t* mine = result + displs[g.myIndex];
      for (size_t p : local) {
        std::span<const uint8_t> block = in[p][0].bytes();
        if (!block.empty())
          std::memcpy(mine, block.data(), block.size());
        mine += block.size();
      }
      send = result + displs[g.myIndex];
    }
    g.earlyUsed = true; // the others' early messages are among those received here
    allgatherInto(g, send, result, counts, displs, /*sentEarly=*/g.speculated);
    Buffers outputs(g.devices.size());
    for (size_t i = 1; i < local.size(); ++i)
      outputs[local[i]] = one(Tensor(out));
    outputs[local[0]] = one(std::move(out));
    return outputs;
  }, [dim](Group& g, Buffers& in) { return planAllGather(g, in, dim); }));
}

CommResult<Tensor> MpiCommunicator::reduceScatter(const exec::CollectiveCall& call, Tensor input,
                                                  int64_t dim, const exec::Reduction& reduction) {
  std::string primitive = "reduceScatter(dim " + std::to_string(dim) + ")";
  return single(run(call, primitive, one(std::move(input)), [&](Group& g, Buffers& in) -> CommResult<Buffers> {
    if (auto bad = differingOperandTypes(g.types))
      return failure<Buffers>(*bad);
    Buffers all = gatherAll(g, in);
    CommResult<std::vector<Tensor>> reduced = reduceAll(g, all, reduction);
    if (!reduced)
      return failure<Buffers>(reduced.error());
    const Tensor& t = (*reduced)[0];
    int64_t n = static_cast<int64_t>(g.devices.size());
    if (dim >= t.rank() || t.shape()[dim] % n != 0)
      return failure<Buffers>("dimension " + std::to_string(dim) + " of " + t.type().str() +
                              " does not split into " + std::to_string(n) + " parts");
    std::vector<Tensor> parts = detail::splitTensor(t, dim, n);
    return localOutputs(g, [&](size_t p) { return one(std::move(parts[p])); });
  }));
}

CommResult<Tensor> MpiCommunicator::allToAll(const exec::CollectiveCall& call, Tensor input,
                                             int64_t splitDim, int64_t concatDim) {
  std::string primitive =
      "allToAll(split " + std::to_string(splitDim) + ", concat " + std::to_string(concatDim) + ")";
  return single(run(call, primitive, one(std::move(input)), [&](Group& g, Buffers& in) -> CommResult<Buffers> {
    if (auto bad = differingOperandTypes(g.types))
      return failure<Buffers>(*bad);
    int64_t n = static_cast<int64_t>(g.devices.size());
    const detail::TensorType& t0 = g.types[0][0];
    if (splitDim >= t0.rank() || concatDim >= t0.rank() || t0.shape()[splitDim] % n != 0)
      return failure<Buffers>("cannot split " + t0.type().str() + " into " + std::to_string(n) +
                              " parts");
    Buffers all = gatherAll(g, in);
    std::vector<std::vector<Tensor>> parts; // parts[sender][receiver]
    for (const auto& v : all)
      parts.push_back(detail::splitTensor(v[0], splitDim, n));
    return localOutputs(g, [&](size_t j) {
      std::vector<const Tensor*> received;
      for (int64_t i = 0; i < n; ++i)
        received.push_back(&parts[i][j]);
      return one(detail::concatTensors(received, concatDim));
    });
  }));
}

CommResult<Tensor>
MpiCommunicator::collectivePermute(const exec::CollectiveCall& call, Tensor input,
                                   const std::vector<std::pair<int64_t, int64_t>>& pairs) {
  std::string primitive = "collectivePermute[";
  for (const auto& [s, t] : pairs)
    primitive += std::to_string(s) + ">" + std::to_string(t) + ",";
  primitive += "]";
  return single(run(call, primitive, one(std::move(input)), [&](Group& g, Buffers& in) -> CommResult<Buffers> {
    if (auto bad = differingOperandTypes(g.types))
      return failure<Buffers>(*bad);
    size_t n = g.devices.size();
    std::vector<int64_t> sourceOf(n, -1);
    for (const auto& [source, target] : pairs) {
      auto s = std::find(g.devices.begin(), g.devices.end(), source);
      auto t = std::find(g.devices.begin(), g.devices.end(), target);
      if (s == g.devices.end() || t == g.devices.end())
        return failure<Buffers>("pair (" + std::to_string(source) + ", " +
                                std::to_string(target) + ") leaves group " +
                                deviceGroupText(g.devices));
      size_t ti = static_cast<size_t>(t - g.devices.begin());
      if (sourceOf[ti] >= 0)
        return failure<Buffers>("device " + std::to_string(target) +
                                " is the target of more than one pair");
      sourceOf[ti] = s - g.devices.begin();
    }
    Buffers all = gatherAll(g, in);
    return localOutputs(g, [&](size_t p) {
      if (sourceOf[p] < 0) // the spec: processes that receive nothing produce zeros
        return one(Tensor(all[p][0].elementType(), all[p][0].shape()));
      return one(all[static_cast<size_t>(sourceOf[p])][0]);
    });
  }));
}

CommResult<Tensor> MpiCommunicator::collectiveBroadcast(const exec::CollectiveCall& call,
                                                        Tensor input) {
  return single(run(call, "collectiveBroadcast", one(std::move(input)), [](Group& g, Buffers& in) -> CommResult<Buffers> {
    if (auto bad = differingOperandTypes(g.types))
      return failure<Buffers>(*bad);
    Buffers all = gatherAll(g, in);
    return shared(g, std::move(all[0]));
  }));
}

} // namespace shardscope::backends::mpi
