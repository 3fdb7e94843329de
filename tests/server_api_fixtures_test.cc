// Real responses of the server's JSON API, written as fixtures for the web client's type check
// (web/tests/api-types.mjs compiles web/src/api.ts's types against them with tsc, so a change of
// the server's JSON or of the client's types that makes them disagree fails the tests).
//
// Every run writes the fixtures to BUILD/api-fixtures/ (what scripts/test.sh checks, fresh from
// this build); CARC_UPDATE_GOLDEN=1 also writes them to tests/fixtures/api/ (the committed copy,
// used when no build is at hand). Each file is {"type": TypeScript type name, "value": response}.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "http_client.h"
#include "public_view.h"
#include "record.h"
#include "server.h"

using json = nlohmann::json;
namespace fs = std::filesystem;
using carc::server::Server;
using carc::server::ServerOptions;

namespace {

class ApiFixtures : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("carc-api-fixtures-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    ServerOptions o;
    o.host = "127.0.0.1";
    o.port = 0;
    o.db_path = (dir_ / "games.sqlite").string();
    o.ai_threads = 1;
    o.ai_delay_ms = 0;
    o.hint_iterations = 300;  // a hint's shape, not its quality
    server_ = std::make_unique<Server>(o);
    port_ = server_->start();
    out_ = fs::path(CARC_BINARY_DIR) / "api-fixtures";
    fs::remove_all(out_);
    fs::create_directories(out_);
  }
  void TearDown() override {
    server_.reset();
    fs::remove_all(dir_);
  }
  json get(const std::string& path) {
    auto r = testhttp::get(port_, path);
    EXPECT_EQ(r.status, 200) << path << ": " << r.body;
    return json::parse(r.body);
  }
  json post(const std::string& path, const json& body, int status = 200) {
    auto r = testhttp::post(port_, path, body.dump());
    EXPECT_EQ(r.status, status) << path << ": " << r.body;
    return json::parse(r.body);
  }
  // Writes one fixture: the response and the TypeScript type (web/src/api.ts) it must fit.
  void write(const std::string& name, const std::string& type, const json& value) {
    ASSERT_FALSE(value.is_null()) << name;
    const json f = {{"type", type}, {"value", value}};
    std::ofstream(out_ / (name + ".json")) << f.dump(1) << "\n";
    if (const char* u = std::getenv("CARC_UPDATE_GOLDEN"); u && std::string(u) == "1") {
      const fs::path golden = fs::path(CARC_SOURCE_DIR) / "tests" / "fixtures" / "api";
      fs::create_directories(golden);
      std::ofstream(golden / (name + ".json")) << f.dump(1) << "\n";
    }
    ++written_;
  }
  // Plays `turns` moves of a hot-seat game: the first placement with a follower when offered,
  // the first Plague or wheel-tile choice when one is due; returns the last legal moves seen of
  // each phase ("place", "plague", "choose").
  std::map<std::string, json> play(const std::string& id, const json& tokens, int turns) {
    std::map<std::string, json> seen;
    for (int i = 0; i < turns; ++i) {
      json v = get("/api/games/" + id);
      if (v["status"] != "playing") break;
      json legal = get("/api/games/" + id + "/legal");
      const json token = tokens[v["current_player"].get<int>()];
      json mv = {{"token", token}, {"turn", legal["turn"]}};
      if (legal.value("phase", "") == "plague") {
        seen["plague"] = legal;
        const json& f = legal["plague"][0];
        mv.update({{"kind", "plague"}, {"x", f["x"]}, {"y", f["y"]}, {"at", f["at"]}});
      } else if (legal.contains("choices") && !legal["choices"].empty() && legal["placements"].empty()) {
        seen["choose"] = legal;
        mv.update({{"kind", "choose"}, {"choice", legal["choices"][0]["choice"]}});
      } else {
        seen["place"] = legal;
        if (legal.contains("choices") && !legal["choices"].empty()) seen["choose-or-place"] = legal;
        // The expansions' offers, each kept as its own fixture (schema/gen.py --coverage checks
        // that every expansion's shape is shown), and taken now and then so that the record and
        // the views show them too: a Festival take-back, a fruit harvest or sale.
        const json* harvest = nullptr;
        const json* sale = nullptr;
        const json* take_back = nullptr;
        for (const auto& p : legal["placements"]) {
          if (!p["take_backs"].empty()) {
            seen["take-back"] = legal;
            for (const auto& t : p["take_backs"]) if (t.value("crown", false)) seen["take-back-crown"] = legal;
            if (!take_back) take_back = &p;
          }
          if (p.contains("crowns") && !p["crowns"].empty()) seen["crown"] = legal;
          if (p.contains("fruit_types")) seen["fruit-type"] = legal;
          if (p.contains("fruit") && !p["fruit"]["harvest"].empty() && !p["followers"].empty()) {
            seen["fruit-harvest"] = legal;
            if (!harvest) harvest = &p;
            // a tree tile: a harvest offered with a stack other than the default (the first)
            for (const auto& h : p["fruit"]["harvest"])
              if (h.contains("fruit_type") && h["fruit_type"] != p["fruit_types"][0]) seen["fruit-harvest-stack"] = legal;
          }
          if (p.contains("fruit") && !p["fruit"]["sell"].empty() && !p["followers"].empty() && !sale) sale = &p;
        }
        const json* chosen = &legal["placements"][size_t(i * 7) % legal["placements"].size()];
        enum { kPlain, kSell, kHarvest, kTakeBack } action = kPlain;  // one placement may offer several
        if (sale) chosen = sale, action = kSell;
        else if (harvest && i % 2 == 0) chosen = harvest, action = kHarvest;
        else if (take_back && i % 3 == 0) chosen = take_back, action = kTakeBack;
        const json& pl = *chosen;
        mv.update({{"x", pl["x"]}, {"y", pl["y"]}, {"rotation", pl["rotation"]}});
        if (pl.contains("choice")) mv["choice"] = pl["choice"];
        if (pl.contains("fruit_types")) mv["fruit_type"] = pl["fruit_types"][0];
        if (action == kTakeBack) {
          const json& t = pl["take_backs"][0];
          mv["take_back"] = t.value("crown", false) ? json{{"at", t["at"]}} : json{{"x", t["x"]}, {"y", t["y"]}, {"at", t["at"]}};
        } else if (!pl["followers"].empty()) {
          mv["follower"] = pl["followers"][0]["at"];
          if (action == kHarvest) {
            // the last harvest offered: on a tree tile, one with the last stack (not the default)
            const json& h = pl["fruit"]["harvest"].back();
            mv["fruit"] = {{"harvest", {{"x", h["x"]}, {"y", h["y"]}}}};
            if (h.contains("fruit_type")) mv["fruit_type"] = h["fruit_type"];
          }
          else if (action == kSell) mv["fruit"] = {{"sell", json::array({pl["fruit"]["sell"][0]})}};
        } else if (pl.contains("crowns") && !pl["crowns"].empty()) {
          mv["follower"] = pl["crowns"][0];
        }
      }
      post("/api/games/" + id + "/move", mv);
    }
    return seen;
  }

  fs::path dir_, out_;
  int port_ = 0;
  int written_ = 0;
  std::unique_ptr<Server> server_;
};

}  // namespace

TEST_F(ApiFixtures, WriteRealResponses) {
  write("tables", "Tables", get("/api/tables"));
  write("players", "PlayersList", get("/api/players"));
  write("tiles-base", "TileSet", get("/api/tiles?tileset=base"));
  write("tiles-wheel", "TileSet", get("/api/tiles?tileset=wheel-of-fortune&expansions=festival,fortune-teller,fruit-trees"));
  const json seats = json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Ben"}, {"type", "human"}}});
  struct Setup {
    std::string name, tileset;
    std::vector<std::string> expansions;
    int turns;
    int seed = 5;
  };
  for (const Setup& su : {Setup{"base", "base", {}, 30},
                          Setup{"wheel", "wheel-of-fortune", {"festival", "fortune-teller", "fruit-trees"}, 60},
                          Setup{"fruit", "base", {"festival", "fruit-trees"}, 50},
                          Setup{"wheel2", "wheel-of-fortune", {"festival", "fortune-teller"}, 70, 1}}) {
    json created = post("/api/games", {{"players", seats}, {"seed", su.seed}, {"tileset", su.tileset}, {"expansions", su.expansions}}, 201);
    write("created-" + su.name, "CreatedGame", created);
    const std::string id = created["id"];
    json tokens = json::array();
    for (const auto& s : created["seats"]) tokens.push_back(s["token"]);
    const auto legal = play(id, tokens, su.turns);
    for (const auto& [phase, l] : legal) write("legal-" + su.name + "-" + phase, "Legal", l);
    write("game-" + su.name, "GameView", get("/api/games/" + id));
    const json view = get("/api/games/" + id);
    if (view["status"] == "playing")
      write("hint-" + su.name, "Hint", post("/api/games/" + id + "/hint", {{"token", tokens[view["current_player"].get<int>()]}}));
    write("replay-" + su.name, "GameView", get("/api/games/" + id + "/replay?turn=3"));
    write("join-" + su.name, "JoinedGame", post("/api/games/" + id + "/join", {{"token", tokens[1]}}));
    // The record (format 2) as downloaded, and the engine's public view of its position.
    auto rec = testhttp::get(port_, "/api/games/" + id + "/record");
    ASSERT_EQ(rec.status, 200) << rec.body;
    write("record-" + su.name, "GameRecord", json::parse(rec.body));
    const carc::Replay rp = carc::replay(carc::parse_record(rec.body));
    write("public-view-" + su.name, "PublicView", json::parse(carc::public_view(rp.state, 0).dump()));
  }
  write("games", "GamesList", get("/api/games"));
  EXPECT_GE(written_, 15);
}
