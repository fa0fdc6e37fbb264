#include "widgets/views/execution_panel.h"

#include "widgets/controller/engine_controller.h"
#include "widgets/controller/session_context.h"
#include "widgets/models/device_values_model.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace shardscope::widgets {

namespace {

constexpr int kNumbersUpTo = 64; // elements; larger tensors are drawn as a heat map

QColor heat(double t, bool dark) {
  // Blue (low) through white/grey to red (high).
  t = std::clamp(t, 0.0, 1.0);
  const QColor mid = dark ? QColor(60, 60, 60) : QColor(250, 250, 250);
  const QColor lo(60, 110, 200), hi(210, 70, 50);
  const QColor& end = t < 0.5 ? lo : hi;
  const double f = t < 0.5 ? (0.5 - t) * 2 : (t - 0.5) * 2;
  return QColor::fromRgbF(mid.redF() + (end.redF() - mid.redF()) * f,
                          mid.greenF() + (end.greenF() - mid.greenF()) * f,
                          mid.blueF() + (end.blueF() - mid.blueF()) * f);
}

// "1 step", "12 steps".
QString stepsText(qint64 steps) {
  return steps == 1 ? TensorTile::tr("1 step") : TensorTile::tr("%1 steps").arg(steps);
}

} // namespace

TensorTile::TensorTile(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void TensorTile::setTensor(const QString& title, const TensorData& data, bool marked) {
  m_title = title;
  m_data = data;
  m_marked = marked;
  setToolTip(DeviceValuesModel::elementsText(data, 64));
  update();
}

void TensorTile::setMarkedElements(QVector<bool> marked) {
  m_markedElements = std::move(marked);
  update();
}

int TensorTile::markedElementCount() const {
  return static_cast<int>(std::count(m_markedElements.begin(), m_markedElements.end(), true));
}

void TensorTile::setRange(double lo, double hi) {
  m_lo = lo;
  m_hi = hi;
  update();
}

void TensorTile::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const bool dark = palette().color(QPalette::Base).lightness() < 128;
  painter.fillRect(rect(), palette().color(QPalette::Base));
  painter.setPen(QPen(m_marked ? QColor(0xd0, 0x30, 0x30) : palette().color(QPalette::Mid),
                      m_marked ? 3 : 1));
  painter.drawRect(rect().adjusted(0, 0, -1, -1));
  QFont small = font();
  small.setPointSizeF(font().pointSizeF() * 0.85);
  const QFontMetrics fm(small);
  painter.setFont(small);
  painter.setPen(palette().color(QPalette::Text));
  QStringList dims;
  for (qint64 d : m_data.shape)
    dims.push_back(QString::number(d));
  const QString header = m_data.valid ? QStringLiteral("%1  [%2]").arg(m_title, dims.join(QLatin1Char('x'))) : m_title;
  painter.drawText(QRect(4, 2, width() - 8, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(header, Qt::ElideRight, width() - 8));
  const QRectF area(4, fm.height() + 4, width() - 8, height() - fm.height() - 8);
  if (!m_data.valid || m_data.values.isEmpty()) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(area, Qt::AlignCenter | Qt::TextWordWrap,
                     m_data.note.isEmpty() ? tr("not computed yet") : m_data.note);
    return;
  }
  const int n = m_data.values.size();
  const int cols = m_data.shape.isEmpty() ? 1 : static_cast<int>(qMax<qint64>(1, m_data.shape.last()));
  const int rows = (n + cols - 1) / cols;
  const auto [minIt, maxIt] = std::minmax_element(m_data.values.begin(), m_data.values.end());
  const double lo = m_hi > m_lo ? m_lo : *minIt;
  const double span = m_hi > m_lo ? m_hi - m_lo : *maxIt - *minIt;
  const double cw = area.width() / cols;
  const double ch = area.height() / rows;
  const bool numbers = n <= kNumbersUpTo &&
                       cw >= fm.horizontalAdvance(QStringLiteral("-0.00")) + 2 && ch >= fm.height();
  for (int i = 0; i < n; ++i) {
    const QRectF cell(area.left() + (i % cols) * cw, area.top() + (i / cols) * ch, cw, ch);
    const double t = span > 0 ? (m_data.values[i] - lo) / span : 0.5;
    painter.fillRect(cell, heat(numbers ? 0.5 + (t - 0.5) * 0.4 : t, dark));
    if (m_markedElements.value(i)) {
      painter.save();
      painter.setPen(QPen(QColor(0xd0, 0x30, 0x30), 2));
      painter.setBrush(Qt::NoBrush);
      painter.drawRect(cell.adjusted(1, 1, -1, -1));
      painter.restore();
    }
    if (numbers) {
      painter.setPen(palette().color(QPalette::Text));
      painter.drawText(cell, Qt::AlignCenter,
                       fm.elidedText(QString::number(m_data.values[i], 'g', 3), Qt::ElideRight,
                                     static_cast<int>(cw)));
    }
  }
}

ExecutionPanel::ExecutionPanel(EngineController* controller, SessionContext* context,
                               QWidget* parent)
    : QWidget(parent), m_controller(controller), m_context(context),
      m_backend(new QComboBox(this)), m_ranks(new QSpinBox(this)), m_inputs(new QLineEdit(this)),
      m_reference(new QCheckBox(tr("Reference check"), this)),
      m_buttonRow(new QWidget(this)), m_status(new QLabel(this)), m_valueTitle(new QLabel(this)),
      m_tileBox(new QWidget(this)), m_tileLayout(new QGridLayout(m_tileBox)),
      m_global(new TensorTile(this)), m_referenceTile(new TensorTile(this)),
      m_divergences(new QLabel(this)), m_table(new QTableView(this)),
      m_model(new DeviceValuesModel(this)) {
  setObjectName(QStringLiteral("executionPanel"));
  m_backend->setObjectName(QStringLiteral("backendCombo"));
  m_backend->addItem(tr("Local"), QStringLiteral("local"));
  m_backend->addItem(tr("MPI"), QStringLiteral("mpi"));
  m_backend->setToolTip(tr("Local: every device of the mesh runs in this process, one thread "
                           "each.\nMPI: the run goes to 'mpirun -np N shardscope-cli serve "
                           "--backend mpi' in a child process; each rank runs a share of the "
                           "devices."));
  m_ranks->setObjectName(QStringLiteral("mpiRanksSpin"));
  m_ranks->setRange(1, 64);
  m_ranks->setValue(2);
  m_ranks->setSuffix(tr(" ranks"));
  m_ranks->setToolTip(tr("MPI ranks (processes); the mesh's devices are split evenly over them"));
  m_ranks->setEnabled(false);
  connect(m_backend, qOverload<int>(&QComboBox::currentIndexChanged), this,
          &ExecutionPanel::applyBackend);
  connect(m_ranks, qOverload<int>(&QSpinBox::valueChanged), this, &ExecutionPanel::applyBackend);
  m_inputs->setObjectName(QStringLiteral("inputsEdit"));
  m_inputs->setText(QStringLiteral("iota"));
  m_inputs->setPlaceholderText(tr("iota, zeros, ones, random:SEED, N=file.npy"));
  m_inputs->setToolTip(tr("Inputs: comma-separated GEN (every argument) or N=GEN / N=FILE.npy, "
                          "where GEN is zeros, ones, iota or random[:SEED]."));
  m_reference->setChecked(true);
  m_status->setObjectName(QStringLiteral("executionStatus"));
  m_status->setWordWrap(true);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_divergences->setWordWrap(true);
  m_divergences->setObjectName(QStringLiteral("divergenceLabel"));
  m_global->setObjectName(QStringLiteral("globalValueTile"));
  m_referenceTile->setObjectName(QStringLiteral("referenceValueTile"));

  auto* setup = new QHBoxLayout;
  setup->addWidget(new QLabel(tr("Backend:"), this));
  setup->addWidget(m_backend);
  setup->addWidget(m_ranks);
  setup->addWidget(new QLabel(tr("Inputs:"), this));
  setup->addWidget(m_inputs, 1);
  setup->addWidget(m_reference);

  createButtons();

  m_tileLayout->setContentsMargins(0, 0, 0, 0);
  m_tileLayout->setSpacing(4);
  auto* tilesAndTotals = new QWidget(this);
  auto* th = new QHBoxLayout(tilesAndTotals);
  th->setContentsMargins(0, 0, 0, 0);
  th->addWidget(m_tileBox, 3);
  auto* right = new QVBoxLayout;
  right->addWidget(m_global);
  right->addWidget(m_referenceTile);
  th->addLayout(right, 1);

  m_table->setObjectName(QStringLiteral("deviceValuesTable"));
  m_table->setModel(m_model);
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setStretchLastSection(true);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);

  // The value side by side on the devices, or as a table with one row per device.
  auto* tabs = new QTabWidget(this);
  tabs->setObjectName(QStringLiteral("executionTabs"));
  tabs->setDocumentMode(true);
  tabs->addTab(tilesAndTotals, tr("Side by side"));
  tabs->addTab(m_table, tr("Table"));

  auto* layout = new QVBoxLayout(this);
  layout->setSpacing(4);
  layout->addLayout(setup);
  layout->addWidget(m_buttonRow);
  layout->addWidget(m_status);
  layout->addWidget(m_valueTitle);
  layout->addWidget(tabs, 1);
  layout->addWidget(m_divergences);

  connect(context, &SessionContext::executionChanged, this, &ExecutionPanel::refresh);
  connect(context, &SessionContext::programChanged, this, &ExecutionPanel::refresh);
  connect(context, &SessionContext::selectionChanged, this, [this] {
    m_controller->watchValue(m_context->selectedValue());
    refresh();
  });
  connect(controller, &EngineController::busyChanged, this, &ExecutionPanel::updateButtons);
  refresh();
}

void ExecutionPanel::applyBackend() {
  const bool mpi = m_backend->currentData().toString() == QLatin1String("mpi");
  m_ranks->setEnabled(mpi);
  m_controller->setBackend(mpi ? EngineController::Backend::Mpi : EngineController::Backend::Local,
                           m_ranks->value());
}

void ExecutionPanel::createButtons() {
  auto* buttons = new QHBoxLayout(m_buttonRow);
  buttons->setContentsMargins(0, 0, 0, 0);
  m_start = new QPushButton(tr("Start"), this);
  m_start->setObjectName(QStringLiteral("startButton"));
  m_start->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+F5")));
  m_start->setToolTip(tr("Start (or restart) the run (Ctrl+Shift+F5)"));
  // Styles give push buttons a minimum of ~80 px, which makes the row wider than a bottom dock
  // of a 1440 px window; the buttons may shrink to their text when space is short.
  m_start->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
  m_start->setMinimumWidth(m_start->fontMetrics().horizontalAdvance(tr("Restart")) + 16);
  buttons->addWidget(m_start);
  connect(m_start, &QPushButton::clicked, this, [this] {
    m_controller->watchValue(m_context->selectedValue());
    // Runs follow the stage shown: a gradient stage runs its gradient on the mesh.
    m_controller->setRunStage(m_context->stage());
    m_controller->startExecution(m_inputs->text(), m_reference->isChecked());
  });
  using K = EngineController::StepKind;
  const struct {
    const char* name;
    QString text;
    QKeySequence key;
    QString tip;
    K kind;
  } steps[] = {
      {"stepButton", tr("Step"), QKeySequence(Qt::Key_F6), tr("One op on every device (F6)"), K::Step},
      {"stepIntoButton", tr("Into"), QKeySequence(Qt::Key_F11), tr("One op, entering regions (F11)"), K::Step},
      {"stepOverButton", tr("Over"), QKeySequence(Qt::Key_F10), tr("One op; ops with regions run to their end (F10)"), K::StepOver},
      {"stepOutButton", tr("Out"), QKeySequence(QStringLiteral("Shift+F11")), tr("Run until the current region returns (Shift+F11)"), K::StepOut},
      {"continueButton", tr("Continue"), QKeySequence(Qt::Key_F5), tr("Run to the next breakpoint (F5)"), K::Continue},
      {"runToEndButton", tr("To End"), QKeySequence(QStringLiteral("Ctrl+F5")), tr("Run to the end, ignoring breakpoints (Ctrl+F5)"), K::RunToEnd},
  };
  for (const auto& s : steps) {
    QPushButton* b = addButton(QString::fromLatin1(s.name), s.text, s.key, s.tip);
    const K kind = s.kind;
    connect(b, &QPushButton::clicked, this, [this, kind] {
      m_controller->watchValue(m_context->selectedValue());
      m_controller->step(kind);
    });
    buttons->addWidget(b);
    m_stepButtons.push_back(b);
  }
  auto* runTo = addButton(QStringLiteral("runToSelectionButton"), tr("To Selection"),
                          QKeySequence(QStringLiteral("Ctrl+F10")),
                          tr("Run until a device reaches the selected op (Ctrl+F10)"));
  connect(runTo, &QPushButton::clicked, this, [this] {
    if (m_context->selectedOp().isEmpty())
      return;
    m_controller->watchValue(m_context->selectedValue());
    m_controller->runTo(m_context->selectedOp());
  });
  buttons->addWidget(runTo);
  m_stepButtons.push_back(runTo);
  auto* stop = addButton(QStringLiteral("cancelButton"), tr("Cancel"), QKeySequence(),
                         tr("Stop a long run between steps"));
  connect(stop, &QPushButton::clicked, m_controller, &EngineController::cancel);
  buttons->addWidget(stop);
  m_breakpoint = addButton(QStringLiteral("breakpointButton"), tr("Breakpoint"),
                           QKeySequence(Qt::Key_F9), tr("Toggle a breakpoint on the selected op (F9)"));
  connect(m_breakpoint, &QPushButton::clicked, this, [this] {
    const QString op = m_context->selectedOp();
    if (!op.isEmpty())
      m_controller->setBreakpoint(op, !m_controller->breakpoints().contains(op));
  });
  buttons->addWidget(m_breakpoint);
  buttons->addStretch();
}

QPushButton* ExecutionPanel::addButton(const QString& name, const QString& text,
                                       const QKeySequence& key, const QString& tip) {
  auto* b = new QPushButton(text, this);
  b->setObjectName(name);
  if (!key.isEmpty())
    b->setShortcut(key);
  b->setToolTip(tip);
  b->setAutoDefault(false);
  b->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
  b->setMinimumWidth(b->fontMetrics().horizontalAdvance(text) + 16);
  return b;
}

void ExecutionPanel::updateButtons() {
  const ExecutionSnapshotPtr e = m_context->execution();
  const bool busy = m_controller->isBusy();
  const bool canStep = e && e->started && !e->finished && !e->failed && !busy;
  for (QPushButton* b : m_stepButtons)
    b->setEnabled(canStep);
  m_start->setEnabled(m_context->program() && !busy);
  m_start->setText(e && e->started ? tr("Restart") : tr("Start"));
}

void ExecutionPanel::refresh() {
  const ExecutionSnapshotPtr e = m_context->execution();
  m_model->setExecution(e);
  updateButtons();
  const ValueRow* value = m_context->selectedValueRow();
  if (!e) {
    m_status->setText(m_context->program()
                          ? tr("Press Start to run the per-device program on every device of the mesh.")
                          : tr("Open a program to run it."));
  } else {
    m_status->setText(statusText(*e));
  }
  m_valueTitle->setText(value ? tr("Value <b>%1</b> %2 on every device:")
                                    .arg(value->name.toHtmlEscaped(), value->typed.toHtmlEscaped())
                              : tr("Select a value to see it on every device."));
  // A run that failed before it started has no device rows: keep the mesh's tiles.
  const int numDevices = e && !e->devices.isEmpty()
                             ? e->devices.size()
                             : (m_context->program() ? static_cast<int>(m_context->program()->mesh.numDevices()) : 0);
  while (m_tiles.size() > numDevices)
    delete m_tiles.takeLast();
  const int columns = qMax(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(numDevices)))));
  while (m_tiles.size() < numDevices) {
    auto* tile = new TensorTile(m_tileBox);
    tile->setObjectName(QStringLiteral("deviceTile%1").arg(m_tiles.size()));
    m_tileLayout->addWidget(tile, m_tiles.size() / columns, m_tiles.size() % columns);
    m_tiles.push_back(tile);
  }
  for (int d = 0; d < m_tiles.size(); ++d) {
    const qint64 device = e && d < e->devices.size() ? e->devices[d].device : d;
    TensorData data = e && e->valueId == m_context->selectedValue() ? e->perDevice.value(d) : TensorData();
    if (!data.valid && data.note.isEmpty())
      data.note = e ? tr("no value on this device") : tr("not running");
    const int rank = e && d < e->devices.size() ? e->devices[d].rank : -1;
    m_tiles[d]->setTensor(rank >= 0 ? tr("device %1 (rank %2)").arg(device).arg(rank)
                                    : tr("device %1").arg(device),
                          data,
                          e && e->divergingDevices.contains(device));
  }
  const bool same = e && e->valueId == m_context->selectedValue();
  TensorData global = same ? e->global : TensorData();
  if (!global.valid && global.note.isEmpty())
    global.note = tr("no value");
  m_global->setTensor(tr("global (assembled)"), global, same && !e->replicaProblem.isEmpty());
  TensorData reference = same ? e->reference : TensorData();
  if (!reference.valid)
    reference.note = e ? e->referenceSummary : tr("no reference");
  m_referenceTile->setTensor(tr("reference"), reference, false);
  // One colour scale for every tile of the value.
  double lo = 0, hi = 0;
  bool first = true;
  QList<TensorTile*> all = m_tiles;
  all << m_global << m_referenceTile;
  for (TensorTile* t : all)
    for (double v : t->tensor().values) {
      if (!std::isfinite(v))
        continue;
      lo = first ? v : std::min(lo, v);
      hi = first ? v : std::max(hi, v);
      first = false;
    }
  for (TensorTile* t : all)
    t->setRange(lo, hi);
  // The elements of the assembled value that differ from the reference (the engine's default
  // float tolerance: relative 1e-4 and absolute 1e-5 of the reference's largest magnitude).
  QVector<bool> diverging;
  if (global.valid && reference.valid && global.values.size() == reference.values.size()) {
    double scale = 0;
    for (double v : reference.values)
      scale = std::max(scale, std::abs(v));
    diverging.resize(global.values.size());
    for (int i = 0; i < global.values.size(); ++i) {
      const double a = global.values[i], b = reference.values[i];
      diverging[i] = std::abs(a - b) > 1e-4 * std::abs(b) + 1e-5 * scale + 1e-12 &&
                     !(std::isnan(a) && std::isnan(b));
    }
  }
  m_global->setMarkedElements(diverging);
  QStringList problems;
  if (e) {
    if (!e->replicaProblem.isEmpty())
      problems.push_back(e->replicaProblem);
    problems += e->divergences;
  }
  for (QString& p : problems)
    p = p.toHtmlEscaped();
  m_divergences->setText(problems.isEmpty() ? QString()
                                            : QStringLiteral("<span style='color:#d03030'>%1</span>")
                                                  .arg(problems.join(QStringLiteral("<br>"))));
  m_divergences->setVisible(!problems.isEmpty());
}

QString ExecutionPanel::statusText(const ExecutionSnapshot& e) const {
  QString where;
  if (e.backend == QLatin1String("mpi"))
    where = tr(" on MPI (%1 ranks)").arg(e.numRanks);
  else if (e.backend == QLatin1String("serve"))
    where = tr(" in a server process");
  if (!e.failure.isEmpty()) {
    // The server died or hung: say so first, with its exit status and last messages.
    QString failure = e.failure.toHtmlEscaped();
    failure.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    return tr("<span style='color:#d03030'><b>failed</b>%1 after %2.</span> %3<br>"
              "Press Start for a new run.")
        .arg(where.toHtmlEscaped(), stepsText(e.steps), failure);
  }
  if (e.failed) {
    // Where the run stopped and why: the engine's error, at its op and line.
    const ProblemRow* error = nullptr;
    for (const ProblemRow& p : e.problems)
      if (p.isError())
        error = &p;
    QString at;
    if (error && !error->opId.isEmpty())
      at = tr(" at %1 (line %2)").arg(error->opId.section(QLatin1Char(':'), 2)).arg(error->line);
    else if (error && error->line > 0)
      at = tr(" at line %1").arg(error->line);
    const QString what = e.started ? tr("failed%1%2 after %3").arg(where, at, stepsText(e.steps))
                                   : tr("could not start%1%2").arg(where, at);
    return tr("<span style='color:#d03030'><b>%1:</b></span> %2<br>Press Start for a new run.")
        .arg(what.toHtmlEscaped(),
             error ? error->message.toHtmlEscaped() : e.stopReason.toHtmlEscaped());
  }
  QStringList next;
  for (const DevicePosition& p : e.devices)
    if (!p.op.isEmpty()) {
      const QString item = QStringLiteral("%1 (line %2)").arg(p.op).arg(p.line);
      if (!next.contains(item))
        next.push_back(item);
    }
  return tr("<b>%1</b>%2 after %3. Next: %4. %5")
      .arg(e.stopReason.toHtmlEscaped(), where.toHtmlEscaped(), stepsText(e.steps),
           next.isEmpty() ? tr("nothing (finished)") : next.join(QStringLiteral(", ")).toHtmlEscaped(),
           e.referenceSummary.toHtmlEscaped());
}

} // namespace shardscope::widgets
