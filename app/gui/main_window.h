#pragma once

#include "widgets/controller/snapshots.h"

#include <QMainWindow>

class QActionGroup;
class QDockWidget;
class QFileSystemWatcher;
class QLabel;
class QLabel;
class QProgressBar;
class QPushButton;

namespace shardscope::widgets {
class CollectivesPanel;
class EngineController;
class GraphPanel;
class ExecutionPanel;
class InspectorPanel;
class MeshView;
class ProblemsPanel;
class RecentFiles;
class SessionContext;
class SourceView;
class StageSelector;
class TensorShardingView;
class ValuesPanel;
} // namespace shardscope::widgets

namespace shardscope::gui {

/// The ShardScope main window: the program's source in the middle, the engine panels (values,
/// collectives, problems, inspector, mesh, tensor sharding, stage IR, execution) as dock widgets
/// around it, a stage selector in the toolbar. Every panel follows one `SessionContext`; the
/// engine runs on the `EngineController`'s thread. Geometry, dock layout, palette and recent
/// files are kept in `QSettings`.
class MainWindow : public QMainWindow {
  Q_OBJECT

public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Returns the absolute path of the program shown, or an empty string before one is loaded.
  QString currentFile() const { return m_currentFile; }
  widgets::SessionContext* context() const { return m_context; }
  widgets::EngineController* controller() const { return m_controller; }

  /// Writes the session (file, stage, diff base, breakpoints, selection, expanded and collapsed
  /// graph clusters) as JSON to `path`.
  bool saveSession(const QString& path);
  /// Restores a session written by `saveSession`: opens its file and, once it is analysed,
  /// restores the stage, breakpoints and selection.
  bool restoreSession(const QString& path);
  bool isDarkPalette() const { return m_dark; }

public Q_SLOTS:
  /// Reads the program at `path`, shows its text, names it in the title, puts it at the top of
  /// the recent files and starts analysing it on the engine thread (`programLoaded` follows). If
  /// it cannot be read, shows why in the status bar, drops it from the recent files and keeps
  /// showing the previous program. Returns whether it was read.
  bool openFile(const QString& path);
  /// Opens the bundled example `name` (e.g. `mlp_tensor_parallel.mlir`).
  bool openExample(const QString& name);
  /// Reads the current file again.
  void reload();
  /// Asks the user for a program file and opens it.
  void chooseFile();
  /// Diffs every stage shown with the same stage of the program at `path` (changed shardings
  /// and added collectives marked, was -> now); an empty path ends the program diff.
  void diffWithProgram(const QString& path);
  /// Asks the user for the program to diff with.
  void chooseDiffProgram();
  void chooseSessionToSave();
  void chooseSessionToRestore();
  /// Switches between the light and the dark palette; `remember` keeps the choice for next time.
  void setDarkPalette(bool dark, bool remember = true);
  /// Shows the About box.
  void showAbout();

Q_SIGNALS:
  /// The program was loaded and analysed, and every panel shows it.
  void programLoaded();
  /// The program could not be analysed (the Problems panel says why).
  void programFailed();

protected:
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

private:
  void createPanels();
  void createMenus();
  void createToolBar();
  QDockWidget* addPanel(QWidget* panel, const QString& title, const QString& name,
                        Qt::DockWidgetArea area);
  void restoreWindowSettings();
  void saveWindowSettings() const;
  void updateSourceHighlights();
  /// Marks the lines of the stage's problems, and of the run's, in both text views' gutters;
  /// `problems` are marked too (a failed load's).
  void updateProblemMarkers(QVector<widgets::ProblemRow> problems = {});
  void fileChangedOnDisk(const QString& path);
  void applyPendingSession();
  /// "Analysed F: N values, M collectives after partitioning, K problems" in the status bar.
  void showAnalysisSummary(const widgets::ProgramSnapshot& program);

  widgets::RecentFiles* m_recentFiles;
  widgets::SessionContext* m_context;
  widgets::EngineController* m_controller;
  widgets::SourceView* m_sourceView;
  widgets::SourceView* m_stageText = nullptr;
  widgets::StageSelector* m_stageSelector = nullptr;
  widgets::ValuesPanel* m_values = nullptr;
  widgets::CollectivesPanel* m_collectives = nullptr;
  widgets::ProblemsPanel* m_problems = nullptr;
  widgets::InspectorPanel* m_inspector = nullptr;
  widgets::MeshView* m_mesh = nullptr;
  widgets::TensorShardingView* m_tensor = nullptr;
  widgets::ExecutionPanel* m_execution = nullptr;
  widgets::GraphPanel* m_graph = nullptr;
  QMenu* m_viewMenu = nullptr;
  QFileSystemWatcher* m_watcher;
  QProgressBar* m_progress;
  QPushButton* m_cancel;
  /// The form the program's shardings were written in (Shardy, GSPMD, round-trip).
  QLabel* m_inputForm;
  QString m_currentFile;
  bool m_dark = false;
  bool m_reloadPromptOpen = false;
  bool m_layoutRestored = false; // the dock layout came from the settings
  bool m_shownOnce = false;
  QByteArray m_pendingSession; // JSON applied after the next programLoaded
};

} // namespace shardscope::gui
