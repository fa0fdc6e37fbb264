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

} // namespace shardscope::support
