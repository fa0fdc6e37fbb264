#pragma once

#include <string>

namespace shardscope::support {

/// The heap allocator this process runs on, as a short human-readable name: "tcmalloc 2.10" when
/// gperftools' tcmalloc serves malloc (linked in, see SHARDSCOPE_TCMALLOC, or preloaded), else
/// "system malloc". Decided at run time from the symbols present, not from build flags.
std::string allocatorName();

} // namespace shardscope::support
