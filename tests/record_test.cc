// The record loader: exact round trips, and every kind of bad input gives a clean error
// that names the place (fuzz-style: truncations, wrong types, unknown fields, byte flips,
// illegal moves) and never crashes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "input_limits.h"
#include "playout.h"
#include "test_util.h"

using namespace carc;

namespace {

std::string sample_record(uint64_t seed, int players = 2, bool festival = false) {
  Rules r;
  r.players = players;
  r.set(Expansion::Festival, festival);
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

// state_from_json's error, or "" when the state loads.
std::string state_from_json_error(const std::string& text) {
  try {
    state_from_json(text);
    return "";
  } catch (const RecordError& e) {
    return e.what();
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
      {[](auto& j) { j["format"] = "carcassonne-record/3"; }, "format: expected \"carcassonne-record/2\" (or the older"},
      {[](auto& j) { j.erase("turns"); }, "missing 'turns'"},
      {[](auto& j) { j["turns"][3]["x"] = "1"; }, "turn 4: 'x' must be an integer"},
      {[](auto& j) { j["turns"][3]["rotation"] = 45; }, "turn 4: rotation must be 0, 90, 180 or 270"},
      {[](auto& j) { j["turns"][3]["follower"] = 3; }, "turn 4: 'follower' must be a string"},
      {[](auto& j) { j["turns"][3]["follower"] = "Q"; }, "turn 4:"},
      // Each format has its own names: format 2 says follower/take_back, format 1 meeple/return.
      {[](auto& j) { j["turns"][3]["meeple"] = "N"; }, "turn 4: unknown field 'meeple'"},
      {[](auto& j) { j["turns"][3]["return"] = {{"x", 0}, {"y", 0}, {"at", "N"}}; }, "turn 4: unknown field 'return'"},
      {[](auto& j) {
         j["format"] = "carcassonne-record/1";
         for (auto& t : j["turns"]) t.erase("follower");
         j["turns"][3]["follower"] = "N";
       },
       "turn 4: unknown field 'follower'"},
      {[](auto& j) { j["pending"] = "x"; }, "pending: must be an object"},
      {[](auto& j) { j["pending"] = {{"drawn", {"A"}}}; }, "pending: unknown field 'drawn'"},
      {[](auto& j) { j["pending"] = {{"draws", {"NOPE"}}}; }, "pending: saved draw 1 ('NOPE')"},
      {[](auto& j) { j["pending"] = {{"choice", 300}}; }, "pending: 'choice' is out of range"},
      {[](auto& j) { j["pending"] = {{"plague", {{{"x", 0}, {"y", 0}}}}}; }, "pending.plague: missing 'at'"},
      {[](auto& j) {
         j["format"] = "carcassonne-record/1";
         for (auto& t : j["turns"]) t.erase("follower");
         j["pending"] = nlohmann::json::object();
       },
       "record: unknown field 'pending'"},
      {[](auto& j) { j["turns"][3]["rot"] = 90; }, "turn 4: unknown field 'rot'"},
      {[](auto& j) { j["turns"][3].erase("tile"); }, "turn 4: missing 'tile'"},
      {[](auto& j) { j["turns"][3]["player"] = 5; }, "turn 4: 'player' is out of range (0 to 1, got 5)"},
      {[](auto& j) { j["turns"][3]["player"] = 0; }, "turn 4: it is player 1's turn"},
      {[](auto& j) { j["turns"][3]["x"] = 40; }, "turn 4:"},
      {[](auto& j) { j["turns"][3]["take_back"] = {{"x", 0}, {"y", 0}, {"at", "N"}}; }, "turn 4:"},
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

// Every limit of input_limits.h, at its edge (accepted) and one beyond (a clean RecordError
// naming the field), and numbers that would wrap if read into a narrower type.
TEST(Limits, NumbersAreRangeCheckedWhereTheyAreRead) {
  const auto base = nlohmann::json::parse(sample_record(11));
  struct Case {
    std::string raw;     // replaces turn 4's "x" value as raw JSON text
    std::string expect;  // "" = accepted by the reader (may still be an illegal move)
  };
  auto with_x = [&](const std::string& raw) {  // turn 4's "x" written as raw number text
    auto j = base;
    j["turns"][3]["x"] = "@X@";
    std::string text = j.dump();
    text.replace(text.find("\"@X@\""), 5, raw);
    return text;
  };
  const std::vector<Case> cases = {
      {"18446744073709551615", "turn 4: 'x' is out of range (-1000 to 1000, got 18446744073709551615)"},
      {"18446744073709551616", "turn 4: 'x' must be an integer"},  // beyond 64 bits: not an integer
      {"-9223372036854775808", "turn 4: 'x' is out of range"},
      {"65537", "turn 4: 'x' is out of range (-1000 to 1000, got 65537)"},
      {"1001", "turn 4: 'x' is out of range"},
      {"-1001", "turn 4: 'x' is out of range"},
      {"1e400", "record: not valid JSON: [json.exception.out_of_range.406] number overflow parsing '1e400'"},
      {"1.5", "turn 4: 'x' must be an integer"},
  };
  for (const Case& c : cases) EXPECT_EQ(load(with_x(c.raw)).find(c.expect), 0u) << c.raw << ": " << load(with_x(c.raw));
  // At the edge the reader accepts the number (the move is then judged by the rules).
  EXPECT_NE(load(with_x("1000")).find("turn 4: tile"), std::string::npos) << load(with_x("1000"));
  EXPECT_NE(load(with_x("-1000")).find("turn 4: tile"), std::string::npos);

  auto mutated = [&](auto f) {
    auto j = base;
    f(j);
    return load(j.dump());
  };
  const uint64_t k2_32 = uint64_t(1) << 32;
  EXPECT_EQ(mutated([&](auto& j) { j["turns"][3]["rotation"] = k2_32 + 90; }).find("turn 4: 'rotation' is out of range"), 0u);
  EXPECT_EQ(mutated([&](auto& j) { j["turns"][3]["rotation"] = -90; }).find("turn 4: 'rotation' is out of range"), 0u);
  EXPECT_EQ(mutated([&](auto& j) { j["turns"][3]["player"] = k2_32 + 1; }).find("turn 4: 'player' is out of range"), 0u);
  EXPECT_EQ(mutated([&](auto& j) { j["turns"][3]["player"] = -1; }).find("turn 4: 'player' is out of range"), 0u);
  EXPECT_EQ(mutated([&](auto& j) { j["turns"][3]["y"] = int64_t(k2_32); }).find("turn 4: 'y' is out of range"), 0u);
  EXPECT_EQ(mutated([&](auto& j) { j["setup"]["seed"] = -1; }).find("setup.seed: must be an integer from 0"), 0u);
  EXPECT_EQ(mutated([&](auto& j) { j["setup"]["seed"] = 1.5; }).find("setup.seed: must be an integer from 0"), 0u);
  EXPECT_EQ(mutated([&](auto& j) { j["setup"]["seed"] = UINT64_MAX; }), "")
      << "the largest seed is read (the recorded draws then decide)";
  // 1e400 as raw text: refused by the parser itself (a number beyond a double), naming it.
  std::string text = base.dump();
  const std::string seed = "\"seed\":" + base["setup"]["seed"].dump();
  text.replace(text.find(seed), seed.size(), "\"seed\":1e400");
  EXPECT_NE(load(text).find("number overflow parsing '1e400'"), std::string::npos) << load(text);
}

TEST(Limits, FruitTokenValuesCannotWrap) {
  Rules r;
  r.set(Expansion::FruitTrees);
  State s(Game::get(r), 3);
  auto j = nlohmann::json::parse(record_to_json(record_of(s, {}, true)));
  j["setup"]["fruit_stacks"] = {{"apple", {uint64_t(1) << 32 | 2, 3, 4, 5}}};
  EXPECT_NE(load(j.dump()).find("setup.fruit_stacks.apple: 'token value' is out of range (2 to 5"), std::string::npos)
      << load(j.dump());
  j["setup"]["fruit_stacks"] = {{"apple", {2, 3, 4, 5}}};
  EXPECT_EQ(load(j.dump()), "");
}

TEST(Limits, SizesAreCheckedBeforeParsing) {
  // Nesting: at the limit the text parses (and is then refused for its shape); beyond, refused
  // before parsing, whatever the depth (70,000 levels would overflow a recursive reader).
  auto nested = [](int depth) { return std::string(size_t(depth), '[') + std::string(size_t(depth), ']'); };
  EXPECT_EQ(load(nested(limits::kMaxJsonDepth)), "a record must be a JSON object");
  EXPECT_NE(load(nested(limits::kMaxJsonDepth + 1)).find("record: JSON nested deeper than 32 levels"), std::string::npos);
  const std::string deep = "{\"format\":\"carcassonne-record/1\",\"setup\":{},\"turns\":" + nested(70000) + "}";
  EXPECT_NE(load(deep).find("nested deeper"), std::string::npos);
  // Brackets inside strings do not count.
  EXPECT_EQ(limits::json_depth_error("{\"a\":\"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\\"[[[[\"}", 2), "");
  EXPECT_NE(limits::json_depth_error("[[[", 2), "");
  EXPECT_EQ(limits::json_depth_error("[[]]", 2), "");
  EXPECT_NE(state_from_json_error(nested(100)).find("state: JSON nested deeper"), std::string::npos);

  // Bytes: the limit is checked on the text before parsing.
  std::string big = sample_record(12);
  big.insert(big.size() - 1, std::string(limits::kMaxRecordBytes - big.size(), ' '));
  EXPECT_EQ(big.size(), limits::kMaxRecordBytes);
  EXPECT_EQ(load(big), "");
  big.insert(big.size() - 1, " ");
  EXPECT_EQ(load(big).find("record: 1048577 bytes, more than the limit of 1048576"), 0u) << load(big);

  // Turns: counted before any turn is read.
  auto j = nlohmann::json::parse(sample_record(13));
  while (j["turns"].size() < limits::kMaxRecordTurns) j["turns"].push_back(j["turns"][0]);
  EXPECT_EQ(load(j.dump()).find("turn 72: the game is already over"), 0u) << load(j.dump());
  j["turns"].push_back(j["turns"][0]);
  EXPECT_EQ(load(j.dump()).find("turns: 201 turns, more than any game has (at most 200)"), 0u) << load(j.dump());

  // Names and other strings.
  j = nlohmann::json::parse(sample_record(14));
  j["setup"]["players"][1] = std::string(limits::kMaxRecordNameBytes, 'n');
  EXPECT_EQ(load(j.dump()), "");
  j["setup"]["players"][1] = std::string(limits::kMaxRecordNameBytes + 1, 'n');
  EXPECT_EQ(load(j.dump()).find("setup: 'players[1]' has 101 bytes (at most 100)"), 0u) << load(j.dump());
  j = nlohmann::json::parse(sample_record(14));
  j["turns"][2]["tile"] = std::string(100000, 'A');
  EXPECT_EQ(load(j.dump()).find("turn 3: 'tile' has 100000 bytes (at most 64)"), 0u) << load(j.dump());
  j = nlohmann::json::parse(sample_record(14));
  j["turns"][2]["discarded"] = std::vector<std::string>(limits::kMaxListEntries + 1, "A");
  EXPECT_EQ(load(j.dump()).find("turn 3: 'discarded' has 101 entries (at most 100)"), 0u) << load(j.dump());
}

TEST(Limits, StateJsonNumbersAreChecked) {
  Rules r;
  State s(Game::get(r), 21);
  s.draw_random();
  const auto base = nlohmann::json::parse(state_to_json(s));
  EXPECT_EQ(state_from_json_error(base.dump()), "");
  auto with = [&](auto f) {
    auto j = base;
    f(j);
    return state_from_json_error(j.dump());
  };
  EXPECT_NE(with([](auto& j) { j["rules"]["players"] = (uint64_t(1) << 32) + 2; }).find("out of range"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["seed"] = -1; }).find("'seed' must be an integer"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["rng"][0] = "-1"; }).find("'rng' words"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["rng"][0] = "18446744073709551616"; }), "");
  EXPECT_NE(with([](auto& j) { j["pending"]["choice"] = 256; }).find("out of range"), std::string::npos);
  // A format that is no string (found by record_fuzz: json's type error escaped as another exception).
  EXPECT_NE(with([](auto& j) { j["format"] = 7; }).find("state: expected format"), std::string::npos);
  EXPECT_NE(with([](auto& j) { j["format"] = nlohmann::json::array(); }).find("state: expected format"), std::string::npos);
  // Format 1's turn in progress (pending_*) is read by the same checked reader.
  EXPECT_NE(with([](auto& j) {
              j["format"] = "carcassonne-state/1";
              j.erase("pending");
              j["pending_choice"] = 256;
            }).find("out of range"),
            std::string::npos);
}

// Issue #33 item 13: an object with the same key twice is refused, never "the last one wins"
// (the server's request bodies use the same reader, limits::parse_json_unique_keys).
TEST(Limits, DuplicateKeysAreRefused) {
  const std::string rec = nlohmann::json::parse(sample_record(15)).dump();  // compact: "setup":{
  EXPECT_EQ(load(rec), "");
  // At the top, in setup, in a turn, and keys repeated in different objects (allowed).
  std::string top = rec;
  top.insert(1, "\"turns\":[],");
  EXPECT_EQ(load(top), "record: the key \"turns\" appears twice in one object") << load(top);
  std::string setup = rec;
  setup.insert(setup.find("\"setup\":{") + 9, "\"seed\":1,");
  EXPECT_EQ(load(setup), "record: the key \"seed\" appears twice in one object") << load(setup);
  std::string turn = rec;
  const size_t t = turn.find("\"turns\":[{") + 10;
  turn.insert(t, "\"x\":5,\"x\":5,");
  EXPECT_EQ(load(turn), "record: the key \"x\" appears twice in one object") << load(turn);
  EXPECT_EQ(limits::parse_json_unique_keys(R"({"a":{"k":1},"b":{"k":2},"c":[{"k":1},{"k":2}]})")["c"][1]["k"], 2);
  EXPECT_THROW(limits::parse_json_unique_keys(R"({"a":[{"k":1,"k":2}]})"), limits::DuplicateKeyError);
  EXPECT_THROW(limits::parse_json_unique_keys(R"({"a":1,"b":{},"a":2})"), limits::DuplicateKeyError);
  EXPECT_THROW(limits::parse_json_unique_keys(R"({"a":1)"), nlohmann::json::parse_error);
  // The state JSON reader too.
  EXPECT_NE(state_from_json_error(R"({"format":"carcassonne-state/1","format":"x"})").find("appears twice"), std::string::npos);
}

// Issue #33 item 5: player names, cleaned or refused (limits::clean_player_name).
TEST(Limits, PlayerNamesAreCleanedOrRefused) {
  std::string out;
  EXPECT_EQ(limits::clean_player_name("  Ann \u00a0\u3000 Lee  ", out), "");
  EXPECT_EQ(out, "Ann Lee");
  EXPECT_EQ(limits::clean_player_name("", out), "");
  EXPECT_EQ(out, "");
  EXPECT_EQ(limits::clean_player_name("Zo\u00eb \u7530\u4e2d \U0001F600", out), "");
  EXPECT_EQ(out, "Zo\u00eb \u7530\u4e2d \U0001F600");
  const std::string marks3 = "e\u0301\u0302\u0303", marks4 = marks3 + "\u0304";
  EXPECT_EQ(limits::clean_player_name(marks3, out), "");
  EXPECT_EQ(limits::clean_player_name(marks4, out), "holds more than 3 combining marks on one character");
  EXPECT_EQ(limits::clean_player_name("A\x1b[31m", out), "holds a control character (U+001B)");
  EXPECT_EQ(limits::clean_player_name(std::string("A\0B", 3), out), "holds a control character (U+0000)");
  EXPECT_EQ(limits::clean_player_name("A\nB", out), "holds a control character (U+000A)");
  EXPECT_EQ(limits::clean_player_name("A\tB", out), "holds a control character (U+0009)");
  EXPECT_EQ(limits::clean_player_name("A\u0085", out), "holds a control character (U+0085)");
  EXPECT_EQ(limits::clean_player_name("\u202eevil", out), "holds a bidirectional control character (U+202E)");
  EXPECT_EQ(limits::clean_player_name("\u202aA", out), "holds a bidirectional control character (U+202A)");
  EXPECT_EQ(limits::clean_player_name("A\u2066", out), "holds a bidirectional control character (U+2066)");
  EXPECT_EQ(limits::clean_player_name("A\u2069", out), "holds a bidirectional control character (U+2069)");
  EXPECT_EQ(limits::clean_player_name("A\u200bB", out), "holds an invisible character (U+200B)");
  EXPECT_EQ(limits::clean_player_name("A\u200f", out), "holds a bidirectional control character (U+200F)");
  EXPECT_EQ(limits::clean_player_name("A\u2060", out), "holds an invisible character (U+2060)");
  EXPECT_EQ(limits::clean_player_name("\ufeffA", out), "holds an invisible character (U+FEFF)");
  EXPECT_EQ(limits::clean_player_name("   ", out), "holds only whitespace");
  EXPECT_EQ(limits::clean_player_name("\u00a0\u3000", out), "holds only whitespace");
  EXPECT_EQ(limits::clean_player_name("A\xff", out), "is not valid UTF-8");
  EXPECT_EQ(limits::clean_player_name("\xed\xa0\x80", out), "is not valid UTF-8");  // a surrogate
}
