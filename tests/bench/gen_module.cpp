// shardscope-gen-module: writes a synthetic StableHLO + Shardy program for the benchmarks.
//
//   shardscope-gen-module [--ops N] [--ops-per-function M] [--form pretty|mlir14-generic]
//                         [--dot-form pretty|generic] [--shared-parameters] [-o FILE]
#include "tests/bench/module_generator.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

namespace {

int usage() {
  std::fputs("usage: shardscope-gen-module [--ops N] [--ops-per-function M]\n"
             "                             [--form pretty|mlir14-generic]\n"
             "                             [--dot-form pretty|generic] [--shared-parameters]\n"
             "                             [-o FILE]\n"
             "  --ops N               number of StableHLO ops (default 100000)\n"
             "  --ops-per-function M  ops per chain function (default 1000)\n"
             "  --form pretty         JAX/Shardy spelling (default)\n"
             "  --form mlir14-generic generic ops for mlir-opt-14 --allow-unregistered-dialect\n"
             "  --dot-form F          pretty form only: dot_general spelling (default pretty)\n"
             "  --shared-parameters   every dot_general / add also uses the function's\n"
             "                        parameter %arg1 / %arg2 (weights used in every layer)\n"
             "  -o FILE               output file (default stdout)\n",
             stderr);
  return 2;
}

bool parseCount(std::string_view text, size_t& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

} // namespace

int main(int argc, char** argv) {
  using shardscope::bench::GenerateOptions;
  using shardscope::bench::ModuleForm;
  GenerateOptions options;
  std::string output;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto value = [&](std::string_view& v) {
      if (i + 1 >= argc)
        return false;
      v = argv[++i];
      return true;
    };
    std::string_view v;
    if (arg == "--ops") {
      if (!value(v) || !parseCount(v, options.ops))
        return usage();
    } else if (arg == "--ops-per-function") {
      if (!value(v) || !parseCount(v, options.opsPerFunction) || options.opsPerFunction == 0)
        return usage();
    } else if (arg == "--form") {
      if (!value(v))
        return usage();
      if (v == "pretty")
        options.form = ModuleForm::Pretty;
      else if (v == "mlir14-generic")
        options.form = ModuleForm::Mlir14Generic;
      else
        return usage();
    } else if (arg == "--dot-form") {
      if (!value(v))
        return usage();
      if (v == "pretty")
        options.prettyDotGeneral = true;
      else if (v == "generic")
        options.prettyDotGeneral = false;
      else
        return usage();
    } else if (arg == "--shared-parameters") {
      options.sharedParameters = true;
    } else if (arg == "-o") {
      if (!value(v))
        return usage();
      output = std::string(v);
    } else if (arg == "-h" || arg == "--help") {
      usage();
      return 0;
    } else {
      std::fprintf(stderr, "shardscope-gen-module: unknown argument '%s'\n", argv[i]);
      return usage();
    }
  }

  std::string text = shardscope::bench::generateModule(options);
  FILE* out = output.empty() || output == "-" ? stdout : std::fopen(output.c_str(), "wb");
  if (!out) {
    std::fprintf(stderr, "shardscope-gen-module: cannot write '%s': %s\n", output.c_str(),
                 std::strerror(errno));
    return 1;
  }
  bool ok = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  ok = (out == stdout ? std::fflush(out) == 0 : std::fclose(out) == 0) && ok;
  if (!ok) {
    std::fprintf(stderr, "shardscope-gen-module: error writing '%s'\n",
                 output.empty() ? "<stdout>" : output.c_str());
    return 1;
  }
  return 0;
}
