// `run --output-dir DIR`: the results of one run as one set of `result_N.npy` files.
#include "app/cli/result_set.h"

#include "core/io/npy/npy.h"
#include "core/support/atomic_file.h"
#include "core/support/parse_number.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <regex>
#include <unistd.h>

namespace shardscope::cli {

namespace fs = std::filesystem;

namespace {

bool isResultName(const std::string& name) {
  static const std::regex pattern(R"(result_[0-9]+\.npy)");
  return std::regex_match(name, pattern);
}

// Whether `dir` holds nothing but earlier results (so the whole directory may be swapped).
bool holdsOnlyResults(const fs::path& dir) {
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec))
    if (!isResultName(entry.path().filename().string()))
      return false;
  return !ec;
}

// Writes every result into the empty directory `staging`; the registered slots are appended to
// `slots` so that an interruption removes the files.
bool writeInto(const fs::path& staging, const std::vector<io::npy::Array>& arrays,
               std::vector<int>& slots, std::string& error) {
  for (size_t i = 0; i < arrays.size(); ++i) {
    fs::path path = staging / ("result_" + std::to_string(i) + ".npy");
    slots.push_back(support::registerTemporaryFile(path.string()));
    if (!io::npy::write(path.string(), arrays[i], error))
      return false;
  }
  return true;
}

void forget(std::vector<int>& slots) {
  for (int slot : slots)
    support::unregisterTemporaryFile(slot);
  slots.clear();
}

// `dir` holds other files too (it may be the working directory): every result is written to a
// temporary file first, then all are renamed into place and earlier results beyond the new count
// are removed. A failure before the renames changes nothing.
bool writeBesideOtherFiles(const fs::path& dir, const std::vector<io::npy::Array>& arrays,
                           std::string& error) {
  fs::path staging = dir / (".results.tmp-shardscope-" + std::to_string(::getpid()));
  std::error_code ec;
  fs::remove_all(staging, ec);
  if (!fs::create_directory(staging, ec)) {
    error = "cannot create '" + staging.string() + "': " + ec.message();
    return false;
  }
  std::vector<int> slots{support::registerTemporaryFile(staging.string())};
  bool ok = writeInto(staging, arrays, slots, error);
  for (size_t i = 0; ok && i < arrays.size(); ++i) {
    std::string name = "result_" + std::to_string(i) + ".npy";
    fs::rename(staging / name, dir / name, ec);
    if (ec) {
      error = "cannot write '" + (dir / name).string() + "': " + ec.message();
      ok = false;
    }
  }
  if (ok)
    for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
      std::string name = entry.path().filename().string();
      std::optional<uint64_t> index =
          support::parseInteger<uint64_t>(name.substr(7, name.size() - 11));
      if (isResultName(name) && (!index || *index >= arrays.size()))
        fs::remove(entry.path(), ec);
    }
  fs::remove_all(staging, ec);
  forget(slots);
  return ok;
}

// The set goes to a fresh sibling directory, which then takes `dir`'s place in one rename
// (exchanged with an existing `dir` holding only earlier results, which is then removed).
bool writeByDirectorySwap(const fs::path& dir, bool exists,
                          const std::vector<io::npy::Array>& arrays, std::string& error) {
  fs::path staging = dir;
  staging += ".tmp-shardscope-" + std::to_string(::getpid());
  std::error_code ec;
  fs::remove_all(staging, ec);
  if (!fs::create_directory(staging, ec)) {
    error = "cannot create '" + staging.string() + "': " + ec.message();
    return false;
  }
  std::vector<int> slots{support::registerTemporaryFile(staging.string())};
  bool ok = writeInto(staging, arrays, slots, error);
  if (ok && exists) {
    // Atomic exchange: readers see the old set or the new one, never a mix or nothing.
    if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, dir.c_str(), RENAME_EXCHANGE) != 0) {
      if (errno == EINVAL || errno == ENOSYS) {
        // A file system without atomic exchange: fall back to renaming the files in one by one.
        fs::remove_all(staging, ec);
        forget(slots);
        return writeBesideOtherFiles(dir, arrays, error);
      }
      error = "cannot replace '" + dir.string() + "': " + std::strerror(errno);
      ok = false;
    }
  } else if (ok) {
    fs::rename(staging, dir, ec);
    if (ec) {
      error = "cannot create '" + dir.string() + "': " + ec.message();
      ok = false;
    }
  }
  fs::remove_all(staging, ec); // the earlier set after an exchange, or what a failure left
  forget(slots);
  return ok;
}

} // namespace

bool writeResultSet(const std::string& dirName, const std::vector<io::npy::Array>& arrays,
                    std::string& error) {
  fs::path dir(dirName);
  while (dir.has_filename() == false && dir.has_parent_path() && dir != dir.root_path())
    dir = dir.parent_path(); // "out/" names "out"
  std::error_code ec;
  fs::file_status status = fs::symlink_status(dir, ec);
  bool exists = fs::exists(status);
  if (fs::is_symlink(status) || dir.filename() == "." || dir.filename() == "..") {
    // Keep a link a link, and never move the working directory: write inside it.
    if (!fs::is_directory(fs::status(dir, ec))) {
      error = "'" + dirName + "' is not a directory";
      return false;
    }
    return writeBesideOtherFiles(dir, arrays, error);
  }
  if (exists && !fs::is_directory(status)) {
    error = "'" + dirName + "' is not a directory";
    return false;
  }
  if (dir.has_parent_path() && !fs::exists(dir.parent_path(), ec)) {
    fs::create_directories(dir.parent_path(), ec);
    if (ec) {
      error = "cannot create '" + dir.parent_path().string() + "': " + ec.message();
      return false;
    }
  }
  if (!exists || holdsOnlyResults(dir))
    return writeByDirectorySwap(dir, exists, arrays, error);
  return writeBesideOtherFiles(dir, arrays, error);
}

} // namespace shardscope::cli
