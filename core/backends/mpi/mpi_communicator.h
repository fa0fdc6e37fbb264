#pragma once

#include "core/backends/mpi/mpi_world.h"
#include "core/exec/communicator.h"

#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace shardscope::backends::mpi {

/// Where the devices of a grid live: device `d` on rank `d / devicesPerRank`.
struct DevicePlacement {
  int64_t numDevices = 1;
  int64_t devicesPerRank = 1;
  int rankOf(int64_t device) const { return static_cast<int>(device / devicesPerRank); }
  /// The placement of `numDevices` devices over `ranks` ranks: `devicesPerRank` when positive,
  /// else `numDevices / ranks`. Nothing (with `error`) when the ranks cannot hold the devices
  /// evenly.
  static std::optional<DevicePlacement> create(int64_t numDevices, int ranks,
                                               int64_t devicesPerRank, std::string& error);
};

/// `exec::Communicator` over MPI ranks. Each rank holds the devices `placement` gives it and
/// calls with them from the executor's member threads; members on one rank meet in shared memory
/// (the last local member to arrive does the rank's part of the work), members on other ranks
/// are reached through one MPI communicator per distinct set of participating ranks, created with
/// `MPI_Comm_create_group` on first use and cached (communicator ranks in ascending world-rank
/// order).
///
/// Every collective first exchanges a small header (primitive, op name, every member's operand
/// types), so members that disagree fail with the same message on every rank. The all-reduce and
/// all-gather post their first data messages together with the header rather than after it (one
/// round trip less); members that disagree receive and drop them, so nothing stays queued. Then:
/// - `allReduce` with a builtin reduction: the elements are split into one range per rank; every
///   rank receives all members' contributions to its range and folds them left to right in
///   ascending device order (`exec::reduceInto`, exactly the order of `exec::Reduction`), then
///   the reduced ranges are all-gathered. Each element is combined in the same order as in the
///   local backend, so results agree bit for bit (MPI's own reduction order is never used).
/// - `allGather` along a dimension whose blocks are contiguous: point to point straight into an
///   uninitialised result.
/// - everything else (custom reductions, reduce-scatter, all-to-all, permutes, broadcasts): every
///   member rank gathers all members' operands (`MPI_Iallgatherv`) and computes the result as the
///   local backend does (reductions in ascending device order).
///
/// Every wait polls with a deadline (`MpiWorld::waitAll`). Unlike the local backend, calls on
/// one rank must not overlap across groups: MPI orders collectives per communicator, so every
/// rank must run the groups it shares with others one at a time and in the same order.
/// `exec::SpmdExecutor` does exactly that (ready groups run in ascending order of their lowest
/// device on every rank); the members of one group may call concurrently.
class MpiCommunicator final : public exec::Communicator {
public:
  MpiCommunicator(MpiWorld& world, DevicePlacement placement);
  ~MpiCommunicator() override;

  int64_t numDevices() const override { return m_placement.numDevices; }
  const DevicePlacement& placement() const { return m_placement; }
  bool isLocal(int64_t device) const { return m_placement.rankOf(device) == m_world.rank(); }

  exec::CommResult<std::vector<exec::Tensor>> allReduce(const exec::CollectiveCall& call,
                                                        std::vector<exec::Tensor> inputs,
                                                        const exec::Reduction& reduction) override;
  exec::CommResult<exec::Tensor> allGather(const exec::CollectiveCall& call, exec::Tensor input,
                                           int64_t dim) override;
  exec::CommResult<exec::Tensor> reduceScatter(const exec::CollectiveCall& call,
                                               exec::Tensor input, int64_t dim,
                                               const exec::Reduction& reduction) override;
  exec::CommResult<exec::Tensor> allToAll(const exec::CollectiveCall& call, exec::Tensor input,
                                          int64_t splitDim, int64_t concatDim) override;
  exec::CommResult<exec::Tensor>
  collectivePermute(const exec::CollectiveCall& call, exec::Tensor input,
                    const std::vector<std::pair<int64_t, int64_t>>& pairs) override;
  exec::CommResult<exec::Tensor> collectiveBroadcast(const exec::CollectiveCall& call,
                                                     exec::Tensor input) override;
  void deviceDone(int64_t device, bool failed) override;

  /// Number of MPI communicators created so far (one per distinct set of ranks).
  size_t cachedCommunicators() const { return m_comms.size(); }

  /// A tensor of `elements` elements of `element` for receiving into: a buffer kept from an
  /// earlier collective when there is one (its contents are stale), else a new one. Fresh large
  /// allocations cost page faults that would dominate a collective's time.
  exec::Tensor takeScratch(ir::ElementType element, int64_t elements);
  /// Returns a buffer from `takeScratch` for reuse (a few per size are kept).
  void giveScratch(exec::Tensor tensor);

  /// Operands indexed by group position, then operand.
  using Buffers = std::vector<std::vector<exec::Tensor>>;
  struct Group;
  /// Computes the outputs of the local members (indexed by group position; other positions may
  /// stay empty) from the local members' inputs.
  using Compute = std::function<exec::CommResult<Buffers>(Group& group, Buffers& inputs)>;
  /// A data message a collective sends before the header exchange completes.
  struct EarlySend {
    int peer = 0; // communicator rank
    int tag = 0;
    const uint8_t* data = nullptr;
    int bytes = 0;
  };
  /// The messages this rank's part of a collective would send first if every member agrees,
  /// judged from the local inputs only (see `exchangeHeader` in the .cpp).
  using Plan = std::function<std::vector<EarlySend>(Group& group, Buffers& inputs)>;

private:
  struct Rendezvous;
  exec::CommResult<std::vector<exec::Tensor>> run(const exec::CollectiveCall& call,
                                                  const std::string& primitive,
                                                  std::vector<exec::Tensor> inputs,
                                                  const Compute& compute, const Plan& plan = {});
  MPI_Comm commFor(const std::vector<int>& ranks);

  MpiWorld& m_world;
  DevicePlacement m_placement;
  std::mutex m_mutex;
  std::condition_variable m_cv;
  std::map<std::vector<int64_t>, std::shared_ptr<Rendezvous>> m_open;
  std::map<std::vector<int>, MPI_Comm> m_comms;
  std::mutex m_scratchMutex;
  std::map<std::pair<ir::ElementType, int64_t>, std::vector<exec::Tensor>> m_scratch;
};

} // namespace shardscope::backends::mpi
