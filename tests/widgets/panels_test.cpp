// The main window's panels over real programs: every bundled example builds every panel, stepping
// updates the execution panel, selection in one panel follows in the others, sessions round-trip.

#include "app/gui/main_window.h"
#include "tests/widgets/app_test_util.h"

#include "widgets/controller/engine_controller.h"
#include "widgets/controller/session_context.h"
#include "widgets/graph/graph_panel.h"
#include "widgets/models/collectives_model.h"
#include "widgets/models/problems_model.h"
#include "widgets/models/value_table_model.h"
#include "widgets/views/execution_panel.h"
#include "widgets/views/mesh_view.h"
#include "widgets/views/panels.h"
#include "widgets/views/source_view.h"
#include "widgets/views/tensor_sharding_view.h"

#include <cmath>

#include <QTextBlock>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QUrl>
#include <QFontInfo>
#include <QGraphicsItem>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsView>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardItemModel>
#include <QSlider>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

using shardscope::gui::MainWindow;
using namespace shardscope::widgets;
using namespace shardscope::widgets::testing;

namespace {

const QString kDataDir = QStringLiteral(SHARDSCOPE_TEST_DATA_DIR);
const QString kMatmul = kDataDir + QStringLiteral("/session/global_matmul.mlir");

const char* const kPanels[] = {"sourceView",       "valuesPanel",       "collectivesPanel",
                               "problemsPanel",    "inspectorPanel",    "meshView",
                               "tensorShardingView", "executionPanel",  "stageTextView",
                               "stageSelector",    "graphPanel"};

QStringList bundledPrograms() {
  QStringList out;
  for (const QString& dir : {kDataDir + QStringLiteral("/../../resources/examples"),
                             kDataDir + QStringLiteral("/session")})
    for (const QFileInfo& info : QDir(dir).entryInfoList({QStringLiteral("*.mlir")}, QDir::Files))
      out.push_back(info.absoluteFilePath());
  return out;
}

// Shows `window` at `width` x `height` with the tensor-parallel example open.
bool showExampleAt(MainWindow& window, int width, int height) {
  window.resize(width, height);
  window.show();
  return QTest::qWaitForWindowExposed(&window) &&
         openAndWait(window, kDataDir + QStringLiteral(
                                 "/../../resources/examples/mlp_tensor_parallel.mlir"));
}

} // namespace

class PanelsTest : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void initTestCase() {
    QVERIFY(useSettingsIn(m_dir));
  }

  void init() { QSettings().clear(); }

  void opensEveryBundledProgram_data() {
    QTest::addColumn<QString>("path");
    const QStringList programs = bundledPrograms();
    QVERIFY(programs.size() >= 6);
    for (const QString& path : programs)
      QTest::newRow(qPrintable(QFileInfo(path).fileName())) << path;
  }

  void opensEveryBundledProgram() {
    QFETCH(QString, path);
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const bool analysed = openAndWait(window, path);
    for (const char* name : kPanels)
      QVERIFY2(window.findChild<QWidget*>(QString::fromLatin1(name)), name);
    if (analysed) {
      QVERIFY(window.context()->program());
      QVERIFY(!window.context()->program()->stage(StageId::AsWritten).values.isEmpty());
      // Every stage is selectable and the panels follow it.
      for (int s = 0; s < kNumStages; ++s)
        window.context()->setStage(static_cast<StageId>(s));
    } else {
      QVERIFY(window.findChild<ProblemsPanel*>()->model()->rowCount() > 0);
    }
    const QImage image = window.grab().toImage();
    QVERIFY(!image.isNull());
    QVERIFY(image.width() > 600 && image.height() > 400);
  }

  void selectionFollowsInEveryPanel() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kMatmul));
    auto* values = window.findChild<ValuesPanel*>();
    QVERIFY(values);
    const int row = values->model()->rowOf(QStringLiteral("arg:main#0"));
    QVERIFY(row >= 0);
    values->selectRow(row);
    QCOMPARE(window.context()->selectedValue(), QStringLiteral("arg:main#0"));
    // Inspector: the three notations.
    const QString inspector = window.findChild<QTextBrowser*>(QStringLiteral("inspectorPanel"))->toPlainText();
    QVERIFY2(inspector.contains(QStringLiteral("f32[8@x,16@y]")), qPrintable(inspector));
    QVERIFY(inspector.contains(QStringLiteral("P('x', 'y')")));
    QVERIFY(inspector.contains(QStringLiteral("#sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]>")));
    // ... and XLA's: a 2x2 tiling of the four devices in mesh order.
    QVERIFY2(inspector.contains(QStringLiteral("{devices=[2,2]<=[4]}")), qPrintable(inspector));
    // Mesh: sharded on both axes, so every device holds its own block.
    const QVector<int> groups = window.findChild<MeshView*>()->deviceGroups();
    QCOMPARE(groups.size(), 4);
    QCOMPARE(QSet<int>(groups.begin(), groups.end()).size(), 4);
    // Tensor view: a 2x2 grid of blocks, one device each.
    auto* tensor = window.findChild<TensorShardingView*>();
    QCOMPARE(tensor->valueId(), QStringLiteral("arg:main#0"));
    QCOMPARE(tensor->cellDevices().size(), 4);
    QCOMPARE(tensor->cellDevices().value(1), QVector<qint64>{1});

    // The bias is sharded on x only: devices pair up as replicas.
    values->selectRow(values->model()->rowOf(QStringLiteral("arg:main#2")));
    const QVector<int> biasGroups = window.findChild<MeshView*>()->deviceGroups();
    QCOMPARE(biasGroups, (QVector<int>{0, 0, 1, 1}));
    QCOMPARE(tensor->cellDevices().value(0), (QVector<qint64>{0, 1}));

    // Selecting the collective of the partitioned stage colours its groups.
    window.context()->setStage(StageId::Partitioned);
    auto* collectives = window.findChild<CollectivesPanel*>();
    QCOMPARE(collectives->model()->rowCount(), 1);
    collectives->selectRow(0);
    QVERIFY(!window.context()->selectedOp().isEmpty());
    const QVector<int> reduceGroups = window.findChild<MeshView*>()->deviceGroups();
    QCOMPARE(reduceGroups, (QVector<int>{0, 0, 1, 1})); // all_reduce over y
    // Its transfers: along y, each device sends its ring's share to its neighbour (2x2 mesh,
    // positions x*2+y): 0 <-> 1 and 2 <-> 3, each 2(n-1)/n of the 64-byte partial sum.
    const QVector<MeshView::Transfer> moves = window.findChild<MeshView*>()->transfers();
    QCOMPARE(moves.size(), 4);
    QSet<QPair<qint64, qint64>> pairs;
    for (const MeshView::Transfer& t : moves) {
      pairs.insert({t.from, t.to});
      QCOMPARE(t.axis, QStringLiteral("y"));
      QCOMPARE(t.bytes, qint64(64));
      QVERIFY(!t.wraps);
    }
    QCOMPARE(pairs, (QSet<QPair<qint64, qint64>>{{0, 1}, {1, 0}, {2, 3}, {3, 2}}));
    QVERIFY(window.findChild<QTextBrowser*>(QStringLiteral("inspectorPanel"))
                ->toPlainText()
                .contains(QStringLiteral("all_reduce")));
  }

  // A matmul whose contracting dimension is sharded leaves a partial sum until its all-reduce;
  // every view must say so rather than show it as replicated or as distinct blocks.
  void partialValuesAreMarkedPartial() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kDataDir + QStringLiteral(
                                    "/../../resources/examples/mlp_tensor_parallel.mlir")));
    window.context()->setStage(StageId::Partitioned);
    QString partialId, reducedId;
    for (const ValueRow& v : window.context()->program()->stage(StageId::Partitioned).values) {
      if (v.opName == QLatin1String("stablehlo.dot_general") && v.name == QLatin1String("%4"))
        partialId = v.id;
      if (v.opName.endsWith(QLatin1String("all_reduce")))
        reducedId = v.id;
    }
    QVERIFY(!partialId.isEmpty());
    QVERIFY(!reducedId.isEmpty());
    window.context()->selectValue(partialId);
    // Mesh [data=2, model=4]: the second matmul contracts the dimension its operands split over
    // 'model', so its result is split over 'data' and partial over 'model': devices 0-3 hold
    // partial sums of the first block of rows, 4-7 of the second.
    auto* mesh = window.findChild<MeshView*>();
    QCOMPARE(mesh->deviceGroups(), (QVector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
    QVERIFY2(mesh->legend().contains(QStringLiteral("partial over 'model'")),
             qPrintable(mesh->legend()));
    auto* tensor = window.findChild<TensorShardingView*>();
    QStringList labels;
    for (QLabel* label : tensor->findChildren<QLabel*>())
      labels.push_back(label->text());
    QVERIFY2(labels.join(QLatin1Char('\n')).contains(QStringLiteral("partial over 'model'")),
             qPrintable(labels.join(QLatin1Char('\n'))));
    QCOMPARE(tensor->cellDevices().size(), 2);
    QCOMPARE(tensor->cellDevices().value(0), (QVector<qint64>{0, 1, 2, 3}));
    const QString inspector =
        window.findChild<QTextBrowser*>(QStringLiteral("inspectorPanel"))->toPlainText();
    QVERIFY2(inspector.contains(QStringLiteral("partial over 'model'")), qPrintable(inspector));

    // After the all-reduce the value is complete: replicas over 'model', no partial mark.
    window.context()->selectValue(reducedId);
    QCOMPARE(mesh->deviceGroups(), (QVector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
    QVERIFY2(!mesh->legend().contains(QStringLiteral("partial")), qPrintable(mesh->legend()));
  }

  // Inside a manual computation devices agree on a value exactly where they differ only along
  // axes it does not vary over.
  void varyingValuesColourTheDevicesThatDiffer() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kDataDir + QStringLiteral(
                                    "/../../resources/examples/shard_map_matmul.mlir")));
    auto idOf = [&](const QString& name) {
      for (const ValueRow& v : window.context()->program()->stage(StageId::AsWritten).values)
        if (v.name == name)
          return v.id;
      return QString();
    };
    auto* mesh = window.findChild<MeshView*>();
    // Mesh [data=4, model=2], positions data*2+model. The local matmul varies over both axes.
    window.context()->selectValue(idOf(QStringLiteral("%partial")));
    const QVector<int> both = mesh->deviceGroups();
    QCOMPARE(QSet<int>(both.begin(), both.end()).size(), 8);
    // After the psum over 'model' it varies over 'data' only: pairs along 'model' agree.
    window.context()->selectValue(idOf(QStringLiteral("%sum")));
    QCOMPARE(mesh->deviceGroups(), (QVector<int>{0, 0, 1, 1, 2, 2, 3, 3}));
    QVERIFY2(mesh->legend().contains(QStringLiteral("varying over data")), qPrintable(mesh->legend()));
  }

  // The Stage IR is linked to the selection both ways, in the stage's own printed text.
  void stageTextFollowsTheSelection() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kDataDir + QStringLiteral(
                                    "/../../resources/examples/mlp_tensor_parallel.mlir")));
    window.context()->setStage(StageId::Partitioned);
    auto* text = window.findChild<SourceView*>(QStringLiteral("stageTextView"));
    QVERIFY(text);
    QTRY_VERIFY(!text->isLoading() && text->blockCount() > 5);
    const StageSnapshot& stage = window.context()->program()->stage(StageId::Partitioned);
    QString reduceId;
    for (const CollectiveRow& c : stage.collectives)
      reduceId = c.opId;
    QVERIFY(!reduceId.isEmpty());
    window.context()->selectOp(reduceId);
    const int line = text->selectedLine();
    QVERIFY(line > 0);
    // The highlighted line is the inserted all-reduce as the partitioned module prints it.
    QVERIFY2(text->document()->findBlockByNumber(line - 1).text().contains(
                 QLatin1String("all_reduce")),
             qPrintable(text->document()->findBlockByNumber(line - 1).text()));
    // Clicking the line of the first dot_general selects it.
    int dotLine = 0;
    for (int l = 1; l <= text->blockCount() && !dotLine; ++l)
      if (text->document()->findBlockByNumber(l - 1).text().contains(QLatin1String("dot_general")))
        dotLine = l;
    QVERIFY(dotLine > 0);
    Q_EMIT text->lineClicked(dotLine);
    const ValueRow* selected = window.context()->selectedValueRow();
    QVERIFY(selected);
    QCOMPARE(selected->opName, QStringLiteral("stablehlo.dot_general"));
    QCOMPARE(text->selectedLine(), dotLine);
  }

  // At a common desktop size the program's source, the one text everything else points into,
  // gets the widest column: wider than the graph dock and the inspector's column.
  void defaultWindowGivesTheSourceTheWidestColumn() {
    MainWindow window;
    QVERIFY(showExampleAt(window, 1440, 900));
    auto* source = window.findChild<QWidget*>(QStringLiteral("sourceView"));
    auto* graph = window.findChild<QDockWidget*>(QStringLiteral("graphDock"));
    auto* inspector = window.findChild<QDockWidget*>(QStringLiteral("inspectorDock"));
    QVERIFY(graph && inspector);
    QVERIFY2(source->width() > graph->width() && source->width() > inspector->width(),
             qPrintable(QStringLiteral("source %1, graph %2, inspector %3")
                            .arg(source->width())
                            .arg(graph->width())
                            .arg(inspector->width())));
  }

  // Shrinking the window shrinks every column in proportion: without it QMainWindow takes the
  // whole change from the source (1440 -> 1024 left it a fifth of the width, side columns whole).
  void shrinkingTheWindowKeepsTheColumnsProportions() {
    MainWindow window;
    QVERIFY(showExampleAt(window, 1440, 900));
    auto* source = window.findChild<QWidget*>(QStringLiteral("sourceView"));
    auto* graph = window.findChild<QDockWidget*>(QStringLiteral("graphDock"));
    QVERIFY(source && graph);
    const double sourceShare = double(source->width()) / window.width();
    const double graphShare = double(graph->width()) / window.width();
    window.resize(1100, 800);
    QTest::qWait(200);
    QCOMPARE(window.width(), 1100);
    auto* inspector = window.findChild<QDockWidget*>(QStringLiteral("inspectorDock"));
    const QString sizes = QStringLiteral("source %1 -> %2 px, graph %3 -> %4 px, inspector %5")
                              .arg(sourceShare * 1440)
                              .arg(source->width())
                              .arg(graphShare * 1440)
                              .arg(graph->width())
                              .arg(inspector->width());
    QVERIFY2(double(source->width()) / window.width() > sourceShare - 0.05, qPrintable(sizes));
    QVERIFY2(double(graph->width()) / window.width() < graphShare + 0.05, qPrintable(sizes));
    // And back: the columns grow again in proportion.
    window.resize(1440, 900);
    QTest::qWait(200);
    QVERIFY2(std::abs(double(source->width()) / window.width() - sourceShare) < 0.05,
             qPrintable(QString::number(source->width())));
  }

  // A small screen (1024x700) keeps every panel usable: the source shows whole lines' starts
  // and the mesh has room for its cells and legend.
  void smallWindowKeepsPanelsReadable() {
    MainWindow window;
    QVERIFY(showExampleAt(window, 1024, 700));
    auto* source = window.findChild<QWidget*>(QStringLiteral("sourceView"));
    const int column = source->fontMetrics().horizontalAdvance(QLatin1Char('x'));
    QVERIFY2(source->width() >= 30 * column, qPrintable(QString::number(source->width())));
    auto* mesh = window.findChild<MeshView*>();
    QVERIFY(mesh->isVisible());
    QVERIFY2(mesh->height() >= 150 && mesh->width() >= 160,
             qPrintable(QStringLiteral("%1x%2").arg(mesh->width()).arg(mesh->height())));
  }

  void graphShowsTheProgramAndSelects() {
    MainWindow window;
    window.show();
    auto* graph = window.findChild<GraphPanel*>();
    QVERIFY(graph);
    QSignalSpy ready(window.controller(), &EngineController::graphReady);
    QVERIFY(openAndWait(window, kMatmul));
    window.context()->setStage(StageId::Partitioned);
    QElapsedTimer timer;
    timer.start();
    while ((!graph->graph() || graph->graph()->stage != StageId::Partitioned) &&
           timer.elapsed() < 30000)
      QTest::qWait(20);
    QVERIFY(graph->graph());
    QVERIFY2(graph->graph()->status.isEmpty(), qPrintable(graph->graph()->status));
    bool hasCollective = false, hasDot = false;
    for (const GraphNodeItem& n : graph->graph()->nodes) {
      hasCollective = hasCollective || n.kind == QLatin1String("inserted-collective");
      if (n.opId == QLatin1String("10:3:stablehlo.dot_general"))
        hasDot = true;
    }
    QVERIFY(hasCollective);
    QVERIFY(hasDot);
    QVERIFY(!graph->scene()->items().isEmpty());
    // Clicking the node selects the op in every panel.
    for (QGraphicsItem* item : graph->scene()->items())
      if (item->data(1).toString() == QLatin1String("10:3:stablehlo.dot_general")) {
        auto* view = graph->findChild<QGraphicsView*>();
        const QPoint at = view->mapFromScene(item->sceneBoundingRect().center());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
        break;
      }
    QCOMPARE(window.context()->selectedOp(), QStringLiteral("10:3:stablehlo.dot_general"));
    QCOMPARE(window.context()->selectedLine(), 10);
    // Zoomed in, the overview appears in the corner.
    auto* canvas = graph->findChild<QGraphicsView*>(QStringLiteral("graphCanvas"));
    auto* miniMap = graph->findChild<QGraphicsView*>(QStringLiteral("graphMiniMap"));
    QVERIFY(canvas && miniMap);
    QTRY_VERIFY_WITH_TIMEOUT(!miniMap->isVisible(), 5000); // once the graph is fitted
    const QPoint centre = canvas->viewport()->rect().center();
    for (int i = 0; i < 3; ++i) {
      QWheelEvent wheel(centre, canvas->viewport()->mapToGlobal(centre), QPoint(), QPoint(0, 480),
                        Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
      QApplication::sendEvent(canvas->viewport(), &wheel);
    }
    QVERIFY(canvas->transform().m11() > 2);
    // In a view this small (the window's default size) the overview would hide much of the graph.
    QVERIFY(canvas->width() < 320);
    QTest::qWait(50);
    QVERIFY(!miniMap->isVisible());
    window.resize(1400, 1000);
    QTRY_VERIFY_WITH_TIMEOUT(canvas->width() >= 320 && canvas->height() >= 240, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(miniMap->isVisible(), 5000);
  }

  // A graph far larger than the view opens at a readable scale on its start, with the overview;
  // Fit then shows all of it.
  void largeGraphOpensReadable() {
    QString text = QStringLiteral(
        "func.func private @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = stablehlo.add %a, %b : tensor<4xf32>\n"
        "  return %0 : tensor<4xf32>\n"
        "}\n"
        "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n");
    QString previous = QStringLiteral("%x");
    for (int i = 0; i < 120; ++i) {
      text += QStringLiteral("  %%1 = call @f(%2, %x) : (tensor<4xf32>, tensor<4xf32>) -> "
                             "tensor<4xf32>\n")
                  .arg(QString::number(i), previous); // one pass: %2 may hold "%1"
      previous = QStringLiteral("%") + QString::number(i);
    }
    text += QStringLiteral("  return %1 : tensor<4xf32>\n}\n").arg(previous);
    const QString path = m_dir.filePath(QStringLiteral("many_calls.mlir"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text.toUtf8());
    file.close();

    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(openAndWait(window, path));
    auto* graph = window.findChild<GraphPanel*>();
    auto* canvas = graph->findChild<QGraphicsView*>(QStringLiteral("graphCanvas"));
    auto* miniMap = graph->findChild<QGraphicsView*>(QStringLiteral("graphMiniMap"));
    QTRY_VERIFY_WITH_TIMEOUT(!graph->scene()->items().isEmpty(), 10000);
    // Arguments are named as in the source and the value table (`%x`), not `%arg0`.
    QStringList arguments;
    for (const GraphNodeItem& n : graph->graph()->nodes)
      if (n.kind == QLatin1String("argument") || n.kind == QLatin1String("value-ref"))
        arguments << n.lines.value(0);
    QVERIFY(!arguments.isEmpty());
    QVERIFY2(arguments.contains(QStringLiteral("%x")) &&
                 !arguments.contains(QStringLiteral("%arg0")),
             qPrintable(arguments.join(QLatin1Char(' '))));
    const QRectF scene = graph->scene()->sceneRect();
    auto shown = [&] { return canvas->mapToScene(canvas->viewport()->rect()).boundingRect(); };
    QVERIFY2(scene.height() * GraphCanvas::kReadableScale > canvas->viewport()->height() * 2,
             "the graph should be much taller than the view");
    QCOMPARE(canvas->transform().m11(), GraphCanvas::kReadableScale);
    // Every label of the scene is drawn with its font at least 10 device pixels high.
    int labels = 0;
    for (QGraphicsItem* item : graph->scene()->items())
      if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
        ++labels;
        const QRectF box = text->boundingRect();
        const double scale =
            canvas->mapFromScene(text->mapToScene(box)).boundingRect().height() / box.height();
        const double pixels = QFontInfo(text->font()).pixelSize() * scale;
        QVERIFY2(pixels >= 10, qPrintable(text->text() + QStringLiteral(": ") +
                                          QString::number(pixels) + QStringLiteral(" px")));
      }
    QVERIFY(labels > 100);
    // The view opens at the entry: the argument node is in view.
    bool entryShown = false;
    for (const GraphNodeItem& n : graph->graph()->nodes)
      if (n.lines.value(0) == QLatin1String("%x") && shown().contains(n.rect))
        entryShown = true;
    QVERIFY(entryShown);
    // The overview takes at most a fifth of the view's width.
    QTRY_VERIFY_WITH_TIMEOUT(miniMap->isVisible(), 5000);
    QVERIFY(miniMap->width() <= canvas->width() / 5);
    QTRY_VERIFY_WITH_TIMEOUT(miniMap->isVisible(), 5000);
    graph->findChild<QAbstractButton*>(QStringLiteral("graphFitButton"))->click();
    QVERIFY(canvas->transform().m11() < GraphCanvas::kMinFitScale);
    // (Once the scroll bars are gone and the view refitted to its full viewport.)
    QTRY_VERIFY_WITH_TIMEOUT(shown().adjusted(-1, -1, 1, 1).contains(scene), 5000);
  }

  void anyRankOnAnyMesh() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, QStringLiteral(SHARDSCOPE_WIDGET_TEST_DATA_DIR "/three_axes.mlir")));
    window.context()->selectValue(QStringLiteral("arg:main#0"));
    // Mesh: x and z split the value, y replicates it: devices pair up along y.
    const QVector<int> groups = window.findChild<MeshView*>()->deviceGroups();
    QCOMPARE(groups.size(), 8);
    QCOMPARE(QSet<int>(groups.begin(), groups.end()).size(), 4);
    QCOMPARE(groups[0], groups[2]); // (0,0,0) and (0,1,0) differ only along y
    QVERIFY(groups[0] != groups[1]); // (0,0,1) differs along z
    // Tensor view: rows dim 1 (9 over z, padded), columns dim 2, a slider for dim 0.
    auto* tensor = window.findChild<TensorShardingView*>();
    QCOMPARE(tensor->rowDim(), 1);
    QCOMPARE(tensor->colDim(), 2);
    auto* slider = tensor->findChild<QSlider*>(QStringLiteral("dimSlider0"));
    QVERIFY(slider);
    QCOMPARE(slider->maximum(), 7);
    QCOMPARE(tensor->cellDevices().size(), 2);               // two blocks along dim 1
    QCOMPARE(tensor->cellDevices().value(1), (QVector<qint64>{1, 3})); // z=1, both y
    slider->setValue(5);                                      // the x=1 half of dim 0
    QCOMPARE(tensor->cellDevices().value(1), (QVector<qint64>{5, 7}));
    tensor->setDims(0, 1);
    QCOMPARE(tensor->cellDevices().size(), 4);
    QVERIFY(tensor->findChild<QSlider*>(QStringLiteral("dimSlider2")));
    const QImage image = window.grab().toImage();
    QVERIFY(!image.isNull());
  }

  void problemSelectsLine() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kMatmul));
    window.context()->selectLine(11);
    QCOMPARE(window.context()->selectedValue(), QStringLiteral("11:3:stablehlo.add#0"));
    QCOMPARE(window.context()->selectedLine(), 11);
  }

  void steppingUpdatesTheExecutionPanel() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kMatmul));
    window.context()->selectValue(QStringLiteral("%0"));
    QCOMPARE(window.context()->selectedValue(), QStringLiteral("10:3:stablehlo.dot_general#0"));
    QVERIFY(clickAndWait(window, QStringLiteral("startButton")));
    ExecutionSnapshotPtr e = window.context()->execution();
    QVERIFY(e && e->started);
    QCOMPARE(e->devices.size(), 4);
    const QString first = e->devices[0].opId;
    QVERIFY(!first.isEmpty());
    auto* panel = window.findChild<ExecutionPanel*>();
    QCOMPARE(panel->deviceTiles().size(), 4);
    bool changed = false;
    for (int i = 0; i < 20 && !window.context()->execution()->finished; ++i) {
      QVERIFY(clickAndWait(window, QStringLiteral("stepButton")));
      e = window.context()->execution();
      changed = changed || (!e->devices[0].opId.isEmpty() && e->devices[0].opId != first);
      if (e->perDevice.size() == 4 && e->perDevice[3].valid)
        break;
    }
    QVERIFY(changed);
    QCOMPARE(e->perDevice.size(), 4);
    for (int d = 0; d < 4; ++d) {
      QVERIFY(e->perDevice[d].valid);
      QCOMPARE(e->perDevice[d].shape, (QVector<qint64>{4, 4}));
      QVERIFY(panel->deviceTiles()[d]->tensor().valid);
    }
    QVERIFY(window.findChild<QLabel*>(QStringLiteral("executionStatus"))->text().contains(QStringLiteral("step")));
    // For looking at the panel: SHARDSCOPE_TEST_SCREENSHOT_DIR=dir saves the window there.
    const QString shots = qEnvironmentVariable("SHARDSCOPE_TEST_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
      window.resize(1440, 900);
      window.findChild<QDockWidget*>(QStringLiteral("executionDock"))->raise();
      QTest::qWait(50);
      window.grab().save(QDir(shots).filePath(QStringLiteral("execution.png")));
    }
    // Run to the end: the reference check passes.
    QVERIFY(clickAndWait(window, QStringLiteral("runToEndButton")));
    e = window.context()->execution();
    QVERIFY(e->finished);
    QVERIFY(e->divergences.isEmpty());
  }

  void showsDivergences() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, QStringLiteral(SHARDSCOPE_WIDGET_TEST_DATA_DIR "/wrong_reference.mlir")));
    QVERIFY(clickAndWait(window, QStringLiteral("startButton")));
    QVERIFY(clickAndWait(window, QStringLiteral("runToEndButton")));
    const ExecutionSnapshotPtr e = window.context()->execution();
    QVERIFY(e->finished);
    QCOMPARE(e->divergences.size(), 1);
    auto* label = window.findChild<QLabel*>(QStringLiteral("divergenceLabel"));
    QVERIFY(!label->isHidden());
    QVERIFY2(label->text().contains(QStringLiteral("element 1")), qPrintable(label->text()));
  }

  void breakpointStopsContinue() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kMatmul));
    window.controller()->setBreakpoint(QStringLiteral("11:3:stablehlo.add"), true);
    QVERIFY(clickAndWait(window, QStringLiteral("startButton")));
    QVERIFY(clickAndWait(window, QStringLiteral("continueButton")));
    const ExecutionSnapshotPtr e = window.context()->execution();
    QCOMPARE(e->stopReason, QStringLiteral("breakpoint"));
    QCOMPARE(e->devices[0].opId, QStringLiteral("11:3:stablehlo.add"));
  }

  void runsToTheSelection() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kMatmul));
    QVERIFY(clickAndWait(window, QStringLiteral("startButton")));
    window.context()->selectOp(QStringLiteral("11:3:stablehlo.add"));
    QCOMPARE(window.context()->selectedValue(), QStringLiteral("11:3:stablehlo.add#0"));
    QVERIFY(clickAndWait(window, QStringLiteral("runToSelectionButton")));
    const ExecutionSnapshotPtr e = window.context()->execution();
    QCOMPARE(e->stopReason, QStringLiteral("reached the selected op"));
    for (const DevicePosition& p : e->devices)
      QCOMPARE(p.opId, QStringLiteral("11:3:stablehlo.add"));
  }

  void sessionRoundTrips() {
    const QString sessionPath = m_dir.filePath(QStringLiteral("session.json"));
    {
      MainWindow window;
      QVERIFY(openAndWait(window, kMatmul));
      window.context()->setStage(StageId::Propagated);
      window.context()->selectValue(QStringLiteral("%1"));
      window.controller()->setBreakpoint(QStringLiteral("11:3:stablehlo.add"), true);
      window.findChild<GraphPanel*>()->setClusterExpanded(QStringLiteral("cluster:L9C3"), true);
      QVERIFY(window.saveSession(sessionPath));
    }
    MainWindow window;
    QSignalSpy loaded(&window, &MainWindow::programLoaded);
    QVERIFY(window.restoreSession(sessionPath));
    QVERIFY(loaded.wait(30000));
    QCOMPARE(window.currentFile(), QFileInfo(kMatmul).absoluteFilePath());
    QCOMPARE(window.context()->stage(), StageId::Propagated);
    QCOMPARE(window.context()->selectedValue(), QStringLiteral("11:3:stablehlo.add#0"));
    QVERIFY(window.controller()->breakpoints().contains(QStringLiteral("11:3:stablehlo.add")));
    QCOMPARE(window.findChild<GraphPanel*>()->expandedClusters(),
             QStringList{QStringLiteral("cluster:L9C3")});
  }

  void reloadsOnChangeAfterAsking() {
    const QString path = m_dir.filePath(QStringLiteral("changing.mlir"));
    QFile::remove(path);
    QVERIFY(QFile::copy(kMatmul, path));
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, path));
    QSignalSpy loaded(&window, &MainWindow::programLoaded);
    {
      QFile file(path);
      QVERIFY(file.open(QIODevice::Append | QIODevice::Text));
      file.write("// changed\n");
    }
    QMessageBox* prompt = nullptr;
    QElapsedTimer timer;
    timer.start();
    while (!(prompt = window.findChild<QMessageBox*>(QStringLiteral("reloadPrompt"))) &&
           timer.elapsed() < 10000)
      QTest::qWait(20);
    QVERIFY(prompt);
    prompt->button(QMessageBox::Yes)->click();
    QVERIFY(loaded.wait(30000));
    QVERIFY(window.findChild<QPlainTextEdit*>(QStringLiteral("sourceView"))
                ->toPlainText()
                .contains(QStringLiteral("// changed")));
  }

  void opensDroppedFiles() {
    MainWindow window;
    window.show();
    QSignalSpy loaded(&window, &MainWindow::programLoaded);
    QMimeData data;
    data.setUrls({QUrl::fromLocalFile(kMatmul)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    QCOMPARE(window.currentFile(), QFileInfo(kMatmul).absoluteFilePath());
    QVERIFY(loaded.wait(30000));
  }

  void opensBundledExamplesFromTheMenu() {
    MainWindow window;
    auto* menu = window.findChild<QMenu*>(QStringLiteral("examplesMenu"));
    QVERIFY(menu);
    // Every bundled example is in the menu (resources/shardscope.qrc lists them).
    const QStringList bundled =
        QDir(QStringLiteral(SHARDSCOPE_TEST_DATA_DIR "/../../resources/examples"))
            .entryList({QStringLiteral("*.mlir")}, QDir::Files, QDir::Name);
    QVERIFY(bundled.size() >= 8);
    QStringList listed;
    QAction* tensorParallel = nullptr;
    for (QAction* action : menu->actions()) {
      listed.push_back(action->text());
      if (action->text() == QStringLiteral("mlp_tensor_parallel.mlir"))
        tensorParallel = action;
    }
    QCOMPARE(listed, bundled);
    QVERIFY(tensorParallel);
    QSignalSpy loaded(&window, &MainWindow::programLoaded);
    tensorParallel->trigger();
    QVERIFY(loaded.wait(30000));
    QVERIFY(window.currentFile().endsWith(QStringLiteral("/mlp_tensor_parallel.mlir")));
    // (The partitioned stage comes after programLoaded, in the background.)
    QTRY_COMPARE_WITH_TIMEOUT(
        window.context()->program()->stage(StageId::Partitioned).collectives.size(), 1, 30000);
  }

  void explicitShardingErrorsAreProblems() {
    MainWindow window;
    QVERIFY(openAndWait(window, QStringLiteral(SHARDSCOPE_TEST_DATA_DIR
                                               "/../../resources/examples/"
                                               "explicit_sharding_illegal.mlir")));
    const auto& problems = window.context()->program()->problems;
    const ProblemRow* illegal = nullptr;
    for (const ProblemRow& row : problems)
      if (row.severity == QStringLiteral("error") &&
          row.message.contains(QStringLiteral("illegally sharded result: f32[8@X,8@X]")))
        illegal = &row;
    QVERIFY(illegal);
    QCOMPARE(illegal->line, 33);
  }

  // The gradient stages: side by side in the Gradients panel with their cost difference,
  // selectable in the stage selector, shown as the gradient function's graph, and runnable.
  void gradientStagesSideBySideAndRunnable() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, QStringLiteral(SHARDSCOPE_TEST_DATA_DIR
                                               "/autodiff/data_parallel_loss.mlir")));
    const auto gradientReady = [&] {
      const StageSnapshot& naive = window.context()->program()->stage(StageId::GradientNaive);
      return naive.available || !naive.unavailable.isEmpty();
    };
    QTRY_VERIFY_WITH_TIMEOUT(gradientReady(), 30000);
    auto* panel = window.findChild<GradientPanel*>();
    QVERIFY(panel);
    // The naive gradient psums the cotangent the efficient one broadcasts for free: one more
    // collective, marked as the one the efficient rules avoid.
    const int efficient = panel->efficientModel()->rowCount();
    const int naive = panel->naiveModel()->rowCount();
    QCOMPARE(naive, efficient + 1);
    int avoided = 0;
    for (int r = 0; r < naive; ++r)
      avoided += panel->naiveModel()->isAdded(r) ? 1 : 0;
    QCOMPARE(avoided, 1);
    QVERIFY2(panel->summary()->text().contains(QStringLiteral("save")),
             qPrintable(panel->summary()->text()));
    QVERIFY(panel->summary()->text().contains(QStringLiteral("@loss_grad")));

    // Choosing the efficient gradient shows the gradient function.
    auto* combo = window.findChild<QComboBox*>(QStringLiteral("stageCombo"));
    combo->setCurrentIndex(static_cast<int>(StageId::GradientEfficient));
    QCOMPARE(window.context()->stage(), StageId::GradientEfficient);
    auto* function = window.findChild<QComboBox*>(QStringLiteral("graphFunctionCombo"));
    QVERIFY(function);
    QTRY_COMPARE_WITH_TIMEOUT(function->currentText(), QStringLiteral("loss_grad"), 30000);

    // And runs it on the mesh: 8 devices, to the end.
    QVERIFY(clickAndWait(window, QStringLiteral("startButton")));
    QVERIFY(window.context()->execution() && window.context()->execution()->started);
    QCOMPARE(window.context()->execution()->devices.size(), 8);
    QVERIFY(clickAndWait(window, QStringLiteral("runToEndButton")));
    QVERIFY(window.context()->execution()->finished);
    QVERIFY(!window.context()->execution()->failed);
  }

  // A program whose function is not scalar has no gradient: the stages are listed, disabled,
  // with the reason.
  void gradientStagesOfANonScalarProgramAreDisabled() {
    MainWindow window;
    QVERIFY(openAndWait(window, kMatmul));
    QTRY_VERIFY_WITH_TIMEOUT(
        !window.context()->program()->stage(StageId::GradientEfficient).unavailable.isEmpty(),
        30000);
    auto* combo = window.findChild<QComboBox*>(QStringLiteral("stageCombo"));
    auto* model = qobject_cast<QStandardItemModel*>(combo->model());
    QVERIFY(model);
    QVERIFY(model->item(static_cast<int>(StageId::Partitioned))->isEnabled());
    QStandardItem* gradient = model->item(static_cast<int>(StageId::GradientEfficient));
    QVERIFY(!gradient->isEnabled());
    QVERIFY2(gradient->toolTip().contains(QStringLiteral("rank-0")), qPrintable(gradient->toolTip()));
    auto* panel = window.findChild<GradientPanel*>();
    QVERIFY(panel->summary()->text().contains(QStringLiteral("No gradient")));
  }

  // A JAX export keeps JAX's names in its locations: the Inspector shows the one of the add in
  // the shard_map body, written as `loc("add:"("jit(f)/shard_map/add"(...)))`.
  void inspectorShowsJaxNames() {
    MainWindow window;
    QVERIFY(openAndWait(window, QStringLiteral(SHARDSCOPE_TEST_DATA_DIR "/jax/shard_map_shift.mlir")));
    auto* values = window.findChild<ValuesPanel*>();
    QVERIFY(values);
    QString addId;
    for (const ValueRow& v : window.context()->program()->stage(StageId::AsWritten).values)
      if (v.opName == QLatin1String("stablehlo.add"))
        addId = v.id;
    QVERIFY(!addId.isEmpty());
    window.context()->selectValue(addId);
    const QString text =
        window.findChild<QTextBrowser*>(QStringLiteral("inspectorPanel"))->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("JAX name")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("jit(f)/shard_map/add")), qPrintable(text));
  }

  // The Inspector shows the origin chain of a propagated sharding: tanh's result in the MLP
  // gets "data" from %x and "model" from %w1, through the first dot_general.
  void inspectorExplainsThePropagatedSharding() {
    MainWindow window;
    QVERIFY(openAndWait(window, QStringLiteral(SHARDSCOPE_TEST_DATA_DIR "/propagation_chain.mlir")));
    window.context()->setStage(StageId::Propagated);
    window.context()->selectValue(QStringLiteral("%a"));
    QCOMPARE(window.context()->selectedValue(), QStringLiteral("10:3:stablehlo.tanh#0"));
    auto* inspector = window.findChild<QTextBrowser*>(QStringLiteral("inspectorPanel"));
    QTRY_VERIFY_WITH_TIMEOUT(
        inspector->toPlainText().contains(QStringLiteral("Why this sharding")), 30000);
    const QString text = inspector->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("From 2 annotations")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("([i, j])->([i, j]) {i=16, j=256}")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("stablehlo.tanh forward")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("%w1 #sdy.sharding<@mesh, [{}, {\"model\"}]>")),
             qPrintable(text));
    // An annotated argument keeps its own.
    window.context()->selectValue(QStringLiteral("arg:main#0"));
    QTRY_VERIFY_WITH_TIMEOUT(inspector->toPlainText().contains(
                                 QStringLiteral("Its own annotation")),
                             30000);
  }

  // Ctrl+F: a value's name goes to the value; other text finds a node by op name.
  void graphSearchGoesToAValueOrAnOp() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, QStringLiteral(SHARDSCOPE_TEST_DATA_DIR "/propagation_chain.mlir")));
    auto* graph = window.findChild<GraphPanel*>();
    QTRY_VERIFY_WITH_TIMEOUT(graph->graph() && !graph->graph()->nodes.isEmpty(), 30000);
    auto* search = window.findChild<QLineEdit*>(QStringLiteral("graphSearch"));
    QVERIFY(search);
    search->setText(QStringLiteral("%a"));
    QTest::keyClick(search, Qt::Key_Return);
    QCOMPARE(window.context()->selectedValue(), QStringLiteral("10:3:stablehlo.tanh#0"));
    search->setText(QStringLiteral("y"));
    QTest::keyClick(search, Qt::Key_Return);
    QCOMPARE(window.context()->selectedValue(), QStringLiteral("11:3:stablehlo.dot_general#0"));
    window.context()->selectValue(QString());
    search->setText(QStringLiteral("tanh"));
    QTest::keyClick(search, Qt::Key_Return);
    QCOMPARE(window.context()->selectedOp(), QStringLiteral("10:3:stablehlo.tanh"));
  }

  // A value selected in another function than the graph shows (here from the values table)
  // brings that function's graph, with the value's op outlined.
  // One name per value: the value written %1 is %1 in every stage (MLIR's numbering calls it %2
  // once partitioning has inserted an all-to-all before it), in the values table and in the
  // stage's IR; values a pass made are named after their op.
  void valuesKeepTheirSourceNamesInEveryStage() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, QStringLiteral(SHARDSCOPE_TEST_DATA_DIR
                                               "/../widgets/data/renumbered.mlir")));
    const QString expId = QStringLiteral("8:3:stablehlo.exponential#0");
    const QString negId = QStringLiteral("9:3:stablehlo.negate#0");
    for (StageId stage : {StageId::AsWritten, StageId::Propagated, StageId::Partitioned,
                          StageId::PerDevice}) {
      const StageSnapshot& snapshot = window.context()->program()->stage(stage);
      QVERIFY2(snapshot.available, qPrintable(stageTitle(stage)));
      QHash<QString, QString> nameOf;
      QSet<QString> names;
      QStringList inserted;
      for (const ValueRow& v : snapshot.values) {
        nameOf.insert(v.id, v.name);
        QVERIFY2(!names.contains(v.name), qPrintable(v.name + QStringLiteral(" twice")));
        names.insert(v.name);
        if (v.opName.contains(QLatin1String("all_to_all")))
          inserted << v.name;
      }
      QCOMPARE(nameOf.value(expId), QStringLiteral("%1"));
      QCOMPARE(nameOf.value(negId), QStringLiteral("%2"));
      const bool partitioned = stage == StageId::Partitioned || stage == StageId::PerDevice;
      QVERIFY2(snapshot.text.contains(QStringLiteral("%1 = stablehlo.exponential %0")),
               qPrintable(snapshot.text));
      QVERIFY2(snapshot.text.contains(partitioned ? QStringLiteral("%2 = stablehlo.negate %all_to_all")
                                                  : QStringLiteral("%2 = stablehlo.negate %1")),
               qPrintable(snapshot.text));
      if (partitioned)
        QCOMPARE(inserted, QStringList{QStringLiteral("%all_to_all")});
    }
  }

  void theGraphFollowsTheSelectionIntoItsFunction() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, QStringLiteral(SHARDSCOPE_TEST_DATA_DIR
                                               "/../widgets/data/two_functions.mlir")));
    auto* graph = window.findChild<GraphPanel*>();
    QVERIFY(waitForGraph(graph, StageId::AsWritten));
    QCOMPARE(graph->graph()->function, QStringLiteral("main"));
    window.context()->selectValue(QStringLiteral("11:3:stablehlo.multiply#0"));
    QTRY_VERIFY_WITH_TIMEOUT(graph->graph()->function == QLatin1String("helper"), 30000);
    auto* function = window.findChild<QComboBox*>(QStringLiteral("graphFunctionCombo"));
    QCOMPARE(function->currentText(), QStringLiteral("helper"));
    bool outlined = false, inView = false;
    auto* view = graph->findChild<GraphCanvas*>();
    QVERIFY(view);
    const QRectF shown = view->mapToScene(view->viewport()->rect()).boundingRect();
    for (QGraphicsItem* item : graph->scene()->items())
      if (auto* node = dynamic_cast<QGraphicsRectItem*>(item);
          node && node->data(GraphPanel::OpData).toString() == QLatin1String("11:3:stablehlo.multiply")) {
        outlined = node->pen().widthF() > 3;
        inView = shown.contains(node->sceneBoundingRect().center());
      }
    QVERIFY(outlined);
    QVERIFY(inView);
    // Selecting a value of main again (its argument) brings main back.
    window.context()->selectValue(QStringLiteral("arg:main#0"));
    QTRY_VERIFY_WITH_TIMEOUT(graph->graph()->function == QLatin1String("main"), 30000);
  }

  void togglesThePalette() {
    MainWindow window;
    auto* action = window.findChild<QAction*>(QStringLiteral("darkPaletteAction"));
    QVERIFY(action);
    action->setChecked(true);
    QVERIFY(window.isDarkPalette());
    QVERIFY(QApplication::palette().color(QPalette::Base).lightness() < 128);
    QVERIFY(QSettings().value(QStringLiteral("mainWindow/darkPalette")).toBool());
    action->setChecked(false);
    QVERIFY(QApplication::palette().color(QPalette::Base).lightness() >= 128);
  }

  void stageSelectorDrivesEveryView() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kMatmul));
    auto* combo = window.findChild<QComboBox*>(QStringLiteral("stageCombo"));
    combo->setCurrentIndex(static_cast<int>(StageId::Partitioned));
    QCOMPARE(window.context()->stage(), StageId::Partitioned);
    QCOMPARE(window.findChild<CollectivesPanel*>()->model()->rowCount(), 1);
    // Diff mode: the inserted all-reduce is new against the propagated stage.
    window.findChild<QCheckBox*>(QStringLiteral("diffToggle"))->setChecked(true);
    QCOMPARE(window.context()->diffBase(), static_cast<int>(StageId::Propagated));
    QVERIFY(window.findChild<CollectivesPanel*>()->model()->isAdded(0));
    const QString shots = qEnvironmentVariable("SHARDSCOPE_TEST_SCREENSHOT_DIR");
    if (!shots.isEmpty()) {
      window.resize(1440, 900);
      window.findChild<QDockWidget*>(QStringLiteral("collectivesDock"))->raise();
      QTest::qWait(50);
      window.grab().save(QDir(shots).filePath(QStringLiteral("diff.png")));
    }
    window.findChild<QCheckBox*>(QStringLiteral("diffToggle"))->setChecked(false);
    QCOMPARE(window.context()->diffBase(), -1);
    window.context()->setStage(StageId::AsWritten);
    QCOMPARE(combo->currentIndex(), 0);
    QCOMPARE(window.findChild<CollectivesPanel*>()->model()->rowCount(), 0);
  }

private:
  QTemporaryDir m_dir;
};

QTEST_MAIN(PanelsTest)
#include "panels_test.moc"
