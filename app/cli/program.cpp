#include "app/cli/program.h"

#include "app/cli/cli_support.h"
#include "core/io/mlir/mlir.h"
#include "core/session/input_form.h"

namespace shardscope::cli {

std::unique_ptr<LoadedProgram> loadProgram(const std::string& path) {
  auto program = std::make_unique<LoadedProgram>();
  std::string text;
  if (!readInput(path, text))
    return nullptr;
  std::string name = path == "-" ? "<stdin>" : path;
  program->fileId = program->sources.addBuffer(name, text);
  StderrSink sink(program->sources);
  // Load warnings (shardings not understood, ...) are printed now and counted by `check`.
  struct CountingSink final : support::DiagnosticSink {
    StderrSink& out;
    size_t warnings = 0;
    explicit CountingSink(StderrSink& out) : out(out) {}
    void report(support::Diagnostic diagnostic) override {
      warnings += diagnostic.severity == support::Severity::Warning;
      out.report(std::move(diagnostic));
    }
  } counting(sink);
  program->session = session::Program::fromText(std::move(name), std::move(text), counting);
  if (!program->session)
    return nullptr;
  program->loadWarnings = counting.warnings;
  program->module = &program->session->asWritten();
  program->form = program->session->inputForm();
  program->names = io::mlir::printedValueNames(*program->module);
  return program;
}

std::unique_ptr<session::Program> loadSessionProgram(const std::string& path,
                                                     support::SourceManager& sources,
                                                     support::DiagnosticSink& sink) {
  std::string text, error;
  if (!readInputText(path, text, error)) {
    sink.error({}, error);
    return nullptr;
  }
  std::string name = path == "-" ? "<stdin>" : path;
  sources.addBuffer(name, text);
  return session::Program::fromText(std::move(name), std::move(text), sink);
}

std::vector<NamedValue> findValuesByName(const LoadedProgram& program, const std::string& name,
                                         const std::string& function) {
  std::string wanted = name.starts_with('%') ? name : "%" + name;
  std::vector<NamedValue> matches;
  for (const ir::Operation* fn : program.module->functions()) {
    std::string fnName(ir::func::name(*fn));
    if (!function.empty() && function != fnName && function != "@" + fnName)
      continue;
    auto consider = [&](const ir::Value& v) {
      if (displayName(program, &v) == wanted || "%" + v.nameHint() == wanted)
        matches.push_back({&v, fn});
    };
    fn->walk([&](const ir::Operation& op) {
      for (unsigned r = 0; r < op.numRegions(); ++r)
        for (const auto& block : op.region(r).blocks())
          for (const auto& arg : block->arguments())
            consider(*arg);
      if (&op != fn)
        for (const auto& result : op.results())
          consider(*result);
    });
  }
  return matches;
}

const std::string& displayName(const LoadedProgram& program, const ir::Value* value) {
  static const std::string unnamed = "<unnamed>";
  auto it = program.names.find(value);
  return it == program.names.end() ? unnamed : it->second;
}

} // namespace shardscope::cli
