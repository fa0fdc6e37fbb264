#include "widgets/views/source_view.h"

#include "widgets/views/mlir_syntax.h"

#include <QCoreApplication>
#include <QFontDatabase>
#include <QFontInfo>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QPlainTextDocumentLayout>
#include <QPointer>
#include <QTextBlock>
#include <QTextDocument>
#include <QThread>
#include <QThreadPool>
#include <QToolTip>

namespace shardscope::widgets {

namespace {

constexpr int kTabWidthInSpaces = 4;
constexpr int kGutterPadding = 6;

QFont fixedPitchFont() {
  QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  if (QFontInfo(font).fixedPitch())
    return font;
  // Some platforms (the offscreen one, desktops without a theme) name a proportional font as
  // the fixed one; fontconfig's generic "monospace" family is always fixed-pitch.
  font.setFamily(QStringLiteral("monospace"));
  font.setStyleHint(QFont::TypeWriter);
  return font;
}

} // namespace

/// Paints the line numbers; all the work happens in `SourceView`, which knows the blocks.
class SourceView::Gutter : public QWidget {
public:
  explicit Gutter(SourceView* view) : QWidget(view), m_view(view) {}

protected:
  void paintEvent(QPaintEvent* event) override { m_view->paintGutter(event); }
  bool event(QEvent* event) override {
    if (event->type() == QEvent::ToolTip) {
      auto* help = static_cast<QHelpEvent*>(event);
      const QString tip = m_view->gutterToolTip(help->pos().y());
      if (tip.isEmpty())
        QToolTip::hideText();
      else
        QToolTip::showText(help->globalPos(), tip, this);
      return true;
    }
    return QWidget::event(event);
  }

private:
  SourceView* m_view;
};

SourceView::SourceView(QWidget* parent) : QPlainTextEdit(parent), m_gutter(new Gutter(this)) {
  setObjectName(QStringLiteral("sourceView"));
  setReadOnly(true);
  setLineWrapMode(QPlainTextEdit::NoWrap);
  // Selectable and copyable, but there is no caret to place in a read-only view.
  setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);

  setFont(fixedPitchFont());

  connect(this, &QPlainTextEdit::blockCountChanged, this, &SourceView::updateGutterWidth);
  connect(this, &QPlainTextEdit::updateRequest, this, &SourceView::updateGutter);
  connect(this, &QPlainTextEdit::updateRequest, this, &SourceView::colourVisibleLines);
  updateGutterWidth();
}

void SourceView::colourVisibleLines() {
  // Lines are coloured when they first become visible, so a 13 MB text costs what one screen
  // costs. A coloured block is marked by its user state; a new document starts uncoloured.
  constexpr int kColoured = 1;
  if (m_replacingText)
    return;
  const bool dark = palette().color(QPalette::Base).lightness() < 128;
  const int bottom = viewport()->rect().bottom();
  int first = -1, last = -1;
  for (QTextBlock block = firstVisibleBlock();
       block.isValid() && blockBoundingGeometry(block).translated(contentOffset()).top() <= bottom;
       block = block.next()) {
    if (block.userState() == kColoured || !block.layout())
      continue;
    const QString text = block.text();
    QVector<QTextLayout::FormatRange> formats;
    for (const MlirSpan& span : scanMlirLine(text)) {
      QTextLayout::FormatRange range;
      range.start = span.start;
      range.length = span.length;
      range.format.setForeground(mlirTokenColor(span.kind, dark));
      formats.push_back(range);
    }
    block.layout()->setFormats(formats);
    block.setUserState(kColoured);
    if (first < 0)
      first = block.position();
    last = block.position() + block.length();
  }
  // Formats take effect on the next layout of the blocks; an edit-free document only relayouts
  // what is marked dirty.
  if (first >= 0)
    document()->markContentsDirty(first, last - first);
}

int SourceView::gutterWidth() const {
  int digits = 1;
  for (int lines = qMax(1, blockCount()); lines >= 10; lines /= 10)
    ++digits;
  return 2 * kGutterPadding + fontMetrics().height() + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits;
}

void SourceView::resizeEvent(QResizeEvent* event) {
  QPlainTextEdit::resizeEvent(event);
  placeGutter();
  colourVisibleLines();
}

void SourceView::showEvent(QShowEvent* event) {
  QPlainTextEdit::showEvent(event);
  colourVisibleLines();
}

void SourceView::changeEvent(QEvent* event) {
  QPlainTextEdit::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) {
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next())
      block.setUserState(-1);
    colourVisibleLines();
  }
  if (event->type() == QEvent::FontChange) {
    setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * kTabWidthInSpaces);
    updateGutterWidth();
  }
}

void SourceView::updateGutterWidth() {
  setViewportMargins(gutterWidth(), 0, 0, 0);
  placeGutter();
}

void SourceView::placeGutter() {
  const QRect area = contentsRect();
  m_gutter->setGeometry(area.left(), area.top(), gutterWidth(), area.height());
}

void SourceView::updateGutter(const QRect& rect, int dy) {
  if (dy != 0)
    m_gutter->scroll(0, dy);
  else
    m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
}

void SourceView::paintGutter(QPaintEvent* event) {
  QPainter painter(m_gutter);
  painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
  painter.setPen(palette().color(QPalette::Midlight));
  const int edge = m_gutter->width() - 1;
  painter.drawLine(edge, event->rect().top(), edge, event->rect().bottom());
  if (document()->isEmpty())
    return; // No "1" next to the placeholder text.
  painter.setPen(palette().color(QPalette::PlaceholderText));
  painter.setFont(font());

  const int numberWidth = m_gutter->width() - kGutterPadding;
  const int lineHeight = fontMetrics().height();
  QTextBlock block = firstVisibleBlock();
  int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
  while (block.isValid() && top <= event->rect().bottom()) {
    const int bottom = top + qRound(blockBoundingRect(block).height());
    if (block.isVisible() && bottom >= event->rect().top()) {
      const auto marker = m_markers.constFind(block.blockNumber() + 1);
      if (marker != m_markers.constEnd())
        paintMarker(painter, *marker, top, lineHeight);
      if (m_breakpoints.contains(block.blockNumber() + 1)) {
        painter.save();
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(Qt::NoPen);
        painter.setBrush(QColor(0xd0, 0x30, 0x30));
        const int d = qMax(6, lineHeight - 6);
        painter.drawEllipse(2, top + (lineHeight - d) / 2, d, d);
        painter.restore();
      }
      if (marker != m_markers.constEnd()) {
        // The number of a line with a problem in the marker's colour, bold.
        painter.save();
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
        painter.setPen(markerColor(*marker));
        painter.drawText(0, top, numberWidth, lineHeight, Qt::AlignRight,
                         QString::number(block.blockNumber() + 1));
        painter.restore();
      } else {
        painter.drawText(0, top, numberWidth, lineHeight, Qt::AlignRight,
                         QString::number(block.blockNumber() + 1));
      }
    }
    block = block.next();
    top = bottom;
  }
}

QColor SourceView::markerColor(const LineMarker& marker) {
  return marker.error ? QColor(0xd0, 0x30, 0x30) : QColor(0xc0, 0x80, 0x00);
}

void SourceView::paintMarker(QPainter& painter, const LineMarker& marker, int top,
                             int lineHeight) const {
  // A rounded square with "!" (error) or "?" (warning only) left of the number, where a
  // breakpoint's dot also goes.
  painter.save();
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(Qt::NoPen);
  painter.setBrush(markerColor(marker));
  const int d = qMax(8, lineHeight - 4);
  const QRect box(1, top + (lineHeight - d) / 2, d, d);
  painter.drawRoundedRect(box, 2, 2);
  QFont bold = font();
  bold.setBold(true);
  bold.setPixelSize(qMax(7, d - 3));
  painter.setFont(bold);
  painter.setPen(Qt::white);
  painter.drawText(box, Qt::AlignCenter, marker.error ? QStringLiteral("!") : QStringLiteral("?"));
  painter.restore();
}

void SourceView::setLineMarkers(QMap<int, LineMarker> markers) {
  m_markers = std::move(markers);
  m_gutter->update();
}

QWidget* SourceView::gutter() const { return m_gutter; }

int SourceView::lineAt(int y) const {
  for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
    const QRectF r = blockBoundingGeometry(block).translated(contentOffset());
    if (r.top() > y)
      return 0;
    if (y < r.bottom())
      return block.blockNumber() + 1;
  }
  return 0;
}

int SourceView::lineCenterY(int line) const {
  const QTextBlock block = document()->findBlockByNumber(line - 1);
  if (!block.isValid())
    return -1;
  const QRectF r = blockBoundingGeometry(block).translated(contentOffset());
  return r.bottom() < 0 || r.top() > viewport()->height() ? -1 : qRound(r.center().y());
}

QString SourceView::gutterToolTip(int y) const {
  const int line = lineAt(y);
  const auto marker = m_markers.constFind(line);
  if (line <= 0 || marker == m_markers.constEnd())
    return QString();
  QStringList lines;
  for (const QString& message : marker->messages)
    lines.push_back(message.toHtmlEscaped());
  return QStringLiteral("<b>%1</b><br>%2")
      .arg(tr("Line %1").arg(line), lines.join(QStringLiteral("<br>")));
}

void SourceView::showText(const QString& text) {
  // Views are told the text again whenever the program's snapshot changes (each stage computed
  // in the background): the same text is not prepared again.
  if (text.isSharedWith(m_text) || text == m_text)
    return;
  m_text = text;
  const quint64 generation = ++m_textGeneration;
  if (m_loading) {
    setPlaceholderText(m_placeholder);
    m_loading = false;
  }
  if (text.size() < kBackgroundTextSize) {
    // While the document is being replaced its blocks pass through partial texts: colour them
    // once it holds the whole text.
    m_replacingText = true;
    setPlainText(text);
    m_replacingText = false;
    colourVisibleLines();
    Q_EMIT textShown();
    return;
  }
  m_loading = true;
  m_placeholder = placeholderText();
  m_replacingText = true;
  setPlainText(QString());
  m_replacingText = false;
  setPlaceholderText(tr("Loading %1 MB of text\u2026").arg(text.size() / (1024.0 * 1024.0), 0, 'f', 1));
  // QTextDocument is reentrant: built without a parent on the worker, handed to this thread,
  // then attached. Attaching a prepared document costs the UI thread ~30 ms at 13 MB.
  QPointer<SourceView> self(this);
  QThread* uiThread = thread();
  QThreadPool::globalInstance()->start([self, text, generation, uiThread] {
    auto* document = new QTextDocument;
    document->setDocumentLayout(new QPlainTextDocumentLayout(document));
    document->setPlainText(text);
    document->moveToThread(uiThread);
    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        [self, document, generation] {
          if (!self || self->m_textGeneration != generation) {
            delete document; // a later text replaced it, or the view is gone
            return;
          }
          self->adoptDocument(document);
        },
        Qt::QueuedConnection);
  });
}

void SourceView::adoptDocument(QTextDocument* document) {
  // The view's own first document belongs to its text control, which deletes it on
  // `setDocument`; documents adopted earlier belong to this view.
  QTextDocument* old = this->document();
  const bool adopted = old && old->parent() == this;
  document->setDefaultFont(font());
  document->setParent(this);
  setDocument(document);
  if (adopted && old != document)
    old->deleteLater();
  setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * kTabWidthInSpaces);
  setPlaceholderText(m_placeholder);
  m_loading = false;
  updateGutterWidth();
  setHighlights(m_selected, m_current, m_breakpoints);
  Q_EMIT textShown();
}

void SourceView::setHighlights(int selected, const QList<int>& current,
                               const QList<int>& breakpoints) {
  m_selected = selected;
  m_current = current;
  m_breakpoints = breakpoints;
  QList<QTextEdit::ExtraSelection> selections;
  auto add = [&](int line, const QColor& color) {
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid())
      return;
    QTextEdit::ExtraSelection sel;
    sel.format.setBackground(color);
    sel.format.setProperty(QTextFormat::FullWidthSelection, true);
    sel.cursor = QTextCursor(block);
    selections.push_back(sel);
  };
  const bool dark = palette().color(QPalette::Base).lightness() < 128;
  for (int line : current)
    add(line, dark ? QColor(0x60, 0x50, 0x10) : QColor(0xff, 0xf0, 0xa0));
  if (selected > 0) {
    add(selected, dark ? QColor(0x20, 0x40, 0x70) : QColor(0xc8, 0xdc, 0xf8));
    const QTextBlock block = document()->findBlockByNumber(selected - 1);
    if (block.isValid()) {
      QTextCursor cursor(block);
      setTextCursor(cursor);
      centerCursor();
    }
  }
  setExtraSelections(selections);
  m_gutter->update();
}

void SourceView::mouseReleaseEvent(QMouseEvent* event) {
  QPlainTextEdit::mouseReleaseEvent(event);
  const QTextCursor cursor = cursorForPosition(event->pos());
  if (!textCursor().hasSelection())
    Q_EMIT lineClicked(cursor.blockNumber() + 1);
}

} // namespace shardscope::widgets
