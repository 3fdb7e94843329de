// API tests against a real server on loopback (src/server): a full game through the API, a
// game against an AI seat, a restart in the middle (same SQLite file, new server object),
// bad input (malformed JSON, illegal moves, wrong tokens, oversized bodies), undo/resign,
// record download/upload/replay, the tile data, the live event stream, and the expansions'
// decisions (Festival take-back, Fortune Teller choice, Fruit-Bearing Trees harvest and sale).
#include <gtest/gtest.h>

#include <fstream>

#include <algorithm>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <map>
#include <set>
#include <tuple>
#include <thread>

#include "record.h"
#include "server_fixture.h"

using json = nlohmann::json;
using carc::server::Server;
using carc::server::ServerOptions;

namespace {

using servertest::Resp;

class ServerTest : public servertest::ServerFixture {
 protected:
  ServerTest() : ServerFixture("server-test") { opts_.max_body = 64 * 1024; }

  // Creates a game; returns the response body (id, seats with tokens, game).
  json create(const json& players, uint64_t seed = 7, json extra = json::object()) {
    json body = extra;
    body["players"] = players;
    // A game with a remote seat takes no chosen seed (fair draws, docs/security.md).
    if (std::none_of(players.begin(), players.end(), [](const json& p) { return p.value("type", "") == "remote"; }))
      body["seed"] = seed;
    Resp r = post("/api/games", body);
    EXPECT_EQ(r.status, 201) << r.text;
    return r.body;
  }

  // Plays one move for the current player: the k-th legal placement, with a follower when
  // `follower` and one is offered.
  Resp play_one(const std::string& id, const json& tokens, size_t k = 0, bool follower = true) {
    json v = get("/api/games/" + id).body;
    const int p = v["current_player"];
    json legal = get("/api/games/" + id + "/legal").body;
    if (legal["placements"].empty())  // game over: try a move anyway (the server must refuse it)
      return post("/api/games/" + id + "/move", json{{"token", tokens[0]}, {"x", 1}, {"y", 0}, {"rotation", 0}});
    const json& pl = legal["placements"][k % legal["placements"].size()];
    json mv = {{"token", tokens[p]}, {"x", pl["x"]}, {"y", pl["y"]}, {"rotation", pl["rotation"]}, {"turn", legal["turn"]}};
    if (follower && !pl["followers"].empty())
      mv["follower"] = pl["followers"][0]["at"];
    else if (!pl["plain"].get<bool>())
      mv["follower"] = pl["followers"][0]["at"];
    return post("/api/games/" + id + "/move", mv);
  }

};

json hotseat() { return json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Ben"}, {"type", "human"}}}); }

json tokens_of(const json& created) {
  json t = json::array();
  for (const auto& s : created["seats"]) t.push_back(s.value("token", ""));
  return t;
}

}  // namespace

TEST_F(ServerTest, HealthTilesAndPlayers) {
  EXPECT_EQ(get("/api/health").status, 200);
  Resp t = get("/api/tiles?tileset=base");
  ASSERT_EQ(t.status, 200);
  EXPECT_EQ(t.body["tiles"].size(), 24u);
  EXPECT_EQ(t.body["start"]["tile"], "D");
  int total = 0;
  for (const auto& tile : t.body["tiles"]) {
    total += tile["count"].get<int>();
    EXPECT_EQ(tile["edges"].get<std::string>().size(), 4u);
    EXPECT_FALSE(tile["segments"].empty());
  }
  EXPECT_EQ(total, 72);
  Resp f = get("/api/tiles?tileset=base&expansions=festival");
  ASSERT_EQ(f.status, 200);
  EXPECT_EQ(f.body["tiles"].size(), 34u);
  EXPECT_EQ(get("/api/tiles?expansions=nope").status, 400);
  Resp p = get("/api/players");
  ASSERT_EQ(p.status, 200);
  EXPECT_FALSE(p.body["players"].empty());
  // The lobby's tile sets and expansions: the engine's module table, names and labels.
  EXPECT_EQ(p.body["expansions"], json::parse(R"([{"name":"festival","label":"The Festival","board":false},
    {"name":"fortune-teller","label":"The Fortune Teller","board":false},
    {"name":"fruit-trees","label":"Fruit-Bearing Trees","board":false}])"));
  EXPECT_EQ(p.body["tilesets"], json::parse(R"([{"name":"base","label":"Base game","board":false},
    {"name":"wheel-of-fortune","label":"The Wheel of Fortune","board":true}])"));
  Resp bad = post("/api/games", json{{"players", hotseat()}, {"expansions", {"nope"}}});
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.body.dump().find("(festival, fortune-teller, fruit-trees)"), std::string::npos) << bad.body.dump();
}

TEST_F(ServerTest, FullHotSeatGameThroughTheApi) {
  json g = create(hotseat(), 11);
  const std::string id = g["id"];
  json tokens = tokens_of(g);
  ASSERT_EQ(g["game"]["status"], "playing");
  int in_bag = 0;
  for (const auto& [tile, n] : g["game"]["bag_counts"].items()) in_bag += n.get<int>();
  EXPECT_EQ(in_bag, g["game"]["bag"]);  // the public bag composition
  int moves = 0;
  json v;
  while (true) {
    v = get("/api/games/" + id).body;
    if (v["status"] != "playing") break;
    Resp r = play_one(id, tokens, size_t(moves) * 7, moves % 3 == 0);
    ASSERT_EQ(r.status, 200) << r.text;
    ++moves;
    ASSERT_LT(moves, 200);
  }
  EXPECT_EQ(v["status"], "finished");
  EXPECT_EQ(v["bag"], 0);
  EXPECT_GT(moves, 60);
  EXPECT_FALSE(v["events"].empty());
  EXPECT_FALSE(v["winners"].empty());
  // The downloaded record replays to the same scores.
  Resp rec = get("/api/games/" + id + "/record");
  ASSERT_EQ(rec.status, 200);
  carc::Replay rp = carc::replay(carc::parse_record(rec.text), true);
  EXPECT_EQ(json(rp.state.scores()), v["scores"]);
  EXPECT_EQ(rec.body["setup"]["seed"], 11);  // finished games keep their seed
  // Listed.
  json list = get("/api/games").body;
  ASSERT_EQ(list["games"].size(), 1u);
  EXPECT_EQ(list["games"][0]["id"], id);
  EXPECT_EQ(list["games"][0]["status"], "finished");
}

TEST_F(ServerTest, GameAgainstAiSeats) {
  json g = create(json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Bot"}, {"type", "ai"}, {"ai", "greedy"}},
                               {{"name", "Rnd"}, {"type", "ai"}, {"ai", "random"}}}),
                  5);
  const std::string id = g["id"];
  json tokens = tokens_of(g);
  int moves = 0;
  json v;
  while (true) {
    v = wait_for_human(id);
    if (v["status"] != "playing") break;
    ASSERT_EQ(v["current_player"], 0);
    Resp r = play_one(id, tokens, 0, true);
    ASSERT_EQ(r.status, 200) << r.text;
    ++moves;
  }
  EXPECT_EQ(v["status"], "finished");
  EXPECT_GT(moves, 15);
  EXPECT_EQ(v["turn"].get<int>() + 0, v["turns_total"].get<int>());
  // AI seats have no token and cannot be played by the human.
  EXPECT_EQ(g["seats"][1].count("token"), 0u);
}

TEST_F(ServerTest, RestartInTheMiddleLosesNothing) {
  json g = create(json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Bot"}, {"type", "ai"}, {"ai", "greedy"}}}), 3);
  const std::string id = g["id"];
  json tokens = tokens_of(g);
  for (int i = 0; i < 12; ++i) {
    json v = wait_for_human(id);
    ASSERT_EQ(v["status"], "playing");
    ASSERT_EQ(play_one(id, tokens, size_t(i), true).status, 200);
  }
  json before = wait_for_human(id);
  json legal_before = get("/api/games/" + id + "/legal").body;
  restart();
  json after = get("/api/games/" + id).body;
  for (const char* key : {"board", "followers", "scores", "supply", "events", "tile", "turn", "bag", "current_player", "players"})
    EXPECT_EQ(after[key], before[key]) << key;
  EXPECT_EQ(get("/api/games/" + id + "/legal").body["placements"], legal_before["placements"]);
  // The old tokens still hold their seats; play on to the end.
  json v;
  while (true) {
    v = wait_for_human(id);
    if (v["status"] != "playing") break;
    ASSERT_EQ(play_one(id, tokens, 1, false).status, 200);
  }
  EXPECT_EQ(v["status"], "finished");

  // A restart while it is the AI's turn: the AI moves after the restart.
  json g2 = create(json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Bot"}, {"type", "ai"}, {"ai", "greedy"}}}), 4);
  const std::string id2 = g2["id"];
  server_->stop();  // stop right after the human's move is stored
  start();
  ASSERT_EQ(play_one(id2, tokens_of(g2), 0, true).status, 200);
  restart();
  json v2 = wait_for_human(id2);
  EXPECT_EQ(v2["turn"], 2);
  EXPECT_EQ(v2["current_player"], 0);
}

// Moves are decoded by the engine's notation (parse_move): the request's fields under their
// names (docs/vocabulary.md) or, for one release, their deprecated old names; a malformed
// request is a 400, an illegal move a 422, each saying why.
TEST_F(ServerTest, MoveNamesAndDeprecatedAliases) {
  json g = create(hotseat(), 11);
  const std::string id = g["id"];
  json tokens = tokens_of(g);
  for (int turn = 0; turn < 2; ++turn) {
    json legal = get("/api/games/" + id + "/legal").body;
    const int p = get("/api/games/" + id).body["current_player"];
    json pl;
    for (const auto& c : legal["placements"])
      if (!c["followers"].empty()) pl = c;
    ASSERT_FALSE(pl.is_null()) << "no placement with a follower";
    const std::string at = pl["followers"][0]["at"];
    json mv = {{"token", tokens[p]}, {"x", pl["x"]}, {"y", pl["y"]}, {"rotation", pl["rotation"]}, {"turn", legal["turn"]}};
    auto expect_error = [&](json body, int status, const std::string& words) {
      Resp r = post("/api/games/" + id + "/move", body);
      EXPECT_EQ(r.status, status) << body.dump() << " -> " << r.text;
      EXPECT_NE(r.body.value("error", "").find(words), std::string::npos) << body.dump() << " -> " << r.text;
    };
    json bad = mv;
    bad["meeple"] = at;  // the old name (an alias until issue #36) is refused, naming the new one
    expect_error(bad, 400, "'meeple' is no longer accepted: the move object says 'follower'");
    bad = mv;
    bad["follower"] = 3;
    expect_error(bad, 400, "'follower' must be a string");
    bad = mv;
    bad["follower"] = std::string(65, 'N');
    expect_error(bad, 400, "'follower' has at most 64 bytes");
    bad = mv;
    bad["follower"] = "crown:taxes:0";
    expect_error(bad, 422, "illegal move: crown spaces are on the Wheel of Fortune");
    bad = mv;
    bad["take_back"] = "N";
    expect_error(bad, 400, "'take_back' must be an object");
    bad = mv;
    bad["take_back"] = {{"x", 0}, {"y", 0}};
    expect_error(bad, 400, "'take_back.at' is required");
    bad = mv;
    bad["return"] = {{"x", 0}, {"y", 0}, {"at", "N"}};
    expect_error(bad, 400, "'return' is no longer accepted: the move object says 'take_back'");
    bad = mv;
    bad["take_back"] = {{"x", 0}, {"y", 0}, {"at", "N"}};
    expect_error(bad, 422, "illegal move: ");
    bad = mv;
    bad["rotation"] = 90 * 4;
    expect_error(bad, 400, "'rotation' must be from 0 to 270");
    bad = mv;
    bad["kind"] = "pass";
    expect_error(bad, 400, "'kind' must be place, choose or plague");
    mv["follower"] = at;
    Resp r = post("/api/games/" + id + "/move", mv);
    ASSERT_EQ(r.status, 200) << r.text;
    bool placed = false;
    for (const auto& f : r.body["followers"])
      placed |= f["x"] == pl["x"] && f["y"] == pl["y"] && f["at"] == at && f["player"] == p;
    EXPECT_TRUE(placed) << r.body["followers"].dump();
  }
}

TEST_F(ServerTest, BadInputChangesNothing) {
  json g = create(json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Ben"}, {"type", "remote"}}}), 9);
  const std::string id = g["id"];
  json tokens = tokens_of(g);
  json v0 = get("/api/games/" + id).body;
  auto unchanged = [&] {
    json v = get("/api/games/" + id).body;
    EXPECT_EQ(v["version"], v0["version"]);
    EXPECT_EQ(v["board"], v0["board"]);
  };
  // Malformed JSON, wrong body type.
  Resp r = post_raw("/api/games/" + id + "/move", "{\"token\": ");
  EXPECT_EQ(r.status, 400);
  EXPECT_TRUE(r.body.contains("error"));
  EXPECT_EQ(post_raw("/api/games/" + id + "/move", "[1,2]").status, 400);
  EXPECT_EQ(post_raw("/api/games", "not json").status, 400);
  // Wrong or missing token.
  json legal = get("/api/games/" + id + "/legal").body;
  const json& pl = legal["placements"][0];
  json mv = {{"x", pl["x"]}, {"y", pl["y"]}, {"rotation", pl["rotation"]}};
  EXPECT_EQ(post("/api/games/" + id + "/move", mv).status, 403);
  mv["token"] = "0123456789abcdef0123456789abcdef";
  EXPECT_EQ(post("/api/games/" + id + "/move", mv).status, 403);
  // Another seat's token: not their turn.
  mv["token"] = tokens[1];
  r = post("/api/games/" + id + "/move", mv);
  EXPECT_EQ(r.status, 409);
  EXPECT_NE(r.body["error"].get<std::string>().find("Ann's turn"), std::string::npos) << r.text;
  // Illegal moves: on the start tile, far away, wrong rotation value, no such location.
  mv["token"] = tokens[0];
  EXPECT_EQ(post("/api/games/" + id + "/move", json{{"token", tokens[0]}, {"x", 0}, {"y", 0}, {"rotation", 0}}).status, 422);
  EXPECT_EQ(post("/api/games/" + id + "/move", json{{"token", tokens[0]}, {"x", 40}, {"y", 40}, {"rotation", 0}}).status, 422);
  EXPECT_EQ(post("/api/games/" + id + "/move", json{{"token", tokens[0]}, {"x", pl["x"]}, {"y", pl["y"]}, {"rotation", 45}}).status, 400);
  EXPECT_EQ(post("/api/games/" + id + "/move", json{{"token", tokens[0]}, {"x", "a"}, {"y", 0}}).status, 400);
  json bad = mv;
  bad["follower"] = "Q";
  EXPECT_EQ(post("/api/games/" + id + "/move", bad).status, 422);
  bad = mv;
  bad["turn"] = 5;
  EXPECT_EQ(post("/api/games/" + id + "/move", bad).status, 409);
  bad = mv;
  bad["take_back"] = {{"x", 0}, {"y", 0}, {"at", "N"}};
  EXPECT_EQ(post("/api/games/" + id + "/move", bad).status, 422);
  // Oversized body.
  std::string big = "{\"token\": \"" + std::string(100 * 1024, 'a') + "\"}";
  r = post_raw("/api/games/" + id + "/move", big);
  EXPECT_EQ(r.status, 413);
  EXPECT_TRUE(r.body.contains("error")) << r.text;
  // Unknown game, unknown path.
  EXPECT_EQ(get("/api/games/nosuchgame").status, 404);
  EXPECT_EQ(post("/api/games/nosuchgame/move", mv).status, 404);
  EXPECT_EQ(get("/api/nothing").status, 404);
  // Undo is refused with another human in the game.
  EXPECT_EQ(post("/api/games/" + id + "/undo", json{{"token", tokens[0]}}).status, 409);
  unchanged();
  // Bad game setups.
  EXPECT_EQ(post("/api/games", json{{"players", json::array({{{"name", "A"}}})}}).status, 400);
  EXPECT_EQ(post("/api/games", json{{"players", hotseat()}, {"expansions", {"nope"}}}).status, 400);
  EXPECT_EQ(post("/api/games", json{{"players", json::array({{{"name", "A"}}, {{"type", "ai"}, {"ai", "nonsense"}}})}}).status, 400);
  EXPECT_EQ(post("/api/games", json{{"players", json::array({{{"name", "A"}}, {{"type", "alien"}}})}}).status, 400);
  EXPECT_EQ(post("/api/games", json{{"players", hotseat()}, {"tileset", "moon"}}).status, 400);
  EXPECT_EQ(post("/api/games/upload", json{{"record", "{\"format\": 1}"}}).status, 400);
  // The legal move itself still works afterwards.
  EXPECT_EQ(post("/api/games/" + id + "/move", mv).status, 200);
  EXPECT_EQ(get("/api/games").body["games"].size(), 1u);
}

TEST_F(ServerTest, UndoResignAndJoin) {
  // Undo against an AI takes back the human's move and the AI's reply.
  json g = create(json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Bot"}, {"type", "ai"}, {"ai", "greedy"}}}), 21);
  const std::string id = g["id"];
  json tokens = tokens_of(g);
  json v0 = get("/api/games/" + id).body;
  EXPECT_FALSE(v0["can_undo"]);
  EXPECT_EQ(post("/api/games/" + id + "/undo", json{{"token", tokens[0]}}).status, 409);
  ASSERT_EQ(play_one(id, tokens, 0, true).status, 200);
  json v1 = wait_for_human(id);
  EXPECT_EQ(v1["turn"], 2);
  EXPECT_TRUE(v1["can_undo"]);
  Resp u = post("/api/games/" + id + "/undo", json{{"token", tokens[0]}});
  ASSERT_EQ(u.status, 200) << u.text;
  EXPECT_EQ(u.body["turn"], 0);
  EXPECT_EQ(u.body["tile"], v0["tile"]);  // the same tile comes again
  EXPECT_EQ(u.body["board"], v0["board"]);
  // Resigning a two-player game ends it.
  Resp rs = post("/api/games/" + id + "/resign", json{{"token", tokens[0]}});
  ASSERT_EQ(rs.status, 200);
  EXPECT_EQ(rs.body["status"], "finished");
  EXPECT_EQ(rs.body["end_reason"], "Ann resigned");
  // Whoever resigns loses, whatever the scores (0:0 here): Ben alone wins (issue #39, item 9).
  EXPECT_EQ(rs.body["scores"], json::array({0, 0}));
  EXPECT_EQ(rs.body["winners"], json::array({1}));
  EXPECT_EQ(play_one(id, tokens).status, 409);

  // Joining by link: the remote seat's token claims it.
  json g2 = create(json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Ben"}, {"type", "remote"}}}), 22);
  const std::string id2 = g2["id"];
  EXPECT_NE(g2["seats"][1]["join_path"].get<std::string>().find(g2["seats"][1]["token"].get<std::string>()), std::string::npos);
  Resp j = post("/api/games/" + id2 + "/join", json{{"token", g2["seats"][1]["token"]}});
  ASSERT_EQ(j.status, 200);
  EXPECT_EQ(j.body["seat"], 1);
  EXPECT_EQ(j.body["game"]["players"][1]["joined"], true);
  EXPECT_EQ(post("/api/games/" + id2 + "/join", json{{"token", "nope"}}).status, 403);
  // Tokens are never in public views.
  EXPECT_EQ(get("/api/games/" + id2).text.find(g2["seats"][1]["token"].get<std::string>()), std::string::npos);
}

TEST_F(ServerTest, RecordDownloadUploadAndReplay) {
  json g = create(hotseat(), 31);
  const std::string id = g["id"];
  json tokens = tokens_of(g);
  for (int i = 0; i < 10; ++i) ASSERT_EQ(play_one(id, tokens, size_t(i) * 3, i % 2 == 0).status, 200);
  json v = get("/api/games/" + id).body;
  Resp rec = get("/api/games/" + id + "/record");
  ASSERT_EQ(rec.status, 200);
  EXPECT_EQ(rec.body["format"], "carcassonne-record/2");
  for (const auto& t : rec.body["turns"]) EXPECT_FALSE(t.contains("meeple") || t.contains("return")) << t.dump();
  EXPECT_EQ(rec.body["turns"].size(), 10u);
  EXPECT_NE(rec.body["setup"]["seed"], 31);  // a running game's seed stays hidden
  // Replay move by move.
  for (int t : {0, 1, 5, 10}) {
    Resp r = get("/api/games/" + id + "/replay?turn=" + std::to_string(t));
    ASSERT_EQ(r.status, 200);
    EXPECT_EQ(r.body["board"].size(), size_t(t + 1));
    EXPECT_EQ(r.body["turns_total"], 10);
  }
  EXPECT_EQ(get("/api/games/" + id + "/replay?turn=11").status, 400);
  EXPECT_EQ(get("/api/games/" + id + "/replay?turn=5").body["scores"],
            json(carc::replay([&] {
                   carc::Record r = carc::parse_record(rec.text);
                   r.keep_turns(5);
                   return r;
                 }()).state.scores()));
  // Upload to view.
  Resp up = post("/api/games/upload", json{{"record", rec.body}, {"mode", "view"}});
  ASSERT_EQ(up.status, 201) << up.text;
  EXPECT_EQ(up.body["game"]["status"], "view");
  EXPECT_EQ(up.body["game"]["board"], v["board"]);
  EXPECT_EQ(up.body["game"]["scores"], v["scores"]);
  // Upload to continue (as text), with a computer in seat 2.
  Resp cont = post("/api/games/upload", json{{"record", rec.text},
                                              {"players", json::array({{{"type", "human"}}, {{"type", "ai"}, {"ai", "random"}}})}});
  ASSERT_EQ(cont.status, 201) << cont.text;
  EXPECT_EQ(cont.body["game"]["status"], "playing");
  EXPECT_EQ(cont.body["game"]["players"][0]["name"], "Ann");
  const std::string id3 = cont.body["id"];
  json t3 = tokens_of(cont.body);
  json w = wait_for_human(id3);
  EXPECT_EQ(w["board"].size(), 11u);
  EXPECT_EQ(play_one(id3, t3).status, 200);
  // A record with an illegal turn is refused with its reason.
  json broken = rec.body;
  broken["turns"][3]["x"] = 30;
  Resp br = post("/api/games/upload", json{{"record", broken}});
  EXPECT_EQ(br.status, 400);
  EXPECT_NE(br.body["error"].get<std::string>().find("turn 4"), std::string::npos) << br.text;
}

TEST_F(ServerTest, EventStreamPushesNewStates) {
  json g = create(hotseat(), 41);
  const std::string id = g["id"];
  json tokens = tokens_of(g);
  std::atomic<int> events{0};
  std::atomic<int> last_turn{-1};
  std::thread listener([&] {
    std::string buf;
    testhttp::request(port_, "GET", "/api/games/" + id + "/events", "", "", 20000, [&](std::string_view data) {
      buf.append(data);
      size_t pos;
      while ((pos = buf.find("\n\n")) != std::string::npos) {
        std::string msg = buf.substr(0, pos);
        buf.erase(0, pos + 2);
        auto d = msg.find("data: ");
        if (d == std::string::npos) continue;
        json v = json::parse(msg.substr(d + 6), nullptr, false);
        if (v.is_discarded()) continue;
        last_turn = v["turn"].get<int>();
        ++events;
      }
      return last_turn < 2;
    });
  });
  for (int i = 0; i < 200 && events == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_GE(events.load(), 1);  // the current state at once
  ASSERT_EQ(play_one(id, tokens).status, 200);
  ASSERT_EQ(play_one(id, tokens).status, 200);
  listener.join();
  EXPECT_EQ(last_turn.load(), 2);
  EXPECT_GE(events.load(), 3);
}

TEST_F(ServerTest, FestivalTakeBackThroughTheApi) {
  json g = create(hotseat(), 1, json{{"expansions", {"festival"}}});
  const std::string id = g["id"];
  json tokens = tokens_of(g);
  bool took_back = false;
  for (int turn = 0; turn < 120 && !took_back; ++turn) {
    json v = get("/api/games/" + id).body;
    if (v["status"] != "playing") break;
    json legal = get("/api/games/" + id + "/legal").body;
    const int p = v["current_player"];
    for (const auto& pl : legal["placements"]) {
      if (pl["take_backs"].empty()) continue;
      const json& r = pl["take_backs"][0];
      const int before = v["supply"][p];
      json mv = {{"token", tokens[p]}, {"x", pl["x"]}, {"y", pl["y"]}, {"rotation", pl["rotation"]},
                 {"take_back", {{"x", r["x"]}, {"y", r["y"]}, {"at", r["at"]}}}};
      json old = mv;  // the old name (an alias until issue #36) is refused
      old["return"] = mv["take_back"];
      old.erase("take_back");
      Resp refused = post("/api/games/" + id + "/move", old);
      EXPECT_EQ(refused.status, 400) << refused.text;
      EXPECT_NE(refused.text.find("'return' is no longer accepted"), std::string::npos) << refused.text;
      Resp res = post("/api/games/" + id + "/move", mv);
      ASSERT_EQ(res.status, 200) << res.text;
      EXPECT_GE(res.body["supply"][p].get<int>(), before + 1);  // the follower came back (and maybe more by scoring)
      took_back = true;
      break;
    }
    if (!took_back) ASSERT_EQ(play_one(id, tokens, size_t(turn), true).status, 200);
  }
  EXPECT_TRUE(took_back) << "no Festival tile offered a take-back";
  Resp rec = get("/api/games/" + id + "/record");
  EXPECT_NE(rec.text.find("\"take_back\""), std::string::npos);  // the one move object (format 2)
  EXPECT_EQ(rec.text.find("\"return\""), std::string::npos);
  EXPECT_NO_THROW(carc::replay(carc::parse_record(rec.text)));
}

TEST_F(ServerTest, EventStreamsAreBoundedAndStopCleanly) {
  ServerOptions o;
  o.port = 0;
  o.db_path = on_postgres() ? db_ : (dir_ / "small.sqlite").string();  // PostgreSQL: the test's schema
  o.max_streams = 2;
  auto small = std::make_unique<Server>(o);
  const int port = small->start();
  auto r = testhttp::post(port, "/api/games", json{{"players", hotseat()}}.dump());
  ASSERT_EQ(r.status, 201);
  const std::string path = "/api/games/" + json::parse(r.body)["id"].get<std::string>() + "/events";
  std::atomic<int> got{0};
  std::vector<std::thread> streams;
  for (int i = 0; i < 2; ++i)
    streams.emplace_back([&] {
      testhttp::request(port, "GET", path, "", "", 20000, [&](std::string_view) {
        ++got;
        return true;  // keep listening until the server stops
      });
    });
  for (int i = 0; i < 500 && got < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_GE(got.load(), 2);
  EXPECT_EQ(testhttp::get(port, path).status, 503);
  EXPECT_EQ(testhttp::get(port, "/api/health").status, 200);  // plain requests still get through
  const auto t0 = std::chrono::steady_clock::now();
  small->stop();  // ends the open streams
  for (auto& t : streams) t.join();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(10));
}

TEST_F(ServerTest, FortuneTellerChoiceThroughTheApi) {
  json g = create(hotseat(), 2, json{{"expansions", {"fortune-teller"}}});
  const std::string id = g["id"];
  json tokens = tokens_of(g);
  bool chose_second = false;
  for (int turn = 0; turn < 140 && !chose_second; ++turn) {
    json v = get("/api/games/" + id).body;
    if (v["status"] != "playing") break;
    const int p = v["current_player"];
    json legal = get("/api/games/" + id + "/legal").body;
    json pick;  // a placement of the second drawn tile, else one with a tent follower, else the first
    for (const auto& pl : legal["placements"]) {
      if (pl.value("choice", 0) == 1) {
        pick = pl;
        break;
      }
      if (pick.is_null())
        for (const auto& m : pl["followers"])
          if (m["kind"] == "tent") pick = pl;
    }
    if (pick.is_null()) pick = legal["placements"][0];
    json mv = {{"token", tokens[p]}, {"x", pick["x"]}, {"y", pick["y"]}, {"rotation", pick["rotation"]},
               {"choice", pick.value("choice", 0)}};
    for (const auto& m : pick["followers"])
      if (m["kind"] == "tent") mv["follower"] = m["at"];
    if (!mv.contains("follower") && !pick["plain"].get<bool>()) mv["follower"] = pick["followers"][0]["at"];
    if (pick.value("choice", 0) == 1) {
      ASSERT_GE(v["drawn"].size(), 2u);
      EXPECT_EQ(pick["tile"], v["drawn"][1]["tile"]);
      json wrong = mv;
      wrong["choice"] = 7;
      EXPECT_EQ(post("/api/games/" + id + "/move", wrong).status, 422);
      chose_second = true;
    }
    Resp r = post("/api/games/" + id + "/move", mv);
    ASSERT_EQ(r.status, 200) << r.text;
  }
  EXPECT_TRUE(chose_second) << "no turn with two drawn tiles";
  Resp rec = get("/api/games/" + id + "/record");
  EXPECT_NE(rec.text.find("\"drawn\""), std::string::npos);
  EXPECT_NO_THROW(carc::replay(carc::parse_record(rec.text)));
}

// Fruit-Bearing Trees through the API: the legal moves offer a harvest after a follower next to
// (or on) a tree; a harvest scores the top token and the view shows it held and the tree's
// tokens left; later the same player sells the held kinds for 3/6/10/15; bad fruit requests get
// a clear 4xx and change nothing; the record keeps the fruit moves and replays.
TEST_F(ServerTest, FruitHarvestAndSaleThroughTheApi) {
  json g = create(hotseat(), 3, json{{"expansions", {"fruit-trees"}}});
  const std::string id = g["id"];
  json tokens = tokens_of(g);
  ASSERT_TRUE(g["game"].contains("fruit"));
  EXPECT_EQ(g["game"]["fruit"]["stacks"].size(), 6u);
  EXPECT_TRUE(g["game"]["fruit"]["trees"].empty());
  const int sale_points[5] = {0, 3, 6, 10, 15};
  int harvester = -1;
  bool harvested = false, sold = false, bad_checked = false, stack_chosen = false;
  auto fruit_event = [](const json& v, int turn) {
    for (const auto& e : v["events"])
      if (e["kind"] == "fruit" && e["turn"] == turn && !e["final"].get<bool>()) return e;
    return json();
  };
  for (int turn = 0; turn < 200 && !(harvested && sold); ++turn) {
    json v = get("/api/games/" + id).body;
    if (v["status"] != "playing") break;
    const int p = v["current_player"];
    json legal = get("/api/games/" + id + "/legal").body;
    json pick;
    std::string mode;
    for (const auto& pl : legal["placements"]) {
      if (pl.contains("fruit_types")) {  // a tree tile: each follower spot listed once
        std::set<std::string> at;
        for (const auto& m : pl["followers"]) EXPECT_TRUE(at.insert(m["at"].get<std::string>()).second) << pl.dump();
      }
      if (!pl.contains("fruit") || pl["followers"].empty()) continue;
      if (harvested && !sold && p == harvester && !pl["fruit"]["sell"].empty()) {
        pick = pl;
        mode = "sell";
        break;
      }
      if (!harvested && !pl["fruit"]["harvest"].empty() && pick.is_null()) {
        pick = pl;
        mode = "harvest";
      }
    }
    if (pick.is_null()) {
      ASSERT_EQ(play_one(id, tokens, size_t(turn), false).status, 200);
      continue;
    }
    json mv = {{"token", tokens[p]}, {"x", pick["x"]}, {"y", pick["y"]}, {"rotation", pick["rotation"]},
               {"follower", pick["followers"][0]["at"]}, {"turn", legal["turn"]}};
    const std::string move_path = "/api/games/" + id + "/move";
    if (!bad_checked) {
      bad_checked = true;
      const json before = v;
      auto expect_error = [&](json body, int status, const std::string& words) {
        Resp r = post(move_path, body);
        EXPECT_EQ(r.status, status) << body.dump() << " -> " << r.text;
        EXPECT_NE(r.body.value("error", "").find(words), std::string::npos) << r.text;
      };
      json bad = mv;
      bad["fruit"] = "apple";
      expect_error(bad, 400, "'fruit' must be");
      bad["fruit"] = {{"harvest", {{"x", 0}, {"y", 0}}}, {"sell", {"apple"}}};
      expect_error(bad, 400, "'fruit' must be");
      bad["fruit"] = {{"sell", "apple"}};
      expect_error(bad, 400, "'fruit' must be");
      bad["fruit"] = {{"harvest", {{"x", 40}, {"y", 40}}}};
      expect_error(bad, 422, "no tree at (40,40)");
      // Malformed (400): names no fruit type, or no sale at all; illegal (422): not possible now.
      bad["fruit"] = {{"sell", {"banana"}}};
      expect_error(bad, 400, "unknown fruit type 'banana'");
      bad["fruit"] = {{"sell", {"apple", "apple"}}};
      expect_error(bad, 400, "each fruit type once");
      bad["fruit"] = {{"sell", json::array()}};
      expect_error(bad, 400, "'sell' names 1 to 6 fruit types");
      bad["fruit"] = {{"sell", {"apple", "apricot", "cherry", "elder", "plum"}}};
      expect_error(bad, 422, "1 to 4 fruit types");
      bad["fruit"] = {{"sell", {"quince"}}};
      expect_error(bad, 422, "holds no quince");
      bad = mv;
      bad["fruit_type"] = "banana";
      expect_error(bad, 400, "malformed move: unknown fruit type 'banana'");
      if (pick["plain"].get<bool>()) {
        bad = mv;
        bad.erase("follower");
        bad["fruit"] = {{"harvest", {{"x", pick["fruit"]["harvest"][0]["x"]}, {"y", pick["fruit"]["harvest"][0]["y"]}}}};
        expect_error(bad, 422, "needs a follower");
      }
      json after = get("/api/games/" + id).body;
      EXPECT_EQ(after["version"], before["version"]);  // nothing changed
      EXPECT_EQ(after["scores"], before["scores"]);
    }
    if (mode == "harvest") {
      const json h = pick["fruit"]["harvest"][0];
      std::string type = h["type"];
      if (h["new"].get<bool>() && pick["fruit_types"].size() > 1) {  // choose another stack for the new tree
        type = pick["fruit_types"][1];
        mv["fruit_type"] = type;
        stack_chosen = true;
      }
      mv["fruit"] = {{"harvest", {{"x", h["x"]}, {"y", h["y"]}}}};
      Resp r = post(move_path, mv);
      ASSERT_EQ(r.status, 200) << r.text;
      const json ev = fruit_event(r.body, legal["turn"]);
      ASSERT_FALSE(ev.is_null()) << r.body["events"].dump();
      const int pts = ev["points"];
      EXPECT_GE(pts, 2);
      EXPECT_LE(pts, 5);
      EXPECT_GE(r.body["scores"][p].get<int>(), v["scores"][p].get<int>() + pts);
      const std::string name = p == 0 ? "Ann" : "Ben";
      const std::string article = std::string("aeiou").find(type[0]) != std::string::npos ? "an " : "a ";
      EXPECT_EQ(ev["text"], name + " harvests " + article + type + " worth " + std::to_string(pts));
      EXPECT_EQ(ev["fruit"]["harvest"], type);
      EXPECT_EQ(ev["x"], h["x"]);  // shown on the tree
      EXPECT_EQ(r.body["fruit"]["held"][p][type], 1);
      bool tree_seen = false;
      for (const auto& t : r.body["fruit"]["trees"])
        if (t["type"] == type) {
          tree_seen = true;
          EXPECT_EQ(t["left"].get<int>(), h["left"].get<int>() - 1);
          EXPECT_EQ(t["x"], h["x"]);
        }
      EXPECT_TRUE(tree_seen);
      harvester = p;
      harvested = true;
    } else {
      json kinds = json::array();
      for (const auto& k : pick["fruit"]["sell"])
        if (kinds.size() < 4) kinds.push_back(k);
      mv["fruit"] = {{"sell", kinds}};
      Resp r = post(move_path, mv);
      ASSERT_EQ(r.status, 200) << r.text;
      const json ev = fruit_event(r.body, legal["turn"]);
      ASSERT_FALSE(ev.is_null());
      const int n = int(kinds.size());
      EXPECT_EQ(ev["points"], sale_points[n]);
      const std::string name = p == 0 ? "Ann" : "Ben";
      EXPECT_EQ(ev["text"], name + " sells " + std::to_string(n) + (n == 1 ? " fruit" : " fruits") + " for " +
                                std::to_string(sale_points[n]));
      EXPECT_GE(r.body["scores"][p].get<int>(), v["scores"][p].get<int>() + sale_points[n]);
      for (const auto& k : kinds)
        EXPECT_EQ(r.body["fruit"]["held"][p].value(k.get<std::string>(), 0), v["fruit"]["held"][p][k.get<std::string>()].get<int>() - 1);
      sold = true;
    }
  }
  EXPECT_TRUE(harvested) << "no harvest was offered";
  EXPECT_TRUE(sold) << "no sale was offered to the harvester";
  RecordProperty("harvest_on_a_chosen_stack", stack_chosen ? "yes" : "no");
  Resp rec = get("/api/games/" + id + "/record");
  EXPECT_NE(rec.text.find("\"harvest\""), std::string::npos);
  EXPECT_NE(rec.text.find("\"sell\""), std::string::npos);
  carc::Replay rp = carc::replay(carc::parse_record(rec.text));
  EXPECT_EQ(json(rp.state.scores()), get("/api/games/" + id).body["scores"]);
  // a game without the expansion refuses fruit actions
  json base = create(hotseat(), 4);
  json legal = get("/api/games/" + base["id"].get<std::string>() + "/legal").body;
  const json& pl = legal["placements"][0];
  json mv = {{"token", tokens_of(base)[0]}, {"x", pl["x"]}, {"y", pl["y"]}, {"rotation", pl["rotation"]},
             {"fruit", {{"sell", {"apple"}}}}};
  if (!pl["followers"].empty()) mv["follower"] = pl["followers"][0]["at"];
  Resp r = post("/api/games/" + base["id"].get<std::string>() + "/move", mv);
  EXPECT_EQ(r.status, 422) << r.text;
  EXPECT_FALSE(base["game"].contains("fruit"));
}

// The Wheel of Fortune through the API: the tile data has the start board; a new game shows
// the wheel (segments, crown spaces, the pig on Fortuna); a follower goes to a crown space and
// the view shows it there; the Plague is decided seat by seat: a non-active human seat decides
// (the active seat's token is refused with 409, a crown follower or a placement with 422), a
// restart in the middle of the Plague keeps the decisions made so far; the log tells the wheel
// in words; the record keeps the crown and Plague entries and replays to the same scores.
TEST_F(ServerTest, WheelOfFortuneThroughTheApi) {
  Resp tiles = get("/api/tiles?tileset=wheel-of-fortune");
  ASSERT_EQ(tiles.status, 200) << tiles.text;
  EXPECT_TRUE(tiles.body["start"].is_null());
  ASSERT_EQ(tiles.body["board"]["cells"].size(), 16u);
  ASSERT_EQ(tiles.body["board"]["wheel"].size(), 6u);
  EXPECT_EQ(tiles.body["board"]["wheel"][5]["event"], "plague");
  int numbered = 0, total = 0;
  for (const auto& t : tiles.body["tiles"]) {
    numbered += t["wheel"].get<int>() > 0 ? t["count"].get<int>() : 0;
    total += t["count"].get<int>();
  }
  EXPECT_EQ(numbered, 19);
  EXPECT_EQ(total, 71);  // the sourced set (the board's cells count 0)
  bool rim = false;
  for (const auto& t : tiles.body["tiles"])  // the wheel's sides are written W
    if (t["id"] == "board:1:0") rim = t["edges"] == "FFWF";
  EXPECT_TRUE(rim);

  // With every other expansion too.
  json all = create(hotseat(), 5, json{{"tileset", "wheel-of-fortune"}, {"expansions", {"festival", "fortune-teller", "fruit-trees"}}});
  EXPECT_EQ(all["game"]["tileset"], "wheel-of-fortune");
  EXPECT_EQ(all["game"]["expansions"].size(), 3u);
  EXPECT_TRUE(all["game"].contains("wheel"));
  EXPECT_EQ(post("/api/games", json{{"players", hotseat()}, {"tileset", "wheel"}}).status, 400);

  json g = create(hotseat(), 21, json{{"tileset", "wheel-of-fortune"}});
  const std::string id = g["id"];
  json tokens = tokens_of(g);
  json v0 = g["game"];
  ASSERT_TRUE(v0.contains("wheel"));
  EXPECT_EQ(v0["board"].size(), 16u);
  EXPECT_TRUE(v0["last"].is_null());
  EXPECT_EQ(v0["wheel"]["segments"].size(), 6u);
  int spaces = 0;
  for (const auto& s : v0["wheel"]["segments"]) spaces += int(s["crowns"].size());
  EXPECT_EQ(spaces, 9);
  const std::string move_path = "/api/games/" + id + "/move";
  auto crown_player = [](const json& v, const std::string& space) {
    for (const auto& s : v["wheel"]["segments"])
      for (const auto& c : s["crowns"])
        if (c["space"] == space) return c["player"].get<int>();
    return -2;
  };
  auto land_followers = [](const json& v, int p) {
    int n = 0;
    for (const auto& f : v["followers"]) n += f["player"] == p;
    return n;
  };

  bool crowned = false, bad_crown_checked = false, nonactive_plague = false, restarted = false;
  int plague_decisions = 0, plague_turn = 0;
  for (int step = 0; step < 400; ++step) {
    json v = get("/api/games/" + id).body;
    if (v["status"] != "playing") break;
    // done when the turn of the last Plague is complete (the record holds whole turns)
    if (crowned && nonactive_plague && plague_decisions >= 2 && v["turn"].get<int>() >= plague_turn) break;
    const int p = v["current_player"];
    json legal = get("/api/games/" + id + "/legal").body;
    ASSERT_EQ(legal["player"], p);
    if (v["phase"] == "plague") {
      ASSERT_EQ(legal["phase"], "plague");
      ASSERT_EQ(v["wheel"]["plague_player"], p);
      EXPECT_EQ(v["wheel"]["pig_event"], "plague");
      ASSERT_FALSE(legal["plague"].empty());
      EXPECT_TRUE(legal["placements"].empty());
      EXPECT_EQ(legal["reason"], "The Plague: take back one of your followers");
      const int tp = v["turn_player"];
      const json& f = legal["plague"][0];
      json mv = {{"token", tokens[p]}, {"kind", "plague"}, {"x", f["x"]}, {"y", f["y"]}, {"at", f["at"]}, {"turn", legal["turn"]}};
      if (tp != p) {
        // the active seat may not decide for the deciding one
        json wrong = mv;
        wrong["token"] = tokens[tp];
        Resp r = post(move_path, wrong);
        EXPECT_EQ(r.status, 409) << r.text;
        EXPECT_NE(r.body.value("error", "").find("Plague"), std::string::npos) << r.text;
        // nor may the deciding seat place the tile now, name a crown follower or another's follower
        Resp r2 = post(move_path, json{{"token", tokens[p]}, {"x", 0}, {"y", -1}, {"rotation", 0}});
        EXPECT_EQ(r2.status, 422) << r2.text;
        EXPECT_NE(r2.body.value("error", "").find("Plague"), std::string::npos) << r2.text;
        Resp r3 = post(move_path, json{{"token", tokens[p]}, {"kind", "plague"}, {"at", "crown:plague:0"}});
        EXPECT_EQ(r3.status, 422) << r3.text;
        EXPECT_NE(r3.body.value("error", "").find("immune"), std::string::npos) << r3.text;
        Resp r4 = post(move_path, json{{"token", tokens[p]}, {"kind", "plague"}, {"x", 1}, {"y", 1}, {"at", "C"}});
        EXPECT_EQ(r4.status, 422) << r4.text;
        Resp r5 = post(move_path, json{{"token", tokens[p]}, {"kind", "plague"}, {"x", f["x"]}, {"y", f["y"]}});
        EXPECT_EQ(r5.status, 400) << r5.text;
        EXPECT_EQ(get("/api/games/" + id).body["version"], v["version"]);  // nothing changed
        // a restart in the middle of the Plague keeps it (and the decisions made so far)
        if (!restarted) {
          restarted = true;
          restart();
          json after = get("/api/games/" + id).body;
          for (const char* key : {"board", "followers", "scores", "supply", "tile", "phase", "current_player", "wheel", "events"})
            EXPECT_EQ(after[key], v[key]) << key;
        }
      }
      const int before = land_followers(v, p);
      Resp r = post(move_path, mv);
      ASSERT_EQ(r.status, 200) << r.text;
      EXPECT_EQ(land_followers(r.body, p), before - 1);
      EXPECT_GE(r.body["supply"][p].get<int>(), v["supply"][p].get<int>() + 1);
      bool logged = false;
      for (const auto& e : r.body["events"])
        if (e["kind"] == "plague" && e["turn"] == legal["turn"] && e["x"] == f["x"] && e["y"] == f["y"] && e["player"] == p)
          logged = e["text"].get<std::string>().find("for the Plague") != std::string::npos;
      EXPECT_TRUE(logged) << r.body["events"].dump();
      ++plague_decisions;
      plague_turn = legal["turn"];
      if (tp != p) nonactive_plague = true;
      continue;
    }
    ASSERT_EQ(v["phase"], "place");
    ASSERT_FALSE(legal["placements"].empty());
    const json& pl = legal["placements"][size_t(step * 5) % legal["placements"].size()];
    ASSERT_TRUE(pl.contains("crowns"));
    json mv = {{"token", tokens[p]}, {"x", pl["x"]}, {"y", pl["y"]}, {"rotation", pl["rotation"]}, {"turn", legal["turn"]}};
    if (!crowned && !pl["crowns"].empty() && step >= 2) {
      const std::string space = pl["crowns"].back();
      if (!bad_crown_checked) {
        bad_crown_checked = true;
        json bad = mv;
        bad["follower"] = "crown:nowhere:0";
        Resp r = post(move_path, bad);
        EXPECT_EQ(r.status, 422) << r.text;
        EXPECT_NE(r.body.value("error", "").find("no crown space"), std::string::npos) << r.text;
        bad["kind"] = "dance";
        EXPECT_EQ(post(move_path, bad).status, 400);
      }
      mv["follower"] = space;
      Resp r = post(move_path, mv);
      ASSERT_EQ(r.status, 200) << r.text;
      // the crown follower stays unless the very next draw turned the wheel onto its segment
      const bool scored = r.body["events"].size() > v["events"].size() && r.body["events"].back()["kind"] == "crown";
      if (!scored) {
        EXPECT_EQ(crown_player(r.body, space), p);
        EXPECT_EQ(r.body["supply"][p].get<int>(), v["supply"][p].get<int>() - 1);
      }
      crowned = true;
      continue;
    }
    if (!pl["followers"].empty()) mv["follower"] = pl["followers"][0]["at"];
    Resp r = post(move_path, mv);
    ASSERT_EQ(r.status, 200) << r.text;
  }
  EXPECT_TRUE(crowned) << "no crown placement";
  EXPECT_TRUE(nonactive_plague) << "no Plague decision by a non-active seat";
  EXPECT_TRUE(restarted);
  json v = get("/api/games/" + id).body;
  // the log in words: the pig's moves, wheel scorings
  bool pig_line = false;
  for (const auto& e : v["events"])
    if (e["kind"] == "pig") pig_line |= e["text"].get<std::string>().rfind("The pig moves ", 0) == 0;
  EXPECT_TRUE(pig_line);
  for (const auto& e : v["events"]) {
    const std::string k = e["kind"], text = e["text"];
    if (k == "fortuna") EXPECT_NE(text.find(": Fortuna"), std::string::npos) << text;
    if (k == "storm") EXPECT_NE(text.find("in the storm for"), std::string::npos) << text;
    if (k == "crown") EXPECT_NE(text.find("for a crown space of "), std::string::npos) << text;
    // the wheel's scorings name the pig's segment; the pig's moves are in the same one log
    static const std::set<std::string> wheel_kinds = {"fortuna", "taxes", "famine", "storm", "inquisition", "crown", "pig"};
    if (wheel_kinds.count(k)) EXPECT_TRUE(e.contains("segment")) << e.dump();
    if (k == "storm") EXPECT_EQ(e["segment"], "storm");
  }
  // The view's log is ONE list in the engine's event order: within a turn the stages of
  // GET /api/tables (pig, wheel event, Plague, crown, placement), the final scoring after every
  // turn; each entry says where a client shows it: "wheel" for the pig, Fortuna, the storm and
  // the crown spaces, "board" (with the tile at x, y) for the rest.
  {
    const json tables = get("/api/tables").body;
    std::map<std::string, int> stage_rank;
    std::map<std::string, std::string> stage_of;
    for (size_t i = 0; i < tables["event_stages"].size(); ++i) stage_rank[tables["event_stages"][i]] = int(i);
    for (const auto& k : tables["event_kinds"]) stage_of[k["name"]] = k["stage"];
    static const std::set<std::string> wheel_wide = {"pig", "fortuna", "storm", "crown"};
    std::tuple<int, int, int> prev{0, 0, 0};
    std::set<std::string> kinds;
    for (const auto& e : v["events"]) {
      const std::string k = e["kind"];
      kinds.insert(k);
      ASSERT_TRUE(e.contains("where")) << e.dump();
      EXPECT_EQ(e["where"], wheel_wide.count(k) ? "wheel" : "board") << e.dump();
      if (e["where"] == "board") EXPECT_TRUE(e.contains("tile")) << e.dump();
      const bool fin = e["final"];
      const std::tuple<int, int, int> key{fin ? 1 : 0, fin ? 0 : e["turn"].get<int>(), stage_rank[fin ? "final" : stage_of[k]]};
      EXPECT_LE(prev, key) << "out of order: " << e.dump();
      prev = key;
    }
    EXPECT_TRUE(kinds.count("pig")) << "the pig's moves are in the one log";
    EXPECT_FALSE(v["wheel"].contains("log")) << "no second log";
  }
  for (const auto& e : v["events"])
    if (e["kind"] == "pig") {
      EXPECT_TRUE(e["steps"].get<int>() >= 1 && e["steps"].get<int>() <= 3) << e.dump();
      EXPECT_NE(e["tile"].get<std::string>().find('@'), std::string::npos) << e.dump();
      EXPECT_NE(e["from"], e["to"]);
    }
  // the record keeps the crown placement and the Plague, and replays to the same scores
  Resp rec = get("/api/games/" + id + "/record");
  ASSERT_EQ(rec.status, 200);
  EXPECT_NE(rec.text.find("\"crown:"), std::string::npos);
  EXPECT_NE(rec.text.find("\"plague\""), std::string::npos);
  carc::Replay rp = carc::replay(carc::parse_record(rec.text));
  json scores = v["scores"];  // less what the turn in progress scored (its wheel turned at the draw)
  for (const auto& e : v["events"])
    if (e["turn"].get<int>() > v["turn"].get<int>()) scores[e["player"].get<int>()] = scores[e["player"].get<int>()].get<int>() - e["points"].get<int>();
  EXPECT_EQ(json(rp.state.scores()), scores);
}

// The Wheel of Fortune against an AI seat: the AI decides its own Plague choices (and the human
// theirs when the AI's wheel tile starts the Plague); the game runs to its end.
TEST_F(ServerTest, WheelOfFortuneAiDecidesItsPlague) {
  json g = create(json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Bot"}, {"type", "ai"}, {"ai", "greedy"}}}), 8,
                  json{{"tileset", "wheel-of-fortune"}});
  const std::string id = g["id"];
  json tokens = tokens_of(g);
  int human_plague = 0;
  json v;
  for (int i = 0; i < 300; ++i) {
    v = wait_for_human(id);
    if (v["status"] != "playing") break;
    ASSERT_EQ(v["current_player"], 0);
    json legal = get("/api/games/" + id + "/legal").body;
    if (v["phase"] == "plague") {
      const json& f = legal["plague"][0];
      Resp r = post("/api/games/" + id + "/move", json{{"token", tokens[0]}, {"kind", "plague"}, {"x", f["x"]}, {"y", f["y"]}, {"at", f["at"]}});
      ASSERT_EQ(r.status, 200) << r.text;
      ++human_plague;
      continue;
    }
    ASSERT_EQ(play_one(id, tokens, size_t(i), true).status, 200);
  }
  EXPECT_EQ(v["status"], "finished");
  carc::Record rec = carc::parse_record(get("/api/games/" + id + "/record").text);
  int ai_plague = 0;
  for (size_t t = 0; t < rec.turns.size(); ++t) {
    // turn t's Plague entries: the active player first, then in turn order
    const auto& pl = rec.turns[t].plague;
    for (size_t k = 0; k < pl.size(); ++k) ai_plague += 1;
  }
  ai_plague -= human_plague;
  EXPECT_GT(ai_plague, 0) << "the AI never decided a Plague";
  RecordProperty("human_plague_decisions", human_plague);
  EXPECT_EQ(json(carc::replay(rec, true).state.scores()), v["scores"]);
}

// The Wheel of Fortune with the Fortune Teller: a wheel tile among several drawn tiles is
// chosen first ({"kind": "choose"}), which turns the wheel, then placed.
TEST_F(ServerTest, WheelOfFortuneChooseThroughTheApi) {
  json g = create(hotseat(), 2, json{{"tileset", "wheel-of-fortune"}, {"expansions", {"fortune-teller"}}});
  const std::string id = g["id"];
  json tokens = tokens_of(g);
  const std::string move_path = "/api/games/" + id + "/move";
  bool chose = false;
  for (int step = 0; step < 400 && !chose; ++step) {
    json v = get("/api/games/" + id).body;
    if (v["status"] != "playing") break;
    const int p = v["current_player"];
    json legal = get("/api/games/" + id + "/legal").body;
    if (v["phase"] == "plague") {
      const json& f = legal["plague"][0];
      ASSERT_EQ(post(move_path, json{{"token", tokens[p]}, {"kind", "plague"}, {"x", f["x"]}, {"y", f["y"]}, {"at", f["at"]}}).status, 200);
      continue;
    }
    if (legal.contains("choices")) {
      const json& c = legal["choices"][0];
      const std::string tile = c["tile"];
      for (const auto& pl : legal["placements"]) EXPECT_NE(pl["choice"], c["choice"]);  // placed only once chosen
      // placing it without choosing it first is refused
      Resp bad = post(move_path, json{{"token", tokens[p]}, {"tile", tile}, {"x", 0}, {"y", -1}, {"rotation", 0}});
      EXPECT_EQ(bad.status, 422) << bad.text;
      EXPECT_NE(bad.body.value("error", "").find("choose it first"), std::string::npos) << bad.text;
      Resp r = post(move_path, json{{"token", tokens[p]}, {"kind", "choose"}, {"tile", tile}, {"turn", legal["turn"]}});
      ASSERT_EQ(r.status, 200) << r.text;
      EXPECT_EQ(r.body["chosen"], c["choice"]);
      EXPECT_EQ(r.body["tile"], tile);
      json last;  // the pig's move of this turn (the wheel's event may score after it)
      for (const auto& e : r.body["events"])
        if (e["kind"] == "pig") last = e;
      ASSERT_TRUE(last.is_object()) << r.body["events"].dump();
      EXPECT_EQ(last["turn"], legal["turn"]);
      EXPECT_EQ(last["tile"], tile);
      EXPECT_EQ(last["steps"], c["wheel"]);
      // choosing again is refused
      EXPECT_EQ(post(move_path, json{{"token", tokens[r.body["current_player"].get<int>()]}, {"kind", "choose"}, {"tile", tile}}).status, 422);
      chose = true;
      continue;
    }
    // prefer a fortune teller on a tent (draws more tiles), else the first follower spot
    const json* pick = &legal["placements"][size_t(step) % legal["placements"].size()];
    std::string meeple;
    for (const auto& pl : legal["placements"])
      for (const auto& m : pl["followers"])
        if (m["kind"] == "tent" && meeple.empty()) {
          pick = &pl;
          meeple = m["at"];
        }
    json mv = {{"token", tokens[p]}, {"x", (*pick)["x"]}, {"y", (*pick)["y"]}, {"rotation", (*pick)["rotation"]},
               {"choice", pick->value("choice", 0)}};
    if (!meeple.empty()) mv["follower"] = meeple;
    Resp r = post(move_path, mv);
    ASSERT_EQ(r.status, 200) << r.text;
  }
  EXPECT_TRUE(chose) << "no wheel tile to choose among several drawn";
  EXPECT_NO_THROW(carc::replay(carc::parse_record(get("/api/games/" + id + "/record").text)));
}

// The Wheel of Fortune with the Festival: a festival tile may take back a follower from a crown
// space ({"take_back": {"at": "crown:..."}}); a space the player does not hold is refused.
TEST_F(ServerTest, WheelOfFortuneFestivalCrownTakeBack) {
  json g = create(hotseat(), 6, json{{"tileset", "wheel-of-fortune"}, {"expansions", {"festival"}}});
  const std::string id = g["id"];
  json tokens = tokens_of(g);
  const std::string move_path = "/api/games/" + id + "/move";
  bool took_back = false;
  for (int step = 0; step < 300 && !took_back; ++step) {
    json v = get("/api/games/" + id).body;
    if (v["status"] != "playing") break;
    const int p = v["current_player"];
    json legal = get("/api/games/" + id + "/legal").body;
    if (v["phase"] == "plague") {
      const json& f = legal["plague"][0];
      ASSERT_EQ(post(move_path, json{{"token", tokens[p]}, {"kind", "plague"}, {"x", f["x"]}, {"y", f["y"]}, {"at", f["at"]}}).status, 200);
      continue;
    }
    const json& pl = legal["placements"][size_t(step) % legal["placements"].size()];
    json mv = {{"token", tokens[p]}, {"x", pl["x"]}, {"y", pl["y"]}, {"rotation", pl["rotation"]}};
    for (const auto& r : pl["take_backs"]) {
      if (!r.value("crown", false)) continue;
      const std::string space = r["at"];
      // a space the player does not hold is refused
      for (const auto& seg : v["wheel"]["segments"])
        for (const auto& c : seg["crowns"])
          if (c["player"] != p) {
            json bad = mv;
            bad["take_back"] = {{"at", c["space"]}};
            Resp rb = post(move_path, bad);
            EXPECT_EQ(rb.status, 422) << rb.text;
            EXPECT_NE(rb.body.value("error", "").find("no follower on crown:"), std::string::npos) << rb.text;
          }
      mv["take_back"] = {{"at", space}};
      Resp res = post(move_path, mv);
      ASSERT_EQ(res.status, 200) << res.text;
      EXPECT_GE(res.body["supply"][p].get<int>(), v["supply"][p].get<int>() + 1);
      took_back = true;
      break;
    }
    if (took_back) break;
    // otherwise fill crown spaces while there are free ones
    if (!pl["crowns"].empty()) mv["follower"] = pl["crowns"][0];
    else if (!pl["plain"].get<bool>() && !pl["followers"].empty()) mv["follower"] = pl["followers"][0]["at"];
    Resp r = post(move_path, mv);
    ASSERT_EQ(r.status, 200) << r.text;
  }
  EXPECT_TRUE(took_back) << "no festival tile offered a crown take-back";
  Resp rec = get("/api/games/" + id + "/record");
  carc::Record parsed = carc::parse_record(rec.text);
  EXPECT_TRUE(std::any_of(parsed.turns.begin(), parsed.turns.end(), [](const carc::TurnRecord& t) { return t.take_back && t.take_back->crown(); }));
  EXPECT_NO_THROW(carc::replay(parsed));
}

// Games saved by the server of main at a166acf (record format 1 with "meeple"/"return", the turn
// in progress in meta.pending: tests/fixtures/saved-v1/gen.py made them) load, show the same
// position (the tile drawn, the wheel tile chosen, the Plague take-back made), go on, and are
// saved again in format 2, the turn in progress inside the record.
TEST_F(ServerTest, LoadsGamesSavedInFormat1) {
  std::ifstream in(std::string(CARC_SOURCE_DIR) + "/tests/fixtures/saved-v1/main-a166acf.json");
  ASSERT_TRUE(in) << "tests/fixtures/saved-v1/main-a166acf.json";
  const json rows = json::parse(in);
  auto quoted = [](const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
    return q + "'";
  };
  for (const auto& [name, row] : rows.items()) {
    ASSERT_EQ(row["record"]["format"], "carcassonne-record/1") << name;
    // Saved just now (an old "updated" would expire it as an idle game).
    const std::string now = std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                               std::chrono::system_clock::now().time_since_epoch())
                                               .count());
    sql("INSERT INTO games (id, created, updated, meta, record) VALUES (" + quoted(row["id"]) + ", " + now + ", " + now + ", " +
        quoted(row["meta"].dump()) + ", " + quoted(row["record"].dump()) + ")");
  }
  restart();  // nothing cached: every game is read from its row
  for (const auto& [name, row] : rows.items()) {
    SCOPED_TRACE(name);
    const std::string id = row["id"];
    const json& pending = row["meta"]["pending"];
    Resp r = get("/api/games/" + id);
    ASSERT_EQ(r.status, 200) << r.text;
    const json& v = r.body;
    EXPECT_EQ(v["turn"], row["meta"]["summary"]["turn"]);
    EXPECT_EQ(v["current_player"], row["meta"]["summary"]["current_player"]);
    EXPECT_EQ(v["scores"], row["meta"]["summary"]["scores"]);
    // The saved draws are the tiles drawn now, the saved choice is the chosen tile.
    std::vector<std::string> drawn;
    for (const auto& d : v["drawn"]) drawn.push_back(d["tile"]);
    if (pending["draws"].size() == 1) EXPECT_EQ(v["tile"], pending["draws"][0]);
    else EXPECT_EQ(drawn, pending["draws"].get<std::vector<std::string>>());
    if (pending.contains("choice")) EXPECT_EQ(v["chosen"], pending["choice"]);
    if (pending.contains("plague")) {
      EXPECT_EQ(v["phase"], "plague");
      bool logged = false;  // the take-back saved in the meta is in the wheel's log of this turn
      for (const auto& e : v["events"])
        logged |= e["kind"] == "plague" && e["turn"] == v["turn"].get<int>() + 1 && e["x"] == pending["plague"][0]["x"] &&
                  e["y"] == pending["plague"][0]["y"] && e["at"] == pending["plague"][0]["at"];
      EXPECT_TRUE(logged) << v["events"].dump();
    }
    // The game goes on: one legal move by the seat to decide.
    const json legal = get("/api/games/" + id + "/legal").body;
    const int p = v["current_player"];
    json mv = {{"token", row["tokens"][p]}};
    if (legal["phase"] == "plague") {
      mv.update({{"kind", "plague"}, {"x", legal["plague"][0]["x"]}, {"y", legal["plague"][0]["y"]}, {"at", legal["plague"][0]["at"]}});
    } else {
      const json& pl = legal["placements"][0];
      mv.update({{"x", pl["x"]}, {"y", pl["y"]}, {"rotation", pl["rotation"]}, {"choice", pl["choice"]}});
      if (!pl["plain"].get<bool>()) mv["follower"] = pl["followers"][0]["at"];
      if (pl.contains("fruit_types")) mv["fruit_type"] = pl["fruit_types"][0];
    }
    Resp moved = post("/api/games/" + id + "/move", mv);
    ASSERT_EQ(moved.status, 200) << mv.dump() << " -> " << moved.text;
    // Saved again in format 2: the old names are gone, the turn in progress is in the record.
    const std::string stored = sql("SELECT record FROM games WHERE id = " + quoted(id));
    const json rec = json::parse(stored);
    EXPECT_EQ(rec["format"], "carcassonne-record/2");
    EXPECT_EQ(stored.find("\"meeple\""), std::string::npos);
    EXPECT_EQ(stored.find("\"return\""), std::string::npos);
    EXPECT_TRUE(rec.contains("pending")) << stored.substr(stored.size() - 200);
    EXPECT_FALSE(json::parse(sql("SELECT meta FROM games WHERE id = " + quoted(id))).contains("pending"));
    // ... and that row loads again into the same position.
    restart();
    Resp again = get("/api/games/" + id);
    ASSERT_EQ(again.status, 200) << again.text;
    EXPECT_EQ(again.body["board"], moved.body["board"]);
    EXPECT_EQ(again.body["tile"], moved.body["tile"]);
    EXPECT_EQ(again.body["drawn"], moved.body["drawn"]);
    EXPECT_EQ(again.body["phase"], moved.body["phase"]);
  }
}
