#pragma once

// Pieces of `shardscope-cli interpret` (a `stablehlo-translate --interpret` stand-in) that are
// not argument handling: loading `// -----` chunks, printing tensors as StableHLO's interpreter
// does, and the interpreter hooks for `interpreter.print` / `interpreter.probe`.

#include "app/cli/program.h"

#include "core/exec/interpreter_hooks.h"
#include "core/exec/tensor.h"

#include <memory>
#include <string>
#include <vector>

namespace shardscope::cli {

/// Loads `path` as one program, or with `split` as one program per `// -----` chunk (each keeps
/// its line numbers). A chunk holding nothing but comments gives a null entry: StableHLO runs an
/// empty module without output. Returns false after printing an error.
bool loadPrograms(const std::string& path, bool split,
                  std::vector<std::unique_ptr<LoadedProgram>>& programs);

/// `t` as StableHLO's reference `Tensor::print` writes it: `tensor<2xi8> {\n  [1, 2]\n}`, a
/// scalar as `tensor<f32> {1.000000e+00}`, complex elements as `[re, im]`.
std::string stablehloTensorText(const exec::Tensor& t);

/// `t` as a dense elements attribute, `dense<[1, 2]> : tensor<2xi8>` (splats folded, as MLIR
/// prints them).
std::string denseLiteral(const exec::Tensor& t);

/// The outside world of one interpretation: printed values are collected as text (the caller
/// prints them), probes are written to `probeDir` as `probe<N>.npy` files listed in
/// `probeDir/index.csv` (`probe_id,type,path` lines), as StableHLO's interpreter does.
class InterpreterIo {
public:
  /// `program` gives the printed names of values for `interpreter.print` (`%0 = ...`).
  InterpreterIo(std::string probeDir, const LoadedProgram& program);
  /// Hooks bound to this object, which must outlive the run.
  exec::InterpreterHooks hooks();
  /// Returns and clears what `interpreter.print` produced so far.
  std::string takePrinted();

private:
  bool probe(const std::string& probeId, const exec::Tensor& value, std::string& error);
  std::optional<exec::Tensor> loadProbe(const std::string& probeId, uint32_t iteration,
                                        ir::Type type, std::string& recordedType,
                                        std::string& error);

  std::string m_probeDir;
  const LoadedProgram& m_program;
  std::string m_printed;
  int64_t m_nextProbe = 0;
  bool m_indexCleared = false;
};

} // namespace shardscope::cli
