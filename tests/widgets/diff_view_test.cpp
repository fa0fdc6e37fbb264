// Diffs you can see (*Diff against*): in tests/data/propagation_chain.mlir only %x, %w1 and the
// result are annotated, so propagation gives %h and %a <@mesh, [{"data"}, {"model"}]> (the dot of
// [data, -] by [-, model], then elementwise), %w2 <@mesh, [{"model"}, {}]> (the contracting
// dimension of the second dot, sharded on "model" in %a) and %y <@mesh, [{"data"}, {}]>; %x and
// %w1 keep theirs. Partitioning then adds an all-reduce over "model" at line 11 for the partial
// sums of the second dot. The graph colours the changed values' nodes and edges and marks the
// added collective, the inspector says was → now, the values table has a was → now column, and a
// stage is never diffed with itself.

#include "app/gui/main_window.h"
#include "tests/widgets/app_test_util.h"

#include "widgets/controller/engine_controller.h"
#include "widgets/controller/session_context.h"
#include "widgets/controller/stage_diff.h"
#include "widgets/graph/graph_panel.h"
#include "widgets/models/collectives_model.h"
#include "widgets/models/value_table_model.h"
#include "widgets/views/inspector_panel.h"
#include "widgets/views/panels.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QtTest>

using shardscope::gui::MainWindow;
using namespace shardscope::widgets;
using namespace shardscope::widgets::testing;

namespace {

const QString kChain = QStringLiteral(SHARDSCOPE_TEST_DATA_DIR "/propagation_chain.mlir");
const QString kH = QStringLiteral("9:3:stablehlo.dot_general#0");
const QString kA = QStringLiteral("10:3:stablehlo.tanh#0");
const QString kY = QStringLiteral("11:3:stablehlo.dot_general#0");
const QString kX = QStringLiteral("arg:main#0");
const QString kW1 = QStringLiteral("arg:main#1");
const QString kW2 = QStringLiteral("arg:main#2");
constexpr int kWaitMs = 30000;
const QString kBefore = QStringLiteral(SHARDSCOPE_WIDGET_TEST_DATA_DIR "/diff_before.mlir");
const QString kAfter = QStringLiteral(SHARDSCOPE_WIDGET_TEST_DATA_DIR "/diff_after.mlir");
const QString kDataModel = QStringLiteral("#sdy.sharding<@mesh, [{\"data\"}, {\"model\"}]>");

// The value ids of the edges drawn as changed, and how many edges are not.
QSet<QString> changedEdges(GraphPanel* graph, int* unchanged) {
  QSet<QString> ids;
  *unchanged = 0;
  for (QGraphicsItem* item : graph->scene()->items())
    if (auto* path = dynamic_cast<QGraphicsPathItem*>(item)) {
      if (path->data(GraphPanel::DiffData).toString() == QLatin1String("changed")) {
        ids.insert(path->data(GraphPanel::ValueData).toString());
        if (path->pen().color() != diffChangedColor())
          return {};
      } else {
        ++*unchanged;
      }
    }
  return ids;
}

} // namespace

class DiffViewTest : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void initTestCase() {
    QVERIFY(useSettingsIn(m_dir));
  }

  void init() { QSettings().clear(); }

  // Propagated against as written: the four values propagation sharded are changed in the graph
  // (nodes of the three ops, the four edges), the table and the inspector; %x and %w1 are not.
  void propagationChangesAreColoured() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kChain));
    window.context()->setStage(StageId::Propagated);
    window.context()->setDiffBase(static_cast<int>(StageId::AsWritten));
    auto* graph = window.findChild<GraphPanel*>();
    QVERIFY(waitForGraph(graph, StageId::Propagated));

    for (const char* op :
         {"9:3:stablehlo.dot_general", "10:3:stablehlo.tanh", "11:3:stablehlo.dot_general"}) {
      QGraphicsRectItem* node = nodeOf(graph, QString::fromLatin1(op));
      QVERIFY2(node, op);
      QCOMPARE(node->data(GraphPanel::DiffData).toString(), QStringLiteral("changed"));
      QCOMPARE(node->pen().color(), diffChangedColor());
      QCOMPARE(node->brush().color(), diffChangedFill());
    }
    int unchanged = 0;
    QCOMPARE(changedEdges(graph, &unchanged), (QSet<QString>{kH, kA, kY, kW2}));
    QCOMPARE(unchanged, 2); // %x and %w1 into the first dot
    saveScreenshot(window, QStringLiteral("graphDock"), QStringLiteral("diff_graph_propagated"));

    // The values table: a was -> now column, filled for the changed values only.
    auto* values = window.findChild<ValuesPanel*>();
    QAbstractItemModel* model = values->model();
    QCOMPARE(model->columnCount(), static_cast<int>(ValueTableModel::NumColumns));
    QCOMPARE(model->headerData(ValueTableModel::Change, Qt::Horizontal).toString(),
             QStringLiteral("Sharding in as written \u2192 now"));
    auto change = [&](const QString& id, int role) {
      const int row = static_cast<ValueTableModel*>(model)->rowOf(id);
      return row < 0 ? QStringLiteral("(missing)")
                     : model->index(row, ValueTableModel::Change).data(role).toString();
    };
    // As PartitionSpecs, with Shardy's form in the tooltip.
    QCOMPARE(change(kH, Qt::DisplayRole), QStringLiteral("(none) \u2192 P('data', 'model')"));
    QCOMPARE(change(kH, Qt::ToolTipRole), QStringLiteral("(none) \u2192 ") + kDataModel);
    QCOMPARE(change(kW2, Qt::DisplayRole), QStringLiteral("(none) \u2192 P('model', None)"));
    QCOMPARE(change(kW2, Qt::ToolTipRole),
             QStringLiteral("(none) \u2192 #sdy.sharding<@mesh, [{\"model\"}, {}]>"));
    QCOMPARE(change(kY, Qt::DisplayRole), QStringLiteral("(none) \u2192 P('data', None)"));
    QCOMPARE(change(kX, Qt::DisplayRole), QString());
    QCOMPARE(change(kW1, Qt::DisplayRole), QString());

    // The inspector: was -> now for the selection, "unchanged" for %x.
    auto* inspector = window.findChild<InspectorPanel*>();
    window.context()->selectValue(kA);
    QVERIFY2(inspector->toPlainText().contains(QStringLiteral("Since as written")),
             qPrintable(inspector->toPlainText()));
    QVERIFY2(inspector->toPlainText().contains(QStringLiteral("(none) \u2192 ") + kDataModel),
             qPrintable(inspector->toPlainText()));
    QVERIFY2(inspector->toPlainText().contains(QStringLiteral("(none) \u2192 P('data', 'model')")),
             qPrintable(inspector->toPlainText()));
    // The change is the table's second column, after the value's name.
    QCOMPARE(values->horizontalHeader()->visualIndex(ValueTableModel::Change), 1);
    saveScreenshot(window, QStringLiteral("graphDock"), QStringLiteral("diff_inspector"));
    window.context()->selectValue(kX);
    QVERIFY2(inspector->toPlainText().contains(QStringLiteral("sharding unchanged")),
             qPrintable(inspector->toPlainText()));

    // Without a diff: no column, no colour.
    window.context()->setDiffBase(-1);
    QCOMPARE(model->columnCount(), static_cast<int>(ValueTableModel::Change));
    QVERIFY(waitForGraph(graph, StageId::Propagated));
    QTRY_VERIFY(nodeOf(graph, QStringLiteral("9:3:stablehlo.dot_general")) &&
                nodeOf(graph, QStringLiteral("9:3:stablehlo.dot_general"))->pen().color() !=
                    diffChangedColor());
    QVERIFY(!inspector->toPlainText().contains(QStringLiteral("Since as written")));
  }

  // Partitioned against propagated: the all-reduce at line 11 is added, with a green `added` tab;
  // the collectives table agrees.
  void addedCollectiveIsMarked() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kChain));
    window.context()->setStage(StageId::Partitioned);
    window.context()->setDiffBase(static_cast<int>(StageId::Propagated));
    auto* graph = window.findChild<GraphPanel*>();
    QVERIFY(waitForGraph(graph, StageId::Partitioned));
    QGraphicsRectItem* reduce = nodeOf(graph, QStringLiteral("11:3:sdy.all_reduce"));
    QVERIFY(reduce);
    QCOMPARE(reduce->data(GraphPanel::DiffData).toString(), QStringLiteral("added"));
    QCOMPARE(reduce->pen().color(), diffAddedColor());
    QGraphicsSimpleTextItem* tab = nullptr;
    for (QGraphicsItem* child : reduce->childItems())
      for (QGraphicsItem* text : child->childItems())
        if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(text);
            t && t->text() == QStringLiteral("added"))
          tab = t;
    QVERIFY(tab);
    QCOMPARE(static_cast<QGraphicsRectItem*>(tab->parentItem())->brush().color(), diffAddedColor());
    QVERIFY(graph->scene()->sceneRect().contains(tab->sceneBoundingRect()));
    QVERIFY(reduce->toolTip().contains(QStringLiteral("added since propagated")));
    auto* collectives = window.findChild<CollectivesPanel*>();
    QCOMPARE(collectives->model()->rowCount(), 1);
    QVERIFY(collectives->model()->isAdded(0));
    saveScreenshot(window, QStringLiteral("graphDock"), QStringLiteral("diff_graph_partitioned"));

    // The per-device all-reduce is the partitioned one: nothing is added against that stage.
    window.context()->setStage(StageId::PerDevice);
    window.context()->setDiffBase(static_cast<int>(StageId::Partitioned));
    QVERIFY(waitForGraph(graph, StageId::PerDevice));
    QCOMPARE(collectives->model()->rowCount(), 1);
    QVERIFY(!collectives->model()->isAdded(0));
    for (QGraphicsItem* item : graph->scene()->items())
      QVERIFY(item->data(GraphPanel::DiffData).toString() != QLatin1String("added"));
  }

  // Program vs program: diff_after.mlir is diff_before.mlir with %b sharded by columns instead of
  // rows. As written, %b's sharding changed and %a's did not; partitioned, the all-to-all the
  // edit needs at the add (line 8, moving 'x' from dim 1 to dim 0) is added. A program is not
  // diffed with itself, and the diff ends on request.
  void programIsDiffedWithAnEditedVersion() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kAfter));
    QSignalSpy errors(window.controller(), &EngineController::diffProgramFailed);
    window.diffWithProgram(kAfter);
    QVERIFY(errors.wait(kWaitMs));
    QVERIFY2(errors.takeFirst().value(0).toString().contains(QStringLiteral("not diffed with itself")),
             "self-diff refused");
    QVERIFY(!window.context()->diffProgram());

    window.diffWithProgram(kBefore);
    QTRY_VERIFY_WITH_TIMEOUT(window.context()->diffProgram(), kWaitMs);
    QVERIFY(window.context()->isDiffing());
    QCOMPARE(window.context()->diffBase(), -1);
    auto* label = window.findChild<QLabel*>(QStringLiteral("programDiffLabel"));
    QVERIFY(label && label->isVisible());
    QVERIFY(label->text().contains(QStringLiteral("diff_before.mlir")));

    auto* values = window.findChild<ValuesPanel*>();
    QAbstractItemModel* model = values->model();
    QCOMPARE(model->headerData(ValueTableModel::Change, Qt::Horizontal).toString(),
             QStringLiteral("Sharding in diff_before.mlir (as written) \u2192 now"));
    auto change = [&](const QString& id) {
      const int row = static_cast<ValueTableModel*>(model)->rowOf(id);
      return row < 0 ? QStringLiteral("(missing)")
                     : model->index(row, ValueTableModel::Change).data().toString();
    };
    QCOMPARE(change(QStringLiteral("arg:main#1")), QStringLiteral("P('x', None) \u2192 P(None, 'x')"));
    QCOMPARE(change(QStringLiteral("arg:main#0")), QString());
    auto* inspector = window.findChild<InspectorPanel*>();
    window.context()->selectValue(QStringLiteral("arg:main#1"));
    QVERIFY2(inspector->toPlainText().contains(QStringLiteral("Since diff_before.mlir (as written)")),
             qPrintable(inspector->toPlainText()));

    window.context()->setStage(StageId::Partitioned);
    auto* graph = window.findChild<GraphPanel*>();
    QVERIFY(waitForGraph(graph, StageId::Partitioned));
    QGraphicsRectItem* reshard = nodeOf(graph, QStringLiteral("8:3:sdy.all_to_all"));
    QVERIFY(reshard);
    QCOMPARE(reshard->data(GraphPanel::DiffData).toString(), QStringLiteral("added"));
    QVERIFY2(reshard->toolTip().contains(QStringLiteral("added since diff_before.mlir (partitioned)")),
             qPrintable(reshard->toolTip()));
    auto* collectives = window.findChild<CollectivesPanel*>();
    QCOMPARE(collectives->model()->rowCount(), 1);
    QVERIFY(collectives->model()->isAdded(0));
    saveScreenshot(window, QStringLiteral("graphDock"), QStringLiteral("diff_program_partitioned"));

    // A stage diff replaces it; the program diff, chosen again, ends.
    window.context()->setDiffBase(static_cast<int>(StageId::Propagated));
    QVERIFY(!window.context()->diffProgram());
    window.diffWithProgram(kBefore);
    QTRY_VERIFY_WITH_TIMEOUT(window.context()->diffProgram(), kWaitMs);
    QCOMPARE(window.context()->diffBase(), -1);
    window.diffWithProgram(QString());
    QVERIFY(!window.context()->isDiffing());
    QCOMPARE(model->columnCount(), static_cast<int>(ValueTableModel::Change));
  }

  // The base list disables the stage shown; asking for a self-diff, or showing the base, moves
  // the base to the stage's default instead.
  void aStageIsNotDiffedWithItself() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kChain));
    auto* stageCombo = window.findChild<QComboBox*>(QStringLiteral("stageCombo"));
    auto* baseCombo = window.findChild<QComboBox*>(QStringLiteral("diffBaseCombo"));
    auto* toggle = window.findChild<QCheckBox*>(QStringLiteral("diffToggle"));
    auto* items = qobject_cast<QStandardItemModel*>(baseCombo->model());
    QVERIFY(stageCombo && baseCombo && toggle && items);
    stageCombo->setCurrentIndex(static_cast<int>(StageId::Partitioned));
    QVERIFY(!items->item(static_cast<int>(StageId::Partitioned))->isEnabled());
    QVERIFY(items->item(static_cast<int>(StageId::Propagated))->isEnabled());
    toggle->setChecked(true);
    QCOMPARE(window.context()->diffBase(), static_cast<int>(StageId::Propagated));
    baseCombo->setCurrentIndex(static_cast<int>(StageId::Partitioned));
    QCOMPARE(window.context()->diffBase(), static_cast<int>(StageId::Propagated));
    window.context()->setDiffBase(static_cast<int>(StageId::Partitioned));
    QCOMPARE(window.context()->diffBase(), static_cast<int>(StageId::Propagated));
    // Showing the base: the base moves (as written's default base is propagated).
    window.context()->setDiffBase(static_cast<int>(StageId::AsWritten));
    stageCombo->setCurrentIndex(static_cast<int>(StageId::AsWritten));
    QCOMPARE(window.context()->stage(), StageId::AsWritten);
    QCOMPARE(window.context()->diffBase(), static_cast<int>(StageId::Propagated));
    QCOMPARE(baseCombo->currentIndex(), static_cast<int>(StageId::Propagated));
    QVERIFY(!items->item(static_cast<int>(StageId::AsWritten))->isEnabled());
    QVERIFY(items->item(static_cast<int>(StageId::Partitioned))->isEnabled());
  }

private:
  QTemporaryDir m_dir;
};

QTEST_MAIN(DiffViewTest)
#include "diff_view_test.moc"
