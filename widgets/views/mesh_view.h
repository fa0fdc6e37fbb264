#pragma once

#include "widgets/controller/snapshots.h"

#include <QWidget>

namespace shardscope::widgets {

class SessionContext;

/// The device mesh, custom painted for any number of axes: one axis as a row, two as a grid, more
/// as nested grids (the outer two axes outside). Each device shows its id, mesh coordinates and,
/// in a run on MPI, the rank that runs it (`r1`).
/// With a value selected, devices are coloured by the block they hold (replicas share a colour);
/// with a collective selected, by the group they communicate in.
class MeshView : public QWidget {
  Q_OBJECT

public:
  explicit MeshView(SessionContext* context, QWidget* parent = nullptr);

  /// The colour group of each device (mesh order) as last painted: a block or collective group
  /// index, -1 when nothing is selected. For tests.
  QVector<int> deviceGroups() const;
  /// What the colours mean (`blocks of %0`, `groups of sdy.all_reduce`), empty when none.
  QString legend() const;
  /// The MPI rank that runs `device` in the current run, or -1 (not on MPI, or no run).
  int rankOf(qint64 device) const;
  /// `MPI: 2 ranks, 2 devices per rank` when the run is on MPI, else empty.
  QString rankCaption() const;

  /// One device-to-device transfer of the selected collective under the ring model: along each
  /// of its axes, every device sends to the next device of its ring.
  struct Transfer {
    qint64 from = 0; ///< mesh positions
    qint64 to = 0;
    QString axis;
    qint64 bytes = 0; ///< sent by `from` along `axis`
    bool wraps = false; ///< the ring's closing step (last device back to the first)
  };
  /// The transfers the view draws as arrows (empty when no collective is selected).
  QVector<Transfer> transfers() const;

  QSize sizeHint() const override { return {360, 260}; }
  QSize minimumSizeHint() const override { return {160, 150}; }

protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;

private:
  void place(QPainter& painter, int axis, const QRectF& rect, qint64 position,
             const QVector<int>& groups, int numGroups);
  void drawTransfers(QPainter& painter, const QVector<Transfer>& transfers);

  SessionContext* m_context;
  QVector<QPair<QRectF, qint64>> m_deviceRects; // as last painted: rect, mesh position
};

} // namespace shardscope::widgets
