#include "widgets/graph/graph_panel.h"

#include "widgets/controller/engine_controller.h"
#include "widgets/controller/session_context.h"
#include "widgets/models/collectives_model.h"

#include <QComboBox>
#include <QHash>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSceneMouseEvent>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QGraphicsSceneContextMenuEvent>
#include <QPainterPath>
#include <QToolButton>
#include <QShortcut>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QScrollBar>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace shardscope::widgets {

namespace {

constexpr int kIdRole = GraphPanel::IdData; // QGraphicsItem::data keys
constexpr int kOpRole = GraphPanel::OpData;
constexpr int kClusterRole = GraphPanel::ClusterData;
constexpr int kKindRole = GraphPanel::KindData;
constexpr int kProblemRole = GraphPanel::ProblemData;
constexpr int kDiffRole = GraphPanel::DiffData;
constexpr int kValueRole = GraphPanel::ValueData;

// A node box: selects its op on click, expands its cluster on double-click (summaries).
class NodeItem : public QGraphicsRectItem {
public:
  NodeItem(const QRectF& rect, GraphPanel* panel, SessionContext* context)
      : QGraphicsRectItem(rect), m_panel(panel), m_context(context) {
    setAcceptHoverEvents(true);
    setCursor(Qt::PointingHandCursor);
  }

protected:
  void mousePressEvent(QGraphicsSceneMouseEvent* event) override {
    const QString op = data(kOpRole).toString();
    if (!op.isEmpty())
      m_context->selectOp(op);
    event->accept();
  }
  void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override {
    const QString cluster = data(kClusterRole).toString();
    if (!cluster.isEmpty())
      m_panel->setClusterExpanded(cluster, true);
    event->accept();
  }
  void contextMenuEvent(QGraphicsSceneContextMenuEvent* event) override {
    const QString op = data(kOpRole).toString();
    if (op.isEmpty())
      return;
    QMenu menu;
    const bool on = m_panel->controller()->breakpoints().contains(op);
    QAction* toggle = menu.addAction(on ? QObject::tr("Remove Breakpoint") : QObject::tr("Set Breakpoint"));
    QAction* runTo = menu.addAction(QObject::tr("Run to Here"));
    QAction* chosen = menu.exec(event->screenPos());
    if (chosen == toggle)
      m_panel->controller()->setBreakpoint(op, !on);
    else if (chosen == runTo)
      m_panel->controller()->runTo(op);
  }

private:
  GraphPanel* m_panel;
  SessionContext* m_context;
};

// A cluster frame: double-click collapses it.
class ClusterItem : public QGraphicsRectItem {
public:
  ClusterItem(const QRectF& rect, GraphPanel* panel) : QGraphicsRectItem(rect), m_panel(panel) {}

protected:
  void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override {
    m_panel->setClusterExpanded(data(kIdRole).toString(), false);
    event->accept();
  }

private:
  GraphPanel* m_panel;
};

} // namespace

GraphCanvas::GraphCanvas(QWidget* parent) : QGraphicsView(parent) {
  setDragMode(QGraphicsView::ScrollHandDrag);
  setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
  setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
  setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
}

void GraphCanvas::wheelEvent(QWheelEvent* event) {
  const double factor = std::pow(1.0015, event->angleDelta().y());
  const double current = transform().m11();
  if ((current < 0.05 && factor < 1) || (current > 8 && factor > 1))
    return;
  m_autoFit = false;
  scale(factor, factor);
  Q_EMIT zoomed();
}

void GraphCanvas::resizeEvent(QResizeEvent* event) {
  QGraphicsView::resizeEvent(event);
  if (m_autoFit)
    fitScene(m_fit);
}

void GraphCanvas::showPoint(QPointF point) {
  m_autoFit = false;
  centerOn(point);
}

void GraphCanvas::fitScene(Fit fit) {
  m_autoFit = true;
  m_fit = fit;
  if (!scene() || scene()->items().isEmpty())
    return;
  fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
  // Never blow a small graph up beyond a readable size.
  if (transform().m11() > 1.2)
    setTransform(QTransform::fromScale(1.2, 1.2));
  // A large graph fitted whole is a smear of unreadable boxes: show its start readably instead
  // (the overview in the corner shows the rest).
  if (fit == Fit::Readable && transform().m11() < kMinFitScale) {
    setTransform(QTransform::fromScale(kReadableScale, kReadableScale));
    const QRectF scene = this->scene()->sceneRect();
    const QRectF shown = mapToScene(viewport()->rect()).boundingRect();
    const double x = m_anchor ? m_anchor->x() : scene.left() + shown.width() / 2;
    centerOn(QPointF(x, scene.top() + shown.height() / 2));
  }
  Q_EMIT zoomed();
}

GraphMiniMap::GraphMiniMap(QGraphicsView* main, QWidget* parent)
    : QGraphicsView(parent), m_main(main) {
  setObjectName(QStringLiteral("graphMiniMap"));
  setScene(main->scene());
  setInteractive(false);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setRenderHints(QPainter::Antialiasing);
  setFrameShape(QFrame::Box);
  setToolTip(tr("Overview: click or drag to move the graph view"));
  // Repaint the frame whenever the main view scrolls or zooms.
  for (QScrollBar* bar : {main->horizontalScrollBar(), main->verticalScrollBar()})
    connect(bar, &QScrollBar::valueChanged, viewport(), qOverload<>(&QWidget::update));
}

void GraphMiniMap::refit() {
  if (scene())
    fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
  viewport()->update();
}

void GraphMiniMap::drawForeground(QPainter* painter, const QRectF&) {
  const QRectF shown = m_main->mapToScene(m_main->viewport()->rect()).boundingRect();
  painter->setPen(QPen(QColor(0x1f, 0x6f, 0xeb), 0));
  painter->setBrush(QColor(0x1f, 0x6f, 0xeb, 40));
  painter->drawRect(shown);
}

void GraphMiniMap::mousePressEvent(QMouseEvent* event) {
  m_main->centerOn(mapToScene(event->pos()));
  viewport()->update();
}

void GraphMiniMap::mouseMoveEvent(QMouseEvent* event) {
  if (event->buttons() & Qt::LeftButton)
    mousePressEvent(event);
}

GraphPanel::GraphPanel(EngineController* controller, SessionContext* context, QWidget* parent)
    : QWidget(parent), m_controller(controller), m_context(context),
      m_function(new QComboBox(this)), m_search(new QLineEdit(this)), m_status(new QLabel(this)),
      m_view(new GraphCanvas(this)), m_scene(new QGraphicsScene(this)) {
  setObjectName(QStringLiteral("graphPanel"));
  m_view->setObjectName(QStringLiteral("graphCanvas"));
  m_view->setScene(m_scene);
  m_miniMap = new GraphMiniMap(m_view, m_view);
  m_miniMap->hide();
  m_view->installEventFilter(this);
  // Zooming shows or hides the overview.
  connect(m_view, &GraphCanvas::zoomed, this, &GraphPanel::placeMiniMap);
  m_function->setObjectName(QStringLiteral("graphFunctionCombo"));
  // Narrow windows: the combo and the search box give way (the combo's list still shows whole
  // names) and the status line wraps, so the graph dock never crowds out the source.
  m_function->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_function->setMinimumContentsLength(5);
  m_function->setMaximumWidth(180);
  m_search->setMinimumWidth(60);
  m_status->setWordWrap(true);
  m_search->setObjectName(QStringLiteral("graphSearch"));
  m_search->setPlaceholderText(tr("Find (Ctrl+F)"));
  m_search->setToolTip(tr("Find a value by name (%x), or a node by op name, value type or "
                          "attribute; Enter selects it"));
  m_search->setClearButtonEnabled(true);
  m_status->setObjectName(QStringLiteral("graphStatus"));
  // A tool button and no "Function:" label (the combo says what it is in its tooltip): the
  // bar's minimum width sets the graph column's in a narrow window.
  auto* fitButton = new QToolButton(this);
  fitButton->setText(tr("Fit"));
  fitButton->setObjectName(QStringLiteral("graphFitButton"));
  fitButton->setToolTip(tr("Fit the graph into the view"));
  m_function->setToolTip(tr("The function the graph shows"));
  auto* bar = new QHBoxLayout;
  bar->addWidget(m_function);
  bar->addWidget(fitButton);
  bar->addWidget(m_search, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(bar);
  layout->addWidget(m_view, 1);
  layout->addWidget(m_status);
  connect(fitButton, &QToolButton::clicked, this, &GraphPanel::fit);
  connect(m_search, &QLineEdit::returnPressed, this, &GraphPanel::search);
  auto* find = new QShortcut(QKeySequence::Find, this);
  find->setContext(Qt::WindowShortcut);
  connect(find, &QShortcut::activated, this, [this] {
    m_search->setFocus();
    m_search->selectAll();
  });
  connect(m_function, qOverload<int>(&QComboBox::activated), this, [this] {
    m_expanded.clear();
    m_collapsed.clear();
    m_fitPending = true;
    relayout();
  });
  connect(controller, &EngineController::graphReady, this, &GraphPanel::show);
  m_status->setText(tr("No program loaded."));
  auto* hint = m_scene->addSimpleText(tr("The dataflow graph appears here.\nTry File \u2192 Open Example."));
  hint->setBrush(palette().color(QPalette::PlaceholderText));
  // Stages computed in the background reach every view through the context.
  connect(controller, &EngineController::stageReady, context, &SessionContext::updateProgram,
          Qt::UniqueConnection);
  connect(controller, &EngineController::stagesFinished, context,
          [context](ProgramSnapshotPtr program) { context->updateProgram(program); });
  connect(context, &SessionContext::programChanged, this, [this] {
    const ProgramSnapshotPtr program = m_context->program();
    const bool sameLoad = program && m_loadId != 0 && program->loadId == m_loadId;
    m_loadId = program ? program->loadId : 0;
    // A stage of the program shown was computed: the graph asked for (or shown) is current.
    const bool shown =
        m_graph && m_graph->stage == m_context->stage() && m_graph->status.isEmpty();
    if (sameLoad && (m_requested == static_cast<int>(m_context->stage()) || shown)) {
      // The stage's problems (or the diff base) may have arrived after its graph: mark them.
      if (shown && (problemOps() != m_problemOps || m_context->isDiffing()))
        rebuildScene();
      return;
    }
    m_fitPending = m_fitPending || !sameLoad;
    relayout();
  });
  connect(context, &SessionContext::stageChanged, this, [this] {
    // The same stage with another diff base: the layout stays, the marks change.
    if (m_graph && m_graph->stage == m_context->stage() && m_requested < 0 &&
        m_graph->status.isEmpty()) {
      rebuildScene();
      return;
    }
    // A gradient stage opens on its gradient function, the others on `main`: a function chosen
    // in one kind of stage does not carry over to the other.
    const bool gradient = isGradientStage(m_context->stage());
    if (gradient != m_showingGradient) {
      m_showingGradient = gradient;
      m_function->clear();
      m_expanded.clear();
      m_collapsed.clear();
      m_fitPending = true;
    }
    relayout();
  });
  connect(context, &SessionContext::selectionChanged, this, &GraphPanel::followSelection);
  connect(context, &SessionContext::selectionChanged, this, &GraphPanel::updateHighlights);
  connect(context, &SessionContext::executionChanged, this, &GraphPanel::updateHighlights);
  connect(controller, &EngineController::breakpointsChanged, this, &GraphPanel::updateHighlights);
}

void GraphPanel::followSelection() {
  // A value or op selected in another function (in the values table, the source, a problem)
  // brings that function's graph, centred on the selection once it is laid out rather than
  // fitted: a long function fitted whole is unreadable.
  const ProgramSnapshotPtr program = m_context->program();
  if (!program || !m_graph)
    return;
  QString function;
  if (const ValueRow* value = m_context->selectedValueRow()) {
    function = value->function;
  } else if (const QString op = m_context->selectedOp(); !op.isEmpty()) {
    for (const ValueRow& v : program->stage(m_context->stage()).values)
      if (v.opId == op) {
        function = v.function;
        break;
      }
  }
  if (function.isEmpty() || function == m_graph->function || m_function->findText(function) < 0)
    return;
  m_function->setCurrentText(function);
  m_expanded.clear();
  m_collapsed.clear();
  m_fitPending = false;
  m_centrePending = true;
  relayout();
}

void GraphPanel::relayout() {
  if (!m_context->program()) {
    m_scene->clear();
    m_graph.reset();
    const QString& failure = m_context->loadFailure();
    m_status->setText(failure.isEmpty() ? tr("No program loaded.") : failure);
    return;
  }
  const StageSnapshot& stage = m_context->program()->stage(m_context->stage());
  m_status->setText(stage.notComputed() ? tr("Computing the %1 stage\u2026")
                                              .arg(stageTitle(m_context->stage()).toLower())
                                        : tr("Laying out\u2026"));
  m_requested = static_cast<int>(m_context->stage());
  m_controller->requestGraph(m_context->stage(), m_function->currentText(), m_expanded.values(),
                             m_collapsed.values());
}

void GraphPanel::setClusterExpanded(const QString& id, bool expanded) {
  if (id.isEmpty())
    return;
  (expanded ? m_expanded : m_collapsed).insert(id);
  (expanded ? m_collapsed : m_expanded).remove(id);
  relayout();
}

QStringList GraphPanel::expandedClusters() const {
  QStringList out = m_expanded.values();
  out.sort();
  return out;
}

QStringList GraphPanel::collapsedClusters() const {
  QStringList out = m_collapsed.values();
  out.sort();
  return out;
}

void GraphPanel::setClusters(const QStringList& expanded, const QStringList& collapsed) {
  m_expanded = QSet<QString>(expanded.begin(), expanded.end());
  m_collapsed = QSet<QString>(collapsed.begin(), collapsed.end());
  relayout();
}

void GraphPanel::show(const GraphSnapshotPtr& graph) {
  if (graph->stage != m_context->stage())
    return; // a layout for a stage no longer shown
  m_requested = -1;
  m_graph = graph;
  const QString current = m_function->currentText();
  m_function->clear();
  m_function->addItems(graph->functions);
  m_function->setCurrentText(graph->function);
  if (!graph->status.isEmpty()) {
    m_scene->clear();
    m_status->setText(graph->status);
    return;
  }
  m_status->setText(tr("@%1 (%2): %3 ops, %4 nodes")
                        .arg(graph->function, stageTitle(graph->stage).toLower(),
                             QString::number(graph->opCount), QString::number(graph->nodes.size())));
  m_status->setToolTip(tr("Click a node to select its op everywhere; double-click a collapsed "
                          "cluster to expand it, a cluster's frame to collapse it; the wheel "
                          "zooms, dragging pans."));
  rebuildScene();
  if (m_fitPending || current != graph->function) {
    m_fitPending = false;
    // A large graph opens at its entry: the topmost node (the arguments, in a top-down layout).
    const GraphNodeItem* entry = nullptr;
    for (const GraphNodeItem& n : graph->nodes)
      if (!entry || n.rect.top() < entry->rect.top() ||
          (n.rect.top() == entry->rect.top() && n.rect.left() < entry->rect.left()))
        entry = &n;
    m_view->setAnchor(entry ? std::optional<QPointF>(entry->rect.center()) : std::nullopt);
    m_view->fitScene(GraphCanvas::Fit::Readable);
  }
  if (m_centrePending) {
    // Shown for the selection: centre it (its node, or the collapsed cluster holding it).
    m_centrePending = false;
    const QString selected = m_context->selectedOp();
    for (const GraphNodeItem& n : graph->nodes)
      if (!selected.isEmpty() &&
          (n.opId.isEmpty() ? n.innerOpIds.contains(selected) : n.opId == selected)) {
        m_view->showPoint(n.rect.center());
        break;
      }
  }
  placeMiniMap();
}

void GraphPanel::rebuildScene() {
  m_scene->clear();
  const GraphSnapshot& g = *m_graph;
  const bool dark = palette().color(QPalette::Base).lightness() < 128;
  m_scene->setBackgroundBrush(palette().color(QPalette::Base));
  m_problemOps = problemOps();
  computeDiff();
  // Graphviz measured the labels in DejaVu Sans 10 (nodes) and 9 (edges) in layout units
  // (points); pixel sizes keep the text inside the boxes it computed at any screen DPI.
  QFont font(QStringLiteral("DejaVu Sans"));
  font.setPixelSize(GraphCanvas::kNodeFontPixels);
  QFont small = font;
  small.setPixelSize(GraphCanvas::kSmallFontPixels);
  addClusters(dark, small);
  addEdges(dark, small);
  addNodes(font, small);
  // (Error tabs sit left of their nodes, possibly outside the layout's bounds.)
  m_scene->setSceneRect(g.bounds.adjusted(-20, -20, 20, 20).united(m_scene->itemsBoundingRect()));
  updateHighlights();
}

void GraphPanel::addClusters(bool dark, const QFont& small) {
  const GraphSnapshot& g = *m_graph;
  for (const GraphClusterItem& c : g.clusters) {
    auto* item = new ClusterItem(c.rect, this);
    item->setData(kIdRole, c.id);
    QColor fill = c.fill;
    if (dark)
      fill = fill.darker(300);
    item->setBrush(fill);
    item->setPen(QPen(c.border, 1));
    item->setToolTip(tr("%1 \u2014 double-click the frame to collapse").arg(c.label));
    m_scene->addItem(item);
    auto* label = new QGraphicsSimpleTextItem(c.label, item);
    label->setFont(small);
    label->setBrush(dark ? Qt::lightGray : Qt::darkGray);
    label->setPos(c.labelCenter - QPointF(label->boundingRect().width() / 2,
                                          label->boundingRect().height() / 2));
  }
}

void GraphPanel::addEdges(bool dark, const QFont& small) {
  const GraphSnapshot& g = *m_graph;
  const QColor edgeColor = dark ? QColor(0xa0, 0xa0, 0xa8) : QColor(0x60, 0x60, 0x68);
  for (const GraphEdgeItem& e : g.edges) {
    if (e.points.isEmpty())
      continue;
    QPainterPath path(e.points[0]);
    for (int i = 1; i + 2 < e.points.size(); i += 3)
      path.cubicTo(e.points[i], e.points[i + 1], e.points[i + 2]);
    // Diff mode: the edges of values whose sharding changed take the "changed" colour.
    const QString changedId = m_changedValues.value(e.value);
    const bool changed = !e.value.isEmpty() && !changedId.isEmpty();
    const QColor color = changed ? diffChangedColor() : edgeColor;
    auto* item = m_scene->addPath(path, QPen(color, changed ? 2.4 : 1.2));
    item->setZValue(1);
    if (changed) {
      item->setData(kDiffRole, QStringLiteral("changed"));
      item->setData(kValueRole, changedId);
    }
    if (e.hasArrow) {
      const QPointF from = e.points.last();
      const QPointF tip = e.arrowTip;
      const QPointF d = tip - from;
      const double len = std::hypot(d.x(), d.y());
      if (len > 0) {
        const QPointF n(-d.y() / len * 3.5, d.x() / len * 3.5);
        QPolygonF head({tip, from + n, from - n});
        auto* arrow = m_scene->addPolygon(head, QPen(color), QBrush(color));
        arrow->setZValue(1);
      }
    }
    if (e.hasLabel && !e.label.isEmpty()) {
      auto* label = m_scene->addSimpleText(e.label, small);
      label->setBrush(dark ? QColor(0xc8, 0xc8, 0xd0) : QColor(0x40, 0x40, 0x60));
      label->setPos(e.labelCenter - QPointF(label->boundingRect().width() / 2,
                                            label->boundingRect().height() / 2));
      label->setZValue(2);
    }
  }
}

void GraphPanel::addNodes(const QFont& font, const QFont& small) {
  const GraphSnapshot& g = *m_graph;
  for (const GraphNodeItem& n : g.nodes) {
    auto* item = new NodeItem(n.rect, this, m_context);
    item->setData(kIdRole, n.id);
    item->setData(kOpRole, n.opId);
    item->setData(kClusterRole, n.clusterId);
    item->setData(kKindRole, n.kind);
    item->setBrush(n.fill);
    item->setPen(QPen(n.border, n.kind == QLatin1String("inserted-collective") ? 2 : 1,
                      n.kind == QLatin1String("summary") ? Qt::DashLine : Qt::SolidLine));
    item->setZValue(3);
    QString tip = n.lines.join(QLatin1Char('\n'));
    if (n.bytes >= 0)
      tip += tr("\n%1 sent per device").arg(CollectivesModel::formatBytes(n.bytes));
    if (!n.note.isEmpty())
      tip += QStringLiteral("\n") + n.note;
    if (!n.clusterId.isEmpty())
      tip += tr("\n(double-click to expand)");
    QStringList errors = n.opId.isEmpty() ? QStringList() : m_problemOps.value(n.opId);
    for (const QString& error : errors)
      tip += tr("\nerror: %1").arg(error);
    // A collapsed cluster carries the problems of the ops inside it.
    for (const QString& inner : n.innerOpIds)
      for (const QString& error : m_problemOps.value(inner)) {
        errors.push_back(error);
        tip += tr("\nerror inside (line %1): %2").arg(inner.section(QLatin1Char(':'), 0, 0), error);
      }
    item->setData(kProblemRole, errors.join(QLatin1Char('\n')));
    const bool added = !n.opId.isEmpty() && m_addedOps.contains(n.opId);
    if (added) {
      item->setData(kDiffRole, QStringLiteral("added"));
      tip += tr("\nadded since %1").arg(m_context->diffBaseTitle());
    } else if (!n.opId.isEmpty() && m_changedOps.contains(n.opId)) {
      item->setData(kDiffRole, QStringLiteral("changed"));
      tip += tr("\nsharding changed since %1").arg(m_context->diffBaseTitle());
    }
    item->setToolTip(tip);
    m_scene->addItem(item);
    if (!errors.isEmpty())
      addErrorBadge(item, n, small);
    if (added)
      addAddedBadge(item, n, small);
    // Label lines, centred: the title in the regular font, attributes smaller.
    double totalH = 0;
    QVector<QGraphicsSimpleTextItem*> lines;
    for (int i = 0; i < n.lines.size(); ++i) {
      auto* t = new QGraphicsSimpleTextItem(n.lines[i], item);
      t->setFont(i == 0 ? font : small);
      t->setBrush(n.text);
      lines.push_back(t);
      totalH += t->boundingRect().height();
    }
    double y = n.rect.center().y() - totalH / 2;
    for (QGraphicsSimpleTextItem* t : lines) {
      t->setPos(n.rect.center().x() - t->boundingRect().width() / 2, y);
      y += t->boundingRect().height();
    }
    if (n.bytes >= 0) {
      // The byte badge of a collective.
      auto* badge = new QGraphicsSimpleTextItem(CollectivesModel::formatBytes(n.bytes), item);
      badge->setFont(small);
      const QRectF b = badge->boundingRect();
      auto* back = new QGraphicsRectItem(QRectF(0, 0, b.width() + 6, b.height() + 2), item);
      back->setBrush(n.badge);
      back->setPen(Qt::NoPen);
      back->setPos(n.rect.right() - b.width() - 2, n.rect.top() - b.height() + 2);
      badge->setParentItem(back);
      badge->setBrush(Qt::white);
      badge->setPos(3, 1);
    }
  }
}

QHash<QString, QStringList> GraphPanel::problemOps() const {
  // The ops with an error in the stage shown (or a stage it derives from) are drawn in red.
  QHash<QString, QStringList> ops;
  if (const ProgramSnapshotPtr program = m_context->program(); program && m_graph)
    for (const ProblemRow& p : program->problemsOf(m_graph->stage))
      if (p.isError() && !p.opId.isEmpty())
        ops[p.opId].push_back(p.message);
  return ops;
}

void GraphPanel::addErrorBadge(QGraphicsRectItem* node, const GraphNodeItem& n,
                               const QFont& small) {
  // A red tab left of the node, at its middle: edges enter at the top and leave at the bottom,
  // where their labels sit.
  auto* badge = new QGraphicsSimpleTextItem(tr("error"), node);
  badge->setFont(small);
  const QRectF b = badge->boundingRect();
  auto* back = new QGraphicsRectItem(QRectF(0, 0, b.width() + 6, b.height() + 2), node);
  back->setBrush(errorColor());
  back->setPen(Qt::NoPen);
  back->setPos(n.rect.left() - back->rect().width() - 3,
               n.rect.center().y() - back->rect().height() / 2);
  badge->setParentItem(back);
  badge->setBrush(Qt::white);
  badge->setPos(3, 1);
}

void GraphPanel::computeDiff() {
  m_changedValues.clear();
  m_changedOps.clear();
  m_addedOps.clear();
  const ProgramSnapshotPtr program = m_context->program();
  const StageSnapshot* base = m_context->diffBaseStage();
  if (!program || !m_graph || !base || m_graph->stage != m_context->stage())
    return;
  const StageSnapshot& shown = program->stage(m_graph->stage);
  const StageDiff diff = diffStages(shown, *base);
  for (const ValueRow& v : shown.values) {
    if (!diff.isChanged(v.id))
      continue;
    if (v.function.isEmpty() || v.function == m_graph->function)
      m_changedValues.insert(v.name, v.id);
    if (!v.opId.isEmpty())
      m_changedOps.insert(v.opId);
  }
  m_addedOps = diff.added;
}

void GraphPanel::addAddedBadge(QGraphicsRectItem* node, const GraphNodeItem& n,
                               const QFont& small) {
  // A green tab on the node's top left corner (the byte badge sits on the right one).
  auto* badge = new QGraphicsSimpleTextItem(tr("added"), node);
  badge->setFont(small);
  const QRectF b = badge->boundingRect();
  auto* back = new QGraphicsRectItem(QRectF(0, 0, b.width() + 6, b.height() + 2), node);
  back->setBrush(diffAddedColor());
  back->setPen(Qt::NoPen);
  back->setPos(n.rect.left() + 2, n.rect.top() - b.height() + 2);
  badge->setParentItem(back);
  badge->setBrush(Qt::white);
  badge->setPos(3, 1);
}

void GraphPanel::updateHighlights() {
  if (!m_graph)
    return;
  QSet<QString> current;
  if (const ExecutionSnapshotPtr e = m_context->execution())
    for (const DevicePosition& p : e->devices)
      current.insert(p.opId);
  QHash<QString, const GraphNodeItem*> byId;
  for (const GraphNodeItem& n : m_graph->nodes)
    byId.insert(n.id, &n);
  const QString selected = m_context->selectedOp();
  const QSet<QString> breakpoints = m_controller->breakpoints();
  for (QGraphicsItem* item : m_scene->items()) {
    auto* node = dynamic_cast<NodeItem*>(item);
    const GraphNodeItem* n = node ? byId.value(node->data(kIdRole).toString()) : nullptr;
    if (!n)
      continue;
    // A collapsed cluster stands for the ops inside it: it is selected (or current) when one of
    // them is.
    const bool isSelected = !selected.isEmpty() &&
                            (n->opId.isEmpty() ? n->innerOpIds.contains(selected)
                                               : n->opId == selected);
    const bool isCurrent =
        n->opId.isEmpty()
            ? std::any_of(n->innerOpIds.begin(), n->innerOpIds.end(),
                          [&](const QString& inner) { return current.contains(inner); })
            : current.contains(n->opId);
    const bool isBreakpoint = !n->opId.isEmpty() && breakpoints.contains(n->opId);
    const bool isProblem = !node->data(kProblemRole).toString().isEmpty();
    const QString diff = node->data(kDiffRole).toString();
    const bool isChanged = diff == QLatin1String("changed");
    const bool isAdded = diff == QLatin1String("added");
    QPen pen = node->pen();
    pen.setWidthF(isSelected                                        ? 3.5
                  : isCurrent                                       ? 3
                  : isProblem                                       ? 2.5
                  : isChanged || isAdded                            ? 2.5
                  : n->kind == QLatin1String("inserted-collective") ? 2
                                                                    : 1);
    pen.setColor(isSelected  ? QColor(0x1f, 0x6f, 0xeb)
                 : isCurrent ? QColor(0xe0, 0xa0, 0x00)
                 : isProblem ? errorColor()
                 : isChanged ? diffChangedColor()
                 : isAdded   ? diffAddedColor()
                             : n->border);
    node->setPen(pen);
    node->setBrush(isBreakpoint ? QColor(0xf4, 0xc0, 0xc0)
                   : isProblem  ? errorFill()
                   : isChanged  ? diffChangedFill()
                                : n->fill);
    if (isSelected)
      m_view->ensureVisible(node, 40, 40);
  }
}

void GraphPanel::search() {
  const QString text = m_search->text().trimmed();
  if (text.isEmpty() || !m_graph)
    return;
  // Go to value: a value's name (`%a`, `a`) selects it and shows the op that defines it.
  if (const ProgramSnapshotPtr program = m_context->program()) {
    const QString name = text.startsWith(QLatin1Char('%')) ? text : QStringLiteral("%") + text;
    for (const ValueRow& v : program->stage(m_context->stage()).values) {
      if (v.name != name || (!v.function.isEmpty() && v.function != m_graph->function))
        continue;
      m_context->selectValue(v.id);
      for (const GraphNodeItem& n : m_graph->nodes)
        if (!v.opId.isEmpty() && n.opId == v.opId) {
          m_view->showPoint(n.rect.center());
          break;
        }
      return;
    }
  }
  for (const GraphNodeItem& n : m_graph->nodes)
    if (n.lines.join(QLatin1Char(' ')).contains(text, Qt::CaseInsensitive) ||
        n.id.contains(text, Qt::CaseInsensitive)) {
      if (!n.opId.isEmpty())
        m_context->selectOp(n.opId);
      m_view->showPoint(n.rect.center());
      return;
    }
  for (const GraphEdgeItem& e : m_graph->edges)
    if (e.label.contains(text, Qt::CaseInsensitive) && e.hasLabel) {
      m_view->showPoint(e.labelCenter);
      return;
    }
  m_status->setText(tr("No node matches \u201c%1\u201d.").arg(text));
}

void GraphPanel::fit() { m_view->fitScene(); }

void GraphPanel::placeMiniMap() {
  // Only worth showing when the graph does not fit the view, and when the view is large enough
  // that the overview does not hide much of what it shows.
  const QRectF shown = m_view->mapToScene(m_view->viewport()->rect()).boundingRect();
  const bool needed = m_graph && !m_scene->items().isEmpty() &&
                      !shown.contains(m_scene->sceneRect().adjusted(10, 10, -10, -10)) &&
                      m_view->width() >= 320 && m_view->height() >= 240;
  m_miniMap->setVisible(needed);
  if (!needed)
    return;
  // At most a fifth of the view's width and a third of its height.
  const QSizeF scene = m_scene->sceneRect().size();
  const int w = qMin(160, m_view->width() / 5);
  const int h = qBound(40, static_cast<int>(w * scene.height() / qMax(1.0, scene.width())),
                       m_view->height() / 3);
  m_miniMap->setGeometry(m_view->width() - w - 18, m_view->height() - h - 18, w, h);
  m_miniMap->refit();
}

bool GraphPanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_view && event->type() == QEvent::Resize)
    QMetaObject::invokeMethod(this, [this] { placeMiniMap(); }, Qt::QueuedConnection);
  return QWidget::eventFilter(watched, event);
}

} // namespace shardscope::widgets
