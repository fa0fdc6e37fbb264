// The HLO sharding model and its parser: every string form of XLA's grammar, XLA's
// normalizations (iota canonicalization, subgroups), and located errors. Expected strings come
// from XLA's own tests and comments (tile_assignment.cc, the Shardy integration tests) or are
// derived by hand in the comments.
#include "core/import/gspmd/hlo_sharding.h"
#include "core/import/gspmd/hlo_sharding_parser.h"

#include <gtest/gtest.h>

#include <string>

using namespace shardscope::import_::gspmd;

namespace {

// Parses `text` and prints it back (with metadata).
std::string roundTrip(const std::string& text) {
  HloShardingParseError error;
  std::optional<HloSharding> sharding = parseHloSharding(text, error);
  if (!sharding)
    return "error: " + error.message + " at " + std::to_string(error.offset);
  return sharding->toString(/*includeMetadata=*/true);
}

TEST(HloShardingParserTest, CanonicalStringsPrintBackUnchanged) {
  for (const char* text : {
           "{replicated}",
           "{maximal device=3}",
           "{manual}",
           "{unknown}",
           "{unreduced}",
           "{devices=[2,1,4]0,1,2,3,4,5,6,7}",
           "{devices=[4,2]<=[8]}",
           "{devices=[2,4]<=[4,2]T(1,0)}",
           "{devices=[4,8]<=[8,4]T(1,0)}",
           "{devices=[1,2,16]<=[32] last_tile_dim_replicate}",
           "{devices=[4,4,2]<=[2,16]T(1,0) last_tile_dim_replicate}",
           "{devices=[1,8,4]<=[2,4,4]T(0,2,1) last_tile_dim_replicate}",
           "{devices=[6,35]<=[7,10,3]T(2,1,0)}",
           "{devices=[1,1,4,4]<=[16] last_tile_dims={manual, replicated}}",
           "{devices=[2,2,4]<=[4,4]T(1,0) last_tile_dims={manual}}",
           "{devices=[2,4]0,4,1,5,2,6,3,7}",
           "{devices=[1,4,2]0,4,2,6,1,5,3,7 last_tile_dim_replicate}",
           "{{devices=[1,4,8]<=[8,4]T(1,0) last_tile_dim_replicate}, "
           "{devices=[4,1,8]<=[8,4]T(1,0) last_tile_dim_replicate}}",
           "{}",
           "{replicated metadata={op_name=\"jit(f)/x\" source_file=\"a.py\" source_line=3}}",
       })
    EXPECT_EQ(roundTrip(text), text);
}

TEST(HloShardingParserTest, LongTuplesNumberEveryFifthElement) {
  std::string text = "{{replicated}, {replicated}, {replicated}, {replicated}, {replicated}, "
                     "/*index=5*/{manual}}";
  EXPECT_EQ(roundTrip(text), text);
}

TEST(HloShardingParserTest, IotaIsCanonicalized) {
  // tile_assignment.cc: [1,3,1,4,1,5]T(4,3,2,5,1,0) => [3,20]T(1,0); [3,4,5] => [60].
  EXPECT_EQ(roundTrip("{devices=[60]<=[1,3,1,4,1,5]T(4,3,2,5,1,0)}"),
            "{devices=[60]<=[3,20]T(1,0)}");
  EXPECT_EQ(roundTrip("{devices=[60]<=[3,4,5]}"), "{devices=[60]<=[60]}");
  EXPECT_EQ(roundTrip("{devices=[60]<=[3,4,5]T(2,0,1)}"), "{devices=[60]<=[12,5]T(1,0)}");
  // An identity transpose is no transpose.
  EXPECT_EQ(roundTrip("{devices=[2,4]<=[2,4]T(0,1)}"), "{devices=[2,4]<=[8]}");
}

TEST(HloShardingParserTest, SubgroupsNormalizeAsXlaDoes) {
  // Nothing tiled and one subgroup kind: the plain form.
  EXPECT_EQ(roundTrip("{devices=[1,1,8]<=[8] last_tile_dim_replicate}"), "{replicated}");
  EXPECT_EQ(roundTrip("{devices=[1,8]<=[8] last_tile_dims={manual}}"), "{manual}");
  // A subgroup of size 1 is dropped.
  EXPECT_EQ(roundTrip("{devices=[2,4,1]<=[8] last_tile_dims={replicated}}"),
            "{devices=[2,4]<=[8]}");
  // Kinds are ordered manual before replicated: the device order moves with them. Hand
  // derivation: tile [2,2(repl),2(manual)] over iota 8; after moving manual before replicated the
  // device at (i,m,r) is 4i+2r+m, i.e. iota [2,2,2] transposed (0,2,1).
  EXPECT_EQ(roundTrip("{devices=[2,2,2]<=[8] last_tile_dims={replicated, manual}}"),
            "{devices=[2,2,2]<=[2,2,2]T(0,2,1) last_tile_dims={manual, replicated}}");
  // Replica groups of an explicit list are sorted (PartialTile).
  EXPECT_EQ(roundTrip("{devices=[2,2]1,0,3,2 last_tile_dim_replicate}"),
            "{devices=[2,2]0,1,2,3 last_tile_dim_replicate}");
}

TEST(HloShardingParserTest, SpacesAndShardGroupsAreAccepted) {
  EXPECT_EQ(roundTrip("{ devices=[2,2] <=[4] last_tile_dim_replicate }"),
            "{devices=[2,2]<=[4] last_tile_dim_replicate}");
  EXPECT_EQ(roundTrip("{devices=[4]<=[4] shard_as 2}"), "{devices=[4]<=[4]}");
  EXPECT_EQ(roundTrip("{maximal device=0 metadata={op_name=\"a\"}}"),
            "{maximal device=0 metadata={op_name=\"a\"}}");
}

TEST(HloShardingParserTest, MetadataIsKeptButNotPrintedByDefault) {
  HloShardingParseError error;
  auto sharding = parseHloSharding("{devices=[2]<=[2] metadata={op_name=\"x\"}}", error);
  ASSERT_TRUE(sharding);
  EXPECT_EQ(sharding->metadata, "{op_name=\"x\"}");
  EXPECT_EQ(sharding->toString(), "{devices=[2]<=[2]}");
}

TEST(HloShardingParserTest, MalformedStringsAreLocatedErrors) {
  struct Case {
    const char* text;
    const char* message;
    size_t offset;
  };
  for (const Case& c : {
           Case{"replicated", "expected '{' to start sharding attribute", 0},
           Case{"{replicated", "expected a sharding attribute", 11},
           Case{"{bogus}", "unknown sharding attribute 'bogus'", 1},
           Case{"{devices=[2,2]0,1,2}", "devices=[...] lists 3 devices, the tile assignment "
                                        "shape holds 4", 1},
           Case{"{devices=[2,2]<=[8]}", "iota reshape dimensions hold 8 devices, the tile "
                                        "assignment 4", 1},
           Case{"{devices=[4]<=[2,2]T(0,0)}", "iota transpose T(...) must be a permutation of "
                                              "the 2 reshape dimensions", 1},
           Case{"{maximal}", "maximal shardings should have exactly one device assigned", 1},
           Case{"{replicated devices=[2]0,1}", "replicated shardings should not have any "
                                               "devices assigned", 1},
           Case{"{devices=[1]0}", "non-maximal shardings must have more than one device "
                                  "assigned", 1},
           Case{"{devices=[2]0,0}", "device 0 appears twice in the tile assignment", 1},
           Case{"{replicated} x", "unexpected text after sharding", 13},
           Case{"{devices=[2,2]<=[4] last_tile_dims={sideways}}",
                "expected 'manual', 'replicated' or 'unreduced' in last_tile_dims", 44},
       }) {
    HloShardingParseError error;
    EXPECT_FALSE(parseHloSharding(c.text, error)) << c.text;
    EXPECT_EQ(error.message, c.message) << c.text;
    EXPECT_EQ(error.offset, c.offset) << c.text;
  }
}

TEST(HloShardingParserTest, HostileStringsFailQuickly) {
  HloShardingParseError error;
  EXPECT_FALSE(parseHloSharding("{devices=[4096,4096,4096]<=[68719476736] "
                                "last_tile_dim_replicate}",
                                error));
  EXPECT_EQ(error.message, "tile assignment holds more than 16777216 devices");
  EXPECT_FALSE(parseHloSharding("{devices=[0,2]<=[0]}", error));
  EXPECT_EQ(error.message, "tile assignment dimensions must be positive");
  EXPECT_FALSE(parseHloSharding("{devices=[99999999999999999999]<=[2]}", error));
  EXPECT_EQ(error.message, "integer out of range");
  // Every prefix of valid strings and random bytes: an error or a sharding, never a crash.
  std::string valid = "{{devices=[2,1,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}, "
                      "{devices=[2,2,2]<=[2,2,2]T(0,2,1) last_tile_dims={manual, replicated} "
                      "metadata={op_name=\"a{\"}}, {maximal device=1}}";
  ASSERT_TRUE(parseHloSharding(valid, error)) << error.message;
  for (size_t n = 0; n < valid.size(); ++n) {
    std::string prefix = valid.substr(0, n);
    HloShardingParseError prefixError;
    EXPECT_FALSE(parseHloSharding(prefix, prefixError)) << prefix;
    EXPECT_LE(prefixError.offset, prefix.size());
  }
  uint32_t state = 7;
  const std::string alphabet = "{}[](),=<T 0123456789devicsmaxlpt_\"";
  for (int i = 0; i < 2000; ++i) {
    std::string text;
    for (int k = 0; k < 30; ++k) {
      state = state * 1664525u + 1013904223u;
      text += alphabet[(state >> 16) % alphabet.size()];
    }
    HloShardingParseError randomError;
    if (!parseHloSharding(text, randomError))
      EXPECT_LE(randomError.offset, text.size());
  }
}

TEST(TileAssignmentTest, ExplicitListsThatAreIotasAreRecognized) {
  // Hand derivation: device (r, c) of [2,4]0,4,1,5,2,6,3,7 is 4*(c%2) + 2r + c/2, which is
  // iota [2,4] transposed (1,0) and read as [2,4].
  TileAssignment tiles = TileAssignment::fromDeviceArray({2, 4}, {0, 4, 1, 5, 2, 6, 3, 7});
  ASSERT_TRUE(tiles.isIota());
  std::string text;
  tiles.print(text);
  EXPECT_EQ(text, "devices=[2,4]<=[2,4]T(1,0)");
  EXPECT_TRUE(TileAssignment::fromDeviceArray({2, 2}, {0, 1, 2, 3}).isIota());
  EXPECT_TRUE(TileAssignment::fromDeviceArray({2, 2}, {0, 2, 1, 3}).isIota());
  // Not a transposed iota: 0,3,1,2 and anything not starting at device 0.
  EXPECT_FALSE(TileAssignment::fromDeviceArray({4}, {0, 3, 1, 2}).isIota());
  EXPECT_FALSE(TileAssignment::fromDeviceArray({2}, {1, 0}).isIota());
}

TEST(TileAssignmentTest, MaterializesTheTransposedIota) {
  // {devices=[2,3]<=[2,3]T(1,0)} is {devices=[2,3]0,3,1,4,2,5} (stablehlo_import.cc).
  EXPECT_EQ(TileAssignment::iota({2, 3}, {2, 3}, {1, 0}).materialize(),
            (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
}

} // namespace
