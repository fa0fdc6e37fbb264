// `shardscope-cli opt`: the sdy_opt stand-in.
#include "app/cli/cli_support.h"

#include "core/support/atomic_file.h"

#include "core/io/mlir/mlir.h"
#include "core/pipeline/pass_manager.h"
#include "core/sharding/verifier.h"
#include "core/support/verify_diagnostics.h"
#include "core/verify/stablehlo_verifier.h"

#include <algorithm>
#include <cstdio>

namespace shardscope::cli {

bool readInput(const std::string& path, std::string& text) {
  std::string error;
  if (readInputText(path, text, error))
    return true;
  std::fprintf(stderr, "shardscope-cli: error: %s\n", error.c_str());
  return false;
}

bool writeOutput(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-")
    return writeStdout(text);
  std::string error;
  if (!support::writeFileAtomically(path, text, error)) {
    std::fprintf(stderr, "shardscope-cli: error: %s\n", error.c_str());
    return false;
  }
  return true;
}

void StderrSink::report(support::Diagnostic diagnostic) {
  std::string text = m_sources.format(diagnostic);
  std::fwrite(text.data(), 1, text.size(), stderr);
}

namespace {

struct OptOptions {
  std::string input;
  std::string output;
  bool splitInputFile = false;
  bool verifyDiagnostics = false;
  std::string section; // a `//--- name` section of a split-file input
  std::vector<pipeline::PassInvocation> passes;
};

// Accepts LLVM-style options: `-x`, `--x`, `-x=value`, `--x value` for `-o`.
bool parseOptArgs(const std::vector<std::string>& args, OptOptions& options) {
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    if (a == "--") {
      continue;
    }
    if (a == "-" || a.empty() || a[0] != '-') {
      if (!options.input.empty()) {
        std::fprintf(stderr, "shardscope-cli: error: more than one input file: '%s' and '%s'\n",
                     options.input.c_str(), a.c_str());
        return false;
      }
      options.input = a;
      continue;
    }
    std::string name = a.substr(a.starts_with("--") ? 2 : 1);
    if (name == "split-input-file") {
      options.splitInputFile = true;
    } else if (name == "verify-diagnostics") {
      options.verifyDiagnostics = true;
    } else if (name.starts_with("section=")) {
      options.section = name.substr(8);
    } else if (name == "o") {
      if (i + 1 >= args.size()) {
        std::fprintf(stderr, "shardscope-cli: error: -o needs a file name\n");
        return false;
      }
      options.output = args[++i];
    } else if (name.starts_with("o=")) {
      options.output = name.substr(2);
    } else if (name == "allow-unregistered-dialect" || name == "mlir-print-local-scope") {
      // Accepted for compatibility with sdy_opt command lines; nothing to do.
    } else {
      pipeline::PassInvocation pass;
      std::string error;
      if (!pipeline::parsePassArgument(name, pipeline::PassRegistry::builtin(), pass, error)) {
        std::fprintf(stderr, "shardscope-cli: error: %s (see 'shardscope-cli passes')\n",
                     error.c_str());
        return false;
      }
      options.passes.push_back(std::move(pass));
    }
  }
  // Like sdy_opt (and every MLIR opt tool), no input file means standard input, so that
  // `sdy_opt a.mlir -pass | sdy_opt -other-pass` works.
  if (options.input.empty())
    options.input = "-";
  return true;
}

// Releases `module` without destroying it when the process is about to exit anyway: tearing
// down a 100k-op module costs a tenth of a run (LLVM's tools skip it for the same reason).
// Sanitizer builds destroy it so that leak checking stays meaningful.
void discardAtExit(std::unique_ptr<ir::Module> module) {
#if defined(__SANITIZE_ADDRESS__)
  module.reset();
#else
  (void)module.release();
#endif
}

// Parses, verifies and runs passes on one buffer. Diagnostics go to `sink`; returns the printed
// module, or nothing on error.
std::optional<std::string> processBuffer(std::string_view text, uint32_t fileId,
                                         const OptOptions& options,
                                         support::DiagnosticSink& sink) {
  support::ErrorTrackingSink tracking(sink);
  std::unique_ptr<ir::Module> module = io::mlir::parseModule(text, fileId, tracking);
  if (!module || tracking.hadError())
    return std::nullopt;
  if (!sharding::verifyModule(*module, tracking) || tracking.hadError())
    return std::nullopt;
  if (!verify::verifyStablehlo(*module, tracking))
    return std::nullopt;
  if (!options.passes.empty()) {
    if (!pipeline::runPasses(*module, options.passes, tracking))
      return std::nullopt;
    if (!sharding::verifyModule(*module, tracking))
      return std::nullopt;
  }
  std::string printed = io::mlir::printModule(*module, text.size());
  discardAtExit(std::move(module));
  return printed;
}

} // namespace

bool isBlank(std::string_view text) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    std::string_view line = text.substr(pos, end == std::string_view::npos ? end : end - pos);
    size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && line.substr(first, 2) != "//")
      return false;
    if (end == std::string_view::npos)
      break;
    pos = end + 1;
  }
  return true;
}

int runOpt(const std::vector<std::string>& args) {
  OptOptions options;
  if (!parseOptArgs(args, options))
    return 1;
  std::string text;
  if (!readInput(options.input, text))
    return 1;
  std::string displayName = options.input == "-" ? "<stdin>" : options.input;
  std::vector<io::mlir::InputChunk> chunks;
  if (!options.section.empty()) {
    // Pick one `//--- name` section (LLVM split-file format); its lines keep their numbers.
    std::vector<io::mlir::FileSection> sections = io::mlir::splitFileSections(text);
    auto it = std::find_if(sections.begin(), sections.end(),
                           [&](const io::mlir::FileSection& s) { return s.name == options.section; });
    if (it == sections.end()) {
      std::fprintf(stderr, "shardscope-cli: error: no section '//--- %s' in '%s'\n",
                   options.section.c_str(), displayName.c_str());
      return 1;
    }
    text = io::mlir::paddedChunk(it->chunk);
  }
  if (options.splitInputFile)
    chunks = io::mlir::splitInputFile(text);
  else
    chunks.push_back({text, 1});

  support::SourceManager sources;
  StderrSink stderrSink(sources);
  if (!options.splitInputFile && isBlank(text)) {
    uint32_t fileId = sources.addBuffer(displayName, text);
    stderrSink.error({fileId, 1, 1, 0}, "empty program: the input holds no module and no operations");
    return 1;
  }
  std::string output;
  bool ok = true;
  for (size_t i = 0; i < chunks.size(); ++i) {
    // A whole file is registered as is; chunks are padded to keep their line numbers.
    uint32_t fileId = options.splitInputFile
                          ? sources.addBuffer(displayName, io::mlir::paddedChunk(chunks[i]))
                          : sources.addBuffer(displayName, std::move(text));
    std::string_view buffer = sources.text(fileId);
    if (options.verifyDiagnostics) {
      support::CollectingSink collected;
      std::optional<std::string> printed =
          processBuffer(buffer, fileId, options, collected);
      support::DiagnosticVerifier verifier(sources, fileId);
      ok = verifier.verify(collected.diagnostics(), stderrSink) && ok;
      if (printed) {
        if (i)
          output += "// -----\n";
        output += *printed;
      }
      continue;
    }
    std::optional<std::string> printed =
        processBuffer(buffer, fileId, options, stderrSink);
    if (!printed) {
      ok = false;
      continue;
    }
    if (i)
      output += "// -----\n";
    if (output.empty())
      output = std::move(*printed);
    else
      output += *printed;
  }
  if (!ok)
    return 1;
  return writeOutput(options.output, output) ? 0 : 1;
}

} // namespace shardscope::cli
