#include "widgets/views/mesh_view.h"

#include "widgets/controller/session_context.h"
#include "widgets/models/collectives_model.h"
#include "widgets/views/block_colors.h"

#include "core/sharding/mesh_view.h"

#include <QHelpEvent>
#include <QHash>
#include <QMap>
#include <QPainterPath>
#include <QPainter>
#include <QToolTip>

#include <cmath>

namespace shardscope::widgets {

namespace {

constexpr double kNestMargin = 6;
constexpr double kCellGap = 4;

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
    } else if (!value->variance.isEmpty() && mesh.geometry) {
      // A per-device value of a manual computation: the devices that hold the same data differ
      // only along the axes it does not vary over.
      std::vector<ir::AxisRef> invariant;
      for (const ir::MeshAxis& axis : mesh.geometry->axes)
        if (!value->varyingAxes.contains(QString::fromStdString(axis.name)))
          invariant.push_back({axis.name, std::nullopt});
      const std::vector<int64_t> same = sharding::MeshView(*mesh.geometry).groupsAlong(invariant);
      for (qint64 p = 0; p < n && p < static_cast<qint64>(same.size()); ++p)
        groups[p] = static_cast<int>(same[p]);
    }
    return groups;
  }
  if (const CollectiveRow* coll = m_context->selectedCollectiveRow(); coll && mesh.geometry) {
    // Devices communicate with those that differ only along the collective's axes.
    if (coll->axisRefs.empty())
      return groups;
    const std::vector<int64_t> along =
        sharding::MeshView(*mesh.geometry).groupsAlong(coll->axisRefs);
    for (qint64 p = 0; p < n && p < static_cast<qint64>(along.size()); ++p)
      groups[p] = static_cast<int>(along[p]);
  }
  return groups;
}

QString MeshView::legend() const {
  if (const ValueRow* value = m_context->selectedValueRow()) {
    if (!value->layout.valid && !value->variance.isEmpty())
      return tr("Colours: devices holding the same %1 (a per-device value varying over %2)")
          .arg(value->name, value->varyingAxes.join(QStringLiteral(", ")));
    if (!value->layout.valid)
      return tr("%1 is not sharded in this stage: every device holds all of it").arg(value->name);
    if (value->layout.isPartial())
      return tr("Colours: the block of %1 each device holds (%2 distinct), %3: the devices of "
                "a colour each hold a partial result of it")
          .arg(value->name, QString::number(value->layout.blockGroups.size()),
               value->layout.partialText());
    return tr("Colours: the block of %1 each device holds (%2 distinct, replicas share a colour)")
        .arg(value->name, QString::number(value->layout.blockGroups.size()));
  }
  if (const CollectiveRow* coll = m_context->selectedCollectiveRow())
    return tr("Colours: the %1 groups of %2 over %3; arrows: each device sends %4 to the next "
              "of its ring")
        .arg(QString::number(coll->numGroups), coll->op,
             coll->axes.isEmpty() ? tr("unknown axes") : coll->axes.join(QStringLiteral(", ")),
             CollectivesModel::formatBytes(coll->bytesSent));
  return tr("Select a value or a collective to colour the devices.");
}

QVector<MeshView::Transfer> MeshView::transfers() const {
  QVector<Transfer> out;
  const ProgramSnapshotPtr program = m_context->program();
  const CollectiveRow* coll = program ? m_context->selectedCollectiveRow() : nullptr;
  if (!coll || m_context->selectedValueRow() || !program->mesh.geometry)
    return out;
  // Along each of its axes every device sends to the next device of its ring.
  const sharding::MeshView mesh(*program->mesh.geometry);
  for (size_t i = 0; i < coll->axisRefs.size(); ++i) {
    const int a = static_cast<int>(i);
    const qint64 bytes = coll->axisBytes.value(a, coll->bytesSent / qMax(1, coll->axes.size()));
    for (const sharding::MeshView::RingHop& hop : mesh.ringHops(coll->axisRefs[i]))
      out.push_back({hop.from, hop.to, coll->axes.value(a), bytes, hop.wraps && mesh.sizeOf(coll->axisRefs[i]) > 2});
  }
  return out;
}

void MeshView::drawTransfers(QPainter& painter, const QVector<Transfer>& transfers) {
  QHash<qint64, QRectF> rects;
  double smallest = 1e9;
  for (const auto& [rect, position] : m_deviceRects) {
    rects.insert(position, rect);
    smallest = qMin(smallest, qMin(rect.width(), rect.height()));
  }
  const bool dark = palette().color(QPalette::Base).lightness() < 128;
  const QColor colour = dark ? QColor(0xf5, 0x9e, 0x0b) : QColor(0xb4, 0x53, 0x09);
  painter.setRenderHint(QPainter::Antialiasing);
  const bool labels = smallest >= 44 && transfers.size() <= 64;
  QFont small = font();
  small.setPointSizeF(small.pointSizeF() * 0.85);
  const QFontMetricsF fm(small);
  // Where a ray from the centre of `r` towards `d` leaves it.
  const auto edge = [](const QRectF& r, QPointF d) {
    const double tx = d.x() != 0 ? r.width() / 2 / std::abs(d.x()) : 1e9;
    const double ty = d.y() != 0 ? r.height() / 2 / std::abs(d.y()) : 1e9;
    return r.center() + d * std::min(tx, ty);
  };
  for (const Transfer& t : transfers) {
    if (!rects.contains(t.from) || !rects.contains(t.to))
      continue;
    const QRectF a = rects.value(t.from), b = rects.value(t.to);
    QPointF d = b.center() - a.center();
    const double length = std::hypot(d.x(), d.y());
    if (length < 1)
      continue;
    d /= length;
    // Offset to the right of the direction, so that the two directions of a pair do not overlap.
    const QPointF side(-d.y() * 4, d.x() * 4);
    QPointF from = edge(a, d) + side, to = edge(b, -d) + side;
    QPainterPath path(from);
    QPointF labelAt = (from + to) / 2;
    if (t.wraps) {
      // The ring's closing step bows out of the row, over the devices in between.
      const QPointF bow = QPointF(d.y(), -d.x()) * qMin(40.0, length / 3);
      from = a.center() + QPointF(d.y(), -d.x()) * (std::abs(d.x()) > 0.5 ? a.height() / 2 : a.width() / 2);
      to = b.center() + QPointF(d.y(), -d.x()) * (std::abs(d.x()) > 0.5 ? b.height() / 2 : b.width() / 2);
      path = QPainterPath(from);
      path.quadTo((from + to) / 2 + bow, to);
      labelAt = path.pointAtPercent(0.5);
    } else {
      path.lineTo(to);
    }
    painter.setPen(QPen(colour, 1.6, t.wraps ? Qt::DashLine : Qt::SolidLine, Qt::RoundCap));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(path);
    // The arrow head, along the path's last direction.
    const double angle = path.angleAtPercent(1.0) * M_PI / 180.0;
    const QPointF back(-std::cos(angle), std::sin(angle));
    const QPointF normal(-back.y(), back.x());
    QPolygonF head;
    head << to << to + back * 7 + normal * 3.5 << to + back * 7 - normal * 3.5;
    painter.setPen(Qt::NoPen);
    painter.setBrush(colour);
    painter.drawPolygon(head);
    if (labels && !t.wraps) {
      const QString text = CollectivesModel::formatBytes(t.bytes);
      QRectF box(0, 0, fm.horizontalAdvance(text) + 6, fm.height());
      box.moveCenter(labelAt + side * 2.5);
      painter.setBrush(palette().color(QPalette::Base));
      painter.drawRoundedRect(box, 3, 3);
      painter.setPen(colour);
      painter.setFont(small);
      painter.drawText(box, Qt::AlignCenter, text);
      painter.setFont(font());
    }
  }
}

int MeshView::rankOf(qint64 device) const {
  const ExecutionSnapshotPtr exec = m_context->execution();
  if (!exec)
    return -1;
  for (const DevicePosition& p : exec->devices)
    if (p.device == device)
      return p.rank;
  return -1;
}

QString MeshView::rankCaption() const {
  const ExecutionSnapshotPtr exec = m_context->execution();
  if (!exec || exec->backend != QLatin1String("mpi"))
    return QString();
  QMap<int, int> perRank;
  for (const DevicePosition& p : exec->devices)
    if (p.rank >= 0)
      ++perRank[p.rank];
  const int ranks = exec->numRanks > 0 ? exec->numRanks : perRank.size();
  if (perRank.isEmpty())
    return tr("MPI: %1 ranks").arg(ranks);
  int lo = perRank.first(), hi = perRank.first();
  for (int n : perRank) {
    lo = qMin(lo, n);
    hi = qMax(hi, n);
  }
  const QString perRankText = lo == hi ? QString::number(lo)
                                       : QStringLiteral("%1–%2").arg(lo).arg(hi);
  return tr("MPI: %1 ranks, %2 devices per rank").arg(ranks).arg(perRankText);
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
                     program ? tr("The program has no mesh.")
                     : m_context->loadFailure().isEmpty() ? tr("No program loaded.")
                                                          : m_context->loadFailure());
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
  // On MPI, a second caption line says how the devices are spread over the ranks.
  QRectF top = header;
  const QString ranks = rankCaption();
  if (!ranks.isEmpty()) {
    top = QRectF(8, header.bottom(), width() - 16, fm.height() + 2);
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(top, Qt::AlignLeft | Qt::AlignVCenter,
                     fm.elidedText(ranks, Qt::ElideRight, static_cast<int>(top.width())));
  }
  const QString legendText = legend();
  // As many lines as the legend wraps to (at most five), so that it never runs into the grid.
  const int legendH = qBound(
      fm.height(),
      fm.boundingRect(QRect(0, 0, width() - 16, fm.height() * 10), Qt::TextWordWrap, legendText)
          .height(),
      fm.height() * 5);
  const QRectF legendRect(8, height() - legendH - 4, width() - 16, legendH);
  painter.setPen(palette().color(QPalette::PlaceholderText));
  painter.drawText(legendRect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, legendText);

  const QVector<int> groups = deviceGroups();
  int numGroups = 0;
  for (int g : groups)
    numGroups = qMax(numGroups, g + 1);
  const QRectF area(8, top.bottom() + 6, width() - 16, legendRect.top() - top.bottom() - 12);
  if (area.width() < 20 || area.height() < 20)
    return;
  m_deviceRects.clear();
  place(painter, 0, area, 0, groups, numGroups);
  // A selected collective: who sends to whom, and how much (small meshes only: beyond that the
  // arrows would hide the devices).
  const QVector<Transfer> moves = transfers();
  if (!moves.isEmpty() && moves.size() <= 512)
    drawTransfers(painter, moves);
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
    if (const int rank = rankOf(device); rank >= 0)
      text += tr("\nrun by MPI rank %1").arg(rank);
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
    const int rank = rankOf(device);
    const QString rankText = rank >= 0 ? QStringLiteral("r%1").arg(rank) : QString();
    const QFontMetrics fm(font());
    // Id, coordinates and rank on their own lines when they fit, else on one line.
    const int lines = rankText.isEmpty() ? 2 : 3;
    if (rect.height() >= fm.height() * lines + 2 &&
        rect.width() >= fm.horizontalAdvance(coordText)) {
      double top = rect.center().y() - fm.height() * lines / 2.0;
      painter.setFont(bold);
      painter.drawText(QRectF(rect.left(), top, rect.width(), fm.height()), Qt::AlignCenter,
                       QString::number(device));
      painter.setFont(font());
      top += fm.height();
      painter.drawText(QRectF(rect.left(), top, rect.width(), fm.height()), Qt::AlignCenter,
                       coordText);
      if (!rankText.isEmpty())
        painter.drawText(QRectF(rect.left(), top + fm.height(), rect.width(), fm.height()),
                         Qt::AlignCenter, rankText);
    } else {
      // One line: the id in bold, then the rank.
      const QString id = QString::number(device);
      const QString rest = rankText.isEmpty() ? QString() : QStringLiteral(" \u00b7 ") + rankText;
      const double idW = QFontMetricsF(bold).horizontalAdvance(id);
      const double left = rect.center().x() - (idW + QFontMetricsF(font()).horizontalAdvance(rest)) / 2;
      painter.setFont(bold);
      painter.drawText(QRectF(left, rect.top(), idW + 1, rect.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, id);
      painter.setFont(font());
      if (!rest.isEmpty())
        painter.drawText(QRectF(left + idW, rect.top(), rect.right() - left - idW, rect.height()),
                         Qt::AlignLeft | Qt::AlignVCenter, rest);
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
