// SourceView: small texts are shown at once; large ones are split into lines on a worker thread
// and shown when ready, the last text given wins, highlights set meanwhile apply to it, and a
// long line stays one row.

#include "widgets/views/source_view.h"

#include <QScrollBar>
#include <QSignalSpy>
#include <QTextBlock>
#include <QtTest>

using shardscope::widgets::SourceView;

namespace {

// `lines` numbered lines, the first one long (no wrapping: still one row), past the size from
// which SourceView prepares texts in the background.
QString bigText(int lines, const QString& tag) {
  QStringList text{tag + QString(300, QLatin1Char('x'))};
  for (int i = 2; i <= lines; ++i)
    text << QStringLiteral("  %%1 = stablehlo.add %a, %b : tensor<8x16xf32>  // %2 line %3")
                .arg(i)
                .arg(tag)
                .arg(i);
  return text.join(QLatin1Char('\n'));
}

} // namespace

class SourceViewTest : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void smallTextIsShownAtOnce() {
    SourceView view;
    QSignalSpy shown(&view, &SourceView::textShown);
    view.showText(QStringLiteral("a\nb\nc"));
    QVERIFY(!view.isLoading());
    QCOMPARE(view.toPlainText(), QStringLiteral("a\nb\nc"));
    QCOMPARE(view.blockCount(), 3);
    QCOMPARE(shown.count(), 1);
    // The same text again changes nothing (the selection stays).
    view.setHighlights(2, {});
    view.showText(QStringLiteral("a\nb\nc"));
    QCOMPARE(shown.count(), 1);
    QCOMPARE(view.textCursor().blockNumber(), 1);
  }

  void largeTextIsPreparedInTheBackground() {
    SourceView view;
    view.resize(600, 400);
    view.show();
    const QString text = bigText(20000, QStringLiteral("first"));
    QVERIFY(text.size() >= SourceView::kBackgroundTextSize);
    QSignalSpy shown(&view, &SourceView::textShown);
    view.showText(text);
    QVERIFY(view.isLoading());
    QVERIFY(view.toPlainText().isEmpty());
    QVERIFY(view.placeholderText().startsWith(QLatin1String("Loading")));
    // Highlights set while loading apply to the text once it is there.
    view.setHighlights(1234, {77});
    QVERIFY(shown.wait(30000));
    QVERIFY(!view.isLoading());
    QCOMPARE(view.toPlainText(), text);
    QCOMPARE(view.blockCount(), 20000);
    QCOMPARE(view.textCursor().blockNumber(), 1233);
    QCOMPARE(view.extraSelections().size(), 2);
    QVERIFY(view.placeholderText().isEmpty());
    // No wrapping in the new document either: the long first line, laid out, is one row.
    view.verticalScrollBar()->setValue(0);
    QTest::qWait(50);
    const QTextBlock first = view.document()->firstBlock();
    QVERIFY(first.layout()->lineCount() > 0);
    QCOMPARE(first.lineCount(), 1);
    QCOMPARE(view.document()->defaultFont(), view.font());
  }

  void laterTextWins() {
    SourceView view;
    QSignalSpy shown(&view, &SourceView::textShown);
    view.showText(bigText(20000, QStringLiteral("stale")));
    view.showText(bigText(15000, QStringLiteral("fresh")));
    QVERIFY(shown.wait(30000));
    // Let the first text's worker finish too: it must not replace the second.
    QThreadPool::globalInstance()->waitForDone();
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    QCOMPARE(shown.count(), 1);
    QCOMPARE(view.blockCount(), 15000);
    QVERIFY(view.toPlainText().startsWith(QLatin1String("fresh")));
    // A small text after a large one still loading wins as well.
    view.showText(bigText(20000, QStringLiteral("stale")));
    view.showText(QStringLiteral("small"));
    QThreadPool::globalInstance()->waitForDone();
    QCoreApplication::processEvents();
    QCOMPARE(view.toPlainText(), QStringLiteral("small"));
    QVERIFY(!view.isLoading());
  }
};

QTEST_MAIN(SourceViewTest)
#include "source_view_test.moc"
