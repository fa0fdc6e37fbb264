#pragma once

#include "core/io/mlir/mlir.h"
#include "core/support/diagnostic.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace shardscope::test {

using ModulePass = bool (*)(ir::Module&, support::DiagnosticSink&);

/// The outcome of running a pass on a parsed program.
struct PassRun {
  bool ok = false;
  std::string printed;
  std::vector<support::Diagnostic> diagnostics;
};

/// Parses `program` (file id 1), runs `pass` and prints the module.
inline PassRun runPass(ModulePass pass, std::string_view program) {
  support::CollectingSink sink;
  auto module = io::mlir::parseModule(program, 1, sink);
  EXPECT_TRUE(module) << (sink.diagnostics().empty() ? "" : sink.diagnostics()[0].message);
  if (!module)
    return {};
  PassRun run;
  run.ok = pass(*module, sink);
  run.printed = io::mlir::printModule(*module);
  run.diagnostics = sink.diagnostics();
  return run;
}

inline bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

} // namespace shardscope::test
