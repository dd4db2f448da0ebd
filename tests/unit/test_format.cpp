// core/addscope_Format: the one formatter of durations, byte counts, rates,
// shares and sizes — at the boundaries between its forms.
#include <gtest/gtest.h>

#include "addscope/core/addscope_Format.hpp"

namespace {

using namespace addscope;

TEST(Format, SecondsByMagnitude) {
  EXPECT_EQ(format_seconds(0), "0.0 us");
  EXPECT_EQ(format_seconds(6.5e-6), "6.5 us");
  EXPECT_EQ(format_seconds(0.0000185), "18.5 us");
  EXPECT_EQ(format_seconds(999e-6), "999.0 us");
  EXPECT_EQ(format_seconds(1e-3), "1.0 ms");  // the boundary is ms
  EXPECT_EQ(format_seconds(0.6401), "640.1 ms");
  EXPECT_EQ(format_seconds(1.0), "1.000 s");
  EXPECT_EQ(format_seconds(1.5), "1.500 s");
  EXPECT_EQ(format_seconds(-2e-3), "-2.0 ms");  // the sign is kept
}

TEST(Format, BytesExactBelowOneKiB) {
  EXPECT_EQ(format_bytes(0), "0 B");
  EXPECT_EQ(format_bytes(4), "4 B");
  EXPECT_EQ(format_bytes(512), "512 B");  // never "0 KiB"
  EXPECT_EQ(format_bytes(1023), "1023 B");
  EXPECT_EQ(format_bytes(1024), "1.0 KiB");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(512u << 10), "512.0 KiB");
  EXPECT_EQ(format_bytes((1u << 20) - 1), "1024.0 KiB");
  EXPECT_EQ(format_bytes(1u << 20), "1.0 MiB");
  EXPECT_EQ(format_bytes(40u << 20), "40.0 MiB");
  EXPECT_EQ(format_bytes(3ull << 29), "1.5 GiB");
  EXPECT_EQ(format_bytes(1ull << 40), "1024.0 GiB");
}

TEST(Format, RatesSharesSizesVersions) {
  EXPECT_EQ(format_gbps(3650.24), "3650.2");
  EXPECT_EQ(format_gbps(0.04), "0.0");
  EXPECT_EQ(format_pct(88.4), "88%");
  EXPECT_EQ(format_pct(88.4, false), "n/a");
  EXPECT_EQ(format_pct(51433.2), "51433%");
  EXPECT_EQ(exact_log2(1), 0);
  EXPECT_EQ(exact_log2(1 << 20), 20);
  EXPECT_EQ(exact_log2(0), -1);
  EXPECT_EQ(exact_log2(-4), -1);
  EXPECT_EQ(exact_log2(3), -1);
  EXPECT_EQ(exact_log2(std::int64_t(1) << 40), 40);
  EXPECT_EQ(size_name(1 << 20), "2^20");
  EXPECT_EQ(size_name(1000000), "1000000");
  EXPECT_EQ(version_text(30401), "3.4.1");
  EXPECT_EQ(version_text(40699), "4.6.99");
}

}  // namespace
