// Every item model of widgets/models passes QAbstractItemModelTester, empty and with rows
// produced by the engine for a real program.

#include "widgets/controller/engine_controller.h"
#include "widgets/models/collectives_model.h"
#include "widgets/models/device_values_model.h"
#include "widgets/models/problems_model.h"
#include "widgets/models/value_table_model.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

using namespace shardscope::widgets;

namespace {

const QString kMatmul = QStringLiteral(SHARDSCOPE_TEST_DATA_DIR "/session/global_matmul.mlir");

ProgramSnapshotPtr loadProgram(const QString& path) {
  EngineController controller;
  QSignalSpy loaded(&controller, &EngineController::programLoaded);
  QSignalSpy stages(&controller, &EngineController::stagesFinished);
  controller.load(path);
  // programLoaded has the as-written stage; the others follow in the background.
  if (!loaded.wait(30000) || (stages.isEmpty() && !stages.wait(30000)))
    return nullptr;
  return controller.program();
}

} // namespace

class ModelsTest : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void valueTableModel() {
    ValueTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const ProgramSnapshotPtr program = loadProgram(kMatmul);
    QVERIFY(program);
    model.setRows(program->stage(StageId::AsWritten).values);
    QCOMPARE(model.rowCount(), 5); // three arguments, %0, %1
    QCOMPARE(model.index(0, ValueTableModel::Typed).data().toString(), QStringLiteral("f32[8@x,16@y]"));
    QCOMPARE(model.index(0, ValueTableModel::Spec).data().toString(), QStringLiteral("P('x', 'y')"));
    // Diff: the partitioned stage adds the all-reduce's result, which is new.
    model.setRows(program->stage(StageId::Partitioned).values,
                  &program->stage(StageId::AsWritten).values);
    bool anyChanged = false;
    for (int r = 0; r < model.rowCount(); ++r)
      anyChanged = anyChanged || model.isChanged(r);
    QVERIFY(anyChanged);
    model.setRows({});
    QCOMPARE(model.rowCount(), 0);
  }

  void collectivesModel() {
    CollectivesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const ProgramSnapshotPtr program = loadProgram(kMatmul);
    QVERIFY(program);
    model.setRows(program->stage(StageId::Partitioned).collectives,
                  &program->stage(StageId::AsWritten).collectives);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, CollectivesModel::Kind).data().toString(), QStringLiteral("all_reduce"));
    QVERIFY(model.isAdded(0));
    QVERIFY(!model.index(0, CollectivesModel::Why).data().toString().isEmpty());
    QCOMPARE(CollectivesModel::formatBytes(512), QStringLiteral("512 B"));
    QCOMPARE(CollectivesModel::formatBytes(1536), QStringLiteral("1.5 KiB"));
  }

  void problemsModel() {
    ProblemsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRows({{QStringLiteral("error"), QStringLiteral("bad"), QStringLiteral("As written"), 3,
                    1, QStringLiteral("3:1:stablehlo.add"), 0},
                   {QStringLiteral("warning"), QStringLiteral("meh"), QStringLiteral("Propagated"),
                    0, 0, QString(), 1}});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, ProblemsModel::Line).data().toString(), QStringLiteral("3:1"));
    QCOMPARE(model.index(0, 0).data(ProblemsModel::LineRole).toInt(), 3);
    model.setRows({});
  }

  void deviceValuesModel() {
    DeviceValuesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto snap = std::make_shared<ExecutionSnapshot>();
    snap->started = true;
    for (int d = 0; d < 4; ++d) {
      snap->devices.push_back({d, QStringLiteral("stablehlo.add"), QStringLiteral("11:3:stablehlo.add"), 11, 1});
      TensorData t;
      t.valid = true;
      t.shape = {2};
      t.values = {double(d), double(d + 1)};
      snap->perDevice.push_back(t);
      // The reference agrees except on device 2, which should hold [9, 9].
      if (d == 2)
        t.values = {9, 9};
      snap->referencePerDevice.push_back(t);
    }
    snap->valueId = QStringLiteral("11:3:stablehlo.add#0");
    snap->valueCompared = true;
    snap->differingDevices = {2};
    snap->divergingDevices = {2};
    model.setExecution(snap);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.index(1, DeviceValuesModel::Elements).data().toString(), QStringLiteral("[1, 2]"));
    QCOMPARE(model.index(2, DeviceValuesModel::Reference).data().toString(),
             QStringLiteral("[9, 9]"));
    QCOMPARE(model.index(2, DeviceValuesModel::Status).data().toString(),
             QStringLiteral("differs from the reference"));
    QCOMPARE(model.index(1, DeviceValuesModel::Status).data().toString(),
             QStringLiteral("matches the reference"));
    // Not compared (an op without a reference value): the table says so rather than nothing.
    auto uncompared = std::make_shared<ExecutionSnapshot>(*snap);
    uncompared->valueCompared = false;
    uncompared->referencePerDevice = QVector<TensorData>(4); // none has a reference value
    model.setExecution(uncompared);
    QCOMPARE(model.index(1, DeviceValuesModel::Status).data().toString(),
             QStringLiteral("not compared: no reference value"));
    QCOMPARE(model.index(1, DeviceValuesModel::Reference).data().toString(),
             QStringLiteral("no reference value"));
    // A run in a server process reports divergences only: the Check column says which diverge.
    auto served = std::make_shared<ExecutionSnapshot>(*uncompared);
    served->referencePerDevice.clear();
    model.setExecution(served);
    QVERIFY(model.index(2, DeviceValuesModel::Reference).data().isNull());
    QCOMPARE(model.index(2, DeviceValuesModel::Status).data().toString(), QStringLiteral("diverges"));
    model.setExecution(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }
};

QTEST_MAIN(ModelsTest)
#include "models_test.moc"
