// GUI benchmarks (not tests: they print figures and never fail on them). Run offscreen through
// tests/bench/run_gui_benchmarks.sh BUILD_DIR.
//
//   shardscope-gui-bench launch FILE [FUNCTION]
//     Time from process start (and from main()) to the first paint of the graph view with the
//     laid-out nodes of FILE, with the main window as the app shows it; with FUNCTION, then the
//     time from choosing that function in the graph to its first paint; then the time until every
//     stage is computed in the background, and the longest event-loop stall in each phase.
//   shardscope-gui-bench stalls FILE [STEPS]
//     Loads FILE, starts a run and clicks Step STEPS times (default 200: half one at a time, half
//     in bursts), then Continue to the end, while a 10 ms timer records the event loop's gaps;
//     prints the max and p99 stall of each phase.

#include "app/gui/main_window.h"

#include "widgets/controller/engine_controller.h"
#include "widgets/controller/session_context.h"
#include "widgets/graph/graph_panel.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QPointer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>

#include <unistd.h>
#include <vector>

namespace {

using shardscope::gui::MainWindow;
using shardscope::widgets::EngineController;
using shardscope::widgets::GraphPanel;

// Started before main() (static initialisation), so "from main" includes nothing but it.
QElapsedTimer& clock() {
  static QElapsedTimer timer;
  return timer;
}
const bool kClockStarted = [] {
  clock().start();
  return true;
}();

// Milliseconds from the process's start (as the kernel records it, 10 ms ticks) to now.
double msSinceProcessStart() {
  QFile stat(QStringLiteral("/proc/self/stat"));
  QFile uptime(QStringLiteral("/proc/uptime"));
  if (!stat.open(QIODevice::ReadOnly) || !uptime.open(QIODevice::ReadOnly))
    return -1;
  const QByteArray line = stat.readAll();
  // Field 22 (starttime, clock ticks after boot); fields after the `(comm)` one.
  const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
  if (fields.size() < 20)
    return -1;
  const double startTicks = fields[19].toDouble();
  const double up = uptime.readAll().split(' ').value(0).toDouble();
  return (up - startTicks / static_cast<double>(sysconf(_SC_CLK_TCK))) * 1000.0;
}

// Records the gaps between the ticks of a 10 ms timer: a gap much longer than 10 ms is a stall of
// the event loop (the UI thread was busy).
class StallMeter : public QObject {
public:
  StallMeter() {
    m_timer.setInterval(10);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, [this] {
      const qint64 now = m_clock.nsecsElapsed();
      m_gaps.push_back((now - m_last) / 1e6);
      m_last = now;
    });
  }
  void start() {
    m_gaps.clear();
    m_clock.start();
    m_last = 0;
    m_timer.start();
  }
  // The stall of a gap: the time beyond the timer's own 10 ms.
  void report(const char* phase) {
    m_timer.stop();
    std::vector<double> stalls;
    for (double g : m_gaps)
      stalls.push_back(std::max(0.0, g - 10.0));
    std::sort(stalls.begin(), stalls.end());
    const double max = stalls.empty() ? 0 : stalls.back();
    const double p99 = stalls.empty() ? 0 : stalls[(stalls.size() - 1) * 99 / 100];
    const auto over = std::count_if(stalls.begin(), stalls.end(), [](double s) { return s > 100; });
    std::printf("  %-34s max stall %7.1f ms, p99 %6.1f ms, %zu ticks, %ld over 100 ms\n", phase,
                max, p99, stalls.size(), static_cast<long>(over));
  }

private:
  QTimer m_timer;
  QElapsedTimer m_clock;
  qint64 m_last = 0;
  std::vector<double> m_gaps;
};

// Waits (running the event loop) until `done` or `timeoutMs`; false on timeout.
template <typename Pred> bool waitFor(Pred done, int timeoutMs) {
  QElapsedTimer waited;
  waited.start();
  while (!done()) {
    if (waited.elapsed() > timeoutMs)
      return false;
    // Sleeps in the event loop (no busy polling: the engine thread needs the other core).
    QEventLoop loop;
    QTimer::singleShot(5, &loop, &QEventLoop::quit);
    loop.exec();
  }
  return true;
}

// Calls `onPaint` once after the graph view paints laid-out nodes.
class PaintWatcher : public QObject {
public:
  PaintWatcher(GraphPanel* panel, std::function<void()> onPaint, QString function = QString())
      : m_panel(panel), m_onPaint(std::move(onPaint)), m_function(std::move(function)) {}
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::Paint && !m_done && m_panel->graph() &&
        (m_function.isEmpty() || m_panel->graph()->function == m_function) &&
        !m_panel->graph()->nodes.isEmpty() && !m_panel->scene()->items().isEmpty()) {
      m_done = true;
      // Right after this paint event has been handled.
      QTimer::singleShot(0, this, m_onPaint);
    }
    return QObject::eventFilter(watched, event);
  }

private:
  GraphPanel* m_panel;
  std::function<void()> m_onPaint;
  QString m_function;
  bool m_done = false;
};

int launch(const QString& file, const QString& function) {
  const double processAtMain = msSinceProcessStart() - clock().elapsed();
  MainWindow window;
  window.resize(1440, 900);
  auto* panel = window.findChild<GraphPanel*>(QStringLiteral("graphPanel"));
  auto* canvas = panel ? panel->findChild<QGraphicsView*>(QStringLiteral("graphCanvas")) : nullptr;
  if (!canvas) {
    std::fprintf(stderr, "gui-bench: the window has no graph canvas\n");
    return 1;
  }
  StallMeter stalls;
  stalls.start();
  qint64 loadedMs = -1, paintedMs = -1;
  QObject::connect(&window, &MainWindow::programLoaded, [&] { loadedMs = clock().elapsed(); });
  PaintWatcher watcher(panel, [&] { paintedMs = clock().elapsed(); });
  canvas->viewport()->installEventFilter(&watcher);
  window.openFile(file);
  window.show();
  if (!waitFor([&] { return paintedMs >= 0; }, 300000)) {
    std::fprintf(stderr, "gui-bench: no graph was painted (%s)\n",
                 panel->graph() ? qPrintable(panel->graph()->status) : "no graph");
    return 1;
  }
  const auto graph = panel->graph();
  std::printf("launch %s\n", qPrintable(file));
  std::printf("  program loaded (as written)        %7lld ms after main()\n", loadedMs);
  std::printf("  graph painted                      %7lld ms after main(), %.0f ms after process "
              "start (%lld nodes shown of %lld ops)\n",
              paintedMs, paintedMs + processAtMain, static_cast<long long>(graph->nodes.size()),
              static_cast<long long>(graph->opCount));
  stalls.report("launch to paint:");
  if (!function.isEmpty()) {
    // Another function of the same stage, as if chosen in the graph's function box.
    auto* combo = panel->findChild<QComboBox*>(QStringLiteral("graphFunctionCombo"));
    const int index = combo ? combo->findText(function) : -1;
    if (index < 0) {
      std::fprintf(stderr, "gui-bench: no function '%s' in the graph\n", qPrintable(function));
      return 1;
    }
    stalls.start();
    QElapsedTimer chosen;
    chosen.start();
    qint64 shownMs = -1;
    PaintWatcher functionWatcher(
        panel, [&] { shownMs = chosen.elapsed(); }, function);
    canvas->viewport()->installEventFilter(&functionWatcher);
    combo->setCurrentIndex(index);
    Q_EMIT combo->activated(index);
    if (!waitFor([&] { return shownMs >= 0; }, 300000)) {
      std::fprintf(stderr, "gui-bench: the graph of '%s' was not painted (%s)\n",
                   qPrintable(function), qPrintable(panel->graph()->status));
      return 1;
    }
    std::printf("  graph of @%-24s %7lld ms after choosing it (%lld nodes shown of %lld ops)\n",
                qPrintable(function), shownMs, static_cast<long long>(panel->graph()->nodes.size()),
                static_cast<long long>(panel->graph()->opCount));
    stalls.report("choose a function:");
  }
  stalls.start();
  EngineController* controller = window.controller();
  waitFor([&] { return !controller->isComputingStages() && !controller->isBusy(); }, 600000);
  std::printf("  every stage computed               %7lld ms after main()\n", clock().elapsed());
  stalls.report("stages in the background:");
  return 0;
}

int stallsWhileStepping(const QString& file, int steps) {
  MainWindow window;
  window.resize(1440, 900);
  window.show();
  EngineController* controller = window.controller();
  StallMeter stalls;
  std::printf("stalls %s\n", qPrintable(file));
  stalls.start();
  QSignalSpy loaded(&window, &MainWindow::programLoaded);
  window.openFile(file);
  if (!waitFor([&] { return loaded.count() > 0; }, 300000)) {
    std::fprintf(stderr, "gui-bench: the program did not load\n");
    return 1;
  }
  waitFor([&] { return !controller->isBusy(); }, 300000);
  stalls.report("load and first graph:");
  auto* start = window.findChild<QAbstractButton*>(QStringLiteral("startButton"));
  auto* step = window.findChild<QAbstractButton*>(QStringLiteral("stepButton"));
  auto* cont = window.findChild<QAbstractButton*>(QStringLiteral("runToEndButton"));
  if (!start || !step || !cont) {
    std::fprintf(stderr, "gui-bench: the window has no Start/Step/To End buttons\n");
    return 1;
  }
  stalls.start();
  QElapsedTimer timer;
  timer.start();
  // Start waits for the per-device stage when the background has not computed it yet.
  waitFor([&] { return start->isEnabled(); }, 300000);
  start->click();
  if (!waitFor(
          [&] {
            auto e = window.context()->execution();
            return e && e->started && !controller->isBusy();
          },
          300000)) {
    std::fprintf(stderr, "gui-bench: the run did not start\n");
    return 1;
  }
  std::printf("  run started                        %7lld ms\n", timer.elapsed());
  stalls.report("start the run:");
  stalls.start();
  timer.restart();
  int clicked = 0;
  // One at a time: click, wait for the result; a finished run is restarted (small programs).
  const auto finished = [&] {
    auto e = window.context()->execution();
    return e && (e->finished || e->failed);
  };
  int restarts = 0;
  for (; clicked < steps / 2; ++clicked) {
    if (!waitFor([&] { return step->isEnabled() || (finished() && start->isEnabled()); }, 60000))
      break;
    if (!step->isEnabled()) {
      start->click();
      ++restarts;
    }
    step->click();
  }
  waitFor([&] { return !controller->isBusy(); }, 60000);
  // Bursts: the step command directly, without waiting (ten F6 presses in a row).
  for (; clicked < steps; ++clicked) {
    if (finished()) {
      waitFor([&] { return !controller->isBusy(); }, 60000);
      start->click();
      ++restarts;
    }
    controller->step(EngineController::StepKind::Step);
    if (clicked % 10 == 9)
      waitFor([&] { return !controller->isBusy(); }, 60000);
  }
  waitFor([&] { return !controller->isBusy(); }, 60000);
  std::printf("  %d steps, %d restarts               %7lld ms\n", clicked, restarts,
              timer.elapsed());
  stalls.report("stepping:");
  stalls.start();
  timer.restart();
  if (cont->isEnabled())
    cont->click();
  waitFor(
      [&] {
        auto e = window.context()->execution();
        return e && (e->finished || e->failed) && !controller->isBusy();
      },
      600000);
  std::printf("  continue to the end                %7lld ms (%lld steps)\n", timer.elapsed(),
              static_cast<long long>(window.context()->execution()->steps));
  stalls.report("continue to the end:");
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  // The window's settings (dock layout, recent files) must not come from the user's.
  QStandardPaths::setTestModeEnabled(true);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  QApplication app(argc, argv);
  const QStringList args = QCoreApplication::arguments();
  if (args.size() >= 3 && args[1] == QLatin1String("launch"))
    return launch(args[2], args.value(3));
  if (args.size() >= 3 && args[1] == QLatin1String("stalls"))
    return stallsWhileStepping(args[2], args.size() >= 4 ? args[3].toInt() : 200);
  std::fprintf(stderr, "usage: shardscope-gui-bench launch FILE [FUNCTION]\n"
                       "       shardscope-gui-bench stalls FILE [STEPS]\n");
  return 2;
}
