#include "app/cli/interpret_support.h"

#include "app/cli/cli_support.h"

#include "core/io/mlir/mlir.h"
#include "core/io/npy/npy.h"
#include "core/ir/attribute.h"
#include "core/session/input_form.h"

#include <algorithm>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace shardscope::cli {

namespace {

// One program from `text` (a whole file or a padded chunk), named `name` for diagnostics.
std::unique_ptr<LoadedProgram> loadText(const std::string& name, std::string text, bool& ok) {
  auto program = std::make_unique<LoadedProgram>();
  program->fileId = program->sources.addBuffer(name, std::move(text));
  if (isBlank(program->sources.text(program->fileId)))
    return nullptr; // an empty module: nothing to run
  StderrSink sink(program->sources);
  session::LoadedModule loaded =
      session::loadModule(program->sources.text(program->fileId), program->fileId, sink);
  if (!loaded.module) {
    ok = false;
    return nullptr;
  }
  program->owned = std::move(loaded.module);
  program->module = program->owned.get();
  program->form = loaded.form;
  program->names = io::mlir::printedValueNames(*program->module);
  return program;
}

std::string elementText(const exec::Tensor& t, int64_t i) {
  ir::ElementType e = t.elementType();
  std::string out;
  if (ir::isComplexElement(e)) {
    std::complex<double> c = t.complexAt(i);
    ir::ElementType part = exec::complexPartType(e);
    out += '[';
    ir::printFloat(c.real(), part, out);
    out += ", ";
    ir::printFloat(c.imag(), part, out);
    return out + ']';
  }
  if (ir::isFloatElement(e)) {
    ir::printFloat(t.floatAt(i), e, out);
    return out;
  }
  if (e == ir::ElementType::I1)
    return t.intAt(i) ? "true" : "false";
  if (e == ir::ElementType::UI64)
    return std::to_string(static_cast<uint64_t>(t.intAt(i)));
  return std::to_string(t.intAt(i));
}

void newlineIndent(std::string& out, int64_t n) {
  out += '\n';
  out.append(static_cast<size_t>(2 * n), ' ');
}

// The reference's recursive printer: a dimension opens `[` on a new line, elements follow
// separated by `, `, nested lists by `,`, and the last one closes with a newline.
void printLevel(const exec::Tensor& t, std::vector<int64_t>& index, int64_t& linear,
                int64_t indent, std::string& out) {
  const std::vector<int64_t>& shape = t.shape();
  auto atEnd = [&] {
    return index.empty() || index.back() == shape[index.size() - 1] - 1;
  };
  if (index.size() == shape.size()) {
    out += elementText(t, linear++);
    if (!atEnd())
      out += ", ";
    return;
  }
  newlineIndent(out, indent);
  out += '[';
  for (int64_t i = 0; i < shape[index.size()]; ++i) {
    index.push_back(i);
    printLevel(t, index, linear, indent + 1, out);
    index.pop_back();
  }
  out += ']';
  if (!atEnd())
    out += ',';
  else
    newlineIndent(out, indent - 1);
}

} // namespace

bool loadPrograms(const std::string& path, bool split,
                  std::vector<std::unique_ptr<LoadedProgram>>& programs) {
  std::string text;
  if (!readInput(path, text))
    return false;
  std::string name = path == "-" ? "<stdin>" : path;
  bool ok = true;
  if (!split) {
    programs.push_back(loadText(name, std::move(text), ok));
    return ok;
  }
  for (const io::mlir::InputChunk& chunk : io::mlir::splitInputFile(text))
    programs.push_back(loadText(name, io::mlir::paddedChunk(chunk), ok));
  return ok;
}

std::string stablehloTensorText(const exec::Tensor& t) {
  if (t.isToken())
    return t.type().str();
  if (t.isTuple()) {
    std::string out = "(";
    for (size_t i = 0; i < t.tupleElements().size(); ++i)
      out += (i ? ", " : "") + stablehloTensorText(t.tupleElements()[i]);
    return out + ")";
  }
  std::string out = t.type().str() + " {";
  std::vector<int64_t> index;
  int64_t linear = 0;
  if (t.rank() == 0)
    out += elementText(t, 0);
  else
    printLevel(t, index, linear, 1, out);
  return out + "}";
}

std::string denseLiteral(const exec::Tensor& t) {
  if (t.isToken() || t.isTuple())
    return stablehloTensorText(t);
  auto dense = std::make_shared<ir::DenseElementsAttr>();
  dense->type = t.type();
  dense->raw.assign(t.bytes().begin(), t.bytes().end());
  // MLIR keeps a tensor whose elements are all equal (one element included) as a splat.
  size_t width = exec::Tensor::elementBytes(t.elementType());
  bool splat = t.numElements() >= 1;
  for (size_t off = width; splat && off < dense->raw.size(); off += width)
    splat = std::equal(dense->raw.begin(), dense->raw.begin() + static_cast<std::ptrdiff_t>(width),
                       dense->raw.begin() + static_cast<std::ptrdiff_t>(off));
  if (splat && t.rank() > 0) {
    dense->raw.resize(width);
    dense->isSplat = true;
  }
  return ir::Attribute(dense).str();
}

InterpreterIo::InterpreterIo(std::string probeDir, const LoadedProgram& program)
    : m_probeDir(std::move(probeDir)), m_program(program) {}

exec::InterpreterHooks InterpreterIo::hooks() {
  exec::InterpreterHooks h;
  h.print = [this](const ir::Operation& op, const exec::Tensor& value) {
    auto it = m_program.names.find(op.operand(0));
    m_printed += (it != m_program.names.end() ? it->second : std::string("%<value>")) + " = " +
                 stablehloTensorText(value) + "\n";
  };
  if (!m_probeDir.empty()) {
    h.probe = [this](const std::string& id, const exec::Tensor& value, std::string& error) {
      return probe(id, value, error);
    };
    h.loadProbe = [this](const std::string& id, uint32_t iteration, ir::Type type,
                         std::string& recordedType, std::string& error) {
      return loadProbe(id, iteration, type, recordedType, error);
    };
  }
  return h;
}

std::string InterpreterIo::takePrinted() { return std::exchange(m_printed, {}); }

bool InterpreterIo::probe(const std::string& probeId, const exec::Tensor& value,
                          std::string& error) {
  namespace fs = std::filesystem;
  fs::path index = fs::path(m_probeDir) / "index.csv";
  std::error_code ec;
  if (!m_indexCleared) {
    // Each run starts a fresh index, as the reference removes the old one.
    fs::remove(index, ec);
    m_indexCleared = true;
  }
  fs::path file = fs::path(m_probeDir) / ("probe" + std::to_string(++m_nextProbe) + ".npy");
  io::npy::Array array;
  array.element = value.elementType();
  array.shape = value.shape();
  array.data.assign(value.bytes().begin(), value.bytes().end());
  if (!io::npy::write(file.string(), array, error))
    return false;
  std::ofstream csv(index, std::ios::app);
  csv << probeId << ',' << value.type().str() << ',' << file.string() << '\n';
  if (!csv) {
    error = "cannot write " + index.string();
    return false;
  }
  return true;
}

std::optional<exec::Tensor> InterpreterIo::loadProbe(const std::string& probeId,
                                                     uint32_t iteration, ir::Type type,
                                                     std::string& recordedType,
                                                     std::string& error) {
  std::ifstream csv(std::filesystem::path(m_probeDir) / "index.csv");
  std::string line;
  uint32_t seen = 0;
  while (std::getline(csv, line)) {
    size_t a = line.find(','), b = line.rfind(',');
    if (a == std::string::npos || a == b || line.substr(0, a) != probeId || seen++ != iteration)
      continue;
    recordedType = line.substr(a + 1, b - a - 1);
    std::optional<io::npy::Array> array = io::npy::read(line.substr(b + 1), error);
    if (!array)
      return std::nullopt;
    if (!type.isTensor() || !exec::Tensor::isSupportedElement(type.elementType())) {
      error = "unsupported type " + type.str();
      return std::nullopt;
    }
    std::span<const int64_t> shape = type.shape();
    exec::Tensor t(type.elementType(), {shape.begin(), shape.end()});
    if (array->data.size() != t.bytes().size()) {
      error = "recorded data has " + std::to_string(array->data.size()) + " bytes, expected " +
              std::to_string(t.bytes().size());
      return std::nullopt;
    }
    std::copy(array->data.begin(), array->data.end(), t.bytes().begin());
    return t;
  }
  error = "no record of iteration " + std::to_string(iteration);
  return std::nullopt;
}

} // namespace shardscope::cli
