#include "core/support/checked_math.h"

#include <gtest/gtest.h>

#include <climits>
#include <vector>

namespace shardscope::support {
namespace {

TEST(CheckedMathTest, ProductsThatFitAreExact) {
  EXPECT_EQ(checkedMul(int64_t{1} << 31, int64_t{1} << 31), int64_t{1} << 62);
  EXPECT_EQ(checkedMul(-3, 4), -12);
  EXPECT_EQ(checkedMul(INT64_MAX, 1), INT64_MAX);
}

TEST(CheckedMathTest, OverflowingProductsAreNothing) {
  EXPECT_FALSE(checkedMul(int64_t{1} << 32, int64_t{1} << 31));
  EXPECT_FALSE(checkedMul(INT64_MIN, -1));
  EXPECT_FALSE(checkedMul(INT64_MAX, 2));
}

TEST(CheckedMathTest, SumsAndDifferencesAtTheEdges) {
  EXPECT_EQ(checkedAdd(INT64_MAX - 1, 1), INT64_MAX);
  EXPECT_FALSE(checkedAdd(INT64_MAX, 1));
  EXPECT_FALSE(checkedAdd(INT64_MIN, -1));
  EXPECT_EQ(checkedSub(0, INT64_MAX), -INT64_MAX);
  EXPECT_FALSE(checkedSub(INT64_MIN, 1));
}

TEST(CheckedMathTest, ProductOfSizes) {
  EXPECT_EQ(checkedProduct(std::vector<int64_t>{}), 1);
  EXPECT_EQ(checkedProduct(std::vector<int64_t>{2, 3, 4}), 24);
  EXPECT_EQ(checkedProduct(std::vector<int64_t>{0, INT64_MAX, INT64_MAX}), 0);
  // A mesh of 2^40 x 2^40 devices, and a 2^32 x 2^32 x 2 tensor.
  EXPECT_FALSE(checkedProduct(std::vector<int64_t>{int64_t{1} << 40, int64_t{1} << 40}));
  EXPECT_FALSE(checkedProduct(std::vector<int64_t>{int64_t{1} << 32, int64_t{1} << 32, 2}));
  EXPECT_FALSE(checkedProduct(std::vector<int64_t>{4, -1}));
}

} // namespace
} // namespace shardscope::support
