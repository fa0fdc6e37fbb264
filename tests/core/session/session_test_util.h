#pragma once
// Helpers shared by the session tests.

#include "core/support/diagnostic.h"

#include <string>

namespace shardscope::session::testing {

inline std::string dataPath(const std::string& relative) {
  return std::string(SHARDSCOPE_TEST_DATA_DIR) + "/" + relative;
}

/// Every message of `sink`, one per line.
inline std::string messages(const support::CollectingSink& sink) {
  std::string out;
  for (const auto& d : sink.diagnostics())
    out += d.message + "\n";
  return out;
}

} // namespace shardscope::session::testing
