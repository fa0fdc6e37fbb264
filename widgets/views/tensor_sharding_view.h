#pragma once

#include "widgets/controller/snapshots.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QVBoxLayout;

namespace shardscope::widgets {

class SessionContext;

/// The selected value's block->device map for any rank, like JAX's `visualize_array_sharding`
/// without its 2-D limit: two chosen dimensions are drawn as a grid of blocks, a slider per other
/// dimension picks the index shown along it. Each block lists the devices holding it (replicas
/// share a colour with the mesh view); padding of non-divisible dimensions is hatched.
class TensorShardingView : public QWidget {
  Q_OBJECT

public:
  explicit TensorShardingView(SessionContext* context, QWidget* parent = nullptr);

  /// The dimensions drawn as rows and columns (-1: none) and the value shown. For tests.
  int rowDim() const { return m_rowDim; }
  int colDim() const { return m_colDim; }
  QString valueId() const { return m_valueId; }
  /// The devices of each drawn block, row-major over the grid.
  QVector<QVector<qint64>> cellDevices() const;
  void setDims(int rowDim, int colDim);

  QSize sizeHint() const override { return {380, 300}; }

private:
  class Canvas;
  void refresh();
  void rebuildSliders();

  SessionContext* m_context;
  QLabel* m_title;
  QComboBox* m_rowCombo;
  QComboBox* m_colCombo;
  QWidget* m_sliderBox;
  QVBoxLayout* m_sliderLayout;
  QVector<QSlider*> m_sliders; // by dimension (null for the drawn ones)
  Canvas* m_canvas;
  LayoutInfo m_layout;
  QString m_valueId;
  QString m_valueName;
  int m_rowDim = -1;
  int m_colDim = -1;
};

} // namespace shardscope::widgets
