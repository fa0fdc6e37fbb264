#include "widgets/views/block_colors.h"

namespace shardscope::widgets {

QColor blockColor(int index, int count, bool dark) {
  if (index < 0)
    return dark ? QColor(0x40, 0x40, 0x40) : QColor(0xe8, 0xe8, 0xe8);
  // Golden-angle hues stay distinct for any count; `count` only decides whether to spread.
  const int hue = count <= 12 ? (index * 360 / qMax(1, count)) % 360 : (index * 137) % 360;
  return QColor::fromHsv(hue, dark ? 150 : 90, dark ? 150 : 250);
}

} // namespace shardscope::widgets
