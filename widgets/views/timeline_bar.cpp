#include "widgets/views/timeline_bar.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <utility>

namespace shardscope::widgets {

namespace {
const QColor kCollective(0x0f, 0x76, 0x6e); // inserted collectives' teal in the graph
const QColor kDiverged(0xd0, 0x30, 0x30);   // red: an error
const QColor kCurrent(0x1d, 0x4e, 0xd8);
} // namespace

TimelineBar::TimelineBar(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("executionTimeline"));
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  setCursor(Qt::PointingHandCursor);
  setToolTip(tr("The run's steps: click one to see the run just after it"));
}

void TimelineBar::setTimeline(std::shared_ptr<const Timeline> timeline, qint64 current,
                              bool finished) {
  m_timeline = std::move(timeline);
  m_current = current;
  m_finished = finished;
  update();
}

QSize TimelineBar::sizeHint() const { return {400, minimumSizeHint().height()}; }

QSize TimelineBar::minimumSizeHint() const {
  return {160, fontMetrics().height() + 12};
}

QRect TimelineBar::track() const {
  // Room on the left for "step N of M".
  const int label = fontMetrics().horizontalAdvance(QStringLiteral("step 0000000 of 0000000")) + 8;
  return QRect(label, 3, std::max(10, width() - label - 4), height() - 6);
}

qint64 TimelineBar::stepAt(int x) const {
  const qint64 known = m_timeline ? m_timeline->known() : 0;
  if (known == 0)
    return 0;
  const QRect t = track();
  const double f = std::clamp(double(x - t.left()) / std::max(1, t.width()), 0.0, 1.0);
  return std::clamp<qint64>(qint64(f * double(known)) + 1, 1, known);
}

std::pair<qint64, qint64> TimelineBar::stepsAt(int x) const {
  const qint64 first = stepAt(x);
  return {first, std::max(first, stepAt(x + 1) - 1)};
}

int TimelineBar::xOf(qint64 step) const {
  const qint64 known = m_timeline ? m_timeline->known() : 0;
  const QRect t = track();
  if (known == 0)
    return t.left();
  return t.left() + int((double(step) - 0.5) / double(known) * t.width());
}

QString TimelineBar::describe(qint64 step) const {
  if (!m_timeline || step < 1 || step > m_timeline->known())
    return {};
  const Timeline::Step& s = m_timeline->steps[int(step - 1)];
  QString text = tr("step %1").arg(step);
  if (s.op >= 0) {
    const TimelineOp& op = m_timeline->ops[s.op];
    text += tr(": %1 (line %2)").arg(op.name).arg(op.line);
  }
  if (s.depth > 1)
    text += tr(", in a region (depth %1)").arg(s.depth);
  if (s.collective)
    text += tr(" — collective");
  if (s.diverged)
    text += tr(" — differs from the reference");
  return text;
}

void TimelineBar::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const bool dark = palette().color(QPalette::Window).lightness() < 128;
  const QRect t = track();
  const qint64 known = m_timeline ? m_timeline->known() : 0;
  p.setPen(palette().color(QPalette::WindowText));
  p.drawText(QRect(0, 0, t.left() - 6, height()), Qt::AlignVCenter | Qt::AlignRight,
             known == 0 ? tr("no steps yet")
             : m_finished && m_current >= known
                 ? tr("step %1 of %2, end").arg(m_current).arg(known)
                 : tr("step %1 of %2").arg(m_current).arg(known));
  p.fillRect(t, dark ? QColor(0x2a, 0x2d, 0x33) : QColor(0xee, 0xf0, 0xf3));
  p.setPen(dark ? QColor(0x55, 0x5a, 0x63) : QColor(0xc4, 0xc8, 0xcf));
  p.drawRect(t.adjusted(0, 0, -1, -1));
  if (known == 0)
    return;
  // The steps already run are tinted; each pixel column shows its strongest mark.
  const int done = xOf(m_current) + (m_current > 0 ? int(0.5 * t.width() / double(known)) : 0);
  p.fillRect(QRect(t.left(), t.top(), std::clamp(done - t.left(), 0, t.width()), t.height()),
             dark ? QColor(0x33, 0x41, 0x55) : QColor(0xdb, 0xe6, 0xf7));
  const QColor nested = dark ? QColor(0x4b, 0x55, 0x63) : QColor(0xb8, 0xc2, 0xcf);
  const double perStep = double(t.width()) / double(known);
  if (perStep >= 6) {
    // Few steps: one cell each, a gap between them; the mark fills the cell's middle.
    for (qint64 k = 1; k <= known; ++k) {
      const Timeline::Step& s = m_timeline->steps[int(k - 1)];
      const int x0 = t.left() + int((k - 1) * perStep) + 1;
      const int x1 = t.left() + int(k * perStep) - 1;
      const QRect cell(x0, t.top() + 2, std::max(1, x1 - x0), t.height() - 4);
      QColor fill = s.diverged     ? kDiverged
                    : s.collective ? kCollective
                    : k <= m_current ? (dark ? QColor(0x4a, 0x63, 0x85) : QColor(0xa9, 0xc2, 0xea))
                                     : (dark ? QColor(0x3a, 0x3e, 0x46) : QColor(0xd9, 0xdd, 0xe3));
      if (s.depth > 1 && !s.diverged && !s.collective)
        p.fillRect(cell.adjusted(0, cell.height() / 2, 0, 0), fill);
      else
        p.fillRect(cell, fill);
    }
  }
  // Many steps: each pixel column stands for a range of them and shows what share of them were
  // collectives (the teal's height), a divergence among them in full red, steps inside regions
  // as a low band; the steps not run yet are paler.
  for (int x = t.left(); perStep < 6 && x < t.right(); ++x) {
    const auto [first, last] = stepsAt(x);
    int collectives = 0, nestedSteps = 0;
    bool diverged = false;
    for (qint64 k = first; k <= last; ++k) {
      const Timeline::Step& s = m_timeline->steps[int(k - 1)];
      diverged = diverged || s.diverged;
      collectives += s.collective;
      nestedSteps += s.depth > 1;
    }
    const bool ahead = first > m_current;
    auto paler = [&](QColor c) {
      if (ahead)
        c.setAlpha(90);
      return c;
    };
    const int span = int(last - first + 1);
    if (diverged) {
      p.fillRect(QRect(x - 1, t.top(), 3, t.height()), kDiverged);
    } else if (collectives > 0) {
      const int inner = t.height() - 4;
      const int h = std::max(2, int(std::lround(double(inner) * collectives / span)));
      p.fillRect(QRect(x, t.bottom() - 1 - h, 1, h), paler(kCollective));
    } else if (nestedSteps > 0) {
      p.fillRect(QRect(x, t.bottom() - t.height() / 3, 1, t.height() / 3), paler(nested));
    }
  }
  // Where the run is: after step `m_current`, a line with a notch on top.
  const int cx = std::clamp(done, t.left(), t.right());
  p.setPen(QPen(dark ? QColor(0x93, 0xc5, 0xfd) : kCurrent, 2));
  p.drawLine(cx, t.top(), cx, t.bottom());
  p.setPen(Qt::NoPen);
  p.setBrush(dark ? QColor(0x93, 0xc5, 0xfd) : kCurrent);
  const QPoint notch[] = {{cx - 4, t.top() - 3}, {cx + 4, t.top() - 3}, {cx, t.top() + 3}};
  p.drawPolygon(notch, 3);
  if (m_dragStep > 0) {
    p.setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DashLine));
    const int dx = xOf(m_dragStep);
    p.drawLine(dx, t.top(), dx, t.bottom());
  }
}

void TimelineBar::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || !m_timeline || m_timeline->known() == 0)
    return QWidget::mousePressEvent(event);
  m_dragStep = stepAt(event->pos().x());
  update();
}

void TimelineBar::mouseMoveEvent(QMouseEvent* event) {
  if (m_dragStep > 0) {
    m_dragStep = stepAt(event->pos().x());
    update();
  }
  if (m_timeline && m_timeline->known() > 0)
    QToolTip::showText(event->globalPos(), describeAt(event->pos().x()), this);
}

void TimelineBar::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || m_dragStep == 0)
    return QWidget::mouseReleaseEvent(event);
  const qint64 step = stepAt(event->pos().x());
  m_dragStep = 0;
  update();
  if (step > 0 && step != m_current)
    Q_EMIT stepRequested(step);
}

QString TimelineBar::describeAt(int x) const {
  const auto [first, last] = stepsAt(x);
  if (last == first || !m_timeline)
    return describe(first);
  // A pixel that stands for many steps: their range and what they hold, then the first of them.
  int collectives = 0, diverged = 0;
  for (qint64 k = first; k <= last; ++k) {
    collectives += m_timeline->steps[int(k - 1)].collective;
    diverged += m_timeline->steps[int(k - 1)].diverged;
  }
  QString text = tr("steps %1\u2013%2: %3 collective(s)").arg(first).arg(last).arg(collectives);
  if (diverged > 0)
    text += tr(", %1 differing from the reference").arg(diverged);
  return text + QLatin1Char('\n') + describe(first);
}

bool TimelineBar::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip && m_timeline && m_timeline->known() > 0) {
    auto* help = static_cast<QHelpEvent*>(event);
    QToolTip::showText(help->globalPos(), describeAt(help->pos().x()), this);
    return true;
  }
  return QWidget::event(event);
}

} // namespace shardscope::widgets
