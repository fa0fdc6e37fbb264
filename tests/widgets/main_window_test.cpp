#include "app/gui/main_window.h"

#include "widgets/controller/recent_files.h"

#include <QFile>
#include <QFileInfo>
#include <QFontInfo>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

using shardscope::gui::MainWindow;
using shardscope::widgets::RecentFiles;

namespace {

const QString kSimpleProgram = QStringLiteral(SHARDSCOPE_TEST_DATA_DIR "/simple.mlir");

QString readText(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
    return {};
  return QString::fromUtf8(file.readAll());
}

QPlainTextEdit* sourceView(const MainWindow& window) {
  return window.findChild<QPlainTextEdit*>(QStringLiteral("sourceView"));
}

} // namespace

class MainWindowTest : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("ShardScope"));
    QCoreApplication::setApplicationName(QStringLiteral("ShardScope"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                       m_dir.filePath(QStringLiteral("config")));
  }

  void init() { QSettings().clear(); }

  void startsWithoutProgram() {
    MainWindow window;
    QCOMPARE(window.windowTitle(), QStringLiteral("ShardScope"));
    QVERIFY(window.currentFile().isEmpty());
    QPlainTextEdit* view = sourceView(window);
    QVERIFY(view);
    QVERIFY(view->toPlainText().isEmpty());
    QVERIFY(view->isReadOnly());
    QVERIFY(QFontInfo(view->font()).fixedPitch());
  }

  void hasWindowIcon() {
    MainWindow window;
    QVERIFY(!window.windowIcon().pixmap(32, 32).isNull());
  }

  void opensProgram_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("title");
    QTest::newRow("test data") << kSimpleProgram << QStringLiteral("simple.mlir \u2014 ShardScope");
    QTest::newRow("name with spaces and unicode")
        << writeProgram(QStringLiteral("my m\u00f6del.mlir"))
        << QStringLiteral("my m\u00f6del.mlir \u2014 ShardScope");
  }

  void opensProgram() {
    QFETCH(QString, path);
    QFETCH(QString, title);
    const QString text = readText(path);
    QVERIFY(!text.isEmpty());

    MainWindow window;
    QVERIFY(window.openFile(path));
    QCOMPARE(window.windowTitle(), title);
    QCOMPARE(window.currentFile(), QFileInfo(path).absoluteFilePath());
    QCOMPARE(sourceView(window)->toPlainText(), text);
  }

  // The status bar names the form the shardings were written in once the program is analysed.
  void showsInputForm_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("form");
    QTest::newRow("Shardy") << readText(kSimpleProgram) << QStringLiteral("Shardy");
    QTest::newRow("no sharding") << QStringLiteral(
        "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
        "  return %arg0 : tensor<8xf32>\n}\n") << QStringLiteral("unsharded");
  }

  void showsInputForm() {
    QFETCH(QString, text);
    QFETCH(QString, form);
    const QString path = m_dir.filePath(QStringLiteral("form.mlir"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text.toUtf8());
    file.close();
    MainWindow window;
    QSignalSpy loaded(&window, &MainWindow::programLoaded);
    QVERIFY(window.openFile(path));
    QVERIFY(loaded.count() > 0 || loaded.wait(20000));
    auto* label = window.findChild<QLabel*>(QStringLiteral("inputFormLabel"));
    QVERIFY(label);
    QCOMPARE(label->text(), form);
    QVERIFY(!label->toolTip().isEmpty());
  }

  void showsErrorForMissingFile() {
    const QString missing = m_dir.filePath(QStringLiteral("missing.mlir"));
    MainWindow window;
    QVERIFY(!window.openFile(missing));
    const QString message = window.statusBar()->currentMessage();
    QVERIFY2(message.startsWith(QStringLiteral("Could not open ")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("missing.mlir")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("No such file")), qPrintable(message));
    QCOMPARE(window.windowTitle(), QStringLiteral("ShardScope"));
    QVERIFY(window.currentFile().isEmpty());
    QVERIFY(RecentFiles().files().isEmpty());
  }

  void failedOpenKeepsCurrentProgram() {
    MainWindow window;
    QVERIFY(window.openFile(kSimpleProgram));
    QVERIFY(!window.openFile(m_dir.filePath(QStringLiteral("missing.mlir"))));
    QCOMPARE(window.windowTitle(), QStringLiteral("simple.mlir \u2014 ShardScope"));
    QCOMPARE(sourceView(window)->toPlainText(), readText(kSimpleProgram));
  }

  void recordsOpenedFileInRecentFiles() {
    const QString absolutePath = QFileInfo(kSimpleProgram).absoluteFilePath();
    MainWindow window;
    QVERIFY(window.openFile(kSimpleProgram));
    QCOMPARE(RecentFiles().files(), QStringList{absolutePath});
    QCOMPARE(QSettings().value(QStringLiteral("recentFiles")).toStringList(),
             QStringList{absolutePath});

    auto* menu = window.findChild<QMenu*>(QStringLiteral("recentFilesMenu"));
    QVERIFY(menu);
    QVERIFY(menu->isEnabled());
    QCOMPARE(menu->actions().value(0)->data().toString(), absolutePath);
  }

  void reopensFileFromRecentFilesMenu() {
    const QString other = writeProgram(QStringLiteral("other.mlir"));
    MainWindow window;
    QVERIFY(window.openFile(kSimpleProgram));
    QVERIFY(window.openFile(other));
    auto* menu = window.findChild<QMenu*>(QStringLiteral("recentFilesMenu"));
    QVERIFY(menu);
    // Newest first: the entry for simple.mlir is the second one.
    QAction* entry = menu->actions().value(1);
    QVERIFY(entry);
    QCOMPARE(entry->data().toString(), QFileInfo(kSimpleProgram).absoluteFilePath());
    entry->trigger();
    QCOMPARE(window.windowTitle(), QStringLiteral("simple.mlir \u2014 ShardScope"));
    QCOMPARE(RecentFiles().files().value(0), QFileInfo(kSimpleProgram).absoluteFilePath());
  }

  void dropsUnreadableFileFromRecentFiles() {
    const QString doomed = writeProgram(QStringLiteral("doomed.mlir"));
    MainWindow window;
    QVERIFY(window.openFile(doomed));
    QVERIFY(RecentFiles().files().contains(doomed));
    QVERIFY(QFile::remove(doomed));
    QVERIFY(!window.openFile(doomed));
    QVERIFY(!RecentFiles().files().contains(doomed));
  }

  void remembersGeometry() {
    const QSize size(640, 480);
    {
      MainWindow window;
      window.show();
      window.resize(size);
      QVERIFY(QTest::qWaitForWindowExposed(&window));
      window.close();
    }
    MainWindow window;
    QCOMPARE(window.size(), size);
  }

private:
  // Writes a copy of the test program under `name` into the temporary directory.
  QString writeProgram(const QString& name) {
    const QString path = m_dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(readText(kSimpleProgram).toUtf8()) < 0)
      return {};
    return path;
  }

  QTemporaryDir m_dir;
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
