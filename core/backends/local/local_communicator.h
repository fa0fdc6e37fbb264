#pragma once

#include "core/exec/backend_registry.h"
#include "core/exec/communicator.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace shardscope::backends::local {

/// Options of `LocalCommunicator`.
struct LocalOptions {
  /// Last-resort bound on one wait inside a collective. Mismatches and deadlocks are detected
  /// without it (see `LocalCommunicator`); it only catches a device thread that stops calling
  /// for a reason the communicator cannot see. Zero waits forever.
  std::chrono::milliseconds timeout{std::chrono::minutes(2)};
};

/// The in-process backend: N simulated devices, each calling from its own thread, meeting in
/// shared memory. It starts no threads itself; callers (`exec::SpmdExecutor`, tests, benchmarks)
/// run one thread per device.
///
/// Each collective is a rendezvous keyed by its exact device group: the first member to arrive
/// opens it, every member deposits its input, and the last to arrive plans the work and wakes
/// enough others that, with itself, one member per hardware thread works; these member threads
/// then copy or reduce the
/// outputs in parallel, chunk by chunk (disjoint element ranges; reductions still in ascending
/// device order per element, see `exec::Reduction`, so results do not depend on the split), and
/// every member returns once all chunks are done.
/// A member that arrives with another op name or primitive than the members already waiting
/// fails the rendezvous for all of them, naming the devices and ops. The communicator tracks
/// each device (running, waiting, done): a member of a group with a done device fails at once,
/// and when no device is running and some wait (groups that disagree, a device that finished
/// early) every waiter fails with a message naming the devices and ops. Thread-safe.
class LocalCommunicator final : public exec::Communicator {
public:
  explicit LocalCommunicator(int64_t numDevices, LocalOptions options = {});
  ~LocalCommunicator() override;

  int64_t numDevices() const override { return m_numDevices; }
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

  /// Makes every device runnable again (after a failed run), so the communicator can be reused.
  void reset();

  struct Rendezvous;
  /// Tensors indexed by group position, then operand.
  using Buffers = std::vector<std::vector<exec::Tensor>>;
  /// What a collective does once every member has arrived: every member's `outputs`, plus
  /// `numChunks` independent pieces of work that fill them in. Members run chunks (any member
  /// any chunk, each exactly once; as many members at once as there are hardware threads) until
  /// none is left, and no member takes its output before all chunks are done. Chunks must write disjoint bytes, and
  /// each chunk's result must not depend on which thread runs it, so results stay
  /// deterministic. `runChunk(inputs, outputs, c)` may read the inputs and write disjoint bytes
  /// of them (as scratch space).
  struct Plan {
    Buffers outputs;
    size_t numChunks = 0;
    std::function<void(Buffers& inputs, Buffers& outputs, size_t chunk)> runChunk;
  };
  /// Plans a collective from every member's inputs (indexed by group position). It runs once, on
  /// the last member to arrive, and may move the input buffers into the outputs (nobody else
  /// reads them); chunks then see what is left of the inputs.
  using Compute = std::function<exec::CommResult<Plan>(Buffers& inputs)>;

private:
  exec::CommResult<std::vector<exec::Tensor>> exchange(const exec::CollectiveCall& call,
                                                       std::string primitive,
                                                       std::vector<exec::Tensor> inputs,
                                                       const Compute& compute);
  std::optional<std::string> validateCall(const exec::CollectiveCall& call) const;
  std::optional<std::string> failIfMemberDoneLocked(const exec::CollectiveCall& call);
  void startLocked(std::unique_lock<std::mutex>& lock, Rendezvous& r, int64_t device,
                   const Compute& compute);
  void wakeLocked(const Rendezvous& r);
  void runChunks(Rendezvous& r);
  void waitLocked(std::unique_lock<std::mutex>& lock, const std::shared_ptr<Rendezvous>& r,
                  int64_t device);
  void failStalledLocked();
  void failRendezvousLocked(Rendezvous& r, const std::string& message);

  enum class State { Running, Waiting, Finished, Failed };
  int64_t m_numDevices;
  LocalOptions m_options;
  std::mutex m_mutex;
  size_t m_cores; // hardware threads: how many members work on a collective's chunks at once
  std::vector<std::condition_variable> m_wake; // per device: each device thread waits on its own
  std::vector<State> m_states;
  std::vector<std::shared_ptr<Rendezvous>> m_waitingIn; // per device, while Waiting
  std::map<std::vector<int64_t>, std::shared_ptr<Rendezvous>> m_open;
};

/// A factory of `LocalCommunicator`s with `options` (for `interpreter.run_parallel` and
/// `exec::BackendRegistry`).
exec::CommunicatorFactory localCommunicatorFactory(LocalOptions options = {});

/// Registers this backend as `local` in `registry`.
void registerLocalBackend(exec::BackendRegistry& registry);

} // namespace shardscope::backends::local
