// shardscope-cli: parse, verify, transform and inspect sharded StableHLO + Shardy programs.
#include "app/cli/cli_support.h"

#include "core/pipeline/pass_manager.h"
#include "core/support/allocator.h"
#include "core/support/atomic_file.h"

#ifdef SHARDSCOPE_HAVE_MPI
#include "core/backends/mpi/mpi_world.h"
#endif

#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

namespace {

constexpr const char* kUsage = R"(usage: shardscope-cli <command> [options]

commands:
  opt FILE [--split-input-file] [--verify-diagnostics] [--section=NAME] [-o OUT] [PASSES...]
      parse and verify FILE ('-' or none for stdin), run passes, print the module (an sdy_opt
      stand-in)
  check FILE      summary of meshes, values, shardings and diagnostics
  inspect FILE --value NAME
                  the block-to-device map of one value
  types FILE [--explicit-axes=X,Y]
                  JAX-level types under explicit sharding (f32[4@X,8]) and the ops JAX would
                  reject; axis types come from `shardscope.axis_types` or --explicit-axes
  explain FILE --value NAME [--function NAME] [--strategy basic|aggressive|op-priority|user-priority]
                  propagate and tell where the value's sharding came from
  interpret FILE [--function NAME] [--args=[dense<...> : tensor<...>, ...]]
                 [--probe-output-dir=DIR] [--interpreter-print-dense] [--split-input-file]
                  run the entry function (@main, else the only function) with StableHLO
                  semantics (a `stablehlo-translate --interpret` stand-in): check.* ops compare
                  values, interpreter.run_parallel runs per-device programs on the local
                  backend; exit 1 on any error or failed check
  partition FILE [--collectives-only]
                  the per-device program and every collective with why it is there and its
                  cost per device and mesh axis (ring model)
  run FILE [--function NAME] [--stage STAGE] [--backend local|mpi] [--inputs SPEC]
      [--check-reference] [--trace OUT.json] [--output-dir DIR] [--max-steps N]
                  run on every device of the mesh; SPEC: zeros|ones|iota|random[:SEED] and
                  N=FILE.npy per argument; --check-reference compares every step with the
                  unsharded run; results go to DIR/result_N.npy; a device that executes more
                  than N ops (default 10 million) stops the run
  grad FILE --wrt ARGS [--function F] [--naive]
  transpose FILE --linear-in ARGS [--function F] [--naive]
                  the gradient (or the transpose, for a function linear in ARGS) as a new
                  function, with variance-aware collective rules (--naive: the old ones), its
                  collectives and their cost compared with the other rules
  serve [--backend local|mpi] [--devices-per-rank K]
                  a JSON-lines session server on stdin/stdout (load, step, breakpoints,
                  fetch values, trace; see app/cli/SERVE_PROTOCOL.md); under
                  `mpirun -np N ... serve --backend mpi` rank 0 serves and drives the others
  report FILE -o OUT [--format html|svg|dot|json] [--stage STAGE] [--function NAME]
      [--collapse-depth N] [--diff STAGE_A STAGE_B | --diff-with OTHER_FILE] [--run]
                  a self-contained HTML report, the SVG or DOT graph of one stage, or JSON
                  (resources/report.schema.json); format from OUT's extension; '-o -' for stdout
  passes          the transformation passes `opt` accepts
  version         the version and the heap allocator in use
  help            this text
)";

} // namespace

namespace {

int dispatch(std::vector<std::string> args) {
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 1 : 0;
  }
  std::string command = args[0];
  args.erase(args.begin());
  if (command == "opt")
    return shardscope::cli::runOpt(args);
  if (command == "check")
    return shardscope::cli::runCheck(args);
  if (command == "inspect")
    return shardscope::cli::runInspect(args);
  if (command == "explain")
    return shardscope::cli::runExplain(args);
  if (command == "types")
    return shardscope::cli::runTypes(args);
  if (command == "run")
    return shardscope::cli::runRun(args);
  if (command == "report")
    return shardscope::cli::runReport(args);
  if (command == "partition")
    return shardscope::cli::runPartition(args);
  if (command == "interpret")
    return shardscope::cli::runInterpret(args);
  if (command == "grad")
    return shardscope::cli::runGrad(args);
  if (command == "transpose")
    return shardscope::cli::runTranspose(args);
  if (command == "serve")
    return shardscope::cli::runServe(args);
  if (command == "version" || command == "--version") {
    std::printf("shardscope-cli %s (allocator: %s)\n", SHARDSCOPE_VERSION_STRING,
                shardscope::support::allocatorName().c_str());
    return 0;
  }
  if (command == "passes") {
    for (const auto* pass : shardscope::pipeline::PassRegistry::builtin().all())
      std::printf("  -%-40s %s\n", pass->name.c_str(), pass->summary.c_str());
    return 0;
  }
  std::fprintf(stderr, "shardscope-cli: error: unknown command '%s'\n%s", command.c_str(), kUsage);
  return 1;
}

} // namespace

int main(int argc, char** argv) {
  // A temporary output file is removed when the command is interrupted.
  shardscope::support::removeTemporaryFilesOnSignal();
#ifdef SHARDSCOPE_HAVE_MPI
  // The MPI backend's messages end the process: flush stdout too, so no result line is lost.
  shardscope::backends::mpi::MpiWorld::setMessageWriter([](const std::string& line) {
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
    std::fflush(stdout);
  });
#endif
  int code = 1;
  // The commands report bad input as located errors; what still escapes as an exception (memory
  // exhausted by a huge but valid program, a failure of the standard library) ends the command
  // with a message and exit 1, never with std::terminate.
  try {
    code = dispatch(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "shardscope-cli: error: out of memory (the program or its data is too "
                         "large for this machine)\n");
    code = 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shardscope-cli: error: %s\n", e.what());
    code = 1;
  }
  if (!shardscope::cli::finishStdout())
    code = 1;
  return code;
}
