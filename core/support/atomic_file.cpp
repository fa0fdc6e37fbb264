#include "core/support/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace shardscope::support {

namespace {

// Writes through `path` as it is: for what cannot be replaced by renaming (a device such as
// /dev/null or /dev/stdout, a FIFO), since renaming over it would destroy it.
// Messages name `shown`, the path the caller asked for.
bool writeInPlace(const std::string& path, const std::string& shown, std::span<const char> bytes,
                  std::string& error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    error = "could not write '" + shown + "': " + std::strerror(errno);
    return false;
  }
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.flush();
  if (!out) {
    error = "could not write '" + shown + "'";
    return false;
  }
  return true;
}

} // namespace

bool writeFileAtomically(const std::string& path, std::span<const char> bytes,
                         std::string& error) {
  std::error_code ec;
  const std::filesystem::file_status link = std::filesystem::symlink_status(path, ec);
  if (!ec && std::filesystem::is_symlink(link)) {
    // Replace what the link points to and keep the link.
    std::filesystem::path target = std::filesystem::weakly_canonical(path, ec);
    if (ec) {
      error = "could not write '" + path + "': " + ec.message();
      return false;
    }
    return writeFileAtomically(target.string(), bytes, error);
  }
  if (!ec && std::filesystem::exists(link) && !std::filesystem::is_regular_file(link)) {
    if (std::filesystem::is_directory(link)) {
      error = "could not write '" + path + "': it is a directory";
      return false;
    }
    return writeInPlace(path, path, bytes, error);
  }
  // The process id keeps concurrent writers (MPI ranks, parallel tests) off each other's files.
  std::string tmp = path + ".tmp-shardscope-" + std::to_string(::getpid());
  if (!writeInPlace(tmp, path, bytes, error)) {
    std::remove(tmp.c_str());
    return false;
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    error = "could not write '" + path + "': " + ec.message();
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

} // namespace shardscope::support
