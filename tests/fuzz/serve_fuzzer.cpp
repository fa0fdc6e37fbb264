// libFuzzer target for the input side of `serve`'s protocol (see target_checks.h).
#include "tests/fuzz/target_checks.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string failure = shardscope::fuzz::checkServeProtocol(
      std::string_view(reinterpret_cast<const char*>(data), size));
  if (!failure.empty()) {
    std::fprintf(stderr, "serve fuzzer: %s\n", failure.c_str());
    std::abort();
  }
  return 0;
}
