#include "core/exec/spmd_executor.h"

#include "core/exec/detail/collectives.h"
#include "core/exec/process_groups.h"

#include <algorithm>
#include <map>
#include <thread>

namespace shardscope::exec {

struct SpmdExecutor::Device {
  int64_t id = 0;
  std::unique_ptr<Interpreter> interp;
  // Each device reports to its own sink so device threads never share one; the executor
  // forwards in device order after every step, which keeps the output deterministic.
  support::CollectingSink sink;
  DeviceStatus status = DeviceStatus::Ready;
  std::vector<int64_t> group; // while at a collective: its process group
  bool executed = false;      // executed an op in the current step
  // A device of another process (distributed runs): no interpreter, its state as last exchanged.
  const ir::Operation* remoteOp = nullptr;
  size_t remoteDepth = 0;
};

namespace {

std::string at(const ir::Operation& op) {
  std::string where = detail::shortLoc(op.loc());
  return where.empty() ? std::string() : " at " + where;
}

} // namespace

SpmdExecutor::SpmdExecutor(const ir::Module& module, Communicator& communicator,
                           SpmdOptions options)
    : m_module(module), m_comm(communicator), m_options(std::move(options)) {}

void SpmdExecutor::indexModule() const {
  if (m_indexed)
    return;
  m_indexed = true;
  // Pre-order over the module, block arguments before the ops of their block: the same numbering
  // in every process that parsed the same text.
  m_module.op().walk([&](const ir::Operation& op) {
    m_opIds.emplace(&op, static_cast<int64_t>(m_ops.size()));
    m_ops.push_back(&op);
    for (unsigned r = 0; r < op.numRegions(); ++r)
      for (const auto& block : op.region(r).blocks())
        for (const auto& arg : block->arguments()) {
          m_valueIds.emplace(arg.get(), static_cast<int64_t>(m_values.size()));
          m_values.push_back(arg.get());
        }
    for (unsigned i = 0; i < op.numResults(); ++i) {
      m_valueIds.emplace(op.result(i), static_cast<int64_t>(m_values.size()));
      m_values.push_back(op.result(i));
    }
  });
}

int64_t SpmdExecutor::opIndex(const ir::Operation* op) const {
  indexModule();
  auto it = m_opIds.find(op);
  return it == m_opIds.end() ? -1 : it->second;
}

const ir::Operation* SpmdExecutor::opAt(int64_t index) const {
  indexModule();
  return index >= 0 && index < static_cast<int64_t>(m_ops.size()) ? m_ops[index] : nullptr;
}

int64_t SpmdExecutor::valueIndex(const ir::Value* value) const {
  indexModule();
  auto it = m_valueIds.find(value);
  return it == m_valueIds.end() ? -1 : it->second;
}

const ir::Value* SpmdExecutor::valueAt(int64_t index) const {
  indexModule();
  return index >= 0 && index < static_cast<int64_t>(m_values.size()) ? m_values[index] : nullptr;
}

bool SpmdExecutor::isLocal(const Device& device) const { return device.interp != nullptr; }

const ir::Operation* SpmdExecutor::opOf(const Device& device) const {
  return device.interp ? device.interp->currentOp() : device.remoteOp;
}

SpmdExecutor::~SpmdExecutor() = default;

int64_t SpmdExecutor::numDevices() const { return static_cast<int64_t>(m_devices.size()); }

bool SpmdExecutor::start(const std::vector<std::string>& functions,
                         std::vector<std::vector<Tensor>> inputs, support::DiagnosticSink& sink) {
  m_sink = &sink;
  m_devices.clear();
  m_failed = false;
  m_steps = 0;
  int64_t n = m_options.numReplicas * m_options.numPartitions;
  if (n <= 0 || static_cast<int64_t>(functions.size()) != n ||
      static_cast<int64_t>(inputs.size()) != n) {
    sink.error({}, "expected " + std::to_string(n) + " functions and input lists, got " +
                       std::to_string(functions.size()) + " and " + std::to_string(inputs.size()));
    m_failed = true;
    return false;
  }
  if (m_comm.numDevices() != n) {
    sink.error({}, "communicator connects " + std::to_string(m_comm.numDevices()) +
                       " devices, the grid has " + std::to_string(n));
    m_failed = true;
    return false;
  }
  m_fetched.clear();
  m_fetchedResults.clear();
  for (int64_t d = 0; d < n; ++d) {
    auto device = std::make_unique<Device>();
    device->id = d;
    if (m_options.coordinator && !m_options.coordinator->isLocal(d)) {
      m_devices.push_back(std::move(device));
      continue;
    }
    device->interp = std::make_unique<Interpreter>(m_module);
    device->interp->setDeviceContext(
        DeviceContext::forDevice(d, m_options.numReplicas, m_options.numPartitions, &m_comm));
    device->interp->setCommunicatorFactory(m_options.communicatorFactory);
    device->interp->setHooks(m_options.hooks);
    device->interp->setStepLimit(m_options.stepLimit);
    ValueReleaseHook onRelease;
    if (m_options.onRelease)
      onRelease = [hook = m_options.onRelease, d](const ir::Value& value,
                                                  const ir::Operation& lastUser,
                                                  const Tensor& tensor) {
        hook(d, value, lastUser, tensor);
      };
    device->interp->setValueRetention(m_options.retention, std::move(onRelease));
    if (!device->interp->start(functions[d], std::move(inputs[d]), device->sink))
      device->status = DeviceStatus::Failed;
    m_devices.push_back(std::move(device));
  }
  if (m_options.coordinator)
    syncState(/*progressed=*/false);
  flushDiagnostics();
  if (std::any_of(m_devices.begin(), m_devices.end(),
                  [](const auto& d) { return d->status == DeviceStatus::Failed; })) {
    stopAll();
    return false;
  }
  return true;
}

bool SpmdExecutor::stepDevice(Device& device) {
  device.executed = true;
  device.interp->step();
  if (device.interp->finished()) {
    device.status = DeviceStatus::Finished;
    m_comm.deviceDone(device.id, /*failed=*/false);
  } else if (device.interp->failed()) {
    device.status = DeviceStatus::Failed;
    // Tell the communicator at once: group members already inside a collective with this
    // device must fail instead of waiting for it.
    m_comm.deviceDone(device.id, /*failed=*/true);
  } else {
    device.status = DeviceStatus::Ready;
  }
  return device.status != DeviceStatus::Failed;
}

bool SpmdExecutor::runReadyCollectives(std::vector<int64_t>& blocked) {
  bool progressed = false;
  std::vector<bool> done(m_devices.size(), false);
  auto sameCollective = [&](int64_t a, int64_t b) {
    const Device& x = *m_devices[a];
    const Device& y = *m_devices[b];
    return y.status == DeviceStatus::Blocked && x.group == y.group &&
           opOf(x)->name() == opOf(y)->name();
  };
  for (int64_t d : blocked) {
    if (done[d])
      continue;
    const std::vector<int64_t>& group = m_devices[d]->group;
    if (!std::all_of(group.begin(), group.end(), [&](int64_t e) { return sameCollective(d, e); }))
      continue;
    // Every member is here: the communicator completes without waiting on anyone else. Calls
    // block until the whole group has called, so each member needs its own thread.
    // In a distributed run only the local members step here; the other processes step theirs in
    // the same order, and the communicator connects them.
    std::vector<int64_t> local;
    for (int64_t e : group)
      if (isLocal(*m_devices[e]))
        local.push_back(e);
    std::vector<std::thread> threads;
    for (size_t i = 1; i < local.size(); ++i)
      threads.emplace_back([this, e = local[i]] { stepDevice(*m_devices[e]); });
    if (!local.empty())
      stepDevice(*m_devices[local[0]]);
    for (std::thread& t : threads)
      t.join();
    for (int64_t e : group)
      done[e] = true;
    progressed = true;
  }
  std::erase_if(blocked, [&](int64_t d) { return done[d]; });
  return progressed;
}

bool SpmdExecutor::stepAll() {
  if (m_failed || m_devices.empty() || finished())
    return false;
  if (m_options.coordinator)
    m_options.coordinator->beginStep();
  m_fetched.clear();
  bool progressed = false;
  std::vector<int64_t> blocked;
  for (auto& device : m_devices) {
    device->executed = false;
    if (!isLocal(*device) ||
        (device->status != DeviceStatus::Ready && device->status != DeviceStatus::Blocked))
      continue;
    const ir::Operation* op = device->interp->currentOp();
    if (op && isCollectiveOp(op->name()) && op->name().starts_with("stablehlo.")) {
      CommResult<std::vector<int64_t>> group =
          processGroup(*op, device->interp->deviceContext());
      bool alone = group && (group->empty() || (group->size() == 1 && (*group)[0] == device->id));
      // A collective that needs others waits for them; a malformed one or a group of one runs
      // now (the step reports the error, or completes without communication).
      if (group && !alone) {
        device->group = std::move(*group);
        device->status = DeviceStatus::Blocked;
        blocked.push_back(device->id);
        continue;
      }
    }
    stepDevice(*device);
    progressed = true;
  }
  if (m_options.coordinator)
    syncBlocked(blocked);
  if (!blocked.empty() && !std::any_of(m_devices.begin(), m_devices.end(), [](const auto& d) {
        return d->status == DeviceStatus::Failed;
      }))
    progressed = runReadyCollectives(blocked) || progressed;
  if (m_options.coordinator)
    progressed = syncState(progressed);
  flushDiagnostics();
  if (progressed)
    ++m_steps;
  if (failed()) {
    stopAll();
    return false;
  }
  if (finished())
    return false;
  if (!progressed) {
    reportStall(blocked);
    stopAll();
    return false;
  }
  return true;
}

void SpmdExecutor::reportStall(const std::vector<int64_t>& blocked) {
  // Cluster the waiting devices by (op, group): each cluster is one collective some devices
  // reached. A stall means no cluster holds its whole group.
  struct Cluster {
    const ir::Operation* op;
    std::vector<int64_t> group, devices;
  };
  std::vector<Cluster> clusters;
  for (int64_t d : blocked) {
    const Device& dev = *m_devices[d];
    const ir::Operation* op = opOf(dev);
    auto it = std::find_if(clusters.begin(), clusters.end(), [&](const Cluster& c) {
      return c.group == dev.group && c.op->name() == op->name();
    });
    if (it == clusters.end())
      clusters.push_back({op, dev.group, {d}});
    else
      it->devices.push_back(d);
  }
  if (clusters.empty()) { // unreachable: a step without progress always has waiting devices
    m_sink->error({}, "no device can advance");
    return;
  }
  std::vector<int64_t> finishedIds;
  for (const auto& dev : m_devices)
    if (dev->status == DeviceStatus::Finished)
      finishedIds.push_back(dev->id);
  support::Diagnostic diag;
  diag.loc = clusters.front().op->loc();
  const Cluster& first = clusters.front();
  std::vector<int64_t> missing;
  for (int64_t e : first.group)
    if (m_devices[e]->status == DeviceStatus::Finished)
      missing.push_back(e);
  std::string waits = std::string(first.devices.size() == 1 ? " waits" : " wait") + " in '" +
                      std::string(first.op->name()) + "'" + at(*first.op) +
                      " (group " + deviceGroupText(first.group) + ")";
  if (!missing.empty()) {
    diag.message = "deadlock: " + deviceListText(missing) + " finished while " +
                   deviceListText(first.devices) + waits;
  } else {
    std::string msg = "deadlock: ";
    for (size_t i = 0; i < clusters.size(); ++i) {
      const Cluster& c = clusters[i];
      msg += (i == 0 ? "" : i + 1 == clusters.size() ? " but " : ", ") + deviceListText(c.devices) +
             " reached '" + std::string(c.op->name()) + "'" + at(*c.op) + " (group " +
             deviceGroupText(c.group) + ")";
    }
    if (clusters.size() == 1)
      msg = "deadlock: " + deviceListText(first.devices) + waits + " for devices that never come";
    diag.message = msg;
  }
  for (size_t i = 1; i < clusters.size(); ++i)
    diag.notes.push_back({deviceListText(clusters[i].devices) + " reached '" +
                              std::string(clusters[i].op->name()) + "' here",
                          clusters[i].op->loc()});
  if (!finishedIds.empty() && missing.empty())
    diag.notes.push_back({deviceListText(finishedIds) + " already finished", {}});
  m_sink->report(std::move(diag));
}

void SpmdExecutor::flushDiagnostics() {
  bool prefix = m_devices.size() > 1;
  for (auto& device : m_devices) {
    for (support::Diagnostic diag : device->sink.diagnostics()) {
      if (prefix)
        diag.message = "device " + std::to_string(device->id) + ": " + diag.message;
      m_sink->report(std::move(diag));
    }
    device->sink.clear();
  }
}

void SpmdExecutor::stopAll() {
  m_failed = true;
  for (auto& device : m_devices)
    if (device->status == DeviceStatus::Ready || device->status == DeviceStatus::Blocked) {
      device->status = DeviceStatus::Failed;
      if (isLocal(*device))
        m_comm.deviceDone(device->id, /*failed=*/true);
    }
}

bool SpmdExecutor::runToEnd() {
  while (stepAll()) {
  }
  return finished();
}

bool SpmdExecutor::finished() const {
  return !m_devices.empty() &&
         std::all_of(m_devices.begin(), m_devices.end(),
                     [](const auto& d) { return d->status == DeviceStatus::Finished; });
}

bool SpmdExecutor::failed() const {
  return m_failed || std::any_of(m_devices.begin(), m_devices.end(), [](const auto& d) {
           return d->status == DeviceStatus::Failed;
         });
}

DeviceStatus SpmdExecutor::status(int64_t device) const { return m_devices.at(device)->status; }

const ir::Operation* SpmdExecutor::currentOp(int64_t device) const {
  return opOf(*m_devices.at(device));
}

size_t SpmdExecutor::depth(int64_t device) const {
  const Device& d = *m_devices.at(device);
  return d.interp ? d.interp->depth() : d.remoteDepth;
}

const Tensor* SpmdExecutor::lookup(int64_t device, const ir::Value* value) const {
  const Device& d = *m_devices.at(device);
  if (d.interp)
    return d.interp->lookup(value);
  if (!m_options.coordinator || !m_options.coordinator->isDriver() || valueIndex(value) < 0)
    return nullptr;
  auto key = std::make_pair(device, value);
  auto it = m_fetched.find(key);
  if (it == m_fetched.end())
    it = m_fetched.emplace(key, m_options.coordinator->fetchValue(device, valueIndex(value))).first;
  return it->second ? &*it->second : nullptr;
}

const std::vector<Tensor>& SpmdExecutor::results(int64_t device) const {
  const Device& d = *m_devices.at(device);
  if (d.interp)
    return d.interp->results();
  static const std::vector<Tensor> none;
  if (!m_options.coordinator || !m_options.coordinator->isDriver() ||
      d.status != DeviceStatus::Finished)
    return none;
  auto it = m_fetchedResults.find(device);
  if (it == m_fetchedResults.end()) // final once the device finished: fetched once
    it = m_fetchedResults.emplace(device, m_options.coordinator->fetchResults(device)).first;
  return it->second;
}

void SpmdExecutor::syncBlocked(std::vector<int64_t>& blocked) {
  // Which devices wait in which collective, everywhere: a collective runs once every member
  // waits in it, whichever process the members live in.
  std::vector<DeviceSnapshot> local;
  for (const auto& device : m_devices)
    if (isLocal(*device))
      local.push_back({device->id, device->status, opIndex(opOf(*device)), 0, device->executed,
                       device->status == DeviceStatus::Blocked ? device->group
                                                               : std::vector<int64_t>{},
                       {}});
  for (DeviceSnapshot& s : m_options.coordinator->exchange(std::move(local))) {
    Device& device = *m_devices.at(s.device);
    if (isLocal(device))
      continue;
    device.status = s.status;
    device.remoteOp = opAt(s.op);
    device.group = std::move(s.group);
    device.executed = s.executed;
    if (device.status == DeviceStatus::Blocked)
      blocked.push_back(device.id);
  }
  std::sort(blocked.begin(), blocked.end());
}

bool SpmdExecutor::syncState(bool progressed) {
  // After the step: every device's state and diagnostics, so that every process sees the whole
  // grid (and reports diagnostics in device order, as a single process would).
  std::vector<DeviceSnapshot> local;
  for (const auto& device : m_devices) {
    if (!isLocal(*device))
      continue;
    DeviceSnapshot s{device->id, device->status, opIndex(opOf(*device)),
                     static_cast<int64_t>(device->interp->depth()), device->executed,
                     device->group, device->sink.diagnostics()};
    device->sink.clear();
    local.push_back(std::move(s));
  }
  bool any = false;
  for (DeviceSnapshot& s : m_options.coordinator->exchange(std::move(local))) {
    Device& device = *m_devices.at(s.device);
    any = any || s.executed;
    for (support::Diagnostic& diag : s.diagnostics)
      device.sink.report(std::move(diag));
    if (isLocal(device))
      continue;
    device.status = s.status;
    device.remoteOp = opAt(s.op);
    device.remoteDepth = static_cast<size_t>(s.depth);
    device.group = std::move(s.group);
    device.executed = s.executed;
  }
  return progressed || any;
}

const Interpreter& SpmdExecutor::interpreter(int64_t device) const {
  return *m_devices.at(device)->interp;
}

} // namespace shardscope::exec
