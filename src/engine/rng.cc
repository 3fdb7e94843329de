#include "types.h"

namespace carc {

void Rng::reseed(uint64_t seed) {
  for (auto& w : s_) {
    seed += 0x9E3779B97F4A7C15ull;
    uint64_t z = seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    w = z ^ (z >> 31);
  }
}

}  // namespace carc
