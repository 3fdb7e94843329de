// Several server processes on one PostgreSQL database (issue #38; docs/deployment.md): real
// `carcassonne serve` processes (fork + exec of the built binary) on a fresh schema of
// CARC_TEST_PG_URI, which scripts/test-postgres.sh sets after starting a throwaway PostgreSQL;
// without it every test here is skipped (SQLite serves one process).
//   - a move made through one process reaches an event stream on another within a second;
//   - two processes given the same move at once: exactly one 200;
//   - games of computers only on two processes: every AI move searched and saved exactly once;
//     the AI move claimed by a process that dies is played by another after the claim's lease;
//   - kill -9 of one process during a burst of moves: every acknowledged move is in the
//     database, and the clients go on through the other process;
//   - the quotas (games per client, a seat's hint interval) hold across processes;
//   - the store's claims and token buckets themselves (expiry, takeover, stale versions).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "http_client.h"
#include "pg_store.h"

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Reply {
  int status = -1;
  json body;
  std::string text;
};

Reply wrap(const testhttp::Reply& r) {
  Reply out;
  out.status = r.status;
  out.text = r.body;
  if (r.status >= 0) out.body = json::parse(r.body, nullptr, false);
  return out;
}

// One `carcassonne serve` process, its output in a log file.
struct Proc {
  pid_t pid = -1;
  int port = 0;
  std::filesystem::path log;

  Reply get(const std::string& path) const { return wrap(testhttp::request(port, "GET", path, "", "", 10000)); }
  Reply post(const std::string& path, const json& body) const {
    return wrap(testhttp::request(port, "POST", path, body.dump(), "", 10000));
  }
  Reply post_as(const char* from, const std::string& path, const json& body) const {
    return wrap(testhttp::request_as(from, port, "POST", path, body.dump(), 10000));
  }
  std::string output() const {
    std::ifstream f(log);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }
};

class ClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* uri = std::getenv("CARC_TEST_PG_URI");
    if (!uri || !*uri) GTEST_SKIP() << "needs PostgreSQL: run scripts/test-postgres.sh (it sets CARC_TEST_PG_URI)";
    base_ = uri;
    static std::atomic<int> n{0};
    schema_ = "carc_cluster_" + std::to_string(::getpid()) + "_" + std::to_string(n++);
    admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE; CREATE SCHEMA " + schema_);
    db_ = base_ + (base_.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema_;
    dir_ = std::filesystem::temp_directory_path() /
           ("carc-cluster-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    for (Proc& p : procs_) stop(p, SIGTERM);
    if (!schema_.empty()) admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  void admin(const std::string& sql) {
    PGconn* c = PQconnectdb(base_.c_str());
    ASSERT_EQ(PQstatus(c), CONNECTION_OK) << PQerrorMessage(c);
    PQsetNoticeProcessor(c, [](void*, const char*) {}, nullptr);
    PGresult* r = PQexec(c, sql.c_str());
    EXPECT_EQ(PQresultStatus(r), PGRES_COMMAND_OK) << sql << ": " << PQerrorMessage(c);
    PQclear(r);
    PQfinish(c);
  }
  // One column of a query on the test's schema, as strings.
  std::vector<std::string> column(const std::string& sql) {
    std::vector<std::string> out;
    PGconn* c = PQconnectdb(db_.c_str());
    EXPECT_EQ(PQstatus(c), CONNECTION_OK) << PQerrorMessage(c);
    PGresult* r = PQexec(c, sql.c_str());
    EXPECT_EQ(PQresultStatus(r), PGRES_TUPLES_OK) << sql << ": " << PQerrorMessage(c);
    for (int i = 0; PQresultStatus(r) == PGRES_TUPLES_OK && i < PQntuples(r); ++i) out.push_back(PQgetvalue(r, i, 0));
    PQclear(r);
    PQfinish(c);
    return out;
  }
  json stored_record(const std::string& id) {
    auto rows = column("SELECT record FROM games WHERE id = '" + id + "'");
    return rows.size() == 1 ? json::parse(rows[0], nullptr, false) : json();
  }

  // Starts `carcassonne serve` on a free port of 127.0.0.1 on the test's schema; returns once it
  // printed its URL (it serves by then).
  Proc& spawn(std::vector<std::string> extra = {}) {
    Proc p;
    p.log = dir_ / ("serve-" + std::to_string(procs_.size()) + ".log");
    std::vector<std::string> args = {CARC_BINARY_DIR "/carcassonne", "serve", "--port", "0", "--host", "127.0.0.1",
                                     "--db", db_, "--ai-delay", "0", "--web", (dir_ / "no-web").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const int fd = ::open(p.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    EXPECT_GE(fd, 0);
    p.pid = ::fork();
    if (p.pid == 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(fd);
    const std::regex url("http://127\\.0\\.0\\.1:([0-9]+)/");
    for (int i = 0; i < 300 && p.port == 0; ++i) {
      std::smatch m;
      const std::string out = p.output();
      if (std::regex_search(out, m, url)) p.port = std::stoi(m[1]);
      if (p.port == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_NE(p.port, 0) << "carcassonne serve did not start: " << p.output();
    procs_.push_back(p);
    return procs_.back();
  }
  static void stop(Proc& p, int sig) {
    if (p.pid <= 0) return;
    ::kill(p.pid, sig);
    int st = 0;
    ::waitpid(p.pid, &st, 0);
    p.pid = -1;
  }

  static json hotseat() { return json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Ben"}, {"type", "human"}}}); }
  static json tokens_of(const json& created) {
    json t = json::array();
    for (const auto& s : created["seats"]) t.push_back(s.value("token", ""));
    return t;
  }
  // The next move of the player to move in `id` as `via` sees it: its k-th legal placement.
  static json next_move(const Proc& via, const std::string& id, const json& tokens, size_t k = 0) {
    Reply legal = via.get("/api/games/" + id + "/legal");
    if (legal.status != 200 || legal.body["placements"].empty()) return json();
    const json& pl = legal.body["placements"][k % legal.body["placements"].size()];
    json mv = {{"token", tokens[legal.body["player"].get<int>()]},
               {"x", pl["x"]}, {"y", pl["y"]}, {"rotation", pl["rotation"]}, {"turn", legal.body["turn"]}};
    if (!pl["plain"].get<bool>() && !pl["followers"].empty()) mv["follower"] = pl["followers"][0]["at"];
    return mv;
  }

  std::string base_, schema_, db_;
  std::filesystem::path dir_;
  std::deque<Proc> procs_;  // (a deque: references stay valid as processes are added)
};

// Reads an event stream of `port` until `until(view)` is true or `ms` pass; each state's arrival
// time is recorded.
struct StreamReader {
  std::thread t;
  std::mutex m;
  std::vector<std::pair<Clock::time_point, json>> states;
  std::atomic<bool> done{false};
  void start(int port, const std::string& id, int ms) {
    t = std::thread([this, port, id, ms] {
      std::string buf;
      testhttp::request(port, "GET", "/api/games/" + id + "/events", "", "", ms, [&](std::string_view data) {
        buf.append(data);
        size_t pos;
        while ((pos = buf.find("\n\n")) != std::string::npos) {
          const std::string msg = buf.substr(0, pos);
          buf.erase(0, pos + 2);
          const size_t d = msg.find("data: ");
          if (d == std::string::npos) continue;
          json v = json::parse(msg.substr(d + 6), nullptr, false);
          if (v.is_discarded()) continue;
          std::lock_guard lk(m);
          states.emplace_back(Clock::now(), std::move(v));
        }
        return !done.load();
      });
    });
  }
  // When a state with turn >= `turn` arrived (waits at most `ms`), or nullopt.
  std::optional<Clock::time_point> wait_turn(int turn, int ms) {
    const auto end = Clock::now() + std::chrono::milliseconds(ms);
    while (Clock::now() < end) {
      {
        std::lock_guard lk(m);
        for (auto& [at, v] : states)
          if (v.contains("turn") && v["turn"].is_number() && v["turn"].get<int>() >= turn) return at;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return std::nullopt;
  }
  size_t count() {
    std::lock_guard lk(m);
    return states.size();
  }
};

TEST_F(ClusterTest, MoveThroughOneProcessReachesStreamsOnAnotherWithinASecond) {
  Proc& a = spawn();
  Proc& b = spawn();
  Reply created = a.post("/api/games", {{"players", hotseat()}, {"seed", 5}});
  ASSERT_EQ(created.status, 201) << created.text;
  const std::string id = created.body["id"];
  const json tokens = tokens_of(created.body);
  // A stream on each process; the moves alternate between them.
  StreamReader on_a, on_b;
  on_a.start(a.port, id, 20000);
  on_b.start(b.port, id, 20000);
  for (int i = 0; i < 500 && (on_a.count() == 0 || on_b.count() == 0); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_GE(on_a.count(), 1u);
  ASSERT_GE(on_b.count(), 1u);
  std::vector<double> lat_ms;
  for (int turn = 1; turn <= 8; ++turn) {
    const Proc& via = turn % 2 ? a : b;          // the move through one process ...
    StreamReader& other = turn % 2 ? on_b : on_a;  // ... seen on the other
    const json mv = next_move(via, id, tokens, size_t(turn) * 3);
    ASSERT_FALSE(mv.is_null());
    const auto sent = Clock::now();
    Reply r = via.post("/api/games/" + id + "/move", mv);
    ASSERT_EQ(r.status, 200) << "turn " << turn << ": " << r.text;  // each process has the other's moves
    const auto seen = other.wait_turn(turn, 3000);
    ASSERT_TRUE(seen.has_value()) << "turn " << turn << " never reached the other process's stream";
    lat_ms.push_back(std::chrono::duration<double, std::milli>(*seen - sent).count());
    EXPECT_LT(lat_ms.back(), 1000.0) << "turn " << turn;
  }
  on_a.done = on_b.done = true;
  // The streams close with the processes (TearDown); the readers end then.
  for (Proc& p : procs_) stop(p, SIGTERM);
  on_a.t.join();
  on_b.t.join();
  std::sort(lat_ms.begin(), lat_ms.end());
  std::printf("cross-process event latency over %zu moves: median %.1f ms, max %.1f ms\n", lat_ms.size(),
              lat_ms[lat_ms.size() / 2], lat_ms.back());
  EXPECT_EQ(stored_record(id)["turns"].size(), 8u);
}

TEST_F(ClusterTest, TheSameMoveOnTwoProcessesAtOnceIsAcceptedOnce) {
  Proc& a = spawn();
  Proc& b = spawn();
  Reply created = a.post("/api/games", {{"players", hotseat()}, {"seed", 9}});
  ASSERT_EQ(created.status, 201) << created.text;
  const std::string id = created.body["id"];
  const json tokens = tokens_of(created.body);
  constexpr int kRounds = 12;
  for (int round = 1; round <= kRounds; ++round) {
    // Both processes have the game at this turn in memory.
    for (const Proc* p : {&a, &b}) {
      bool there = false;
      for (int i = 0; i < 1000 && !there; ++i) {
        Reply v = p->get("/api/games/" + id);
        there = v.status == 200 && v.body["turn"].get<int>() == round - 1;
        if (!there) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
      ASSERT_TRUE(there) << "round " << round;
    }
    const json mv = next_move(a, id, tokens, size_t(round));
    std::atomic<int> ready{0};
    int status[2] = {0, 0};
    std::thread t[2];
    for (int k = 0; k < 2; ++k)
      t[k] = std::thread([&, k] {
        ++ready;
        while (ready.load() < 2) {
        }
        status[k] = (k ? b : a).post("/api/games/" + id + "/move", mv).status;
      });
    for (auto& th : t) th.join();
    EXPECT_EQ((status[0] == 200) + (status[1] == 200), 1) << "round " << round << ": " << status[0] << ", " << status[1];
    for (int s : status) EXPECT_TRUE(s == 200 || s == 409) << "round " << round << ": " << s;
  }
  EXPECT_EQ(stored_record(id)["turns"].size(), size_t(kRounds));
}

TEST_F(ClusterTest, AiMovesArePlayedOnceAcrossProcesses) {
  Proc& a = spawn({"--ai-threads", "1"});
  Proc& b = spawn({"--ai-threads", "1"});
  // Games of computers only (at most 2 per client address: two addresses), created on either
  // process and opened on the other at once, so that both have every game in memory and both
  // would run its AI.
  const json players = json::array({{{"name", "G1"}, {"type", "ai"}, {"ai", "greedy"}},
                                    {{"name", "G2"}, {"type", "ai"}, {"ai", "greedy"}}});
  std::vector<std::string> ids;
  const char* from[] = {"127.0.0.2", "127.0.0.3"};
  for (int i = 0; i < 4; ++i) {
    const Proc& maker = i % 2 ? b : a;
    const Proc& other = i % 2 ? a : b;
    Reply r = maker.post_as(from[i / 2], "/api/games", {{"players", players}, {"seed", 100 + i}});
    ASSERT_EQ(r.status, 201) << r.text;
    ids.push_back(r.body["id"]);
    EXPECT_EQ(other.get("/api/games/" + ids.back()).status, 200);
  }
  for (const std::string& id : ids) {
    bool finished = false;
    for (int i = 0; i < 3000 && !finished; ++i) {
      Reply v = (i % 2 ? a : b).get("/api/games/" + id);
      finished = v.status == 200 && v.body["status"] == "finished";
      if (!finished) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_TRUE(finished) << "game " << id << " did not finish";
  }
  size_t turns = 0;
  for (const std::string& id : ids) {
    const json rec = stored_record(id);
    ASSERT_TRUE(rec.contains("turns"));
    EXPECT_GT(rec["turns"].size(), 60u);
    turns += rec["turns"].size();
  }
  uint64_t searches = 0, moves = 0, waited = 0;
  for (const Proc* p : {&a, &b}) {
    Reply h = p->get("/api/health?counters=1");
    ASSERT_EQ(h.status, 200);
    searches += h.body["counters"]["ai_searches"].get<uint64_t>();
    moves += h.body["counters"]["ai_moves"].get<uint64_t>();
    waited += h.body["counters"]["ai_claims_waited"].get<uint64_t>();
  }
  std::printf("AI turns in the records %zu; searches %llu, moves saved %llu, claims left to the other process %llu\n",
              turns, (unsigned long long)searches, (unsigned long long)moves, (unsigned long long)waited);
  // Every AI turn in the records was searched once and saved once, by one process; the other
  // stood by (it heard each move and reloaded the game, but left the next AI move to the
  // process that saved the move before it, or lost the claim when both tried).
  EXPECT_EQ(moves, turns);
  EXPECT_EQ(searches, turns);
}

// The process holding the claim on an AI move dies while searching (kill -9): another process
// plays that move once the claim's lease ends (--ai-max-time 1 s + kAiClaimMargin 3 s).
TEST_F(ClusterTest, AnAiMoveIsTakenOverWhenItsProcessDies) {
  Proc& a = spawn({"--ai-max-time", "1"});
  Proc& b = spawn({"--ai-max-time", "1"});
  const json players = json::array({{{"name", "Ann"}, {"type", "human"}},
                                    {{"name", "Mia"}, {"type", "ai"}, {"ai", "mcts:time=1s:threads=1"}}});
  Reply created = a.post("/api/games", {{"players", players}, {"seed", 17}});
  ASSERT_EQ(created.status, 201) << created.text;
  const std::string id = created.body["id"];
  const json tokens = tokens_of(created.body);
  ASSERT_EQ(b.get("/api/games/" + id).status, 200);  // B holds it too
  const json mv = next_move(a, id, tokens);
  ASSERT_EQ(a.post("/api/games/" + id + "/move", mv).status, 200);
  // A now claims the AI's move and searches for a second: killed in the middle.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const pid_t a_pid = a.pid;
  stop(procs_[0], SIGKILL);
  ASSERT_NE(a_pid, procs_[0].pid);
  const auto killed = Clock::now();
  ASSERT_EQ(stored_record(id)["turns"].size(), 1u) << "A saved the AI move before it was killed: no takeover to test";
  bool moved = false;
  for (int i = 0; i < 1500 && !moved; ++i) {
    Reply v = b.get("/api/games/" + id);
    moved = v.status == 200 && v.body["turn"].get<int>() >= 2 && v.body["current_player"] == 0;
    if (!moved) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const double s = std::chrono::duration<double>(Clock::now() - killed).count();
  ASSERT_TRUE(moved) << "B never played the AI move of the dead process";
  EXPECT_EQ(stored_record(id)["turns"].size(), 2u);
  Reply h = b.get("/api/health?counters=1");
  EXPECT_EQ(h.body["counters"]["ai_moves"], 1);
  std::printf("the AI move of the killed process was played by the other %.1f s after the kill\n", s);
  // And the game goes on through B.
  EXPECT_EQ(b.post("/api/games/" + id + "/move", next_move(b, id, tokens)).status, 200);
}

TEST_F(ClusterTest, KillNineLosesNoAcknowledgedMoveAndClientsContinue) {
  Proc& a = spawn();
  Proc& b = spawn();
  constexpr int kGames = 4, kBeforeKill = 24, kAfterKill = 6;
  std::vector<std::string> ids;
  std::vector<json> tokens;
  for (int g = 0; g < kGames; ++g) {
    Reply r = a.post("/api/games", {{"players", hotseat()}, {"seed", 30 + g}});
    ASSERT_EQ(r.status, 201) << r.text;
    ids.push_back(r.body["id"]);
    tokens.push_back(tokens_of(r.body));
  }
  struct Ack {
    int turn;
    json move;
  };
  std::mutex m;
  std::map<std::string, std::vector<Ack>> acked;
  std::atomic<int> total{0};
  std::atomic<bool> killed{false};
  std::map<std::string, int> after_kill;
  const pid_t a_pid = a.pid;
  // One client per game: moves through A and B in turn, as fast as answered; a connection that
  // fails marks its process dead for that client, which goes on through the other one.
  auto client = [&](int g) {
    bool a_dead = false;
    int sent = 0, done_after = 0;
    for (int attempt = 0; attempt < 2000 && done_after < kAfterKill; ++attempt) {
      const Proc& via = (!a_dead && sent % 2 == 0) ? a : b;
      const json mv = next_move(via, ids[size_t(g)], tokens[size_t(g)], size_t(sent) * 5 + size_t(g));
      if (mv.is_null()) {
        if (&via == &a) a_dead = true;
        continue;
      }
      ++sent;
      Reply r = via.post("/api/games/" + ids[size_t(g)] + "/move", mv);
      if (r.status < 0) {
        if (&via == &a) a_dead = true;
        continue;
      }
      if (r.status != 200) continue;  // 409: the other process was ahead (its NOTIFY not yet heard)
      std::lock_guard lk(m);
      acked[ids[size_t(g)]].push_back(Ack{mv["turn"].get<int>(), mv});
      ++total;
      if (killed) ++done_after;
    }
    std::lock_guard lk(m);
    after_kill[ids[size_t(g)]] = done_after;
  };
  std::vector<std::thread> clients;
  for (int g = 0; g < kGames; ++g) clients.emplace_back(client, g);
  while (total.load() < kBeforeKill) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ::kill(a_pid, SIGKILL);  // in the middle of the burst
  killed = true;
  for (auto& t : clients) t.join();
  int status = 0;
  ::waitpid(a_pid, &status, 0);
  procs_[0].pid = -1;
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  // Every acknowledged move is in the database at its turn; every client went on through B.
  for (const std::string& id : ids) {
    const json rec = stored_record(id);
    ASSERT_TRUE(rec.contains("turns")) << id;
    for (const Ack& ack : acked[id]) {
      ASSERT_LE(size_t(ack.turn), rec["turns"].size()) << id << " lost the acknowledged move of turn " << ack.turn;
      const json& t = rec["turns"][size_t(ack.turn - 1)];
      EXPECT_EQ(t["x"], ack.move["x"]) << id << " turn " << ack.turn;
      EXPECT_EQ(t["y"], ack.move["y"]) << id << " turn " << ack.turn;
      // (The record names a symmetric tile's rotation by its lowest equivalent: not compared.)
    }
    EXPECT_GE(after_kill[id], kAfterKill) << id << ": the client did not continue through the other process";
  }
  EXPECT_EQ(b.get("/api/health").status, 200);
  size_t n = 0;
  for (auto& [id, acks] : acked) n += acks.size();
  std::printf("kill -9 after %d acknowledged moves; %zu acknowledged in all, each found in the database\n", kBeforeKill, n);
}

TEST_F(ClusterTest, QuotasHoldAcrossProcesses) {
  Proc& a = spawn({"--games-per-client", "3", "--hint-interval", "60000", "--ai-games-per-client", "2"});
  Proc& b = spawn({"--games-per-client", "3", "--hint-interval", "60000", "--ai-games-per-client", "2"});
  // Games created by one client alternately on A and B: 3 in all, then 429 on either.
  int created = 0;
  std::string id;
  json tokens;
  for (int i = 0; i < 3; ++i) {
    Reply r = (i % 2 ? b : a).post_as("127.0.0.5", "/api/games", {{"players", hotseat()}});
    EXPECT_EQ(r.status, 201) << i << ": " << r.text;
    if (r.status == 201) {
      ++created;
      id = r.body["id"];
      tokens = tokens_of(r.body);
    }
  }
  EXPECT_EQ(created, 3);
  EXPECT_EQ(a.post_as("127.0.0.5", "/api/games", {{"players", hotseat()}}).status, 429);
  EXPECT_EQ(b.post_as("127.0.0.5", "/api/games", {{"players", hotseat()}}).status, 429);
  EXPECT_EQ(b.post_as("127.0.0.6", "/api/games", {{"players", hotseat()}}).status, 201);  // another client
  // Unfinished games with an AI seat: at most 2 per client (--ai-games-per-client 2), counted
  // in the database, whichever process made them.
  const json vs_ai = json::array({{{"name", "Ann"}, {"type", "human"}}, {{"name", "Bot"}, {"type", "ai"}, {"ai", "greedy"}}});
  EXPECT_EQ(a.post_as("127.0.0.7", "/api/games", {{"players", vs_ai}}).status, 201);
  EXPECT_EQ(b.post_as("127.0.0.7", "/api/games", {{"players", vs_ai}}).status, 201);
  Reply third = a.post_as("127.0.0.7", "/api/games", {{"players", vs_ai}});
  EXPECT_EQ(third.status, 429) << third.text;
  EXPECT_NE(third.text.find("unfinished games with computer players"), std::string::npos) << third.text;
  // One hint per seat per interval, whichever process is asked.
  Reply h1 = a.post("/api/games/" + id + "/hint", {{"token", tokens[0]}});
  EXPECT_EQ(h1.status, 200) << h1.text;
  Reply h2 = b.post("/api/games/" + id + "/hint", {{"token", tokens[0]}});
  EXPECT_EQ(h2.status, 429) << h2.text;
}

// The store's own coordination, without servers: claims (takeover after the lease, stale
// versions, renewal) and token buckets.
TEST_F(ClusterTest, StoreClaimsAndBuckets) {
  carc::server::PgStore s;
  s.open(db_);
  EXPECT_EQ(s.claim_ai_move("g1", 10, "A", 400), 0);
  const int64_t wait = s.claim_ai_move("g1", 10, "B", 400);
  EXPECT_GT(wait, 0);
  EXPECT_LE(wait, 400);
  EXPECT_EQ(s.claim_ai_move("g1", 10, "A", 400), 0);   // its holder renews it
  EXPECT_EQ(s.claim_ai_move("g1", 9, "B", 400), -1);   // a stale copy: nothing to play
  std::this_thread::sleep_for(std::chrono::milliseconds(450));
  EXPECT_EQ(s.claim_ai_move("g1", 10, "B", 400), 0);   // the holder died: taken over
  EXPECT_GT(s.claim_ai_move("g1", 10, "A", 400), 0);
  EXPECT_EQ(s.claim_ai_move("g1", 11, "A", 400), 0);   // the next move: free again
  // Buckets: 2 tokens, one more every 300 ms.
  EXPECT_EQ(s.take_token("t", "k", 2, 300), 0);
  EXPECT_EQ(s.take_token("t", "k", 2, 300), 0);
  const int64_t w = s.take_token("t", "k", 2, 300);
  EXPECT_GT(w, 0);
  EXPECT_LE(w, 300);
  EXPECT_EQ(s.take_token("t", "other", 2, 300), 0);    // per key
  std::this_thread::sleep_for(std::chrono::milliseconds(w + 20));
  EXPECT_EQ(s.take_token("t", "k", 2, 300), 0);
  // NOTIFY reaches a listener (of another store: another process) with the id and version.
  carc::server::PgStore other;
  other.open(db_);
  std::mutex m;
  std::vector<std::pair<std::string, uint64_t>> heard;
  other.listen([&](const std::string& id, uint64_t v) {
    std::lock_guard lk(m);
    heard.emplace_back(id, v);
  });
  carc::server::GameRow row{"g2", 1, 2, R"({"version":77})", "{}"};
  s.save(row);
  row.meta = R"({"version":78})";
  EXPECT_EQ(s.update(row, 77), carc::server::Store::Update::Done);
  EXPECT_EQ(s.update(row, 77), carc::server::Store::Update::Conflict);  // not announced: nothing written
  for (int i = 0; i < 200; ++i) {
    {
      std::lock_guard lk(m);
      if (heard.size() >= 2) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::lock_guard lk(m);
  ASSERT_EQ(heard.size(), 2u);
  EXPECT_EQ(heard[0], std::make_pair(std::string("g2"), uint64_t(77)));
  EXPECT_EQ(heard[1], std::make_pair(std::string("g2"), uint64_t(78)));
}

}  // namespace
