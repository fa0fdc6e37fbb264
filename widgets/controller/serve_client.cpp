#include "widgets/controller/serve_client.h"

#include "core/session/identity.h"
#include "core/session/serve/identity.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMetaObject>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <unistd.h>

namespace shardscope::widgets {

namespace {

constexpr int kStderrKeepBytes = 8000;
constexpr int kStderrTailLines = 6;
constexpr int kMaxElements = 1 << 18; // per fetch; the tiles draw larger values as heat maps
constexpr int kQuitGraceMs = 2000;    // after `quit`, before the child is terminated

QString str(const QJsonObject& o, const char* key) {
  return o.value(QLatin1String(key)).toString();
}

qint64 integer(const QJsonValue& v) { return static_cast<qint64>(v.toDouble()); }

// The server prints non-finite floats as strings and complex numbers as [re, im].
double number(const QJsonValue& v) {
  if (v.isDouble())
    return v.toDouble();
  if (v.isArray())
    return number(v.toArray().at(0));
  const QString s = v.toString();
  if (s == QLatin1String("inf"))
    return std::numeric_limits<double>::infinity();
  if (s == QLatin1String("-inf"))
    return -std::numeric_limits<double>::infinity();
  return std::numeric_limits<double>::quiet_NaN();
}

TensorData tensorData(const QJsonObject& r) {
  TensorData data;
  data.valid = true;
  for (const QJsonValue& d : r.value(QLatin1String("shape")).toArray())
    data.shape.push_back(integer(d));
  const QJsonArray elements = r.value(QLatin1String("elements")).toArray();
  data.values.reserve(elements.size());
  for (const QJsonValue& e : elements)
    data.values.push_back(number(e));
  if (r.value(QLatin1String("truncated")).toBool())
    data.note = QCoreApplication::translate("ServeClient", "the first %1 of %2 elements")
                    .arg(elements.size())
                    .arg(integer(r.value(QLatin1String("total_elements"))));
  return data;
}

// The `fetch` fields naming the value with the stable id `id` (see ValueRow::id): `arg:FN#I`,
// `LINE:COL:OP#RESULT` or `LINE:COL:OP@REGION.ARG`.
QJsonObject valueFields(const QString& id) {
  QJsonObject out;
  const std::optional<session::ValueIdParts> parts = session::parseValueId(id.toStdString());
  if (!parts)
    return out;
  using Kind = session::ValueIdParts::Kind;
  if (parts->kind == Kind::FunctionArgument) {
    out[QStringLiteral("arg")] = static_cast<int>(parts->index);
    return out;
  }
  out[QStringLiteral("loc")] = QStringLiteral("%1:%2").arg(parts->line).arg(parts->column);
  out[QStringLiteral("op")] = QString::fromStdString(parts->opName);
  if (parts->kind == Kind::RegionArgument) {
    out[QStringLiteral("region")] = static_cast<int>(parts->region);
    out[QStringLiteral("arg")] = static_cast<int>(parts->index);
  } else {
    out[QStringLiteral("result")] = static_cast<int>(parts->index);
  }
  return out;
}

// The server's errors for a value that the running program does not have.
bool isMissingValue(const QString& error) {
  for (const char* prefix :
       {"no op ", "no region ", "no argument ", "no value named", "expected a location"})
    if (error.startsWith(QLatin1String(prefix)))
      return true;
  return false;
}

// Whether a device of `state` is about to execute an op in `opIds`.
bool atAnyOp(const QJsonObject& state, const QSet<QString>& opIds) {
  for (const QJsonValue& v : state.value(QLatin1String("devices")).toArray()) {
    const QJsonObject d = v.toObject();
    if (!d.value(QLatin1String("op")).isNull() &&
        opIds.contains(str(d, "loc") + QLatin1Char(':') + str(d, "op")))
      return true;
  }
  return false;
}

QString firstDiagnostic(const QJsonObject& r) {
  const QJsonArray diags = r.value(QLatin1String("diagnostics")).toArray();
  return diags.isEmpty() ? QString() : diags.last().toString();
}

// The errors among a response's diagnostics (`file:line:col: error: message`, then the source
// line and a caret) as problems of the run, each at the op a device stands at there.
QVector<ProblemRow> runErrors(const QJsonObject& r, const QVector<DevicePosition>& devices) {
  static const QRegularExpression located(QStringLiteral("^.*?:(\\d+):(\\d+): error: (.*)$"));
  QVector<ProblemRow> rows;
  for (const QJsonValue& v : r.value(QLatin1String("diagnostics")).toArray()) {
    const QRegularExpressionMatch m = located.match(v.toString().section(QLatin1Char('\n'), 0, 0));
    if (!m.hasMatch())
      continue;
    ProblemRow row;
    row.severity = QStringLiteral("error");
    row.message = m.captured(3);
    row.stage = QStringLiteral("Run");
    row.line = m.captured(1).toInt();
    row.column = m.captured(2).toInt();
    const QString at = QStringLiteral("%1:%2:").arg(row.line).arg(row.column);
    for (const DevicePosition& p : devices)
      if (row.opId.isEmpty() && p.opId.startsWith(at))
        row.opId = p.opId;
    rows.push_back(row);
  }
  return rows;
}

} // namespace

ServeClient::ServeClient(QObject* parent) : QObject(parent), m_deadline(new QTimer(this)) {
  m_deadline->setSingleShot(true);
  connect(m_deadline, &QTimer::timeout, this,
          [this] { fail(tr("no answer within %1 s").arg(m_timeoutMs / 1000.0)); });
}

ServeClient::~ServeClient() {
  if (!m_process)
    return;
  // Leaving: end the child now rather than leave an orphaned mpirun behind.
  m_process->disconnect(this);
  m_process->terminate();
  if (!m_process->waitForFinished(1500))
    m_process->kill();
  m_process->waitForFinished(1000);
}

QString ServeClient::locateCli() {
  const QString fromEnv = qEnvironmentVariable("SHARDSCOPE_CLI");
  if (!fromEnv.isEmpty())
    return fromEnv;
  const QDir dir(QCoreApplication::applicationDirPath());
  const QString name = QStringLiteral("shardscope-cli");
  for (const QString& candidate :
       {dir.filePath(name), dir.filePath(QStringLiteral("../cli/") + name)})
    if (QFileInfo(candidate).isExecutable())
      return QFileInfo(candidate).canonicalFilePath();
  return QStandardPaths::findExecutable(name);
}

ServeCommand ServeClient::localCommand(const QString& cli) {
  return {cli,
          {QStringLiteral("serve"), QStringLiteral("--backend"), QStringLiteral("local")},
          {},
          QStringLiteral("serve")};
}

QStringList ServeClient::mpiArguments(const QString& cli, const MpiOptions& options) {
  QStringList args;
  const QString hostfile = options.hostfile.trimmed();
  if (!hostfile.isEmpty())
    args << QStringLiteral("--hostfile") << hostfile;
  if (hostfile.isEmpty() || options.oversubscribe)
    args << QStringLiteral("--oversubscribe");
  args << QStringLiteral("-np") << QString::number(qMax(1, options.ranks)) << cli
       << QStringLiteral("serve") << QStringLiteral("--backend") << QStringLiteral("mpi");
  return args;
}

ServeCommand ServeClient::mpiCommand(const QString& cli, const MpiOptions& options) {
  QString mpirun = QStandardPaths::findExecutable(QStringLiteral("mpirun"));
  if (mpirun.isEmpty())
    mpirun = QStringLiteral("mpirun"); // fails to start, with a message naming it
  ServeCommand command{mpirun, mpiArguments(cli, options), {}, QStringLiteral("mpi")};
  if (cli.isEmpty())
    command.program.clear(); // no CLI to run: spawn() says so
  // OpenMPI refuses to run as root unless told (containers and CI often are root).
  if (geteuid() == 0)
    command.environment = QStringList{QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT=1"),
                                      QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")};
  return command;
}

void ServeClient::setCommand(const ServeCommand& command) { m_command = command; }

qint64 ServeClient::processId() const { return m_process ? m_process->processId() : 0; }

// --- the job queue: one command at a time, each ends with finishJob() or fail() ---------------

void ServeClient::enqueue(const QString& what, std::function<void()> job) {
  if (m_jobs.empty())
    m_cancelled = false;
  m_jobs.emplace_back(what, std::move(job));
  Q_EMIT workStarted(what);
  if (m_jobs.size() == 1)
    QMetaObject::invokeMethod(this, &ServeClient::runNext, Qt::QueuedConnection);
}

void ServeClient::runNext() {
  if (m_jobs.empty() || m_jobRunning)
    return;
  m_jobRunning = true;
  m_jobs.front().second();
}

void ServeClient::finishJob() {
  if (m_jobs.empty())
    return;
  m_jobs.pop_front();
  m_jobRunning = false;
  Q_EMIT workFinished();
  if (!m_jobs.empty())
    QMetaObject::invokeMethod(this, &ServeClient::runNext, Qt::QueuedConnection);
}

// --- the child process ---------------------------------------------------------------------------

void ServeClient::ensureServer(std::function<void()> then) {
  if (m_process && m_ready && m_process->state() == QProcess::Running &&
      m_processCommand == m_command) {
    then();
    return;
  }
  spawn();
  if (!m_process)
    return; // failed already
  send({{QStringLiteral("cmd"), QStringLiteral("hello")}}, [this, then](const QJsonObject& r) {
    const QString protocol = QString::fromLatin1(session::serve::kProtocolName.data(),
                                                 int(session::serve::kProtocolName.size()));
    if (str(r, "protocol") != protocol ||
        integer(r.value(QLatin1String("version"))) != session::serve::kProtocolVersion) {
      fail(tr("it does not speak %1 version %2 (got \"%3\" version %4)")
               .arg(protocol)
               .arg(session::serve::kProtocolVersion)
               .arg(str(r, "protocol"))
               .arg(integer(r.value(QLatin1String("version")))));
      return;
    }
    m_ranks = static_cast<int>(integer(r.value(QLatin1String("ranks"))));
    m_rankPids.clear();
    for (const QJsonValue& pid : r.value(QLatin1String("pids")).toArray())
      m_rankPids.push_back(integer(pid));
    m_ready = true;
    then();
  });
}

void ServeClient::spawn() {
  discardProcess(/*polite=*/true);
  m_stdout.clear();
  m_stderr.clear();
  m_ready = false;
  if (m_command.program.isEmpty()) {
    fail(tr("cannot find shardscope-cli next to the app; set SHARDSCOPE_CLI to its path"));
    return;
  }
  m_processCommand = m_command;
  m_process = new QProcess(this);
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  for (const QString& variable : m_command.environment) {
    const int eq = variable.indexOf(QLatin1Char('='));
    env.insert(variable.left(eq), variable.mid(eq + 1));
  }
  m_process->setProcessEnvironment(env);
  m_process->setProgram(m_command.program);
  m_process->setArguments(m_command.arguments);
  connect(m_process, &QProcess::readyReadStandardOutput, this, &ServeClient::readOutput);
  connect(m_process, &QProcess::readyReadStandardError, this, [this] {
    m_stderr += m_process->readAllStandardError();
    if (m_stderr.size() > kStderrKeepBytes)
      m_stderr.remove(0, m_stderr.size() - kStderrKeepBytes);
  });
  connect(m_process, qOverload<int, QProcess::ExitStatus>(&QProcess::finished), this,
          &ServeClient::processFinished);
  connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
    // Crashes and pipe errors end in `finished`, which reports them with the exit status.
    if (error == QProcess::FailedToStart)
      fail(tr("cannot start %1: %2").arg(m_command.program, m_process->errorString()));
  });
  // A child that closes its output but lives on leaves requests unanswered: QProcess (Qt 5)
  // reports the end of a pipe only when the process dies, so the request deadline catches it.
  m_process->start();
}

void ServeClient::discardProcess(bool polite) {
  ++m_generation;
  m_pending.clear();
  m_deadline->stop();
  m_ready = false;
  m_running = false;
  if (!m_process)
    return;
  QProcess* process = std::exchange(m_process, nullptr);
  process->disconnect(this);
  if (process->state() == QProcess::NotRunning) {
    process->deleteLater();
    return;
  }
  connect(process, qOverload<int, QProcess::ExitStatus>(&QProcess::finished), process,
          &QObject::deleteLater);
  if (polite && process->state() == QProcess::Running) {
    // `quit`, then end of input; mpirun forwards SIGTERM to its ranks, SIGKILL would orphan them.
    process->write("{\"id\":null,\"cmd\":\"quit\"}\n");
    process->closeWriteChannel();
    QTimer::singleShot(kQuitGraceMs, process, &QProcess::terminate);
  } else {
    process->terminate();
  }
  QTimer::singleShot(kQuitGraceMs * 2, process, &QProcess::kill);
}

void ServeClient::shutdown() { discardProcess(/*polite=*/true); }

void ServeClient::send(QJsonObject request, Reply reply) {
  if (!m_process)
    return;
  request[QStringLiteral("id")] = static_cast<double>(++m_nextId);
  m_pending.push_back({m_nextId, std::move(reply)});
  m_process->write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
  if (!m_deadline->isActive())
    m_deadline->start(m_timeoutMs);
}

void ServeClient::readOutput() {
  if (!m_process)
    return;
  m_stdout += m_process->readAllStandardOutput();
  const quint64 generation = m_generation;
  int nl;
  while (generation == m_generation && (nl = m_stdout.indexOf('\n')) >= 0) {
    const QByteArray line = m_stdout.left(nl);
    m_stdout.remove(0, nl + 1);
    const QJsonDocument doc = QJsonDocument::fromJson(line);
    const qint64 id = doc.isObject() ? integer(doc.object().value(QLatin1String("id"))) : -1;
    auto it = std::find_if(m_pending.begin(), m_pending.end(),
                           [id](const Pending& p) { return p.id == id; });
    if (it == m_pending.end()) {
      // Not a response of ours (a rank's stray output): keep it with the log for error reports.
      m_stderr += line + '\n';
      continue;
    }
    Reply reply = std::move(it->reply);
    m_pending.erase(it);
    m_deadline->stop();
    if (!m_pending.empty())
      m_deadline->start(m_timeoutMs);
    reply(doc.object());
  }
}

void ServeClient::processFinished(int exitCode, QProcess::ExitStatus status) {
  if (m_process)
    m_stderr += m_process->readAllStandardError();
  // Shells and mpirun exit with 128 + N when a process died of signal N.
  const QString signal = exitCode > 128 && exitCode < 160
                             ? tr(" (a process was killed by signal %1)").arg(exitCode - 128)
                             : QString();
  fail(status == QProcess::CrashExit ? tr("it crashed")
                                     : tr("it exited with code %1%2").arg(exitCode).arg(signal));
}

QString ServeClient::stderrTail() const {
  QStringList lines;
  for (const QString& line : QString::fromUtf8(m_stderr).split(QLatin1Char('\n'))) {
    // mpirun frames its messages with rules of dashes: keep only the words.
    const QString trimmed = line.trimmed();
    if (!trimmed.isEmpty() &&
        trimmed.count(QLatin1Char('-')) + trimmed.count(QLatin1Char('=')) < trimmed.size())
      lines.push_back(trimmed);
  }
  if (lines.size() > kStderrTailLines)
    lines = lines.mid(lines.size() - kStderrTailLines);
  return lines.join(QLatin1Char('\n')).trimmed();
}

void ServeClient::fail(const QString& what) {
  if (m_process)
    m_stderr += m_process->readAllStandardError();
  const QString summary =
      tr("The %1 server failed: %2.")
          .arg(m_command.backend == QLatin1String("mpi") ? tr("MPI") : tr("run"), what);
  QString message = summary;
  const QString tail = stderrTail();
  if (!tail.isEmpty())
    message += QLatin1Char('\n') + tr("Its last messages:") + QLatin1Char('\n') + tail;
  discardProcess(/*polite=*/false);
  auto snap = m_execution ? std::make_shared<ExecutionSnapshot>(*m_execution)
                          : std::make_shared<ExecutionSnapshot>();
  snap->backend = m_command.backend;
  snap->failed = true;
  snap->stopReason = QStringLiteral("failed");
  snap->failure = message;
  m_execution = snap;
  // Drop every command: they needed the child.
  const size_t dropped = m_jobs.size();
  m_jobs.clear();
  m_jobRunning = false;
  Q_EMIT executionChanged(snap);
  // One line for a status bar; the snapshot's `failure` has the child's last messages.
  Q_EMIT errorOccurred(tail.isEmpty() ? summary
                                      : summary + QLatin1Char(' ') +
                                            tr("Its last messages are in the Execution panel."));
  for (size_t i = 0; i < dropped; ++i)
    Q_EMIT workFinished();
}

bool ServeClient::requestOk(const QJsonObject& response, const QString& context) {
  if (response.value(QLatin1String("ok")).toBool())
    return true;
  QString message = str(response, "error");
  const QString diagnostic = firstDiagnostic(response);
  if (!diagnostic.isEmpty())
    message += QStringLiteral(": ") + diagnostic.section(QLatin1Char('\n'), 0, 0);
  Q_EMIT errorOccurred(QStringLiteral("%1: %2").arg(context, message));
  return false;
}

// --- commands ------------------------------------------------------------------------------------

void ServeClient::startRun(const QString& path, const QString& inputSpec, bool checkReference,
                           const QSet<QString>& breakpoints, const QString& watched) {
  enqueue(tr("Starting the run"), [=, this] {
    m_running = false;
    m_breakpoints = breakpoints;
    m_watched = watched;
    m_checkReference = checkReference;
    m_path = path;
    m_inputSpec = inputSpec.trimmed().isEmpty() ? QStringLiteral("iota") : inputSpec;
    m_timeline.reset();
    loadAndStart([this](const QJsonObject& r) {
      m_running = true;
      publish(r, QStringLiteral("started"));
    });
  });
}

void ServeClient::loadAndStart(std::function<void(const QJsonObject&)> started) {
  ensureServer([=, this] {
    const QString context = tr("Could not start the run");
    QJsonObject load{{QStringLiteral("cmd"), QStringLiteral("load")},
                     {QStringLiteral("path"), m_path},
                     {QStringLiteral("check_reference"), m_checkReference}};
    if (!m_stage.isEmpty())
      load.insert(QStringLiteral("stage"), m_stage);
    send(load, [=, this](const QJsonObject& r) {
      if (!requestOk(r, context))
        return finishJob();
      send({{QStringLiteral("cmd"), QStringLiteral("set_inputs")},
            {QStringLiteral("spec"), m_inputSpec}},
           [=, this](const QJsonObject& r) {
             if (!requestOk(r, tr("Inputs")))
               return finishJob();
             send({{QStringLiteral("cmd"), QStringLiteral("start")}},
                  [=, this](const QJsonObject& r) {
                    if (!requestOk(r, context))
                      return finishJob();
                    started(r);
                  });
           });
    });
  });
}

void ServeClient::jumpToStep(qint64 step) {
  enqueue(tr("Going to step %1").arg(step), [this, step] {
    if (!m_running) {
      Q_EMIT errorOccurred(tr("Start a run first."));
      return finishJob();
    }
    auto go = [this, step](bool back) {
      send({{QStringLiteral("cmd"), QStringLiteral("run_to_step")},
            {QStringLiteral("step"), static_cast<double>(step)}},
           [this, back](const QJsonObject& r) {
             if (!requestOk(r, tr("The jump failed")))
               return finishJob();
             const QString stop = str(r, "stop");
             finishStep(r, stop != QLatin1String("stepped") ? stop
                           : back                         ? QStringLiteral("jumped back")
                                                          : QStringLiteral("jumped ahead"));
           });
    };
    if (step < integer(m_lastState.value(QLatin1String("steps"))))
      loadAndStart([go](const QJsonObject&) { go(true); });
    else
      go(false);
  });
}

void ServeClient::step(EngineController::StepKind kind) {
  using K = EngineController::StepKind;
  enqueue(tr("Running"), [this, kind] {
    if (!m_running) {
      Q_EMIT errorOccurred(tr("Start a run first."));
      return finishJob();
    }
    if (m_lastState.value(QLatin1String("finished")).toBool())
      return publish(m_lastState, QStringLiteral("finished"));
    if (kind == K::Continue || kind == K::RunToEnd)
      return stepLoop(kind, QString());
    const QString cmd = kind == K::StepOver  ? QStringLiteral("step_over")
                        : kind == K::StepOut ? QStringLiteral("step_out")
                                             : QStringLiteral("step");
    send({{QStringLiteral("cmd"), cmd}}, [this](const QJsonObject& r) {
      if (!requestOk(r, tr("The step failed")))
        return finishJob();
      finishStep(r, str(r, "stop"));
    });
  });
}

void ServeClient::runTo(const QString& opId) {
  enqueue(tr("Running"), [this, opId] {
    if (!m_running) {
      Q_EMIT errorOccurred(tr("Start a run first."));
      return finishJob();
    }
    stepLoop(EngineController::StepKind::Continue, opId);
  });
}

void ServeClient::stepLoop(EngineController::StepKind kind, const QString& target) {
  // One `step` per request, like the in-process path: the run can be cancelled between steps and
  // breakpoints match op ids exactly (a location can hold an op and the reshards inserted for it).
  send({{QStringLiteral("cmd"), QStringLiteral("step")}},
       [this, kind, target](const QJsonObject& r) {
         if (!requestOk(r, tr("The step failed")))
           return finishJob();
         QString why;
         if (str(r, "stop") == QLatin1String("stepped")) {
           if (m_cancelled)
             why = QStringLiteral("cancelled");
           else if (kind == EngineController::StepKind::Continue && atAnyOp(r, m_breakpoints))
             why = QStringLiteral("breakpoint");
           else if (!target.isEmpty() && atAnyOp(r, {target}))
             why = QStringLiteral("reached the selected op");
           else
             return stepLoop(kind, target);
         }
         finishStep(r, why.isEmpty() ? str(r, "stop") : why);
       });
}

void ServeClient::finishStep(const QJsonObject& state, const QString& reason) {
  if (reason == QLatin1String("failed")) {
    const QString why = firstDiagnostic(state);
    Q_EMIT errorOccurred(
        tr("The run failed: %1")
            .arg(why.isEmpty() ? tr("unknown error") : why.section(QLatin1Char('\n'), 0, 0)));
  }
  publish(state, reason);
}

void ServeClient::watchValue(const QString& valueId) {
  if (valueId == m_watched)
    return;
  m_watched = valueId;
  enqueue(tr("Reading values"), [this, valueId] {
    // Only the newest selection is read.
    if (valueId != m_watched || !m_running)
      return finishJob();
    publish(m_lastState, m_lastReason);
  });
}

// --- snapshots -----------------------------------------------------------------------------------

void ServeClient::publish(const QJsonObject& state, const QString& reason) {
  m_lastState = state;
  m_lastReason = reason;
  const bool mpi = m_command.backend == QLatin1String("mpi");
  if (state.contains(QLatin1String("device_ranks"))) {
    m_deviceRanks.clear();
    for (const QJsonValue& v : state.value(QLatin1String("device_ranks")).toArray())
      m_deviceRanks[integer(v.toObject().value(QLatin1String("device")))] =
          static_cast<int>(integer(v.toObject().value(QLatin1String("rank"))));
  }
  auto snap = std::make_shared<ExecutionSnapshot>();
  snap->backend = m_command.backend;
  snap->numRanks = mpi ? m_ranks : 0;
  snap->started = true;
  snap->finished = state.value(QLatin1String("finished")).toBool();
  snap->failed = state.value(QLatin1String("failed")).toBool();
  snap->stopReason = reason;
  snap->steps = integer(state.value(QLatin1String("steps")));
  snap->referenceSummary = str(state, "reference_summary");
  for (const QJsonValue& v : state.value(QLatin1String("devices")).toArray()) {
    const QJsonObject d = v.toObject();
    DevicePosition pos;
    pos.device = integer(d.value(QLatin1String("device")));
    pos.rank = mpi ? m_deviceRanks.value(pos.device,
                                         static_cast<int>(integer(d.value(QLatin1String("rank")))))
                   : -1;
    if (!d.value(QLatin1String("op")).isNull()) {
      pos.op = str(d, "op");
      pos.opId = str(d, "loc") + QLatin1Char(':') + pos.op;
      pos.line = str(d, "loc").section(QLatin1Char(':'), 0, 0).toInt();
      pos.depth = static_cast<int>(integer(d.value(QLatin1String("depth"))));
    }
    snap->devices.push_back(pos);
  }
  for (const QJsonValue& v : state.value(QLatin1String("divergences")).toArray()) {
    const QJsonObject d = v.toObject();
    snap->divergences.push_back(
        QStringLiteral("line %1: %2")
            .arg(str(d, "loc").section(QLatin1Char(':'), 0, 0), str(d, "message")));
    for (const QJsonValue& dev : d.value(QLatin1String("devices")).toArray())
      if (!snap->divergingDevices.contains(integer(dev)))
        snap->divergingDevices.push_back(integer(dev));
  }
  snap->problems = runErrors(state, snap->devices);
  snap->valueId = m_watched;
  readTimeline(snap);
}

void ServeClient::readTimeline(std::shared_ptr<ExecutionSnapshot> snap) {
  const qint64 known = m_timeline ? m_timeline->known() : 0;
  if (snap->steps <= known) {
    snap->timeline = m_timeline;
    return fetchValues(snap, -2);
  }
  send({{QStringLiteral("cmd"), QStringLiteral("timeline")},
        {QStringLiteral("from"), static_cast<double>(known)}},
       [this, snap](const QJsonObject& r) {
         if (r.value(QLatin1String("ok")).toBool()) {
           // A new timeline: snapshots already published keep theirs.
           auto grown = m_timeline ? std::make_shared<Timeline>(*m_timeline)
                                   : std::make_shared<Timeline>();
           for (const QJsonValue& v : r.value(QLatin1String("steps")).toArray()) {
             const QJsonObject o = v.toObject();
             Timeline::Step step;
             if (!o.value(QLatin1String("op")).isNull())
               step.op = grown->opIndex({str(o, "loc") + QLatin1Char(':') + str(o, "op"),
                                         str(o, "op"),
                                         str(o, "loc").section(QLatin1Char(':'), 0, 0).toInt()});
             step.depth = static_cast<quint16>(std::clamp<qint64>(
                 integer(o.value(QLatin1String("depth"))), 1, 0xffff));
             step.collective = o.value(QLatin1String("collective")).toBool();
             step.diverged = o.value(QLatin1String("diverged")).toBool();
             grown->steps.push_back(step);
           }
           m_timeline = grown;
         }
         // (A server without the command: the run goes on without a timeline.)
         snap->timeline = m_timeline;
         fetchValues(snap, -2);
       });
}

void ServeClient::fetchValues(std::shared_ptr<ExecutionSnapshot> snap, int index) {
  // In turn: the assembled value (-2), the reference (-1), then each device; then publish.
  const QJsonObject fields = valueFields(snap->valueId);
  const bool done =
      snap->valueId.isEmpty() || index >= snap->devices.size() || (index == -2 && fields.isEmpty());
  if (done) {
    if (!snap->valueId.isEmpty() && fields.isEmpty())
      snap->global.note = tr("the value is not in the per-device program");
    m_execution = snap;
    Q_EMIT executionChanged(snap);
    return finishJob();
  }
  if (index == -1 && (!m_checkReference || !fields.contains(QLatin1String("result"))))
    return fetchValues(snap, 0);
  QJsonObject request = fields;
  request[QStringLiteral("cmd")] = QStringLiteral("fetch");
  request[QStringLiteral("max_elements")] = kMaxElements;
  request[QStringLiteral("device")] =
      index == -2   ? QJsonValue(QStringLiteral("global"))
      : index == -1 ? QJsonValue(QStringLiteral("reference"))
                    : QJsonValue(static_cast<double>(snap->devices[index].device));
  send(request, [this, snap, index](const QJsonObject& r) {
    const bool ok = r.value(QLatin1String("ok")).toBool();
    const QString error = str(r, "error");
    if (index == -2 && !ok && isMissingValue(error)) {
      snap->global.note = tr("the value is not in the per-device program");
      return fetchValues(snap, static_cast<int>(snap->devices.size()));
    }
    if (index == -2) {
      snap->global = ok ? tensorData(r) : TensorData();
      if (!ok)
        snap->global.note = error;
      snap->replicaProblem = str(r, "replica_problem");
    } else if (index == -1) {
      if (ok)
        snap->reference = tensorData(r);
    } else {
      // Not live on the device: an empty tile, as in process.
      snap->perDevice.resize(index + 1);
      if (ok)
        snap->perDevice[index] = tensorData(r);
    }
    fetchValues(snap, index + 1);
  });
}

} // namespace shardscope::widgets
