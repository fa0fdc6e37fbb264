#pragma once

#include <cstdint>
#include <string>

namespace shardscope::support {

/// Formats a byte count the way every table, badge and report shows one: below 1024 the exact
/// count (`512 B`), otherwise the largest binary unit up to TiB that keeps the value at least 1,
/// with one decimal (`1.5 KiB`, `64.0 MiB`, `2.0 GiB`, `3.0 TiB`; larger counts stay in TiB).
/// Rounding is `printf`'s, so a count just below a unit boundary reads `1024.0 KiB`. Negative
/// counts print exactly (`-5 B`). Returns the text.
std::string formatBytes(int64_t bytes);

} // namespace shardscope::support
