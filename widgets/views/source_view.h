#pragma once

#include <QMap>
#include <QPlainTextEdit>
#include <QStringList>

class QPainter;

namespace shardscope::widgets {

/// A read-only view of program text in the system's fixed-pitch font, with line numbers in a
/// gutter on the left and MLIR syntax colours. Lines are not wrapped, so a line number always
/// names one visible row.
class SourceView : public QPlainTextEdit {
  Q_OBJECT

public:
  explicit SourceView(QWidget* parent = nullptr);

  /// Shows `text`. A large text (a 100k-op program is 13 MB) is split into lines on a worker
  /// thread, which takes the UI thread ~0.2 s otherwise, and shown when ready: until then the
  /// view is empty and `isLoading()`; a later call wins over a text still loading. Highlights
  /// set meanwhile apply to the new text.
  void showText(const QString& text);
  /// True while a text given to `showText` is being prepared.
  bool isLoading() const { return m_loading; }
  /// Texts from this many characters on are prepared on a worker thread.
  static constexpr int kBackgroundTextSize = 256 * 1024;

  /// Highlights line `selected` (the selection, scrolled into view) and `current` (the op the
  /// run executes next) and marks breakpoint lines in the gutter; 0 or empty for none.
  void setHighlights(int selected, const QList<int>& current, const QList<int>& breakpoints = {});
  int selectedLine() const { return m_selected; }

  /// A problem marked in the gutter: an error (red) or a warning (amber), with its messages.
  struct LineMarker {
    bool error = true;
    QStringList messages;
  };
  /// Marks the lines of `markers` (1-based) in the gutter; hovering a marked line number shows
  /// its messages.
  void setLineMarkers(QMap<int, LineMarker> markers);
  const QMap<int, LineMarker>& lineMarkers() const { return m_markers; }
  /// The line (1-based) shown at height `y` of the gutter (or the viewport), 0 below the text.
  int lineAt(int y) const;
  /// The y of the middle of `line` in the gutter, or -1 when it is not on screen.
  int lineCenterY(int line) const;
  /// What the gutter's tooltip says at height `y`: the messages of the problems of that line.
  QString gutterToolTip(int y) const;
  QWidget* gutter() const;

Q_SIGNALS:
  /// A text given to `showText` is shown.
  void textShown();

  /// The user clicked line `line` (1-based).
  void lineClicked(int line);

protected:
  void mouseReleaseEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void changeEvent(QEvent* event) override;

private:
  class Gutter;

  // The width the line-number gutter needs for the current number of lines.
  int gutterWidth() const;
  void updateGutterWidth();
  void placeGutter();
  void updateGutter(const QRect& rect, int dy);
  void paintGutter(QPaintEvent* event);
  static QColor markerColor(const LineMarker& marker);
  void paintMarker(QPainter& painter, const LineMarker& marker, int top, int lineHeight) const;
  /// Applies MLIR syntax colours to the visible lines not coloured yet.
  void colourVisibleLines();

  // Replaces the document with `document` (prepared on a worker) and re-applies highlights.
  void adoptDocument(QTextDocument* document);

  Gutter* m_gutter;
  int m_selected = 0;
  QList<int> m_current;
  QList<int> m_breakpoints;
  QMap<int, LineMarker> m_markers;
  bool m_loading = false;
  bool m_replacingText = false; ///< inside `setPlainText`: no colouring of partial texts
  quint64 m_textGeneration = 0; ///< which `showText` call a prepared document belongs to
  QString m_placeholder;        ///< the placeholder to restore after "Loading…"
  QString m_text;               ///< the text last given to `showText`
};

} // namespace shardscope::widgets
