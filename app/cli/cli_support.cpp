// Input, output and option parsing shared by the subcommands: the parts that meet the operating
// system, where a bad path, a device, a full disk or an absurd number must become a message.
#include "app/cli/cli_support.h"

#include "core/support/parse_number.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace shardscope::cli {

namespace {

// Reads everything from `fd` into `text`, refusing more than `limit` bytes.
bool readAll(int fd, const std::string& shown, int64_t limit, std::string& text,
             std::string& error) {
  text.clear();
  char chunk[1 << 16];
  while (true) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n == 0)
      return true;
    if (n < 0) {
      if (errno == EINTR)
        continue;
      error = "could not read " + shown + ": " + std::strerror(errno);
      return false;
    }
    if (static_cast<int64_t>(text.size()) + n > limit) {
      error = shown + " is larger than " + std::to_string(limit) +
              " bytes (the input limit; raise it with SHARDSCOPE_MAX_INPUT_BYTES)";
      return false;
    }
    text.append(chunk, static_cast<size_t>(n));
  }
}

} // namespace

int64_t maxInputBytes() {
  const char* env = std::getenv("SHARDSCOPE_MAX_INPUT_BYTES");
  if (env)
    if (std::optional<int64_t> n = support::parseInteger<int64_t>(env); n && *n > 0)
      return *n;
  return kDefaultMaxInputBytes;
}

bool readInputText(const std::string& path, std::string& text, std::string& error) {
  if (path == "-")
    return readAll(STDIN_FILENO, "standard input", maxInputBytes(), text, error);
  // stat first: opening a FIFO that has no writer would block, and a device such as /dev/zero
  // never ends. Only regular files (or links to them) are programs.
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    error = errno == ENOENT ? "could not open input file '" + path + "': no such file"
                            : "could not open input file '" + path + "': " + std::strerror(errno);
    return false;
  }
  if (S_ISDIR(info.st_mode)) {
    error = "'" + path + "' is a directory, not a program file";
    return false;
  }
  if (!S_ISREG(info.st_mode)) {
    error = "'" + path + "' is not a regular file (a device, FIFO or socket); pass '-' to read " +
            "standard input";
    return false;
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    error = "could not open input file '" + path + "': " + std::strerror(errno);
    return false;
  }
  bool ok = readAll(fd, "'" + path + "'", maxInputBytes(), text, error);
  ::close(fd);
  return ok;
}

namespace {
// Whether a failed write to standard output was reported: the error is said once per command.
bool stdoutErrorReported = false;
} // namespace

bool writeStdout(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    if (!stdoutErrorReported)
      std::fprintf(stderr, "shardscope-cli: error: could not write standard output: %s\n",
                   std::strerror(errno));
    stdoutErrorReported = true;
    return false;
  }
  return true;
}

bool finishStdout() {
  // Output printed with printf is buffered: a full disk or a closed pipe shows only here.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    if (stdoutErrorReported)
      return false;
    std::fprintf(stderr, "shardscope-cli: error: could not write standard output: %s\n",
                 errno ? std::strerror(errno) : "write error");
    return false;
  }
  return true;
}

std::optional<int64_t> parseOptionInteger(const std::string& flag, const std::string& value,
                                          int64_t min, int64_t max) {
  std::optional<int64_t> n = support::parseInteger<int64_t>(value);
  if (!n || *n < min || *n > max) {
    std::string range = max == INT64_MAX ? "at least " + std::to_string(min)
                                         : std::to_string(min) + ".." + std::to_string(max);
    std::fprintf(stderr, "shardscope-cli: error: %s '%s': expected an integer %s\n", flag.c_str(),
                 value.c_str(), range.c_str());
    return std::nullopt;
  }
  return n;
}

std::optional<double> parsePositiveSeconds(const std::string& value) {
  char* end = nullptr;
  errno = 0;
  double seconds = std::strtod(value.c_str(), &end);
  // Up to a year: the value becomes milliseconds in an int64 without overflowing.
  if (value.empty() || *end != '\0' || errno != 0 || !std::isfinite(seconds) || seconds <= 0 ||
      seconds > 365.0 * 24 * 3600)
    return std::nullopt;
  return seconds;
}

} // namespace shardscope::cli
