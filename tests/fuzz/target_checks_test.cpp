// Replays the committed corpora of the .npy, serve-protocol and GSPMD fuzz targets through their
// checks (every input that once failed is kept there), and holds the hostile inputs that shaped
// each check.
#include "tests/fuzz/target_checks.h"

#include "core/session/serve/protocol.h"
#include "core/io/npy/npy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using shardscope::fuzz::checkGspmdSharding;
using shardscope::fuzz::checkNpy;
using shardscope::fuzz::checkServeProtocol;

std::vector<std::string> corpus(const std::string& name) {
  std::vector<fs::path> files;
  for (const fs::directory_entry& e : fs::directory_iterator(fs::path(SHARDSCOPE_FUZZ_DIR) / name))
    if (e.is_regular_file())
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<std::string> inputs;
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    inputs.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return inputs;
}

std::span<const uint8_t> bytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

TEST(FuzzTargetCorpora, NpyCorpusPassesItsChecks) {
  std::vector<std::string> inputs = corpus("corpus_npy");
  EXPECT_GE(inputs.size(), 5u);
  for (const std::string& input : inputs)
    EXPECT_EQ(checkNpy(bytes(input)), "");
}

TEST(FuzzTargetCorpora, ServeCorpusPassesItsChecks) {
  std::vector<std::string> inputs = corpus("corpus_serve");
  EXPECT_GE(inputs.size(), 5u);
  for (const std::string& input : inputs)
    EXPECT_EQ(checkServeProtocol(input), "");
}

TEST(FuzzTargetCorpora, GspmdCorpusPassesItsChecks) {
  std::vector<std::string> inputs = corpus("corpus_gspmd");
  EXPECT_GE(inputs.size(), 5u);
  for (const std::string& input : inputs)
    EXPECT_EQ(checkGspmdSharding(input), "") << input;
}

TEST(ServeProtocol, DeepNestingIsRefusedWithItsColumn) {
  // 100 levels are fine; the 101st opening bracket (column 7 + 100) is refused before parsing.
  std::string ok = "{\"id\":" + std::string(99, '[') + std::string(99, ']') + "}";
  EXPECT_EQ(shardscope::session::serve::tooDeepAt(ok, 100), 0u);
  std::string deep = "{\"id\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  EXPECT_EQ(shardscope::session::serve::tooDeepAt(deep, 100), 7u + 100u - 1u);
  try {
    shardscope::session::serve::parseRequest(deep, 3, /*tooLong=*/false, 1000000);
    FAIL() << "a deeply nested request was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "<stdin>:3:106: JSON nested deeper than 100 levels");
  }
}

TEST(ServeProtocol, BracketsInStringsDoNotNest) {
  std::string text = "{\"id\":\"" + std::string(500, '[') + "\",\"cmd\":\"hello\"}";
  EXPECT_EQ(shardscope::session::serve::tooDeepAt(text, 100), 0u);
  EXPECT_EQ(shardscope::session::serve::tooDeepAt(R"({"a":"\"[[["})", 1), 0u);
}

TEST(ServeProtocol, LongLinesAreDroppedAndCounted) {
  shardscope::session::serve::LineFramer framer(10);
  framer.append("short\n" + std::string(25, 'x'));
  std::string line;
  bool tooLong = false;
  ASSERT_TRUE(framer.next(line, tooLong));
  EXPECT_EQ(line, "short");
  EXPECT_FALSE(tooLong);
  EXPECT_FALSE(framer.next(line, tooLong)); // the long line has no end yet, and is dropped
  framer.append(std::string(25, 'x') + "\nnext\n");
  ASSERT_TRUE(framer.next(line, tooLong));
  EXPECT_TRUE(tooLong);
  EXPECT_EQ(framer.lineNumber(), 2);
  ASSERT_TRUE(framer.next(line, tooLong));
  EXPECT_EQ(line, "next");
  EXPECT_FALSE(tooLong);
  framer.finish();
  EXPECT_FALSE(framer.next(line, tooLong));
  EXPECT_TRUE(framer.atEnd());
}

TEST(ServeProtocol, ParseErrorsAreLocatedAtTheirByte) {
  try {
    shardscope::session::serve::parseRequest("{\"id\": 1,, }", 7, false, 100);
    FAIL() << "malformed JSON was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).substr(0, 12), "<stdin>:7:10");
  }
}

TEST(ServeProtocol, NumbersTooLargeForADoubleAreLocatedErrors) {
  // nlohmann::json throws out_of_range, not parse_error, for these (found by the serve fuzzer).
  try {
    shardscope::session::serve::parseRequest("{\"id\": 66666666666e6666666666}", 4, false, 100);
    FAIL() << "an overflowing number was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).substr(0, 12), "<stdin>:4:1:");
  }
}

TEST(NpyCheck, TruncatedAndOverflowingHeadersAreErrors) {
  // A header whose shape overflows 64 bits, and one that promises more bytes than follow.
  for (std::string shape : {"(4611686018427387904, 4611686018427387904)", "(1000,)"}) {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
    header.append(118 - header.size() - 10, ' ');
    header += '\n';
    std::string file = std::string("\x93NUMPY\x01\x00", 8);
    file += static_cast<char>(header.size() & 0xff);
    file += static_cast<char>(header.size() >> 8);
    file += header + std::string(16, '\0');
    std::string error;
    EXPECT_FALSE(shardscope::io::npy::parse(bytes(file), error).has_value());
    EXPECT_FALSE(error.empty());
    EXPECT_EQ(checkNpy(bytes(file)), "");
  }
}

} // namespace
