// The hidden-information policy (src/engine/public_view.h, issue #36) through every exit: for each
// rule set with hidden information (the draw order: every game; the Fortune Teller's draws; the
// Fruit-Bearing Trees' face-down tokens; the Wheel of Fortune's draws and its Choose), a seeded
// game is played and at every decision
//   - the engine's exits (observation_json, the server's board_json, the record download
//     public_record) are the same for the state and for a twin whose hidden information was
//     drawn afresh (resample_hidden): they cannot show it;
//   - over HTTP, the game view, the event stream's payload and the record download of the running
//     game equal what a twin with other hidden information shows (the downloaded record replayed:
//     its seed is another one), and the download does not carry the game's seed;
//   - each exit shows what is public: the drawn tiles, the bag's counts, the fruit trees and
//     holdings, the crown spaces, the history.
#include <gtest/gtest.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "game.h"
#include "public_view.h"
#include "record.h"
#include "server_fixture.h"
#include "views.h"

namespace {

using carc::Move;
using carc::Record;
using carc::Rng;
using carc::State;
using servertest::Resp;
using nlohmann::json;

struct HiddenCase {
  const char* name;
  const char* tileset;
  std::vector<std::string> expansions;
};

const std::vector<HiddenCase> kCases = {
    {"draw order", "base", {}},
    {"fortune teller", "base", {"fortune-teller"}},
    {"fruit trees", "base", {"fruit-trees"}},
    {"wheel of fortune", "wheel-of-fortune", {}},
    {"wheel with fortune teller (choose)", "wheel-of-fortune", {"fortune-teller", "festival"}},
    {"everything", "wheel-of-fortune", {"festival", "fortune-teller", "fruit-trees"}},
};

carc::Rules rules_of(const HiddenCase& c, int players) {
  carc::Rules r;
  r.players = players;
  r.tileset = c.tileset;
  for (const auto& e : c.expansions) EXPECT_TRUE(r.enable(e)) << e;
  return r;
}

// The hidden fields of a state JSON (kHiddenStateFields), by path.
json hidden_of(const json& state) {
  json h;
  for (const char* f : carc::kHiddenStateFields) {
    const std::string path = f;
    const size_t dot = path.find('.');
    if (dot == std::string::npos) {
      if (state.contains(path)) h[path] = state[path];
    } else if (state.contains(path.substr(0, dot)) && state[path.substr(0, dot)].contains(path.substr(dot + 1))) {
      h[path] = state[path.substr(0, dot)][path.substr(dot + 1)];
    }
  }
  return h;
}

// No key of `j` (at any depth) is a hidden field's name in the state JSON's sense.
void expect_no_hidden_keys(const json& j, const std::string& exit) {
  if (j.is_object()) {
    EXPECT_FALSE(j.contains("rng")) << exit;
    EXPECT_FALSE(j.contains("initial_stacks")) << exit;
    for (const auto& [k, v] : j.items()) expect_no_hidden_keys(v, exit);
  } else if (j.is_array()) {
    for (const auto& v : j) expect_no_hidden_keys(v, exit);
  }
}

// What every exit must show: the tiles drawn now and the bag's counts, the fruit and the wheel.
void expect_public(const State& s, const json& view, const std::string& exit) {
  const carc::Game& g = s.game();
  if (s.phase() == carc::Phase::Place || s.phase() == carc::Phase::Plague) {
    ASSERT_EQ(view["drawn"].size(), size_t(s.num_drawn())) << exit;
    for (int i = 0; i < s.num_drawn(); ++i) EXPECT_EQ(view["drawn"][i]["tile"], g.type(s.drawn_tile(i)).id) << exit;
  }
  const json& bag = view.contains("bag_counts") ? view["bag_counts"] : view["bag"];
  for (int t = 0; t < g.num_types(); ++t)
    if (s.bag_count(t)) EXPECT_EQ(bag[g.type(t).id], s.bag_count(t)) << exit;
  if (s.rules().has(carc::Expansion::FruitTrees)) {
    ASSERT_TRUE(view.contains("fruit")) << exit;
    int trees = 0;
    for (int f = 0; f < carc::kFruitTypes; ++f) trees += s.mod<carc::FruitBlock>().tree(f) >= 0;
    EXPECT_EQ(view["fruit"]["trees"].size(), size_t(trees)) << exit;
    EXPECT_EQ(view["fruit"]["held"].size(), size_t(s.num_players())) << exit;
  }
  if (s.game().has_wheel()) {
    ASSERT_TRUE(view.contains("wheel")) << exit;
    const json& w = view["wheel"];
    int held = 0, shown = 0;
    for (int c = 0; c < carc::kMaxCrowns; ++c) held += g.crown_exists(c) && s.mod<carc::WheelBlock>().crown_player(c) >= 0;
    if (w.contains("crowns"))
      for (const auto& c : w["crowns"]) shown += c["player"].get<int>() >= 0;
    else
      for (const auto& seg : w["segments"])
        for (const auto& c : seg["crowns"]) shown += c["player"].get<int>() >= 0;
    EXPECT_EQ(shown, held) << exit;
  }
}

}  // namespace

// The engine's exits at every decision of seeded games: equal for the state and a twin with other
// hidden information, which itself differs from the state only in the hidden fields.
TEST(PublicView, EngineExitsIgnoreHiddenInformation) {
  for (const HiddenCase& c : kCases) {
    SCOPED_TRACE(c.name);
    const carc::Game* g = carc::Game::get(rules_of(c, 3));
    State s(g, 17);
    Rng pick(29), resample(31);
    std::vector<carc::ScoreEvent> events;
    s.set_event_log(&events);
    const std::vector<std::string> names = {"Ann", "Ben", "Cy"};
    int decisions = 0, hidden_differs = 0;
    std::vector<Move> moves;
    while (!s.is_terminal() && decisions < 60) {
      if (s.is_chance()) {
        s.draw_random();
        continue;
      }
      State twin = s;
      twin.resample_hidden(resample);
      const json sj = json::parse(carc::state_to_json(s)), tj = json::parse(carc::state_to_json(twin));
      hidden_differs += hidden_of(sj) != hidden_of(tj);
      // Everything but the hidden fields is the same in the two state JSONs.
      json a = sj, b = tj;
      for (json* x : {&a, &b}) {
        x->erase("seed");
        x->erase("rng");
        if (x->contains("fruit")) {
          (*x)["fruit"].erase("initial_stacks");
          (*x)["fruit"].erase("stacks");
        }
      }
      ASSERT_EQ(a, b) << "the twin differs beyond the hidden fields";
      for (int p = -1; p < s.num_players(); ++p) {
        const json o = json::parse(carc::observation_json(s, p));
        ASSERT_EQ(o, json::parse(carc::observation_json(twin, p))) << "observation of player " << p;
        expect_no_hidden_keys(o, "observation");
        EXPECT_FALSE(o.contains("seed"));
        if (p == 0) expect_public(s, o, "observation");
      }
      const json view = carc::server::board_json(s, events, names);
      ASSERT_EQ(view, carc::server::board_json(twin, events, names)) << "board_json";
      expect_no_hidden_keys(view, "board_json");
      expect_public(s, view, "board_json");
      const std::string rec = carc::record_to_json(carc::public_record(carc::record_of(s, names), false, 12345));
      ASSERT_EQ(rec, carc::record_to_json(carc::public_record(carc::record_of(twin, names), false, 12345))) << "download";
      EXPECT_EQ(json::parse(rec)["setup"]["seed"], 12345u);
      EXPECT_FALSE(json::parse(rec)["setup"].contains("fruit_stacks"));
      // The download replays to the same public position.
      const carc::Replay back = carc::replay(carc::parse_record(rec));
      EXPECT_EQ(carc::observation_json(back.state, 0), carc::observation_json(s, 0));
      s.legal_moves(moves);
      s.apply(moves[pick.below(uint32_t(moves.size()))]);
      ++decisions;
    }
    EXPECT_GT(decisions, 20);
    EXPECT_GT(hidden_differs, decisions / 2) << "the twins must really differ in what is hidden";
  }
}

class PublicViewServerTest : public servertest::ServerFixture {
 protected:
  PublicViewServerTest() : ServerFixture("public-view-test") {}
};

// The server's exits: the game view, the event stream's payload and the record download of a
// running game, at every decision of seeded hotseat games.
TEST_F(PublicViewServerTest, ServerExitsShowThePublicViewOnly) {
  const std::vector<std::string> names = {"Ann", "Ben", "Cy"};
  for (const HiddenCase& c : kCases) {
    SCOPED_TRACE(c.name);
    const uint64_t seed = 987654321;
    const HotSeat game = create_hotseat(names, c.tileset, c.expansions, {{"seed", seed}});
    ASSERT_EQ(game.created.status, 201) << game.created.text;
    const std::string& id = game.id;
    const json& tokens = game.tokens;
    Rng pick(41);
    std::vector<Move> moves;
    for (int step = 0; step < 25; ++step) {
      const Resp view = get("/api/games/" + id);
      ASSERT_EQ(view.status, 200);
      if (view.body["status"] != "playing") break;
      const Resp rec = get("/api/games/" + id + "/record");
      ASSERT_EQ(rec.status, 200);
      EXPECT_NE(rec.body["setup"]["seed"], seed) << "a running game's seed is never downloaded";
      EXPECT_FALSE(rec.body["setup"].contains("fruit_stacks"));
      expect_no_hidden_keys(view.body, "view");
      expect_no_hidden_keys(rec.body, "download");
      // The twin: the download replayed (its seed, so its generator and face-down fruit, differ).
      carc::Replay twin = carc::replay(carc::parse_record(rec.text));
      ASSERT_FALSE(twin.state.is_chance()) << "the download holds the turn in progress";
      json mine = carc::server::board_json(twin.state, twin.events, names);
      json got = view.body;
      for (auto it = mine.begin(); it != mine.end(); ++it) EXPECT_EQ(got[it.key()], it.value()) << it.key();
      expect_public(twin.state, got, "view");
      // The event stream's payload is the same view.
      EXPECT_EQ(first_event(id), got);
      // One random legal move (the twin's moves are the game's: legality is public).
      twin.state.legal_moves(moves);
      const Move m = moves[pick.below(uint32_t(moves.size()))];
      json body = carc::server::move_body_json(twin.state, m);
      body["token"] = tokens[twin.state.current_player()];
      const Resp moved = post("/api/games/" + id + "/move", body);
      ASSERT_EQ(moved.status, 200) << body.dump() << " -> " << moved.text;
    }
  }
}
