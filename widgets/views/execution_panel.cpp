#include "widgets/views/execution_panel.h"

#include "widgets/controller/engine_controller.h"
#include "widgets/controller/session_context.h"
#include "widgets/models/device_values_model.h"
#include "widgets/views/mpi_hosts_bar.h"
#include "widgets/views/timeline_bar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLinearGradient>
#include <QMetaObject>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSet>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

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

} // namespace

TensorTile::TensorTile(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void TensorTile::setTensor(const QString& title, const TensorData& data, bool marked) {
  m_title = title;
  m_data = data;
  m_marked = marked;
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

namespace {

QFont smallFont(const QFont& font) {
  QFont small = font;
  small.setPointSizeF(font.pointSizeF() * 0.85);
  return small;
}

QString numberText(double v, int precision = 4) { return QString::number(v, 'g', precision); }

// "1 step", "12 steps".
QString stepsText(qint64 steps) {
  return steps == 1 ? TensorTile::tr("1 step") : TensorTile::tr("%1 steps").arg(steps);
}

} // namespace

int TensorTile::columns() const {
  return m_data.shape.isEmpty() ? 1 : static_cast<int>(qMax<qint64>(1, m_data.shape.last()));
}

int TensorTile::rows() const {
  const int cols = columns();
  return qMax(1, (static_cast<int>(m_data.values.size()) + cols - 1) / cols);
}

bool TensorTile::isHeatMap() const {
  if (!m_data.valid || m_data.values.isEmpty())
    return false;
  const QFontMetrics fm(smallFont(font()));
  const QRectF area(4, fm.height() + 4, width() - 8, height() - fm.height() - 8);
  const double cw = area.width() / columns(), ch = area.height() / rows();
  return m_data.values.size() > kNumbersUpTo ||
         cw < fm.horizontalAdvance(QStringLiteral("-0.00")) + 2 || ch < fm.height();
}

QRectF TensorTile::legendArea() const {
  const QFontMetrics fm(smallFont(font()));
  return isHeatMap() ? QRectF(4, height() - fm.height() - 4, width() - 8, fm.height()) : QRectF();
}

QRectF TensorTile::elementArea() const {
  const QFontMetrics fm(smallFont(font()));
  const double bottom = isHeatMap() ? legendArea().top() - 3 : height() - 4;
  return QRectF(4, fm.height() + 4, width() - 8, bottom - fm.height() - 4);
}

QRectF TensorTile::cellRect(int index) const {
  const QRectF area = elementArea();
  const int cols = columns();
  const double cw = area.width() / cols, ch = area.height() / rows();
  return QRectF(area.left() + (index % cols) * cw, area.top() + (index / cols) * ch, cw, ch);
}

int TensorTile::elementAt(const QPoint& pos) const {
  if (!m_data.valid || m_data.values.isEmpty())
    return -1;
  const QRectF area = elementArea();
  if (!area.contains(pos))
    return -1;
  const int cols = columns();
  const int c =
      qBound(0, static_cast<int>((pos.x() - area.left()) / (area.width() / cols)), cols - 1);
  const int r =
      qBound(0, static_cast<int>((pos.y() - area.top()) / (area.height() / rows())), rows() - 1);
  const int index = r * cols + c;
  return index < m_data.values.size() ? index : -1;
}

QString TensorTile::indexText(const QVector<qint64>& shape, qint64 index) {
  if (shape.isEmpty())
    return tr("(scalar)");
  QStringList parts;
  for (int d = shape.size() - 1; d >= 0; --d) {
    const qint64 size = qMax<qint64>(1, shape[d]);
    parts.prepend(QString::number(index % size));
    index /= size;
  }
  return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
}

QString TensorTile::toolTipAt(const QPoint& pos) const {
  const int index = elementAt(pos);
  if (index < 0) {
    QStringList dims;
    for (qint64 d : m_data.shape)
      dims.push_back(QString::number(d));
    return m_data.valid ? QStringLiteral("%1 [%2]").arg(m_title, dims.join(QLatin1Char('x')))
                        : QStringLiteral("%1: %2").arg(m_title, m_data.note);
  }
  QString tip = QStringLiteral("%1 %2 = %3")
                    .arg(m_title, indexText(m_data.shape, index),
                         QString::number(m_data.values[index], 'g', 8));
  if (m_markedElements.value(index))
    tip += tr(" (differs from the reference)");
  return tip;
}

bool TensorTile::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    QToolTip::showText(help->globalPos(), toolTipAt(help->pos()), this);
    return true;
  }
  return QWidget::event(event);
}

QStringList TensorTile::legendText() const {
  if (!isHeatMap())
    return {};
  // Enough digits that the two ends read differently when they differ (tanh's results near 1).
  const auto [lo, hi] = colourRange();
  int precision = 4;
  while (precision < 9 && lo != hi && numberText(lo, precision) == numberText(hi, precision))
    ++precision;
  return {numberText(lo, precision), numberText(hi, precision)};
}

std::pair<double, double> TensorTile::colourRange() const {
  if (m_hi > m_lo)
    return {m_lo, m_hi};
  double lo = 0, hi = 0;
  bool first = true;
  for (double v : m_data.values)
    if (std::isfinite(v)) {
      lo = first ? v : std::min(lo, v);
      hi = first ? v : std::max(hi, v);
      first = false;
    }
  return {lo, hi};
}

void TensorTile::paintLegend(QPainter& painter, bool dark) const {
  // The colour scale: the low end's value, the gradient, the high end's value.
  const QRectF area = legendArea();
  const QStringList ends = legendText();
  const QFontMetrics fm(painter.font());
  const double loW = fm.horizontalAdvance(ends[0]) + 4, hiW = fm.horizontalAdvance(ends[1]) + 4;
  painter.setPen(palette().color(QPalette::Text));
  painter.drawText(QRectF(area.left(), area.top(), loW, area.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, ends[0]);
  painter.drawText(QRectF(area.right() - hiW, area.top(), hiW, area.height()),
                   Qt::AlignRight | Qt::AlignVCenter, ends[1]);
  const QRectF bar(area.left() + loW, area.center().y() - 3, area.width() - loW - hiW, 6);
  if (bar.width() <= 4)
    return;
  QLinearGradient gradient(bar.topLeft(), bar.topRight());
  for (double t : {0.0, 0.25, 0.5, 0.75, 1.0})
    gradient.setColorAt(t, heat(t, dark));
  painter.fillRect(bar, gradient);
  painter.setPen(palette().color(QPalette::Mid));
  painter.drawRect(bar);
}

void TensorTile::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const bool dark = palette().color(QPalette::Base).lightness() < 128;
  painter.fillRect(rect(), palette().color(QPalette::Base));
  painter.setPen(QPen(m_marked ? QColor(0xd0, 0x30, 0x30) : palette().color(QPalette::Mid),
                      m_marked ? 3 : 1));
  painter.drawRect(rect().adjusted(0, 0, -1, -1));
  const QFont small = smallFont(font());
  const QFontMetrics fm(small);
  painter.setFont(small);
  painter.setPen(palette().color(QPalette::Text));
  QStringList dims;
  for (qint64 d : m_data.shape)
    dims.push_back(QString::number(d));
  const QString header = m_data.valid ? QStringLiteral("%1  [%2]").arg(m_title, dims.join(QLatin1Char('x'))) : m_title;
  painter.drawText(QRect(4, 2, width() - 8, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(header, Qt::ElideRight, width() - 8));
  if (!m_data.valid || m_data.values.isEmpty()) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(elementArea(), Qt::AlignCenter | Qt::TextWordWrap,
                     m_data.note.isEmpty() ? tr("not computed yet") : m_data.note);
    return;
  }
  const bool numbers = !isHeatMap();
  const auto [lo, hi] = colourRange();
  const double span = hi - lo;
  for (int i = 0; i < m_data.values.size(); ++i) {
    const QRectF cell = cellRect(i);
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
                                     static_cast<int>(cell.width())));
    }
  }
  if (!numbers)
    paintLegend(painter, dark);
}

ExecutionPanel::ExecutionPanel(EngineController* controller, SessionContext* context,
                               QWidget* parent)
    : QWidget(parent), m_controller(controller), m_context(context), m_backend(new QComboBox(this)),
      m_ranks(new QSpinBox(this)), m_hosts(new MpiHostsBar(this)), m_inputs(new QLineEdit(this)),
      m_reference(new QCheckBox(tr("Reference check"), this)), m_buttonRow(new QWidget(this)),
      m_timelineBar(new TimelineBar(this)), m_status(new QLabel(this)),
      m_valueTitle(new QLabel(this)), m_tileBox(new QWidget(this)),
      m_tileLayout(new QGridLayout(m_tileBox)), m_global(new TensorTile(this)),
      m_referenceTile(new TensorTile(this)), m_divergences(new QLabel(this)),
      m_table(new QTableView(this)), m_model(new DeviceValuesModel(this)) {
  setObjectName(QStringLiteral("executionPanel"));
  m_backend->setObjectName(QStringLiteral("backendCombo"));
  m_backend->addItem(tr("Local"), QStringLiteral("local"));
  m_backend->addItem(tr("MPI"), QStringLiteral("mpi"));
  m_backend->setToolTip(tr("Local: every device of the mesh runs in this process, one thread "
                           "each.\nMPI: the run goes to 'mpirun [--hostfile FILE] -np N "
                           "shardscope-cli serve --backend mpi' in a child process; each rank "
                           "runs a share of the devices."));
  m_ranks->setObjectName(QStringLiteral("mpiRanksSpin"));
  m_ranks->setRange(1, 64);
  m_ranks->setValue(2);
  m_ranks->setSuffix(tr(" ranks"));
  m_ranks->setToolTip(tr("MPI ranks (processes); the mesh's devices are split evenly over them"));
  m_ranks->setEnabled(false);
  {
    const QSettings settings;
    m_ranks->setValue(settings.value(QStringLiteral("execution/mpiRanks"), 2).toInt());
    if (settings.value(QStringLiteral("execution/backend")).toString() == QLatin1String("mpi"))
      m_backend->setCurrentIndex(1);
  }
  connect(m_backend, qOverload<int>(&QComboBox::currentIndexChanged), this,
          &ExecutionPanel::applyBackend);
  connect(m_ranks, qOverload<int>(&QSpinBox::valueChanged), this, &ExecutionPanel::applyBackend);
  connect(m_hosts, &MpiHostsBar::hostsChanged, this, &ExecutionPanel::applyBackend);
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
  // The tabs take the height the dock has (the table's preferred 192 px would make the dock
  // scroll), at least two rows of tiles.
  tabs->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
  tabs->setMinimumHeight(2 * TensorTile().minimumSizeHint().height() + 40);
  // The value's title sits in the tab row, which has room for it: the tiles get the height.
  m_valueTitle->setObjectName(QStringLiteral("executionValueTitle"));
  m_valueTitle->setContentsMargins(8, 0, 4, 0);
  tabs->setCornerWidget(m_valueTitle, Qt::TopRightCorner);

  auto* layout = new QVBoxLayout(this);
  layout->setSpacing(4);
  layout->addLayout(setup);
  // (A row of its own: next to the inputs, a dock 850 px wide leaves the path no room.)
  layout->addWidget(m_hosts);
  layout->addWidget(m_buttonRow);
  layout->addWidget(m_timelineBar);
  layout->addWidget(m_status);
  layout->addWidget(tabs, 1);
  layout->addWidget(m_divergences);

  connect(context, &SessionContext::executionChanged, this, &ExecutionPanel::refresh);
  connect(context, &SessionContext::programChanged, this, &ExecutionPanel::refresh);
  connect(context, &SessionContext::selectionChanged, this, [this] {
    m_controller->watchValue(m_context->selectedValue());
    refresh();
  });
  connect(controller, &EngineController::busyChanged, this, &ExecutionPanel::updateButtons);
  // A step chosen on the timeline: the run goes there, and the op that step ran is selected, so
  // its result shows on every device.
  connect(m_timelineBar, &TimelineBar::stepRequested, this, [this](qint64 step) {
    m_selectAfterJump = step;
    m_controller->jumpToStep(step);
  });
  applyBackend();
  refresh();
}

void ExecutionPanel::applyBackend() {
  const bool mpi = mpiSelected();
  m_ranks->setEnabled(mpi);
  // The hosts row only matters to MPI runs: hidden otherwise, it leaves the tiles the room.
  m_hosts->setVisible(mpi);
  QSettings settings;
  settings.setValue(QStringLiteral("execution/backend"),
                    mpi ? QStringLiteral("mpi") : QStringLiteral("local"));
  settings.setValue(QStringLiteral("execution/mpiRanks"), m_ranks->value());
  m_controller->setMpiHosts(m_hosts->hostfile(), m_hosts->oversubscribe());
  m_controller->setBackend(mpi ? EngineController::Backend::Mpi : EngineController::Backend::Local,
                           m_ranks->value());
}

bool ExecutionPanel::mpiSelected() const {
  return m_backend->currentData().toString() == QLatin1String("mpi");
}

MpiOptions ExecutionPanel::mpiOptions() const {
  return {m_ranks->value(), m_hosts->hostfile(), m_hosts->oversubscribe()};
}

void ExecutionPanel::setBackendChoice(bool mpi, const MpiOptions& options) {
  {
    const QSignalBlocker a(m_backend), b(m_ranks), c(m_hosts);
    m_backend->setCurrentIndex(mpi ? 1 : 0);
    m_ranks->setValue(options.ranks);
    m_hosts->setHosts(options.hostfile, options.oversubscribe);
  }
  applyBackend();
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
  const ProgramSnapshotPtr program = m_context->program();
  m_start->setEnabled(program && program->canRun() && !busy);
  m_start->setToolTip(program && !program->canRun()
                          ? tr("This program cannot run: %1").arg(program->cannotRun.message)
                          : tr("Start (or restart) the run (Ctrl+Shift+F5)"));
  m_start->setText(e && e->started ? tr("Restart") : tr("Start"));
}

void ExecutionPanel::refresh() {
  const ExecutionSnapshotPtr e = m_context->execution();
  m_model->setExecution(e);
  updateButtons();
  const ValueRow* value = m_context->selectedValueRow();
  const ProgramSnapshotPtr program = m_context->program();
  if (!e && program && !program->canRun()) {
    // (One line or two: the dock keeps its height for the tiles.)
    m_status->setText(
        tr("<span style='color:#d03030'><b>This program cannot run</b> (line %1):</span> %2")
            .arg(program->cannotRun.line)
            .arg(program->cannotRun.message.toHtmlEscaped()));
    m_status->setToolTip(tr("Its graph, shardings and collectives are shown all the same."));
  } else if (!e) {
    m_status->setToolTip(QString());
    m_status->setText(
        program ? tr("Press Start to run the per-device program on every device of the mesh.")
                : tr("Open a program to run it."));
  } else {
    m_status->setToolTip(QString());
    m_status->setText(statusText(*e));
  }
  if (e && m_selectAfterJump > 0 && e->steps == m_selectAfterJump) {
    const qint64 step = std::exchange(m_selectAfterJump, 0);
    if (e->timeline && step <= e->timeline->known()) {
      const Timeline::Step& s = e->timeline->steps[int(step - 1)];
      // After this refresh (selecting refreshes the panel again).
      if (s.op >= 0)
        QMetaObject::invokeMethod(
            this, [this, id = e->timeline->ops[s.op].opId] { m_context->selectOp(id); },
            Qt::QueuedConnection);
    }
  }
  // The run's timeline (none before a run, or from a server that keeps none).
  m_timelineBar->setVisible(e && e->timeline);
  m_timelineBar->setTimeline(e ? e->timeline : nullptr, e ? e->steps : 0, e && e->finished);
  updateDeviceTiles(e);
  const QString arrangement =
      m_meshArrangement.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(m_meshArrangement);
  m_valueTitle->setText(
      value ? tr("Value <b>%1</b> %2 on every device%3")
                  .arg(value->name.toHtmlEscaped(), value->typed.toHtmlEscaped(),
                       arrangement.toHtmlEscaped())
            : tr("Select a value to see it on every device%1.").arg(arrangement.toHtmlEscaped()));
  const bool same = e && e->valueId == m_context->selectedValue();
  TensorData global = same ? e->global : TensorData();
  if (!global.valid && global.note.isEmpty())
    global.note = tr("no value");
  m_global->setTensor(tr("global (assembled)"), global, same && !e->replicaProblem.isEmpty());
  TensorData reference = same ? e->reference : TensorData();
  const bool running = e && e->started;
  if (!reference.valid)
    reference.note = !running                               ? tr("not running")
                     : m_context->selectedValue().isEmpty() ? tr("no value selected")
                     : e->referenceSummary.startsWith(QLatin1String("reference check off")) ||
                             e->referenceSummary.startsWith(QLatin1String("no reference"))
                         ? e->referenceSummary
                         : tr("the reference run has no value for it");
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

namespace {

// The grid cell of the tile of the device at mesh `position` (x: column, y: row): the mesh's axes
// in pairs, as the Mesh view nests them, the first of a pair down and the second across (a lone
// last axis across), the outer pair's groups one empty row or column apart; a one-axis mesh is a
// row, wrapped after 8 devices.
QPoint tileCell(const MeshInfo& mesh, qint64 position) {
  const QVector<qint64> coords = mesh.coordinates(position);
  const int rank = coords.size();
  if (rank == 0)
    return {0, 0};
  if (rank == 1) {
    const qint64 perRow = qMin<qint64>(8, qMax<qint64>(1, mesh.axisSizes[0]));
    return {static_cast<int>(coords[0] % perRow), static_cast<int>(coords[0] / perRow)};
  }
  qint64 row = 0, col = 0, innerRows = 1, innerCols = 1;
  int rowAxes = 0, colAxes = 0;
  for (int a = 0; a < rank; ++a) {
    const bool down = a % 2 == 0 && a + 1 < rank;
    qint64& index = down ? row : col;
    index = index * mesh.axisSizes[a] + coords[a];
    if ((down ? rowAxes : colAxes)++ > 0)
      (down ? innerRows : innerCols) *= mesh.axisSizes[a];
  }
  if (rowAxes > 1)
    row += row / innerRows;
  if (colAxes > 1)
    col += col / innerCols;
  return {static_cast<int>(col), static_cast<int>(row)};
}

} // namespace

void ExecutionPanel::arrangeTiles(const MeshInfo& mesh) {
  // The tiles sit as the devices do in the mesh (when the run's devices are the mesh's).
  const bool asMesh = mesh.numDevices() == m_tiles.size();
  const int columns =
      qMax(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(m_tiles.size())))));
  for (TensorTile* tile : m_tiles)
    m_tileLayout->removeWidget(tile);
  for (int i = 0; i < m_tileLayout->columnCount(); ++i)
    m_tileLayout->setColumnMinimumWidth(i, 0);
  for (int i = 0; i < m_tileLayout->rowCount(); ++i)
    m_tileLayout->setRowMinimumHeight(i, 0);
  QSet<int> usedRows, usedCols;
  for (int d = 0; d < m_tiles.size(); ++d) {
    const QPoint cell = asMesh ? tileCell(mesh, d) : QPoint(d % columns, d / columns);
    m_tileLayout->addWidget(m_tiles[d], cell.y(), cell.x());
    usedRows.insert(cell.y());
    usedCols.insert(cell.x());
  }
  // Rows and columns between nested groups stay empty: a gap.
  // (Rows and columns past the last used, left from a larger mesh, stay empty and take no room.)
  const int lastRow = usedRows.isEmpty() ? -1 : *std::max_element(usedRows.begin(), usedRows.end());
  const int lastCol = usedCols.isEmpty() ? -1 : *std::max_element(usedCols.begin(), usedCols.end());
  for (int r = 0; r < lastRow; ++r)
    m_tileLayout->setRowMinimumHeight(r, usedRows.contains(r) ? 0 : 6);
  for (int c = 0; c < lastCol; ++c)
    m_tileLayout->setColumnMinimumWidth(c, usedCols.contains(c) ? 0 : 6);
  // The caption names the axes as `tileCell` places them: pairs, first down, second across.
  QStringList down, across;
  const int rank = mesh.axisNames.size();
  for (int a = 0; a < rank; ++a)
    (a % 2 == 0 && a + 1 < rank ? down : across).push_back(mesh.axisNames[a]);
  const QString times = QStringLiteral(" \u00d7 ");
  m_meshArrangement = asMesh && rank >= 2
                          ? tr("%1 down, %2 across").arg(down.join(times), across.join(times))
                          : QString();
  m_tileMesh = mesh.axisSizes;
}

void ExecutionPanel::updateDeviceTiles(const ExecutionSnapshotPtr& e) {
  // A run that failed before it started has no device rows: keep the mesh's tiles.
  const MeshInfo mesh = m_context->program() ? m_context->program()->mesh : MeshInfo();
  const int numDevices = e && !e->devices.isEmpty() ? e->devices.size()
                         : m_context->program()     ? static_cast<int>(mesh.numDevices())
                                                    : 0;
  const bool changed = numDevices != m_tiles.size() || mesh.axisSizes != m_tileMesh;
  while (m_tiles.size() > numDevices)
    delete m_tiles.takeLast();
  while (m_tiles.size() < numDevices) {
    auto* tile = new TensorTile(m_tileBox);
    tile->setObjectName(QStringLiteral("deviceTile%1").arg(m_tiles.size()));
    m_tiles.push_back(tile);
  }
  if (changed)
    arrangeTiles(mesh);
  for (int d = 0; d < m_tiles.size(); ++d) {
    const qint64 device = e && d < e->devices.size() ? e->devices[d].device : d;
    TensorData data =
        e && e->valueId == m_context->selectedValue() ? e->perDevice.value(d) : TensorData();
    if (!data.valid && data.note.isEmpty())
      data.note = !e || !e->started                      ? tr("not running")
                  : m_context->selectedValue().isEmpty() ? tr("no value selected")
                                                         : tr("no value on this device");
    const int rank = e && d < e->devices.size() ? e->devices[d].rank : -1;
    m_tiles[d]->setTensor(rank >= 0 ? tr("device %1 (rank %2)").arg(device).arg(rank)
                                    : tr("device %1").arg(device),
                          data, e && e->divergingDevices.contains(device));
  }
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
           next.isEmpty() ? tr("nothing (finished)")
                          : next.join(QStringLiteral(", ")).toHtmlEscaped(),
           e.referenceSummary.toHtmlEscaped());
}

} // namespace shardscope::widgets
