#pragma once

#include "widgets/controller/snapshots.h"

#include <QWidget>

#include <utility>

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace shardscope::widgets {

class EngineController;
class MpiHostsBar;
struct MpiOptions;
class SessionContext;
class TimelineBar;
class DeviceValuesModel;

/// Paints one tensor: its numbers when small, a heat map when large (2-D: rows x last dim).
class TensorTile : public QWidget {
  Q_OBJECT

public:
  explicit TensorTile(QWidget* parent = nullptr);
  void setTensor(const QString& title, const TensorData& data, bool marked);
  /// The value range the heat map spans (shared by the tiles of one value so that colours
  /// compare across devices); an empty range uses the tile's own.
  void setRange(double lo, double hi);
  /// Elements to outline in red (by flat index), e.g. those that differ from the reference.
  void setMarkedElements(QVector<bool> marked);
  int markedElementCount() const;
  const TensorData& tensor() const { return m_data; }
  QSize sizeHint() const override { return {150, 56}; }
  QSize minimumSizeHint() const override { return {100, 48}; }

  /// True when the tile draws a heat map (too many elements, or too little room, for numbers).
  bool isHeatMap() const;
  /// The colour scale under a heat map: the low and high ends of its range as printed
  /// (`{"-1", "0.99"}`), empty when there is no heat map.
  QStringList legendText() const;
  /// The cell of element `index` (flat, row-major), in widget coordinates.
  QRectF cellRect(int index) const;
  /// The element under `pos`, or -1.
  int elementAt(const QPoint& pos) const;
  /// The tooltip at `pos`: the element's index (`[1, 5]`) and value, or the tile's title.
  QString toolTipAt(const QPoint& pos) const;
  /// `[1, 5]`: the index of flat element `index` in a tensor of `shape`.
  static QString indexText(const QVector<qint64>& shape, qint64 index);

protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;

private:
  /// Where the elements are drawn, the legend below them when there is a heat map.
  QRectF elementArea() const;
  QRectF legendArea() const;
  int columns() const;
  int rows() const;
  /// The range the colours span: the shared one, else the tile's own.
  std::pair<double, double> colourRange() const;
  void paintLegend(QPainter& painter, bool dark) const;

  QString m_title;
  TensorData m_data;
  bool m_marked = false;
  QVector<bool> m_markedElements;
  double m_lo = 0;
  double m_hi = 0;
};

/// Drives a run of the per-device program: backend, inputs, the stepping commands, breakpoints;
/// shows where each device is, the selected value on every device side by side, its assembled
/// global value and the reference comparison.
class ExecutionPanel : public QWidget {
  Q_OBJECT

public:
  ExecutionPanel(EngineController* controller, SessionContext* context, QWidget* parent = nullptr);

  QList<TensorTile*> deviceTiles() const { return m_tiles; }
  QLabel* statusLabel() const { return m_status; }
  /// The backend chosen (MPI or Local) and the MPI runs' ranks and hosts, as the controls show
  /// them; remembered in the settings (`execution/...`) and in sessions.
  bool mpiSelected() const;
  MpiOptions mpiOptions() const;
  void setBackendChoice(bool mpi, const MpiOptions& options);

private:
  void refresh();
  void updateButtons();
  /// The stepping, breakpoint and cancel buttons with their shortcuts.
  void createButtons();
  /// The backend choice (Local, MPI with N ranks) told to the controller.
  void applyBackend();
  QString statusText(const ExecutionSnapshot& e) const;
  /// Creates one tile per device and shows the selected value on each.
  void updateDeviceTiles(const ExecutionSnapshotPtr& e);
  /// Places the tiles as the devices sit in `mesh`.
  void arrangeTiles(const MeshInfo& mesh);
  QPushButton* addButton(const QString& name, const QString& text, const QKeySequence& key,
                         const QString& tip);

  EngineController* m_controller;
  SessionContext* m_context;
  QComboBox* m_backend;
  QSpinBox* m_ranks;
  MpiHostsBar* m_hosts;
  QLineEdit* m_inputs;
  QCheckBox* m_reference;
  QWidget* m_buttonRow;
  TimelineBar* m_timelineBar;
  qint64 m_selectAfterJump = 0; // the step chosen on the timeline, until the run is there
  QList<QPushButton*> m_stepButtons;
  QPushButton* m_start;
  QPushButton* m_breakpoint;
  QLabel* m_status;
  QLabel* m_valueTitle;
  QWidget* m_tileBox;
  QGridLayout* m_tileLayout;
  QList<TensorTile*> m_tiles;
  QVector<qint64> m_tileMesh; ///< the mesh shape the tiles are arranged for
  QString m_meshArrangement;  ///< which axes run down and across (`X down, Y across`)
  TensorTile* m_global;
  TensorTile* m_referenceTile;
  QLabel* m_divergences;
  QTableView* m_table;
  DeviceValuesModel* m_model;
};

} // namespace shardscope::widgets
