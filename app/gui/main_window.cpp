#include "app/gui/main_window.h"

#include "widgets/controller/engine_controller.h"
#include "widgets/controller/recent_files.h"
#include "widgets/controller/session_context.h"
#include "widgets/graph/graph_panel.h"
#include "widgets/views/execution_panel.h"
#include "widgets/views/inspector_panel.h"
#include "widgets/views/mesh_view.h"
#include "widgets/views/panels.h"
#include "widgets/views/recent_files_menu.h"
#include "widgets/views/source_view.h"
#include "widgets/views/stage_selector.h"
#include "widgets/views/tensor_sharding_view.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QLabel>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScreen>
#include <QScrollArea>
#include <QShowEvent>
#include <QResizeEvent>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyleFactory>
#include <QToolBar>
#include <QUrl>

// Q_INIT_RESOURCE must be used outside any namespace. The window is the only user of the
// resources, and the call keeps the linker from dropping them out of this static library.
static void initResources() { Q_INIT_RESOURCE(shardscope); }

namespace shardscope::gui {

namespace {

const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
const QString kDarkKey = QStringLiteral("mainWindow/darkPalette");
constexpr int kTransientMessageMs = 5000;
constexpr QSize kDefaultSize(1440, 900);
constexpr int kStateVersion = 3; // bump when the set of docks changes

QPalette darkPalette() {
  QPalette p;
  const QColor window(0x2b, 0x2b, 0x2e), base(0x1e, 0x1e, 0x20), text(0xe6, 0xe6, 0xe6);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x29));
  p.setColor(QPalette::ToolTipBase, window);
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, window);
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, Qt::red);
  p.setColor(QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, QColor(0x6a, 0xa7, 0xff));
  p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x96));
  p.setColor(QPalette::Mid, QColor(0x50, 0x50, 0x55));
  p.setColor(QPalette::Midlight, QColor(0x45, 0x45, 0x4a));
  p.setColor(QPalette::Dark, QColor(0x70, 0x70, 0x78));
  p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x70, 0x70, 0x70));
  p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x70, 0x70, 0x70));
  p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x70, 0x70, 0x70));
  return p;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_recentFiles(new widgets::RecentFiles(this)),
      m_context(new widgets::SessionContext(this)),
      m_controller(new widgets::EngineController(this)),
      m_sourceView(new widgets::SourceView(this)), m_watcher(new QFileSystemWatcher(this)),
      m_progress(new QProgressBar(this)), m_cancel(new QPushButton(tr("Cancel"), this)),
      m_inputForm(new QLabel(this)) {
  initResources();
  setObjectName(QStringLiteral("mainWindow"));
  setWindowTitle(tr("ShardScope"));
  setWindowIcon(QIcon(QStringLiteral(":/icons/shardscope.svg")));
  setAcceptDrops(true);
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
  // The right column (inspector, mesh, tensor) runs the full height.
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);

  m_sourceView->setPlaceholderText(tr("Open a program (StableHLO with Shardy shardings) with "
                                      "File \u2192 Open\u2026 or drop it here"));
  setCentralWidget(m_sourceView);
  createPanels();
  createToolBar();
  createMenus();

  m_progress->setRange(0, 0);
  m_progress->setMaximumWidth(160);
  m_progress->setObjectName(QStringLiteral("progressBar"));
  m_cancel->setObjectName(QStringLiteral("statusCancelButton"));
  m_inputForm->setObjectName(QStringLiteral("inputFormLabel"));
  statusBar()->addPermanentWidget(m_inputForm);
  statusBar()->addPermanentWidget(m_progress);
  statusBar()->addPermanentWidget(m_cancel);
  m_progress->hide();
  m_cancel->hide();
  connect(m_cancel, &QPushButton::clicked, m_controller, &widgets::EngineController::cancel);

  connect(m_controller, &widgets::EngineController::progressVisible, this,
          [this](bool visible, const QString& what) {
            m_progress->setVisible(visible);
            m_cancel->setVisible(visible);
            if (visible)
              statusBar()->showMessage(what + QStringLiteral("\u2026"));
          });
  // The Inspector says why the selected value has its sharding: the engine traces propagation.
  connect(m_context, &widgets::SessionContext::selectionChanged, this, [this] {
    const QString value = m_context->selectedValue();
    if (!value.isEmpty() && !m_context->selectedExplanation())
      m_controller->explainValue(value);
  });
  connect(m_controller, &widgets::EngineController::explanationReady, m_context,
          &widgets::SessionContext::setExplanation);
  // The later stages arrive in the background; the summary counts collectives once they have.
  connect(m_controller, &widgets::EngineController::stagesFinished, this,
          [this](widgets::ProgramSnapshotPtr program, bool cancelled) {
            if (!cancelled && QFileInfo(program->path).absoluteFilePath() == m_currentFile)
              showAnalysisSummary(*program);
          });
  connect(m_controller, &widgets::EngineController::programLoaded, this,
          [this](widgets::ProgramSnapshotPtr program) {
            if (QFileInfo(program->path).absoluteFilePath() != m_currentFile)
              return; // an older request
            m_context->setProgram(program);
            m_inputForm->setText(program->inputForm);
            m_inputForm->setToolTip(program->inputFormDescription);
            int errors = 0;
            for (const widgets::ProblemRow& p : program->problems)
              errors += p.severity == QLatin1String("error");
            showAnalysisSummary(*program);
            if (errors > 0)
              if (auto* dock = findChild<QDockWidget*>(QStringLiteral("problemsDock")))
                dock->raise();
            applyPendingSession();
            Q_EMIT programLoaded();
          });
  connect(m_controller, &widgets::EngineController::diffProgramLoaded, this,
          [this](widgets::ProgramSnapshotPtr other) {
            m_context->setDiffProgram(other);
            statusBar()->showMessage(
                tr("Diffing with %1: changed shardings and added collectives are marked")
                    .arg(QFileInfo(other->path).fileName()),
                8000);
          });
  connect(m_controller, &widgets::EngineController::diffProgramFailed, this,
          [this](const QString& message) { statusBar()->showMessage(message); });
  connect(m_controller, &widgets::EngineController::loadFailed, this,
          [this](const QString& path, const QString& message,
                 const QVector<widgets::ProblemRow>& problems) {
            m_context->setLoadFailed(path);
            m_inputForm->clear();
            m_problems->showLoadProblems(problems);
            // Show the problem and its line.
            if (auto* dock = findChild<QDockWidget*>(QStringLiteral("problemsDock")))
              dock->raise();
            if (!problems.isEmpty() && problems.first().line > 0)
              m_sourceView->setHighlights(problems.first().line, {});
            updateProblemMarkers(problems);
            statusBar()->showMessage(tr("Could not analyse the program: %1").arg(message));
            Q_EMIT programFailed();
          });
  connect(m_controller, &widgets::EngineController::executionChanged, m_context,
          &widgets::SessionContext::setExecution);
  connect(m_controller, &widgets::EngineController::errorOccurred, this,
          [this](const QString& message) { statusBar()->showMessage(message); });
  connect(m_controller, &widgets::EngineController::breakpointsChanged, this,
          &MainWindow::updateSourceHighlights);
  connect(m_context, &widgets::SessionContext::selectionChanged, this,
          &MainWindow::updateSourceHighlights);
  connect(m_context, &widgets::SessionContext::executionChanged, this,
          &MainWindow::updateSourceHighlights);
  connect(m_context, &widgets::SessionContext::stageChanged, this, [this] {
    const widgets::ProgramSnapshotPtr program = m_context->program();
    m_stageText->showText(program ? program->stage(m_context->stage()).text : QString());
    updateSourceHighlights();
  });
  connect(m_context, &widgets::SessionContext::programChanged, this, [this] {
    const widgets::ProgramSnapshotPtr program = m_context->program();
    m_stageText->showText(program ? program->stage(m_context->stage()).text : QString());
    updateProblemMarkers();
  });
  connect(m_context, &widgets::SessionContext::stageChanged, this,
          [this] { updateProblemMarkers(); });
  connect(m_context, &widgets::SessionContext::executionChanged, this,
          [this] { updateProblemMarkers(); });
  connect(m_sourceView, &widgets::SourceView::lineClicked, m_context,
          &widgets::SessionContext::selectLine);
  // The Stage IR is linked like the source: a click selects the op printed there, and the
  // selection (and the ops the run executes next) are highlighted in the stage's text.
  connect(m_stageText, &widgets::SourceView::lineClicked, this, [this](int line) {
    if (const widgets::ProgramSnapshotPtr program = m_context->program()) {
      const QString op = program->stage(m_context->stage()).opAtLine(line);
      if (!op.isEmpty())
        m_context->selectOp(op);
    }
  });
  connect(m_stageText, &widgets::SourceView::textShown, this,
          &MainWindow::updateSourceHighlights);
  connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &MainWindow::fileChangedOnDisk);

  restoreWindowSettings();
}

MainWindow::~MainWindow() = default;

QDockWidget* MainWindow::addPanel(QWidget* panel, const QString& title, const QString& name,
                                  Qt::DockWidgetArea area) {
  auto* dock = new QDockWidget(title, this);
  dock->setObjectName(name);
  // Panels with many controls scroll rather than force a large minimum window size.
  if (panel != m_graph &&
      (panel->minimumSizeHint().width() > 200 || panel->minimumSizeHint().height() > 150)) {
    auto* scroll = new QScrollArea(dock);
    scroll->setObjectName(name + QStringLiteral("Scroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(panel);
    dock->setWidget(scroll);
  } else {
    dock->setWidget(panel);
  }
  addDockWidget(area, dock);
  return dock;
}

void MainWindow::createPanels() {
  m_values = new widgets::ValuesPanel(m_context, this);
  m_collectives = new widgets::CollectivesPanel(m_context, this);
  m_problems = new widgets::ProblemsPanel(m_context, this);
  m_inspector = new widgets::InspectorPanel(m_context, this);
  m_mesh = new widgets::MeshView(m_context, this);
  m_tensor = new widgets::TensorShardingView(m_context, this);
  m_execution = new widgets::ExecutionPanel(m_controller, m_context, this);
  m_graph = new widgets::GraphPanel(m_controller, m_context, this);
  m_stageText = new widgets::SourceView(this);
  m_stageText->setObjectName(QStringLiteral("stageTextView"));
  m_stageText->setPlaceholderText(tr("The module of the selected stage appears here."));

  QDockWidget* values = addPanel(m_values, tr("Values"), QStringLiteral("valuesDock"),
                                 Qt::BottomDockWidgetArea);
  QDockWidget* collectives = addPanel(m_collectives, tr("Collectives"),
                                      QStringLiteral("collectivesDock"), Qt::BottomDockWidgetArea);
  QDockWidget* problems = addPanel(m_problems, tr("Problems"), QStringLiteral("problemsDock"),
                                   Qt::BottomDockWidgetArea);
  QDockWidget* execution = addPanel(m_execution, tr("Execution"),
                                    QStringLiteral("executionDock"), Qt::BottomDockWidgetArea);
  QDockWidget* stageText = addPanel(m_stageText, tr("Stage IR"), QStringLiteral("stageTextDock"),
                                    Qt::BottomDockWidgetArea);
  QDockWidget* gradients = addPanel(new widgets::GradientPanel(m_context, this), tr("Gradients"),
                                    QStringLiteral("gradientsDock"), Qt::BottomDockWidgetArea);
  QDockWidget* graph = addPanel(m_graph, tr("Graph"), QStringLiteral("graphDock"),
                                Qt::LeftDockWidgetArea);
  Q_UNUSED(graph);
  QDockWidget* inspector = addPanel(m_inspector, tr("Inspector"), QStringLiteral("inspectorDock"),
                                    Qt::RightDockWidgetArea);
  QDockWidget* mesh = addPanel(m_mesh, tr("Mesh"), QStringLiteral("meshDock"),
                               Qt::RightDockWidgetArea);
  QDockWidget* tensor = addPanel(m_tensor, tr("Tensor Sharding"),
                                 QStringLiteral("tensorShardingDock"), Qt::RightDockWidgetArea);
  tabifyDockWidget(values, collectives);
  tabifyDockWidget(collectives, problems);
  tabifyDockWidget(problems, execution);
  tabifyDockWidget(execution, stageText);
  tabifyDockWidget(stageText, gradients);
  // Choosing a gradient stage brings the side-by-side comparison to the front.
  connect(m_context, &widgets::SessionContext::stageChanged, gradients, [this, gradients] {
    if (widgets::isGradientStage(m_context->stage()))
      gradients->raise();
  });
  values->raise();
  Q_UNUSED(inspector);
  Q_UNUSED(mesh);
  Q_UNUSED(tensor);
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (m_shownOnce || m_layoutRestored)
    return;
  m_shownOnce = true;
  // Default proportions, once the window has its size: the source and the values share the
  // height, the right column is wide enough for the inspector's notations.
  auto* inspector = findChild<QDockWidget*>(QStringLiteral("inspectorDock"));
  auto* mesh = findChild<QDockWidget*>(QStringLiteral("meshDock"));
  auto* tensor = findChild<QDockWidget*>(QStringLiteral("tensorShardingDock"));
  auto* values = findChild<QDockWidget*>(QStringLiteral("valuesDock"));
  const int h = height();
  if (h < 820) {
    // Three docks stacked in a short window leave each a sliver: the mesh and the tensor view
    // share one place as tabs, and the selection's view of the two is a click away.
    tabifyDockWidget(mesh, tensor);
    mesh->raise();
    resizeDocks({inspector, mesh}, {h * 45 / 100, h * 55 / 100}, Qt::Vertical);
  } else {
    resizeDocks({inspector, mesh, tensor}, {h * 38 / 100, h * 26 / 100, h * 36 / 100},
                Qt::Vertical);
  }
  // The source is the widest column (in a narrow window the graph toolbar's minimum width and
  // the mesh legend set the side columns instead).
  const bool narrow = width() < 1200;
  resizeDocks({inspector}, {width() * (narrow ? 33 : 29) / 100}, Qt::Horizontal);
  resizeDocks({values}, {h * 40 / 100}, Qt::Vertical);
  auto* graph = findChild<QDockWidget*>(QStringLiteral("graphDock"));
  resizeDocks({graph}, {width() * (narrow ? 28 : 29) / 100}, Qt::Horizontal);
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  // QMainWindow gives a change of width to the central widget alone: shrinking the window would
  // squeeze the source while the side columns keep their width. The columns keep their share of
  // the width instead, as the defaults or the user set it.
  const int oldWidth = event->oldSize().width(), newWidth = event->size().width();
  if (!m_shownOnce || oldWidth <= 0 || newWidth == oldWidth)
    return;
  QList<QDockWidget*> columns;
  QList<int> widths;
  for (const char* name : {"graphDock", "inspectorDock"}) {
    auto* dock = findChild<QDockWidget*>(QLatin1String(name));
    if (dock && dock->isVisible() && !dock->isFloating()) {
      columns.push_back(dock);
      widths.push_back(static_cast<int>(static_cast<qint64>(dock->width()) * newWidth / oldWidth));
    }
  }
  if (!columns.isEmpty())
    resizeDocks(columns, widths, Qt::Horizontal);
}

void MainWindow::createToolBar() {
  QToolBar* bar = addToolBar(tr("Main"));
  bar->setObjectName(QStringLiteral("mainToolBar"));
  bar->setMovable(false);
  m_stageSelector = new widgets::StageSelector(m_context, bar);
  bar->addWidget(m_stageSelector);
}

bool MainWindow::openFile(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
    statusBar()->showMessage(
        tr("Could not open %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
    m_recentFiles->remove(path);
    return false;
  }
  const QFileInfo info(file);
  if (!m_currentFile.isEmpty())
    m_watcher->removePath(m_currentFile);
  m_currentFile = info.absoluteFilePath();
  m_watcher->addPath(m_currentFile);
  const int selected = m_sourceView->selectedLine();
  m_sourceView->showText(QString::fromUtf8(file.readAll()));
  if (selected > 0)
    m_sourceView->setHighlights(selected, {});
  setWindowFilePath(m_currentFile);
  setWindowTitle(tr("%1 \u2014 ShardScope").arg(info.fileName()));
  m_recentFiles->add(m_currentFile);
  statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(m_currentFile)),
                           kTransientMessageMs);
  m_controller->load(m_currentFile);
  return true;
}

bool MainWindow::openExample(const QString& name) {
  // The engine reads files, so the bundled example is copied out of the resources first.
  const QString dir =
      QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/examples");
  const QString path = dir + QLatin1Char('/') + name;
  QFile source(QStringLiteral(":/examples/") + name);
  if (!QDir().mkpath(dir) || !source.open(QIODevice::ReadOnly)) {
    statusBar()->showMessage(tr("Could not open the example %1").arg(name));
    return false;
  }
  QSaveFile copy(path);
  if (!copy.open(QIODevice::WriteOnly) || copy.write(source.readAll()) < 0 || !copy.commit()) {
    statusBar()->showMessage(tr("Could not write %1: %2").arg(path, copy.errorString()));
    return false;
  }
  return openFile(path);
}

void MainWindow::reload() {
  if (!m_currentFile.isEmpty())
    openFile(m_currentFile);
}

void MainWindow::fileChangedOnDisk(const QString& path) {
  if (path != m_currentFile || m_reloadPromptOpen)
    return;
  // Editors replace files by renaming: watch the new file under the same name.
  if (QFileInfo::exists(path) && !m_watcher->files().contains(path))
    m_watcher->addPath(path);
  m_reloadPromptOpen = true;
  auto* box = new QMessageBox(QMessageBox::Question, tr("Program Changed"),
                              tr("%1 changed on disk. Reload it?").arg(QFileInfo(path).fileName()),
                              QMessageBox::Yes | QMessageBox::No, this);
  box->setObjectName(QStringLiteral("reloadPrompt"));
  box->setAttribute(Qt::WA_DeleteOnClose);
  connect(box, &QMessageBox::finished, this, [this, box, path](int) {
    m_reloadPromptOpen = false;
    if (box->clickedButton() == box->button(QMessageBox::Yes) && path == m_currentFile)
      reload();
  });
  box->open();
}

void MainWindow::chooseFile() {
  const QStringList recent = m_recentFiles->files();
  const QString startDir = recent.isEmpty() ? QString() : QFileInfo(recent.first()).path();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Program"), startDir,
                                                    tr("MLIR programs (*.mlir);;All files (*)"));
  if (!path.isEmpty())
    openFile(path);
}

void MainWindow::diffWithProgram(const QString& path) {
  if (path.isEmpty()) {
    m_context->setDiffProgram(nullptr);
    return;
  }
  m_controller->loadDiffProgram(QFileInfo(path).absoluteFilePath());
}

void MainWindow::chooseDiffProgram() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Diff With Program"), QFileInfo(m_currentFile).absolutePath(),
      tr("MLIR programs (*.mlir);;All files (*)"));
  if (!path.isEmpty())
    diffWithProgram(path);
}

bool MainWindow::saveSession(const QString& path) {
  QJsonObject session;
  session.insert(QStringLiteral("version"), 1);
  session.insert(QStringLiteral("file"), m_currentFile);
  session.insert(QStringLiteral("stage"), widgets::stageKey(m_context->stage()));
  if (m_context->diffBase() >= 0)
    session.insert(QStringLiteral("diffBase"),
                   widgets::stageKey(static_cast<widgets::StageId>(m_context->diffBase())));
  QJsonArray breakpoints;
  QStringList sorted = m_controller->breakpoints().values();
  sorted.sort();
  for (const QString& op : sorted)
    breakpoints.push_back(op);
  session.insert(QStringLiteral("breakpoints"), breakpoints);
  QJsonObject selection;
  if (!m_context->selectedValue().isEmpty())
    selection.insert(QStringLiteral("value"), m_context->selectedValue());
  else if (!m_context->selectedOp().isEmpty())
    selection.insert(QStringLiteral("op"), m_context->selectedOp());
  session.insert(QStringLiteral("selection"), selection);
  const widgets::MpiOptions mpi = m_execution->mpiOptions();
  session.insert(
      QStringLiteral("execution"),
      QJsonObject{{QStringLiteral("backend"),
                   m_execution->mpiSelected() ? QStringLiteral("mpi") : QStringLiteral("local")},
                  {QStringLiteral("mpiRanks"), mpi.ranks},
                  {QStringLiteral("hostfile"), mpi.hostfile},
                  {QStringLiteral("oversubscribe"), mpi.oversubscribe}});
  session.insert(QStringLiteral("expandedClusters"),
                 QJsonArray::fromStringList(m_graph->expandedClusters()));
  session.insert(QStringLiteral("collapsedClusters"),
                 QJsonArray::fromStringList(m_graph->collapsedClusters()));
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) ||
      file.write(QJsonDocument(session).toJson()) < 0 || !file.commit()) {
    statusBar()->showMessage(tr("Could not save the session to %1: %2")
                                 .arg(QDir::toNativeSeparators(path), file.errorString()));
    return false;
  }
  statusBar()->showMessage(tr("Saved the session to %1").arg(QDir::toNativeSeparators(path)),
                           kTransientMessageMs);
  return true;
}

bool MainWindow::restoreSession(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    statusBar()->showMessage(tr("Could not open the session %1: %2")
                                 .arg(QDir::toNativeSeparators(path), file.errorString()));
    return false;
  }
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
  if (!doc.isObject()) {
    statusBar()->showMessage(tr("%1 is not a ShardScope session: %2")
                                 .arg(QDir::toNativeSeparators(path), error.errorString()));
    return false;
  }
  const QString program = doc.object().value(QStringLiteral("file")).toString();
  m_pendingSession = QJsonDocument(doc.object()).toJson();
  if (program.isEmpty() || !openFile(program)) {
    m_pendingSession.clear();
    return false;
  }
  return true;
}

void MainWindow::showAnalysisSummary(const widgets::ProgramSnapshot& program) {
  auto count = [](qsizetype n, const QString& one, const QString& many) {
    return QString::number(n) + QLatin1Char(' ') + (n == 1 ? one : many);
  };
  const widgets::StageSnapshot& partitioned = program.stage(widgets::StageId::Partitioned);
  const QString collectives =
      !partitioned.notComputed()
          ? count(partitioned.collectives.size(), tr("collective"), tr("collectives")) +
                tr(" after partitioning")
          : tr("partitioning…");
  statusBar()->showMessage(
      tr("Analysed %1: %2, %3, %4")
          .arg(QFileInfo(program.path).fileName(),
               count(program.stage(widgets::StageId::AsWritten).values.size(), tr("value"),
                     tr("values")),
               collectives, count(program.problems.size(), tr("problem"), tr("problems"))),
      kTransientMessageMs);
}

void MainWindow::applyPendingSession() {
  if (m_pendingSession.isEmpty())
    return;
  const QJsonObject session = QJsonDocument::fromJson(m_pendingSession).object();
  m_pendingSession.clear();
  widgets::StageId stage = widgets::StageId::AsWritten;
  if (widgets::parseStageKey(session.value(QStringLiteral("stage")).toString(), &stage))
    m_context->setStage(stage);
  widgets::StageId base = widgets::StageId::AsWritten;
  m_context->setDiffBase(
      widgets::parseStageKey(session.value(QStringLiteral("diffBase")).toString(), &base)
          ? static_cast<int>(base)
          : -1);
  for (const QString& op : m_controller->breakpoints())
    m_controller->setBreakpoint(op, false);
  for (const QJsonValue& op : session.value(QStringLiteral("breakpoints")).toArray())
    m_controller->setBreakpoint(op.toString(), true);
  QStringList expanded, collapsed;
  for (const QJsonValue& id : session.value(QStringLiteral("expandedClusters")).toArray())
    expanded.push_back(id.toString());
  for (const QJsonValue& id : session.value(QStringLiteral("collapsedClusters")).toArray())
    collapsed.push_back(id.toString());
  if (!expanded.isEmpty() || !collapsed.isEmpty())
    m_graph->setClusters(expanded, collapsed);
  if (session.contains(QStringLiteral("execution"))) {
    const QJsonObject execution = session.value(QStringLiteral("execution")).toObject();
    widgets::MpiOptions mpi;
    mpi.ranks = execution.value(QStringLiteral("mpiRanks")).toInt(2);
    mpi.hostfile = execution.value(QStringLiteral("hostfile")).toString();
    mpi.oversubscribe = execution.value(QStringLiteral("oversubscribe")).toBool();
    m_execution->setBackendChoice(
        execution.value(QStringLiteral("backend")).toString() == QLatin1String("mpi"), mpi);
  }
  const QJsonObject selection = session.value(QStringLiteral("selection")).toObject();
  if (selection.contains(QStringLiteral("value")))
    m_context->selectValue(selection.value(QStringLiteral("value")).toString());
  else if (selection.contains(QStringLiteral("op")))
    m_context->selectOp(selection.value(QStringLiteral("op")).toString());
}

void MainWindow::chooseSessionToSave() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Save Session"), QString(),
                                                    tr("ShardScope sessions (*.json)"));
  if (!path.isEmpty())
    saveSession(path);
}

void MainWindow::chooseSessionToRestore() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Session"), QString(),
                                                    tr("ShardScope sessions (*.json)"));
  if (!path.isEmpty())
    restoreSession(path);
}

void MainWindow::setDarkPalette(bool dark, bool remember) {
  m_dark = dark;
  if (dark) {
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(darkPalette());
  } else {
    QApplication::setPalette(QApplication::style()->standardPalette());
  }
  if (remember)
    QSettings().setValue(kDarkKey, dark);
  updateSourceHighlights();
}

void MainWindow::showAbout() {
  QMessageBox::about(
      this, tr("About ShardScope"),
      tr("<h3>ShardScope %1</h3>"
         "<p>See how a tensor program is sharded over a device mesh: the shardings as written, "
         "as propagated, the collectives they need, and the program each device runs.</p>")
          .arg(QCoreApplication::applicationVersion()));
}

void MainWindow::closeEvent(QCloseEvent* event) {
  saveWindowSettings();
  QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls() && !event->mimeData()->urls().isEmpty() &&
      event->mimeData()->urls().first().isLocalFile())
    event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.first().isLocalFile()) {
    openFile(urls.first().toLocalFile());
    event->acceptProposedAction();
  }
}

void MainWindow::updateSourceHighlights() {
  QList<int> current;
  if (const widgets::ExecutionSnapshotPtr e = m_context->execution())
    for (const widgets::DevicePosition& p : e->devices)
      if (p.line > 0 && !current.contains(p.line))
        current.push_back(p.line);
  QList<int> breakpoints;
  for (const QString& op : m_controller->breakpoints())
    breakpoints.push_back(op.section(QLatin1Char(':'), 0, 0).toInt());
  m_sourceView->setHighlights(m_context->selectedLine(), current, breakpoints);

  const widgets::ProgramSnapshotPtr program = m_context->program();
  if (!program)
    return;
  const widgets::StageSnapshot& stage = program->stage(m_context->stage());
  QString selectedOp = m_context->selectedOp();
  if (const widgets::ValueRow* value = m_context->selectedValueRow())
    selectedOp = value->opId;
  QList<int> currentInStage;
  if (const widgets::ExecutionSnapshotPtr e = m_context->execution())
    for (const widgets::DevicePosition& p : e->devices)
      if (const int line = stage.opLines.value(p.opId); line > 0 && !currentInStage.contains(line))
        currentInStage.push_back(line);
  m_stageText->setHighlights(stage.opLines.value(selectedOp), currentInStage);
}

void MainWindow::updateProblemMarkers(QVector<widgets::ProblemRow> problems) {
  const widgets::ProgramSnapshotPtr program = m_context->program();
  if (program)
    problems = program->problemsOf(m_context->stage());
  if (const widgets::ExecutionSnapshotPtr run = m_context->execution())
    problems += run->problems;
  QMap<int, widgets::SourceView::LineMarker> source, stage;
  const auto mark = [](QMap<int, widgets::SourceView::LineMarker>& markers, int line,
                       const widgets::ProblemRow& p) {
    if (line <= 0 || (!p.isError() && p.severity != QLatin1String("warning")))
      return;
    auto it = markers.find(line);
    if (it == markers.end())
      it = markers.insert(line, {p.isError(), {}});
    it->error = it->error || p.isError();
    it->messages.push_back(QStringLiteral("%1 (%2): %3").arg(p.severity, p.stage, p.message));
  };
  for (const widgets::ProblemRow& p : problems) {
    mark(source, p.line, p);
    if (program && !p.opId.isEmpty())
      mark(stage, program->stage(m_context->stage()).opLines.value(p.opId), p);
  }
  m_sourceView->setLineMarkers(source);
  m_stageText->setLineMarkers(stage);
}

void MainWindow::createMenus() {
  QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
  QAction* openAction = fileMenu->addAction(tr("&Open\u2026"), this, &MainWindow::chooseFile);
  openAction->setShortcut(QKeySequence::Open);
  auto* recentMenu = new widgets::RecentFilesMenu(m_recentFiles, fileMenu);
  connect(recentMenu, &widgets::RecentFilesMenu::fileTriggered, this, &MainWindow::openFile);
  fileMenu->addMenu(recentMenu);
  QMenu* examples = fileMenu->addMenu(tr("Open &Example"));
  examples->setObjectName(QStringLiteral("examplesMenu"));
  for (const QFileInfo& info :
       QDir(QStringLiteral(":/examples")).entryInfoList({QStringLiteral("*.mlir")}, QDir::Files))
    examples->addAction(info.fileName(), this,
                        [this, name = info.fileName()] { openExample(name); });
  QAction* reloadAction = fileMenu->addAction(tr("&Reload"), this, &MainWindow::reload);
  reloadAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+R")));
  fileMenu->addSeparator();
  fileMenu->addAction(tr("Open &Session\u2026"), this, &MainWindow::chooseSessionToRestore);
  QAction* saveSessionAction =
      fileMenu->addAction(tr("&Save Session\u2026"), this, &MainWindow::chooseSessionToSave);
  saveSessionAction->setShortcut(QKeySequence::Save);
  fileMenu->addSeparator();
  // close() rather than quit(), so that closeEvent() saves the window settings.
  QAction* quitAction = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
  quitAction->setShortcut(QKeySequence::Quit);
  quitAction->setMenuRole(QAction::QuitRole);

  m_viewMenu = menuBar()->addMenu(tr("&View"));
  for (int s = 0; s < widgets::kNumStages; ++s) {
    const auto stage = static_cast<widgets::StageId>(s);
    QAction* a = m_viewMenu->addAction(tr("Stage: %1").arg(widgets::stageTitle(stage)), this,
                                       [this, stage] { m_context->setStage(stage); });
    a->setShortcut(QKeySequence(QStringLiteral("Ctrl+%1").arg(s + 1)));
  }
  QAction* diff = m_viewMenu->addAction(tr("&Diff Against Another Stage"), this, [this] {
    // (A gradient stage compares with the other gradient stage.)
    m_context->setDiffBase(m_context->diffBase() >= 0 ? -1
                                                      : widgets::defaultDiffBase(m_context->stage()));
  });
  diff->setShortcut(QKeySequence(QStringLiteral("Ctrl+D")));
  QAction* diffProgram =
      m_viewMenu->addAction(tr("Diff Against Another &Program..."), this, [this] {
        if (m_context->diffProgram())
          diffWithProgram(QString()); // a second choice ends it
        else
          chooseDiffProgram();
      });
  diffProgram->setObjectName(QStringLiteral("diffProgramAction"));
  diffProgram->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+D")));
  m_viewMenu->addSeparator();
  for (QDockWidget* dock : findChildren<QDockWidget*>())
    m_viewMenu->addAction(dock->toggleViewAction());
  m_viewMenu->addSeparator();
  QAction* dark = m_viewMenu->addAction(tr("Dar&k Palette"));
  dark->setObjectName(QStringLiteral("darkPaletteAction"));
  dark->setCheckable(true);
  dark->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+L")));
  connect(dark, &QAction::toggled, this, [this](bool on) { setDarkPalette(on); });

  QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
  QAction* aboutAction = helpMenu->addAction(tr("&About ShardScope"), this, &MainWindow::showAbout);
  aboutAction->setMenuRole(QAction::AboutRole);
  QAction* aboutQtAction = helpMenu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
  aboutQtAction->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::restoreWindowSettings() {
  const QSettings settings;
  if (!restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
    // The default size, within the screen on a small display.
    QSize size = kDefaultSize;
    if (const QScreen* screen = QGuiApplication::primaryScreen())
      size = size.boundedTo(screen->availableSize() * 0.95);
    resize(size);
  }
  m_layoutRestored = restoreState(settings.value(kStateKey).toByteArray(), kStateVersion);
  if (settings.value(kDarkKey, false).toBool())
    if (QAction* a = findChild<QAction*>(QStringLiteral("darkPaletteAction")))
      a->setChecked(true);
}

void MainWindow::saveWindowSettings() const {
  QSettings settings;
  settings.setValue(kGeometryKey, saveGeometry());
  settings.setValue(kStateKey, saveState(kStateVersion));
}

} // namespace shardscope::gui
