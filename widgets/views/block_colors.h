#pragma once

#include <QColor>

namespace shardscope::widgets {

/// The fill colour of block (or group) `index` of `count`: distinct, readable hues under black
/// text, lighter in a light palette and darker in a dark one.
QColor blockColor(int index, int count, bool dark = false);

} // namespace shardscope::widgets
