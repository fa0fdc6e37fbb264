#pragma once

#include "core/import/gspmd/hlo_sharding.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace shardscope::import_::gspmd {

/// Why a sharding string could not be read: a message in the style of XLA's HLO parser and the
/// offset (in bytes, into the string) where reading stopped.
struct HloShardingParseError {
  std::string message;
  size_t offset = 0;
};

/// Reads an HLO sharding string with XLA's grammar (`hlo_parser.cc`): `{replicated}`,
/// `{maximal device=N}`, `{manual}`, `{unknown}`, `{unreduced}`, explicit and iota tile
/// assignments (`{devices=[2,1,4]0,1,2,3,4,5,6,7}`, `{devices=[4,2]<=[8]}`,
/// `{devices=[2,4]<=[4,2]T(1,0)}`) with `last_tile_dim_replicate` or
/// `last_tile_dims={manual, replicated, unreduced}`, `metadata={...}` (kept verbatim),
/// `shard_as N` / `shard_like N` (accepted, not modelled) and tuples `{{...}, {...}}`.
/// The result is normalized as XLA's constructors normalize (iota canonicalization, subgroups).
/// Returns nothing and fills `error` for malformed input.
std::optional<HloSharding> parseHloSharding(std::string_view text, HloShardingParseError& error);

} // namespace shardscope::import_::gspmd
