#pragma once

// The table panels of the main window: values, collectives and problems of the current stage.
// Each follows a SessionContext and selects through it.

#include "widgets/controller/snapshots.h"

#include <QTableView>

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
};

} // namespace shardscope::widgets
