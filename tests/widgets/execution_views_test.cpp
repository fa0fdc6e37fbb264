// The execution views: heat maps with a colour scale that names its ends, tooltips naming the
// element under the cursor, device tiles placed as the mesh's devices, the values table's
// Reference column, and reference counts that say what was compared.

#include "app/gui/main_window.h"
#include "tests/widgets/app_test_util.h"

#include "widgets/controller/engine_controller.h"
#include "widgets/controller/session_context.h"
#include "widgets/models/device_values_model.h"
#include "widgets/views/execution_panel.h"
#include "widgets/views/timeline_bar.h"

#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QHelpEvent>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolTip>
#include <QtTest>

using shardscope::gui::MainWindow;
using namespace shardscope::widgets;
using namespace shardscope::widgets::testing;

namespace {

const QString kExamples = QStringLiteral(SHARDSCOPE_TEST_DATA_DIR "/../../resources/examples");
const QString kWidgetData = QStringLiteral(SHARDSCOPE_WIDGET_TEST_DATA_DIR);

// A 4x20 tensor whose element k is k / 2 - 10: from -10 (k = 0) to 29.5 (k = 79).
TensorData ramp() {
  TensorData data;
  data.valid = true;
  data.shape = {4, 20};
  for (int k = 0; k < 80; ++k)
    data.values.push_back(k * 0.5 - 10);
  return data;
}

} // namespace

class ExecutionViewsTest : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void initTestCase() {
    QVERIFY(useSettingsIn(m_dir));
  }

  void init() { QSettings().clear(); }

  // 80 elements are a heat map; its legend names the ends of the colour scale, and a tooltip
  // names the element under the cursor: element 45 is [2, 5] (45 = 2 * 20 + 5) = 12.5.
  void heatMapLegendAndElementTooltip() {
    TensorTile tile;
    tile.resize(320, 200);
    tile.setTensor(QStringLiteral("device 0"), ramp(), false);
    tile.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tile));
    QVERIFY(tile.isHeatMap());
    QCOMPARE(tile.legendText(), QStringList({QStringLiteral("-10"), QStringLiteral("29.5")}));
    // The shared scale of the value's tiles wins over the tile's own range.
    tile.setRange(-20, 40);
    QCOMPARE(tile.legendText(), QStringList({QStringLiteral("-20"), QStringLiteral("40")}));

    const QPoint at = tile.cellRect(45).center().toPoint();
    QCOMPARE(tile.elementAt(at), 45);
    QCOMPARE(tile.toolTipAt(at), QStringLiteral("device 0 [2, 5] = 12.5"));
    QCOMPARE(tile.elementAt(tile.cellRect(79).center().toPoint()), 79);
    QVERIFY(tile.toolTipAt(tile.cellRect(79).center().toPoint())
                .endsWith(QStringLiteral("[3, 19] = 29.5")));
    // The tooltip is the element's, never the whole array.
    QHelpEvent help(QEvent::ToolTip, at, tile.mapToGlobal(at));
    QCoreApplication::sendEvent(&tile, &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QCOMPARE(QToolTip::text(), QStringLiteral("device 0 [2, 5] = 12.5"));
    QToolTip::hideText();

    // Six numbers fit as numbers: no heat map, no legend.
    TensorData small;
    small.valid = true;
    small.shape = {2, 3};
    small.values = {1, 2, 3, 4, 5, 6};
    tile.setTensor(QStringLiteral("device 1"), small, false);
    QVERIFY(!tile.isHeatMap());
    QVERIFY(tile.legendText().isEmpty());
    QCOMPARE(tile.toolTipAt(tile.cellRect(4).center().toPoint()),
             QStringLiteral("device 1 [1, 1] = 5"));
  }

  // The example's mesh is X=2 by Y=4: two rows of four tiles, device 4 under device 0.
  void tilesFollowATwoByFourMesh() {
    MainWindow window;
    window.resize(1440, 900);
    window.show();
    QVERIFY(openAndWait(window, kExamples + QStringLiteral("/explicit_sharding_illegal.mlir")));
    window.context()->selectValue(QStringLiteral("%h"));
    QVERIFY(clickAndWait(window, QStringLiteral("startButton")));
    QVERIFY(clickAndWait(window, QStringLiteral("runToEndButton")));
    saveScreenshot(window, QStringLiteral("executionDock"), QStringLiteral("execution_2x4"));
    auto* panel = window.findChild<ExecutionPanel*>();
    QVERIFY(panel);
    QList<TensorTile*> tiles = panel->deviceTiles();
    QCOMPARE(tiles.size(), 8);
    for (int d = 1; d < 4; ++d) {
      QCOMPARE(tiles[d]->geometry().top(), tiles[0]->geometry().top());
      QVERIFY(tiles[d]->geometry().left() > tiles[d - 1]->geometry().left());
      QCOMPARE(tiles[d + 4]->geometry().left(), tiles[d]->geometry().left());
    }
    QVERIFY(tiles[4]->geometry().top() > tiles[0]->geometry().bottom());
    QCOMPARE(tiles[4]->geometry().left(), tiles[0]->geometry().left());
    // At 1440x900 both rows show in the Execution dock without scrolling.
    window.findChild<QDockWidget*>(QStringLiteral("executionDock"))->raise();
    QTest::qWait(50);
    auto* scroll = window.findChild<QScrollArea*>(QStringLiteral("executionDockScroll"));
    QVERIFY(scroll);
    QCOMPARE(scroll->verticalScrollBar()->maximum(), 0);
    QVERIFY(tiles[4]->isVisible() && tiles[4]->height() >= tiles[4]->minimumSizeHint().height());
  }

  // x=2, y=2, z=2: x down; y across, and z across inside each y group, a gap between the groups.
  // Device d has coordinates (d / 4, d / 2 % 2, d % 2).
  void tilesNestAThreeAxisMesh() {
    MainWindow window;
    window.resize(1440, 900);
    window.show();
    QVERIFY(openAndWait(window, kWidgetData + QStringLiteral("/three_axes.mlir")));
    QList<TensorTile*> tiles = window.findChild<ExecutionPanel*>()->deviceTiles();
    QCOMPARE(tiles.size(), 8);
    const auto rect = [&](int d) { return tiles[d]->geometry(); };
    for (int d = 0; d < 4; ++d) {
      QCOMPARE(rect(d).top(), rect(0).top());
      QCOMPARE(rect(d + 4).left(), rect(d).left());
    }
    QVERIFY(rect(4).top() > rect(0).bottom());
    // Left to right: (y=0, z=0), (y=0, z=1), gap, (y=1, z=0), (y=1, z=1).
    QVERIFY(rect(0).left() < rect(1).left() && rect(1).left() < rect(2).left() &&
            rect(2).left() < rect(3).left());
    const int inGroup = rect(1).left() - rect(0).left();
    const int acrossGroups = rect(2).left() - rect(1).left();
    QVERIFY2(acrossGroups > inGroup,
             qPrintable(QStringLiteral("%1 vs %2").arg(acrossGroups).arg(inGroup)));
  }

  // With iota inputs %a of three_axes.mlir holds 0..287 (8 * 9 * 4 elements) and %0 = abs(%a)
  // the same: every tile's heat map spans the shared scale 0..287.
  void deviceHeatMapsShareTheirScale() {
    MainWindow window;
    window.resize(1440, 900);
    window.show();
    QVERIFY(openAndWait(window, kWidgetData + QStringLiteral("/three_axes.mlir")));
    window.context()->selectValue(QStringLiteral("%0"));
    QVERIFY(clickAndWait(window, QStringLiteral("startButton")));
    QVERIFY(clickAndWait(window, QStringLiteral("runToEndButton")));
    const QList<TensorTile*> tiles = window.findChild<ExecutionPanel*>()->deviceTiles();
    QCOMPARE(tiles.size(), 8);
    for (TensorTile* tile : tiles) {
      QVERIFY(tile->tensor().valid);
      QVERIFY(tile->isHeatMap());
      QCOMPARE(tile->legendText(), QStringList({QStringLiteral("0"), QStringLiteral("287")}));
    }
    saveScreenshot(window, QStringLiteral("executionDock"), QStringLiteral("execution_three_axes"));
  }

  // The values table's Reference column holds what each device should hold ([0, -1] and
  // [-2, -3]), the Check column what the reference check did; the counts say what was compared.
  // shard_map_matmul as written runs in four steps: the dot, the psum over 'model' (the one
  // collective), the tanh, the return. The timeline shows them; clicking a step takes the run
  // there, back (a new run with the same inputs) or forward, and the bar keeps every known step.
  void timelineShowsTheStepsAndJumpsToAny() {
    MainWindow window;
    window.resize(1440, 900);
    window.show();
    QVERIFY(openAndWait(window, kExamples + QStringLiteral("/shard_map_matmul.mlir")));
    window.context()->selectValue(QStringLiteral("%partial"));
    QVERIFY(clickAndWait(window, QStringLiteral("startButton")));
    auto* bar = window.findChild<TimelineBar*>(QStringLiteral("executionTimeline"));
    QVERIFY(bar);
    QVERIFY(bar->isVisible());
    QVERIFY(clickAndWait(window, QStringLiteral("runToEndButton")));
    ExecutionSnapshotPtr e = window.context()->execution();
    QVERIFY(e && e->finished && e->timeline);
    QCOMPARE(e->steps, qint64(4));
    QCOMPARE(e->timeline->known(), qint64(4));
    QStringList names;
    QVector<bool> collective;
    for (const Timeline::Step& s : e->timeline->steps) {
      names << e->timeline->ops[s.op].name;
      collective << s.collective;
    }
    QCOMPARE(names, QStringList({QStringLiteral("stablehlo.dot_general"),
                                 QStringLiteral("stablehlo.all_reduce"),
                                 QStringLiteral("stablehlo.tanh"), QStringLiteral("func.return")}));
    QCOMPARE(collective, QVector<bool>({false, true, false, false}));
    QCOMPARE(bar->current(), qint64(4));
    for (qint64 k = 1; k <= 4; ++k)
      QCOMPARE(bar->stepAt(bar->xOf(k)), k);
    const QString tip = bar->describeAt(bar->xOf(2));
    QVERIFY2(tip.startsWith(QStringLiteral("step 2: stablehlo.all_reduce (line ")) &&
                 tip.endsWith(QStringLiteral("collective")),
             qPrintable(tip));
    // A strip narrower than the steps: a pixel stands for a range, counted.
    TimelineBar narrow;
    Timeline many;
    many.ops.push_back({QStringLiteral("1:1:stablehlo.add"), QStringLiteral("stablehlo.add"), 1});
    for (int k = 0; k < 100000; ++k)
      many.steps.push_back({0, 1, k % 10 == 0, k == 5});
    narrow.resize(400, 30);
    narrow.setTimeline(std::make_shared<const Timeline>(many), 0, false);
    const int x = narrow.xOf(1);
    const qint64 first = narrow.stepAt(x), last = narrow.stepAt(x + 1) - 1;
    QVERIFY(last > first);
    int expected = 0;
    for (qint64 k = first; k <= last; ++k)
      expected += (k - 1) % 10 == 0;
    QVERIFY2(narrow.describeAt(x).startsWith(QStringLiteral("steps %1–%2: %3 collective(s)")
                                                 .arg(first)
                                                 .arg(last)
                                                 .arg(expected)),
             qPrintable(narrow.describeAt(x)));

    const auto clickStep = [&](qint64 step) {
      QSignalSpy changed(window.context(), &SessionContext::executionChanged);
      QTest::mouseClick(bar, Qt::LeftButton, {}, QPoint(bar->xOf(step), bar->height() / 2));
      QElapsedTimer timer;
      timer.start();
      while ((changed.isEmpty() || window.controller()->isBusy()) && timer.elapsed() < 30000)
        QTest::qWait(10);
      return !changed.isEmpty();
    };
    // Back to just after the dot: every device is about to run the psum.
    QVERIFY(clickStep(1));
    e = window.context()->execution();
    QCOMPARE(e->steps, qint64(1));
    QVERIFY(!e->finished);
    for (const DevicePosition& d : e->devices)
      QCOMPARE(d.op, QStringLiteral("stablehlo.all_reduce"));
    QCOMPARE(e->timeline->known(), qint64(4)); // the steps ahead are still on the bar
    QCOMPARE(bar->current(), qint64(1));
    // The psum's operand, just computed, on every device.
    QCOMPARE(e->valueId, window.context()->selectedValue());
    QCOMPARE(e->perDevice.size(), 8);
    for (const TensorData& block : e->perDevice)
      QVERIFY(block.valid);
    // Forward to just after the tanh.
    QVERIFY(clickStep(3));
    e = window.context()->execution();
    QCOMPARE(e->steps, qint64(3));
    QCOMPARE(e->devices[0].op, QStringLiteral("func.return"));
    // The op the chosen step ran is selected: the tanh's result, on every device.
    QTRY_VERIFY(window.context()->selectedValueRow() &&
                window.context()->selectedValueRow()->name == QStringLiteral("%act"));
    QTRY_VERIFY(window.context()->execution()->valueId == window.context()->selectedValue() &&
                !window.controller()->isBusy());
    for (const TensorData& block : window.context()->execution()->perDevice)
      QVERIFY(block.valid);
    saveScreenshot(window, QStringLiteral("executionDock"), QStringLiteral("execution_timeline"));
  }

  void referenceColumnAndTruthfulCounts() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kWidgetData + QStringLiteral("/reference_blocks.mlir")));
    window.context()->selectValue(QStringLiteral("%neg"));
    QVERIFY(clickAndWait(window, QStringLiteral("startButton")));
    auto* status = window.findChild<QLabel*>(QStringLiteral("executionStatus"));
    QVERIFY2(status->text().contains(QStringLiteral("no value compared with the reference yet")),
             qPrintable(status->text()));
    QVERIFY(!status->text().contains(QStringLiteral("all 0")));
    auto* table = window.findChild<QTableView*>(QStringLiteral("deviceValuesTable"));
    QVERIFY(table);
    QAbstractItemModel* model = table->model();
    QCOMPARE(model->headerData(DeviceValuesModel::Reference, Qt::Horizontal).toString(),
             QStringLiteral("Reference"));
    // Before the negate ran the devices hold nothing yet; the reference already has the value.
    QCOMPARE(model->index(1, DeviceValuesModel::Reference).data().toString(),
             QStringLiteral("[-2, -3]"));
    QVERIFY(model->index(1, DeviceValuesModel::Status).data().toString().isEmpty());

    QVERIFY(clickAndWait(window, QStringLiteral("runToEndButton")));
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(model->index(0, DeviceValuesModel::Elements).data().toString(),
             QStringLiteral("[0, -1]"));
    QCOMPARE(model->index(0, DeviceValuesModel::Reference).data().toString(),
             QStringLiteral("[0, -1]"));
    QCOMPARE(model->index(1, DeviceValuesModel::Reference).data().toString(),
             QStringLiteral("[-2, -3]"));
    QCOMPARE(model->index(1, DeviceValuesModel::Status).data().toString(),
             QStringLiteral("matches the reference"));
    window.findChild<QTabWidget*>(QStringLiteral("executionTabs"))->setCurrentIndex(1);
    saveScreenshot(window, QStringLiteral("executionDock"), QStringLiteral("execution_table"));
    QVERIFY2(status->text().contains(QStringLiteral("checked values match the reference")),
             qPrintable(status->text()));

    // Without the reference check nothing is compared, and the table says so.
    QCheckBox* check = nullptr;
    for (QCheckBox* box : window.findChildren<QCheckBox*>())
      if (box->text() == QStringLiteral("Reference check"))
        check = box;
    QVERIFY(check);
    check->setChecked(false);
    QVERIFY(clickAndWait(window, QStringLiteral("startButton")));
    QVERIFY(clickAndWait(window, QStringLiteral("runToEndButton")));
    QCOMPARE(model->index(1, DeviceValuesModel::Status).data().toString(),
             QStringLiteral("not compared: reference check off"));
  }

private:
  QTemporaryDir m_dir;
};

QTEST_MAIN(ExecutionViewsTest)
#include "execution_views_test.moc"
