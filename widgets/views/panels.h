#pragma once

// The table panels of the main window: values, collectives and problems of the current stage.
// Each follows a SessionContext and selects through it.

#include "widgets/controller/snapshots.h"

#include <QTableView>
#include <QWidget>

class QLabel;

namespace shardscope::widgets {

class SessionContext;
class ValueTableModel;
class CollectivesModel;
class ProblemsModel;

/// The values of the current stage (diff mode: changed shardings in bold). Selecting a row
/// selects the value everywhere.
class ValuesPanel : public QTableView {
  Q_OBJECT

public:
  explicit ValuesPanel(SessionContext* context, QWidget* parent = nullptr);
  ValueTableModel* model() const { return m_model; }

private:
  void refresh();
  void followSelection();

  SessionContext* m_context;
  ValueTableModel* m_model;
  bool m_updating = false;
};

/// The collectives of the current stage with their cost and why they are there (diff mode:
/// collectives added since the base stage in bold).
class CollectivesPanel : public QTableView {
  Q_OBJECT

public:
  explicit CollectivesPanel(SessionContext* context, QWidget* parent = nullptr);
  CollectivesModel* model() const { return m_model; }

private:
  void refresh();
  void followSelection();

  SessionContext* m_context;
  CollectivesModel* m_model;
  bool m_updating = false;
};

/// Diagnostics of every stage; activating one selects its line and op everywhere.
class ProblemsPanel : public QTableView {
  Q_OBJECT

public:
  explicit ProblemsPanel(SessionContext* context, QWidget* parent = nullptr);
  ProblemsModel* model() const { return m_model; }
  /// Shows `rows` (for a program that failed to load, which has no snapshot).
  void showLoadProblems(const QVector<ProblemRow>& rows);

private:
  SessionContext* m_context;
  ProblemsModel* m_model;
  int m_runProblems = 0; ///< rows of the run's problems shown
};

/// The two gradient stages side by side: the collectives of the gradient under the efficient
/// (variance-aware) rules and under the naive rules, each with its cost, the naive side marking
/// the collectives the efficient rules avoid, and the difference in one sentence. Choosing a
/// collective shows its stage and selects it everywhere.
class GradientPanel : public QWidget {
  Q_OBJECT

public:
  explicit GradientPanel(SessionContext* context, QWidget* parent = nullptr);
  QLabel* summary() const { return m_summary; }
  CollectivesModel* efficientModel() const { return m_efficient; }
  CollectivesModel* naiveModel() const { return m_naive; }

private:
  void refresh();

  SessionContext* m_context;
  QLabel* m_summary;
  CollectivesModel* m_efficient;
  CollectivesModel* m_naive;
  QTableView* m_efficientView;
  QTableView* m_naiveView;
};

} // namespace shardscope::widgets
