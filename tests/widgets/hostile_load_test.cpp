// The app's load of every hostile program in tests/data/bad, through the same path as File >
// Open (EngineController::load): no crash, a bounded time, and for every file that must fail at
// load (the command line's `check` refuses it) an error shown with its line and column. Files that
// fail only when run (an endless loop, a huge argument) may load; their background stages must
// then finish (or fail) within the bound too. Also a FIFO and a character device as the program:
// refused at once, never a blocked open.

#include "widgets/controller/engine_controller.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace shardscope::widgets;

namespace {

// Each load, and the stages after it, must be done within this (seconds); generous for Debug.
constexpr int kBoundMs = 20000;

const QString kBadDir = QStringLiteral(SHARDSCOPE_TEST_DATA_DIR "/bad");

// Whether the file must fail at load: the hostile suite runs a file without RUN lines through
// every command (so `check` must refuse it), and a file whose RUN lines include a plain
// `check %s`; every StableHLO verifier case fails at load.
bool mustFailAtLoad(const QString& path) {
  if (path.contains(QStringLiteral("/verifier/")))
    return true;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))
    return false;
  const QString text = QString::fromUtf8(file.readAll());
  static const QRegularExpression run(QStringLiteral("^//\\s*RUN:\\s*(.*)$"),
                                      QRegularExpression::MultilineOption);
  bool anyRun = false;
  for (auto it = run.globalMatch(text); it.hasNext();) {
    const QString command = it.next().captured(1).trimmed();
    anyRun = true;
    if (command == QStringLiteral("check %s"))
      return true;
  }
  return !anyRun;
}

struct LoadOutcome {
  bool loaded = false;
  bool failed = false;
  QVector<ProblemRow> problems;
  QString message;
  qint64 elapsedMs = 0;
};

LoadOutcome loadAndWait(EngineController& controller, const QString& path) {
  // Plain connections rather than QSignalSpy: the problems are not a registered metatype.
  LoadOutcome outcome;
  bool stagesDone = false;
  QObject context;
  QObject::connect(&controller, &EngineController::programLoaded, &context,
                   [&](ProgramSnapshotPtr) { outcome.loaded = true; });
  QObject::connect(&controller, &EngineController::loadFailed, &context,
                   [&](const QString&, const QString& message, const QVector<ProblemRow>& rows) {
                     outcome.failed = true;
                     outcome.message = message;
                     outcome.problems = rows;
                   });
  QObject::connect(&controller, &EngineController::stagesFinished, &context,
                   [&](ProgramSnapshotPtr, bool) { stagesDone = true; });
  QElapsedTimer timer;
  timer.start();
  controller.load(path);
  while (timer.elapsed() < kBoundMs && !outcome.loaded && !outcome.failed)
    QTest::qWait(20);
  // The background stages of a loaded program end too: computed, or failed with problems.
  while (outcome.loaded && !outcome.failed && timer.elapsed() < kBoundMs && !stagesDone)
    QTest::qWait(20);
  if (outcome.loaded && !stagesDone)
    outcome.loaded = false; // not finished in time
  outcome.elapsedMs = timer.elapsed();
  return outcome;
}

} // namespace

class HostileLoadTest : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void everyHostileFileLoadsOrFailsLocatedInBoundedTime() {
    QStringList files;
    for (QDirIterator it(kBadDir, {QStringLiteral("*.mlir")}, QDir::Files,
                         QDirIterator::Subdirectories);
         it.hasNext();)
      files << it.next();
    files.sort();
    QVERIFY2(files.size() >= 60, qPrintable(QString::number(files.size())));
    EngineController controller;
    int mustFail = 0;
    QStringList problems;
    for (const QString& path : files) {
      const QString name = QDir(kBadDir).relativeFilePath(path);
      qInfo("loading %s", qPrintable(name)); // names the file of a crash
      const LoadOutcome outcome = loadAndWait(controller, path);
      if (!outcome.loaded && !outcome.failed) {
        problems << name + QStringLiteral(": no result within the bound");
        continue;
      }
      if (!mustFailAtLoad(path))
        continue;
      ++mustFail;
      if (!outcome.failed) {
        problems << name + QStringLiteral(": loaded, but the command line refuses it");
        continue;
      }
      bool located = false;
      for (const ProblemRow& p : outcome.problems)
        located |= p.severity == QStringLiteral("error") && p.line > 0 && p.column > 0;
      if (!located)
        problems << name + QStringLiteral(": error without a line and column: ") + outcome.message;
    }
    QVERIFY2(mustFail >= 50, qPrintable(QString::number(mustFail)));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
  }

  void fifoAndDeviceAreRefusedAtOnce() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fifo = dir.filePath(QStringLiteral("program.mlir"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    EngineController controller;
    for (const QString& path : {fifo, QStringLiteral("/dev/zero")}) {
      const LoadOutcome outcome = loadAndWait(controller, path);
      QVERIFY2(outcome.failed, qPrintable(path));
      QVERIFY2(outcome.elapsedMs < 5000, qPrintable(path));
      QVERIFY2(outcome.message.contains(QStringLiteral("not a regular file")),
               qPrintable(outcome.message));
    }
  }
};

QTEST_MAIN(HostileLoadTest)
#include "hostile_load_test.moc"
