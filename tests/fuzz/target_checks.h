#pragma once
// The contracts the fuzz targets beyond the MLIR parser check. Each returns an empty string when
// the input was handled as promised, else what broke; the libFuzzer targets abort on a failure,
// and target_checks_test replays every committed corpus and regression through the same checks
// in every build.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace shardscope::fuzz {

/// `.npy` reader: arbitrary bytes never crash it; a parsed array holds exactly its shape's bytes
/// and serializes to bytes that parse back to the same array.
std::string checkNpy(std::span<const uint8_t> bytes);

/// `serve`'s input side: arbitrary bytes, fed in chunks whose sizes the input chooses, split into
/// one line per newline (plus a last unterminated one) within the length bound; every line reads
/// as a request or throws a located error, and its response prints.
std::string checkServeProtocol(std::string_view bytes);

/// GSPMD sharding strings: arbitrary text never crashes the parser, an error's offset lies in the
/// text, and a parsed sharding prints to a string that parses back to an equal sharding.
std::string checkGspmdSharding(std::string_view text);

} // namespace shardscope::fuzz
