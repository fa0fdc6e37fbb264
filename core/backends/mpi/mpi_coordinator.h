#pragma once

#include "core/backends/mpi/mpi_communicator.h"
#include "core/backends/mpi/mpi_world.h"
#include "core/exec/spmd_executor.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace shardscope::backends::mpi {

/// Options of a distributed run.
struct MpiRunOptions {
  /// Devices per rank; 0 divides the mesh evenly over the ranks.
  int64_t devicesPerRank = 0;
  /// Testing the fault paths: rank `crashRank` kills itself (SIGKILL) when it begins step
  /// `crashStep`; rank `failRank` throws an exception there (the error path).
  int crashRank = -1;
  int64_t crashStep = -1;
  int failRank = -1;
  int64_t failStep = -1;
  /// Rank `hangRank` stops talking (sleeps, alive) at step `hangStep`: the others' deadlines.
  int hangRank = -1;
  int64_t hangStep = -1;
};

/// The `exec::SpmdCoordinator` of one MPI rank. Rank 0 drives: its session decides every step
/// and sends the followers a control message per step; the followers (`follow`) step their
/// devices when told and answer value fetches. The control protocol (tag
/// `MpiWorld::kControlTag` on the control communicator, driver to follower):
///
/// | message              | to             | follower does                                   |
/// |----------------------|----------------|-------------------------------------------------|
/// | `Step`               | every follower | `SpmdExecutor::stepAll` (two exchanges inside)  |
/// | `FetchValue d v`     | owner of `d`   | replies (`kReplyTag`) with value `v` of `d`     |
/// | `FetchResults d`     | owner of `d`   | replies with the results of `d`                 |
/// | `End`                | every follower | `follow` returns (the driver's run is over)     |
///
/// Between runs (`serve`), `sendSession`/`receiveSession` carry what to run next, or `Quit`.
class MpiCoordinator final : public exec::SpmdCoordinator {
public:
  /// Creates this rank's coordinator for `numDevices` devices. Collective over all ranks: first
  /// every rank's hashes of `fingerprint` (what, content) and of the placement options are
  /// compared, so that a rank that loaded another program, stage, function or inputs fails on
  /// every rank with the same message (`rank 1 loaded a different program than rank 0 (hash
  /// ...)`); then the devices are placed. Returns null with `error`; `failedTogether()` then
  /// tells whether every rank failed the same way (else the caller must `MpiWorld::fail`).
  static std::unique_ptr<MpiCoordinator>
  create(MpiWorld& world, int64_t numDevices, const MpiRunOptions& options,
         const std::vector<std::pair<std::string, std::string>>& fingerprint, std::string& error);
  /// True when the last `create` failed on every rank alike.
  static bool failedTogether();

  /// The driver ends the followers' `follow`.
  ~MpiCoordinator() override;

  const DevicePlacement& placement() const { return m_comm.placement(); }
  /// The device -> rank map, one line per rank with the rank's host
  /// (`  rank 1 on node-b: devices 2-3 (local index 0-1)`).
  std::string deviceMap() const;

  exec::Communicator& communicator() override { return m_comm; }
  bool isLocal(int64_t device) const override { return m_comm.isLocal(device); }
  bool isDriver() const override { return m_world.rank() == 0; }
  void beginStep() override;
  std::vector<exec::DeviceSnapshot> exchange(std::vector<exec::DeviceSnapshot> local) override;
  std::optional<exec::Tensor> fetchValue(int64_t device, int64_t value) override;
  std::vector<exec::Tensor> fetchResults(int64_t device) override;
  bool follow(exec::SpmdExecutor& executor) override;

  /// Driver: tells every follower what to run next (`payload`), or to quit (nothing).
  static void sendSession(MpiWorld& world, const std::optional<std::string>& payload);
  /// Follower: waits (without deadline, watching for aborts) for the next session, or nothing
  /// when the driver quits.
  static std::optional<std::string> receiveSession(MpiWorld& world);

private:
  MpiCoordinator(MpiWorld& world, DevicePlacement placement, MpiRunOptions options,
                 std::vector<std::string> hosts);
  void sendControl(int dest, uint8_t kind, int64_t a, int64_t b);

  MpiWorld& m_world;
  MpiCommunicator m_comm;
  MpiRunOptions m_options;
  std::vector<std::string> m_hosts; ///< by rank
  MPI_Comm m_exchangeComm = MPI_COMM_NULL;
  int64_t m_steps = 0;
};

} // namespace shardscope::backends::mpi
