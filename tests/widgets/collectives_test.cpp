// The per-device stage keeps what the partitioned stage knows of each collective: its axes,
// groups and the reason partitioning inserted it, in the rows, the inspector and the graph.

#include "app/gui/main_window.h"
#include "tests/widgets/app_test_util.h"

#include "widgets/controller/engine_controller.h"
#include "widgets/controller/session_context.h"
#include "widgets/graph/graph_panel.h"

#include <QElapsedTimer>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

using shardscope::gui::MainWindow;
using namespace shardscope::widgets;
using namespace shardscope::widgets::testing;

namespace {

// lhs 8x16 is [{"x"}, {"y"}] and rhs 16x4 [{"y"}, {}]: each device's dot is a partial sum over
// "y", so partitioning inserts one all-reduce over "y": on the x=2, y=2 mesh 2 groups of 2
// devices, each reducing its 4x4 f32 block (64 bytes; a ring of 2 sends 2 * (2 - 1) / 2 of it).
const QString kMatmul = QStringLiteral(SHARDSCOPE_TEST_DATA_DIR "/session/global_matmul.mlir");

} // namespace

class CollectivesTest : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void initTestCase() {
    QVERIFY(useSettingsIn(m_dir));
  }

  void init() { QSettings().clear(); }

  void perDeviceCollectivesKeepAxesGroupsAndReason() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kMatmul));
    const ProgramSnapshotPtr program = window.context()->program();
    const QVector<CollectiveRow>& partitioned = program->stage(StageId::Partitioned).collectives;
    const QVector<CollectiveRow>& perDevice = program->stage(StageId::PerDevice).collectives;
    QCOMPARE(partitioned.size(), 1);
    QCOMPARE(perDevice.size(), 1);
    const CollectiveRow& row = perDevice.first();
    QCOMPARE(row.kind, QStringLiteral("all_reduce"));
    QCOMPARE(row.axes, QStringList({QStringLiteral("y")}));
    QCOMPARE(row.groupSize, 2);
    QCOMPARE(row.numGroups, 2);
    QCOMPARE(row.bytesSent, 64);
    QCOMPARE(row.axisBytes, QVector<qint64>({64}));
    QVERIFY(row.inserted);
    QVERIFY2(row.why.startsWith(QStringLiteral("inserted")), qPrintable(row.why));
    QCOMPARE(row.why, partitioned.first().why);

    // The inspector explains it as the partitioned stage does.
    window.context()->setStage(StageId::PerDevice);
    window.context()->selectOp(row.opId);
    auto* inspector = window.findChild<QTextBrowser*>(QStringLiteral("inspectorPanel"));
    QVERIFY(inspector);
    const QString text = inspector->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("Axes\ny\n")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("(unknown)")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("2 groups of 2 devices")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("inserted by partitioning")), qPrintable(text));
    QVERIFY2(text.contains(row.why), qPrintable(text));

    // And the graph draws it as an inserted collective with the reason.
    auto* graph = window.findChild<GraphPanel*>();
    QElapsedTimer timer;
    timer.start();
    while ((!graph->graph() || graph->graph()->stage != StageId::PerDevice) &&
           timer.elapsed() < 30000)
      QTest::qWait(20);
    QVERIFY(graph->graph() && graph->graph()->status.isEmpty());
    const GraphNodeItem* node = nullptr;
    for (const GraphNodeItem& n : graph->graph()->nodes)
      if (n.opId == row.opId)
        node = &n;
    QVERIFY(node);
    QCOMPARE(node->kind, QStringLiteral("inserted-collective"));
    QCOMPARE(node->note, row.why);
  }

private:
  QTemporaryDir m_dir;
};

QTEST_MAIN(CollectivesTest)
#include "collectives_test.moc"
