// The `serve` server (`shardscope-cli serve [--backend local|mpi]`): a session driven by
// versioned JSON lines (one request per line, one response per request, matched by `id`). The
// app runs it as a child process; under `mpirun -np N shardscope-cli serve --backend mpi` rank 0
// speaks the protocol and drives the other ranks, which follow silently. See
// app/cli/SERVE_PROTOCOL.md.

#include "core/session/serve/server.h"

#include "core/io/mlir/mlir.h"
#include "core/session/execution.h"
#include "core/session/resource_limits.h"
#include "core/session/serve/identity.h"
#include "core/session/serve/protocol.h"
#include "core/support/parse_number.h"

#ifdef SHARDSCOPE_HAVE_MPI
#include "core/backends/mpi/mpi_coordinator.h"
#endif

#include <nlohmann/json.hpp>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <limits>
#include <mutex>
#include <set>
#include <thread>
#include <poll.h>
#include <unistd.h>

namespace shardscope::session::serve {

namespace {

using nlohmann::json;

// Writes all of `text` to `fd`; false when the output is closed or full.
bool writeAll(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    text.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// Collects the diagnostics of one request, formatted with the program's sources when known.
struct CollectSink final : support::DiagnosticSink {
  const support::SourceManager* sources = nullptr;
  json messages = json::array();
  void report(support::Diagnostic d) override {
    std::string text = sources && d.loc.isValid() ? sources->format(d) : d.message;
    while (!text.empty() && text.back() == '\n')
      text.pop_back();
    messages.push_back(text);
  }
};

// What a follower rank needs to set up the same run as the driver.
struct SessionSpec {
  std::string path, stage = "per-device", function, inputs = "iota";
  bool checkReference = false, trace = false, stopOnDivergence = false;
  json toJson() const {
    return {{"path", path},   {"stage", stage},       {"function", function},
            {"inputs", inputs}, {"check_reference", checkReference},
            {"trace", trace}, {"stop_on_divergence", stopOnDivergence}};
  }
  static SessionSpec fromJson(const json& j) {
    SessionSpec s;
    s.path = j.value("path", "");
    s.stage = j.value("stage", "per-device");
    s.function = j.value("function", "");
    s.inputs = j.value("inputs", "iota");
    s.checkReference = j.value("check_reference", false);
    s.trace = j.value("trace", false);
    s.stopOnDivergence = j.value("stop_on_divergence", false);
    return s;
  }
};

std::string locString(const support::SourceLocation& loc) {
  return std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

json elementsOf(const exec::Tensor& t, int64_t maxElements) {
  json out = json::array();
  int64_t n = std::min(t.numElements(), maxElements);
  bool isFloat = ir::isFloatElement(t.elementType());
  bool isComplex = exec::complexPartType(t.elementType()) != t.elementType();
  auto number = [](double v) -> json {
    if (std::isnan(v))
      return "nan";
    if (std::isinf(v))
      return v > 0 ? "inf" : "-inf";
    return v;
  };
  for (int64_t i = 0; i < n; ++i) {
    if (isComplex) {
      std::complex<double> c = t.complexAt(i);
      out.push_back(json::array({number(c.real()), number(c.imag())}));
    } else if (isFloat) {
      out.push_back(number(t.floatAt(i)));
    } else {
      out.push_back(t.intAt(i));
    }
  }
  return out;
}

json tensorJson(const exec::Tensor& t, int64_t maxElements) {
  return {{"type", t.type().str()},
          {"shape", t.shape()},
          {"elements", elementsOf(t, maxElements)},
          {"total_elements", t.numElements()},
          {"truncated", t.numElements() > maxElements}};
}

// Reads request lines from the input without blocking forever, so that an MPI driver keeps noticing
// failed ranks while its client is idle.
class LineReader {
public:
  /// `keepReading` is asked before each read and every 200 ms while no input arrives; reading
  /// stops when it says no.
  LineReader(int fd, std::function<bool()> keepReading, int64_t maxBytes)
      : m_fd(fd), m_keepReading(std::move(keepReading)), m_framer(maxBytes) {}
  /// The next line in `line`; false at the end of the input (or when told to stop). `tooLong`
  /// tells that the line exceeded the limit (`line` is then empty).
  bool next(std::string& line, bool& tooLong) {
    while (!m_framer.next(line, tooLong)) {
      if (m_framer.atEnd() || (m_keepReading && !m_keepReading()))
        return false;
      pollfd fd{m_fd, POLLIN, 0};
      int ready = poll(&fd, 1, 200);
      if (ready == 0 || (ready < 0 && errno == EINTR)) {
        if (m_keepReading && !m_keepReading())
          return false;
        continue;
      }
      char chunk[65536];
      ssize_t n = read(m_fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        m_framer.finish();
      else
        m_framer.append(std::string_view(chunk, static_cast<size_t>(n)));
    }
    return true;
  }
  int64_t lineNumber() const { return m_framer.lineNumber(); }

private:
  int m_fd;
  std::function<bool()> m_keepReading;
  serve::LineFramer m_framer;
};

// One request line as the reader thread hands it over.
struct QueuedLine {
  std::string text;
  bool tooLong = false;
  int64_t lineNumber = 0;
  uint64_t sequence = 0; ///< the line's place among the requests, counting from 1
  bool end = false;      ///< the input ended; nothing else is set
  /// For a `cancel`: whether a stepping command was running or waiting when it arrived.
  bool cancelledSomething = false;
};

bool isSteppingCommand(const std::string& cmd) {
  return cmd == "step_over" || cmd == "step_out" || cmd == "continue" || cmd == "run_to_end" ||
         cmd == "run_to_step";
}

// The command of a request line, without failing on anything that is not a request (the main
// thread reports those).
std::string commandOf(const std::string& line, int64_t lineNumber) {
  try {
    json request =
        serve::parseRequest(line, lineNumber, false, std::numeric_limits<int64_t>::max());
    if (auto it = request.find("cmd"); it != request.end() && it->is_string())
      return it->get<std::string>();
  } catch (const std::exception&) {
  }
  return {};
}

// Requests in arrival order, filled by a reader thread so that the thread running a command still
// sees a `cancel` sent after it. A `cancel` stops the multi-step commands (`continue`,
// `run_to_end`, `step_over`, `step_out`) received before it: the one running, between two of its
// steps, and those still queued, after their first step. Responses keep the order of requests.
class RequestQueue {
public:
  void push(QueuedLine line) {
    std::unique_lock lock(m_mutex);
    m_space.wait(lock, [&] { return m_lines.size() < kMaxQueued || m_stopped; });
    if (m_stopped)
      return; // nobody handles requests any more
    line.sequence = ++m_received;
    std::string cmd = line.end || line.tooLong || line.text.find("\"cmd\"") == std::string::npos
                          ? std::string()
                          : commandOf(line.text, line.lineNumber);
    if (cmd == "cancel") {
      line.cancelledSomething = m_runningSequence != 0 || m_queuedStepping > 0;
      m_cancelBefore = line.sequence;
      if (m_runningSequence != 0)
        m_cancel.store(true);
    } else if (isSteppingCommand(cmd)) {
      m_stepping.insert(line.sequence);
      ++m_queuedStepping;
    }
    m_lines.push_back(std::move(line));
    m_ready.notify_one();
  }
  /// The next request, or nothing after waiting `timeout` for one. A stepping command taken
  /// finds the cancel flag already set when a later `cancel` has arrived.
  std::optional<QueuedLine> pop(std::chrono::milliseconds timeout) {
    std::unique_lock lock(m_mutex);
    if (!m_ready.wait_for(lock, timeout, [&] { return !m_lines.empty(); }))
      return std::nullopt;
    QueuedLine line = std::move(m_lines.front());
    m_lines.pop_front();
    m_space.notify_one();
    if (m_stepping.erase(line.sequence)) {
      --m_queuedStepping;
      m_runningSequence = line.sequence;
      m_cancel.store(m_cancelBefore > line.sequence);
    }
    return line;
  }
  /// The request taken last has been answered.
  void handled() {
    std::lock_guard lock(m_mutex);
    m_runningSequence = 0;
    m_cancel.store(false);
  }
  /// Wakes a reader waiting for room, for good.
  void stop() {
    std::lock_guard lock(m_mutex);
    m_stopped = true;
    m_space.notify_all();
  }
  const session::CancelFlag* cancelFlag() const { return &m_cancel; }

private:
  static constexpr size_t kMaxQueued = 256;
  std::mutex m_mutex;
  std::condition_variable m_ready, m_space;
  std::deque<QueuedLine> m_lines;
  uint64_t m_received = 0;
  uint64_t m_cancelBefore = 0;    ///< the sequence of the last `cancel` received
  uint64_t m_runningSequence = 0; ///< of the stepping command being handled, else 0
  size_t m_queuedStepping = 0;
  std::set<uint64_t> m_stepping; ///< stepping commands received and not yet taken
  bool m_stopped = false;
  session::CancelFlag m_cancel{false};
};

class Server {
public:
  explicit Server(ServerOptions options) : m_options(std::move(options)) {}
  int run();
#ifdef SHARDSCOPE_HAVE_MPI
  int follow();
#endif

private:
  json handle(const json& request, CollectSink& sink);
  json load(const json& request, CollectSink& sink);
  json start(CollectSink& sink);
  json state(session::StopReason* reason) const;
  json fetch(const json& request);
  json setBreakpoint(const json& request, bool enabled);
  std::vector<const ir::Operation*> opsAt(const std::string& loc) const;
  const ir::Value* findValue(const json& request, std::string& error) const;
  bool makeExecution(const SessionSpec& spec, support::DiagnosticSink& sink, bool driver);
  void dropExecution();
  int rankOf(int64_t device) const;

  ServerOptions m_options;
  RequestQueue m_queue;
  bool m_mpi = false;
  // The sources of the program being loaded or run. It is replaced at every load, before the old
  // program is dropped, and outlives the load: diagnostics of a failed load are formatted with
  // it, never with the sources of a program that is gone.
  std::unique_ptr<support::SourceManager> m_sources = std::make_unique<support::SourceManager>();
  std::unique_ptr<session::Program> m_program;
  std::unique_ptr<session::Execution> m_execution;
  std::unordered_map<const ir::Value*, std::string> m_names;
  SessionSpec m_spec;
  bool m_started = false;
  bool m_startedTogether = false;
  int64_t m_devicesPerRank = 0;

public:
  /// Why `run` failed, when it could not write a response.
  std::string writeError;
  /// Every rank's process id (rank 0 first), for clients that supervise the job.
  std::vector<int> pids = {static_cast<int>(getpid())};
};

int Server::rankOf(int64_t device) const {
  return m_mpi && m_devicesPerRank > 0 ? static_cast<int>(device / m_devicesPerRank) : 0;
}

void Server::dropExecution() {
  // With MPI, destroying a started execution ends the followers' run (they wait for the next).
  m_execution.reset();
  m_started = false;
  m_startedTogether = false;
}

bool Server::makeExecution(const SessionSpec& spec, support::DiagnosticSink& sink, bool driver) {
  dropExecution();
  m_program.reset();
  m_program = m_options.loadProgram(spec.path, *m_sources, sink);
  if (!m_program ||
      !checkMeshDevices(m_program->asWritten(), m_options.maxDevices, sink,
                        m_options.maxDevicesHint) ||
      !checkTensorSizes(m_program->asWritten(), m_options.maxTensorBytes, sink,
                        m_options.maxTensorBytesHint))
    return false;
  std::optional<session::Stage> stage = session::parseStage(spec.stage);
  if (!stage) {
    sink.error({}, "unknown stage '" + spec.stage + "'");
    return false;
  }
  session::ExecutionOptions options;
  options.stage = *stage;
  options.function = spec.function;
  options.checkReference = spec.checkReference;
  options.stopOnDivergence = spec.stopOnDivergence;
  options.trace = spec.trace;
  options.stepLimit = m_options.maxSteps;
  options.cancel = m_queue.cancelFlag();
  options.historyBytes = session::kDefaultHistoryBytes; // the app inspects values after a run
#ifdef SHARDSCOPE_HAVE_MPI
  if (m_mpi) {
    options.distributedDriver = driver;
    options.distributed = [this](int64_t numDevices, const auto& fingerprint,
                                 std::string& error) -> std::unique_ptr<exec::SpmdCoordinator> {
      backends::mpi::MpiRunOptions run;
      run.devicesPerRank = m_options.devicesPerRank;
      auto coordinator = backends::mpi::MpiCoordinator::create(
          backends::mpi::MpiWorld::init(), numDevices, run, fingerprint, error);
      m_startedTogether = coordinator != nullptr;
      if (coordinator)
        m_devicesPerRank = coordinator->placement().devicesPerRank;
      return coordinator;
    };
  }
#endif
  m_execution = session::Execution::create(*m_program, options, sink);
  if (!m_execution)
    return false;
  if (!checkTensorSizes(m_execution->module(), m_options.maxTensorBytes, sink,
                        m_options.maxTensorBytesHint))
    return false;
  // Values are named as the source names them, in whichever stage runs (as the app shows them).
  m_names = io::mlir::printedValueNames(m_execution->module(), io::mlir::ValueNames::Source);
  std::string error;
  std::optional<session::InputSpec> inputs = session::parseInputSpec(spec.inputs, error);
  if (!inputs) {
    sink.error({}, "inputs: " + error);
    return false;
  }
  return m_execution->setInputs(*inputs);
}

json Server::load(const json& request, CollectSink& sink) {
  SessionSpec spec = SessionSpec::fromJson(request);
  if (spec.path.empty())
    throw std::runtime_error("load needs \"path\"");
  m_spec = spec;
  m_sources = std::make_unique<support::SourceManager>();
  sink.sources = m_sources.get();
  if (!makeExecution(spec, sink, /*driver=*/true)) {
    m_execution.reset();
    throw std::runtime_error("cannot load '" + spec.path + "'");
  }
  const ir::Operation& fn = m_execution->function();
  json args = json::array();
  for (const exec::Tensor& t : m_execution->inputs())
    args.push_back(t.type().str());
  return {{"function", std::string(ir::func::name(fn))},
          {"stage", spec.stage},
          {"devices", m_execution->numDevices()},
          {"arguments", args}};
}

json Server::start(CollectSink& sink) {
  if (!m_execution)
    throw std::runtime_error("nothing loaded");
  if (m_started)
    throw std::runtime_error("already started; load again to restart");
#ifdef SHARDSCOPE_HAVE_MPI
  if (m_mpi)
    backends::mpi::MpiCoordinator::sendSession(backends::mpi::MpiWorld::init(),
                                              m_spec.toJson().dump());
#endif
  bool ok = m_execution->start();
#ifdef SHARDSCOPE_HAVE_MPI
  if (m_mpi && !ok && !m_startedTogether && !backends::mpi::MpiCoordinator::failedTogether())
    backends::mpi::MpiWorld::init().fail("rank 0 could not start the run: " +
                                         (sink.messages.empty() ? std::string("unknown error")
                                                                : sink.messages.back().get<std::string>()));
#endif
  if (!ok) {
    m_execution.reset();
    throw std::runtime_error("the run could not start");
  }
  m_started = true;
  json out = state(nullptr);
  json map = json::array();
  for (int64_t d = 0; d < m_execution->numDevices(); ++d)
    map.push_back({{"device", d}, {"rank", rankOf(d)}});
  out["device_ranks"] = map;
  return out;
}

json Server::state(session::StopReason* reason) const {
  json devices = json::array();
  for (int64_t d = 0; d < m_execution->numDevices(); ++d) {
    const ir::Operation* op = m_execution->currentOp(d);
    json device = {{"device", d}, {"rank", rankOf(d)}};
    if (op) {
      device["op"] = std::string(op->name());
      device["loc"] = locString(op->loc());
      device["depth"] = m_execution->depth(d);
    } else {
      device["op"] = nullptr;
    }
    devices.push_back(device);
  }
  json divergences = json::array();
  for (const session::Divergence& d : m_execution->divergences())
    divergences.push_back({{"op", std::string(d.op->name())},
                           {"loc", locString(d.op->loc())},
                           {"result", d.result},
                           {"kind", d.kind},
                           {"devices", d.devices},
                           {"message", d.message}});
  json out = {{"steps", m_execution->steps()},
              {"finished", m_execution->finished()},
              {"failed", m_execution->failed()},
              {"devices", devices},
              {"divergences", divergences}};
  out["reference_summary"] = m_execution->referenceSummary();
  if (reason)
    out["stop"] = std::string(session::stopReasonName(*reason));
  return out;
}

std::vector<const ir::Operation*> Server::opsAt(const std::string& loc) const {
  unsigned line = 0, column = 0;
  if (std::sscanf(loc.c_str(), "%u:%u", &line, &column) != 2)
    throw std::runtime_error("expected a location LINE:COL, got '" + loc + "'");
  std::vector<const ir::Operation*> ops;
  m_execution->module().op().walk([&](const ir::Operation& op) {
    if (op.loc().line == line && op.loc().column == column && !op.is("func.func"))
      ops.push_back(&op);
  });
  return ops;
}

json Server::setBreakpoint(const json& request, bool enabled) {
  if (!m_execution)
    throw std::runtime_error("nothing loaded");
  std::string loc = request.value("loc", "");
  std::vector<const ir::Operation*> ops = opsAt(loc);
  if (ops.empty())
    throw std::runtime_error("no op at " + loc + " in the running program");
  json names = json::array();
  for (const ir::Operation* op : ops) {
    m_execution->setBreakpoint(op, enabled);
    names.push_back(std::string(op->name()));
  }
  return {{"loc", loc}, {"ops", names}};
}

const ir::Value* Server::findValue(const json& request, std::string& error) const {
  if (request.contains("loc")) {
    std::vector<const ir::Operation*> ops = opsAt(request["loc"].get<std::string>());
    // Several ops can share a location (a reshard inserted for an op carries its location).
    const std::string opName = request.value("op", "");
    if (!opName.empty())
      std::erase_if(ops, [&](const ir::Operation* op) { return op->name() != opName; });
    if (request.contains("region")) {
      const unsigned r = request["region"].get<unsigned>();
      const unsigned i = request.value("arg", 0u);
      for (const ir::Operation* op : ops)
        if (r < op->numRegions() && !op->region(r).empty() &&
            i < op->region(r).front().numArguments())
          return op->region(r).front().argument(i);
      error = "no region " + std::to_string(r) + " argument " + std::to_string(i) + " at " +
              request["loc"].get<std::string>();
      return nullptr;
    }
    unsigned result = request.value("result", 0u);
    for (const ir::Operation* op : ops)
      if (result < op->numResults())
        return op->result(result);
    error = "no op with result " + std::to_string(result) + " at " +
            request["loc"].get<std::string>();
    return nullptr;
  }
  if (request.contains("arg")) {
    const unsigned i = request["arg"].get<unsigned>();
    const ir::Block* body = ir::func::body(m_execution->function());
    if (body && i < body->numArguments())
      return body->argument(i);
    error = "no argument " + std::to_string(i) + " in @" +
            std::string(ir::func::name(m_execution->function()));
    return nullptr;
  }
  std::string name = request.value("value", "");
  if (name.empty()) {
    error = "fetch needs \"value\" (a name such as %3 or %x) or \"loc\"";
    return nullptr;
  }
  std::string wanted = name.starts_with('%') ? name : "%" + name;
  // Prefer the running function; printed names repeat across functions.
  const ir::Value* found = nullptr;
  m_execution->function().walk([&](const ir::Operation& op) {
    for (unsigned r = 0; r < op.numRegions(); ++r)
      for (const auto& block : op.region(r).blocks())
        for (const auto& arg : block->arguments()) {
          auto it = m_names.find(arg.get());
          if (!found && it != m_names.end() && it->second == wanted)
            found = arg.get();
        }
    for (unsigned i = 0; i < op.numResults(); ++i) {
      auto it = m_names.find(op.result(i));
      if (!found && it != m_names.end() && it->second == wanted)
        found = op.result(i);
    }
  });
  if (!found)
    error = "no value named '" + name + "' in @" +
            std::string(ir::func::name(m_execution->function()));
  return found;
}

json Server::fetch(const json& request) {
  if (!m_started)
    throw std::runtime_error("the run has not started");
  std::string error;
  const ir::Value* value = findValue(request, error);
  if (!value)
    throw std::runtime_error(error);
  int64_t maxElements = request.value("max_elements", int64_t{64});
  json device = request.contains("device") ? request["device"] : json("global");
  json out;
  if (device.is_string() && device.get<std::string>() == "global") {
    std::optional<session::Assembled> assembled = m_execution->globalValue(value, error);
    if (!assembled)
      throw std::runtime_error(error);
    out = tensorJson(assembled->value, maxElements);
    if (!assembled->replicaProblem.empty())
      out["replica_problem"] = assembled->replicaProblem;
  } else if (device.is_string() && device.get<std::string>() == "reference") {
    const ir::Operation* op = value->definingOp();
    const exec::Tensor* t = op ? m_execution->referenceValue(*op, value->index()) : nullptr;
    if (!t)
      throw std::runtime_error("no reference value (load with \"check_reference\", and the "
                               "value must be an op result)");
    out = tensorJson(*t, maxElements);
  } else if (device.is_number_integer()) {
    int64_t d = device.get<int64_t>();
    if (d < 0 || d >= m_execution->numDevices())
      throw std::runtime_error("no device " + std::to_string(d));
    const exec::Tensor* t = m_execution->value(d, value);
    if (!t)
      throw std::runtime_error("device " + std::to_string(d) + ": " +
                               m_execution->whyNoValue(d, value));
    out = tensorJson(*t, maxElements);
    out["rank"] = rankOf(d);
  } else {
    throw std::runtime_error("\"device\" must be a device number, \"global\" or \"reference\"");
  }
  return out;
}

json Server::handle(const json& request, CollectSink& sink) {
  std::string cmd = request.value("cmd", "");
  if (cmd == "hello" || cmd == "version") {
    int ranks = 1;
#ifdef SHARDSCOPE_HAVE_MPI
    if (m_mpi)
      ranks = backends::mpi::MpiWorld::init().size();
#endif
    return {{"protocol", std::string(kProtocolName)},
            {"version", kProtocolVersion},
            {"backend", m_options.backend}, {"ranks", ranks}, {"pids", pids}};
  }
  if (cmd == "load")
    return load(request, sink);
  if (cmd == "set_inputs") {
    if (!m_execution || m_started)
      throw std::runtime_error(m_execution ? "the run has started; load again" : "nothing loaded");
    std::string error;
    std::string text = request.value("spec", "");
    std::optional<session::InputSpec> spec = session::parseInputSpec(text, error);
    if (!spec)
      throw std::runtime_error("spec: " + error);
    if (!m_execution->setInputs(*spec))
      throw std::runtime_error("cannot set the inputs");
    m_spec.inputs = text;
    json args = json::array();
    for (const exec::Tensor& t : m_execution->inputs())
      args.push_back(t.type().str());
    return {{"arguments", args}};
  }
  if (cmd == "start")
    return start(sink);
  if (cmd == "step" || cmd == "step_over" || cmd == "step_out" || cmd == "continue" ||
      cmd == "run_to_end") {
    if (!m_started)
      throw std::runtime_error("the run has not started");
    session::StopReason reason = cmd == "step"        ? m_execution->step()
                                 : cmd == "step_over" ? m_execution->stepOver()
                                 : cmd == "step_out"  ? m_execution->stepOut()
                                 : cmd == "continue"  ? m_execution->continueRun()
                                                      : m_execution->runToEnd();
    return state(&reason);
  }
  if (cmd == "run_to_step") {
    if (!m_started)
      throw std::runtime_error("the run has not started");
    if (!request.contains("step") || !request["step"].is_number_integer() ||
        request["step"].get<int64_t>() < 0)
      throw std::runtime_error("run_to_step needs 'step', a step number (0 or more)");
    session::StopReason reason = m_execution->runToStep(request["step"].get<int64_t>());
    return state(&reason);
  }
  if (cmd == "state") {
    if (!m_started)
      throw std::runtime_error("the run has not started");
    return state(nullptr);
  }
  if (cmd == "timeline") {
    if (!m_started)
      throw std::runtime_error("the run has not started");
    const std::vector<session::TimelineStep>& timeline = m_execution->timeline();
    if (request.contains("from") && !request["from"].is_number_integer())
      throw std::runtime_error("timeline: 'from' must be a step number (0 or more)");
    const int64_t from = request.value("from", int64_t{0});
    if (from < 0)
      throw std::runtime_error("timeline: 'from' must be a step number (0 or more)");
    json steps = json::array();
    for (size_t k = static_cast<size_t>(from); k < timeline.size(); ++k) {
      const session::TimelineStep& s = timeline[k];
      steps.push_back({{"op", s.op ? json(std::string(s.op->name())) : json(nullptr)},
                       {"loc", s.op ? json(locString(s.op->loc())) : json(nullptr)},
                       {"depth", s.depth},
                       {"collective", s.collective},
                       {"diverged", s.diverged}});
    }
    return {{"total", timeline.size()}, {"steps", steps}};
  }
  if (cmd == "set_breakpoint")
    return setBreakpoint(request, true);
  if (cmd == "clear_breakpoint")
    return setBreakpoint(request, false);
  if (cmd == "fetch")
    return fetch(request);
  if (cmd == "results") {
    if (!m_started)
      throw std::runtime_error("the run has not started");
    std::string error;
    std::optional<std::vector<exec::Tensor>> results = m_execution->globalResults(error);
    if (!results)
      throw std::runtime_error(error);
    json out = json::array();
    for (const exec::Tensor& t : *results)
      out.push_back(tensorJson(t, request.value("max_elements", int64_t{64})));
    return {{"results", out}};
  }
  if (cmd == "trace") {
    if (!m_started)
      throw std::runtime_error("the run has not started");
    return {{"trace", json::parse(m_execution->chromeTrace())}};
  }
  throw std::runtime_error("unknown command '" + cmd + "'");
}

int Server::run() {
  m_mpi = m_options.backend == "mpi";
  std::function<void()> idle;
#ifdef SHARDSCOPE_HAVE_MPI
  if (m_mpi)
    idle = [] { backends::mpi::MpiWorld::init().checkAbort(); };
#endif
  // Requests are read on their own thread, so that a `cancel` reaches a running command; they
  // are handled here, on the thread that started MPI, one after the other.
  std::atomic<bool> stopReading{false};
  std::thread reader([&] {
    LineReader lines(m_options.inputFd, [&] { return !stopReading.load(); },
                     m_options.maxLineBytes);
    QueuedLine line;
    while (!stopReading.load() && lines.next(line.text, line.tooLong)) {
      line.lineNumber = lines.lineNumber();
      m_queue.push(std::move(line));
      line = QueuedLine{};
    }
    QueuedLine end;
    end.end = true;
    m_queue.push(std::move(end));
  });
  auto finish = [&](int code) {
    dropExecution();
    stopReading.store(true);
    m_queue.stop();
    reader.join();
    return code;
  };
  while (true) {
    std::optional<QueuedLine> next = m_queue.pop(std::chrono::milliseconds(200));
    if (!next) {
      if (idle)
        idle();
      continue;
    }
    if (next->end)
      break;
    const std::string& line = next->text;
    bool tooLong = next->tooLong;
    if (!tooLong && line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    json response;
    CollectSink sink;
    sink.sources = m_sources.get();
    bool quit = false;
    try {
      json request =
          serve::parseRequest(line, next->lineNumber, tooLong, m_options.maxLineBytes);
      response["id"] = request.contains("id") ? request["id"] : json(nullptr);
      std::string cmd = request.value("cmd", "");
      quit = cmd == "quit";
      json body = quit               ? json::object()
                  : cmd == "cancel" ? json{{"cancelled", next->cancelledSomething}}
                                     : handle(request, sink);
      response["ok"] = true;
      for (auto& [key, value] : body.items())
        response[key] = value;
    } catch (const std::exception& e) {
      if (!response.contains("id"))
        response["id"] = nullptr;
      response["ok"] = false;
      response["error"] = e.what();
    }
    m_queue.handled();
    response["diagnostics"] = sink.messages;
    if (!writeAll(m_options.outputFd, serve::responseLine(response))) {
      // The client is gone or the output is full: nobody can read further responses.
      writeError = std::string("could not write the response: ") + std::strerror(errno);
      return finish(1);
    }
    if (quit)
      break;
  }
  return finish(0);
}

#ifdef SHARDSCOPE_HAVE_MPI
int Server::follow() {
  // A follower rank: sets up each run rank 0 starts, follows it, and waits for the next.
  m_mpi = true;
  backends::mpi::MpiWorld& world = backends::mpi::MpiWorld::init();
  while (std::optional<std::string> payload = backends::mpi::MpiCoordinator::receiveSession(world)) {
    SessionSpec spec = SessionSpec::fromJson(json::parse(*payload));
    support::CollectingSink sink;
    m_sources = std::make_unique<support::SourceManager>();
    bool ok = makeExecution(spec, sink, /*driver=*/false) && m_execution->start();
    if (!ok) {
      if (!m_startedTogether && !backends::mpi::MpiCoordinator::failedTogether())
        world.fail("cannot set up the run of '" + spec.path + "': " +
                   (sink.diagnostics().empty() ? std::string("unknown error")
                                               : sink.diagnostics().front().message));
      dropExecution();
      continue;
    }
    m_execution->follow();
    dropExecution();
  }
  return 0;
}
#endif

} // namespace

bool hasBackend(const std::string& backend) {
#ifdef SHARDSCOPE_HAVE_MPI
  if (backend == "mpi")
    return true;
#endif
  return backend == "local";
}

int serve(const ServerOptions& options, std::string& error) {
  Server server(options);
  if (options.backend == "local") {
    int code = server.run();
    error = server.writeError;
    return code;
  }
#ifdef SHARDSCOPE_HAVE_MPI
  if (options.backend == "mpi") {
    backends::mpi::MpiWorld& world = backends::mpi::MpiWorld::init();
    if (options.mpiTimeout > 0)
      world.setTimeout(std::chrono::milliseconds(static_cast<int64_t>(options.mpiTimeout * 1000)));
    int code = 0;
    int pid = static_cast<int>(getpid());
    server.pids.assign(static_cast<size_t>(world.size()), 0);
    MPI_Gather(&pid, 1, MPI_INT, server.pids.data(), 1, MPI_INT, 0, world.control());
    try {
      if (world.rank() == 0) {
        code = server.run();
        error = server.writeError;
        backends::mpi::MpiCoordinator::sendSession(world, std::nullopt);
      } else {
        code = server.follow();
      }
    } catch (const std::exception& e) {
      world.fail(std::string("unexpected exception: ") + e.what());
    }
    world.finalize();
    return code;
  }
#endif
  error = "unknown backend '" + options.backend + "'";
  return 1;
}

} // namespace shardscope::session::serve
