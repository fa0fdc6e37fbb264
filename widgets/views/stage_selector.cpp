#include "widgets/views/stage_selector.h"

#include "widgets/controller/session_context.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>

namespace shardscope::widgets {

StageSelector::StageSelector(SessionContext* context, QWidget* parent)
    : QWidget(parent), m_context(context), m_stage(new QComboBox(this)),
      m_diff(new QCheckBox(tr("Diff against"), this)), m_base(new QComboBox(this)) {
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
  connect(m_stage, qOverload<int>(&QComboBox::currentIndexChanged), this, &StageSelector::apply);
  connect(m_base, qOverload<int>(&QComboBox::currentIndexChanged), this, &StageSelector::apply);
  connect(m_diff, &QCheckBox::toggled, this, [this](bool on) {
    // Turning diff on compares with the stage before the one shown.
    const int stage = m_stage->currentData().toInt();
    if (on && stage > 0) {
      m_updating = true;
      m_base->setCurrentIndex(stage - 1);
      m_updating = false;
    }
    apply();
  });
  connect(context, &SessionContext::stageChanged, this, &StageSelector::follow);
  follow();
}

void StageSelector::apply() {
  if (m_updating)
    return;
  const int stage = m_stage->currentData().toInt();
  if (m_diff->isChecked() && m_base->currentData().toInt() == stage && stage > 0) {
    m_updating = true;
    m_base->setCurrentIndex(stage - 1);
    m_updating = false;
  }
  m_base->setEnabled(m_diff->isChecked());
  m_context->setStage(static_cast<StageId>(stage));
  m_context->setDiffBase(m_diff->isChecked() ? m_base->currentData().toInt() : -1);
}

void StageSelector::follow() {
  m_updating = true;
  m_stage->setCurrentIndex(static_cast<int>(m_context->stage()));
  m_diff->setChecked(m_context->diffBase() >= 0);
  if (m_context->diffBase() >= 0)
    m_base->setCurrentIndex(m_context->diffBase());
  m_base->setEnabled(m_diff->isChecked());
  m_updating = false;
}

} // namespace shardscope::widgets
