#pragma once
// Helpers for QtTest suites that drive the whole main window: open a program and wait for its
// stages, wait for a stage's graph, find an op's node, click an execution button and wait for
// its snapshot, keep settings in a temporary directory, and save screenshots to look at.

#include "app/gui/main_window.h"

#include "widgets/controller/engine_controller.h"
#include "widgets/controller/session_context.h"
#include "widgets/graph/graph_panel.h"

#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

namespace shardscope::widgets::testing {

/// Keeps the suite's settings in `dir` (call from `initTestCase`), so no run reads or writes the
/// user's own. Returns false when `dir` could not be created.
inline bool useSettingsIn(const QTemporaryDir& dir) {
  if (!dir.isValid())
    return false;
  QCoreApplication::setOrganizationName(QStringLiteral("ShardScope"));
  QCoreApplication::setApplicationName(QStringLiteral("ShardScope"));
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                     dir.filePath(QStringLiteral("config")));
  return true;
}

/// Opens `path` and waits until it is analysed, its background stages included, or failed to
/// load; true when analysed.
inline bool openAndWait(gui::MainWindow& window, const QString& path) {
  QSignalSpy loaded(&window, &gui::MainWindow::programLoaded);
  QSignalSpy failed(&window, &gui::MainWindow::programFailed);
  if (!window.openFile(path))
    return false;
  QElapsedTimer timer;
  timer.start();
  while (loaded.isEmpty() && failed.isEmpty() && timer.elapsed() < 30000)
    QTest::qWait(20);
  while (!loaded.isEmpty() && window.controller()->isComputingStages() && timer.elapsed() < 60000)
    QTest::qWait(20);
  return !loaded.isEmpty();
}

/// Waits for the graph of `stage` to be laid out and drawn; true when it is, without a status.
inline bool waitForGraph(GraphPanel* graph, StageId stage) {
  QElapsedTimer timer;
  timer.start();
  while ((!graph->graph() || graph->graph()->stage != stage || graph->scene()->items().isEmpty()) &&
         timer.elapsed() < 30000)
    QTest::qWait(20);
  return graph->graph() && graph->graph()->stage == stage && graph->graph()->status.isEmpty();
}

/// The node drawn for op `opId`, or null.
inline QGraphicsRectItem* nodeOf(GraphPanel* graph, const QString& opId) {
  for (QGraphicsItem* item : graph->scene()->items())
    if (auto* rect = dynamic_cast<QGraphicsRectItem*>(item);
        rect && rect->data(GraphPanel::OpData).toString() == opId)
      return rect;
  return nullptr;
}

/// Clicks `button` once the engine is idle and waits for the execution snapshot it produces.
inline bool clickAndWait(gui::MainWindow& window, const QString& button) {
  auto* b = window.findChild<QPushButton*>(button);
  QElapsedTimer timer;
  timer.start();
  while (b && (!b->isEnabled() || window.controller()->isBusy()) && timer.elapsed() < 30000)
    QTest::qWait(10);
  if (!b || !b->isEnabled())
    return false;
  QSignalSpy changed(window.context(), &SessionContext::executionChanged);
  b->click();
  while ((changed.isEmpty() || window.controller()->isBusy()) && timer.elapsed() < 30000)
    QTest::qWait(10);
  return !changed.isEmpty();
}

/// For looking at the views: with SHARDSCOPE_TEST_SCREENSHOT_DIR=DIR, saves the window at
/// 1440x900 as DIR/NAME.png with the dock `dock` raised, and that dock on its own, floating and
/// roomier, as DIR/NAME_dock.png. Does nothing without the variable.
inline void saveScreenshot(gui::MainWindow& window, const QString& dock, const QString& name) {
  const QString shots = qEnvironmentVariable("SHARDSCOPE_TEST_SCREENSHOT_DIR");
  if (shots.isEmpty())
    return;
  window.resize(1440, 900);
  auto* d = window.findChild<QDockWidget*>(dock);
  if (d)
    d->raise();
  QTest::qWait(50);
  window.grab().save(QDir(shots).filePath(name + QStringLiteral(".png")));
  if (!d)
    return;
  d->setFloating(true);
  d->resize(1100, 650);
  QTest::qWait(50);
  d->grab().save(QDir(shots).filePath(name + QStringLiteral("_dock.png")));
  d->setFloating(false);
}

} // namespace shardscope::widgets::testing
