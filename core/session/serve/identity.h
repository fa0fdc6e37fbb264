#pragma once
// The identity of `shardscope-cli serve`'s JSON-lines protocol (`app/cli/SERVE_PROTOCOL.md`),
// shared by the server and the app's client: the `hello` response carries both values, and a
// client refuses a server that answers with others.

#include <string_view>

namespace shardscope::session::serve {

/// The `protocol` field of the `hello` response.
inline constexpr std::string_view kProtocolName = "shardscope-serve";
/// The `version` field of the `hello` response; it changes whenever a request or event changes
/// in a way an older client would misread.
inline constexpr int kProtocolVersion = 2;

} // namespace shardscope::session::serve
