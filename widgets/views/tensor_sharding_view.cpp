#include "widgets/views/tensor_sharding_view.h"

#include "widgets/controller/session_context.h"
#include "widgets/views/block_colors.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QSlider>
#include <QVBoxLayout>

namespace shardscope::widgets {

class TensorShardingView::Canvas : public QWidget {
public:
  explicit Canvas(TensorShardingView* view) : QWidget(view), m_view(view) {
    setObjectName(QStringLiteral("tensorShardingCanvas"));
    setMinimumSize(80, 50);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  }

protected:
  void paintEvent(QPaintEvent*) override;

private:
  TensorShardingView* m_view;
};

TensorShardingView::TensorShardingView(SessionContext* context, QWidget* parent)
    : QWidget(parent), m_context(context), m_title(new QLabel(this)),
      m_rowCombo(new QComboBox(this)), m_colCombo(new QComboBox(this)),
      m_sliderBox(new QWidget(this)), m_sliderLayout(new QVBoxLayout(m_sliderBox)),
      m_canvas(new Canvas(this)) {
  setObjectName(QStringLiteral("tensorShardingView"));
  m_rowCombo->setObjectName(QStringLiteral("rowDimCombo"));
  m_rowCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_colCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_colCombo->setObjectName(QStringLiteral("colDimCombo"));
  m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_title->setWordWrap(true);
  auto* dims = new QHBoxLayout;
  dims->addWidget(new QLabel(tr("Rows:"), this));
  dims->addWidget(m_rowCombo);
  dims->addSpacing(8);
  dims->addWidget(new QLabel(tr("Columns:"), this));
  dims->addWidget(m_colCombo);
  dims->addStretch();
  m_sliderLayout->setContentsMargins(0, 0, 0, 0);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_title);
  layout->addLayout(dims);
  layout->addWidget(m_sliderBox);
  layout->addWidget(m_canvas, 1);
  auto dimChanged = [this] {
    m_rowDim = m_rowCombo->currentData().toInt();
    m_colDim = m_colCombo->currentData().toInt();
    rebuildSliders();
    m_canvas->update();
  };
  connect(m_rowCombo, qOverload<int>(&QComboBox::activated), this, dimChanged);
  connect(m_colCombo, qOverload<int>(&QComboBox::activated), this, dimChanged);
  connect(context, &SessionContext::selectionChanged, this, &TensorShardingView::refresh);
  connect(context, &SessionContext::programChanged, this, &TensorShardingView::refresh);
  refresh();
}

void TensorShardingView::setDims(int rowDim, int colDim) {
  m_rowDim = rowDim;
  m_colDim = colDim;
  m_rowCombo->setCurrentIndex(m_rowCombo->findData(rowDim));
  m_colCombo->setCurrentIndex(m_colCombo->findData(colDim));
  rebuildSliders();
  m_canvas->update();
}

void TensorShardingView::refresh() {
  const ValueRow* value = m_context->selectedValueRow();
  const QString id = value ? value->id : QString();
  const int oldRank = m_layout.shape.size();
  m_layout = value ? value->layout : LayoutInfo();
  m_valueId = id;
  m_valueName = value ? value->name : QString();
  const int rank = m_layout.shape.size();
  if (!value)
    m_title->setText(tr("Select a value to see which device holds which block."));
  else if (!m_layout.valid && !value->variance.isEmpty())
    m_title->setText(tr("<b>%1</b> %2 %3 \u2014 a per-device value inside a manual computation: "
                        "each device holds its own %2 (see the mesh for which devices agree)")
                         .arg(value->name.toHtmlEscaped(), value->typed.toHtmlEscaped(),
                              value->variance.toHtmlEscaped()));
  else if (!m_layout.valid)
    m_title->setText(tr("<b>%1</b> %2 \u2014 not sharded in this stage (every device holds all "
                        "of it)%3")
                         .arg(value->name.toHtmlEscaped(), value->typed.toHtmlEscaped(),
                              m_layout.error.isEmpty() ? QString()
                                                       : QStringLiteral(": ") + m_layout.error));
  else {
    QStringList local;
    for (qint64 d : m_layout.localShape)
      local.push_back(QString::number(d));
    // Non-divisible dimensions are padded at the end (hatched in the grid).
    QStringList padded;
    for (int d = 0; d < m_layout.shape.size(); ++d) {
      const qint64 full = m_layout.localShape[d] * m_layout.shards[d];
      if (full != m_layout.shape[d])
        padded.push_back(tr("dim %1 %2\u2192%3").arg(d).arg(m_layout.shape[d]).arg(full));
    }
    // A partial value: each block is spread over the devices of its unreduced axes, each holding
    // a partial result that a later reduction completes.
    const QString partial =
        m_layout.isPartial()
            ? tr("; <b>%1</b>: each block is held as %2 partial results")
                  .arg(m_layout.partialText().toHtmlEscaped(),
                       QString::number(m_layout.replicaGroups.size() /
                                       qMax(1, m_layout.blockGroups.size())))
            : QString();
    m_title->setText(tr("<b>%1</b> %2 &nbsp; local shape %3, %4 distinct blocks%5%6")
                         .arg(value->name.toHtmlEscaped(), value->typed.toHtmlEscaped(),
                              local.join(QLatin1Char('x')),
                              QString::number(m_layout.blockGroups.size()), partial,
                              padded.isEmpty() ? QString()
                                               : tr("; padded (hatched): %1")
                                                     .arg(padded.join(QStringLiteral(", ")))));
  }
  if (rank != oldRank || m_rowCombo->count() != rank + 1) {
    // Default: the last two dimensions, like visualize_array_sharding.
    m_rowDim = rank >= 2 ? rank - 2 : -1;
    m_colDim = rank >= 1 ? rank - 1 : -1;
    for (QComboBox* combo : {m_rowCombo, m_colCombo}) {
      combo->clear();
      combo->addItem(tr("(none)"), -1);
      for (int d = 0; d < rank; ++d)
        combo->addItem(tr("dim %1 (%2)").arg(d).arg(m_layout.shape[d]), d);
    }
    m_rowCombo->setCurrentIndex(m_rowCombo->findData(m_rowDim));
    m_colCombo->setCurrentIndex(m_colCombo->findData(m_colDim));
  }
  m_rowCombo->setEnabled(m_layout.valid && rank > 0);
  m_colCombo->setEnabled(m_layout.valid && rank > 0);
  rebuildSliders();
  m_canvas->update();
}

void TensorShardingView::rebuildSliders() {
  for (QSlider* s : m_sliders)
    if (s)
      s->parentWidget()->deleteLater();
  m_sliders = QVector<QSlider*>(m_layout.shape.size(), nullptr);
  if (!m_layout.valid)
    return;
  for (int d = 0; d < m_layout.shape.size(); ++d) {
    if (d == m_rowDim || d == m_colDim)
      continue;
    auto* row = new QWidget(m_sliderBox);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(row);
    auto* slider = new QSlider(Qt::Horizontal, row);
    slider->setObjectName(QStringLiteral("dimSlider%1").arg(d));
    slider->setRange(0, static_cast<int>(qMax<qint64>(0, m_layout.shape[d] - 1)));
    auto update = [this, label, slider, d] {
      label->setText(tr("dim %1 index %2 / %3").arg(d).arg(slider->value()).arg(m_layout.shape[d]));
      m_canvas->update();
    };
    connect(slider, &QSlider::valueChanged, this, update);
    update();
    h->addWidget(label);
    h->addWidget(slider, 1);
    m_sliderLayout->addWidget(row);
    m_sliders[d] = slider;
  }
}

QVector<QVector<qint64>> TensorShardingView::cellDevices() const {
  QVector<QVector<qint64>> cells;
  if (!m_layout.valid)
    return cells;
  const qint64 rows = m_rowDim >= 0 ? m_layout.shards[m_rowDim] : 1;
  const qint64 cols = m_colDim >= 0 ? m_layout.shards[m_colDim] : 1;
  for (qint64 r = 0; r < rows; ++r)
    for (qint64 c = 0; c < cols; ++c) {
      QVector<qint64> devices;
      for (const DeviceBlockInfo& b : m_layout.blocks) {
        bool holds = true;
        for (int d = 0; d < m_layout.shape.size() && holds; ++d) {
          if (d == m_rowDim)
            holds = b.shardIndex[d] == r;
          else if (d == m_colDim)
            holds = b.shardIndex[d] == c;
          else {
            const qint64 index = m_sliders.value(d) ? m_sliders[d]->value() : 0;
            // The block along `d` that holds `index`.
            holds = index / qMax<qint64>(1, m_layout.localShape[d]) == b.shardIndex[d];
          }
        }
        if (holds)
          devices.push_back(b.device);
      }
      cells.push_back(devices);
    }
  return cells;
}

void TensorShardingView::Canvas::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().color(QPalette::Base));
  const LayoutInfo& layout = m_view->m_layout;
  const bool dark = palette().color(QPalette::Base).lightness() < 128;
  if (!layout.valid)
    return;
  const int rowDim = m_view->m_rowDim;
  const int colDim = m_view->m_colDim;
  const qint64 rows = rowDim >= 0 ? layout.shards[rowDim] : 1;
  const qint64 cols = colDim >= 0 ? layout.shards[colDim] : 1;
  const QFontMetrics fm(font());
  const QRectF area = QRectF(rect()).adjusted(fm.horizontalAdvance(QStringLiteral("0000:0000")) + 6,
                                              fm.height() + 6, -6, -6);
  if (area.width() < 10 || area.height() < 10)
    return;
  // Cells are drawn proportional to the padded shape so padding shows as the hatched remainder.
  const qint64 paddedRows = rowDim >= 0 ? layout.localShape[rowDim] * rows : 1;
  const qint64 paddedCols = colDim >= 0 ? layout.localShape[colDim] * cols : 1;
  const double unitH = area.height() / paddedRows;
  const double unitW = area.width() / paddedCols;
  const QVector<QVector<qint64>> cells = m_view->cellDevices();
  for (qint64 r = 0; r < rows; ++r)
    for (qint64 c = 0; c < cols; ++c) {
      const qint64 rLocal = rowDim >= 0 ? layout.localShape[rowDim] : 1;
      const qint64 cLocal = colDim >= 0 ? layout.localShape[colDim] : 1;
      const QRectF cell(area.left() + c * cLocal * unitW, area.top() + r * rLocal * unitH,
                        cLocal * unitW, rLocal * unitH);
      const qint64 rBegin = r * rLocal;
      const qint64 rEnd = rowDim >= 0 ? qMin(layout.shape[rowDim], rBegin + rLocal) : 1;
      const qint64 cBegin = c * cLocal;
      const qint64 cEnd = colDim >= 0 ? qMin(layout.shape[colDim], cBegin + cLocal) : 1;
      const QRectF data(cell.left(), cell.top(), qMax<qint64>(0, cEnd - cBegin) * unitW,
                        qMax<qint64>(0, rEnd - rBegin) * unitH);
      const QVector<qint64> devices = cells.value(static_cast<int>(r * cols + c));
      const int group = devices.isEmpty() ? -1 : layout.groupOf(devices.first());
      painter.setPen(Qt::NoPen);
      painter.setBrush(QBrush(palette().color(QPalette::Mid), Qt::BDiagPattern));
      painter.drawRect(cell);
      painter.setBrush(blockColor(group, layout.blockGroups.size(), dark));
      painter.drawRect(data);
      painter.setPen(palette().color(QPalette::Dark));
      painter.setBrush(Qt::NoBrush);
      painter.drawRect(cell);
      QStringList ids;
      for (qint64 d : devices)
        ids.push_back(QString::number(d));
      painter.setPen(dark ? Qt::white : Qt::black);
      const QString text = devices.isEmpty()      ? tr("padding")
                           : layout.isPartial() ? tr("partial on %1").arg(ids.join(QStringLiteral(", ")))
                                                : ids.join(QStringLiteral(", "));
      painter.drawText(data.isEmpty() ? cell : data, Qt::AlignCenter | Qt::TextWordWrap,
                       fm.elidedText(text, Qt::ElideRight, static_cast<int>(cell.width()) - 4));
      // Index ranges along the axes.
      painter.setPen(palette().color(QPalette::PlaceholderText));
      if (r == 0 && colDim >= 0)
        painter.drawText(QRectF(cell.left(), 0, cell.width(), area.top() - 2),
                         Qt::AlignHCenter | Qt::AlignBottom,
                         QStringLiteral("%1:%2").arg(cBegin).arg(cEnd));
      if (c == 0 && rowDim >= 0)
        painter.drawText(QRectF(0, cell.top(), area.left() - 4, cell.height()),
                         Qt::AlignRight | Qt::AlignVCenter,
                         QStringLiteral("%1:%2").arg(rBegin).arg(rEnd));
    }
}

} // namespace shardscope::widgets
