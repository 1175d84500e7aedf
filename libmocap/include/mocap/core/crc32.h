// CRC-32 (IEEE 802.3, the polynomial zlib and PNG use, reflected, initial and
// final value 0xffffffff): the checksum of the .mkc file's payload and of
// each line of a report's resume journal. crc32("123456789") == 0xcbf43926.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace mocap {

std::uint32_t crc32(std::span<const std::uint8_t> bytes);

inline std::uint32_t crc32(std::string_view text) {
  return crc32(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

}  // namespace mocap
