#include "core/io/npy/npy.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace shardscope;

namespace {

// Builds a version 1.0 file by the format's definition: magic, version, little-endian header
// length, header text padded with spaces to a 64-byte boundary and ended by '\n', then data.
std::vector<uint8_t> npyFile(const std::string& dict, const std::vector<uint8_t>& data,
                             uint8_t major = 1) {
  size_t prefix = major == 1 ? 10 : 12;
  std::string header = dict;
  while ((prefix + header.size() + 1) % 64 != 0)
    header += ' ';
  header += '\n';
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', major, 0};
  size_t n = header.size();
  out.push_back(n & 0xFF);
  out.push_back((n >> 8) & 0xFF);
  if (major != 1) {
    out.push_back(0);
    out.push_back(0);
  }
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::vector<uint8_t> int32Bytes(std::initializer_list<int32_t> values) {
  std::vector<uint8_t> out;
  for (int32_t v : values)
    for (int b = 0; b < 4; ++b)
      out.push_back(static_cast<uint8_t>((static_cast<uint32_t>(v) >> (8 * b)) & 0xFF));
  return out;
}

} // namespace

TEST(NpyTest, ReadsCOrderInt32) {
  std::string error;
  auto array = io::npy::parse(
      npyFile("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }",
              int32Bytes({1, 2, 3, 4, 5, 6})),
      error);
  ASSERT_TRUE(array) << error;
  EXPECT_EQ(array->element, ir::ElementType::I32);
  EXPECT_EQ(array->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(array->data, int32Bytes({1, 2, 3, 4, 5, 6}));
}

TEST(NpyTest, TransposesFortranOrder) {
  // Column-major storage of [[1, 2, 3], [4, 5, 6]] is 1 4 2 5 3 6.
  std::string error;
  auto array = io::npy::parse(
      npyFile("{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }",
              int32Bytes({1, 4, 2, 5, 3, 6})),
      error);
  ASSERT_TRUE(array) << error;
  EXPECT_EQ(array->data, int32Bytes({1, 2, 3, 4, 5, 6}));
}

TEST(NpyTest, ReadsScalarsVersion2AndEqualsByteOrder) {
  std::string error;
  auto scalar = io::npy::parse(
      npyFile("{'descr': '=i4', 'fortran_order': False, 'shape': (), }", int32Bytes({-7}), 2),
      error);
  ASSERT_TRUE(scalar) << error;
  EXPECT_TRUE(scalar->shape.empty());
  EXPECT_EQ(scalar->data, int32Bytes({-7}));
}

TEST(NpyTest, RejectsBadFilesWithReasons) {
  std::string error;
  EXPECT_FALSE(io::npy::parse(std::vector<uint8_t>{'h', 'e', 'l', 'l', 'o', 0, 0, 0, 0, 0, 0},
                              error));
  EXPECT_NE(error.find("magic"), std::string::npos) << error;

  EXPECT_FALSE(io::npy::parse(
      npyFile("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", int32Bytes({0})),
      error));
  EXPECT_NE(error.find("big-endian"), std::string::npos) << error;

  EXPECT_FALSE(io::npy::parse(
      npyFile("{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }", int32Bytes({1, 2})),
      error));
  EXPECT_NE(error.find("truncated: header says 16 bytes of data, found 8"), std::string::npos)
      << error;

  EXPECT_FALSE(io::npy::parse(
      npyFile("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,), }",
              int32Bytes({1})),
      error));
  EXPECT_NE(error.find("structured"), std::string::npos) << error;
}

TEST(NpyTest, SerializesAsNumPyDoesAndRoundTrips) {
  io::npy::Array array{ir::ElementType::F32, {3}, std::vector<uint8_t>(12, 0)};
  float values[3] = {1.5f, -2.0f, 0.25f};
  std::memcpy(array.data.data(), values, 12);
  std::vector<uint8_t> bytes = io::npy::serialize(array);
  // The header dictionary follows the 10-byte prefix; the data starts on a 64-byte boundary
  // right after the header's closing newline.
  std::string text(bytes.begin(), bytes.end() - 12);
  EXPECT_EQ(text.find("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }"), 10u) << text;
  EXPECT_EQ(text.size() % 64, 0u);
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(bytes[8] | (bytes[9] << 8), static_cast<int>(text.size()) - 10);
  std::string error;
  auto back = io::npy::parse(bytes, error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->element, array.element);
  EXPECT_EQ(back->shape, array.shape);
  EXPECT_EQ(back->data, array.data);
}

TEST(NpyTest, WriteIsAtomicAndReportsMissingDirectories) {
  std::string error;
  io::npy::Array array{ir::ElementType::I1, {2, 2}, {1, 0, 0, 1}};
  EXPECT_FALSE(io::npy::write("/nonexistent-dir/x.npy", array, error));
  EXPECT_NE(error.find("/nonexistent-dir/x.npy"), std::string::npos) << error;

  auto dir = std::filesystem::temp_directory_path() / "shardscope-npy-test";
  std::filesystem::create_directories(dir);
  std::string path = (dir / "mask.npy").string();
  ASSERT_TRUE(io::npy::write(path, array, error)) << error;
  auto back = io::npy::read(path, error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->element, ir::ElementType::I1);
  EXPECT_EQ(back->data, array.data);
  // Nothing but the file itself is left behind.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
  std::filesystem::remove_all(dir);
}
