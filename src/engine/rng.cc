#include "types.h"

namespace carc {

namespace {
inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

void Rng::reseed(uint64_t seed) {
  for (auto& w : s_) {
    seed += 0x9E3779B97F4A7C15ull;
    uint64_t z = seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    w = z ^ (z >> 31);
  }
}

uint64_t Rng::next() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

uint32_t Rng::below(uint32_t n) {
  uint64_t m = uint64_t(uint32_t(next() >> 32)) * n;
  uint32_t low = uint32_t(m);
  if (low < n) {
    const uint32_t threshold = uint32_t(-n) % n;
    while (low < threshold) {
      m = uint64_t(uint32_t(next() >> 32)) * n;
      low = uint32_t(m);
    }
  }
  return uint32_t(m >> 32);
}

}  // namespace carc
