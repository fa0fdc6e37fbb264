// libFuzzer target for everything after the parser: load (import, verifier) → resource limits →
// propagation → explicit reshards and collectives → per-device program → a bounded run with the
// reference check, where a value that differs from the unsharded run is a finding (see
// pipeline_check.h). Its custom mutator edits the structure of valid modules (module_mutator.h):
// seeded with small valid programs, most mutants still parse and so reach the later stages,
// which byte-level mutations rarely do. One input in eight gets
// libFuzzer's own byte mutations instead, so the parser's corner cases stay reachable too.
#include "tests/fuzz/module_mutator.h"
#include "tests/fuzz/pipeline_check.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t maxSize);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string failure = shardscope::fuzz::checkPipeline(text);
  if (!failure.empty()) {
    std::fprintf(stderr, "pipeline fuzzer: %s\n--- input (%zu bytes)\n%.*s\n", failure.c_str(),
                 size, static_cast<int>(std::min<size_t>(size, 4000)), text.data());
    std::fflush(stderr);
    std::abort();
  }
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize,
                                          unsigned int seed) {
  std::mt19937_64 random(seed);
  if (random() % 8 == 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::string text(reinterpret_cast<const char*>(data), size);
  if (!shardscope::fuzz::mutateModuleText(text, random) || text.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, text.data(), text.size());
  return text.size();
}
