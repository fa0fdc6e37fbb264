#pragma once

// The one interface through which the interpreter does cross-device communication. The local
// backend (`core/backends/local`) simulates N devices with threads and shared memory; an MPI
// backend maps the same calls onto ranks. Nothing in `core/exec` knows which one it talks to.

#include "core/exec/tensor.h"
#include "core/support/diagnostic.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace shardscope::exec {

/// Identifies one collective call so that devices reaching different collectives are detected:
/// the op name (`stablehlo.all_reduce`), its source location and a short printable location
/// (`f.mlir:12:8`) for messages. Two calls match when `opName` and the group agree; the
/// location is for messages only, because `run_parallel` runs different functions (different
/// ops) on different devices that must still meet.
struct CollectiveId {
  std::string opName;
  support::SourceLocation loc;
  std::string where;
};

/// The calling side of one collective: which device calls, which collective, and the ordered
/// device group it communicates with. `group` lists global device ids (`partition + replica *
/// numPartitions` for StableHLO programs), contains `device`, and must be identical on every
/// member: a member that passes a different group is a mismatch.
struct CollectiveCall {
  int64_t device = 0;
  CollectiveId id;
  std::vector<int64_t> group;
};

/// The reduction of `allReduce`/`reduceScatter`. `kind` names the single-op bodies a backend may
/// recognise; `combine` is always set and combines two operand lists elementwise (`lhs[i]` with
/// `rhs[i]`, same types), returning nothing after reporting its own error.
///
/// Reduction order (every backend must follow it so that results agree bit for bit): the
/// contributions are combined left to right in ascending device-id order within the group,
/// `((x_d0 op x_d1) op x_d2) ...` with `d0 < d1 < d2 ...`, and every member receives the same
/// bytes.
struct Reduction {
  enum class Kind { Custom, Add, Multiply, Maximum, Minimum, And, Or };
  Kind kind = Kind::Custom;
  std::function<std::optional<std::vector<Tensor>>(const std::vector<Tensor>& lhs,
                                                   const std::vector<Tensor>& rhs)>
      combine;
};

// Message pieces every backend and the executor use, so that errors read the same everywhere.

/// Names devices: `device 3`, `devices 0,1`, `devices 0-3,6` (sorted; runs of three or more are
/// written as ranges).
std::string deviceListText(std::vector<int64_t> ids);
/// A device group in its order: `[0, 1, 2]`.
std::string deviceGroupText(const std::vector<int64_t>& ids);
/// An op for messages: `'stablehlo.all_reduce' at f.mlir:3:3` (without ` at` when `where` is empty).
std::string opText(const std::string& name, const std::string& where);

/// Checks that every member of a collective passes what the first member passes: `members[i][k]`
/// is member `i`'s operand `k`, anything with a `type()` that returns an `ir::Type` (a `Tensor`,
/// or a backend's description of one). Returns nothing when the counts and types agree, else the
/// message `members pass different operand counts` or `members pass different operand types: A
/// and B` (the first member's type, then the differing one).
template <typename T>
std::optional<std::string> differingOperandTypes(const std::vector<std::vector<T>>& members) {
  for (size_t i = 1; i < members.size(); ++i) {
    if (members[i].size() != members[0].size())
      return "members pass different operand counts";
    for (size_t k = 0; k < members[i].size(); ++k)
      if (members[i][k].type() != members[0][k].type())
        return "members pass different operand types: " + members[0][k].type().str() + " and " +
               members[i][k].type().str();
  }
  return std::nullopt;
}

/// Returns the reduction of `kind` (not `Custom`) for any supported element type, computed like
/// the interpreter's kernels: floats in double rounded once per combination, integers wrapping,
/// `And`/`Or` bitwise (logical for `i1`).
Reduction builtinReduction(Reduction::Kind kind);

/// Combines `rhs` into `acc` elementwise in place with builtin `kind` (not `Custom`), with the
/// same results as `builtinReduction(kind).combine`. Backends use it to reduce without
/// allocating. Precondition: same element type and shape.
void reduceInto(Reduction::Kind kind, Tensor& acc, const Tensor& rhs);

/// Like `reduceInto`, but combines only the elements `[begin, end)` (flat row-major indices) and
/// leaves the others alone. Calls on disjoint ranges of the same tensors may run concurrently on
/// different threads, which is how a backend parallelises one reduction without changing a bit
/// of its result. Precondition: as `reduceInto`, and `0 <= begin <= end <= acc.numElements()`.
void reduceInto(Reduction::Kind kind, Tensor& acc, const Tensor& rhs, int64_t begin, int64_t end);

/// Combines every tensor of `rhs` into `acc` in order, `(((acc op rhs[0]) op rhs[1]) ...)`, over
/// the elements `[begin, end)`: the same bytes as calling the range `reduceInto` once per
/// contribution, but reading and writing `acc` once per four contributions. Precondition: as the
/// range `reduceInto` for each `rhs[j]`, and no `rhs[j]` is `acc`.
void reduceInto(Reduction::Kind kind, Tensor& acc, std::span<const Tensor* const> rhs,
                int64_t begin, int64_t end);

/// The outcome of a collective: the received tensors, or an error message (already naming the
/// devices involved, without location: the caller reports it at its op).
template <typename T> class CommResult {
public:
  CommResult(T value) : m_value(std::move(value)) {}
  /// An error outcome with `message`.
  static CommResult failure(std::string message) {
    CommResult r;
    r.m_error = std::move(message);
    return r;
  }
  bool ok() const { return m_value.has_value(); }
  explicit operator bool() const { return ok(); }
  T& value() { return *m_value; }
  T& operator*() { return *m_value; }
  T* operator->() { return &*m_value; }
  const std::string& error() const { return m_error; }

private:
  CommResult() = default;
  std::optional<T> m_value;
  std::string m_error;
};

/// Collective primitives over explicit device groups. Every member of a group calls the same
/// primitive with the same `CollectiveId` name and `group`, each from its own thread (or rank);
/// the call blocks until the group completes and returns this device's result. Calls never hang
/// forever: a mismatch (different collectives, disagreeing groups, a member that finished or
/// failed) makes every waiting member return an error naming the devices.
///
/// Group order matters where the StableHLO spec says so (all_gather concatenates, reduce_scatter
/// and all_to_all split in group order); reductions always run in ascending device order (see
/// `Reduction`).
class Communicator {
public:
  virtual ~Communicator() = default;

  /// Number of devices this communicator connects (device ids are 0 .. numDevices()-1).
  virtual int64_t numDevices() const = 0;

  /// Every member receives the reduction of all members' `inputs` (same types on all members).
  virtual CommResult<std::vector<Tensor>> allReduce(const CollectiveCall& call,
                                                    std::vector<Tensor> inputs,
                                                    const Reduction& reduction) = 0;
  /// Every member receives the members' `input`s concatenated along `dim` in group order.
  virtual CommResult<Tensor> allGather(const CollectiveCall& call, Tensor input, int64_t dim) = 0;
  /// The inputs are reduced (as `allReduce`), split into `group.size()` equal parts along `dim`,
  /// and the member at group position `i` receives part `i`. Precondition: the size of `dim` is
  /// divisible by the group size.
  virtual CommResult<Tensor> reduceScatter(const CollectiveCall& call, Tensor input, int64_t dim,
                                           const Reduction& reduction) = 0;
  /// Each member splits `input` into `group.size()` parts along `splitDim`, sends part `j` to the
  /// member at group position `j`, and concatenates what it receives along `concatDim` in group
  /// order.
  virtual CommResult<Tensor> allToAll(const CollectiveCall& call, Tensor input, int64_t splitDim,
                                      int64_t concatDim) = 0;
  /// `pairs` are (source, target) device ids, all inside `group`; each target receives its
  /// source's `input`; a member that is no target receives zeros of `input`'s type. Every member
  /// passes the same `pairs`.
  virtual CommResult<Tensor> collectivePermute(const CollectiveCall& call, Tensor input,
                                               const std::vector<std::pair<int64_t, int64_t>>& pairs) = 0;
  /// Every member receives the `input` of the group's first member (`group[0]`).
  virtual CommResult<Tensor> collectiveBroadcast(const CollectiveCall& call, Tensor input) = 0;

  /// Tells the communicator that `device` will make no further calls (its program finished, or
  /// `failed` after an error). Members waiting for it then fail instead of waiting forever.
  virtual void deviceDone(int64_t device, bool failed) = 0;
};

} // namespace shardscope::exec
