// libFuzzer target for the `.npy` reader (see target_checks.h for the contract).
#include "tests/fuzz/target_checks.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string failure = shardscope::fuzz::checkNpy({data, size});
  if (!failure.empty()) {
    std::fprintf(stderr, "npy fuzzer: %s\n", failure.c_str());
    std::abort();
  }
  return 0;
}
