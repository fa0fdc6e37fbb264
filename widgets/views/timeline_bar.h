#pragma once

#include "widgets/controller/snapshots.h"

#include <QWidget>

#include <memory>
#include <utility>

namespace shardscope::widgets {

/// The steps of a run side by side, as a strip: collectives as teal ticks, steps where the
/// reference check found a divergence in red, steps inside a region or callee shaded, the
/// current position as a marker. Clicking (or dragging and releasing) at a step asks to go there;
/// the tooltip names the op of the step under the cursor. Steps are drawn in proportion, so a
/// run of a million steps fits the width: a pixel then stands for many steps, its teal as high
/// as the share of collectives among them, red when any diverged.
class TimelineBar : public QWidget {
  Q_OBJECT

public:
  explicit TimelineBar(QWidget* parent = nullptr);

  /// The run's timeline, its current step (0: before the first) and whether it finished.
  void setTimeline(std::shared_ptr<const Timeline> timeline, qint64 current, bool finished);
  qint64 current() const { return m_current; }

  /// The step (1-based) drawn at x-coordinate `x`, clamped to the known steps; 0 without any.
  qint64 stepAt(int x) const;
  /// The x-coordinate of the middle of step `step`.
  int xOf(qint64 step) const;
  /// The tooltip at x-coordinate `x`: the step there, or the range of steps a pixel stands for
  /// with its collectives and divergences counted, then the first of them.
  QString describeAt(int x) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

Q_SIGNALS:
  /// The user asked to see the run just after step `step`.
  void stepRequested(qint64 step);

protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  bool event(QEvent* event) override;

private:
  QRect track() const;
  /// The first and last step pixel column `x` stands for (the same step when they are wide).
  std::pair<qint64, qint64> stepsAt(int x) const;
  QString describe(qint64 step) const;

  std::shared_ptr<const Timeline> m_timeline;
  qint64 m_current = 0;
  bool m_finished = false;
  qint64 m_dragStep = 0; // the step under a pressed button (0: none)
};

} // namespace shardscope::widgets
