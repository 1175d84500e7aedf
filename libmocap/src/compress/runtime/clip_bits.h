// Byte and bit streams of the .mkc format (internal to the compress tier):
// little-endian fixed fields, LEB128 varints (canonical: no trailing zero
// groups), zigzag for signed values, and LSB-first bit streams with Rice or
// fixed-width codes. Readers never read past their end: a failed read sets
// `bad` and returns 0, and the parser checks `bad` once per field group.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace mocap::clip_bits {

inline std::uint32_t zigzag(std::int64_t v) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63));
}
inline std::int64_t unzigzag(std::uint32_t z) {
  return static_cast<std::int64_t>(z >> 1) ^ -static_cast<std::int64_t>(z & 1);
}

// Rice codes: quotient z >> k in unary (ones, then a zero) when below
// kRiceEscape, else kRiceEscape ones and the value in 32 raw bits.
inline constexpr int kRiceEscape = 24;
inline std::uint64_t rice_bits(std::uint32_t z, int k) {
  const std::uint32_t q = z >> k;
  return q < kRiceEscape ? q + 1 + static_cast<std::uint64_t>(k) : kRiceEscape + 32;
}

struct ByteWriter {
  std::vector<std::uint8_t> bytes;
  void u8(std::uint32_t v) { bytes.push_back(static_cast<std::uint8_t>(v)); }
  void u16(std::uint32_t v) { u8(v & 0xff), u8(v >> 8); }
  void u32(std::uint32_t v) { u16(v & 0xffff), u16(v >> 16); }
  void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }
  void f64(double v) {
    const auto b = std::bit_cast<std::uint64_t>(v);
    u32(static_cast<std::uint32_t>(b)), u32(static_cast<std::uint32_t>(b >> 32));
  }
  void varint(std::uint32_t v) {
    while (v >= 0x80) u8((v & 0x7f) | 0x80), v >>= 7;
    u8(v);
  }
  void svarint(std::int64_t v) { varint(zigzag(v)); }
};

struct ByteReader {
  std::span<const std::uint8_t> bytes;
  std::size_t at = 0;
  bool bad = false;
  bool has(std::size_t n) const { return !bad && bytes.size() - at >= n; }
  std::uint32_t u8() {
    if (!has(1)) return bad = true, 0;
    return bytes[at++];
  }
  std::uint32_t u16() {
    const std::uint32_t lo = u8();
    return lo | (u8() << 8);
  }
  std::uint32_t u32() {
    const std::uint32_t lo = u16();
    return lo | (u16() << 16);
  }
  float f32() { return std::bit_cast<float>(u32()); }
  double f64() {
    const std::uint64_t lo = u32();
    return std::bit_cast<double>(lo | (static_cast<std::uint64_t>(u32()) << 32));
  }
  // At most 5 groups, the last one not zero unless it is the only one.
  std::uint32_t varint() {
    std::uint64_t v = 0;
    for (int i = 0; i < 5; ++i) {
      const std::uint32_t b = u8();
      if (bad) return 0;
      v |= static_cast<std::uint64_t>(b & 0x7f) << (7 * i);
      if (!(b & 0x80)) {
        if ((i > 0 && b == 0) || v > 0xffffffffu) return bad = true, 0;
        return static_cast<std::uint32_t>(v);
      }
    }
    return bad = true, 0;
  }
  std::int64_t svarint() { return unzigzag(varint()); }
};

struct BitWriter {
  std::vector<std::uint8_t>& out;
  std::uint64_t acc = 0;
  int used = 0;
  void put(std::uint64_t v, int n) {  // n <= 32
    if (n == 0) return;
    acc |= (v & ((std::uint64_t{1} << n) - 1)) << used;
    used += n;
    while (used >= 8) out.push_back(static_cast<std::uint8_t>(acc)), acc >>= 8, used -= 8;
  }
  void ones(int n) {
    while (n > 0) {
      const int m = n < 32 ? n : 32;
      put((std::uint64_t{1} << m) - 1, m);
      n -= m;
    }
  }
  void rice(std::uint32_t z, int k) {
    const std::uint32_t q = z >> k;
    if (q < kRiceEscape) {
      ones(static_cast<int>(q));
      put(0, 1);
      put(z, k);
    } else {
      ones(kRiceEscape);
      put(z, 32);
    }
  }
  void flush() {  // pads with zero bits to a byte
    if (used > 0) out.push_back(static_cast<std::uint8_t>(acc));
    acc = 0, used = 0;
  }
};

struct BitReader {
  ByteReader& in;
  std::uint32_t byte = 0;
  int left = 0;  // unread bits of `byte`
  std::uint32_t bit() {
    if (left == 0) {
      byte = in.u8();
      left = 8;
      if (in.bad) return 0;
    }
    const std::uint32_t b = byte & 1;
    byte >>= 1, --left;
    return b;
  }
  std::uint32_t get(int n) {
    std::uint32_t v = 0;
    for (int i = 0; i < n && !in.bad; ++i) v |= bit() << i;
    return v;
  }
  std::uint32_t rice(int k) {
    std::uint32_t q = 0;
    while (q < kRiceEscape && !in.bad && bit()) ++q;
    if (q == kRiceEscape) {
      const std::uint32_t z = get(32);
      if ((z >> k) < kRiceEscape) in.bad = true;  // an escape only for what unary cannot say
      return z;
    }
    return (q << k) | get(k);
  }
  // The unused bits of the last byte must be zero (one file, one spelling).
  bool padding_is_zero() const { return (byte & ((1u << left) - 1)) == 0; }
};

inline constexpr int kMaxRiceParameter = 24;

// The residuals of delta order 0..2: the first `order` entries are the
// leading value and differences (written as varints), the rest d-th
// differences (written as codes).
inline void residuals(std::span<const std::int32_t> codes, int order, std::vector<std::int64_t>& out) {
  out.assign(codes.begin(), codes.end());
  for (int d = 0; d < order; ++d) {
    for (std::size_t i = out.size(); i-- > static_cast<std::size_t>(d + 1);) out[i] -= out[i - 1];
  }
}

// Bits of the residuals from index `order` on, Rice-coded with the best k
// (into `k`), or fixed-width with the fewest bits (into `k`).
inline std::uint64_t rice_cost(std::span<const std::int64_t> r, int& k) {
  // The best k is near log2 of the mean zigzag value: try the three around it.
  std::uint64_t sum = 0;
  for (const std::int64_t v : r) sum += zigzag(v);
  const std::uint64_t mean = r.empty() ? 0 : sum / r.size();
  const int guess = mean == 0 ? 0 : 63 - std::countl_zero(mean);
  std::uint64_t best = ~std::uint64_t{0};
  for (int t = std::max(0, guess - 1); t <= std::min(kMaxRiceParameter, guess + 1); ++t) {
    std::uint64_t bits = 0;
    for (const std::int64_t v : r) bits += rice_bits(zigzag(v), t);
    if (bits < best) best = bits, k = t;
  }
  return best;
}
inline std::uint64_t fixed_cost(std::span<const std::int64_t> r, int& bits) {
  std::uint32_t m = 0;
  for (const std::int64_t v : r) m |= zigzag(v);
  bits = m == 0 ? 0 : 32 - std::countl_zero(m);
  return static_cast<std::uint64_t>(bits) * r.size();
}

}  // namespace mocap::clip_bits
