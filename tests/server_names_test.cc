// Issue #36, done when: "No record, view, legal-move list, replay or download says `meeple` or
// `return`". A hot-seat game of every rule variant of the module table (every tile set x every
// subset of the expansions) is played to its end through the server, and at every decision every
// exit is scanned:
//   - over HTTP: the game view, the legal moves, the record download, the replay view, the event
//     stream's payload, a hint now and then; once per game the vocabulary tables, the tile data,
//     the players list and the lobby list;
//   - the engine's exits of the same position (the download replayed): the observation of each
//     player and of a spectator (the public view), the state JSON, the full record, the move
//     object of each legal move (move_body_json: what hints and replays write).
// A scan looks at every key, and at every string value used as a name (one without spaces: kinds,
// phases, places, fruit and crown names; free text such as an event's English line is not a name),
// split into words at _ - . : @ and at case changes: no word may be meeple(s), return(s/ed) or
// ret(s). Records of format 1 (which say "meeple" and "return") still load: an uploaded one is
// shown, downloaded and replayed with the new names only, and the scan is shown to find the old
// names in it (the scan is not vacuous). The v1 inputs themselves are not scanned.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "public_view.h"
#include "record.h"
#include "server_fixture.h"
#include "test_util.h"
#include "views.h"

namespace {

using carc::Move;
using carc::Rng;
using servertest::Resp;
using nlohmann::json;

const std::set<std::string> kOldNames = {"meeple", "meeples", "return", "returns", "returned", "ret", "rets"};

// The words of a name: split at _ - . : @ / and where a lower-case letter meets an upper-case one.
std::vector<std::string> words_of(const std::string& s) {
  std::vector<std::string> out;
  std::string w;
  auto flush = [&] {
    if (!w.empty()) out.push_back(w);
    w.clear();
  };
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '_' || c == '-' || c == '.' || c == ':' || c == '@' || c == '/') {
      flush();
      continue;
    }
    if (std::isupper(c) && i > 0 && std::islower(static_cast<unsigned char>(s[i - 1]))) flush();
    w += char(std::tolower(c));
  }
  flush();
  return out;
}

bool is_name(const std::string& s) {
  if (s.empty() || s.size() > 80) return false;
  for (const char c : s)
    if (std::isspace(static_cast<unsigned char>(c))) return false;
  return true;
}

// Every key and name-like string value of `j` with an old name: "where: path".
void scan(const json& j, const std::string& path, std::vector<std::string>& hits) {
  auto old = [](const std::string& name) {
    for (const auto& w : words_of(name))
      if (kOldNames.count(w)) return true;
    return false;
  };
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      if (old(k)) hits.push_back(path + "." + k + " (key)");
      scan(v, path + "." + k, hits);
    }
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) scan(j[i], path + "[" + std::to_string(i) + "]", hits);
  } else if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (is_name(s) && old(s)) hits.push_back(path + " = \"" + s + "\"");
  }
}

class NamesTest : public servertest::ServerFixture {
 protected:
  NamesTest() : ServerFixture("names-test") {}

  // Scans one exit; failures name the exit, the game and the path.
  void expect_new_names(const json& j, const std::string& exit) {
    std::vector<std::string> hits;
    scan(j, exit, hits);
    ++scanned_;
    for (const auto& h : hits) ADD_FAILURE() << "an old name in " << h;
  }
  void expect_new_names(const Resp& r, const std::string& exit) {
    ASSERT_EQ(r.status, 200) << exit << ": " << r.text;
    expect_new_names(r.body, exit);
  }
  int scanned_ = 0;
};

}  // namespace

// The scan finds what it looks for: old names in keys and in name values, not in free text.
TEST(NamesScan, FindsTheOldNamesAndOnlyThem) {
  std::vector<std::string> hits;
  scan(json::parse(R"({"turns": [{"meeple": "N", "return": {"x": 0, "y": 0, "at": "S"}}], "kind": "returnFollower",
                      "crown_rets": [], "take_back": {"at": "crown:taxes:0"}, "follower": "N", "text": "the meeple returns",
                      "phase": "ret", "retries": 1, "fruit_type": "cherry", "where": "board"})"),
       "x", hits);
  const std::vector<std::string> want = {"x.crown_rets (key)", "x.kind = \"returnFollower\"", "x.phase = \"ret\"",
                                         "x.turns[0].meeple (key)", "x.turns[0].return (key)"};
  std::sort(hits.begin(), hits.end());
  EXPECT_EQ(hits, want);
}

// Every exit of a game of every variant, at every decision.
TEST_F(NamesTest, NoExitSaysMeepleOrReturnInAnyVariant) {
  opts_.hint_interval_ms = 0;
  opts_.hint_iterations = 50;  // the hint's shape, not its quality
  opts_.quotas.create_burst = 1000;
  opts_.quotas.hints_per_address = 1000;
  restart();
  expect_new_names(get("/api/tables"), "GET /api/tables");
  expect_new_names(get("/api/players"), "GET /api/players");
  const std::vector<std::string> names = {"Ann", "Ben"};
  int variants = 0, decisions = 0, take_backs = 0, plagues = 0;
  for (const carc::test::Variant& v : carc::test::all_variants(2)) {
    SCOPED_TRACE(v.name);
    std::vector<std::string> expansions;
    for (const auto& m : v.rules.expansions()) expansions.push_back(m);
    std::string query = "/api/tiles?tileset=" + v.rules.tileset;
    if (!expansions.empty()) {
      query += "&expansions=";
      for (size_t i = 0; i < expansions.size(); ++i) query += (i ? "," : "") + expansions[i];
    }
    expect_new_names(get(query), "GET " + query);
    const HotSeat game = create_hotseat(names, v.rules.tileset, expansions, {{"seed", 4242}, {"allow_hints", true}});
    ASSERT_EQ(game.created.status, 201) << game.created.text;
    expect_new_names(game.created.body, "POST /api/games");
    const std::string& id = game.id;
    const json& tokens = game.tokens;
    Rng pick(77);
    std::vector<Move> moves;
    for (int step = 0; step < 400; ++step) {
      const Resp view = get("/api/games/" + id);
      expect_new_names(view, "view");
      if (view.body["status"] != "playing") break;
      expect_new_names(get("/api/games/" + id + "/legal"), "legal moves");
      const Resp rec = get("/api/games/" + id + "/record");
      expect_new_names(rec, "download");
      expect_new_names(get("/api/games/" + id + "/replay?turn=" + std::to_string(step / 2)), "replay");
      if (step % 10 == 0) expect_new_names(first_event(id), "event stream");
      // The engine's exits of the same position: the download replayed.
      const carc::Replay twin = carc::replay(carc::parse_record(rec.text));
      const carc::State& s = twin.state;
      if (step % 10 == 5)
        expect_new_names(post("/api/games/" + id + "/hint", {{"token", tokens[s.current_player()]}}), "hint");
      for (int p = -1; p < s.num_players(); ++p) expect_new_names(json::parse(carc::observation_json(s, p)), "observation");
      expect_new_names(json::parse(carc::state_to_json(s)), "state JSON");
      expect_new_names(json::parse(carc::record_to_json(carc::record_of(s, names))), "record");
      s.legal_moves(moves);
      for (const Move& m : moves) expect_new_names(carc::server::move_body_json(s, m), "move object");
      if (::testing::Test::HasFailure()) return;
      const Move m = moves[pick.below(uint32_t(moves.size()))];
      take_backs += m.ext.takes_back();
      plagues += m.kind == carc::MoveKind::Plague;
      json body = carc::server::move_body_json(s, m);
      body["token"] = tokens[s.current_player()];
      const Resp moved = post("/api/games/" + id + "/move", body);
      ASSERT_EQ(moved.status, 200) << body.dump() << " -> " << moved.text;
      expect_new_names(moved.body, "POST move");
      ++decisions;
    }
    // The finished game: its view, download and last replay step.
    const Resp end = get("/api/games/" + id);
    EXPECT_EQ(end.body["status"], "finished") << "the game is played to its end";
    expect_new_names(get("/api/games/" + id + "/record"), "download (game over)");
    expect_new_names(get("/api/games/" + id + "/replay?turn=" + std::to_string(end.body["turn"].get<int>())), "replay (game over)");
    ++variants;
  }
  expect_new_names(get("/api/games"), "GET /api/games");
  std::printf("%d variants played to the end, %d decisions (%d take-backs, %d Plague take-backs), %d exits scanned\n",
              variants, decisions, take_backs, plagues, scanned_);
  EXPECT_GE(variants, 16);
  EXPECT_GT(take_backs, 0);
  EXPECT_GT(plagues, 0);
}

// A record of format 1 ("meeple", "return": a conformance game of the Festival with take-backs)
// still loads; the server shows, downloads and replays it with the new names only.
TEST_F(NamesTest, AFormat1RecordLoadsAndLeavesWithTheNewNames) {
  const std::string path = carc::test::shared_dir() + "/conformance/festival/seed77_game_0000.record.json";
  std::ifstream in(path);
  if (carc::test::shared_dir().empty() || !in) GTEST_SKIP() << "no ../shared/conformance (" << path << ")";
  std::stringstream text;
  text << in.rdbuf();
  const json v1 = json::parse(text.str());
  std::vector<std::string> hits;
  scan(v1, "v1", hits);
  ASSERT_FALSE(hits.empty()) << "the format 1 record says meeple and return: the scan must find them";
  const Resp up = post("/api/games/upload", {{"record", v1}, {"mode", "view"}});
  ASSERT_EQ(up.status, 201) << up.text;
  const std::string id = up.body["id"];
  expect_new_names(up.body, "POST /api/games/upload");
  const Resp view = get("/api/games/" + id);
  expect_new_names(view, "view");
  const Resp rec = get("/api/games/" + id + "/record");
  expect_new_names(rec, "download");
  EXPECT_EQ(rec.body["format"], "carcassonne-record/2");
  const int turns = view.body["turn"].get<int>();
  ASSERT_GT(turns, 10);
  for (int t = 0; t <= turns; ++t) expect_new_names(get("/api/games/" + id + "/replay?turn=" + std::to_string(t)), "replay");
}
