#pragma once

#include "widgets/controller/snapshots.h"

#include <QWidget>

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
class SessionContext;
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
  QSize sizeHint() const override { return {150, 110}; }
  QSize minimumSizeHint() const override { return {100, 70}; }

protected:
  void paintEvent(QPaintEvent* event) override;

private:
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

private:
  void refresh();
  void updateButtons();
  /// The stepping, breakpoint and cancel buttons with their shortcuts.
  void createButtons();
  /// The backend choice (Local, MPI with N ranks) told to the controller.
  void applyBackend();
  QString statusText(const ExecutionSnapshot& e) const;
  QPushButton* addButton(const QString& name, const QString& text, const QKeySequence& key,
                         const QString& tip);

  EngineController* m_controller;
  SessionContext* m_context;
  QComboBox* m_backend;
  QSpinBox* m_ranks;
  QLineEdit* m_inputs;
  QCheckBox* m_reference;
  QWidget* m_buttonRow;
  QList<QPushButton*> m_stepButtons;
  QPushButton* m_start;
  QPushButton* m_breakpoint;
  QLabel* m_status;
  QLabel* m_valueTitle;
  QWidget* m_tileBox;
  QGridLayout* m_tileLayout;
  QList<TensorTile*> m_tiles;
  TensorTile* m_global;
  TensorTile* m_referenceTile;
  QLabel* m_divergences;
  QTableView* m_table;
  DeviceValuesModel* m_model;
};

} // namespace shardscope::widgets
