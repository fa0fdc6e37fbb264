#pragma once

#include "core/io/npy/npy.h"

#include <string>
#include <vector>

namespace shardscope::cli {

/// Writes `arrays` as `DIR/result_0.npy`, `result_1.npy`, ... as one set: afterwards `DIR` holds
/// exactly these results (earlier `result_N.npy` beyond the new count are gone), and on failure or
/// interruption it holds the earlier set. A missing `DIR`, or one holding only earlier results,
/// is replaced whole by a fresh directory in one atomic rename; a directory with other files in
/// it (or a link to one) gets the files renamed in one by one after all were written. Returns
/// false with a message in `error`.
bool writeResultSet(const std::string& dir, const std::vector<io::npy::Array>& arrays,
                    std::string& error);

} // namespace shardscope::cli
