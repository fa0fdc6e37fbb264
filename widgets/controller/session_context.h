#pragma once

#include "widgets/controller/snapshots.h"

#include <QObject>

namespace shardscope::widgets {

/// What every panel follows: the program shown, the current stage, the selection (a value or an
/// op, by stable id) and the execution position. Panels change it through its slots and redraw
/// on its signals, so selecting in one panel selects in all (the RenderDoc model).
class SessionContext : public QObject {
  Q_OBJECT

public:
  explicit SessionContext(QObject* parent = nullptr);

  ProgramSnapshotPtr program() const { return m_program; }
  /// Why no program is shown after a failed load ("F could not be loaded; its errors are in
  /// Problems."), empty otherwise: views that have nothing to draw say so instead of "No program
  /// loaded.".
  const QString& loadFailure() const { return m_loadFailure; }
  ExecutionSnapshotPtr execution() const { return m_execution; }
  StageId stage() const { return m_stage; }
  /// The stage compared with in diff mode, or -1 when diff mode is off; never the stage shown
  /// (`setDiffBase` and `setStage` move it to `defaultDiffBase` instead).
  int diffBase() const { return m_diffBase; }
  /// The program whose stage of the same name the stage shown is compared with (program vs
  /// program: `setDiffProgram`), or null. Exclusive with `diffBase`.
  ProgramSnapshotPtr diffProgram() const { return m_diffProgram; }
  /// What diff mode compares the stage shown with: another stage of this program or the same
  /// stage of the diff program; null when diff mode is off (or the base is not computed).
  const StageSnapshot* diffBaseStage() const;
  /// How views name that base: `propagated` (a stage), `v1.mlir (propagated)` (a program).
  QString diffBaseTitle() const;
  /// Whether diff mode is on (either kind).
  bool isDiffing() const { return m_diffBase >= 0 || m_diffProgram; }
  /// The selected value id (empty when an op or nothing is selected).
  QString selectedValue() const { return m_value; }
  /// The selected op id: the selected value's defining op, or a selected collective.
  QString selectedOp() const { return m_op; }
  /// The source line of the selection (0 for none).
  int selectedLine() const { return m_line; }

  /// The selected value's row in the current stage, or null.
  const ValueRow* selectedValueRow() const;
  /// The selected collective's row in the current stage, or null.
  const CollectiveRow* selectedCollectiveRow() const;
  /// Why the selected value has its sharding, once the engine answered (null before, or when
  /// the answer is for another value).
  ExplanationSnapshotPtr selectedExplanation() const {
    return m_explanation && m_explanation->valueId == m_value ? m_explanation : nullptr;
  }

public Q_SLOTS:
  void setProgram(shardscope::widgets::ProgramSnapshotPtr program);
  /// Shows no program because loading `path` failed (see `loadFailure`).
  void setLoadFailed(const QString& path);
  /// Takes a later snapshot of the program shown (the same `loadId`: a stage computed in the
  /// background) and emits `stagesUpdated`; when the stage shown or the diff base was among the
  /// stages computed, or the last stage arrived, also `programChanged` (so every view
  /// refreshes), keeping the selection and the execution. Snapshots of another load are ignored.
  void updateProgram(shardscope::widgets::ProgramSnapshotPtr program);
  void setExecution(shardscope::widgets::ExecutionSnapshotPtr execution);
  void setStage(shardscope::widgets::StageId stage);
  void setDiffBase(int stage);
  /// Compares every stage shown with the same stage of `other` (another program, loaded with
  /// `EngineController::loadDiffProgram`); null ends it. Turns a stage diff off, and
  /// `setDiffBase` with a stage turns this off.
  void setDiffProgram(shardscope::widgets::ProgramSnapshotPtr other);
  /// Selects a value by id (by name, `%0`, when no id matches); empty clears the selection.
  void selectValue(const QString& id);
  /// Selects an op by id (a collective, or any op).
  void selectOp(const QString& opId);
  /// Selects the first value or op at source line `line`.
  void selectLine(int line);
  /// The engine's explanation of a value's sharding (see `selectedExplanation`).
  void setExplanation(shardscope::widgets::ExplanationSnapshotPtr explanation);

Q_SIGNALS:
  void programChanged();
  /// A stage of the program shown was computed (or stopped): `program()` has it.
  void stagesUpdated();
  void stageChanged();
  void selectionChanged();
  void executionChanged();
  void explanationChanged();

private:
  ProgramSnapshotPtr m_program;
  QString m_loadFailure;
  ExecutionSnapshotPtr m_execution;
  ExplanationSnapshotPtr m_explanation;
  StageId m_stage = StageId::AsWritten;
  int m_diffBase = -1;
  ProgramSnapshotPtr m_diffProgram;
  QString m_value;
  QString m_op;
  int m_line = 0;
};

} // namespace shardscope::widgets
