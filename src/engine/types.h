// Basic value types shared by the whole engine: edges, segment kinds, sides and
// half-edges, board coordinates, and the deterministic random generator.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace carc {

// Edge types. 0 is used in edge patterns to mean "no constraint".
enum class Edge : uint8_t { None = 0, Field = 1, Road = 2, City = 3 };

// What a segment of a tile is. Monastery and Tent are single-tile centre features.
enum class Kind : uint8_t { Road = 0, City = 1, Field = 2, Monastery = 3, Tent = 4 };
constexpr int kNumKinds = 5;

// The feature kind's name: road, city, field, monastery, tent (docs/vocabulary.md; a field scored at
// the end is a "farm", vocabulary.h's score_kind_name).
const char* kind_name(Kind k);

// Sides: N=0, E=1, S=2, W=3. Rotating a tile by 90 degrees clockwise maps side d to d+1.
constexpr int kNorth = 0, kEast = 1, kSouth = 2, kWest = 3;
constexpr int opposite(int side) { return side ^ 2; }
constexpr char kSideNames[4] = {'N', 'E', 'S', 'W'};

// Half-edges, clockwise from the north-west corner: Nw=0 Ne=1 En=2 Es=3 Se=4 Sw=5 Ws=6 Wn=7.
// Half h lies on side h/2. Rotating by 90 degrees maps h to h+2 (mod 8).
// The half facing half h across its edge is opposite_half(h): Nw<->Sw, Ne<->Se, En<->Wn, Es<->Ws.
constexpr int opposite_half(int h) { return (h & 1) ? ((h + 3) & 7) : ((h + 5) & 7); }
extern const std::array<const char*, 8> kHalfNames;

constexpr int kMaxPlayers = 6;
constexpr int kFollowersPerPlayer = 7;
constexpr int kMaxSegments = 12;  // per tile type

// Board cells live on a 128x128 torus: a game never spans 128 cells in either direction
// (at most 96 tiles plus a 4-cell board), so wrapping never makes two positions collide.
constexpr int kBoardBits = 7;
constexpr int kBoardDim = 1 << kBoardBits;
constexpr int kBoardCells = kBoardDim * kBoardDim;
constexpr int kBoardMask = kBoardDim - 1;
inline int cell_of(int x, int y) { return ((y & kBoardMask) << kBoardBits) | (x & kBoardMask); }
inline int cell_step(int cell, int side) {
  switch (side) {
    case kNorth: return (cell - kBoardDim) & (kBoardCells - 1);
    case kSouth: return (cell + kBoardDim) & (kBoardCells - 1);
    case kEast: return (cell & ~kBoardMask) | ((cell + 1) & kBoardMask);
    default: return (cell & ~kBoardMask) | ((cell - 1) & kBoardMask);
  }
}

// A small, fast, deterministic generator (xoshiro256**), seeded by splitmix64.
// Its output is part of the game's reproducibility: never change the algorithm.
class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { reseed(seed); }
  void reseed(uint64_t seed);
  // Inline: a random game calls these a few hundred times.
  uint64_t next() {
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
  // Uniform integer in [0, n), n > 0 (Lemire's multiply-shift with rejection).
  uint32_t below(uint32_t n) {
    uint64_t m = uint64_t(uint32_t(next() >> 32)) * n;
    uint32_t low = uint32_t(m);
    if (low < n) [[unlikely]] {
      const uint32_t threshold = uint32_t(-n) % n;
      while (low < threshold) {
        m = uint64_t(uint32_t(next() >> 32)) * n;
        low = uint32_t(m);
      }
    }
    return uint32_t(m >> 32);
  }
  const std::array<uint64_t, 4>& raw() const { return s_; }
  void set_raw(const std::array<uint64_t, 4>& s) { s_ = s; }
  bool operator==(const Rng& o) const { return s_ == o.s_; }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::array<uint64_t, 4> s_{};
};

}  // namespace carc
