// The two-phase load of a large program: `programLoaded` comes before the later stages, which
// arrive one by one; Cancel stops their computation; a huge function's graph opens collapsed.
// Not timed: every wait has a generous timeout.

#include "widgets/controller/engine_controller.h"
#include "widgets/controller/session_context.h"
#include "widgets/views/stage_selector.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>

using namespace shardscope::widgets;

namespace {

constexpr int kOps = 20000;
constexpr int kWaitMs = 600000;

const QString kSimple = QStringLiteral(SHARDSCOPE_TEST_DATA_DIR "/simple.mlir");

// A flat `main` of `ops` elementwise ops on a sharded argument (a 2x2 mesh): no region to fold,
// so the graph must bound it with chains and segments.
QByteArray largeProgram(int ops) {
  QByteArray text;
  text += "module @large {\n  sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]>\n";
  text += "  func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, "
          "[{\"x\"}, {}]>}) -> tensor<8x8xf32> {\n";
  text += "    %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>\n";
  for (int i = 1; i < ops; ++i)
    text += "    %" + QByteArray::number(i) +
            (i % 3 ? " = stablehlo.multiply %" : " = stablehlo.add %") + QByteArray::number(i - 1) +
            ", %arg0 : tensor<8x8xf32>\n";
  text += "    return %" + QByteArray::number(ops - 1) + " : tensor<8x8xf32>\n  }\n}\n";
  return text;
}

ProgramSnapshotPtr programOf(const QSignalSpy& spy, int index = 0) {
  return spy.at(index).at(0).value<ProgramSnapshotPtr>();
}

} // namespace

class StagedLoadTest : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    m_large = m_dir.filePath(QStringLiteral("large.mlir"));
    QFile file(m_large);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(largeProgram(kOps));
  }

  // programLoaded carries the program with the later stages pending; they arrive afterwards,
  // each with its rows, and the last snapshot has them all.
  void stagesArriveAfterProgramLoaded() {
    EngineController controller;
    QSignalSpy loaded(&controller, &EngineController::programLoaded);
    QSignalSpy ready(&controller, &EngineController::stageReady);
    QSignalSpy finished(&controller, &EngineController::stagesFinished);
    controller.load(m_large);
    QVERIFY(loaded.wait(kWaitMs));
    const ProgramSnapshotPtr first = programOf(loaded);
    QVERIFY(!first->source.isEmpty());
    QCOMPARE(first->mesh.numDevices(), 4);
    QCOMPARE(first->stage(StageId::Propagated).status, StageStatus::Pending);
    QCOMPARE(first->stage(StageId::PerDevice).status, StageStatus::Pending);
    QVERIFY(!first->allStagesComputed());
    QVERIFY(controller.isComputingStages() || !finished.isEmpty());

    // A view that follows the context shows the pending stages as such.
    SessionContext context;
    StageSelector selector(&context);
    context.setProgram(first);
    auto* model = qobject_cast<QStandardItemModel*>(selector.stageCombo()->model());
    QVERIFY(model);
    QVERIFY2(model->item(static_cast<int>(StageId::Partitioned))
                 ->text()
                 .contains(QStringLiteral("computing")),
             qPrintable(model->item(static_cast<int>(StageId::Partitioned))->text()));
    QVERIFY(model->item(static_cast<int>(StageId::Partitioned))->isEnabled());

    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(finished.at(0).at(1).toBool(), false);
    const ProgramSnapshotPtr last = programOf(finished);
    QCOMPARE(last->loadId, first->loadId);
    QVERIFY(last->allStagesComputed());
    QVERIFY(ready.size() >= kNumStages - 1);
    for (StageId stage :
         {StageId::AsWritten, StageId::Propagated, StageId::Partitioned, StageId::PerDevice}) {
      QCOMPARE(last->stage(stage).status, StageStatus::Computed);
      QVERIFY2(last->stage(stage).available, qPrintable(stageTitle(stage)));
      QVERIFY(last->stage(stage).values.size() >= kOps);
    }
    QCOMPARE(controller.program(), last);
    QVERIFY(!controller.isComputingStages());

    // The context takes the later snapshots of the same load, and the selector follows.
    context.updateProgram(last);
    QCOMPARE(context.program(), last);
    QCOMPARE(model->item(static_cast<int>(StageId::Partitioned))->text(),
             stageTitle(StageId::Partitioned));
  }

  // Cancel during the stage computation stops it: the engine reports the stages left as
  // cancelled, nothing crashes, and a new load works afterwards.
  void cancelStopsTheStages() {
    EngineController controller;
    QSignalSpy loaded(&controller, &EngineController::programLoaded);
    QSignalSpy finished(&controller, &EngineController::stagesFinished);
    controller.load(m_large);
    QVERIFY(loaded.wait(kWaitMs));
    controller.cancel();
    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(finished.at(0).at(1).toBool(), true);
    const ProgramSnapshotPtr stopped = programOf(finished);
    QVERIFY(!stopped->allStagesComputed() ||
            stopped->stage(StageId::GradientNaive).status == StageStatus::Cancelled);
    bool anyCancelled = false;
    for (const StageSnapshot& s : stopped->stages)
      anyCancelled = anyCancelled || s.status == StageStatus::Cancelled;
    QVERIFY(anyCancelled);
    QTRY_VERIFY_WITH_TIMEOUT(!controller.isComputingStages() && !controller.isBusy(), kWaitMs);

    // A graph of a cancelled stage computes it on demand.
    QSignalSpy graphs(&controller, &EngineController::graphReady);
    controller.requestGraph(StageId::Propagated, QString(), {}, {});
    QVERIFY(graphs.wait(kWaitMs));
    const GraphSnapshotPtr graph = graphs.at(0).at(0).value<GraphSnapshotPtr>();
    QVERIFY2(graph->status.isEmpty(), qPrintable(graph->status));

    // A new load works.
    loaded.clear();
    finished.clear();
    controller.load(kSimple);
    QVERIFY(loaded.wait(kWaitMs));
    QVERIFY(finished.wait(kWaitMs));
    QCOMPARE(finished.at(0).at(1).toBool(), false);
    QVERIFY(programOf(finished)->allStagesComputed());
    QVERIFY(programOf(finished)->stage(StageId::Partitioned).available);
  }

  // A new load stops the stages of the previous one: its snapshots never arrive after the new
  // program's.
  void aNewLoadSupersedesThePrevious() {
    EngineController controller;
    QSignalSpy loaded(&controller, &EngineController::programLoaded);
    QSignalSpy ready(&controller, &EngineController::stageReady);
    QSignalSpy finished(&controller, &EngineController::stagesFinished);
    controller.load(m_large);
    QVERIFY(loaded.wait(kWaitMs));
    controller.load(kSimple);
    QTRY_VERIFY_WITH_TIMEOUT(loaded.size() == 2, kWaitMs);
    const quint64 simpleId = programOf(loaded, 1)->loadId;
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() &&
                                 programOf(finished, finished.size() - 1)->loadId == simpleId,
                             kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(!controller.isComputingStages(), kWaitMs);
    bool seenSimple = false;
    for (int i = 0; i < ready.size(); ++i) {
      const quint64 id = programOf(ready, i)->loadId;
      seenSimple = seenSimple || id == simpleId;
      QVERIFY2(!seenSimple || id == simpleId, "a stage of the old program came after the new one");
    }
    QCOMPARE(controller.program()->loadId, simpleId);
    QVERIFY(controller.program()->path.endsWith(QStringLiteral("simple.mlir")));
  }

  // The graph of a huge flat function opens collapsed: chains and segments fold into summary
  // nodes, so only a bounded number of nodes is laid out.
  void hugeGraphOpensCollapsed() {
    EngineController controller;
    QSignalSpy loaded(&controller, &EngineController::programLoaded);
    QSignalSpy graphs(&controller, &EngineController::graphReady);
    controller.load(m_large);
    QVERIFY(loaded.wait(kWaitMs));
    controller.requestGraph(StageId::AsWritten, QString(), {}, {});
    QVERIFY(graphs.wait(kWaitMs));
    const GraphSnapshotPtr graph = graphs.at(0).at(0).value<GraphSnapshotPtr>();
    QVERIFY2(graph->status.isEmpty(), qPrintable(graph->status));
    QVERIFY(graph->opCount >= kOps);
    QVERIFY2(graph->nodes.size() <= 200, qPrintable(QString::number(graph->nodes.size())));
    int summaries = 0;
    for (const GraphNodeItem& node : graph->nodes)
      summaries += node.kind == QStringLiteral("summary") ? 1 : 0;
    QVERIFY(summaries > 0);
    controller.cancel();
  }

private:
  QTemporaryDir m_dir;
  QString m_large;
};

QTEST_MAIN(StagedLoadTest)
#include "staged_load_test.moc"
