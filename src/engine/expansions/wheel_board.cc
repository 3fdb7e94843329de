// The Wheel of Fortune's board data: the wheel's segments (events and crown spaces) and the pig's
// start, from a board file's "wheel" object; the crown spaces' names; GameParts (game_parts.h).
#include "wheel_board.h"

#include "../game.h"
#include "tile_fields.h"

namespace carc {

const std::array<const char*, kWheelEvents> kWheelEventNames = {"fortuna", "taxes", "famine",
                                                                "storm",   "inquisition", "plague"};

void parse_wheel(const nlohmann::json& w, const std::string& origin, BoardFile& b) {
  auto fail = [&](const std::string& what) { throw TileDataError(origin + ": " + what); };
  if (!w.is_object() || !w.contains("segments") || !w["segments"].is_array())
    fail("'wheel' must be {\"start\": NAME, \"segments\": [{\"name\": ..., \"crowns\": 0..2}, ...]}");
  bool seen[kWheelEvents] = {};
  for (auto& sj : w["segments"]) {
    if (!sj.is_object() || !sj.contains("name") || !sj["name"].is_string()) fail("wheel segment without a 'name'");
    const std::string name = sj["name"].get<std::string>();
    int ev = -1;
    for (int e = 0; e < kWheelEvents; ++e)
      if (name == kWheelEventNames[e]) ev = e;
    if (ev < 0) fail("wheel segment '" + name + "' is not an event (fortuna, taxes, famine, storm, inquisition, plague)");
    if (seen[ev]) fail("wheel segment '" + name + "' is listed twice");
    seen[ev] = true;
    int crowns = sj.value("crowns", 0);
    if (crowns < 0 || crowns > kMaxCrownsPerSegment) fail("wheel segment '" + name + "': 'crowns' must be 0..2");
    b.segments.push_back(WheelSegment{WheelEvent(ev), crowns});
  }
  if (b.segments.size() != size_t(kWheelEvents)) fail("the wheel must list each of the six events once");
  const std::string start = w.value("start", std::string("fortuna"));
  b.start_segment = -1;
  for (size_t i = 0; i < b.segments.size(); ++i)
    if (start == kWheelEventNames[int(b.segments[i].event)]) b.start_segment = int(i);
  if (b.start_segment < 0) fail("wheel start '" + start + "' is not a segment");
}

// The names of the crown spaces ("crown:taxes:0"), which records, notation and views use; a
// space's number is event * kMaxCrownsPerSegment + k (Game::crown_at), the same on any wheel.
std::string crown_space_name(int c) {
  return std::string("crown:") + kWheelEventNames[size_t(c / kMaxCrownsPerSegment)] + ":" +
         std::to_string(c % kMaxCrownsPerSegment);
}

void modules_board_fields(const nlohmann::json& doc, const std::string& origin, BoardFile& b) {
  if (doc.contains("wheel")) parse_wheel(doc["wheel"], origin, b);
}

std::string GameParts::crown_name(int c) const { return crown_space_name(c); }

int GameParts::crown_index(std::string_view name) const {
  for (int c = 0; c < kWheelEvents * kMaxCrownsPerSegment; ++c)
    if (crown_exists(c) && crown_name(c) == name) return c;
  return -1;
}

void GameParts::init_parts(const BoardFileParts& b) {
  wheel_ = b.segments;
  wheel_start_ = b.start_segment;
  for (size_t seg = 0; seg < wheel_.size(); ++seg) event_segment_[size_t(wheel_[seg].event)] = int8_t(seg);
  for (int c = 0; c < kWheelEvents * kMaxCrownsPerSegment && c < 32; ++c)
    if (crown_exists(c)) crown_mask_ |= 1u << c;
}

bool GameParts::parts_plain(const std::vector<TileType>& types) const {
  if (!wheel_.empty()) return false;
  for (const TileType& t : types)
    if (t.festival || t.wheel) return false;
  return true;
}

}  // namespace carc
