#include "widgets/views/stage_selector.h"

#include "widgets/controller/session_context.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QStandardItemModel>

namespace shardscope::widgets {

StageSelector::StageSelector(SessionContext* context, QWidget* parent)
    : QWidget(parent), m_context(context), m_stage(new QComboBox(this)),
      m_diff(new QCheckBox(tr("Diff against"), this)), m_base(new QComboBox(this)),
      m_programDiff(new QLabel(this)) {
  setObjectName(QStringLiteral("stageSelector"));
  m_stage->setObjectName(QStringLiteral("stageCombo"));
  m_diff->setObjectName(QStringLiteral("diffToggle"));
  m_base->setObjectName(QStringLiteral("diffBaseCombo"));
  for (int s = 0; s < kNumStages; ++s) {
    const QString title = stageTitle(static_cast<StageId>(s));
    m_stage->addItem(title, s);
    m_base->addItem(title, s);
  }
  m_stage->setToolTip(tr("The pipeline stage every panel shows"));
  m_diff->setToolTip(tr("Mark shardings that changed and collectives that were added since "
                        "another stage"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 0, 4, 0);
  layout->addWidget(new QLabel(tr("Stage:"), this));
  layout->addWidget(m_stage);
  layout->addSpacing(12);
  layout->addWidget(m_diff);
  layout->addWidget(m_base);
  m_programDiff->setObjectName(QStringLiteral("programDiffLabel"));
  m_programDiff->hide();
  layout->addWidget(m_programDiff);
  connect(m_stage, qOverload<int>(&QComboBox::currentIndexChanged), this, &StageSelector::apply);
  connect(m_base, qOverload<int>(&QComboBox::currentIndexChanged), this, &StageSelector::apply);
  connect(m_diff, &QCheckBox::toggled, this, [this](bool on) {
    // Turning diff on compares with the stage before the one shown (a gradient stage: with the
    // other gradient stage).
    const int base = defaultDiffBase(static_cast<StageId>(m_stage->currentData().toInt()));
    if (on) {
      m_updating = true;
      m_base->setCurrentIndex(base);
      m_updating = false;
    }
    apply();
  });
  connect(context, &SessionContext::stageChanged, this, &StageSelector::follow);
  connect(context, &SessionContext::programChanged, this, &StageSelector::updateAvailability);
  connect(context, &SessionContext::stagesUpdated, this, &StageSelector::updateAvailability);
  updateAvailability();
  follow();
}

void StageSelector::updateAvailability() {
  // Stages a program does not have (the gradient of a function that is not scalar) stay listed,
  // disabled, with the reason as their tooltip. Stages still being computed are marked pending;
  // choosing one computes it first.
  const ProgramSnapshotPtr program = m_context->program();
  for (QComboBox* combo : {m_stage, m_base}) {
    auto* model = qobject_cast<QStandardItemModel*>(combo->model());
    if (!model)
      continue;
    for (int s = 0; s < kNumStages; ++s) {
      QStandardItem* item = model->item(s);
      const StageSnapshot* stage = program ? &program->stage(static_cast<StageId>(s)) : nullptr;
      const bool unavailable = stage && !stage->unavailable.isEmpty();
      const QString title = stageTitle(static_cast<StageId>(s));
      QString text = title;
      QString tip = unavailable ? tr("Not available: %1").arg(stage->unavailable)
                    : stage && !stage->description.isEmpty() ? stage->description
                                                              : QString();
      if (stage && stage->status == StageStatus::Pending) {
        text = tr("%1 (computing\u2026)").arg(title);
        tip = tr("Being computed in the background");
      } else if (stage && stage->status == StageStatus::Cancelled) {
        text = tr("%1 (not computed)").arg(title);
        tip = tr("Cancelled: choose it to compute it");
      }
      item->setText(text);
      item->setEnabled(!unavailable);
      item->setToolTip(tip);
    }
  }
  disableShownStage();
}

void StageSelector::apply() {
  if (m_updating)
    return;
  const int stage = m_stage->currentData().toInt();
  const int base = defaultDiffBase(static_cast<StageId>(stage));
  if (m_base->currentData().toInt() == stage) {
    m_updating = true;
    m_base->setCurrentIndex(base);
    m_updating = false;
  }
  disableShownStage();
  m_base->setEnabled(m_diff->isChecked());
  m_context->setStage(static_cast<StageId>(stage));
  m_context->setDiffBase(m_diff->isChecked() ? m_base->currentData().toInt() : -1);
}

void StageSelector::disableShownStage() {
  // The base list offers every stage but the one shown (a stage is not diffed with itself).
  auto* model = qobject_cast<QStandardItemModel*>(m_base->model());
  if (!model)
    return;
  const ProgramSnapshotPtr program = m_context->program();
  const int shown = m_stage->currentData().toInt();
  for (int s = 0; s < kNumStages; ++s) {
    const StageSnapshot* stage = program ? &program->stage(static_cast<StageId>(s)) : nullptr;
    const bool unavailable = stage && !stage->unavailable.isEmpty();
    model->item(s)->setEnabled(s != shown && !unavailable);
  }
}

void StageSelector::follow() {
  m_updating = true;
  m_stage->setCurrentIndex(static_cast<int>(m_context->stage()));
  m_diff->setChecked(m_context->diffBase() >= 0);
  if (m_context->diffBase() >= 0)
    m_base->setCurrentIndex(m_context->diffBase());
  else if (m_base->currentIndex() == m_stage->currentIndex())
    m_base->setCurrentIndex(defaultDiffBase(m_context->stage()));
  disableShownStage();
  m_base->setEnabled(m_diff->isChecked());
  // A program diff replaces the stage diff (View > Diff Against Another Program ends it).
  if (const ProgramSnapshotPtr other = m_context->diffProgram()) {
    m_programDiff->setText(tr("Program diff with <b>%1</b>")
                               .arg(QFileInfo(other->path).fileName().toHtmlEscaped()));
    m_programDiff->setToolTip(tr("Every stage is compared with the same stage of %1: values and "
                                 "collectives match by source location")
                                  .arg(other->path));
  }
  m_programDiff->setVisible(m_context->diffProgram() != nullptr);
  m_updating = false;
}

} // namespace shardscope::widgets
