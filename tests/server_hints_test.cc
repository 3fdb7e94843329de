// Hints through the API (POST /api/games/{id}/hint): the top moves for the player to move with
// their estimates, each playable as it is; the policy (on by default with at most one person,
// off with several unless enabled at creation, 403 then); wrong or missing tokens (403), not
// your turn (409), the rate limit (429); games stored before hints existed (the default from
// their seats); and the lobby's levels in GET /api/players.
#include <gtest/gtest.h>

#include <algorithm>
#include <sqlite3.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "server_fixture.h"
#include "server_limits.h"

using json = nlohmann::json;

namespace {

using servertest::Resp;

class HintsTest : public servertest::ServerFixture {
 protected:
  HintsTest() : ServerFixture("hints-test") {}

  json create(const json& players, json extra = json::object()) {
    extra["players"] = players;
    // A game with a remote seat takes no chosen seed (fair draws, docs/security.md).
    if (std::none_of(players.begin(), players.end(), [](const json& p) { return p.value("type", "") == "remote"; }))
      extra["seed"] = 11;
    Resp r = post("/api/games", extra);
    EXPECT_EQ(r.status, 201) << r.text;
    return r.body;
  }
  static std::string token(const json& g, int seat) { return g["seats"][seat]["token"].get<std::string>(); }
  Resp hint(const std::string& id, const std::string& tok) {
    return post("/api/games/" + id + "/hint", tok.empty() ? json::object() : json{{"token", tok}});
  }
};

const json kHumanVsAi = json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Bot"}, {"type", "ai"}, {"ai", "mcts:level=easy"}}});
const json kHotSeat = json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Ben"}, {"type", "human"}}});
const json kWithFriend = json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Ben"}, {"type", "remote"}}});

TEST_F(HintsTest, TopMovesWithEstimatesEachPlayableAsItIs) {
  json g = create(kHumanVsAi);
  const std::string id = g["id"];
  EXPECT_EQ(g["game"]["allow_hints"], true);
  Resp r = hint(id, token(g, 0));
  ASSERT_EQ(r.status, 200) << r.text;
  EXPECT_EQ(r.body["player"], 0);
  EXPECT_EQ(r.body["turn"], 1);
  const json& moves = r.body["moves"];
  ASSERT_GE(moves.size(), 1u);
  ASSERT_LE(moves.size(), size_t(carc::server::limits::kHintMoves));
  int visits = 0;
  for (size_t i = 0; i < moves.size(); ++i) {
    const json& m = moves[i];
    EXPECT_GE(m["win_probability"].get<double>(), 0.0);
    EXPECT_LE(m["win_probability"].get<double>(), 1.0);
    EXPECT_TRUE(m["score_diff"].is_number());
    EXPECT_GT(m["visits"].get<int>(), 0);
    if (i > 0) EXPECT_LE(m["visits"].get<int>(), moves[i - 1]["visits"].get<int>()) << "best first";
    visits += m["visits"].get<int>();
    EXPECT_FALSE(m["description"].get<std::string>().empty());
    EXPECT_EQ(m["move"]["kind"], "place");
  }
  EXPECT_LE(visits, carc::server::limits::kHintIterations);
  // Asking changed nothing in the game; the suggested move is played as the hint names it.
  json v = get("/api/games/" + id).body;
  EXPECT_EQ(v["turn"], 0);
  json mv = moves[0]["move"];
  mv["token"] = token(g, 0);
  Resp played = post("/api/games/" + id + "/move", mv);
  ASSERT_EQ(played.status, 200) << played.text << " for " << mv.dump();
  EXPECT_EQ(played.body["turn"], 1);
  // The next turn (after the AI's move), the same player may ask again.
  wait_for_human(id);
  std::this_thread::sleep_for(carc::server::limits::kHintInterval);
  Resp again = hint(id, token(g, 0));
  ASSERT_EQ(again.status, 200) << again.text;
  EXPECT_EQ(again.body["turn"], 3);
}

TEST_F(HintsTest, OffWithSeveralPeopleUnlessEnabledAtCreation) {
  json g = create(kWithFriend);
  const std::string id = g["id"];
  EXPECT_EQ(g["game"]["allow_hints"], false);
  Resp r = hint(id, token(g, 0));
  EXPECT_EQ(r.status, 403);
  EXPECT_NE(r.body.value("error", "").find("hints are off in this game"), std::string::npos) << r.text;
  EXPECT_NE(r.body.value("error", "").find("allow_hints"), std::string::npos) << r.text;
  // Enabled at creation: the lobby list and the game say so, and hints work.
  json g2 = create(kWithFriend, {{"allow_hints", true}});
  EXPECT_EQ(g2["game"]["allow_hints"], true);
  EXPECT_EQ(hint(g2["id"], token(g2, 0)).status, 200);
  // Disabled at creation for a game alone against the computer.
  json g3 = create(kHumanVsAi, {{"allow_hints", false}});
  EXPECT_EQ(hint(g3["id"], token(g3, 0)).status, 403);
  json list = get("/api/games").body["games"];
  std::map<std::string, json> listed;
  for (const auto& e : list) listed[e["id"].get<std::string>()] = e["allow_hints"];
  EXPECT_EQ(listed[g["id"]], false);
  EXPECT_EQ(listed[g2["id"]], true);
  EXPECT_EQ(listed[g3["id"]], false);
  // Not a boolean: refused.
  Resp bad = post("/api/games", {{"players", kHotSeat}, {"allow_hints", "yes"}});
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.text.find("allow_hints"), std::string::npos) << bad.text;
}

TEST_F(HintsTest, OnlyTheSeatToMoveWithItsTokenAndNotTooOften) {
  json g = create(kHotSeat);
  const std::string id = g["id"];
  EXPECT_EQ(g["game"]["allow_hints"], true);  // hot-seat: one screen, one person's choice
  EXPECT_EQ(hint(id, "").status, 403);                    // no token
  EXPECT_EQ(hint(id, "not-a-token").status, 403);         // wrong token
  Resp other = hint(id, token(g, 1));                     // Ben, but Ann is to move
  EXPECT_EQ(other.status, 409);
  EXPECT_NE(other.text.find("hints are for the player to move"), std::string::npos) << other.text;
  EXPECT_EQ(post("/api/games/nosuchgame/hint", {{"token", token(g, 0)}}).status, 404);
  ASSERT_EQ(hint(id, token(g, 0)).status, 200);
  Resp soon = hint(id, token(g, 0));  // at once again: the rate limit
  EXPECT_EQ(soon.status, 429);
  EXPECT_NE(soon.text.find("one hint per player every"), std::string::npos) << soon.text;
  // The limit is per player: Ben, once it is his turn, may ask at once.
  Resp legal = get("/api/games/" + id + "/legal");
  const json& pl = legal.body["placements"][0];
  ASSERT_EQ(post("/api/games/" + id + "/move", {{"token", token(g, 0)}, {"x", pl["x"]}, {"y", pl["y"]}, {"rotation", pl["rotation"]}}).status, 200);
  EXPECT_EQ(hint(id, token(g, 1)).status, 200);
  // A finished game has no hints.
  ASSERT_EQ(post("/api/games/" + id + "/resign", {{"token", token(g, 0)}}).status, 200);
  EXPECT_EQ(hint(id, token(g, 1)).status, 409);
}

// The interval counts from the end of the previous hint's search as well as from its start: a
// search that outlasts the interval (a loaded machine, a large budget) cannot be followed by
// another at once. Counted from the start only, the second request here would be served.
TEST_F(HintsTest, TheIntervalAlsoCountsFromTheEndOfTheSearch) {
  opts_.hint_interval_ms = 300;
  opts_.hint_iterations = 100'000;  // about a second or more: stopped by kHintTime at the latest
  restart();
  json g = create(kHotSeat);
  const std::string id = g["id"];
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_EQ(hint(id, token(g, 0)).status, 200);
  const auto took = std::chrono::steady_clock::now() - t0;
  ASSERT_GT(took, std::chrono::milliseconds(300)) << "the search must outlast the interval for this test to mean anything";
  Resp soon = hint(id, token(g, 0));
  EXPECT_EQ(soon.status, 429) << soon.text;
  EXPECT_NE(soon.text.find("one hint per player every 300 ms"), std::string::npos) << soon.text;
  // Once the interval has passed since the end, the next hint is served.
  std::this_thread::sleep_for(std::chrono::milliseconds(450));
  EXPECT_EQ(hint(id, token(g, 0)).status, 200);
}

// Every kind of decision of every expansion: a hot-seat game with the Wheel of Fortune and all
// three expansions played to the end by always taking the first hint (no rate limit here), so
// the hint's move body is checked for placements with followers, crown spaces, take-backs,
// fruit, the wheel tile choice and the Plague.
TEST_F(HintsTest, EveryDecisionOfEveryExpansionIsPlayableFromItsHint) {
  opts_.hint_interval_ms = 0;
  opts_.hint_iterations = 300;  // the moves' shapes are checked here, not their quality
  restart();
  json g = create(kHotSeat, {{"tileset", "wheel-of-fortune"}, {"expansions", {"festival", "fortune-teller", "fruit-trees"}}});
  const std::string id = g["id"];
  std::map<std::string, int> kinds;
  int decisions = 0;
  for (; decisions < 400; ++decisions) {
    json v = get("/api/games/" + id).body;
    if (v["status"] != "playing") break;
    const int p = v["current_player"];
    Resp r = hint(id, token(g, p));
    ASSERT_EQ(r.status, 200) << r.text;
    ASSERT_FALSE(r.body["moves"].empty());
    json mv = r.body["moves"][0]["move"];
    ++kinds[mv["kind"].get<std::string>()];
    for (const char* k : {"follower", "take_back", "fruit", "fruit_type"})
      if (mv.contains(k)) ++kinds[k];
    mv["token"] = token(g, p);
    Resp played = post("/api/games/" + id + "/move", mv);
    ASSERT_EQ(played.status, 200) << played.text << " for " << mv.dump();
  }
  EXPECT_EQ(get("/api/games/" + id).body["status"], "finished") << decisions << " decisions";
  EXPECT_GT(kinds["place"], 20);
  EXPECT_GT(kinds["follower"], 0);
  std::string seen;
  for (const auto& [k, n] : kinds) seen += k + "=" + std::to_string(n) + " ";
  std::cout << "hint kinds played: " << seen << "\n";
}

// Stopping the server while a hint waits behind a long AI search: both end at once (the cancel
// flags), the hint answers 503 or its connection closes, and nothing hangs.
TEST_F(HintsTest, StoppingTheServerEndsAWaitingHintAndTheSearchAhead) {
  opts_.ai_threads = 1;
  restart();
  // Bot (first) thinks for 10 s on the only AI worker; then a hint for Ann cannot run before it.
  json g = create(json::array({{{"name", "Bot"}, {"type", "ai"}, {"ai", "mcts:time=10s"}}, {{"name", "Ann"}, {"type", "human"}}}));
  json g2 = create(kHumanVsAi);  // Ann is to move here; her hint waits for the worker
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  Resp r;
  std::thread asker([&] { r = hint(g2["id"], token(g2, 0)); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto t0 = std::chrono::steady_clock::now();
  server_->stop();
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  server_.reset();  // closes whatever connection is left
  asker.join();
  EXPECT_TRUE(r.status == 503 || r.status <= 0) << r.status << " " << r.text;  // <= 0: closed unanswered
  if (r.status == 503) EXPECT_NE(r.text.find("stopping"), std::string::npos) << r.text;
  // A bound, not a speed measurement: the search ahead had 10 s to go.
  EXPECT_LT(took, 5.0);
}

TEST_F(HintsTest, GamesStoredBeforeHintsGetTheDefaultOfTheirSeats) {
  json alone = create(kHumanVsAi, {{"allow_hints", false}});
  json friends = create(kWithFriend, {{"allow_hints", true}});
  server_->stop();
  server_.reset();
  // As written by a server without hints: no "allow_hints" in the meta.
  sql(on_postgres() ? "UPDATE games SET meta = (meta::jsonb - 'allow_hints')::text"
                    : "UPDATE games SET meta = json_remove(meta, '$.allow_hints')");
  start();
  // The migration at start wrote the default into each stored meta.
  const int without = std::stoi(sql(on_postgres() ? "SELECT count(*) FROM games WHERE NOT (meta::jsonb ? 'allow_hints')"
                                                  : "SELECT count(*) FROM games WHERE json_type(meta, '$.allow_hints') IS NULL"));
  EXPECT_EQ(without, 0);
  json list = get("/api/games").body["games"];
  for (const auto& e : list) EXPECT_EQ(e["allow_hints"], e["id"] == alone["id"]) << e.dump();
  EXPECT_EQ(get("/api/games/" + alone["id"].get<std::string>()).body["allow_hints"], true);
  EXPECT_EQ(get("/api/games/" + friends["id"].get<std::string>()).body["allow_hints"], false);
  EXPECT_EQ(hint(alone["id"], token(alone, 0)).status, 200);
  EXPECT_EQ(hint(friends["id"], token(friends, 0)).status, 403);
}

TEST_F(HintsTest, PlayersListsTheLevelsWithTheirStrength) {
  Resp p = get("/api/players");
  ASSERT_EQ(p.status, 200);
  const json& details = p.body["level_details"];
  ASSERT_FALSE(details.empty());
  ASSERT_EQ(p.body["levels"].size(), details.size());
  std::vector<std::string> names;
  for (size_t i = 0; i < details.size(); ++i) {
    const json& l = details[i];
    EXPECT_EQ(p.body["levels"][i], l["spec"]);
    names.push_back(l["name"]);
    EXPECT_FALSE(l["label"].get<std::string>().empty());
    EXPECT_GE(l["games"].get<int>(), 0);
    EXPECT_TRUE(l["elo"].is_number() && l["elo_low"].is_number() && l["elo_high"].is_number()) << l.dump();
    // Every listed level is accepted for an AI seat.
    json g = create(json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Bot"}, {"type", "ai"}, {"ai", l["spec"]}}}));
    EXPECT_TRUE(g.contains("id")) << l.dump();
  }
  for (const char* n : {"easy", "medium", "hard"})
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  // Levels that mean what they say (issue #37): easy < medium < hard, each at least 100 Elo
  // above the one below, and every level says in a sentence how it plays.
  auto elo = [&](const char* n) {
    for (const auto& l : details)
      if (l["name"] == n) return l["elo"].get<double>();
    return -1e9;
  };
  EXPECT_GE(elo("medium") - elo("easy"), 100);
  EXPECT_GE(elo("hard") - elo("medium"), 100);
  for (const auto& l : details) {
    EXPECT_GE(l["elo"].get<double>(), l["elo_low"].get<double>());
    EXPECT_LE(l["elo"].get<double>(), l["elo_high"].get<double>());
    EXPECT_GT(l["description"].get<std::string>().size(), 20u) << l.dump();
  }
}

}  // namespace
