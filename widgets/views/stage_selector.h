#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;

namespace shardscope::widgets {

class SessionContext;

/// The stage every view shows (as written, propagated, partitioned, per device, and the gradient
/// stages) and the diff mode: compare with another stage, marking changed shardings and added
/// collectives. Stages the program does not have are disabled, with the reason as tooltip; stages
/// still being computed say so (`Propagated (computing…)`).
class StageSelector : public QWidget {
  Q_OBJECT

public:
  explicit StageSelector(SessionContext* context, QWidget* parent = nullptr);

  QComboBox* stageCombo() const { return m_stage; }
  QCheckBox* diffToggle() const { return m_diff; }
  QComboBox* baseCombo() const { return m_base; }

private:
  void apply();
  void updateAvailability();
  void follow();
  /// Disables the shown stage (and stages the program lacks) in the diff base list.
  void disableShownStage();

  SessionContext* m_context;
  QComboBox* m_stage;
  QCheckBox* m_diff;
  QComboBox* m_base;
  QLabel* m_programDiff; // "diffing with FILE" while a program diff is on
  bool m_updating = false;
};

} // namespace shardscope::widgets
