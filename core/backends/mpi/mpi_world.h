#pragma once

// The MPI process this ShardScope rank runs in: initialisation, deadlines on every wait, the
// abort path that ends every rank when one fails, and the driver -> follower control channel.

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace shardscope::backends::mpi {

/// One per process. `MpiWorld::init` initialises MPI (requesting `MPI_THREAD_MULTIPLE`; the
/// backend needs at least `MPI_THREAD_SERIALIZED` because collectives run on the executor's
/// member threads, one at a time), duplicates `MPI_COMM_WORLD` for control messages and installs
/// a SIGTERM handler that prints a clear message (mpirun sends SIGTERM to every rank when one
/// dies).
///
/// Messages: the world prints nothing itself. Each message (an error that ends the process) is
/// one complete line, `\n` included, handed to the writer the front end installs with
/// `setMessageWriter` (the CLI writes it to stderr). The SIGTERM message is the exception: a
/// signal handler may only call async-signal-safe functions, so it is written with `write(2)` to
/// standard error.
///
/// Faults: every wait on other ranks goes through `waitAll`/`receive`, which poll with
/// `MPI_Test`/`MPI_Iprobe` and watch for abort notes; a wait on a collective or an exchange fails
/// after `timeout()` (default 120 s, `SHARDSCOPE_MPI_TIMEOUT` seconds or `setTimeout`). `fail`
/// prints the error, sends an abort note to every other rank (each prints `rank R failed: ...`
/// and exits within one polling interval, about 1 ms, once it next waits), waits at most
/// `kAbortGrace` for the notes to leave and ends the job with `MPI_Abort` as the last resort.
class MpiWorld {
public:
  /// Initialises MPI on first use and returns the process-wide world. `argv0` names the program in
  /// messages (`shardscope-cli`).
  static MpiWorld& init(const std::string& program = "shardscope-cli");
  /// True once `init` ran (and `finalize` did not).
  static bool active();

  int rank() const { return m_rank; }
  int size() const { return m_size; }
  /// The communicator for control messages and abort notes (a duplicate of MPI_COMM_WORLD).
  MPI_Comm control() const { return m_control; }

  std::chrono::milliseconds timeout() const { return m_timeout; }
  void setTimeout(std::chrono::milliseconds timeout) { m_timeout = timeout; }

  /// Waits until every request completes, watching for abort notes. With `deadline`, failing
  /// (through `fail`) after `timeout()` with a message naming `what`; without, waiting as long as
  /// no rank fails (a follower waiting for its driver).
  void waitAll(std::vector<MPI_Request>& requests, const std::string& what, bool deadline = true);
  /// Receives the next message with `tag` from rank `source` on the control communicator.
  std::vector<uint8_t> receive(int source, int tag, const std::string& what, bool deadline);
  /// Sends `bytes` with `tag` to rank `dest` on the control communicator and waits for the send.
  void send(int dest, int tag, const std::vector<uint8_t>& bytes, const std::string& what);

  /// Receives one message line of the world. It runs just before the process ends (`fail`,
  /// `checkAbort`, a failed `init`), so it must write synchronously (and flush what must not be
  /// lost, such as standard output).
  using MessageWriter = void (*)(const std::string& line);
  /// Sets where the world's messages go, for every later message (set it before `init`). Without
  /// a writer the messages are dropped.
  static void setMessageWriter(MessageWriter writer);

  /// Ends the job because this rank failed: writes `PROGRAM: rank R: error: MESSAGE` to the
  /// message writer, notifies every other rank, then calls `MPI_Abort`. Never returns.
  [[noreturn]] void fail(const std::string& message);
  /// Exits at once (status 1) when another rank sent an abort note, after writing
  /// `PROGRAM: rank R: error: rank S failed: MESSAGE` to the message writer.
  void checkAbort();
  /// Answers the "where are you" probes of ranks that timed out, with `what` this rank waits for.
  /// Every wait calls it while it polls, so a rank that does not answer is not waiting on MPI.
  void answerProbes(const std::string& what);
  /// After a timeout in `what`: asks every other rank what it waits for (answers within
  /// `kProbeGrace`) and returns a text naming the ranks that did not answer (stuck outside MPI,
  /// or computing) and what the others wait for; empty with a single rank.
  std::string describeOtherRanks(const std::string& what);

  /// Finalizes MPI (idempotent). Call after every rank finished talking.
  void finalize();

  static constexpr int kAbortTag = 9001;
  static constexpr int kControlTag = 9002;
  static constexpr int kReplyTag = 9003;
  static constexpr int kProbeTag = 9004;
  static constexpr int kProbeReplyTag = 9005;
  static constexpr std::chrono::milliseconds kAbortGrace{1500};
  static constexpr std::chrono::milliseconds kProbeGrace{1000};

private:
  MpiWorld() = default;
  std::string m_program;
  int m_rank = 0;
  int m_size = 1;
  MPI_Comm m_control = MPI_COMM_NULL;
  std::chrono::milliseconds m_timeout{std::chrono::seconds(120)};
  bool m_finalized = false;
  std::mutex m_probeMutex;
  std::list<std::string> m_probeAnswers; ///< buffers of answers in flight (never many)
};

} // namespace shardscope::backends::mpi
