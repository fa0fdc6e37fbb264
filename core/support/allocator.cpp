#include "core/support/allocator.h"

// gperftools exports tc_version() from libtcmalloc(_minimal). Declared weak, it resolves to null
// unless the library is part of the process; when it is, it also replaces malloc/free (the
// library interposes them), so its presence is the allocator in use.
extern "C" const char* tc_version(int* major, int* minor, const char** patch)
    __attribute__((weak));

namespace shardscope::support {

std::string allocatorName() {
  if (tc_version) {
    int major = 0, minor = 0;
    const char* patch = "";
    tc_version(&major, &minor, &patch);
    return "tcmalloc " + std::to_string(major) + "." + std::to_string(minor) + (patch ? patch : "");
  }
  return "system malloc";
}

} // namespace shardscope::support
