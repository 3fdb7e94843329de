// Fair play on a public server (issue #33, docs/security.md "Fair AI scheduling", "Quotas and
// lifetimes", "Fair draws"): the AI pool's shares and priorities, the per-client caps on AI
// games and hints, the creation and upload quotas (429 with Retry-After), secret and verifiable
// draws in games with several people, expiry of idle games, the operator's pause and delete, and
// an abuse load test: one address floods the server with AI work while another gets its AI
// replies and hints in time.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "ai_pool.h"
#include "mcts.h"
#include "store.h"
#include "quota.h"
#include "record.h"
#include "secure.h"
#include "server_fixture.h"
#include "server_limits.h"

using json = nlohmann::json;
using carc::server::AiLimits;
using carc::server::AiPool;
using carc::server::make_ai;
namespace ai = carc::ai;
using carc::server::AiPriority;
using namespace std::chrono_literals;

namespace {

using servertest::Resp;
using Clock = std::chrono::steady_clock;

// --- the pool on its own ---------------------------------------------------------------------

// Records when each task started and how many of each owner ran at once.
struct Probe {
  std::mutex m;
  std::map<std::string, int> now, peak;
  std::map<std::string, Clock::time_point> first_start;
  int background_now = 0, background_peak = 0;
  std::function<void()> task(const std::string& owner, std::chrono::milliseconds d, bool background = false) {
    return [this, owner, d, background] {
      {
        std::lock_guard lk(m);
        peak[owner] = std::max(peak[owner], ++now[owner]);
        if (!first_start.count(owner)) first_start[owner] = Clock::now();
        if (background) background_peak = std::max(background_peak, ++background_now);
      }
      std::this_thread::sleep_for(d);
      std::lock_guard lk(m);
      --now[owner];
      if (background) --background_now;
    };
  }
};

// Before: the queue was first in, first out, so a second client's task waited behind every task
// of the first (here 6 x 200 ms on 2 workers: 600 ms). Now one client holds at most one of the
// two workers, and the other client's task starts at once.
TEST(AiPoolFairness, OneClientHoldsAtMostItsShareAndAnotherStartsAtOnce) {
  AiPool pool;
  pool.start(2);
  EXPECT_EQ(pool.owner_share(), 1);
  Probe probe;
  const auto t0 = Clock::now();
  for (int i = 0; i < 6; ++i) pool.post(t0, probe.task("flood", 200ms), nullptr, "flood");
  std::this_thread::sleep_for(20ms);
  const auto posted = Clock::now();
  pool.post(posted, probe.task("victim", 10ms), nullptr, "victim");
  for (int i = 0; i < 300 && !probe.first_start.count("victim"); ++i) std::this_thread::sleep_for(5ms);
  std::lock_guard lk(probe.m);
  ASSERT_TRUE(probe.first_start.count("victim"));
  EXPECT_LT(probe.first_start["victim"] - posted, 100ms) << "the victim's task waited behind the flood";
  EXPECT_EQ(probe.peak["flood"], 1) << "one client ran on more than its share of the workers";
}

// Interactive tasks come before background ones, and background tasks (games of computers
// only) never hold more than their share, whoever owns them.
TEST(AiPoolFairness, BackgroundTasksKeepToTheirShareAndComeLast) {
  AiPool pool;
  pool.start(2);
  Probe probe;
  const auto t0 = Clock::now();
  for (int i = 0; i < 4; ++i)
    pool.post(t0, probe.task("bg" + std::to_string(i), 150ms, true), nullptr, "bg" + std::to_string(i), AiPriority::Background);
  std::this_thread::sleep_for(20ms);
  const auto posted = Clock::now();
  pool.post(posted, probe.task("human", 10ms), nullptr, "human", AiPriority::Interactive);
  for (int i = 0; i < 300 && !probe.first_start.count("human"); ++i) std::this_thread::sleep_for(5ms);
  std::this_thread::sleep_for(400ms);
  std::lock_guard lk(probe.m);
  ASSERT_TRUE(probe.first_start.count("human"));
  EXPECT_LT(probe.first_start["human"] - posted, 100ms);
  EXPECT_EQ(probe.background_peak, 1);
}

// The expert level on a server: every AI thread the server allows and at most its time per move,
// whatever the machine's cores; an explicit parameter beyond a cap is refused as in any spec.
TEST(AiLevels, ExpertTakesTheServersThreadsAndTime) {
  AiLimits limits;
  limits.max_threads = 3;
  limits.max_seconds = 2;
  auto p = make_ai("mcts:level=expert", 1, limits);
  const auto* m = dynamic_cast<const ai::MctsPlayer*>(p.get());
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->config().threads, 3);
  EXPECT_DOUBLE_EQ(m->config().time, 2.0);
  EXPECT_EQ(m->config().prior, 0);
  limits.max_seconds = 10;
  auto q = make_ai("mcts:level=expert", 1, limits);
  EXPECT_DOUBLE_EQ(dynamic_cast<const ai::MctsPlayer*>(q.get())->config().time, ai::kExpertSeconds);
  EXPECT_THROW(make_ai("mcts:level=expert:threads=4", 1, limits), std::invalid_argument);
  EXPECT_THROW(make_ai("mcts:level=expert:time=11s", 1, limits), std::invalid_argument);
}

TEST(Quota, TokenBucketRefusesWithTheWaitAndRefills) {
  carc::server::RateLimiter rl(3, 1000ms, 10);
  const auto t = Clock::now();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(rl.take("a", t).count(), 0) << i;
  const auto wait = rl.take("a", t);
  EXPECT_GT(wait.count(), 900);
  EXPECT_LE(wait.count(), 1000);
  EXPECT_EQ(rl.take("b", t).count(), 0) << "another key has its own bucket";
  EXPECT_EQ(rl.take("a", t + 1001ms).count(), 0) << "refilled";
  EXPECT_GT(rl.take("a", t + 1001ms).count(), 0);
  // At the cap on keys, full buckets are forgotten first; the busy one stays empty.
  for (int i = 0; i < 20; ++i) rl.take("k" + std::to_string(i), t + 1001ms);
  EXPECT_GT(rl.take("a", t + 1002ms).count(), 0);
}

TEST(Quota, AddressKeys) {
  using carc::server::address_key;
  EXPECT_EQ(address_key("203.0.113.7"), "203.0.113.7");
  EXPECT_EQ(address_key("::ffff:203.0.113.7"), "203.0.113.7");
  EXPECT_EQ(address_key("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
  EXPECT_EQ(address_key("2001:db8:1:2::1"), address_key("2001:db8:1:2:ffff::9"));
  EXPECT_NE(address_key("2001:db8:1:2::1"), address_key("2001:db8:1:3::1"));
  EXPECT_EQ(address_key("not an address"), "not an address");
}

TEST(Quota, ForwardedClientTrustsOnlyItsProxies) {
  using carc::server::forwarded_client;
  const std::vector<std::string> proxies = {"10.0.0.1", "10.0.0.2"};
  EXPECT_EQ(forwarded_client("198.51.100.9", "203.0.113.5", proxies), "198.51.100.9") << "not a proxy: its header is ignored";
  EXPECT_EQ(forwarded_client("10.0.0.1", "", proxies), "10.0.0.1");
  EXPECT_EQ(forwarded_client("10.0.0.1", "203.0.113.5", proxies), "203.0.113.5");
  // A client may prepend anything; the rightmost address no trusted proxy added is the client.
  EXPECT_EQ(forwarded_client("10.0.0.1", "1.2.3.4, 203.0.113.5", proxies), "203.0.113.5");
  EXPECT_EQ(forwarded_client("10.0.0.1", "1.2.3.4, 203.0.113.5, 10.0.0.2", proxies), "203.0.113.5");
  EXPECT_EQ(forwarded_client("10.0.0.1", "2001:db8::7", proxies), "2001:db8::7");
  EXPECT_EQ(forwarded_client("10.0.0.1", "garbage, 203.0.113.5", proxies), "203.0.113.5");
  EXPECT_EQ(forwarded_client("10.0.0.1", "203.0.113.5, garbage", proxies), "10.0.0.1") << "a malformed hop stops the walk";
  EXPECT_EQ(forwarded_client("10.0.0.1", ",,", proxies), "10.0.0.1");
  EXPECT_EQ(forwarded_client("10.0.0.1", "10.0.0.2", proxies), "10.0.0.2");
}

// --- through the API ---------------------------------------------------------------------------

const char* kA = "127.0.0.2";
const char* kB = "127.0.0.3";

json humans_vs(const std::string& ai) {
  return json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Bot"}, {"type", "ai"}, {"ai", ai}}});
}
json bots(const std::string& ai) {
  return json::array({{{"name", "B1"}, {"type", "ai"}, {"ai", ai}}, {{"name", "B2"}, {"type", "ai"}, {"ai", ai}}});
}
const json kWithFriend = json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Ben"}, {"type", "remote"}}});

class FairnessTest : public servertest::ServerFixture {
 protected:
  FairnessTest() : ServerFixture("fairness-test") {}
  Resp create_as(const char* from, const json& players, json extra = json::object()) {
    extra["players"] = players;
    return post_as(from, "/api/games", extra);
  }
  // Plays the current player's first legal placement (with its first follower if it needs one).
  Resp play_first(const std::string& id, const std::string& token) {
    json legal = get("/api/games/" + id + "/legal").body;
    const json& pl = legal["placements"][0];
    json mv = {{"token", token}, {"x", pl["x"]}, {"y", pl["y"]}, {"rotation", pl["rotation"]}, {"turn", legal["turn"]}};
    if (!pl["plain"].get<bool>()) mv["follower"] = pl["followers"][0]["at"];
    return post("/api/games/" + id + "/move", mv);
  }
  void age_all_games(int64_t ms_ago) {
    const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    sql("UPDATE games SET updated = " + std::to_string(now - ms_ago));
  }
};

TEST_F(FairnessTest, CreatesAndUploadsPerClientAre429WithRetryAfter) {
  opts_.quotas.create_burst = 3;
  opts_.quotas.upload_burst = 2;
  restart();
  const json hot = json::array({{{"name", "A"}, {"type", "human"}}, {{"name", "B"}, {"type", "human"}}});
  for (int i = 0; i < 3; ++i) ASSERT_EQ(create_as(kA, hot).status, 201) << i;
  Resp r = create_as(kA, hot);
  EXPECT_EQ(r.status, 429) << r.text;
  EXPECT_NE(r.text.find("too many new games"), std::string::npos) << r.text;
  ASSERT_TRUE(r.headers.count("retry-after"));
  const int retry = std::stoi(r.headers["retry-after"]);
  EXPECT_GE(retry, 1);
  EXPECT_LE(retry, int(carc::server::limits::kCreateRefill.count() / 1000));
  EXPECT_EQ(create_as(kB, hot).status, 201) << "another client has its own quota";
  // Uploads: their own bucket.
  json g = create_as(kB, hot).body;
  const std::string rec = get("/api/games/" + g["id"].get<std::string>() + "/record").text;
  for (int i = 0; i < 2; ++i)
    EXPECT_EQ(post_as(kA, "/api/games/upload", json{{"record", rec}, {"mode", "view"}}).status, 201) << i;
  Resp u = post_as(kA, "/api/games/upload", json{{"record", rec}, {"mode", "view"}});
  EXPECT_EQ(u.status, 429) << u.text;
  EXPECT_TRUE(u.headers.count("retry-after"));
}

// Behind a reverse proxy every client has the proxy's address: with --trusted-proxy its
// X-Forwarded-For names the client, so each has its own quota; without it the header is ignored.
TEST_F(FairnessTest, QuotasBehindATrustedProxyAreThoseOfTheForwardedClient) {
  opts_.quotas.create_burst = 1;
  opts_.trusted_proxies = {"127.0.0.1"};
  restart();
  const std::string hot = json{{"players", json::array({{{"name", "A"}, {"type", "human"}}, {{"name", "B"}, {"type", "human"}}})}}.dump();
  auto create_for = [&](const std::string& xff) {
    return testhttp::request(port_, "POST", "/api/games", hot, "X-Forwarded-For: " + xff + "\r\n").status;
  };
  EXPECT_EQ(create_for("203.0.113.1"), 201);
  EXPECT_EQ(create_for("203.0.113.1"), 429);
  EXPECT_EQ(create_for("203.0.113.2"), 201) << "another client behind the same proxy";
  EXPECT_EQ(create_for("203.0.113.2, 127.0.0.1"), 429) << "a trusted hop is skipped";
  // From an address that is not a trusted proxy the header means nothing.
  EXPECT_EQ(post_as(kA, "/api/games", json::parse(hot)).status, 201);
  EXPECT_EQ(testhttp::request_as(kA, port_, "POST", "/api/games", hot).status, 429);
}

// Before: any number of AI games per client (the audit made 50 of computers only).
TEST_F(FairnessTest, AiGamesPerClientAreCapped) {
  const int cap = carc::server::limits::kMaxAiGamesPerAddress;
  const int only = carc::server::limits::kMaxAiOnlyGamesPerAddress;
  for (int i = 0; i < only; ++i) ASSERT_EQ(create_as(kA, bots("mcts:iterations=200")).status, 201) << i;
  Resp r = create_as(kA, bots("greedy"));
  EXPECT_EQ(r.status, 429) << r.text;
  EXPECT_NE(r.text.find("computers only"), std::string::npos) << r.text;
  for (int i = only; i < cap; ++i) ASSERT_EQ(create_as(kA, humans_vs("greedy")).status, 201) << i;
  Resp h = create_as(kA, humans_vs("greedy"));
  EXPECT_EQ(h.status, 429) << h.text;
  EXPECT_EQ(create_as(kB, humans_vs("greedy")).status, 201) << "another client has its own cap";
  // A game without an AI is not an AI game.
  EXPECT_EQ(create_as(kA, kWithFriend).status, 201);
  // The cap counts unfinished games: after a restart it is read back from the database.
  restart();
  EXPECT_EQ(create_as(kA, humans_vs("greedy")).status, 429);
}

// Games of computers only search at most kAiOnlyMoveTime on one thread, whatever they asked.
TEST_F(FairnessTest, GamesOfComputersOnlyAreCappedInTime) {
  Resp r = create_as(kA, bots("mcts:time=10s:threads=2"));
  ASSERT_EQ(r.status, 201) << r.text;
  const std::string id = r.body["id"];
  const auto t0 = Clock::now();
  for (int i = 0; i < 2000; ++i) {
    if (get("/api/games/" + id).body["turn"].get<int>() >= 2) break;
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_GE(get("/api/games/" + id).body["turn"].get<int>(), 2);
  EXPECT_LT(Clock::now() - t0, 5s) << "two moves of a 10 s spec should take about 2 x 1 s";
}

TEST_F(FairnessTest, HintsPerClientAtOnce) {
  opts_.hint_iterations = 100'000;  // a hint then runs until kHintTime (2 s)
  opts_.ai_max_iterations = 100'000;
  restart();
  const json hot = json::array({{{"name", "A"}, {"type", "human"}}, {{"name", "B"}, {"type", "human"}}});
  json g1 = create_as(kA, hot).body, g2 = create_as(kA, hot).body, g3 = create_as(kB, hot).body;
  auto tok = [](const json& g) { return g["seats"][0]["token"].get<std::string>(); };
  auto first = std::async(std::launch::async, [&] {
    return post_as(kA, "/api/games/" + g1["id"].get<std::string>() + "/hint", json{{"token", tok(g1)}});
  });
  std::this_thread::sleep_for(300ms);
  Resp second = post_as(kA, "/api/games/" + g2["id"].get<std::string>() + "/hint", json{{"token", tok(g2)}});
  EXPECT_EQ(second.status, 429) << second.text;
  EXPECT_NE(second.text.find("a hint of yours"), std::string::npos) << second.text;
  Resp other = post_as(kB, "/api/games/" + g3["id"].get<std::string>() + "/hint", json{{"token", tok(g3)}});
  EXPECT_EQ(other.status, 200) << other.text;
  EXPECT_EQ(first.get().status, 200);
}

// Before: the creator of a game with a remote seat could choose the seed, and so knew every
// coming tile.
TEST_F(FairnessTest, DrawsAreSecretWithSeveralPeopleAndVerifiableAtTheEnd) {
  Resp seeded = create_as(kA, kWithFriend, json{{"seed", 42}});
  EXPECT_EQ(seeded.status, 400) << seeded.text;
  EXPECT_NE(seeded.text.find("'seed' is not allowed"), std::string::npos);
  // Alone (or hot-seat), seeds stay available.
  EXPECT_EQ(create_as(kA, humans_vs("greedy"), json{{"seed", 42}}).status, 201);

  Resp c = create_as(kA, kWithFriend);
  ASSERT_EQ(c.status, 201) << c.text;
  const std::string id = c.body["id"];
  const json fair = c.body["game"]["fair_draws"];
  ASSERT_TRUE(fair.is_object()) << c.body["game"].dump().substr(0, 200);
  EXPECT_EQ(fair["from_turn"], 0);
  const std::string commitment = fair["commitment"];
  EXPECT_EQ(commitment.size(), 64u);
  EXPECT_FALSE(fair.contains("salt")) << "the salt opens the commitment: only at the end";
  EXPECT_FALSE(fair.contains("seed"));
  const std::string tokens[2] = {c.body["seats"][0]["token"], c.body["seats"][1]["token"]};
  // Play the game to the end.
  for (int i = 0; i < 200; ++i) {
    json v = get("/api/games/" + id).body;
    if (v["status"] != "playing") break;
    ASSERT_EQ(play_first(id, tokens[v["current_player"].get<int>()]).status, 200);
  }
  json v = get("/api/games/" + id).body;
  ASSERT_EQ(v["status"], "finished");
  const json opened = v["fair_draws"];
  ASSERT_TRUE(opened.contains("salt") && opened.contains("seed")) << opened.dump();
  EXPECT_EQ(carc::server::draw_commitment(opened["salt"], opened["seed"].get<uint64_t>()), commitment);
  carc::Record rec = carc::parse_record(get("/api/games/" + id + "/record").text);
  EXPECT_EQ(rec.seed, opened["seed"].get<uint64_t>());
  EXPECT_EQ(carc::check_draws_follow_seed(rec, 0), "");
  // A record whose draws were chosen fails the check: swap two turns' tiles where that replays.
  bool tampered = false;
  for (size_t i = 1; i + 1 < rec.turns.size() && !tampered; ++i) {
    carc::Record t = rec;
    if (t.turns[i].tile == t.turns[i + 1].tile || !t.turns[i].drawn.empty()) continue;
    t.keep_turns(i + 1);
    t.turns[i].tile = rec.turns[i + 1].tile;
    try {
      carc::replay(t);
    } catch (const carc::RecordError&) {
      continue;  // not a legal game: try the next pair
    }
    EXPECT_NE(carc::check_draws_follow_seed(t, 0), "");
    tampered = true;
  }
  EXPECT_TRUE(tampered);

  // An upload continued with a remote seat: the record's seed is replaced by a secret one from
  // the upload on.
  carc::Record half = rec;
  half.keep_turns(10);
  Resp up = post_as(kA, "/api/games/upload",
                    json{{"record", carc::record_to_json(half)}, {"mode", "continue"}, {"players", kWithFriend}});
  ASSERT_EQ(up.status, 201) << up.text;
  EXPECT_EQ(up.body["game"]["fair_draws"]["from_turn"], 10);
  EXPECT_NE(up.body["game"]["fair_draws"]["commitment"], commitment);
}

TEST_F(FairnessTest, IdleUnfinishedGamesExpireFinishedOnesStay) {
  const json hot = json::array({{{"name", "A"}, {"type", "human"}}, {{"name", "B"}, {"type", "human"}}});
  json idle = create_as(kA, hot).body;
  json fresh = create_as(kA, hot).body;
  // A finished game (both resign... one resignation ends a two-player game).
  json done = create_as(kA, hot).body;
  ASSERT_EQ(post("/api/games/" + done["id"].get<std::string>() + "/resign", json{{"token", done["seats"][0]["token"]}}).status, 200);
  server_->stop();
  age_all_games(int64_t(24 * 15) * 3600 * 1000);  // 15 days ago: beyond the 14-day lifetime
  start();
  EXPECT_EQ(get("/api/games/" + idle["id"].get<std::string>()).status, 404);
  EXPECT_EQ(get("/api/games/" + fresh["id"].get<std::string>()).status, 404);
  EXPECT_EQ(get("/api/games/" + done["id"].get<std::string>()).status, 200) << "finished games are kept";
  // Within the lifetime nothing expires.
  json kept = create_as(kA, hot).body;
  server_->stop();
  age_all_games(int64_t(24 * 13) * 3600 * 1000);
  start();
  EXPECT_EQ(get("/api/games/" + kept["id"].get<std::string>()).status, 200);
}

TEST_F(FairnessTest, OperatorPausesResumesAndDeletes) {
  const json hot = json::array({{{"name", "A"}, {"type", "human"}}, {{"name", "B"}, {"type", "human"}}});
  json g = create_as(kA, hot).body;
  const std::string id = g["id"];
  const std::string t0 = g["seats"][0]["token"];
  // The operator's command works on the database while the server runs.
  std::unique_ptr<carc::server::Store> store = carc::server::make_store(db_);
  carc::server::Store& db = *store;
  db.open(db_);
  db.set_paused(id, true);
  Resp r = play_first(id, t0);
  EXPECT_EQ(r.status, 423) << r.text;
  EXPECT_EQ(get("/api/games/" + id).body["turn"], 0) << "nothing changed";
  db.set_paused(id, false);
  // The server learns of the resume within kOperatorSyncInterval.
  Resp ok;
  for (int i = 0; i < 200; ++i) {
    ok = play_first(id, t0);
    if (ok.status == 200) break;
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_EQ(ok.status, 200) << ok.text;
  EXPECT_TRUE(db.remove(id));
  Resp gone = play_first(id, g["seats"][1]["token"]);
  EXPECT_EQ(gone.status, 410) << gone.text;
  db.close();
  restart();
  EXPECT_EQ(get("/api/games/" + id).status, 404);
}

// The abuse load test of issue #33: one address floods the AI pool (its games of computers only
// and its human games against the slowest AI the caps allow, plus hints in rotation); another
// address's AI replies and hints still come in time. Before: FIFO over every game, so the
// victim's reply waited behind every flooding game's 10 s search.
TEST_F(FairnessTest, AbuseLoadAHumansAiReplyAndHintsStayQuickWhileAnotherAddressFloods) {
  // The flood: every game the caps allow, each with the heaviest spec.
  const std::string heavy = "mcts:time=10s:threads=2";
  int made = 0;
  for (int i = 0; i < carc::server::limits::kMaxAiOnlyGamesPerAddress; ++i) made += create_as(kA, bots(heavy)).status == 201;
  std::vector<json> flood;
  for (int i = made; i < carc::server::limits::kMaxAiGamesPerAddress; ++i) {
    // The AI moves first: its 10 s search starts at once.
    Resp r = create_as(kA, json::array({{{"name", "Bot"}, {"type", "ai"}, {"ai", heavy}}, {{"name", "F"}, {"type", "human"}}}));
    ASSERT_EQ(r.status, 201) << r.text;
    flood.push_back(r.body);
  }
  EXPECT_EQ(create_as(kA, bots(heavy)).status, 429) << "beyond the caps";
  // Hints in rotation from the flooding address, in the background.
  std::atomic<bool> done{false};
  const json hot = json::array({{{"name", "A"}, {"type", "human"}}, {{"name", "B"}, {"type", "human"}}});
  std::vector<json> hint_games;
  for (int i = 0; i < 4; ++i) hint_games.push_back(create_as(kA, hot).body);
  std::thread hinter([&] {
    for (size_t i = 0; !done; ++i) {
      const json& g = hint_games[i % hint_games.size()];
      post_as(kA, "/api/games/" + g["id"].get<std::string>() + "/hint", json{{"token", g["seats"][0]["token"]}});
    }
  });
  std::this_thread::sleep_for(500ms);  // the flood is running

  // The victim: a human against the lobby's strongest level.
  for (const std::string level : {"greedy", "mcts:level=medium", "mcts:level=hard"}) {
    Resp c = create_as(kB, humans_vs(level));
    ASSERT_EQ(c.status, 201) << c.text;
    const std::string id = c.body["id"];
    ASSERT_EQ(play_first(id, c.body["seats"][0]["token"]).status, 200);
    const auto t0 = Clock::now();
    json v;
    for (int i = 0; i < 4000; ++i) {
      v = get("/api/games/" + id).body;
      if (v["turn"].get<int>() >= 2) break;
      std::this_thread::sleep_for(5ms);
    }
    const auto took = Clock::now() - t0;
    EXPECT_GE(v["turn"].get<int>(), 2) << level;
    EXPECT_LT(took, 5s) << level << ": the AI's reply took "
                        << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms";
    std::printf("[abuse load] %s replied in %lld ms while another address floods\n", level.c_str(),
                (long long)std::chrono::duration_cast<std::chrono::milliseconds>(took).count());
  }
  // The victim's hints are answered, every time.
  const json hot_b = create_as(kB, hot).body;
  for (int i = 0; i < 3; ++i) {
    const auto t0 = Clock::now();
    Resp h = post_as(kB, "/api/games/" + hot_b["id"].get<std::string>() + "/hint", json{{"token", hot_b["seats"][0]["token"]}});
    EXPECT_EQ(h.status, 200) << h.text;
    EXPECT_LT(Clock::now() - t0, 5s);
    std::this_thread::sleep_for(std::chrono::milliseconds(opts_.hint_interval_ms));
  }
  done = true;
  hinter.join();
}

}  // namespace
