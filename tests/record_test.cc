// The record loader: exact round trips, and every kind of bad input gives a clean error
// that names the place (fuzz-style: truncations, wrong types, unknown fields, byte flips,
// illegal moves) and never crashes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "playout.h"
#include "test_util.h"

using namespace carc;

namespace {

std::string sample_record(uint64_t seed, int players = 2, bool festival = false) {
  Rules r;
  r.players = players;
  r.festival = festival;
  State s(Game::get(r), seed);
  Rng rng(seed);
  std::vector<Move> moves;
  random_playout(s, rng, moves);
  return record_to_json(record_of(s, {}, false));
}

// Parses and replays; returns "" when valid, or the error message. Anything but a
// RecordError is a failure of the test.
std::string load(const std::string& text) {
  try {
    replay(parse_record(text), true);
    return "";
  } catch (const RecordError& e) {
    std::string msg = e.what();
    EXPECT_FALSE(msg.empty());
    return msg;
  }
}

}  // namespace

TEST(Record, RoundTripIsExact) {
  const std::string text = sample_record(5);
  Record r = parse_record(text);
  EXPECT_EQ(record_to_json(r), text);
  EXPECT_EQ(load(text), "");
}

TEST(Record, TruncationsAreCleanErrors) {
  const std::string text = sample_record(6);
  for (size_t n = 0; n < text.size(); n += 7) {
    std::string msg = load(text.substr(0, n));
    EXPECT_NE(msg, "") << "truncated at " << n;
  }
}

TEST(Record, ByteFlipsNeverCrash) {
  const std::string text = sample_record(7, 3, true);
  Rng rng(1);
  int errors = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string t = text;
    const int flips = 1 + int(rng.below(3));
    for (int k = 0; k < flips; ++k) t[rng.below(uint32_t(t.size()))] = "0123456789-,:{}[]\"aZNSEWx "[rng.below(27)];
    errors += !load(t).empty();
  }
  EXPECT_GT(errors, 1000);  // most flips break something, and each said so cleanly
}

TEST(Record, WrongTypesAndUnknownFieldsNameTheirPlace) {
  auto base = nlohmann::json::parse(sample_record(8));
  struct Case {
    std::function<void(nlohmann::json&)> mutate;
    std::string expect;
  };
  std::vector<Case> cases = {
      {[](auto& j) { j["setup"]["players"] = "Ann"; }, "setup.players"},
      {[](auto& j) { j["setup"]["players"] = {"Ann"}; }, "2 to 6 players"},
      {[](auto& j) { j["setup"]["players"] = std::vector<std::string>(7, "x"); }, "2 to 6 players"},
      {[](auto& j) { j["setup"]["tileset"] = "river"; }, "unknown tile set"},
      {[](auto& j) { j["setup"]["expansions"] = {"dragons"}; }, "unknown expansion 'dragons'"},
      {[](auto& j) { j["setup"]["seed"] = "x"; }, "setup.seed"},
      {[](auto& j) { j["setup"]["draws"] = "shuffled"; }, "setup.draws"},
      {[](auto& j) { j["setup"]["colour"] = "red"; }, "unknown field 'colour'"},
      {[](auto& j) { j["format"] = "carcassonne-record/2"; }, "format"},
      {[](auto& j) { j.erase("turns"); }, "missing 'turns'"},
      {[](auto& j) { j["turns"][3]["x"] = "1"; }, "turn 4: 'x' must be an integer"},
      {[](auto& j) { j["turns"][3]["rotation"] = 45; }, "turn 4: rotation must be 0, 90, 180 or 270"},
      {[](auto& j) { j["turns"][3]["meeple"] = 3; }, "turn 4: 'meeple' must be a string"},
      {[](auto& j) { j["turns"][3]["meeple"] = "Q"; }, "turn 4:"},
      {[](auto& j) { j["turns"][3]["rot"] = 90; }, "turn 4: unknown field 'rot'"},
      {[](auto& j) { j["turns"][3].erase("tile"); }, "turn 4: missing 'tile'"},
      {[](auto& j) { j["turns"][3]["player"] = 5; }, "turn 4: it is player 1's turn"},
      {[](auto& j) { j["turns"][3]["x"] = 40; }, "turn 4:"},
      {[](auto& j) { j["turns"][3]["return"] = {{"x", 0}, {"y", 0}, {"at", "N"}}; }, "turn 4:"},
      {[](auto& j) { j["turns"][3]["discarded"] = {"A"}; }, "turn 4:"},
      {[](auto& j) { j["turns"].push_back(j["turns"][0]); }, "turn 72: the game is already over"},
      {[](auto& j) { j["turns"][0] = j["turns"][1]; }, "turn "},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    auto j = base;
    cases[i].mutate(j);
    std::string msg = load(j.dump());
    EXPECT_NE(msg.find(cases[i].expect), std::string::npos) << "case " << i << ": got '" << msg << "'";
  }
}

TEST(Record, RandomRecordsInEveryPlayerCountReplay) {
  for (int p = 2; p <= 6; ++p) EXPECT_EQ(load(sample_record(20 + p, p, p % 2)), "");
}

TEST(Record, StartTileMustExist) {
  try {
    replay(test::scenario("[]", 2, "Q9"));
    FAIL();
  } catch (const RecordError& e) {
    EXPECT_NE(std::string(e.what()).find("setup.start"), std::string::npos);
  } catch (...) {
    FAIL() << "not a RecordError";
  }
}
