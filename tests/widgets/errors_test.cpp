// Errors where the eye is: the op of an error is red in the graph, marked in the source gutter with
// its message on hover, repeated in the inspector; a failed run is a problem at the op and line
// where it stopped; under explicit mesh axes, edges and values carry the types JAX gives them.

#include "app/gui/main_window.h"
#include "tests/widgets/app_test_util.h"

#include "widgets/controller/engine_controller.h"
#include "widgets/controller/session_context.h"
#include "widgets/graph/graph_panel.h"
#include "widgets/models/problems_model.h"
#include "widgets/views/panels.h"
#include "widgets/views/source_view.h"

#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QHelpEvent>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QToolTip>
#include <QtTest>

using shardscope::gui::MainWindow;
using namespace shardscope::widgets;
using namespace shardscope::widgets::testing;

namespace {

const QString kIllegal = QStringLiteral(SHARDSCOPE_TEST_DATA_DIR
                                        "/../../resources/examples/explicit_sharding_illegal.mlir");
const QString kWidgetData = QStringLiteral(SHARDSCOPE_WIDGET_TEST_DATA_DIR);
const QString kUnsupported =
    QStringLiteral(SHARDSCOPE_TEST_DATA_DIR "/session/unsupported_op.mlir");

// From the example's header: JAX's message for the add at line 33 (`%out = stablehlo.add`,
// column 5, where its result is named).
const QString kIllegalMessage = QStringLiteral(
    "add operation with inputs: f32[8@X,8], f32[8,8@X] produces an illegally sharded result: "
    "f32[8@X,8@X]");
const QString kIllegalAdd = QStringLiteral("33:5:stablehlo.add");
const QString kTanh = QStringLiteral("32:5:stablehlo.tanh");

} // namespace

class ErrorsTest : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void initTestCase() {
    QVERIFY(useSettingsIn(m_dir));
  }

  void init() { QSettings().clear(); }

  // The problem names its op, and the op's node is red with the message in its tooltip.
  void problemOpIsRedInTheGraph() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kIllegal));
    const ProblemRow* illegal = nullptr;
    for (const ProblemRow& p : window.context()->program()->problems)
      if (p.isError() && p.message.contains(kIllegalMessage))
        illegal = &p;
    QVERIFY(illegal);
    QCOMPARE(illegal->opId, kIllegalAdd);
    QCOMPARE(illegal->stageId, static_cast<int>(StageId::AsWritten));

    auto* graph = window.findChild<GraphPanel*>();
    QVERIFY(waitForGraph(graph, StageId::AsWritten));
    QGraphicsRectItem* add = nodeOf(graph, kIllegalAdd);
    QVERIFY(add);
    QCOMPARE(add->pen().color(), QColor(0xd0, 0x30, 0x30));
    QCOMPARE(add->brush().color(), QColor(0xfb, 0xdc, 0xdc));
    QVERIFY2(add->toolTip().contains(kIllegalMessage), qPrintable(add->toolTip()));
    // Its red `error` tab, inside the scene.
    QGraphicsSimpleTextItem* tab = nullptr;
    for (QGraphicsItem* child : add->childItems())
      for (QGraphicsItem* text : child->childItems())
        if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(text);
            t && t->text() == QStringLiteral("error"))
          tab = t;
    QVERIFY(tab);
    QCOMPARE(static_cast<QGraphicsRectItem*>(tab->parentItem())->brush().color(),
             QColor(0xd0, 0x30, 0x30));
    QVERIFY(graph->scene()->sceneRect().contains(tab->sceneBoundingRect()));
    QGraphicsRectItem* tanh = nodeOf(graph, kTanh);
    QVERIFY(tanh);
    QVERIFY(tanh->pen().color() != QColor(0xd0, 0x30, 0x30));
    QVERIFY(!tanh->toolTip().contains(QStringLiteral("error")));
    saveScreenshot(window, QStringLiteral("graphDock"), QStringLiteral("graph_error"));

    // The later stages derive from the program as written: its error stays marked there.
    window.context()->setStage(StageId::Partitioned);
    QVERIFY(waitForGraph(graph, StageId::Partitioned));
    add = nodeOf(graph, kIllegalAdd);
    QVERIFY(add);
    QCOMPARE(add->pen().color(), QColor(0xd0, 0x30, 0x30));
  }

  // Collapsing the loop body that holds the problem op keeps the error on the body's summary
  // node, with the op's line and message in its tooltip.
  void problemInsideACollapsedClusterMarksItsSummary() {
    const QString add = QStringLiteral("14:7:stablehlo.add");
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kWidgetData + QStringLiteral("/error_in_loop.mlir")));
    auto* graph = window.findChild<GraphPanel*>();
    QVERIFY(waitForGraph(graph, StageId::AsWritten));
    QVERIFY(nodeOf(graph, add));
    // The innermost cluster box around the add: the loop's body.
    QString body;
    double area = 1e18;
    const QRectF addRect = nodeOf(graph, add)->sceneBoundingRect();
    for (const GraphClusterItem& c : graph->graph()->clusters)
      if (c.rect.contains(addRect.center()) && c.rect.width() * c.rect.height() < area) {
        body = c.id;
        area = c.rect.width() * c.rect.height();
      }
    QVERIFY2(!body.isEmpty(), "the loop body is a cluster");
    graph->setClusterExpanded(body, false);
    QElapsedTimer timer;
    timer.start();
    const GraphNodeItem* summary = nullptr;
    while (!summary && timer.elapsed() < 30000) {
      QTest::qWait(20);
      if (graph->graph())
        for (const GraphNodeItem& n : graph->graph()->nodes)
          if (n.clusterId == body)
            summary = &n;
    }
    QVERIFY(summary);
    QVERIFY(summary->innerOpIds.contains(add));
    QVERIFY(!nodeOf(graph, add)); // hidden in the collapsed body
    QGraphicsRectItem* node = nullptr;
    for (QGraphicsItem* item : graph->scene()->items())
      if (auto* rect = dynamic_cast<QGraphicsRectItem*>(item);
          rect && rect->data(GraphPanel::ClusterData).toString() == body &&
          rect->data(GraphPanel::KindData).toString() == QStringLiteral("summary"))
        node = rect;
    QVERIFY(node);
    QCOMPARE(node->pen().color(), QColor(0xd0, 0x30, 0x30));
    QVERIFY2(node->toolTip().contains(QStringLiteral("error inside (line 14): ") + kIllegalMessage),
             qPrintable(node->toolTip()));
  }

  // Under explicit axes the edges carry JAX's types: the dot and tanh results are f32[8@X,8] and
  // `skip` is f32[8,8@X], the two operand types of the message.
  void explicitTypesOnEdgesAndValues() {
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kIllegal));
    auto* graph = window.findChild<GraphPanel*>();
    QVERIFY(waitForGraph(graph, StageId::AsWritten));
    QStringList labels;
    for (const GraphEdgeItem& e : graph->graph()->edges)
      if (e.hasLabel)
        labels.push_back(e.label);
    QVERIFY2(labels.count(QStringLiteral("f32[8@X,8]")) >= 2, qPrintable(labels.join(u' ')));
    QVERIFY2(labels.contains(QStringLiteral("f32[8,8@X]")), qPrintable(labels.join(u' ')));
    QVERIFY2(labels.contains(QStringLiteral("f32[8@X,4]")), qPrintable(labels.join(u' ')));
    // The dot's result has no annotation of its own: its type comes from JAX's rule.
    const ProgramSnapshotPtr program = window.context()->program();
    const ValueRow* xw =
        program->findValue(StageId::AsWritten, QStringLiteral("30:5:stablehlo.dot_general#0"));
    QVERIFY(xw);
    QCOMPARE(xw->typed, QStringLiteral("f32[8@X,8]"));
    // Later stages show the shardings their passes gave: propagation splits %h's columns over X
    // (from %skip), and its type says so.
    const ValueRow* h =
        program->findValue(StageId::Partitioned, QStringLiteral("32:5:stablehlo.tanh#0"));
    QVERIFY(h);
    QCOMPARE(h->shardy, QStringLiteral("#sdy.sharding<@mesh, [{}, {\"X\"}]>"));
    QCOMPARE(h->typed, QStringLiteral("f32[8,8@X]"));
  }

  // The gutter marks line 33 and says the message on hover; the inspector repeats it.
  void sourceGutterAndInspectorShowTheError() {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, kIllegal));
    auto* source = window.findChild<SourceView*>(QStringLiteral("sourceView"));
    QVERIFY(source);
    QTRY_VERIFY(source->lineMarkers().contains(33));
    const SourceView::LineMarker marker = source->lineMarkers().value(33);
    QVERIFY(marker.error);
    QVERIFY(marker.messages.join(u'\n').contains(kIllegalMessage));
    QVERIFY(!source->lineMarkers().contains(32));
    // The Stage IR marks the line where the add is printed.
    auto* stageText = window.findChild<SourceView*>(QStringLiteral("stageTextView"));
    QVERIFY(stageText);
    const int printed =
        window.context()->program()->stage(StageId::AsWritten).opLines.value(kIllegalAdd);
    QVERIFY(printed > 0);
    QCOMPARE(stageText->lineMarkers().keys(), QList<int>({printed}));
    QVERIFY(stageText->lineMarkers().value(printed).messages.join(u'\n').contains(kIllegalMessage));
    // Hover: the gutter's tooltip at line 33 names the message, at line 32 nothing.
    window.context()->selectLine(33); // scrolls it into view
    const int y = source->lineCenterY(33);
    QVERIFY(y >= 0);
    QCOMPARE(source->lineAt(y), 33);
    QVERIFY2(source->gutterToolTip(y).contains(kIllegalMessage.toHtmlEscaped()),
             qPrintable(source->gutterToolTip(y)));
    QVERIFY(source->gutterToolTip(source->lineCenterY(32)).isEmpty());
    QHelpEvent help(QEvent::ToolTip, QPoint(4, y), source->gutter()->mapToGlobal(QPoint(4, y)));
    QCoreApplication::sendEvent(source->gutter(), &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(QStringLiteral("illegally sharded result")),
             qPrintable(QToolTip::text()));
    QToolTip::hideText();

    // Selecting the line selects %out, whose op has the error: the inspector says it.
    QCOMPARE(window.context()->selectedOp(), kIllegalAdd);
    auto* inspector = window.findChild<QTextBrowser*>(QStringLiteral("inspectorPanel"));
    QVERIFY(inspector);
    QTRY_VERIFY2(inspector->toPlainText().contains(kIllegalMessage),
                 qPrintable(inspector->toPlainText()));
    // A value of another op has no problem section.
    window.context()->selectLine(32);
    QVERIFY(!inspector->toPlainText().contains(kIllegalMessage));
  }

  // A program the Shardy verifier rejects does not load: its error is a problem at line 5, and
  // the source's gutter marks that line with the verifier's message.
  void verifierErrorIsMarkedInTheSource() {
    MainWindow window;
    window.show();
    QSignalSpy failed(&window, &MainWindow::programFailed);
    QVERIFY(window.openFile(kWidgetData + QStringLiteral("/unknown_axis.mlir")));
    QVERIFY(failed.wait(30000));
    auto* problems = window.findChild<ProblemsPanel*>(QStringLiteral("problemsPanel"));
    QVERIFY(problems->model()->rowCount() >= 1);
    const ProblemRow& row = problems->model()->rows().first();
    QVERIFY(row.isError());
    QCOMPARE(row.line, 5);
    QVERIFY2(row.message.contains(QStringLiteral("unknown axis name: \"z\"")),
             qPrintable(row.message));
    auto* source = window.findChild<SourceView*>(QStringLiteral("sourceView"));
    QTRY_VERIFY(source->lineMarkers().contains(5));
    QVERIFY(source->lineMarkers().value(5).error);
    QVERIFY(source->lineMarkers().value(5).messages.join(u'\n').contains(
        QStringLiteral("unknown axis name")));    // The graph and the inspector say why they are empty.
    const QString why = QStringLiteral("unknown_axis.mlir could not be loaded; its errors are in "
                                       "Problems");
    auto* graphStatus = window.findChild<QLabel*>(QStringLiteral("graphStatus"));
    QTRY_VERIFY2(graphStatus->text().contains(why), qPrintable(graphStatus->text()));
    auto* inspector = window.findChild<QTextBrowser*>(QStringLiteral("inspectorPanel"));
    QVERIFY2(inspector->toPlainText().contains(why), qPrintable(inspector->toPlainText()));
  }

  // An op the interpreter does not know (line 3) fails the run: with the reference check the
  // reference run fails at start, without it the devices fail at the op's step. Either way the
  // Problems panel lists the error at line 3 as the run's, the Execution panel says where it
  // failed and the source marks the line.
  void failedRunReportsItsOpAndLine_data() {
    QTest::addColumn<bool>("reference");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("where");
    QTest::newRow("reference run at start")
        << true << QStringLiteral("the reference run failed: unsupported op 'mydialect.frobnicate'")
        << QStringLiteral("could not start at mydialect.frobnicate (line 3):");
    QTest::newRow("devices at the step")
        << false << QStringLiteral("unsupported op 'mydialect.frobnicate' in the interpreter")
        << QStringLiteral("failed at mydialect.frobnicate (line 3) after 1 step:");
  }

  void failedRunReportsItsOpAndLine() {
    QFETCH(bool, reference);
    QFETCH(QString, message);
    QFETCH(QString, where);
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kUnsupported));
    for (QCheckBox* box : window.findChildren<QCheckBox*>())
      if (box->text() == QStringLiteral("Reference check"))
        box->setChecked(reference);
    auto* problems = window.findChild<ProblemsPanel*>(QStringLiteral("problemsPanel"));
    QVERIFY(problems);
    const int before = problems->model()->rowCount();
    QVERIFY(clickAndWait(window, QStringLiteral("startButton")));
    for (int i = 0; i < 4 && !window.context()->execution()->failed; ++i)
      QVERIFY(clickAndWait(window, QStringLiteral("stepButton")));
    QVERIFY(window.context()->execution()->failed);
    QCOMPARE(problems->model()->rowCount(), before + 1);
    const ProblemRow& row = problems->model()->rows().last();
    QCOMPARE(row.stage, QStringLiteral("Run"));
    QCOMPARE(row.severity, QStringLiteral("error"));
    QVERIFY2(row.message.startsWith(message), qPrintable(row.message));
    QCOMPARE(row.line, 3);
    QCOMPARE(row.opId, QStringLiteral("3:3:mydialect.frobnicate"));
    const int last = problems->model()->rowCount() - 1;
    QCOMPARE(problems->model()->index(last, ProblemsModel::Line).data().toString(),
             QStringLiteral("3:3"));
    QCOMPARE(problems->model()->index(last, ProblemsModel::Stage).data().toString(),
             QStringLiteral("Run"));
    auto* status = window.findChild<QLabel*>(QStringLiteral("executionStatus"));
    QVERIFY(status);
    QVERIFY2(status->text().contains(where), qPrintable(status->text()));
    QVERIFY2(status->text().contains(message.toHtmlEscaped()), qPrintable(status->text()));
    saveScreenshot(window, QStringLiteral("executionDock"),
                   reference ? QStringLiteral("run_failed_start")
                             : QStringLiteral("run_failed_step"));
    auto* source = window.findChild<SourceView*>(QStringLiteral("sourceView"));
    QVERIFY(source->lineMarkers().value(3).error);
    QVERIFY(source->lineMarkers().value(3).messages.join(u'\n').contains(message));
    // Clicking the problem selects its line.
    window.context()->selectLine(1);
    const QRect cell = problems->visualRect(problems->model()->index(last, ProblemsModel::Message));
    QTest::mouseClick(problems->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(window.context()->selectedLine(), 3);
  }

  // A tensor beyond what a run may allocate: the argument of huge_tensor.mlir is
  // 70000 * 70000 * 4 = 19600000000 bytes, over 4 << 30 = 4294967296. The load reports it at the
  // function owning the argument (line 6) while the graph and the shardings are there; the
  // Execution panel says why it cannot run, and a run is refused with the message on either
  // backend, without a second Problems row.
  void tensorBeyondTheLimitIsAProblemAtLoad() {
    const QString message = QStringLiteral(
        "'tensor<70000x70000xf32>' needs 19600000000 bytes, more than the limit of 4294967296");
    MainWindow window;
    window.show();
    QVERIFY(openAndWait(window, kWidgetData + QStringLiteral("/huge_tensor.mlir")));
    const ProgramSnapshotPtr program = window.context()->program();
    QVERIFY(!program->canRun());
    QVERIFY2(program->cannotRun.message.startsWith(message),
             qPrintable(program->cannotRun.message));
    QCOMPARE(program->cannotRun.line, 6);
    auto* problems = window.findChild<ProblemsPanel*>(QStringLiteral("problemsPanel"));
    QCOMPARE(problems->model()->rowCount(), 1);
    const ProblemRow& row = problems->model()->rows().first();
    QCOMPARE(row.severity, QStringLiteral("error"));
    QCOMPARE(row.line, 6);
    QCOMPARE(row.stage, QStringLiteral("As written"));
    QVERIFY(row.message.startsWith(message));
    // The analysis: the negate's result takes the argument's sharding, and the graph has its node.
    const ValueRow* negated =
        program->findValue(StageId::Propagated, QStringLiteral("7:3:stablehlo.negate#0"));
    QVERIFY(negated);
    QVERIFY2(negated->shardy.contains(QStringLiteral("[{\"x\"}, {}]")),
             qPrintable(negated->shardy));
    auto* graph = window.findChild<GraphPanel*>();
    QVERIFY(waitForGraph(graph, StageId::AsWritten));
    QVERIFY(nodeOf(graph, QStringLiteral("7:3:stablehlo.negate")));

    auto* status = window.findChild<QLabel*>(QStringLiteral("executionStatus"));
    QVERIFY2(status->text().contains(QStringLiteral("cannot run")), qPrintable(status->text()));
    QVERIFY2(status->text().contains(QStringLiteral("(line 6)")), qPrintable(status->text()));
    QVERIFY2(status->text().contains(message.toHtmlEscaped()), qPrintable(status->text()));
    QVERIFY(!window.findChild<QPushButton*>(QStringLiteral("startButton"))->isEnabled());
    saveScreenshot(window, QStringLiteral("executionDock"), QStringLiteral("tensor_limit"));

    for (auto backend : {EngineController::Backend::Local, EngineController::Backend::Mpi}) {
      window.controller()->setBackend(backend, 2);
      QSignalSpy errors(window.controller(), &EngineController::errorOccurred);
      QSignalSpy changed(window.context(), &SessionContext::executionChanged);
      window.controller()->startExecution(QStringLiteral("iota"), true);
      QVERIFY(changed.wait(10000));
      const ExecutionSnapshotPtr run = window.context()->execution();
      QVERIFY(run->failed);
      QVERIFY(!run->started);
      QCOMPARE(run->backend, QStringLiteral("in-process"));
      QCOMPARE(errors.size(), 1);
      const QString error = errors[0][0].toString();
      QVERIFY2(error.contains(message) && error.endsWith(QStringLiteral("(line 6)")),
               qPrintable(error));
      QVERIFY2(status->text().contains(QStringLiteral("could not start")),
               qPrintable(status->text()));
      QVERIFY2(status->text().contains(message.toHtmlEscaped()), qPrintable(status->text()));
      QCOMPARE(problems->model()->rowCount(), 1);
    }
  }

private:
  QTemporaryDir m_dir;
};

QTEST_MAIN(ErrorsTest)
#include "errors_test.moc"
