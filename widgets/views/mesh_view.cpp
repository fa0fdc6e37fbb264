#include "widgets/views/mesh_view.h"

#include "widgets/controller/session_context.h"
#include "widgets/models/collectives_model.h"
#include "widgets/views/block_colors.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace shardscope::widgets {

namespace {

constexpr double kNestMargin = 6;
constexpr double kCellGap = 4;

// The axes of a variance set `{V:i,j}`.
QStringList varianceAxes(const QString& variance) {
  QString inner = variance;
  inner.remove(QLatin1Char('{')).remove(QLatin1Char('}'));
  if (inner.startsWith(QLatin1String("V:")))
    inner = inner.mid(2);
  QStringList axes = inner.split(QLatin1Char(','), Qt::SkipEmptyParts);
  for (QString& a : axes)
    a = a.trimmed();
  return axes;
}

} // namespace

MeshView::MeshView(SessionContext* context, QWidget* parent)
    : QWidget(parent), m_context(context) {
  setObjectName(QStringLiteral("meshView"));
  connect(context, &SessionContext::programChanged, this, qOverload<>(&QWidget::update));
  connect(context, &SessionContext::stageChanged, this, qOverload<>(&QWidget::update));
  connect(context, &SessionContext::selectionChanged, this, qOverload<>(&QWidget::update));
  connect(context, &SessionContext::executionChanged, this, qOverload<>(&QWidget::update));
}

QVector<int> MeshView::deviceGroups() const {
  const ProgramSnapshotPtr program = m_context->program();
  if (!program)
    return {};
  const MeshInfo& mesh = program->mesh;
  const qint64 n = mesh.numDevices();
  QVector<int> groups(static_cast<int>(n), -1);
  auto deviceAt = [&](qint64 pos) { return mesh.deviceIds.isEmpty() ? pos : mesh.deviceIds[pos]; };
  if (const ValueRow* value = m_context->selectedValueRow()) {
    if (value->layout.valid) {
      for (qint64 p = 0; p < n; ++p)
        groups[p] = value->layout.groupOf(deviceAt(p));
    } else if (!value->variance.isEmpty()) {
      // A per-device value of a manual computation: devices that differ along an axis the value
      // varies over hold different data.
      const QStringList axes = varianceAxes(value->variance);
      for (qint64 p = 0; p < n; ++p) {
        const QVector<qint64> coords = mesh.coordinates(p);
        qint64 key = 0;
        for (int a = 0; a < coords.size(); ++a)
          if (axes.contains(mesh.axisNames[a]))
            key = key * mesh.axisSizes[a] + coords[a];
        groups[p] = static_cast<int>(key);
      }
    }
    return groups;
  }
  if (const CollectiveRow* coll = m_context->selectedCollectiveRow()) {
    // Devices communicate with those that differ only along the collective's axes: the group is
    // the position along the other axes.
    for (qint64 p = 0; p < n; ++p) {
      const QVector<qint64> coords = mesh.coordinates(p);
      qint64 key = 0;
      for (int a = 0; a < coords.size(); ++a) {
        bool inCollective = false;
        for (const QString& axis : coll->axes)
          inCollective = inCollective || axis == mesh.axisNames[a] ||
                         axis.startsWith(mesh.axisNames[a] + QLatin1Char(':'));
        if (!inCollective)
          key = key * mesh.axisSizes[a] + coords[a];
      }
      groups[p] = coll->axes.isEmpty() ? -1 : static_cast<int>(key);
    }
  }
  return groups;
}

QString MeshView::legend() const {
  if (const ValueRow* value = m_context->selectedValueRow()) {
    if (!value->layout.valid && !value->variance.isEmpty())
      return tr("Colours: devices holding the same %1 (a per-device value varying over %2)")
          .arg(value->name, varianceAxes(value->variance).join(QStringLiteral(", ")));
    if (!value->layout.valid)
      return tr("%1 is not sharded in this stage: every device holds all of it").arg(value->name);
    return tr("Colours: the block of %1 each device holds (%2 distinct, replicas share a colour)")
        .arg(value->name, QString::number(value->layout.replicaGroups.size()));
  }
  if (const CollectiveRow* coll = m_context->selectedCollectiveRow())
    return tr("Colours: the %1 groups of %2 over %3; each device sends %4")
        .arg(QString::number(coll->numGroups), coll->op,
             coll->axes.isEmpty() ? tr("unknown axes") : coll->axes.join(QStringLiteral(", ")),
             CollectivesModel::formatBytes(coll->bytesSent));
  return tr("Select a value or a collective to colour the devices.");
}

void MeshView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(rect(), palette().color(QPalette::Base));
  const ProgramSnapshotPtr program = m_context->program();
  const QFontMetrics fm(font());
  if (!program || program->mesh.axisNames.isEmpty()) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                     program ? tr("The program has no mesh.") : tr("No program loaded."));
    return;
  }
  const MeshInfo& mesh = program->mesh;
  QStringList axes;
  for (int a = 0; a < mesh.axisNames.size(); ++a)
    axes.push_back(QStringLiteral("%1=%2").arg(mesh.axisNames[a]).arg(mesh.axisSizes[a]));
  painter.setPen(palette().color(QPalette::Text));
  const QRectF header(8, 4, width() - 16, fm.height() + 2);
  painter.drawText(header, Qt::AlignLeft | Qt::AlignVCenter,
                   tr("Mesh [%1] \u2014 %2 devices").arg(axes.join(QStringLiteral(", ")))
                       .arg(mesh.numDevices()));
  const QString legendText = legend();
  const QRectF legendRect(8, height() - fm.height() * 2 - 4, width() - 16, fm.height() * 2);
  painter.setPen(palette().color(QPalette::PlaceholderText));
  painter.drawText(legendRect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, legendText);

  const QVector<int> groups = deviceGroups();
  int numGroups = 0;
  for (int g : groups)
    numGroups = qMax(numGroups, g + 1);
  const QRectF area(8, header.bottom() + 6, width() - 16,
                    legendRect.top() - header.bottom() - 12);
  if (area.width() < 20 || area.height() < 20)
    return;
  m_deviceRects.clear();
  place(painter, 0, area, 0, groups, numGroups);
}

bool MeshView::event(QEvent* event) {
  if (event->type() != QEvent::ToolTip || !m_context->program())
    return QWidget::event(event);
  const QPoint pos = static_cast<QHelpEvent*>(event)->pos();
  const MeshInfo& mesh = m_context->program()->mesh;
  for (const auto& [rect, position] : m_deviceRects) {
    if (!rect.contains(pos))
      continue;
    const qint64 device = mesh.deviceIds.isEmpty() ? position : mesh.deviceIds.value(position);
    const QVector<qint64> coords = mesh.coordinates(position);
    QStringList parts;
    for (int a = 0; a < coords.size(); ++a)
      parts.push_back(QStringLiteral("%1=%2").arg(mesh.axisNames[a], QString::number(coords[a])));
    QString text = tr("Device %1 (%2)").arg(QString::number(device), parts.join(QStringLiteral(", ")));
    if (const ValueRow* value = m_context->selectedValueRow())
      for (const DeviceBlockInfo& b : value->layout.blocks)
        if (b.device == device) {
          QStringList ranges;
          for (int d = 0; d < b.begin.size(); ++d)
            ranges.push_back(QStringLiteral("%1:%2").arg(b.begin[d]).arg(b.end[d]));
          text += tr("\nholds %1[%2]").arg(value->name, ranges.join(QStringLiteral(", ")));
        }
    QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(), text, this);
    return true;
  }
  QToolTip::hideText();
  event->ignore();
  return true;
}

void MeshView::place(QPainter& painter, int axis, const QRectF& rect, qint64 position,
                     const QVector<int>& groups, int numGroups) {
  const MeshInfo& mesh = m_context->program()->mesh;
  const int numAxes = mesh.axisSizes.size();
  const int remaining = numAxes - axis;
  const bool dark = palette().color(QPalette::Base).lightness() < 128;
  if (remaining <= 0) {
    // One device.
    m_deviceRects.push_back({rect, position});
    const qint64 device = mesh.deviceIds.isEmpty() ? position : mesh.deviceIds.value(position);
    const int group = groups.value(static_cast<int>(position), -1);
    const ExecutionSnapshotPtr exec = m_context->execution();
    const bool diverging = exec && exec->divergingDevices.contains(device);
    painter.setBrush(blockColor(group, numGroups, dark));
    painter.setPen(QPen(diverging ? QColor(0xd0, 0x30, 0x30) : palette().color(QPalette::Mid),
                        diverging ? 3 : 1));
    painter.drawRoundedRect(rect, 4, 4);
    painter.setPen(dark ? Qt::white : Qt::black);
    QFont bold = font();
    bold.setBold(true);
    const QVector<qint64> coords = mesh.coordinates(position);
    QStringList c;
    for (qint64 v : coords)
      c.push_back(QString::number(v));
    const QString coordText = QStringLiteral("(%1)").arg(c.join(QLatin1Char(',')));
    const QFontMetrics fm(font());
    if (rect.height() >= fm.height() * 2.2 && rect.width() >= fm.horizontalAdvance(coordText)) {
      const double top = rect.center().y() - fm.height();
      painter.setFont(bold);
      painter.drawText(QRectF(rect.left(), top, rect.width(), fm.height()), Qt::AlignCenter,
                       QString::number(device));
      painter.setFont(font());
      painter.drawText(QRectF(rect.left(), top + fm.height(), rect.width(), fm.height()),
                       Qt::AlignCenter, coordText);
    } else {
      painter.setFont(bold);
      painter.drawText(rect, Qt::AlignCenter, QString::number(device));
      painter.setFont(font());
    }
    return;
  }
  // The stride of one step along `axis` in mesh positions.
  auto stride = [&](int a) {
    qint64 s = 1;
    for (int b = a + 1; b < numAxes; ++b)
      s *= mesh.axisSizes[b];
    return s;
  };
  const QFontMetrics fm(font());
  const bool nested = remaining > 2;
  const int rows = remaining >= 2 ? static_cast<int>(mesh.axisSizes[axis]) : 1;
  const int cols = static_cast<int>(remaining >= 2 ? mesh.axisSizes[axis + 1] : mesh.axisSizes[axis]);
  const int rowAxis = remaining >= 2 ? axis : -1;
  const int colAxis = remaining >= 2 ? axis + 1 : axis;
  // Axis labels on top and at the left of the outermost grid; nested grids name their axes in
  // the caption of their frame instead.
  const double labelH = fm.height();
  const bool outer = axis == 0;
  const QString rowLabel =
      rowAxis >= 0 ? QStringLiteral("%1 \u2193").arg(mesh.axisNames[rowAxis]) : QString();
  QRectF inner = outer ? rect.adjusted(rowAxis >= 0 ? fm.horizontalAdvance(rowLabel) + 6 : 0,
                                       labelH, 0, 0)
                       : rect;
  painter.setPen(palette().color(QPalette::PlaceholderText));
  if (outer) {
    painter.drawText(QRectF(inner.left(), rect.top(), inner.width(), labelH), Qt::AlignCenter,
                     QStringLiteral("%1 \u2192").arg(mesh.axisNames[colAxis]));
    if (rowAxis >= 0)
      painter.drawText(QRectF(rect.left(), inner.top(), inner.left() - rect.left() - 4,
                              inner.height()),
                       Qt::AlignRight | Qt::AlignVCenter, rowLabel);
  }
  const double cellW = (inner.width() - kCellGap * (cols - 1)) / cols;
  const double cellH = (inner.height() - kCellGap * (rows - 1)) / rows;
  const int next = axis + (remaining >= 2 ? 2 : 1);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      QRectF cell(inner.left() + c * (cellW + kCellGap), inner.top() + r * (cellH + kCellGap),
                  cellW, cellH);
      const qint64 pos = position + (rowAxis >= 0 ? r * stride(rowAxis) : 0) + c * stride(colAxis);
      if (nested) {
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DashLine));
        painter.drawRoundedRect(cell, 6, 6);
        // The caption names the frame's coordinates and the axes inside it; it is dropped when
        // the frame is too small to hold it and the devices.
        QStringList innerAxes;
        for (int a = next; a < numAxes; ++a)
          innerAxes.push_back(mesh.axisNames[a]);
        const QString caption = QStringLiteral("%1=%2, %3=%4   [%5]")
                                    .arg(mesh.axisNames[rowAxis], QString::number(r),
                                         mesh.axisNames[colAxis], QString::number(c),
                                         innerAxes.join(QStringLiteral(" \u00d7 ")));
        if (cell.height() >= labelH * 2.6) {
          painter.setPen(palette().color(QPalette::PlaceholderText));
          painter.drawText(cell.adjusted(5, 1, -4, 0), Qt::AlignLeft | Qt::AlignTop,
                           fm.elidedText(caption, Qt::ElideRight, static_cast<int>(cell.width()) - 8));
          cell.adjust(kNestMargin, labelH + 2, -kNestMargin, -kNestMargin / 2);
        } else {
          cell.adjust(kNestMargin / 2, kNestMargin / 2, -kNestMargin / 2, -kNestMargin / 2);
        }
      }
      place(painter, next, cell, pos, groups, numGroups);
    }
}

} // namespace shardscope::widgets
