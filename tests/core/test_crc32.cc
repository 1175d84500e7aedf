#include <mocap/core/crc32.h>

#include <gtest/gtest.h>

#include <string>

namespace {

// The check value every CRC-32/ISO-HDLC implementation publishes.
TEST(Crc32, CheckValue) {
  EXPECT_EQ(mocap::crc32(std::string_view("123456789")), 0xcbf43926u);
}

TEST(Crc32, EmptyAndOneBitChange) {
  EXPECT_EQ(mocap::crc32(std::string_view()), 0u);
  std::string text = "mocap-report-journal";
  const auto before = mocap::crc32(text);
  for (std::size_t i = 0; i < text.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string flipped = text;
      flipped[i] = static_cast<char>(flipped[i] ^ (1 << bit));
      EXPECT_NE(mocap::crc32(flipped), before) << "byte " << i << " bit " << bit;
    }
  }
}

}  // namespace
