#include "widgets/controller/session_context.h"

#include <QFileInfo>

namespace shardscope::widgets {

SessionContext::SessionContext(QObject* parent) : QObject(parent) {}

const ValueRow* SessionContext::selectedValueRow() const {
  if (!m_program || m_value.isEmpty())
    return nullptr;
  return m_program->findValue(m_stage, m_value);
}

const CollectiveRow* SessionContext::selectedCollectiveRow() const {
  if (!m_program || m_op.isEmpty())
    return nullptr;
  return m_program->findCollective(m_stage, m_op);
}

void SessionContext::setLoadFailed(const QString& path) {
  m_loadFailure =
      tr("%1 could not be loaded; its errors are in Problems.").arg(QFileInfo(path).fileName());
  setProgram(nullptr);
}

void SessionContext::setProgram(ProgramSnapshotPtr program) {
  if (program)
    m_loadFailure.clear();
  m_program = std::move(program);
  m_execution.reset();
  // A program is never diffed with itself.
  if (m_program && m_diffProgram && m_diffProgram->path == m_program->path)
    m_diffProgram.reset();
  Q_EMIT programChanged();
  // Keep the selection when the value still exists (a reload), else clear it.
  if (!m_value.isEmpty() && !selectedValueRow()) {
    m_value.clear();
    m_op.clear();
    m_line = 0;
  }
  Q_EMIT selectionChanged();
  Q_EMIT executionChanged();
}

void SessionContext::updateProgram(ProgramSnapshotPtr program) {
  if (!program || !m_program || program == m_program || program->loadId != m_program->loadId)
    return;
  auto changed = [&](int s) {
    return s >= 0 && s < kNumStages && m_program->stages[s].status != program->stages[s].status;
  };
  // Views that show other stages than the current one (the gradients side by side) refresh
  // once more when the last stage arrives.
  const bool shownChanged = changed(static_cast<int>(m_stage)) || changed(m_diffBase) ||
                            (program->allStagesComputed() && !m_program->allStagesComputed());
  m_program = std::move(program);
  Q_EMIT stagesUpdated();
  if (shownChanged) {
    Q_EMIT programChanged();
    Q_EMIT selectionChanged();
  }
}

void SessionContext::setExplanation(ExplanationSnapshotPtr explanation) {
  m_explanation = std::move(explanation);
  Q_EMIT explanationChanged();
}

void SessionContext::setExecution(ExecutionSnapshotPtr execution) {
  m_execution = std::move(execution);
  Q_EMIT executionChanged();
}

void SessionContext::setStage(StageId stage) {
  if (stage == m_stage)
    return;
  m_stage = stage;
  // A stage is never diffed with itself: the diff moves to the stage's default base.
  if (m_diffBase == static_cast<int>(stage))
    m_diffBase = defaultDiffBase(stage);
  Q_EMIT stageChanged();
  Q_EMIT selectionChanged();
}

void SessionContext::setDiffBase(int stage) {
  if (stage == static_cast<int>(m_stage))
    stage = defaultDiffBase(m_stage); // never the stage itself
  if (stage == m_diffBase && !(stage >= 0 && m_diffProgram))
    return;
  m_diffBase = stage;
  if (stage >= 0)
    m_diffProgram.reset();
  Q_EMIT stageChanged();
}

void SessionContext::setDiffProgram(ProgramSnapshotPtr other) {
  if (other == m_diffProgram)
    return;
  m_diffProgram = std::move(other);
  if (m_diffProgram)
    m_diffBase = -1;
  Q_EMIT stageChanged();
}

const StageSnapshot* SessionContext::diffBaseStage() const {
  if (m_diffProgram) {
    const StageSnapshot& base = m_diffProgram->stage(m_stage);
    return base.status == StageStatus::Computed && base.available ? &base : nullptr;
  }
  if (!m_program || m_diffBase < 0 || m_diffBase == static_cast<int>(m_stage))
    return nullptr;
  return &m_program->stage(static_cast<StageId>(m_diffBase));
}

QString SessionContext::diffBaseTitle() const {
  if (m_diffProgram)
    return QStringLiteral("%1 (%2)").arg(QFileInfo(m_diffProgram->path).fileName(),
                                         stageTitle(m_stage).toLower());
  return m_diffBase >= 0 ? stageTitle(static_cast<StageId>(m_diffBase)).toLower() : QString();
}

void SessionContext::selectValue(const QString& id) {
  QString resolved = id;
  const ValueRow* row = nullptr;
  if (m_program) {
    for (int s = static_cast<int>(m_stage); !row && s >= 0; --s)
      row = m_program->findValue(static_cast<StageId>(s), id);
    // By name: in the stage shown, else in the stages before it that are computed already (the
    // later ones may still be computing in the background; ids are the same in every stage).
    for (int s = static_cast<int>(m_stage); !row && s >= 0; --s)
      for (const ValueRow& r : m_program->stage(static_cast<StageId>(s)).values)
        if (r.name == id || r.name == QStringLiteral("%") + id) {
          row = &r;
          resolved = r.id;
          break;
        }
  }
  const QString op = row ? row->opId : QString();
  const int line = row ? row->line : 0;
  if (resolved == m_value && op == m_op && line == m_line)
    return;
  m_value = row || id.isEmpty() ? resolved : id;
  m_op = op;
  m_line = line;
  Q_EMIT selectionChanged();
}

void SessionContext::selectOp(const QString& opId) {
  // An op that is not a collective of this stage is shown through its first result.
  if (m_program && !m_program->findCollective(m_stage, opId))
    for (const ValueRow& v : m_program->stage(m_stage).values)
      if (v.opId == opId && v.id.contains(QLatin1Char('#'))) {
        selectValue(v.id);
        return;
      }
  if (opId == m_op && m_value.isEmpty())
    return;
  m_op = opId;
  m_value.clear();
  m_line = opId.section(QLatin1Char(':'), 0, 0).toInt();
  Q_EMIT selectionChanged();
}

void SessionContext::selectLine(int line) {
  if (m_program) {
    for (const CollectiveRow& c : m_program->stage(m_stage).collectives)
      if (c.line == line && m_stage == StageId::Partitioned) {
        selectOp(c.opId);
        return;
      }
    for (const ValueRow& v : m_program->stage(m_stage).values)
      if (v.line == line && !v.opId.isEmpty()) {
        selectValue(v.id);
        return;
      }
  }
  m_value.clear();
  m_op.clear();
  m_line = line;
  Q_EMIT selectionChanged();
}

} // namespace shardscope::widgets
