#include "core/backends/mpi/mpi_world.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include "core/exec/tensor.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sched.h>
#include <optional>
#include <thread>
#include <unistd.h>

namespace shardscope::backends::mpi {

namespace {

MpiWorld* g_world = nullptr;
MpiWorld::MessageWriter g_writer = nullptr;
char g_termMessage[256];
size_t g_termLength = 0;

void onTerminate(int) {
  // mpirun terminates the remaining ranks when one dies; say so instead of vanishing.
  ssize_t ignored = write(STDERR_FILENO, g_termMessage, g_termLength);
  (void)ignored;
  _exit(1);
}

// Polling schedule. MPI moves large messages only while some call drives its progress engine
// (each MPI_Test advances the transfer), so a wait that sleeps between polls would stretch a
// transfer by orders of magnitude. For the first second a wait polls continuously — yielding
// the core between polls only when this node runs more ranks than it has cores (yielding on a
// busy machine can cost a whole scheduler time slice per poll) — and after that it polls in
// bursts of 64 with a 200 us sleep between bursts, so that a long wait for a slow peer costs
// little CPU yet a transfer that starts late still progresses quickly.
bool g_yield = false;

void pause(int64_t iteration, std::chrono::steady_clock::time_point start) {
  if (std::chrono::steady_clock::now() - start < std::chrono::seconds(1) || iteration % 64 != 0) {
    if (g_yield)
      sched_yield();
  } else {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

void writeMessage(const std::string& line) {
  if (g_writer)
    g_writer(line);
}

} // namespace

void MpiWorld::setMessageWriter(MessageWriter writer) { g_writer = writer; }

MpiWorld& MpiWorld::init(const std::string& program) {
  if (g_world)
    return *g_world;
  g_world = new MpiWorld();
  g_world->m_program = program;
  int initialized = 0;
  MPI_Initialized(&initialized);
  exec::retainFreedTensorMemory();
  if (!initialized) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_SERIALIZED) {
      writeMessage(program + ": error: MPI provides thread level " + std::to_string(provided) +
                   ", the MPI backend needs MPI_THREAD_SERIALIZED\n");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &g_world->m_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_world->m_size);
  MPI_Comm_dup(MPI_COMM_WORLD, &g_world->m_control);
  MPI_Comm node;
  int nodeRanks = 1;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &nodeRanks);
  MPI_Comm_free(&node);
  g_yield = nodeRanks > static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (const char* env = std::getenv("SHARDSCOPE_MPI_TIMEOUT"); env && std::atof(env) > 0)
    g_world->m_timeout = std::chrono::milliseconds(static_cast<int64_t>(std::atof(env) * 1000));
  g_termLength = static_cast<size_t>(std::snprintf(
      g_termMessage, sizeof g_termMessage,
      "%s: rank %d: error: terminated by the MPI launcher (another rank failed or was killed)\n",
      program.c_str(), g_world->m_rank));
  g_termLength = std::min(g_termLength, sizeof g_termMessage - 1);
  std::signal(SIGTERM, onTerminate);
  return *g_world;
}

bool MpiWorld::active() { return g_world && !g_world->m_finalized; }

void MpiWorld::checkAbort() {
  int flag = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, kAbortTag, m_control, &flag, &status);
  if (!flag)
    return;
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string message(static_cast<size_t>(count), '\0');
  MPI_Recv(message.data(), count, MPI_CHAR, status.MPI_SOURCE, kAbortTag, m_control,
           MPI_STATUS_IGNORE);
  writeMessage(m_program + ": rank " + std::to_string(m_rank) + ": error: rank " +
               std::to_string(status.MPI_SOURCE) + " failed: " + message + "\n");
  // The failing rank ends the job with MPI_Abort; leaving now keeps this rank from waiting on
  // it. (No MPI_Finalize: it would wait for the failed rank.)
  _exit(1);
}

void MpiWorld::answerProbes(const std::string& what) {
  // Matched probes: several member threads may poll at once without taking each other's message.
  while (true) {
    int flag = 0;
    MPI_Message message;
    MPI_Status status;
    MPI_Improbe(MPI_ANY_SOURCE, kProbeTag, m_control, &flag, &message, &status);
    if (!flag)
      return;
    char ping = 0;
    MPI_Mrecv(&ping, 1, MPI_CHAR, &message, MPI_STATUS_IGNORE);
    std::lock_guard<std::mutex> lock(m_probeMutex);
    // The answer's buffer must outlive the send, which is never waited for: the job ends soon.
    const std::string& answer = m_probeAnswers.emplace_back(what);
    MPI_Request request;
    MPI_Isend(answer.data(), static_cast<int>(answer.size()), MPI_CHAR, status.MPI_SOURCE,
              kProbeReplyTag, m_control, &request);
    MPI_Request_free(&request);
  }
}

std::string MpiWorld::describeOtherRanks(const std::string& what) {
  if (m_size <= 1)
    return "";
  static const char ping = 0;
  for (int r = 0; r < m_size; ++r) {
    if (r == m_rank)
      continue;
    MPI_Request request;
    MPI_Isend(&ping, 1, MPI_CHAR, r, kProbeTag, m_control, &request);
    MPI_Request_free(&request);
  }
  std::vector<std::optional<std::string>> answers(static_cast<size_t>(m_size));
  int answered = 0;
  auto start = std::chrono::steady_clock::now();
  while (answered < m_size - 1 && std::chrono::steady_clock::now() - start < kProbeGrace) {
    checkAbort();
    answerProbes(what); // another rank that timed out asks this one too
    int flag = 0;
    MPI_Message message;
    MPI_Status status;
    MPI_Improbe(MPI_ANY_SOURCE, kProbeReplyTag, m_control, &flag, &message, &status);
    if (!flag) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    int count = 0;
    MPI_Get_count(&status, MPI_CHAR, &count);
    std::string text(static_cast<size_t>(count), '\0');
    MPI_Mrecv(text.data(), count, MPI_CHAR, &message, MPI_STATUS_IGNORE);
    if (!answers[static_cast<size_t>(status.MPI_SOURCE)])
      ++answered;
    answers[static_cast<size_t>(status.MPI_SOURCE)] = std::move(text);
  }
  std::string silent, waiting;
  for (int r = 0; r < m_size; ++r) {
    if (r == m_rank)
      continue;
    const std::optional<std::string>& answer = answers[static_cast<size_t>(r)];
    if (!answer)
      silent += (silent.empty() ? "" : ", ") + std::to_string(r);
    else if (*answer != what)
      waiting += "; rank " + std::to_string(r) + " waits in " + *answer;
  }
  std::string out;
  if (!silent.empty())
    out += "; rank" + std::string(silent.find(',') == std::string::npos ? " " : "s ") + silent +
           " did not answer within " + std::to_string(kProbeGrace.count()) +
           " ms (stuck outside MPI or still computing)";
  return out + waiting;
}

void MpiWorld::waitAll(std::vector<MPI_Request>& requests, const std::string& what,
                       bool deadline) {
  auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0;; ++i) {
    int done = 0;
    MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE);
    if (done)
      return;
    if (i % 16 == 0) {
      checkAbort();
      answerProbes(what);
      if (deadline && std::chrono::steady_clock::now() - start > m_timeout)
        fail("timed out after " + std::to_string(m_timeout.count() / 1000.0).substr(0, 5) +
             " s waiting for other ranks in " + what + describeOtherRanks(what));
    }
    pause(i, start);
  }
}

std::vector<uint8_t> MpiWorld::receive(int source, int tag, const std::string& what,
                                       bool deadline) {
  auto start = std::chrono::steady_clock::now();
  MPI_Status status;
  for (int64_t i = 0;; ++i) {
    int flag = 0;
    MPI_Iprobe(source, tag, m_control, &flag, &status);
    if (flag)
      break;
    checkAbort();
    answerProbes(what);
    if (deadline && std::chrono::steady_clock::now() - start > m_timeout)
      fail("timed out after " + std::to_string(m_timeout.count() / 1000) + " s waiting for rank " +
           std::to_string(source) + " in " + what + describeOtherRanks(what));
    pause(i, start);
  }
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  std::vector<uint8_t> bytes(static_cast<size_t>(count));
  MPI_Recv(bytes.data(), count, MPI_BYTE, source, tag, m_control, MPI_STATUS_IGNORE);
  return bytes;
}

void MpiWorld::send(int dest, int tag, const std::vector<uint8_t>& bytes, const std::string& what) {
  std::vector<MPI_Request> request(1);
  MPI_Isend(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, dest, tag, m_control,
            &request[0]);
  waitAll(request, what);
}

void MpiWorld::fail(const std::string& message) {
  writeMessage(m_program + ": rank " + std::to_string(m_rank) + ": error: " + message + "\n");
  std::vector<MPI_Request> notes;
  for (int r = 0; r < m_size; ++r) {
    if (r == m_rank)
      continue;
    notes.emplace_back();
    MPI_Isend(message.data(), static_cast<int>(message.size()), MPI_CHAR, r, kAbortTag,
              m_control, &notes.back());
  }
  // Give the notes time to leave (small messages go eagerly) and the other ranks time to print
  // them; then end the job whatever the others do.
  auto start = std::chrono::steady_clock::now();
  int done = 0;
  while (!done && std::chrono::steady_clock::now() - start < kAbortGrace) {
    MPI_Testall(static_cast<int>(notes.size()), notes.data(), &done, MPI_STATUSES_IGNORE);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::signal(SIGTERM, SIG_DFL);
  MPI_Abort(MPI_COMM_WORLD, 1);
  _exit(1);
}

void MpiWorld::finalize() {
  if (m_finalized)
    return;
  m_finalized = true;
  std::fflush(stdout);
  MPI_Comm_free(&m_control);
  MPI_Finalize();
}

} // namespace shardscope::backends::mpi
