#include "core/support/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace shardscope::support {

bool writeFileAtomically(const std::string& path, std::span<const char> bytes,
                         std::string& error) {
  // The process id keeps concurrent writers (MPI ranks, parallel tests) off each other's files.
  std::string tmp = path + ".tmp-shardscope-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      error = "could not write '" + path + "': " + std::strerror(errno);
      return false;
    }
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      error = "could not write '" + path + "'";
      out.close();
      std::remove(tmp.c_str());
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    error = "could not write '" + path + "': " + ec.message();
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

} // namespace shardscope::support
