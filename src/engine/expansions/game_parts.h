// The modules' part of a Game (the immutable per-variant data, game.h): the Wheel of Fortune's
// wheel and crown spaces, read from the board file. A base of Game, so the wheel's accessors
// are the Game's (`g.crown_exists(c)`) while the module owns them; defined in wheel_board.cc.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../tiles.h"

namespace carc {

// "crown:taxes:0": the name of crown space c (event * kMaxCrownsPerSegment + k), any wheel.
std::string crown_space_name(int c);

class GameParts {
 public:
  // The wheel (clockwise segments, the pig's start), empty without one.
  bool has_wheel() const { return !wheel_.empty(); }
  const std::vector<WheelSegment>& wheel() const { return wheel_; }
  int wheel_start() const { return wheel_start_; }
  // Crown spaces are numbered by the event of their segment, event * kMaxCrownsPerSegment + k
  // (event in kWheelEventNames order), whatever the segment's place on the wheel: the same number
  // in the engine, the AI and Python, and the same name ("crown:taxes:0") everywhere
  // (docs/vocabulary.md). crown_at(seg, k): segment seg's k-th space; crown_segment(c): the
  // segment holding space c (-1 without a wheel).
  int crown_at(int seg, int k) const { return int(wheel_[size_t(seg)].event) * kMaxCrownsPerSegment + k; }
  int crown_segment(int c) const {
    return c >= 0 && c < kWheelEvents * kMaxCrownsPerSegment ? event_segment_[size_t(c / kMaxCrownsPerSegment)] : -1;
  }
  // True when crown space c exists on this wheel.
  bool crown_exists(int c) const {
    const int seg = crown_segment(c);
    return seg >= 0 && c % kMaxCrownsPerSegment < wheel_[size_t(seg)].crowns;
  }
  // The crown spaces that exist (bit c), 0 without a wheel.
  uint32_t crown_mask() const { return crown_mask_; }
  // "crown:taxes:0" for crown space c, and back (-1 when not a crown space of this wheel).
  std::string crown_name(int c) const;
  int crown_index(std::string_view name) const;

 protected:
  // Game's constructor: the modules' part of its start board.
  void init_parts(const BoardFileParts& b);
  // True when neither the board's parts nor a tile's module flags change a turn's moves (no wheel,
  // no festival or wheel tile): a condition of Game::plain_moves().
  bool parts_plain(const std::vector<TileType>& types) const;

 private:
  std::vector<WheelSegment> wheel_;
  int wheel_start_ = 0;
  std::array<int8_t, kWheelEvents> event_segment_{-1, -1, -1, -1, -1, -1};  // the segment of each event
  uint32_t crown_mask_ = 0;
};

}  // namespace carc
