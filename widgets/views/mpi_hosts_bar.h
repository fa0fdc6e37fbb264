#pragma once

#include <QWidget>

class QCheckBox;
class QLineEdit;
class QToolButton;

namespace shardscope::widgets {

/// The hosts of MPI runs: an optional hostfile (typed, or chosen with "…") passed to mpirun as
/// `--hostfile FILE`, and whether to oversubscribe its slots (only asked with a hostfile: without
/// one, runs on this machine always oversubscribe). Both are remembered in the settings
/// (`execution/mpiHostfile`, `execution/mpiOversubscribe`).
class MpiHostsBar : public QWidget {
  Q_OBJECT

public:
  explicit MpiHostsBar(QWidget* parent = nullptr);

  QString hostfile() const;
  bool oversubscribe() const;

public Q_SLOTS:
  /// Shows `hostfile` and `oversubscribe` (a restored session), remembers and announces them.
  void setHosts(const QString& hostfile, bool oversubscribe);

Q_SIGNALS:
  void hostsChanged(const QString& hostfile, bool oversubscribe);

private:
  void chooseHostfile();
  void apply();

  QLineEdit* m_hostfile;
  QToolButton* m_browse;
  QCheckBox* m_oversubscribe;
};

} // namespace shardscope::widgets
