#include "core/io/mlir/mlir.h"

#include "core/io/mlir/detail/parser.h"
#include "core/io/mlir/detail/printer.h"

#include <algorithm>

namespace shardscope::io::mlir {

std::unique_ptr<ir::Module> parseModule(std::string_view text, uint32_t fileId,
                                        support::DiagnosticSink& sink) {
  detail::Parser parser(text, fileId, sink);
  return parser.parseModule();
}

ir::Attribute parseAttribute(std::string_view text, uint32_t fileId,
                             support::DiagnosticSink& sink) {
  detail::Parser parser(text, fileId, sink);
  ir::Attribute attr;
  if (!parser.parseAttribute(attr))
    return {};
  if (!parser.tok().is(TokenKind::Eof)) {
    parser.emitError("unexpected text after the attribute");
    return {};
  }
  return attr;
}

std::string printModule(const ir::Module& module, size_t sizeHint, ValueNames names) {
  std::string out;
  out.reserve(sizeHint + sizeHint / 8);
  detail::Printer printer(out);
  printer.setValueNames(names);
  printer.printModule(module);
  return out;
}

bool printModule(const ir::Module& module, const std::function<bool(std::string_view)>& write,
                 ValueNames names, size_t chunkBytes) {
  std::string out;
  out.reserve(chunkBytes + chunkBytes / 4);
  bool ok = true;
  auto flush = [&](std::string& text) {
    ok = ok && write(text);
    text.clear();
  };
  detail::Printer printer(out);
  printer.setValueNames(names);
  printer.streamTo(flush, chunkBytes);
  printer.printModule(module);
  flush(out);
  return ok;
}

std::string printModule(const ir::Module& module, std::vector<PrintedOpLine>& lines,
                        size_t sizeHint, ValueNames names) {
  std::string out;
  out.reserve(sizeHint + sizeHint / 8);
  std::vector<std::pair<const ir::Operation*, size_t>> starts;
  detail::Printer printer(out);
  printer.setValueNames(names);
  printer.recordOpStarts(&starts);
  printer.printModule(module);
  // Offsets grow in print order, so one pass over the text turns them into lines.
  lines.clear();
  lines.reserve(starts.size());
  uint32_t line = 1;
  size_t scanned = 0;
  for (const auto& [op, offset] : starts) {
    line += static_cast<uint32_t>(std::count(out.begin() + scanned, out.begin() + offset, '\n'));
    scanned = offset;
    lines.push_back({op, line});
  }
  return out;
}

namespace {
// The number of values (results and block arguments) under `root`.
size_t countValues(const ir::Operation& root) {
  size_t values = 0;
  root.walk([&](const ir::Operation& op) {
    values += op.numResults();
    for (unsigned i = 0; i < op.numRegions(); ++i)
      for (const auto& block : op.region(i).blocks())
        values += block->numArguments();
  });
  return values;
}
} // namespace

// The printer names exactly the values under what it was asked to name, so its table is the
// answer.
std::unordered_map<const ir::Value*, std::string> printedValueNames(const ir::Module& module,
                                                                   ValueNames names) {
  std::string unused;
  detail::Printer printer(unused);
  printer.setValueNames(names);
  printer.reserveNames(countValues(module.op()));
  printer.nameModule(module);
  return printer.takeNames();
}

std::unordered_map<const ir::Value*, std::string> printedValueNames(
    const ir::Operation& function, ValueNames names) {
  std::string unused;
  detail::Printer printer(unused);
  printer.setValueNames(names);
  printer.reserveNames(countValues(function));
  printer.nameIsolated(function);
  return printer.takeNames();
}

std::vector<InputChunk> splitInputFile(std::string_view text) {
  std::vector<InputChunk> chunks;
  size_t chunkBegin = 0;
  uint32_t chunkLine = 1, line = 1;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    size_t lineEnd = end == std::string_view::npos ? text.size() : end;
    std::string_view lineText = text.substr(pos, lineEnd - pos);
    if (!lineText.empty() && lineText.back() == '\r')
      lineText.remove_suffix(1);
    if (lineText == "// -----") {
      chunks.push_back({text.substr(chunkBegin, pos - chunkBegin), chunkLine});
      chunkBegin = end == std::string_view::npos ? text.size() : end + 1;
      chunkLine = line + 1;
    }
    if (end == std::string_view::npos)
      break;
    pos = end + 1;
    ++line;
  }
  chunks.push_back({text.substr(chunkBegin), chunkLine});
  return chunks;
}

std::vector<FileSection> splitFileSections(std::string_view text) {
  std::vector<FileSection> sections;
  size_t pos = 0;
  uint32_t line = 1;
  auto closeSection = [&](size_t end) {
    if (!sections.empty()) {
      InputChunk& chunk = sections.back().chunk;
      size_t begin = static_cast<size_t>(chunk.text.data() - text.data());
      chunk.text = text.substr(begin, end - begin);
    }
  };
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    size_t next = end == std::string_view::npos ? text.size() : end + 1;
    std::string_view lineText = text.substr(pos, next - pos);
    if (lineText.starts_with("//--- ")) {
      closeSection(pos);
      std::string name(lineText.substr(6));
      while (!name.empty() && (name.back() == '\n' || name.back() == '\r' || name.back() == ' '))
        name.pop_back();
      sections.push_back({std::move(name), {text.substr(next, 0), line + 1}});
    }
    pos = next;
    ++line;
  }
  closeSection(text.size());
  return sections;
}

std::string paddedChunk(const InputChunk& chunk) {
  std::string out(chunk.firstLine - 1, '\n');
  out.append(chunk.text);
  return out;
}

} // namespace shardscope::io::mlir
