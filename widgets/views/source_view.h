#pragma once

#include <QPlainTextEdit>

namespace shardscope::widgets {

/// A read-only view of program text in the system's fixed-pitch font, with line numbers in a
/// gutter on the left. Lines are not wrapped, so a line number always names one visible row.
class SourceView : public QPlainTextEdit {
  Q_OBJECT

public:
  explicit SourceView(QWidget* parent = nullptr);

  /// Highlights line `selected` (the selection, scrolled into view) and `current` (the op the
  /// run executes next) and marks breakpoint lines in the gutter; 0 or empty for none.
  void setHighlights(int selected, const QList<int>& current, const QList<int>& breakpoints = {});
  int selectedLine() const { return m_selected; }

Q_SIGNALS:
  /// The user clicked line `line` (1-based).
  void lineClicked(int line);

protected:
  void mouseReleaseEvent(QMouseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

private:
  class Gutter;

  // The width the line-number gutter needs for the current number of lines.
  int gutterWidth() const;
  void updateGutterWidth();
  void placeGutter();
  void updateGutter(const QRect& rect, int dy);
  void paintGutter(QPaintEvent* event);

  Gutter* m_gutter;
  int m_selected = 0;
  QList<int> m_breakpoints;
};

} // namespace shardscope::widgets
