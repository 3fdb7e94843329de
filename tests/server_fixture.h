// The loopback server shared by the server's API tests (server_test, server_hints_test,
// server_security_test): each test gets its own temporary folder with a fresh SQLite file, a
// Server on an ephemeral port of 127.0.0.1 built from opts_ (tests change opts_ and call
// start() or restart()), and JSON helpers over tests/http_client.h (independent of the
// server's transport library).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

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
    db_ = (dir_ / "games.sqlite").string();
    opts_.db_path = db_;
    start();
  }
  void TearDown() override {
    server_.reset();
    std::filesystem::remove_all(dir_);
  }
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

  std::string name_;
  std::filesystem::path dir_;
  std::string db_;
  carc::server::ServerOptions opts_;
  int port_ = 0;
  std::unique_ptr<carc::server::Server> server_;
};

}  // namespace servertest
