// SourceView: small texts are shown at once; large ones are split into lines on a worker thread
// and shown when ready, the last text given wins, highlights set meanwhile apply to it, and a
// long line stays one row.

#include "widgets/views/mlir_syntax.h"
#include "widgets/views/source_view.h"

#include <QScrollBar>
#include <QSignalSpy>
#include <QTextBlock>
#include <QtTest>

using namespace shardscope::widgets;

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

  void scansTheTokensOfAnMlirLine() {
    using T = MlirToken;
    // Spans by hand from the line's characters.
    const QString line = QStringLiteral(
        "  %0:2 = \"sdy.x\"(%arg0) {a = #sdy.sharding<@mesh, [{\"x\"}]>} : (tensor<16x8xf32>) "
        "-> !stablehlo.token // done");
    const QVector<MlirSpan> spans = scanMlirLine(line);
    const auto at = [&](const QString& piece) { return int(line.indexOf(piece)); };
    const QVector<MlirSpan> expected{
        {at(QStringLiteral("%0:2")), 4, T::Value},
        {at(QStringLiteral("\"sdy.x\"")), 7, T::String},
        {at(QStringLiteral("%arg0")), 5, T::Value},
        {at(QStringLiteral("#sdy.sharding")), 13, T::Alias},
        {at(QStringLiteral("@mesh")), 5, T::Symbol},
        {at(QStringLiteral("\"x\"")), 3, T::String},
        {at(QStringLiteral("tensor<")), 6, T::Type},
        {at(QStringLiteral("f32>")), 3, T::Type},
        {at(QStringLiteral("!stablehlo.token")), 16, T::Alias},
        {at(QStringLiteral("// done")), 7, T::Comment},
    };
    QCOMPARE(spans, expected);
    const QString op = QStringLiteral("%1 = stablehlo.add %x, %cst_0 : tensor<bf16> // \"y");
    const QVector<MlirSpan> opSpans = scanMlirLine(op);
    QCOMPARE(opSpans.size(), 7);
    QCOMPARE(opSpans[1], (MlirSpan{5, 13, T::OpName}));
    QCOMPARE(opSpans[3], (MlirSpan{int(op.indexOf(QLatin1String("%cst_0"))), 6, T::Value}));
    QCOMPARE(opSpans[4], (MlirSpan{int(op.indexOf(QLatin1String("tensor"))), 6, T::Type}));
    QCOMPARE(opSpans[5], (MlirSpan{int(op.indexOf(QLatin1String("bf16"))), 4, T::Type}));
    // A quote inside a comment starts no string.
    QCOMPARE(opSpans[6], (MlirSpan{int(op.indexOf(QLatin1String("//"))), 5, T::Comment}));
    const QVector<MlirSpan> numbers = scanMlirLine(QStringLiteral("dense<[-1.5e+03, 0x7F, 2]>"));
    QCOMPARE(numbers.size(), 3);
    QCOMPARE(numbers[0], (MlirSpan{7, 8, T::Number}));
    QCOMPARE(numbers[1], (MlirSpan{17, 4, T::Number}));
    QCOMPARE(numbers[2], (MlirSpan{23, 1, T::Number}));
  }

  void coloursTheLinesItShows() {
    SourceView view;
    view.resize(600, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QString text = bigText(20000, QStringLiteral("t"));
    QSignalSpy shown(&view, &SourceView::textShown);
    view.showText(text);
    QVERIFY(shown.wait(30000));
    QTest::qWait(50);
    // A visible line carries the colours of its tokens; one far below is not coloured yet.
    const QTextBlock second = view.document()->findBlockByNumber(1);
    const QVector<QTextLayout::FormatRange> formats = second.layout()->formats();
    QVERIFY(formats.size() >= 5);
    const QColor comment = mlirTokenColor(MlirToken::Comment, false);
    QVERIFY(std::any_of(formats.begin(), formats.end(), [&](const QTextLayout::FormatRange& r) {
      return r.format.foreground().color() == comment &&
             second.text().mid(r.start, r.length).startsWith(QLatin1String("//"));
    }));
    QVERIFY(view.document()->findBlockByNumber(15000).layout()->formats().isEmpty());
    // Scrolled into view, it is coloured too.
    view.setHighlights(15001, {});
    QTest::qWait(50);
    QVERIFY(!view.document()->findBlockByNumber(15000).layout()->formats().isEmpty());

    // A small text, shown at once, is coloured as soon as it is painted.
    SourceView small;
    small.resize(400, 200);
    small.showText(QStringLiteral("// c\n%0 = stablehlo.abs %x : tensor<f32>"));
    small.show();
    QVERIFY(QTest::qWaitForWindowExposed(&small));
    (void)small.grab();
    QVERIFY(!small.document()->firstBlock().layout()->formats().isEmpty());
    QVERIFY(!small.document()->lastBlock().layout()->formats().isEmpty());
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
