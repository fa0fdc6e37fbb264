#pragma once

#include "widgets/controller/snapshots.h"
#include "widgets/controller/stage_diff.h"

#include <QGraphicsView>
#include <QHash>
#include <QSet>
#include <QWidget>

#include <optional>

class QComboBox;
class QGraphicsRectItem;
class QGraphicsScene;
class QLabel;
class QLineEdit;

namespace shardscope::widgets {

class EngineController;
class SessionContext;

/// The zoomable view of the graph scene: wheel zooms around the cursor, drag pans.
class GraphCanvas : public QGraphicsView {
  Q_OBJECT

public:
  explicit GraphCanvas(QWidget* parent = nullptr);
  /// Whole: all of the scene in the view. Readable: the same, unless that would draw labels
  /// smaller than `kMinLabelPixels`; then `kReadableScale`, showing where the graph starts: the
  /// top of the scene, centred on the anchor's column (the entry node).
  enum class Fit { Whole, Readable };
  /// Fits the scene into the view, and keeps fitting on resize until the user zooms.
  void fitScene(Fit fit = Fit::Whole);
  /// Where a readable fit of a large graph starts: the entry node's centre.
  void setAnchor(std::optional<QPointF> anchor) { m_anchor = anchor; }
  /// Centres `point` (a searched or selected node) and stops fitting on resize, so that the
  /// point stays in view.
  void showPoint(QPointF point);
  /// The pixel heights of the scene's fonts (node labels, and edge labels and badges): Graphviz
  /// measured the labels in these sizes.
  static constexpr int kNodeFontPixels = 10;
  static constexpr int kSmallFontPixels = 9;
  /// The smallest label a readable fit draws, in device pixels.
  static constexpr int kMinLabelPixels = 10;
  /// The scale a readable fit of a large graph uses: its smallest labels `kMinLabelPixels` high.
  /// Fitting a graph whole below it would draw a smear of boxes with unreadable labels.
  static constexpr double kReadableScale = double(kMinLabelPixels) / kSmallFontPixels;
  static constexpr double kMinFitScale = kReadableScale;

Q_SIGNALS:
  /// The scale changed (wheel or fit).
  void zoomed();

protected:
  void wheelEvent(QWheelEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

private:
  bool m_autoFit = true;
  Fit m_fit = Fit::Readable;
  std::optional<QPointF> m_anchor;
};

/// An overview of the whole scene in a corner of the graph view: the part the main view shows is
/// framed, and clicking or dragging moves the main view there.
class GraphMiniMap : public QGraphicsView {
  Q_OBJECT

public:
  GraphMiniMap(QGraphicsView* main, QWidget* parent);
  void refit();

protected:
  void drawForeground(QPainter* painter, const QRectF& rect) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent*) override {}

private:
  QGraphicsView* m_main;
};

/// The dataflow graph of one function of the current stage, laid out by Graphviz (`core/layout`)
/// on the engine thread: ops as nodes, values as edges labelled with their typed notation and
/// variance, regions as clusters. Clicking a node selects its op everywhere; double-clicking a
/// collapsed cluster expands it, double-clicking a cluster's frame collapses it. The selected op
/// is outlined, the ops the devices execute next are highlighted, Ctrl+F finds a node.
class GraphPanel : public QWidget {
  Q_OBJECT

public:
  GraphPanel(EngineController* controller, SessionContext* context, QWidget* parent = nullptr);

  /// The `QGraphicsItem::data` keys of node items: the node id, its op id, the cluster a summary
  /// node expands, the node kind, and the error messages of its op (empty when it has none).
  /// In diff mode `DiffData` is `changed` on the nodes and edges of values whose sharding
  /// changed since the diff base and `added` on collectives the base does not have; edges carry
  /// their value's id as `ValueData`.
  enum ItemData {
    IdData = 0,
    OpData = 1,
    ClusterData = 2,
    KindData = 3,
    ProblemData = 4,
    DiffData = 5,
    ValueData = 6,
  };
  /// The pen and the fill of the node of an op with an error of the stage shown.
  static QColor errorColor() { return QColor(0xd0, 0x30, 0x30); }
  static QColor errorFill() { return QColor(0xfb, 0xdc, 0xdc); }

  GraphSnapshotPtr graph() const { return m_graph; }
  EngineController* controller() const { return m_controller; }
  QGraphicsScene* scene() const { return m_scene; }
  /// Expands (or collapses) cluster `id` and lays the graph out again.
  void setClusterExpanded(const QString& id, bool expanded);
  /// The clusters the user expanded and collapsed (for sessions), and restoring them.
  QStringList expandedClusters() const;
  QStringList collapsedClusters() const;
  void setClusters(const QStringList& expanded, const QStringList& collapsed);

public Q_SLOTS:
  void fit();
  void relayout();

private:
  void show(const GraphSnapshotPtr& graph);
  void rebuildScene();
  void addClusters(bool dark, const QFont& small);
  void addEdges(bool dark, const QFont& small);
  void addNodes(const QFont& font, const QFont& small);
  QHash<QString, QStringList> problemOps() const;
  void addErrorBadge(QGraphicsRectItem* node, const GraphNodeItem& n, const QFont& small);
  void addAddedBadge(QGraphicsRectItem* node, const GraphNodeItem& n, const QFont& small);
  /// Diff mode: the changed values (by printed name, of the function shown) and their ops.
  void computeDiff();
  void updateHighlights();
  /// Shows the function of the selection when it is another than the one shown.
  void followSelection();
  void search();
  void placeMiniMap();
  bool eventFilter(QObject* watched, QEvent* event) override;

  EngineController* m_controller;
  SessionContext* m_context;
  QComboBox* m_function;
  QLineEdit* m_search;
  QLabel* m_status;
  GraphCanvas* m_view;
  GraphMiniMap* m_miniMap;
  QGraphicsScene* m_scene;
  GraphSnapshotPtr m_graph;
  QHash<QString, QStringList> m_problemOps; // op id -> its errors in the stage shown
  QHash<QString, QString> m_changedValues;  // diff mode: value name -> id, sharding changed
  QSet<QString> m_changedOps;               // diff mode: ops defining a changed value
  QSet<QString> m_addedOps;                 // diff mode: collectives the base does not have
  QSet<QString> m_expanded;
  QSet<QString> m_collapsed;
  bool m_showingGradient = false;
  quint64 m_loadId = 0; // the load shown: a later snapshot of it only fills in stages
  int m_requested = -1; // the stage of the graph request in flight, or -1
  bool m_fitPending = true;
  /// The graph asked for by `followSelection`: centre it on the selection once shown.
  bool m_centrePending = false;
};

} // namespace shardscope::widgets
