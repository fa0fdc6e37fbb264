#pragma once

#include <QColor>
#include <QStringView>
#include <QVector>

namespace shardscope::widgets {

/// What a piece of an MLIR line is, for colouring.
enum class MlirToken {
  Comment, ///< `// ...` to the end of the line
  String,  ///< `"..."`, escapes included
  Value,   ///< `%name`, `%0#1`, `^bb0`
  Symbol,  ///< `@main`
  Alias,   ///< `#sdy.sharding`, `!stablehlo.token`, `#loc3`
  OpName,  ///< `stablehlo.add`, `sdy.manual_computation`, `func.func`
  Type,    ///< `tensor`, `f32`, `bf16`, `i1`, `ui8`, `complex`, `tuple`, `index`
  Number,  ///< `42`, `-1.5e+03`, `0x7F`
};

struct MlirSpan {
  int start = 0;
  int length = 0;
  MlirToken kind = MlirToken::Comment;
  bool operator==(const MlirSpan&) const = default;
};

/// The coloured pieces of one line of MLIR text, left to right; what is not listed (punctuation,
/// keywords such as `dense`, attribute names) keeps the text colour. A plain scanner over one
/// line: no state carries over lines, so any line can be coloured alone when it scrolls into view.
QVector<MlirSpan> scanMlirLine(QStringView line);

/// The colour of `kind` on a light or dark background.
QColor mlirTokenColor(MlirToken kind, bool dark);

} // namespace shardscope::widgets
