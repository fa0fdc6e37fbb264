#include "widgets/views/mlir_syntax.h"

namespace shardscope::widgets {

namespace {

bool isIdentChar(QChar c) {
  return c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('$') ||
         c == QLatin1Char('.') || c == QLatin1Char('-');
}

bool isBuiltinType(QStringView word) {
  static const char* const kNamed[] = {"tensor", "complex", "tuple", "index", "vector", "memref"};
  for (const char* name : kNamed)
    if (word == QLatin1String(name))
      return true;
  // Integer and float widths: i1, ui8, si32, f32, bf16, tf32, f8E4M3FN, f4E2M1FN, ...
  int i = 0;
  if (word.startsWith(QLatin1String("ui")) || word.startsWith(QLatin1String("si")) ||
      word.startsWith(QLatin1String("bf")) || word.startsWith(QLatin1String("tf")))
    i = 2;
  else if (word.startsWith(QLatin1Char('i')) || word.startsWith(QLatin1Char('f')))
    i = 1;
  else
    return false;
  if (i >= word.size() || !word[i].isDigit())
    return false;
  while (i < word.size() && word[i].isDigit())
    ++i;
  // Minifloat names go on with their exponent/mantissa layout (`E4M3FN`).
  return i == word.size() || (word[0] == QLatin1Char('f') && word[i] == QLatin1Char('E'));
}

} // namespace

QVector<MlirSpan> scanMlirLine(QStringView line) {
  QVector<MlirSpan> spans;
  const int n = line.size();
  int i = 0;
  auto identEnd = [&](int from) {
    while (from < n && isIdentChar(line[from]))
      ++from;
    return from;
  };
  while (i < n) {
    const QChar c = line[i];
    if (c == QLatin1Char('/') && i + 1 < n && line[i + 1] == QLatin1Char('/')) {
      spans.push_back({i, n - i, MlirToken::Comment});
      break;
    }
    if (c == QLatin1Char('"')) {
      int j = i + 1;
      while (j < n && line[j] != QLatin1Char('"'))
        j += line[j] == QLatin1Char('\\') ? 2 : 1;
      j = qMin(n, j + 1);
      spans.push_back({i, j - i, MlirToken::String});
      i = j;
      continue;
    }
    if (c == QLatin1Char('%') || c == QLatin1Char('^') || c == QLatin1Char('@') ||
        c == QLatin1Char('#') || c == QLatin1Char('!')) {
      int j = identEnd(i + 1);
      // `%0#1` names one result of a multi-result op; `%3:2` declares two.
      if (c == QLatin1Char('%') && j + 1 < n &&
          (line[j] == QLatin1Char('#') || line[j] == QLatin1Char(':')) && line[j + 1].isDigit())
        j = identEnd(j + 1);
      if (j > i + 1) {
        const MlirToken kind = c == QLatin1Char('@')   ? MlirToken::Symbol
                               : c == QLatin1Char('#') || c == QLatin1Char('!') ? MlirToken::Alias
                                                                              : MlirToken::Value;
        spans.push_back({i, j - i, kind});
        i = j;
        continue;
      }
      ++i;
      continue;
    }
    if (c.isDigit() || ((c == QLatin1Char('-') || c == QLatin1Char('+')) && i + 1 < n &&
                        line[i + 1].isDigit() && (i == 0 || !isIdentChar(line[i - 1])))) {
      // A number starts where no identifier goes on (`x2` and `16x8xf32`'s dims are words).
      if (i > 0 && isIdentChar(line[i - 1]) && line[i - 1] != QLatin1Char('-')) {
        ++i;
        continue;
      }
      int j = i + 1;
      while (j < n && (line[j].isLetterOrNumber() || line[j] == QLatin1Char('.') ||
                       ((line[j] == QLatin1Char('-') || line[j] == QLatin1Char('+')) &&
                        (line[j - 1] == QLatin1Char('e') || line[j - 1] == QLatin1Char('E')))))
        ++j;
      // Shapes (`16x8xf32`) are dims followed by an element type: colour the type part only.
      const int x = line.mid(i, j - i).indexOf(QLatin1Char('x'));
      if (x > 0 && !line.mid(i, j - i).startsWith(QLatin1String("0x"))) {
        int k = i;
        while (k < j) {
          int end = k;
          while (end < j && line[end] != QLatin1Char('x'))
            ++end;
          const QStringView part = line.mid(k, end - k);
          if (isBuiltinType(part))
            spans.push_back({k, end - k, MlirToken::Type});
          k = end + 1;
        }
      } else {
        spans.push_back({i, j - i, MlirToken::Number});
      }
      i = j;
      continue;
    }
    if (c.isLetter() || c == QLatin1Char('_')) {
      const int j = identEnd(i);
      const QStringView word = line.mid(i, j - i);
      const int dot = word.indexOf(QLatin1Char('.'));
      if (dot > 0 && dot + 1 < word.size() && word[dot + 1].isLetter())
        spans.push_back({i, j - i, MlirToken::OpName});
      else if (isBuiltinType(word))
        spans.push_back({i, j - i, MlirToken::Type});
      else if (word == QLatin1String("return") || word == QLatin1String("call"))
        spans.push_back({i, j - i, MlirToken::OpName}); // `func.` elided inside a function
      i = j;
      continue;
    }
    ++i;
  }
  return spans;
}

QColor mlirTokenColor(MlirToken kind, bool dark) {
  switch (kind) {
  case MlirToken::Comment:
    return dark ? QColor(0x8a, 0x93, 0x9b) : QColor(0x6a, 0x73, 0x7d);
  case MlirToken::String:
    return dark ? QColor(0x98, 0xc3, 0x79) : QColor(0x0a, 0x6e, 0x2c);
  case MlirToken::Value:
    return dark ? QColor(0xd1, 0x9a, 0x66) : QColor(0x95, 0x38, 0x00);
  case MlirToken::Symbol:
    return dark ? QColor(0x56, 0xb6, 0xc2) : QColor(0x00, 0x6b, 0x75);
  case MlirToken::Alias:
    return dark ? QColor(0xc6, 0x78, 0xdd) : QColor(0x80, 0x2d, 0x9b);
  case MlirToken::OpName:
    return dark ? QColor(0x61, 0xaf, 0xef) : QColor(0x00, 0x4f, 0xb0);
  case MlirToken::Type:
    return dark ? QColor(0xe5, 0xc0, 0x7b) : QColor(0x7a, 0x5c, 0x00);
  case MlirToken::Number:
    return dark ? QColor(0xd1, 0x9a, 0x66) : QColor(0x0e, 0x70, 0x70);
  }
  return {};
}

} // namespace shardscope::widgets
