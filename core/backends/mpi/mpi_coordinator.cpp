#include "core/backends/mpi/mpi_coordinator.h"

#include "core/backends/mpi/detail/wire.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace shardscope::backends::mpi {

namespace {

enum Kind : uint8_t {
  Step = 1,
  FetchValue = 2,
  FetchResults = 3,
  End = 4,
  Session = 10,
  Quit = 11
};

bool g_failedTogether = false;

std::string hex(uint64_t h) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(h));
  return buffer;
}

std::string mismatchPhrase(const std::string& what) {
  if (what == "program")
    return "loaded a different program than";
  if (what == "inputs")
    return "has different inputs than";
  if (what == "placement")
    return "was started with other --devices-per-rank or debug options than";
  return "runs a different " + what + " than";
}

std::string range(int64_t first, int64_t last) {
  if (first == last)
    return "device " + std::to_string(first);
  return "devices " + std::to_string(first) + "-" + std::to_string(last);
}

// Every rank's host (`MPI_Get_processor_name`), indexed by rank. Collective over the world.
std::vector<std::string> gatherHostNames(MpiWorld& world) {
  char mine[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(mine, &length);
  std::vector<char> all(static_cast<size_t>(MPI_MAX_PROCESSOR_NAME) *
                        static_cast<size_t>(world.size()));
  std::vector<MPI_Request> request(1);
  MPI_Iallgather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME,
                 MPI_CHAR, world.control(), &request[0]);
  world.waitAll(request, "gathering the host name of every rank");
  std::vector<std::string> hosts;
  for (int r = 0; r < world.size(); ++r) {
    const char* name = all.data() + static_cast<size_t>(r) * MPI_MAX_PROCESSOR_NAME;
    hosts.emplace_back(name, strnlen(name, MPI_MAX_PROCESSOR_NAME));
  }
  return hosts;
}

} // namespace

bool MpiCoordinator::failedTogether() { return g_failedTogether; }

std::unique_ptr<MpiCoordinator>
MpiCoordinator::create(MpiWorld& world, int64_t numDevices, const MpiRunOptions& options,
                       const std::vector<std::pair<std::string, std::string>>& fingerprint,
                       std::string& error) {
  g_failedTogether = false;
  std::vector<std::pair<std::string, std::string>> parts = fingerprint;
  parts.push_back(
      {"placement", std::to_string(numDevices) + "/" + std::to_string(options.devicesPerRank) +
                        "/" + std::to_string(options.crashRank) + ":" +
                        std::to_string(options.crashStep) + "/" + std::to_string(options.failRank) +
                        ":" + std::to_string(options.failStep) + "/" +
                        std::to_string(options.hangRank) + ":" + std::to_string(options.hangStep)});
  std::vector<uint64_t> mine;
  for (const auto& [what, content] : parts)
    mine.push_back(detail::fnv1a(what + '\0' + content));
  int n = static_cast<int>(mine.size());
  std::vector<uint64_t> all(mine.size() * static_cast<size_t>(world.size()));
  std::vector<MPI_Request> request(1);
  MPI_Iallgather(mine.data(), n, MPI_UINT64_T, all.data(), n, MPI_UINT64_T, world.control(),
                 &request[0]);
  world.waitAll(request, "the start-up check that every rank runs the same program");
  for (int r = 1; r < world.size(); ++r)
    for (int i = 0; i < n; ++i) {
      uint64_t theirs = all[static_cast<size_t>(r * n + i)];
      uint64_t first = all[static_cast<size_t>(i)];
      if (theirs != first)
        error += std::string(error.empty() ? "" : "; ") + "rank " + std::to_string(r) + " " +
                 mismatchPhrase(parts[i].first) + " rank 0 (hash " + hex(theirs) +
                 ", rank 0: " + hex(first) + ")";
    }
  if (!error.empty()) {
    g_failedTogether = true;
    return nullptr;
  }
  std::optional<DevicePlacement> placement =
      DevicePlacement::create(numDevices, world.size(), options.devicesPerRank, error);
  if (!placement) {
    g_failedTogether = true; // every rank computed the same from the same inputs
    return nullptr;
  }
  std::vector<std::string> hosts = gatherHostNames(world);
  return std::unique_ptr<MpiCoordinator>(
      new MpiCoordinator(world, *placement, options, std::move(hosts)));
}

MpiCoordinator::MpiCoordinator(MpiWorld& world, DevicePlacement placement, MpiRunOptions options,
                               std::vector<std::string> hosts)
    : m_world(world), m_comm(world, placement), m_options(options), m_hosts(std::move(hosts)) {
  MPI_Comm_dup(world.control(), &m_exchangeComm);
}

MpiCoordinator::~MpiCoordinator() {
  if (!MpiWorld::active())
    return;
  if (isDriver())
    for (int r = 1; r < m_world.size(); ++r)
      sendControl(r, End, 0, 0);
  MPI_Comm_free(&m_exchangeComm);
}

std::string MpiCoordinator::deviceMap() const {
  const DevicePlacement& p = placement();
  std::string out;
  for (int r = 0; r < m_world.size(); ++r) {
    int64_t first = r * p.devicesPerRank;
    int64_t last = std::min(p.numDevices, first + p.devicesPerRank) - 1;
    out += "  rank " + std::to_string(r) + " on " + m_hosts[static_cast<size_t>(r)] + ": " +
           (first > last ? std::string("no devices")
                         : range(first, last) + " (local index " +
                               (first == last ? "0" : "0-" + std::to_string(last - first)) + ")") +
           "\n";
  }
  return out;
}

void MpiCoordinator::sendControl(int dest, uint8_t kind, int64_t a, int64_t b) {
  detail::Writer w;
  w.pod(kind);
  w.pod(a);
  w.pod(b);
  m_world.send(dest, MpiWorld::kControlTag, w.bytes(), "sending a control message");
}

void MpiCoordinator::beginStep() {
  ++m_steps;
  if (isDriver())
    for (int r = 1; r < m_world.size(); ++r)
      sendControl(r, Step, m_steps, 0);
  if (m_world.rank() == m_options.crashRank && m_steps == m_options.crashStep)
    std::raise(SIGKILL);
  if (m_world.rank() == m_options.hangRank && m_steps == m_options.hangStep)
    while (true) // until the others' deadline ends the job
      std::this_thread::sleep_for(std::chrono::seconds(1));
  if (m_world.rank() == m_options.failRank && m_steps == m_options.failStep)
    throw std::runtime_error("injected failure at step " + std::to_string(m_steps) +
                             " (--debug-fail-rank)");
}

std::vector<exec::DeviceSnapshot>
MpiCoordinator::exchange(std::vector<exec::DeviceSnapshot> local) {
  detail::Writer w;
  w.pod<uint32_t>(static_cast<uint32_t>(local.size()));
  for (const exec::DeviceSnapshot& s : local)
    w.snapshot(s);
  int size = m_world.size();
  std::vector<int> sizes(static_cast<size_t>(size)), displs(static_cast<size_t>(size));
  int mine = static_cast<int>(w.bytes().size());
  std::vector<MPI_Request> request(1);
  std::string what = "the step exchange (step " + std::to_string(m_steps) + ")";
  MPI_Iallgather(&mine, 1, MPI_INT, sizes.data(), 1, MPI_INT, m_exchangeComm, &request[0]);
  m_world.waitAll(request, what);
  int total = 0;
  for (int r = 0; r < size; ++r) {
    displs[r] = total;
    total += sizes[r];
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(total));
  MPI_Iallgatherv(w.bytes().data(), mine, MPI_BYTE, bytes.data(), sizes.data(), displs.data(),
                  MPI_BYTE, m_exchangeComm, &request[0]);
  m_world.waitAll(request, what);
  std::vector<exec::DeviceSnapshot> out;
  for (int r = 0; r < size; ++r) {
    detail::Reader reader(bytes.data() + displs[r], static_cast<size_t>(sizes[r]));
    uint32_t count = reader.pod<uint32_t>();
    for (uint32_t i = 0; i < count && reader.ok(); ++i)
      out.push_back(reader.snapshot());
    if (!reader.ok())
      m_world.fail("rank " + std::to_string(r) + " sent a truncated step exchange");
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.device < b.device; });
  return out;
}

std::optional<exec::Tensor> MpiCoordinator::fetchValue(int64_t device, int64_t value) {
  int owner = placement().rankOf(device);
  sendControl(owner, FetchValue, device, value);
  std::vector<uint8_t> reply =
      m_world.receive(owner, MpiWorld::kReplyTag,
                      "fetching a value of device " + std::to_string(device), /*deadline=*/true);
  detail::Reader reader(reply.data(), reply.size());
  if (reader.pod<uint8_t>() == 0)
    return std::nullopt;
  exec::Tensor t = reader.tensor();
  if (!reader.ok())
    m_world.fail("rank " + std::to_string(owner) + " sent a truncated value");
  return t;
}

std::vector<exec::Tensor> MpiCoordinator::fetchResults(int64_t device) {
  int owner = placement().rankOf(device);
  sendControl(owner, FetchResults, device, 0);
  std::vector<uint8_t> reply = m_world.receive(
      owner, MpiWorld::kReplyTag, "fetching the results of device " + std::to_string(device),
      /*deadline=*/true);
  detail::Reader reader(reply.data(), reply.size());
  uint32_t count = reader.pod<uint32_t>();
  std::vector<exec::Tensor> out;
  for (uint32_t i = 0; i < count && reader.ok(); ++i)
    out.push_back(reader.tensor());
  if (!reader.ok())
    m_world.fail("rank " + std::to_string(owner) + " sent truncated results");
  return out;
}

bool MpiCoordinator::follow(exec::SpmdExecutor& executor) {
  while (true) {
    // No deadline: the driver may wait for its user as long as it likes. A driver that fails
    // sends an abort note (seen here), one that is killed makes mpirun terminate this rank.
    std::vector<uint8_t> bytes =
        m_world.receive(0, MpiWorld::kControlTag, "waiting for rank 0", /*deadline=*/false);
    detail::Reader reader(bytes.data(), bytes.size());
    auto kind = reader.pod<uint8_t>();
    int64_t a = reader.pod<int64_t>();
    int64_t b = reader.pod<int64_t>();
    if (!reader.ok())
      m_world.fail("rank 0 sent a truncated control message");
    detail::Writer reply;
    switch (kind) {
    case Step:
      executor.stepAll();
      break;
    case FetchValue: {
      const exec::Tensor* t = isLocal(a) ? executor.lookup(a, executor.valueAt(b)) : nullptr;
      reply.pod<uint8_t>(t ? 1 : 0);
      if (t)
        reply.tensor(*t);
      m_world.send(0, MpiWorld::kReplyTag, reply.bytes(), "replying to rank 0");
      break;
    }
    case FetchResults: {
      static const std::vector<exec::Tensor> none;
      const std::vector<exec::Tensor>& results =
          isLocal(a) && executor.status(a) == exec::DeviceStatus::Finished ? executor.results(a)
                                                                           : none;
      reply.pod<uint32_t>(static_cast<uint32_t>(results.size()));
      for (const exec::Tensor& t : results)
        reply.tensor(t);
      m_world.send(0, MpiWorld::kReplyTag, reply.bytes(), "replying to rank 0");
      break;
    }
    case End:
      return !executor.failed();
    default:
      m_world.fail("unexpected control message " + std::to_string(kind) + " from rank 0");
    }
  }
}

void MpiCoordinator::sendSession(MpiWorld& world, const std::optional<std::string>& payload) {
  for (int r = 1; r < world.size(); ++r) {
    detail::Writer w;
    w.pod<uint8_t>(payload ? Session : Quit);
    w.pod<int64_t>(0);
    w.pod<int64_t>(0);
    if (payload)
      w.string(*payload);
    world.send(r, MpiWorld::kControlTag, w.bytes(),
               "sending a session to rank " + std::to_string(r));
  }
}

std::optional<std::string> MpiCoordinator::receiveSession(MpiWorld& world) {
  std::vector<uint8_t> bytes =
      world.receive(0, MpiWorld::kControlTag, "waiting for rank 0", /*deadline=*/false);
  detail::Reader reader(bytes.data(), bytes.size());
  auto kind = reader.pod<uint8_t>();
  reader.pod<int64_t>();
  reader.pod<int64_t>();
  if (kind == Quit)
    return std::nullopt;
  std::string payload = reader.string();
  if (kind != Session || !reader.ok())
    world.fail("unexpected control message " + std::to_string(kind) + " from rank 0 between runs");
  return payload;
}

} // namespace shardscope::backends::mpi
