// The `shardscope` desktop app: parses the command line and shows the main window.

#include "app/gui/main_window.h"

#include "widgets/controller/engine_controller.h"
#include "widgets/controller/session_context.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QPixmap>
#include <QRegularExpression>
#include <QTimer>

#include <cstdio>
#include <optional>

namespace {

struct Options {
  QString program;        // empty: start without a program
  QString screenshotPath; // empty: run interactively
  QString select;         // a value to select once the program is analysed
  QString stage;          // the stage to show
  bool dark = false;
  QSize size{1440, 900};  // the window size of a screenshot
  QString diffWith;       // a program to diff with (empty: none)
};

// Parses the command line of `app`; exits for --help and --version, and returns nothing after
// printing an error for a bad command line.
std::optional<Options> parseCommandLine(const QApplication& app) {
  QCommandLineParser parser;
  parser.setApplicationDescription(QCoreApplication::translate(
      "main", "See how a tensor program is sharded over a device mesh."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(
      QStringLiteral("program"),
      QCoreApplication::translate("main",
                                  "The MLIR program to open (StableHLO with Shardy shardings)."),
      QStringLiteral("[program]"));
  const QCommandLineOption screenshotOption(
      QStringLiteral("screenshot"),
      QCoreApplication::translate(
          "main", "Render the window to the PNG <file> once it is shown, then exit."),
      QStringLiteral("file"));
  parser.addOption(screenshotOption);
  const QCommandLineOption selectOption(
      QStringLiteral("select"),
      QCoreApplication::translate("main", "Select the value <name> (e.g. %0 or arg:main#1), or "
                                          "the op with that id (line:column:op, e.g. "
                                          "12:5:stablehlo.all_reduce)."),
      QStringLiteral("name"));
  parser.addOption(selectOption);
  const QCommandLineOption stageOption(
      QStringLiteral("stage"),
      QCoreApplication::translate(
          "main", "Show <stage>: as-written, propagated, partitioned or per-device."),
      QStringLiteral("stage"));
  parser.addOption(stageOption);
  const QCommandLineOption diffOption(
      QStringLiteral("diff-with"),
      QCoreApplication::translate("main", "Diff every stage with the same stage of the program "
                                          "<file> (as report --diff-with does)."),
      QStringLiteral("file"));
  parser.addOption(diffOption);
  const QCommandLineOption darkOption(
      QStringLiteral("dark"), QCoreApplication::translate("main", "Use the dark palette."));
  parser.addOption(darkOption);
  const QCommandLineOption sizeOption(
      QStringLiteral("size"),
      QCoreApplication::translate("main", "The window size of --screenshot, e.g. 1024x700 "
                                          "(default 1440x900)."),
      QStringLiteral("WxH"));
  parser.addOption(sizeOption);
  parser.process(app);

  const QStringList programs = parser.positionalArguments();
  if (programs.size() > 1) {
    std::fprintf(stderr, "shardscope: expected at most one program, got %lld\n",
                 static_cast<long long>(programs.size()));
    return std::nullopt;
  }
  Options options{programs.value(0), parser.value(screenshotOption), parser.value(selectOption),
                  parser.value(stageOption), parser.isSet(darkOption)};
  options.diffWith = parser.value(diffOption);
  // Checked here: a screenshot must not silently show no diff.
  if (!options.diffWith.isEmpty() &&
      (!QFileInfo(options.diffWith).isFile() || !QFileInfo(options.diffWith).isReadable())) {
    std::fprintf(stderr, "shardscope: --diff-with: cannot read '%s'\n",
                 qPrintable(options.diffWith));
    return std::nullopt;
  }
  if (parser.isSet(sizeOption)) {
    const QStringList wh = parser.value(sizeOption).split(QLatin1Char('x'));
    bool okW = false, okH = false;
    const int w = wh.value(0).toInt(&okW), h = wh.value(1).toInt(&okH);
    if (wh.size() != 2 || !okW || !okH || w < 320 || h < 240 || w > 16384 || h > 16384) {
      std::fprintf(stderr, "shardscope: --size wants WxH between 320x240 and 16384x16384, got '%s'\n",
                   qPrintable(parser.value(sizeOption)));
      return std::nullopt;
    }
    options.size = QSize(w, h);
  }
  shardscope::widgets::StageId stage;
  if (!options.stage.isEmpty() && !shardscope::widgets::parseStageKey(options.stage, &stage)) {
    std::fprintf(stderr, "shardscope: unknown stage '%s'\n", qPrintable(options.stage));
    return std::nullopt;
  }
  return options;
}

// Renders `window` into the PNG file `path` once the event loop runs (so the window is shown
// and laid out), then ends the event loop: 0 when the file was written, 1 otherwise.
void screenshotAndQuit(shardscope::gui::MainWindow* window, const QString& path) {
  // Wait until the engine is idle (the graph layout follows the analysis, the stages follow the
  // load), then let the queued snapshot updates and the widget layout run.
  auto* poll = new QTimer(window);
  auto* waited = new QElapsedTimer;
  waited->start();
  poll->setInterval(20);
  QObject::connect(poll, &QTimer::timeout, window, [window, path, poll, waited] {
    const auto* controller = window->controller();
    if ((controller->isBusy() || controller->isComputingStages()) && waited->elapsed() < 30000)
      return;
    poll->stop();
    delete waited;
    QTimer::singleShot(50, window, [window, path] {
    // The panels a screenshot must show; a missing one is a failure, not a blank area.
    for (const char* name : {"sourceView", "valuesPanel", "collectivesPanel", "problemsPanel",
                             "inspectorPanel", "meshView", "tensorShardingView",
                             "executionPanel", "stageSelector", "graphPanel"})
      if (!window->findChild<QWidget*>(QString::fromLatin1(name))) {
        std::fprintf(stderr, "shardscope: the window has no panel '%s'\n", name);
        QCoreApplication::exit(1);
        return;
      }
    const QImage image = window->grab().toImage();
    if (image.isNull() || image.width() < 100 || image.height() < 100) {
      std::fprintf(stderr, "shardscope: the window rendered an empty image\n");
      QCoreApplication::exit(1);
      return;
    }
    if (image.save(path, "PNG")) {
      QCoreApplication::exit(0);
      return;
    }
    std::fprintf(stderr, "shardscope: could not write screenshot %s\n", qPrintable(path));
    QCoreApplication::exit(1);
    });
  });
  poll->start();
}

} // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QCoreApplication::setOrganizationName(QStringLiteral("ShardScope"));
  QCoreApplication::setApplicationName(QStringLiteral("ShardScope"));
  QCoreApplication::setApplicationVersion(QStringLiteral(SHARDSCOPE_VERSION_STRING));

  const std::optional<Options> options = parseCommandLine(app);
  if (!options)
    return 2;

  shardscope::gui::MainWindow window;
  if (options->dark)
    window.setDarkPalette(true, /*remember=*/false);
  // Select and show the stage once the program is analysed; then take the screenshot.
  QObject::connect(&window, &shardscope::gui::MainWindow::programLoaded, &window, [&] {
    shardscope::widgets::StageId stage;
    if (!options->stage.isEmpty() && shardscope::widgets::parseStageKey(options->stage, &stage))
      window.context()->setStage(stage);
    // An op id (`12:5:stablehlo.all_reduce`, as the views name ops) selects that op, anything
    // else a value.
    static const QRegularExpression opId(QStringLiteral("^\\d+:\\d+:"));
    if (!options->diffWith.isEmpty() && !window.context()->diffProgram())
      window.diffWithProgram(options->diffWith);
    if (opId.match(options->select).hasMatch())
      window.context()->selectOp(options->select);
    else if (!options->select.isEmpty())
      window.context()->selectValue(options->select);
  });
  const bool screenshot = !options->screenshotPath.isEmpty();
  if (screenshot && !options->diffWith.isEmpty())
    // A diff that cannot be made fails the screenshot rather than showing no diff.
    QObject::connect(window.controller(),
                     &shardscope::widgets::EngineController::diffProgramFailed, &window,
                     [](const QString& message) {
                       std::fprintf(stderr, "shardscope: %s\n", qPrintable(message));
                       QCoreApplication::exit(1);
                     });
  if (screenshot) {
    window.resize(options->size);
    auto shoot = [&] { screenshotAndQuit(&window, options->screenshotPath); };
    QObject::connect(&window, &shardscope::gui::MainWindow::programLoaded, &window, shoot);
    QObject::connect(&window, &shardscope::gui::MainWindow::programFailed, &window, shoot);
  }
  bool opened = false;
  if (!options->program.isEmpty())
    opened = window.openFile(options->program);
  window.show();
  if (screenshot && !opened)
    screenshotAndQuit(&window, options->screenshotPath);
  return QApplication::exec();
}
