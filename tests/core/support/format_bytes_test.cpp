#include "core/support/format_bytes.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace shardscope::support {
namespace {

constexpr int64_t kKiB = 1024;
constexpr int64_t kMiB = kKiB * 1024;
constexpr int64_t kGiB = kMiB * 1024;
constexpr int64_t kTiB = kGiB * 1024;

TEST(FormatBytesTest, BelowOneKibibyteIsExact) {
  EXPECT_EQ(formatBytes(0), "0 B");
  EXPECT_EQ(formatBytes(1), "1 B");
  EXPECT_EQ(formatBytes(512), "512 B");
  EXPECT_EQ(formatBytes(1023), "1023 B");
  EXPECT_EQ(formatBytes(-5), "-5 B");
}

TEST(FormatBytesTest, KibibyteBoundary) {
  EXPECT_EQ(formatBytes(kKiB), "1.0 KiB");
  EXPECT_EQ(formatBytes(kKiB + 1), "1.0 KiB"); // 1.0009765625
  EXPECT_EQ(formatBytes(1536), "1.5 KiB");
  // 1023.9990234375 KiB rounds up to 1024.0 but stays in KiB: the unit is chosen before rounding.
  EXPECT_EQ(formatBytes(kMiB - 1), "1024.0 KiB");
}

TEST(FormatBytesTest, OneDecimalRoundsToNearest) {
  EXPECT_EQ(formatBytes(1075), "1.0 KiB"); // 1.0498046875
  EXPECT_EQ(formatBytes(1076), "1.1 KiB"); // 1.05078125
  EXPECT_EQ(formatBytes(3584), "3.5 KiB");
}

TEST(FormatBytesTest, MebibytesAndGibibytes) {
  EXPECT_EQ(formatBytes(kMiB), "1.0 MiB");
  EXPECT_EQ(formatBytes(64 * kMiB), "64.0 MiB");
  EXPECT_EQ(formatBytes(kGiB - 1), "1024.0 MiB"); // 1023.99999905 MiB
  EXPECT_EQ(formatBytes(kGiB), "1.0 GiB");
  EXPECT_EQ(formatBytes(kGiB + kGiB / 2), "1.5 GiB");
}

TEST(FormatBytesTest, TebibytesAreTheLargestUnit) {
  EXPECT_EQ(formatBytes(kTiB), "1.0 TiB");
  EXPECT_EQ(formatBytes(16 * kTiB), "16.0 TiB");
  EXPECT_EQ(formatBytes(2048 * kTiB), "2048.0 TiB");
}

} // namespace
} // namespace shardscope::support
