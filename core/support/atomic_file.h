#pragma once

#include <span>
#include <string>

namespace shardscope::support {

/// Writes `bytes` to `path` atomically: they go to a temporary file in the same directory that is
/// then renamed over `path`, so readers see either the old file or the complete new one, and a
/// failure (full disk, missing directory, interruption) never leaves a half-written `path`.
/// A symbolic link keeps being a link: the file it points to is replaced. What renaming would
/// destroy (a device such as /dev/null, a FIFO) is written in place instead; a directory is
/// refused. Returns false with a message in `error` (naming the path) on failure.
bool writeFileAtomically(const std::string& path, std::span<const char> bytes, std::string& error);

/// The name of the temporary file `writeFileAtomically` writes before renaming it to `path`.
std::string pendingTemporaryName(const std::string& path);

/// Installs handlers for SIGINT, SIGTERM and SIGHUP (those not ignored or handled already) that
/// remove the temporary files being written, then end the process as the signal would. Front
/// ends call it once at startup.
void removeTemporaryFilesOnSignal();

/// Registers a temporary file or directory of the caller's own for removal on those signals
/// (a directory must be empty by then to go). Returns a slot for `unregisterTemporaryFile`, or
/// -1 when it could not be registered.
int registerTemporaryFile(const std::string& path);
/// Forgets a registration once the file was renamed into place or removed.
void unregisterTemporaryFile(int slot);

} // namespace shardscope::support
