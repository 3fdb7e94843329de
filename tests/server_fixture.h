// The loopback server shared by the server's API tests (server_test, server_hints_test,
// server_security_test, server_fairness_test, server_chat_test, server_names_test,
// server_public_view_test): each test gets its own temporary folder with a
// fresh SQLite file, or, when CARC_TEST_PG_URI names a PostgreSQL database (a libpq URI;
// scripts/test-postgres.sh), a fresh schema in it (dropped after the test), a
// Server on an ephemeral port of 127.0.0.1 built from opts_ (tests change opts_ and call
// start() or restart()), and JSON helpers over tests/http_client.h (independent of the
// server's transport library).
#pragma once

#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "http_client.h"
#include "server.h"

namespace servertest {

// One answer: the status (negative when the connection failed), the body as text, and parsed
// as JSON when it is JSON (otherwise discarded).
struct Resp {
  int status = 0;
  nlohmann::json body;
  std::string text;
  std::map<std::string, std::string> headers;  // names in lower case
};

inline Resp wrap(const testhttp::Reply& r) {
  Resp out;
  out.status = r.status;
  if (r.status < 0) return out;
  out.text = r.body;
  out.headers = r.headers;
  out.body = nlohmann::json::parse(r.body, nullptr, false);
  return out;
}

class ServerFixture : public ::testing::Test {
 protected:
  using json = nlohmann::json;
  // `name` names the temporary folder: carc-<name>-<pid>-<test>.
  explicit ServerFixture(std::string name) : name_(std::move(name)) {
    opts_.host = "127.0.0.1";
    opts_.port = 0;
    opts_.ai_threads = 2;
    opts_.ai_delay_ms = 0;
  }
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("carc-" + name_ + "-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    if (const char* uri = pg_uri()) {
      static std::atomic<int> n{0};
      schema_ = "carc_test_" + std::to_string(::getpid()) + "_" + std::to_string(n++);
      pg_admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE; CREATE SCHEMA " + schema_);
      // The schema first on the search path: the server creates its tables there.
      const std::string base = uri;
      // The application name tells the test's connections apart (pg_stat_activity).
      db_ = base + (base.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema_ +
            "&application_name=" + schema_;
    } else {
      db_ = (dir_ / "games.sqlite").string();
    }
    opts_.db_path = db_;
    start();
  }
  void TearDown() override {
    server_.reset();
    if (on_postgres()) pg_admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
    std::filesystem::remove_all(dir_);
  }

  // The PostgreSQL database the tests run on (CARC_TEST_PG_URI), or null: SQLite files.
  static const char* pg_uri() {
    const char* u = std::getenv("CARC_TEST_PG_URI");
    return u && *u ? u : nullptr;
  }
  bool on_postgres() const { return !schema_.empty(); }
  // Runs SQL on the test's database through a connection of its own (the operator's, another
  // process'): every value of every row, each followed by a newline. Plain SQL both databases
  // understand (or a choice on on_postgres()).
  std::string sql(const std::string& text) {
    std::string out;
    if (on_postgres()) {
      PGconn* c = PQconnectdb(db_.c_str());
      EXPECT_EQ(PQstatus(c), CONNECTION_OK) << PQerrorMessage(c);
      PGresult* r = PQexec(c, text.c_str());
      const ExecStatusType st = PQresultStatus(r);
      EXPECT_TRUE(st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) << text << ": " << PQerrorMessage(c);
      for (int i = 0; st == PGRES_TUPLES_OK && i < PQntuples(r); ++i)
        for (int j = 0; j < PQnfields(r); ++j) out += std::string(PQgetvalue(r, i, j)) + "\n";
      PQclear(r);
      PQfinish(c);
      return out;
    }
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(db_.c_str(), &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    char* err = nullptr;
    EXPECT_EQ(sqlite3_exec(
                  db, text.c_str(),
                  [](void* o, int n, char** vals, char**) {
                    for (int i = 0; i < n; ++i) *static_cast<std::string*>(o) += std::string(vals[i] ? vals[i] : "") + "\n";
                    return 0;
                  },
                  &out, &err),
              SQLITE_OK)
        << text << ": " << (err ? err : "");
    sqlite3_free(err);
    sqlite3_close(db);
    return out;
  }

 private:
  // SQL on CARC_TEST_PG_URI itself (outside the test's schema): creating and dropping it.
  static void pg_admin(const std::string& text) {
    PGconn* c = PQconnectdb(pg_uri());
    ASSERT_EQ(PQstatus(c), CONNECTION_OK) << PQerrorMessage(c);
    PQsetNoticeProcessor(c, [](void*, const char*) {}, nullptr);
    PGresult* r = PQexec(c, text.c_str());
    EXPECT_EQ(PQresultStatus(r), PGRES_COMMAND_OK) << text << ": " << PQerrorMessage(c);
    PQclear(r);
    PQfinish(c);
  }

 protected:
  // A new server from opts_ (the previous one, if any, is destroyed first), serving when this
  // returns.
  void start() {
    server_.reset();
    server_ = std::make_unique<carc::server::Server>(opts_);
    port_ = server_->start();
    for (int i = 0; i < 500 && get("/api/health").status != 200; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  void restart() {
    server_->stop();
    start();
  }

  Resp get(const std::string& path) { return wrap(testhttp::request(port_, "GET", path)); }
  Resp post(const std::string& path, const json& body) { return post_raw(path, body.dump()); }
  Resp post_raw(const std::string& path, const std::string& body) {
    return wrap(testhttp::request(port_, "POST", path, body));
  }

  // The same from another client address (127.x.y.z): per-client quotas and shares.
  Resp get_as(const char* from, const std::string& path) { return wrap(testhttp::request_as(from, port_, "GET", path)); }
  Resp post_as(const char* from, const std::string& path, const json& body) {
    return wrap(testhttp::request_as(from, port_, "POST", path, body.dump()));
  }

  // Waits until a human seat is to move (the AI has moved) or the game is over.
  json wait_for_human(const std::string& id) {
    for (int i = 0; i < 3000; ++i) {
      json v = get("/api/games/" + id).body;
      if (v["status"] != "playing") return v;
      const int p = v["current_player"];
      if (v["players"][p]["type"] != "ai" && v["thinking"] == -1) return v;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ADD_FAILURE() << "the AI never moved";
    return get("/api/games/" + id).body;
  }

  // A hot-seat game of human players `names` created through the API: its answer (status 201
  // asserted by the caller), id and seat tokens. `extra` adds fields to the request (seed, hints).
  struct HotSeat {
    Resp created;
    std::string id;
    json tokens = json::array();
  };
  HotSeat create_hotseat(const std::vector<std::string>& names, const std::string& tileset,
                         const std::vector<std::string>& expansions, const json& extra = json::object()) {
    json players = json::array();
    for (const auto& n : names) players.push_back({{"name", n}, {"type", "human"}});
    json body = {{"players", players}, {"tileset", tileset}, {"expansions", expansions}};
    for (auto it = extra.begin(); it != extra.end(); ++it) body[it.key()] = it.value();
    HotSeat g;
    g.created = post("/api/games", body);
    if (g.created.status != 201) return g;
    g.id = g.created.body["id"];
    for (const auto& seat : g.created.body["seats"]) g.tokens.push_back(seat["token"]);
    return g;
  }

  // The first payload of a game's event stream (GET .../events), parsed; null (and a test
  // failure) when none arrives within 5 s.
  json first_event(const std::string& id) {
    std::string payload;
    testhttp::request(port_, "GET", "/api/games/" + id + "/events", "", "", 5000, [&](std::string_view data) {
      payload.append(data);
      return payload.find("\n\n") == std::string::npos;
    });
    const size_t d = payload.find("data: ");
    if (d == std::string::npos) {
      ADD_FAILURE() << "no event from /api/games/" << id << "/events: " << payload.substr(0, 200);
      return nullptr;
    }
    return json::parse(payload.substr(d + 6, payload.find("\n\n") - d - 6));
  }

  std::string name_;
  std::filesystem::path dir_;
  std::string db_;      // the SQLite file, or the PostgreSQL URI of the test's schema
  std::string schema_;  // on PostgreSQL: the test's schema
  carc::server::ServerOptions opts_;
  int port_ = 0;
  std::unique_ptr<carc::server::Server> server_;
};

}  // namespace servertest

// The first statement of a test that works on the SQLite file itself (its locks, its bytes, its
// foreign-database check): skipped on PostgreSQL, with the reason.
#define CARC_SQLITE_ONLY(why)                                   \
  do {                                                          \
    if (on_postgres()) GTEST_SKIP() << "SQLite only: " << why;  \
  } while (0)
