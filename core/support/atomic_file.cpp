#include "core/support/atomic_file.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace shardscope::support {

namespace {

// The temporary files being written, so that a signal handler can remove them. A fixed table of
// fixed buffers: the handler may only read plain memory and call async-signal-safe functions.
constexpr size_t kMaxPendingFiles = 32;
constexpr size_t kMaxPathBytes = 4096;
struct PendingFile {
  std::atomic<bool> used{false};
  std::atomic<bool> ready{false};
  char path[kMaxPathBytes];
};
std::array<PendingFile, kMaxPendingFiles> g_pending;

// Registers `path`; returns its slot, or -1 when the table is full or the path too long (the
// file is then still written, only not removed on a signal).
int registerPending(const std::string& path) {
  if (path.size() >= kMaxPathBytes)
    return -1;
  for (size_t i = 0; i < kMaxPendingFiles; ++i) {
    bool expected = false;
    if (g_pending[i].used.compare_exchange_strong(expected, true)) {
      std::memcpy(g_pending[i].path, path.c_str(), path.size() + 1);
      g_pending[i].ready.store(true);
      return static_cast<int>(i);
    }
  }
  return -1;
}

void unregisterPending(int slot) {
  if (slot < 0)
    return;
  g_pending[static_cast<size_t>(slot)].ready.store(false);
  g_pending[static_cast<size_t>(slot)].used.store(false);
}

extern "C" void removePendingAndReraise(int signal) {
  for (PendingFile& file : g_pending)
    if (file.ready.load())
      ::unlink(file.path);
  // Directories last, once the files in them are gone.
  for (PendingFile& file : g_pending)
    if (file.ready.load())
      ::rmdir(file.path);
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

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
  int slot = registerPending(tmp);
  bool ok = writeInPlace(tmp, path, bytes, error);
  if (ok) {
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
      error = "could not write '" + path + "': " + ec.message();
      ok = false;
    }
  }
  if (!ok)
    std::remove(tmp.c_str());
  unregisterPending(slot);
  return ok;
}

std::string pendingTemporaryName(const std::string& path) {
  return path + ".tmp-shardscope-" + std::to_string(::getpid());
}

void removeTemporaryFilesOnSignal() {
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction current {};
    // Leave alone a signal the parent chose to ignore (nohup) or that someone else handles.
    if (sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_DFL)
      std::signal(signal, removePendingAndReraise);
  }
}

int registerTemporaryFile(const std::string& path) { return registerPending(path); }

void unregisterTemporaryFile(int slot) { unregisterPending(slot); }

} // namespace shardscope::support
