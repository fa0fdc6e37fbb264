// ServeClient against a real `shardscope-cli serve` child: its snapshots equal the in-process
// EngineController's for the same program and inputs; a child that dies, hangs, closes its output
// or does not exist becomes a failed run with a message, and a new run works afterwards. The
// `mpi` cases (run by ctest as mpi.serve_client_np2) drive `mpirun -np 2` and the app window.

#include "app/gui/main_window.h"

#include "widgets/controller/engine_controller.h"
#include "widgets/controller/serve_client.h"
#include "widgets/controller/session_context.h"
#include "widgets/views/execution_panel.h"
#include "widgets/views/mesh_view.h"

#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/types.h>

using namespace shardscope::widgets;
using K = EngineController::StepKind;

namespace {

const QString kCli = QStringLiteral(SHARDSCOPE_CLI_PATH);
const QString kMatmul =
    QStringLiteral(SHARDSCOPE_TEST_DATA_DIR) + QStringLiteral("/session/global_matmul.mlir");
const QString kAddId = QStringLiteral("11:3:stablehlo.add#0");
constexpr int kWaitMs = 60000;

// Waits until `client` is idle after having sent at least one snapshot since `spy` was made.
bool waitIdle(ServeClient& client, QSignalSpy& spy) {
  QElapsedTimer timer;
  timer.start();
  while ((spy.isEmpty() || client.isBusy()) && timer.elapsed() < kWaitMs)
    QTest::qWait(10);
  return !spy.isEmpty() && !client.isBusy();
}

ExecutionSnapshotPtr runServe(ServeClient& client, std::function<void()> command) {
  QSignalSpy spy(&client, &ServeClient::executionChanged);
  command();
  return waitIdle(client, spy) ? client.execution() : nullptr;
}

ExecutionSnapshotPtr runEngine(EngineController& engine, std::function<void()> command) {
  QSignalSpy spy(&engine, &EngineController::executionChanged);
  command();
  QElapsedTimer timer;
  timer.start();
  while ((spy.isEmpty() || engine.isBusy()) && timer.elapsed() < kWaitMs)
    QTest::qWait(10);
  return spy.isEmpty() ? nullptr : engine.execution();
}

bool sameTensor(const TensorData& a, const TensorData& b) {
  if (a.valid != b.valid || a.shape != b.shape || a.values.size() != b.values.size())
    return false;
  for (int i = 0; i < a.values.size(); ++i)
    if (a.values[i] != b.values[i] && !(std::isnan(a.values[i]) && std::isnan(b.values[i])))
      return false;
  return true;
}

// The parts of two snapshots that must agree whichever way the run executes.
void compareSnapshots(const ExecutionSnapshot& local, const ExecutionSnapshot& served) {
  QCOMPARE(served.steps, local.steps);
  QCOMPARE(served.finished, local.finished);
  QCOMPARE(served.failed, local.failed);
  QCOMPARE(served.stopReason, local.stopReason);
  QCOMPARE(served.referenceSummary, local.referenceSummary);
  QCOMPARE(served.divergences, local.divergences);
  QCOMPARE(served.devices.size(), local.devices.size());
  for (int d = 0; d < local.devices.size(); ++d) {
    QCOMPARE(served.devices[d].device, local.devices[d].device);
    QCOMPARE(served.devices[d].op, local.devices[d].op);
    QCOMPARE(served.devices[d].opId, local.devices[d].opId);
    QCOMPARE(served.devices[d].line, local.devices[d].line);
    QCOMPARE(served.devices[d].depth, local.devices[d].depth);
  }
  QCOMPARE(served.valueId, local.valueId);
  QCOMPARE(served.perDevice.size(), local.perDevice.size());
  for (int d = 0; d < local.perDevice.size(); ++d)
    QVERIFY2(sameTensor(served.perDevice[d], local.perDevice[d]), qPrintable(QString::number(d)));
  QVERIFY(sameTensor(served.global, local.global));
  QVERIFY(sameTensor(served.reference, local.reference));
}

bool waitFor(const std::function<bool()>& done, int ms = kWaitMs) {
  QElapsedTimer timer;
  timer.start();
  while (!done() && timer.elapsed() < ms)
    QTest::qWait(10);
  return done();
}

bool mpiEnabled() { return qEnvironmentVariableIsSet("SHARDSCOPE_TEST_MPI"); }

} // namespace

class ServeClientTest : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    QVERIFY2(QFileInfo(kCli).isExecutable(), qPrintable(kCli));
    QCoreApplication::setOrganizationName(QStringLiteral("ShardScope"));
    QCoreApplication::setApplicationName(QStringLiteral("ShardScopeServeClientTest"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                       m_dir.filePath(QStringLiteral("config")));
    // The app window finds the CLI through this (the test is not next to it).
    qputenv("SHARDSCOPE_CLI", kCli.toUtf8());
  }

  void valueIdsAreFetched_data() {
    QTest::addColumn<QString>("valueId");
    QTest::newRow("op result") << kAddId;
    QTest::newRow("partial sums") << QStringLiteral("10:3:stablehlo.dot_general#0");
    QTest::newRow("argument") << QStringLiteral("arg:main#0");
  }

  // The local server steps exactly like the engine thread: same rows, values, reasons.
  void valueIdsAreFetched() {
    QFETCH(QString, valueId);
    EngineController engine;
    QSignalSpy loaded(&engine, &EngineController::programLoaded);
    engine.load(kMatmul);
    QVERIFY(loaded.wait(kWaitMs));
    engine.watchValue(valueId);
    ServeClient client;
    client.setCommand(ServeClient::localCommand(kCli));

    ExecutionSnapshotPtr local =
        runEngine(engine, [&] { engine.startExecution(QStringLiteral("random:5"), true); });
    ExecutionSnapshotPtr served = runServe(
        client, [&] { client.startRun(kMatmul, QStringLiteral("random:5"), true, {}, valueId); });
    QVERIFY(local && served);
    QCOMPARE(served->backend, QStringLiteral("serve"));
    QCOMPARE(served->devices.size(), 4);
    compareSnapshots(*local, *served);
    int steps = 0;
    bool sawGlobal = served->global.valid;
    QVector<qint64> globalShape = served->global.shape;
    while (!local->finished && steps++ < 50) {
      local = runEngine(engine, [&] { engine.step(K::Step); });
      served = runServe(client, [&] { client.step(K::Step); });
      QVERIFY(local && served);
      compareSnapshots(*local, *served);
      if (served->global.valid) {
        sawGlobal = true;
        globalShape = served->global.shape;
      }
    }
    QVERIFY(served->finished);
    QVERIFY(sawGlobal);
    const bool argument = valueId.startsWith(QLatin1String("arg"));
    QCOMPARE(globalShape, (QVector<qint64>{8, argument ? 16 : 4}));
    QVERIFY(!served->failed);
  }

  void otherPrograms_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("valueName");
    QTest::addColumn<QString>("inputs");
    QTest::addColumn<int>("divergences");
    QTest::newRow("wrong reference")
        << QStringLiteral(SHARDSCOPE_WIDGET_TEST_DATA_DIR "/wrong_reference.mlir")
        << QStringLiteral("%1") << QStringLiteral("iota") << 1;
    QTest::newRow("loop region argument")
        << QStringLiteral(SHARDSCOPE_TEST_DATA_DIR "/session/loop.mlir") << QStringLiteral("%acc")
        << QStringLiteral("ones") << 0;
  }

  // Divergences from a wrong reference twin, and a region argument of a loop, step by step.
  void otherPrograms() {
    QFETCH(QString, path);
    QFETCH(QString, valueName);
    QFETCH(QString, inputs);
    QFETCH(int, divergences);
    EngineController engine;
    QSignalSpy loaded(&engine, &EngineController::programLoaded);
    engine.load(path);
    QVERIFY(loaded.wait(kWaitMs));
    QString valueId;
    for (const ValueRow& row : engine.program()->stage(StageId::AsWritten).values)
      if (row.name == valueName && valueId.isEmpty())
        valueId = row.id;
    QVERIFY(!valueId.isEmpty());
    engine.watchValue(valueId);
    ServeClient client;
    client.setCommand(ServeClient::localCommand(kCli));
    ExecutionSnapshotPtr local = runEngine(engine, [&] { engine.startExecution(inputs, true); });
    ExecutionSnapshotPtr served =
        runServe(client, [&] { client.startRun(path, inputs, true, {}, valueId); });
    QVERIFY(local && served);
    compareSnapshots(*local, *served);
    bool sawValue = false;
    for (int i = 0; i < 50 && !local->finished; ++i) {
      local = runEngine(engine, [&] { engine.step(K::Step); });
      served = runServe(client, [&] { client.step(K::Step); });
      QVERIFY(local && served);
      compareSnapshots(*local, *served);
      sawValue = sawValue || (!served->perDevice.isEmpty() && served->perDevice.last().valid);
    }
    QVERIFY2(sawValue, qPrintable(valueId + QStringLiteral(": ") + served->global.note));
    QVERIFY(served->finished);
    QCOMPARE(served->divergences.size(), divergences);
    QCOMPARE(served->divergingDevices, local->divergingDevices);
  }

  // Continue stops at a breakpoint, run to an op stops there, run to end finishes: as in process.
  void breakpointsAndRunTo() {
    EngineController engine;
    QSignalSpy loaded(&engine, &EngineController::programLoaded);
    engine.load(kMatmul);
    QVERIFY(loaded.wait(kWaitMs));
    const QString addOp = QStringLiteral("11:3:stablehlo.add");
    engine.setBreakpoint(addOp, true);
    engine.watchValue(kAddId);
    ServeClient client;
    client.setCommand(ServeClient::localCommand(kCli));
    client.setBreakpoints({addOp});
    ExecutionSnapshotPtr local = runEngine(engine, [&] { engine.startExecution({}, true); });
    ExecutionSnapshotPtr served =
        runServe(client, [&] { client.startRun(kMatmul, {}, true, {addOp}, kAddId); });
    QVERIFY(local && served);
    local = runEngine(engine, [&] { engine.step(K::Continue); });
    served = runServe(client, [&] { client.step(K::Continue); });
    QVERIFY(local && served);
    QCOMPARE(served->stopReason, QStringLiteral("breakpoint"));
    QCOMPARE(served->devices[0].opId, addOp);
    compareSnapshots(*local, *served);
    local = runEngine(engine, [&] { engine.step(K::RunToEnd); });
    served = runServe(client, [&] { client.step(K::RunToEnd); });
    QVERIFY(local && served);
    QVERIFY(served->finished);
    compareSnapshots(*local, *served);

    // Run to the selected op, in a second run on the same server.
    served = runServe(client, [&] { client.startRun(kMatmul, {}, true, {}, kAddId); });
    QVERIFY(served && !served->finished && served->steps == 0);
    served = runServe(client, [&] { client.runTo(addOp); });
    QVERIFY(served);
    QCOMPARE(served->stopReason, QStringLiteral("reached the selected op"));
    QCOMPARE(served->devices[0].opId, addOp);
  }

  // The timeline and jumps through a serve child match the in-process run step for step: the same
  // ops (same op ids), collectives and depths; back to step 2 (a new run on the server), then
  // ahead to 3, standing where the in-process run stands.
  void timelineAndJumpsMatchInProcess() {
    EngineController engine;
    QSignalSpy loaded(&engine, &EngineController::programLoaded);
    engine.load(kMatmul);
    QVERIFY(loaded.wait(kWaitMs));
    engine.watchValue(kAddId);
    ServeClient client;
    client.setCommand(ServeClient::localCommand(kCli));
    ExecutionSnapshotPtr local = runEngine(engine, [&] { engine.startExecution({}, true); });
    ExecutionSnapshotPtr served =
        runServe(client, [&] { client.startRun(kMatmul, {}, true, {}, kAddId); });
    QVERIFY(local && served);
    local = runEngine(engine, [&] { engine.step(K::RunToEnd); });
    served = runServe(client, [&] { client.step(K::RunToEnd); });
    QVERIFY(local && served && served->finished);
    QVERIFY(local->timeline && served->timeline);
    QCOMPARE(served->timeline->known(), served->steps);
    QCOMPARE(served->timeline->known(), local->timeline->known());
    QVERIFY(served->steps > 3);
    int collectives = 0;
    for (int k = 0; k < served->timeline->steps.size(); ++k) {
      const Timeline::Step& a = local->timeline->steps[k];
      const Timeline::Step& b = served->timeline->steps[k];
      QCOMPARE(served->timeline->ops[b.op].opId, local->timeline->ops[a.op].opId);
      QCOMPARE(b.collective, a.collective);
      QCOMPARE(b.depth, a.depth);
      collectives += b.collective;
    }
    QVERIFY(collectives > 0); // the matmul's partial sums are all-reduced

    for (qint64 step : {qint64(2), qint64(3)}) {
      local = runEngine(engine, [&] { engine.jumpToStep(step); });
      served = runServe(client, [&] { client.jumpToStep(step); });
      QVERIFY(local && served);
      QCOMPARE(served->steps, step);
      QCOMPARE(served->stopReason, step == 2 ? QStringLiteral("jumped back")
                                              : QStringLiteral("jumped ahead"));
      QCOMPARE(served->timeline->known(), local->timeline->known()); // the steps ahead stay
      compareSnapshots(*local, *served);
    }
  }

  // A child killed mid-run fails the run with a message; the next run starts a new child.
  void killedChildIsReported() {
    ServeClient client;
    client.setCommand(ServeClient::localCommand(kCli));
    ExecutionSnapshotPtr e =
        runServe(client, [&] { client.startRun(kMatmul, {}, false, {}, kAddId); });
    QVERIFY(e && e->started && !e->failed);
    const qint64 pid = client.processId();
    QVERIFY(pid > 0);
    QSignalSpy errors(&client, &ServeClient::errorOccurred);
    client.step(K::Step);
    QCOMPARE(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
    QVERIFY(waitFor([&] { return client.execution()->failed; }));
    QVERIFY(waitFor([&] { return !client.isBusy(); }));
    e = client.execution();
    QCOMPARE(e->stopReason, QStringLiteral("failed"));
    QVERIFY2(e->failure.contains(QLatin1String("crashed")) ||
                 e->failure.contains(QLatin1String("exited")),
             qPrintable(e->failure));
    QVERIFY(!errors.isEmpty());
    QVERIFY(e->failure.startsWith(errors.last().at(0).toString().section(QLatin1Char('.'), 0, 0)));
    QCOMPARE(client.processId(), 0);

    e = runServe(client, [&] { client.startRun(kMatmul, {}, false, {}, kAddId); });
    QVERIFY(e && e->started && !e->failed && e->failure.isEmpty());
    QVERIFY(client.processId() > 0 && client.processId() != pid);
    e = runServe(client, [&] { client.step(K::Step); });
    QVERIFY(e && e->steps == 1 && !e->failed);
    e = runServe(client, [&] { client.step(K::RunToEnd); });
    QVERIFY(e && e->finished && !e->failed);
  }

  void brokenChildrenAreErrors_data() {
    QTest::addColumn<QString>("program");
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing") << QStringLiteral("/nonexistent/shardscope-cli")
                             << QStringList{QStringLiteral("serve")}
                             << QStringLiteral("cannot start /nonexistent/shardscope-cli");
    QTest::newRow("hangs") << QStringLiteral("/bin/sh")
                           << QStringList{QStringLiteral("-c"), QStringLiteral("exec sleep 60")}
                           << QStringLiteral("no answer within 1 s");
    QTest::newRow("closes its output")
        << QStringLiteral("/bin/sh")
        << QStringList{QStringLiteral("-c"),
                       QStringLiteral("exec 1>&-; echo bye >&2; exec sleep 60")}
        << QStringLiteral("no answer within 1 s");
    QTest::newRow("exits") << QStringLiteral("/bin/sh")
                           << QStringList{QStringLiteral("-c"),
                                          QStringLiteral("echo 'no MPI here' >&2; exit 3")}
                           << QStringLiteral("exited with code 3");
    QTest::newRow("not the protocol")
        << QStringLiteral("/bin/sh")
        << QStringList{QStringLiteral("-c"),
                       QStringLiteral("read line; echo '{\"id\":1,\"ok\":true}'; exec sleep 60")}
        << QStringLiteral("does not speak shardscope-serve");
  }

  // Whatever is wrong with the child, the run fails with a message, quickly, and the client is
  // usable again.
  void brokenChildrenAreErrors() {
    QFETCH(QString, program);
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    ServeClient client;
    client.setTimeout(1000);
    client.setCommand({program, arguments, {}, QStringLiteral("serve")});
    QSignalSpy errors(&client, &ServeClient::errorOccurred);
    QElapsedTimer timer;
    timer.start();
    client.startRun(kMatmul, {}, false, {}, {});
    QVERIFY(waitFor([&] { return !errors.isEmpty() && !client.isBusy(); }, 15000));
    QVERIFY(timer.elapsed() < 10000);
    QVERIFY2(errors.first().at(0).toString().contains(expected),
             qPrintable(errors.first().at(0).toString()));
    QVERIFY(client.execution()->failure.contains(expected));
    QVERIFY(client.execution() && client.execution()->failed);
    const QByteArray tag = QTest::currentDataTag();
    if (tag == "closes its output" || tag == "exits")
      QVERIFY2(client.execution()->failure.contains(QLatin1String("Its last messages:")),
               qPrintable(client.execution()->failure));
    // Usable again: a working server now.
    client.setCommand(ServeClient::localCommand(kCli));
    client.setTimeout(60000);
    ExecutionSnapshotPtr e =
        runServe(client, [&] { client.startRun(kMatmul, {}, false, {}, kAddId); });
    QVERIFY(e && e->started && !e->failed);
  }

  // A program the server cannot load is a message, not a failed server.
  void badProgramIsAMessage() {
    ServeClient client;
    client.setCommand(ServeClient::localCommand(kCli));
    QSignalSpy errors(&client, &ServeClient::errorOccurred);
    client.startRun(QStringLiteral("/nonexistent/program.mlir"), {}, false, {}, {});
    QVERIFY(waitFor([&] { return !errors.isEmpty() && !client.isBusy(); }));
    QVERIFY2(errors.first().at(0).toString().startsWith(QLatin1String("Could not start the run")),
             qPrintable(errors.first().at(0).toString()));
    QVERIFY(client.processId() > 0); // the server lives on
    ExecutionSnapshotPtr e =
        runServe(client, [&] { client.startRun(kMatmul, {}, false, {}, kAddId); });
    QVERIFY(e && e->started && !e->failed);
  }

  // A step that fails in the server is a problem of the run at the op and line where it failed:
  // the interpreter does not know `mydialect.frobnicate` (line 3, column 3).
  void failedStepIsAProblem() {
    ServeClient client;
    client.setCommand(ServeClient::localCommand(kCli));
    const QString program =
        QStringLiteral(SHARDSCOPE_TEST_DATA_DIR) + QStringLiteral("/session/unsupported_op.mlir");
    ExecutionSnapshotPtr e = runServe(client, [&] { client.startRun(program, {}, false, {}, {}); });
    QVERIFY(e && e->started && !e->failed);
    QVERIFY(e->problems.isEmpty());
    e = runServe(client, [&] { client.step(K::Step); });
    QVERIFY(e && e->failed);
    QCOMPARE(e->problems.size(), 1);
    const ProblemRow& row = e->problems.first();
    QCOMPARE(row.stage, QStringLiteral("Run"));
    QCOMPARE(row.severity, QStringLiteral("error"));
    QCOMPARE(row.line, 3);
    QCOMPARE(row.column, 3);
    QCOMPARE(row.message,
             QStringLiteral("unsupported op 'mydialect.frobnicate' in the interpreter"));
    QCOMPARE(row.opId, QStringLiteral("3:3:mydialect.frobnicate"));
  }

  // --- MPI (ctest: mpi.serve_client_np2, with SHARDSCOPE_TEST_MPI set) --------------------------

  void mpiRanksAppear() {
    if (!mpiEnabled())
      QSKIP("set SHARDSCOPE_TEST_MPI (ctest's mpi.serve_client_np2 does)");
    ServeClient local;
    local.setCommand(ServeClient::localCommand(kCli));
    ServeClient mpi;
    mpi.setCommand(ServeClient::mpiCommand(kCli, MpiOptions{}));
    ExecutionSnapshotPtr a = runServe(
        local, [&] { local.startRun(kMatmul, QStringLiteral("random:2"), true, {}, kAddId); });
    ExecutionSnapshotPtr b =
        runServe(mpi, [&] { mpi.startRun(kMatmul, QStringLiteral("random:2"), true, {}, kAddId); });
    QVERIFY(a && b);
    QVERIFY2(!b->failed, qPrintable(b->failure));
    QCOMPARE(b->backend, QStringLiteral("mpi"));
    QCOMPARE(b->numRanks, 2);
    QCOMPARE(mpi.rankProcessIds().size(), 2);
    QVector<int> ranks;
    for (const DevicePosition& p : b->devices)
      ranks.push_back(p.rank);
    QCOMPARE(ranks, (QVector<int>{0, 0, 1, 1}));
    a = runServe(local, [&] { local.step(K::RunToEnd); });
    b = runServe(mpi, [&] { mpi.step(K::RunToEnd); });
    QVERIFY(a && b && b->finished);
    compareSnapshots(*a, *b);
    QVERIFY(b->timeline && b->timeline->known() == b->steps);
    // Back to step 1 under MPI: every rank starts again and stands where the local one does.
    a = runServe(local, [&] { local.jumpToStep(1); });
    b = runServe(mpi, [&] { mpi.jumpToStep(1); });
    QVERIFY(a && b && !b->failed);
    QCOMPARE(b->steps, qint64(1));
    compareSnapshots(*a, *b);

    // A rank that dies fails the run with a message, and a new run works.
    b = runServe(mpi, [&] { mpi.startRun(kMatmul, {}, false, {}, kAddId); });
    QVERIFY(b && !b->failed);
    QCOMPARE(::kill(static_cast<pid_t>(mpi.rankProcessIds().value(1)), SIGKILL), 0);
    mpi.step(K::RunToEnd);
    QVERIFY(waitFor([&] { return mpi.execution()->failed && !mpi.isBusy(); }));
    QVERIFY2(mpi.execution()->failure.startsWith(QLatin1String("The MPI server failed")),
             qPrintable(mpi.execution()->failure));
    QVERIFY2(mpi.execution()->failure.contains(QLatin1String("rank 1")),
             qPrintable(mpi.execution()->failure));
    b = runServe(mpi, [&] { mpi.startRun(kMatmul, {}, false, {}, kAddId); });
    QVERIFY(b && !b->failed && b->numRanks == 2);
  }

  // The window with an MPI run stepped a few times: ranks on the tiles and in the mesh view. Saves
  // serve_client_mpi.png next to the test for looking at it.
  void mpiRunInTheWindow() {
    if (!mpiEnabled())
      QSKIP("set SHARDSCOPE_TEST_MPI (ctest's mpi.serve_client_np2 does)");
    shardscope::gui::MainWindow window;
    window.resize(1440, 900);
    window.show();
    QSignalSpy loaded(&window, &shardscope::gui::MainWindow::programLoaded);
    QVERIFY(window.openFile(kMatmul));
    QVERIFY(loaded.wait(kWaitMs));
    window.context()->selectValue(QStringLiteral("%0"));
    auto* backend = window.findChild<QComboBox*>(QStringLiteral("backendCombo"));
    QVERIFY(backend);
    backend->setCurrentIndex(backend->findData(QStringLiteral("mpi")));
    QCOMPARE(window.findChild<QSpinBox*>(QStringLiteral("mpiRanksSpin"))->value(), 2);
    QCOMPARE(window.controller()->backend(), EngineController::Backend::Mpi);
    auto click = [&](const QString& name) {
      auto* b = window.findChild<QPushButton*>(name);
      if (!waitFor([&] { return b->isEnabled() && !window.controller()->isBusy(); }))
        return false;
      QSignalSpy changed(window.context(), &SessionContext::executionChanged);
      b->click();
      return waitFor([&] { return !changed.isEmpty() && !window.controller()->isBusy(); });
    };
    QVERIFY(click(QStringLiteral("startButton")));
    for (int i = 0; i < 3; ++i)
      QVERIFY(click(QStringLiteral("stepButton")));
    const ExecutionSnapshotPtr e = window.context()->execution();
    QVERIFY(e);
    QVERIFY2(!e->failed, qPrintable(e->failure));
    QCOMPARE(e->numRanks, 2);
    QCOMPARE(e->steps, 3);
    auto* mesh = window.findChild<MeshView*>();
    QCOMPARE(mesh->rankCaption(), QStringLiteral("MPI: 2 ranks, 2 devices per rank"));
    QCOMPARE(mesh->rankOf(3), 1);
    auto* panel = window.findChild<ExecutionPanel*>();
    QVERIFY(panel->statusLabel()->text().contains(QLatin1String("on MPI (2 ranks)")));
    // The mesh view at its preferred size, where each device has room for id, coordinates, rank.
    MeshView standalone(window.context());
    standalone.resize(standalone.sizeHint());
    QVERIFY(standalone.grab().save(QStringLiteral(SHARDSCOPE_TEST_OUTPUT_DIR) +
                                   QStringLiteral("/serve_client_mpi_mesh.png")));
    window.findChild<QDockWidget*>(QStringLiteral("executionDock"))->raise();
    QTest::qWait(100);
    QVERIFY(window.grab().save(QStringLiteral(SHARDSCOPE_TEST_OUTPUT_DIR) +
                               QStringLiteral("/serve_client_mpi.png")));

    // A rank dies under the window: reported in the panel, and a new run works.
    const qint64 pid = window.controller()->serveClient()->rankProcessIds().value(1);
    QVERIFY(pid > 0);
    QCOMPARE(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
    QVERIFY(waitFor([&] { return window.context()->execution()->failed; }));
    QVERIFY(panel->statusLabel()->text().contains(QLatin1String("failed")));
    QTest::qWait(100);
    QVERIFY(window.grab().save(QStringLiteral(SHARDSCOPE_TEST_OUTPUT_DIR) +
                               QStringLiteral("/serve_client_mpi_failed.png")));
    QVERIFY(click(QStringLiteral("startButton")));
    QVERIFY(!window.context()->execution()->failed);
    QCOMPARE(window.context()->execution()->steps, 0);

    // Back to the local backend: the MPI server (mpirun) ends instead of idling on, and stepping
    // asks for a new run.
    const qint64 mpirun = window.controller()->serveClient()->processId();
    QVERIFY(mpirun > 0);
    backend->setCurrentIndex(backend->findData(QStringLiteral("local")));
    QCOMPARE(window.controller()->backend(), EngineController::Backend::Local);
    QCOMPARE(window.controller()->serveClient()->processId(), 0);
    QVERIFY(waitFor([&] { return ::kill(static_cast<pid_t>(mpirun), 0) != 0; }));
  }

private:
  QTemporaryDir m_dir;
};

QTEST_MAIN(ServeClientTest)
#include "serve_client_test.moc"
