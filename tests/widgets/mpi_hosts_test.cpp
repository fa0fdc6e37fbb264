// MPI runs on the hosts of a hostfile: the mpirun argument list with and without one, the
// Execution panel's hostfile controls (remembered in the settings and in sessions, passed to the
// controller), and (ctest: mpi.serve_client_hostfile) a real run with a `localhost slots=2`
// hostfile that steps, and one slot that holds two ranks only when oversubscribing.

#include "app/gui/main_window.h"

#include "widgets/controller/engine_controller.h"
#include "widgets/controller/serve_client.h"
#include "widgets/controller/session_context.h"
#include "widgets/views/execution_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace shardscope::widgets;
using shardscope::gui::MainWindow;

namespace {

const QString kCli = QStringLiteral(SHARDSCOPE_CLI_PATH);
const QString kMatmul =
    QStringLiteral(SHARDSCOPE_TEST_DATA_DIR) + QStringLiteral("/session/global_matmul.mlir");
constexpr int kWaitMs = 60000;

QStringList serveTail(const QString& cli) {
  return {cli, QStringLiteral("serve"), QStringLiteral("--backend"), QStringLiteral("mpi")};
}

} // namespace

class MpiHostsTest : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("ShardScope"));
    QCoreApplication::setApplicationName(QStringLiteral("ShardScopeMpiHostsTest"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                       m_dir.filePath(QStringLiteral("config")));
    qputenv("SHARDSCOPE_CLI", kCli.toUtf8());
  }

  void init() { QSettings().clear(); }

  // Without a hostfile every rank runs here, oversubscribed as before (the tick is not asked);
  // with one, `--hostfile FILE` and `--oversubscribe` only when ticked.
  void argumentsFollowTheHostfile_data() {
    QTest::addColumn<QString>("hostfile");
    QTest::addColumn<bool>("oversubscribe");
    QTest::addColumn<int>("ranks");
    QTest::addColumn<QStringList>("expected");
    const QStringList tail = serveTail(QStringLiteral("/opt/cli"));
    QTest::newRow("no hostfile") << QString() << false << 2
                                 << (QStringList{QStringLiteral("--oversubscribe"),
                                                 QStringLiteral("-np"), QStringLiteral("2")} +
                                     tail);
    QTest::newRow("no hostfile, ticked")
        << QString() << true << 4
        << (QStringList{QStringLiteral("--oversubscribe"), QStringLiteral("-np"),
                        QStringLiteral("4")} +
            tail);
    QTest::newRow("hostfile") << QStringLiteral("/etc/hosts.mpi") << false << 8
                              << (QStringList{QStringLiteral("--hostfile"),
                                              QStringLiteral("/etc/hosts.mpi"),
                                              QStringLiteral("-np"), QStringLiteral("8")} +
                                  tail);
    QTest::newRow("hostfile, oversubscribed")
        << QStringLiteral(" hosts.txt ") << true << 3
        << (QStringList{QStringLiteral("--hostfile"), QStringLiteral("hosts.txt"),
                        QStringLiteral("--oversubscribe"), QStringLiteral("-np"),
                        QStringLiteral("3")} +
            tail);
  }

  void argumentsFollowTheHostfile() {
    QFETCH(QString, hostfile);
    QFETCH(bool, oversubscribe);
    QFETCH(int, ranks);
    QFETCH(QStringList, expected);
    const MpiOptions options{ranks, hostfile, oversubscribe};
    QCOMPARE(ServeClient::mpiArguments(QStringLiteral("/opt/cli"), options), expected);
    const ServeCommand command = ServeClient::mpiCommand(QStringLiteral("/opt/cli"), options);
    QCOMPARE(command.arguments, expected);
    QCOMPARE(command.backend, QStringLiteral("mpi"));
  }

  // The panel's hostfile reaches the controller, the tick is only offered with a hostfile, and
  // both come back in a new window (settings) and from a saved session.
  void panelPassesAndRemembersTheHostfile() {
    const QString hosts = m_dir.filePath(QStringLiteral("hosts"));
    {
      MainWindow window;
      window.show();
      auto* backend = window.findChild<QComboBox*>(QStringLiteral("backendCombo"));
      auto* edit = window.findChild<QLineEdit*>(QStringLiteral("mpiHostfileEdit"));
      auto* tick = window.findChild<QCheckBox*>(QStringLiteral("mpiOversubscribeCheck"));
      QVERIFY(backend && edit && tick);
      QVERIFY(!edit->isVisible()); // the Local backend has no hosts
      backend->setCurrentIndex(backend->findData(QStringLiteral("mpi")));
      QVERIFY(edit->isVisible());
      QVERIFY(!tick->isEnabled());
      edit->setText(hosts);
      QVERIFY(tick->isEnabled());
      Q_EMIT edit->editingFinished();
      QCOMPARE(window.controller()->mpiOptions(), (MpiOptions{2, hosts, false}));
      tick->setChecked(true);
      window.findChild<QSpinBox*>(QStringLiteral("mpiRanksSpin"))->setValue(3);
      QCOMPARE(window.controller()->mpiOptions(), (MpiOptions{3, hosts, true}));
      QCOMPARE(window.controller()->backend(), EngineController::Backend::Mpi);
    }
    {
      MainWindow window;
      QCOMPARE(window.controller()->backend(), EngineController::Backend::Mpi);
      QCOMPARE(window.controller()->mpiOptions(), (MpiOptions{3, hosts, true}));
      QCOMPARE(window.findChild<QLineEdit*>(QStringLiteral("mpiHostfileEdit"))->text(), hosts);
      // A session keeps them: saved, changed, restored.
      QSignalSpy loaded(&window, &MainWindow::programLoaded);
      QVERIFY(window.openFile(kMatmul));
      QVERIFY(loaded.wait(kWaitMs));
      const QString session = m_dir.filePath(QStringLiteral("session.json"));
      QVERIFY(window.saveSession(session));
      auto* panel = window.findChild<ExecutionPanel*>();
      panel->setBackendChoice(false, MpiOptions{});
      QCOMPARE(window.controller()->backend(), EngineController::Backend::Local);
      QCOMPARE(window.controller()->mpiOptions(), MpiOptions{});
      QVERIFY(window.restoreSession(session));
      QVERIFY(loaded.wait(kWaitMs));
      QTRY_COMPARE(window.controller()->backend(), EngineController::Backend::Mpi);
      QCOMPARE(window.controller()->mpiOptions(), (MpiOptions{3, hosts, true}));
    }
  }

  // mpi.serve_client_hostfile: two ranks on the two slots of `localhost`, without
  // --oversubscribe, really step.
  void mpiRunWithAHostfile() {
    if (!qEnvironmentVariableIsSet("SHARDSCOPE_TEST_MPI"))
      QSKIP("set SHARDSCOPE_TEST_MPI (ctest's mpi.serve_client_hostfile does)");
    const QString hosts = m_dir.filePath(QStringLiteral("localhost_hosts"));
    QFile file(hosts);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("localhost slots=2\n");
    file.close();
    ServeClient client;
    client.setCommand(ServeClient::mpiCommand(kCli, MpiOptions{2, hosts, false}));
    QVERIFY(!client.command().arguments.contains(QStringLiteral("--oversubscribe")));
    QSignalSpy changed(&client, &ServeClient::executionChanged);
    client.startRun(kMatmul, QStringLiteral("iota"), true, {}, QString());
    QVERIFY(QTest::qWaitFor([&] { return !changed.isEmpty() && !client.isBusy(); }, kWaitMs));
    QVERIFY2(!client.execution()->failed, qPrintable(client.execution()->failure));
    QCOMPARE(client.execution()->numRanks, 2);
    client.step(EngineController::StepKind::Step);
    client.step(EngineController::StepKind::Step);
    QVERIFY(QTest::qWaitFor([&] { return client.execution()->steps == 2 && !client.isBusy(); },
                            kWaitMs));
    QVERIFY2(!client.execution()->failed, qPrintable(client.execution()->failure));
    QCOMPARE(client.execution()->devices.size(), 4);
    QCOMPARE(client.execution()->devices.last().rank, 1);
    client.shutdown();

    // The hostfile's slots hold: two ranks on one slot fail with mpirun's advice, unless
    // oversubscribing is ticked.
    QFile one(m_dir.filePath(QStringLiteral("one_slot")));
    QVERIFY(one.open(QIODevice::WriteOnly));
    one.write("localhost slots=1\n");
    one.close();
    for (const bool oversubscribe : {false, true}) {
      ServeClient tight;
      tight.setCommand(ServeClient::mpiCommand(kCli, MpiOptions{2, one.fileName(), oversubscribe}));
      QSignalSpy started(&tight, &ServeClient::executionChanged);
      tight.startRun(kMatmul, QStringLiteral("iota"), false, {}, QString());
      QVERIFY(QTest::qWaitFor([&] { return !started.isEmpty() && !tight.isBusy(); }, kWaitMs));
      QCOMPARE(tight.execution()->failed, !oversubscribe);
      if (!oversubscribe)
        QVERIFY2(tight.execution()->failure.contains(QStringLiteral("--oversubscribe")),
                 qPrintable(tight.execution()->failure));
      tight.shutdown();
    }
  }

private:
  QTemporaryDir m_dir;
};

QTEST_MAIN(MpiHostsTest)
#include "mpi_hosts_test.moc"
