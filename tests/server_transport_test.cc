// The HTTP transport under hostile clients, over real sockets on loopback (issue #13, items 1,
// 3, 4 and the SIGTERM part of 5): bad URLs (invalid UTF-8, overlong forms, traversal), huge
// chunked bodies, slow and idle clients, connection caps, oversized headers and URLs, and a
// stop while an AI is thinking. Each case checks the server still serves afterwards.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "http.h"
#include "http_client.h"
#include "server.h"
#include "server_limits.h"

using json = nlohmann::json;
namespace fs = std::filesystem;
using carc::server::Server;
using carc::server::ServerOptions;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

long rss_kb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

class TransportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("carc-transport-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "web" / "assets");
    std::ofstream(dir_ / "web" / "index.html") << "<!doctype html><title>web client</title>";
    std::ofstream(dir_ / "web" / "assets" / "app.js") << "console.log('app')";
    std::ofstream(dir_ / "secret.txt") << "TOP-SECRET";
    fs::create_symlink(dir_ / "secret.txt", dir_ / "web" / "link.txt");
    opts_.host = "127.0.0.1";
    opts_.port = 0;
    opts_.db_path = (dir_ / "games.sqlite").string();
    opts_.web_dir = (dir_ / "web").string();
    opts_.ai_threads = 1;
  }
  void TearDown() override {
    server_.reset();
    fs::remove_all(dir_);
  }
  void start() {
    server_ = std::make_unique<Server>(opts_);
    port_ = server_->start();
  }
  // /api/health answers 200 within `ms` milliseconds.
  bool healthy(int ms = 2000) {
    const auto t0 = Clock::now();
    auto r = testhttp::request(port_, "GET", "/api/health", "", "", ms);
    return r.status == 200 && Clock::now() - t0 < std::chrono::milliseconds(ms);
  }
  // Sends raw bytes on a new connection and reads the answer.
  testhttp::Reply raw(const std::string& bytes, int timeout_ms = 5000) {
    const int fd = testhttp::connect_to(port_);
    if (fd < 0) return {};
    testhttp::Reply r;
    if (testhttp::send_all(fd, bytes)) r = testhttp::read_reply(fd, timeout_ms);
    ::close(fd);
    return r;
  }

  fs::path dir_;
  ServerOptions opts_;
  std::unique_ptr<Server> server_;
  int port_ = 0;
};

TEST_F(TransportTest, InvalidUtf8AndMalformedEscapesAre400AndTheServerKeepsServing) {
  start();
  const char* bad[] = {"/%FF", "/api/games/%FF", "/api/games/%FF/move", "/%ED%A0%80", "/%C0%AF", "/%E0%80%AF",
                       "/%F0%80%80%AF", "/%F4%90%80%80", "/%C3", "/api/tiles?tileset=%FF", "/api/tiles?%FF=base",
                       "/api/games?limit=%ED%A0%80", "/%", "/%4", "/%G1", "/api/tiles?tileset=%zz", "/a%00b"};
  for (const char* u : bad) {
    for (const char* method : {"GET", "POST"}) {
      auto r = testhttp::request(port_, method, u, method == std::string("POST") ? "{}" : "");
      EXPECT_EQ(r.status, 400) << method << " " << u << ": " << r.body;
      json j = json::parse(r.body, nullptr, false);
      ASSERT_FALSE(j.is_discarded()) << u;
      EXPECT_EQ(j["status"], 400);
      EXPECT_FALSE(j["error"].get<std::string>().empty());
    }
    ASSERT_TRUE(healthy()) << "after " << u;
  }
  // Valid UTF-8 in a path is not refused for being non-ASCII: it is just not found.
  EXPECT_EQ(testhttp::get(port_, "/api/games/%C3%A9").status, 404);
  EXPECT_EQ(testhttp::get(port_, "/api/tiles?tileset=%C3%A9").status, 400);  // unknown tile set, said in JSON
}

TEST_F(TransportTest, StaticFilesNeverLeaveTheWebDirectory) {
  start();
  auto index = testhttp::get(port_, "/");
  EXPECT_EQ(index.status, 200);
  EXPECT_NE(index.body.find("web client"), std::string::npos);
  EXPECT_EQ(index.headers["content-type"].rfind("text/html", 0), 0u);
  auto js = testhttp::get(port_, "/assets/app.js");
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.headers["content-type"].rfind("text/javascript", 0), 0u);
  const char* traversal[] = {"/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/assets/../../secret.txt",
                             "/assets/%2e%2e/%2e%2e/secret.txt", "/./index.html", "/..%2fsecret.txt",
                             "/%2e%2e%2fsecret.txt", "/assets/..%5c..%5csecret.txt", "/%C0%AE%C0%AE/secret.txt"};
  for (const char* u : traversal) {
    const int fd = testhttp::connect_to(port_);
    ASSERT_GE(fd, 0);
    // Sent as is (a client library would normalise the dots away).
    ASSERT_TRUE(testhttp::send_all(fd, std::string("GET ") + u + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));
    auto r = testhttp::read_reply(fd, 5000);
    ::close(fd);
    EXPECT_TRUE(r.status == 400 || r.status == 404) << u << " -> " << r.status;
    EXPECT_EQ(r.body.find("TOP-SECRET"), std::string::npos) << u;
  }
  auto link = testhttp::get(port_, "/link.txt");  // a symbolic link out of the web directory
  EXPECT_EQ(link.status, 404);
  EXPECT_EQ(link.body.find("TOP-SECRET"), std::string::npos);
  EXPECT_TRUE(healthy());
}

TEST_F(TransportTest, MalformedRequestsAre400) {
  start();
  EXPECT_EQ(raw("GARBAGE\r\n\r\n").status, 400);
  EXPECT_EQ(raw("GET /api/health HTTP/9.9\r\n\r\n").status, 400);
  EXPECT_EQ(raw("GET api/health HTTP/1.1\r\nHost: x\r\n\r\n").status, 400);  // not a path
  EXPECT_EQ(raw("GET /api/health HTTP/1.1\r\nBad Header\r\n\r\n").status, 400);
  EXPECT_EQ(raw("POST /api/games HTTP/1.1\r\nContent-Length: -5\r\n\r\n").status, 400);
  EXPECT_EQ(raw("POST /api/games HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef").status, 400);
  EXPECT_EQ(raw("POST /api/games HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n0\r\n\r\n").status, 400);
  EXPECT_TRUE(healthy());
}

TEST_F(TransportTest, KeptAliveConnectionsAnswerPipelinedRequestsAndCloseWhenIdle) {
  opts_.idle_timeout = 300ms;
  start();
  const int fd = testhttp::connect_to(port_);
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(testhttp::send_all(fd, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /api/players HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  std::string got;
  for (int i = 0; i < 100 && got.find("\"players\"") == std::string::npos; ++i) got += testhttp::recv_some(fd, 50);
  EXPECT_EQ(got.rfind("HTTP/1.1 200 OK\r\n", 0), 0u);
  const size_t second = got.find("HTTP/1.1 200 OK\r\n", 1);
  ASSERT_NE(second, std::string::npos) << got.substr(0, 300);
  EXPECT_NE(got.substr(0, second).find(R"({"ok":true})"), std::string::npos);
  EXPECT_NE(got.find("\"players\"", second), std::string::npos);
  const auto t0 = Clock::now();
  EXPECT_TRUE(testhttp::closed_within(fd, 3000));  // idle: closed by the server
  EXPECT_GE(Clock::now() - t0, 200ms);
  ::close(fd);
}

TEST_F(TransportTest, ChunkedBodyOverTheLimitIs413WithoutReadingItAll) {
  start();
  const long rss0 = rss_kb();
  const int fd = testhttp::connect_to(port_);
  ASSERT_GE(fd, 0);
  int sz = 64 * 1024;  // small socket buffers: what was sent is close to what the server read
  ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof sz);
  ASSERT_TRUE(testhttp::send_all(fd, "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
                                     "Content-Type: application/json\r\n\r\n"));
  const std::string chunk = "10000\r\n" + std::string(0x10000, ' ') + "\r\n";  // 64 KiB of spaces
  size_t sent = 0;
  const size_t total = size_t(100) << 20;  // 100 MiB
  std::string got;
  bool closed = false;
  while (sent < total) {
    if (!testhttp::send_all(fd, chunk)) {
      closed = true;
      break;
    }
    sent += 0x10000;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 0) > 0) {
      closed = testhttp::closed_within(fd, 2000, &got);
      break;
    }
  }
  ::close(fd);
  EXPECT_TRUE(closed) << "the server read the whole body";
  EXPECT_LT(sent, size_t(16) << 20) << "the server kept reading far past the limit";
  if (!got.empty()) EXPECT_EQ(got.rfind("HTTP/1.1 413", 0), 0u) << got.substr(0, 100);
  EXPECT_LT(rss_kb() - rss0, 64 * 1024) << "memory grew by more than 64 MiB";
  EXPECT_TRUE(healthy());
}

TEST_F(TransportTest, BodyLimitHoldsAtTheEdge) {
  opts_.max_body = 1000;
  start();
  // A body of exactly the limit is read (and refused by the API for its content, not its size).
  const std::string at = "{\"x\":\"" + std::string(1000 - 8, 'a') + "\"}";
  ASSERT_EQ(at.size(), 1000u);
  EXPECT_EQ(testhttp::post(port_, "/api/games", at).status, 400);
  EXPECT_EQ(testhttp::post(port_, "/api/games", at + " ").status, 413);
  auto r = raw("POST /api/games HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n");
  EXPECT_EQ(r.status, 413);
  EXPECT_NE(r.body.find("larger than 1000 bytes"), std::string::npos) << r.body;
  // Chunked: 1000 bytes in two chunks pass the transport, 1001 do not.
  auto chunked = [&](size_t a, size_t b) {
    std::string s = "POST /api/games HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
    char h[32];
    std::snprintf(h, sizeof h, "%zx\r\n", a);
    s += h + std::string(a, ' ') + "\r\n";
    std::snprintf(h, sizeof h, "%zx\r\n", b);
    s += h + std::string(b, ' ') + "\r\n0\r\n\r\n";
    return raw(s).status;
  };
  EXPECT_EQ(chunked(500, 500), 400);  // malformed JSON (only spaces): the transport let it through
  EXPECT_EQ(chunked(500, 501), 413);
  EXPECT_TRUE(healthy());
}

TEST_F(TransportTest, OversizedHeadersAndUrlsAre4xx) {
  start();
  using namespace carc::server::limits;
  std::string many = "GET /api/health HTTP/1.1\r\n";
  for (int i = 0; i < 1000; ++i) many += "X-H" + std::to_string(i) + ": v\r\n";
  EXPECT_EQ(raw(many + "\r\n").status, 431);
  // At the edge: kMaxHeaderCount fields pass, one more does not.
  auto fields = [&](size_t n) {
    std::string s = "GET /api/health HTTP/1.1\r\n";
    for (size_t i = 0; i < n; ++i) s += "X-H" + std::to_string(i) + ": v\r\n";
    return raw(s + "\r\n").status;
  };
  EXPECT_EQ(fields(kMaxHeaderCount), 200);
  EXPECT_EQ(fields(kMaxHeaderCount + 1), 431);
  EXPECT_EQ(raw("GET /api/health HTTP/1.1\r\nX-Big: " + std::string(kMaxHeaderBytes, 'a') + "\r\n\r\n").status, 431);
  EXPECT_EQ(raw("GET /" + std::string(1 << 20, 'a') + " HTTP/1.1\r\n\r\n", 10000).status, 414);  // 1 MB URL
  // URL length at the edge (a path of exactly kMaxUrlBytes is merely not found).
  EXPECT_EQ(raw("GET /" + std::string(kMaxUrlBytes - 1, 'a') + " HTTP/1.1\r\n\r\n").status, 404);
  EXPECT_EQ(raw("GET /" + std::string(kMaxUrlBytes, 'a') + " HTTP/1.1\r\n\r\n").status, 414);
  EXPECT_TRUE(healthy());
}

TEST_F(TransportTest, SlowHeaderClientsTimeOutWhileOthersAreServed) {
  opts_.header_timeout = 1000ms;
  start();
  // 150 clients sending one header line every 200 ms (they would take 30 s to finish) and 100
  // that send nothing, from 25 addresses (127.0.0.10-34; /api/health comes from 127.0.0.1).
  std::vector<int> slow, idle;
  auto from = [](int i) { return "127.0.0." + std::to_string(10 + i % 25); };
  for (int i = 0; i < 150; ++i) {
    const int fd = testhttp::connect_to(port_, "127.0.0.1", from(i).c_str());
    ASSERT_GE(fd, 0);
    ASSERT_TRUE(testhttp::send_all(fd, "GET /api/health HTTP/1.1\r\n"));
    slow.push_back(fd);
  }
  for (int i = 0; i < 100; ++i) idle.push_back(testhttp::connect_to(port_, "127.0.0.1", from(i).c_str()));
  const auto t0 = Clock::now();
  int closed_by_server = 0;
  for (int round = 0; round < 10; ++round) {
    EXPECT_TRUE(healthy(1500)) << "round " << round;  // promptly, even on a loaded machine
    for (int& fd : slow) {
      if (fd < 0) continue;
      if (!testhttp::send_all(fd, "X-Slow: " + std::to_string(round) + "\r\n")) {
        ++closed_by_server;
        ::close(fd);
        fd = -1;
      }
    }
    std::this_thread::sleep_for(200ms);
  }
  for (int& fd : slow)
    if (fd >= 0) {
      closed_by_server += testhttp::closed_within(fd, 2000);
      ::close(fd);
    }
  EXPECT_EQ(closed_by_server, 150);
  int idle_closed = 0;
  for (int fd : idle) {
    idle_closed += testhttp::closed_within(fd, 2000);
    ::close(fd);
  }
  EXPECT_EQ(idle_closed, 100);
  EXPECT_LT(Clock::now() - t0, 30s);
  EXPECT_TRUE(healthy());
}

TEST_F(TransportTest, ConnectionCapsAnswer503) {
  opts_.max_connections_per_address = 5;
  opts_.max_connections = 8;
  start();
  std::vector<int> held;
  for (int i = 0; i < 5; ++i) held.push_back(testhttp::connect_to(port_));
  std::this_thread::sleep_for(100ms);
  auto r = testhttp::get(port_, "/api/health");  // the 6th from 127.0.0.1
  EXPECT_EQ(r.status, 503);
  json j = json::parse(r.body, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.body;
  EXPECT_NE(j["error"].get<std::string>().find("too many connections from 127.0.0.1"), std::string::npos) << r.body;
  // Another client address is still served, up to the total.
  const int other = testhttp::connect_to(port_, "127.0.0.1", "127.0.0.2");
  ASSERT_GE(other, 0);
  ASSERT_TRUE(testhttp::send_all(other, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  EXPECT_EQ(testhttp::read_reply(other, 5000).status, 200);
  held.push_back(other);
  held.push_back(testhttp::connect_to(port_, "127.0.0.1", "127.0.0.3"));
  held.push_back(testhttp::connect_to(port_, "127.0.0.1", "127.0.0.4"));  // 8 in total now
  std::this_thread::sleep_for(100ms);
  const int ninth = testhttp::connect_to(port_, "127.0.0.1", "127.0.0.5");
  ASSERT_GE(ninth, 0);
  ASSERT_TRUE(testhttp::send_all(ninth, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  auto t = testhttp::read_reply(ninth, 5000);
  ::close(ninth);
  EXPECT_EQ(t.status, 503);
  EXPECT_NE(t.body.find("maximum of 8 connections"), std::string::npos) << t.body;
  for (int fd : held) ::close(fd);
  // Closed connections free their places.
  bool ok = false;
  for (int i = 0; i < 100 && !ok; ++i) {
    ok = testhttp::get(port_, "/api/health").status == 200;
    if (!ok) std::this_thread::sleep_for(20ms);
  }
  EXPECT_TRUE(ok);
}

TEST_F(TransportTest, EveryEventStreamReceivesEveryMove) {
  opts_.max_streams = 40;
  start();
  json players = json::array({{{"name", "A"}, {"type", "human"}}, {{"name", "B"}, {"type", "human"}}});
  auto created = testhttp::post(port_, "/api/games", json{{"players", players}, {"seed", 5}}.dump());
  ASSERT_EQ(created.status, 201);
  json g = json::parse(created.body);
  const std::string id = g["id"];
  constexpr int kStreams = 40;
  std::atomic<int> ready{0}, done{0};
  std::vector<std::thread> ts;
  for (int i = 0; i < kStreams; ++i)
    ts.emplace_back([&] {
      std::string buf;
      bool counted = false;
      testhttp::request(port_, "GET", "/api/games/" + id + "/events", "", "", 10000, [&](std::string_view d) {
        buf.append(d);
        if (!counted && buf.find("\n\n") != std::string::npos) {
          counted = true;
          ++ready;
        }
        if (buf.find("\"turn\":1,") != std::string::npos) {
          ++done;
          return false;
        }
        return true;
      });
    });
  for (int i = 0; i < 500 && ready < kStreams; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(ready.load(), kStreams);
  // Past the cap: 503, and the API still answers.
  EXPECT_EQ(testhttp::get(port_, "/api/games/" + id + "/events").status, 503);
  auto legal = json::parse(testhttp::get(port_, "/api/games/" + id + "/legal").body);
  const json& pl = legal["placements"][0];
  auto mv = testhttp::post(port_, "/api/games/" + id + "/move",
                           json{{"token", g["seats"][0]["token"]}, {"x", pl["x"]}, {"y", pl["y"]}, {"rotation", pl["rotation"]}}.dump());
  ASSERT_EQ(mv.status, 200) << mv.body;
  for (auto& t : ts) t.join();
  EXPECT_EQ(done.load(), kStreams);
}

TEST_F(TransportTest, StopReturnsWithin2sWhileAnAiIsThinking) {
  start();
  json players = json::array({{{"name", "Bot"}, {"type", "ai"}, {"ai", "mcts:time=10s"}}, {{"name", "Ann"}, {"type", "human"}}});
  auto created = testhttp::post(port_, "/api/games", json{{"players", players}}.dump());
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = json::parse(created.body)["id"];
  bool thinking = false;
  for (int i = 0; i < 200 && !thinking; ++i) {
    thinking = json::parse(testhttp::get(port_, "/api/games/" + id).body)["thinking"] == 0;
    if (!thinking) std::this_thread::sleep_for(10ms);
  }
  ASSERT_TRUE(thinking);
  // An open event stream and an idle connection too.
  std::thread stream([&] { testhttp::request(port_, "GET", "/api/games/" + id + "/events", "", "", 10000, [](std::string_view) { return true; }); });
  const int idle = testhttp::connect_to(port_);
  std::this_thread::sleep_for(200ms);
  const auto t0 = Clock::now();
  server_->stop();
  const auto took = Clock::now() - t0;
  EXPECT_LT(took, 2s) << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms";
  stream.join();
  ::close(idle);
}

// Everything the server sends on one new connection until it closes it (or `ms` pass).
std::string all_bytes(int port, const std::string& bytes, int ms = 3000) {
  const int fd = testhttp::connect_to(port);
  if (fd < 0) return "";
  std::string got;
  if (testhttp::send_all(fd, bytes)) testhttp::closed_within(fd, ms, &got);
  ::close(fd);
  return got;
}

std::string create_body() {
  return json{{"players", json::array({{{"name", "A"}, {"type", "human"}}, {{"name", "B"}, {"type", "human"}}})}}.dump();
}

// Issue #33 item 9: a Transfer-Encoding other than exactly "chunked" (or together with
// Content-Length) is 400 and the connection is closed: its body is never read as the next
// request (request smuggling).
TEST_F(TransportTest, TransferEncodingOtherThanChunkedIs400AndCloses) {
  start();
  const std::string smuggled = "GET /api/players HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  const std::string body = create_body();
  char size[16];
  std::snprintf(size, sizeof size, "%zx", body.size());
  for (const std::string te : {"xchunked", "chunked, identity", "identity", "gzip, chunked", "chunked;q=1", "chunkedx",
                               "chunked\r\nTransfer-Encoding: chunked", ""}) {
    const std::string got = all_bytes(port_, "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                             "Transfer-Encoding: " + te + "\r\n\r\n" + smuggled);
    EXPECT_EQ(got.rfind("HTTP/1.1 400 ", 0), 0u) << "'" << te << "': " << got.substr(0, 200);
    EXPECT_NE(got.find("Connection: close"), std::string::npos) << te;
    EXPECT_EQ(got.find("\"players\""), std::string::npos) << "'" << te << "': the body ran as a request";
    EXPECT_EQ(got.find("HTTP/1.1", 5), std::string::npos) << "'" << te << "': a second answer";
  }
  // Transfer-Encoding with Content-Length, in either order.
  for (const std::string both : {"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n"}) {
    const std::string got = all_bytes(port_, "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" + both +
                                             "\r\n0\r\n\r\n" + smuggled);
    EXPECT_EQ(got.rfind("HTTP/1.1 400 ", 0), 0u) << got.substr(0, 200);
    EXPECT_EQ(got.find("\"players\""), std::string::npos) << "the body ran as a request";
  }
  // Exactly chunked: any case, spaces around it.
  for (const std::string te : {"chunked", "Chunked", " CHUNKED "}) {
    auto r = raw("POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
                 "Transfer-Encoding: " + te + "\r\n\r\n" + size + "\r\n" + body + "\r\n0\r\n\r\n");
    EXPECT_EQ(r.status, 201) << "'" << te << "': " << r.body;
  }
  EXPECT_TRUE(healthy());
}

// Issue #33 item 10: HEAD sends no body anywhere: event streams, static files, JSON, errors.
TEST_F(TransportTest, HeadSendsNoBody) {
  start();
  auto created = testhttp::post(port_, "/api/games", create_body());
  ASSERT_EQ(created.status, 201);
  const std::string id = json::parse(created.body)["id"];
  for (const std::string path : std::vector<std::string>{"/api/games/" + id + "/events", "/", "/assets/app.js", "/api/health",
                                 "/api/games/" + id, "/api/games/nosuchgame0", "/nothing-here", "/%FF"}) {
    const std::string got = all_bytes(port_, "HEAD " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    const size_t end = got.find("\r\n\r\n");
    ASSERT_NE(end, std::string::npos) << path << ": " << got.substr(0, 200);
    EXPECT_EQ(got.size(), end + 4) << path << ": a body of " << got.size() - end - 4 << " bytes: " << got.substr(end, 100);
    if (path != "/api/games/" + id + "/events") {  // the same headers as GET, body length included
      auto g = testhttp::get(port_, path);
      EXPECT_EQ(got.substr(9, 3), std::to_string(g.status)) << path;
      EXPECT_NE(got.find("Content-Length: " + std::to_string(g.body.size()) + "\r\n"), std::string::npos) << path << ": " << got;
    } else {
      EXPECT_EQ(got.rfind("HTTP/1.1 200 ", 0), 0u) << got;
      EXPECT_NE(got.find("Content-Type: text/event-stream"), std::string::npos) << got;
    }
  }
  // Kept alive: the answer to a HEAD of the stream is followed at once by the next answer.
  const int fd = testhttp::connect_to(port_);
  ASSERT_GE(fd, 0);
  ASSERT_TRUE(testhttp::send_all(fd, "HEAD /api/games/" + id + "/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                                     "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));
  std::string got;
  testhttp::closed_within(fd, 3000, &got);
  ::close(fd);
  const size_t end = got.find("\r\n\r\n");
  ASSERT_NE(end, std::string::npos) << got;
  EXPECT_EQ(got.find("HTTP/1.1 200 OK\r\n", end), end + 4) << got.substr(0, 400);
  EXPECT_EQ(got.find("event:"), std::string::npos) << got.substr(0, 400);
  EXPECT_TRUE(healthy());
}

// Issue #33 item 11: every response carries the security headers; the policy allows no inline
// script or style and no framing.
TEST_F(TransportTest, SecurityHeadersOnEveryResponse) {
  start();
  auto created = testhttp::post(port_, "/api/games", create_body());
  ASSERT_EQ(created.status, 201);
  const std::string id = json::parse(created.body)["id"];
  auto check = [](const testhttp::Reply& r, const std::string& what) {
    auto h = r.headers;
    const std::string csp = h["content-security-policy"];
    EXPECT_NE(csp.find("default-src 'self'"), std::string::npos) << what << ": " << csp;
    EXPECT_NE(csp.find("script-src 'self';"), std::string::npos) << what << ": " << csp;
    EXPECT_NE(csp.find("style-src 'self';"), std::string::npos) << what << ": " << csp;
    EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << what << ": " << csp;
    EXPECT_NE(csp.find("base-uri 'none'"), std::string::npos) << what << ": " << csp;
    EXPECT_NE(csp.find("connect-src 'self'"), std::string::npos) << what << ": " << csp;
    EXPECT_NE(csp.find("img-src 'self' data:"), std::string::npos) << what << ": " << csp;
    EXPECT_NE(csp.find("form-action 'self'"), std::string::npos) << what << ": " << csp;
    EXPECT_EQ(csp.find("unsafe"), std::string::npos) << what << ": " << csp;
    EXPECT_EQ(h["x-frame-options"], "DENY") << what;
    EXPECT_EQ(h["x-content-type-options"], "nosniff") << what;
    EXPECT_EQ(h["referrer-policy"], "no-referrer") << what;
  };
  for (const std::string path : std::vector<std::string>{"/", "/index.html", "/assets/app.js", "/api/health", "/api/games/" + id, "/nothing", "/%FF"}) {
    auto r = testhttp::get(port_, path);
    check(r, path);
  }
  check(testhttp::post(port_, "/api/games", "{}"), "a refused POST");
  check(raw("GARBAGE\r\n\r\n"), "a transport refusal");
  // The event stream's head.
  testhttp::Reply stream = testhttp::request(port_, "GET", "/api/games/" + id + "/events", "", "", 5000,
                                             [](std::string_view) { return false; });
  EXPECT_EQ(stream.status, 200);
  check(stream, "the event stream");
}

// Issue #33 item 12: a cross-site page cannot change anything, and a DNS-rebinding page cannot
// read the API: state-changing requests need Content-Type: application/json (415), an Origin
// must be the server's own (403), and the Host must be allowed (421).
TEST_F(TransportTest, CrossSiteRequestsAreRefused) {
  opts_.allowed_hosts = {"games.example.org", "other.example.org:9000"};
  start();
  const std::string body = create_body(), port = std::to_string(port_);
  auto send = [&](const std::string& method, const std::string& path, const std::string& headers, const std::string& b = "") {
    std::string req = method + " " + path + " HTTP/1.1\r\nConnection: close\r\n" + headers;
    if (method != "GET" && method != "HEAD") req += "Content-Length: " + std::to_string(b.size()) + "\r\n";
    return raw(req + "\r\n" + b);
  };
  const std::string host = "Host: 127.0.0.1:" + port + "\r\n", json_type = "Content-Type: application/json\r\n";
  // Content-Type of state-changing requests.
  for (const std::string type : {"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                                 "application/jsonx", "text/json", "application/json-patch+json"}) {
    auto r = send("POST", "/api/games", host + "Content-Type: " + type + "\r\n", body);
    EXPECT_EQ(r.status, 415) << type << ": " << r.body;
    EXPECT_NE(r.body.find("Content-Type: application/json"), std::string::npos) << r.body;
  }
  EXPECT_EQ(send("POST", "/api/games", host, body).status, 415);  // none
  EXPECT_EQ(send("POST", "/api/games/abc/undo", host).status, 415);  // none, and no body
  EXPECT_EQ(send("PUT", "/api/games", host).status, 415);
  EXPECT_EQ(send("DELETE", "/api/games/abc", host).status, 415);
  EXPECT_EQ(send("POST", "/api/games", host + "Content-Type: application/json; charset=utf-8\r\n", body).status, 201);
  EXPECT_EQ(send("POST", "/api/games", host + "Content-Type: Application/JSON\r\n", body).status, 201);
  EXPECT_EQ(send("GET", "/api/health", host).status, 200);  // GET and HEAD need none
  // Origin.
  for (const std::string origin : std::vector<std::string>{"http://evil.example", "null", "http://localhost:" + port, "http://127.0.0.1",
                                   "ftp://127.0.0.1:" + port, "http://127.0.0.1:" + port + "/x", "http://127.0.0.1:1"}) {
    auto r = send("POST", "/api/games", host + json_type + "Origin: " + origin + "\r\n", body);
    EXPECT_EQ(r.status, 403) << origin << ": " << r.body;
    EXPECT_NE(r.body.find("cross-origin request refused"), std::string::npos) << r.body;
    EXPECT_EQ(send("GET", "/api/games", host + "Origin: " + origin + "\r\n").status, 403) << origin;
  }
  EXPECT_EQ(send("POST", "/api/games", host + json_type + "Origin: http://127.0.0.1:" + port + "\r\n", body).status, 201);
  EXPECT_EQ(send("POST", "/api/games", host + json_type + "Origin: https://127.0.0.1:" + port + "\r\n", body).status, 201);
  EXPECT_EQ(send("POST", "/api/games", "Host: games.example.org\r\n" + json_type + "Origin: http://games.example.org\r\n", body).status, 201);
  EXPECT_EQ(send("POST", "/api/games", "Host: games.example.org:80\r\n" + json_type + "Origin: http://games.example.org\r\n", body).status, 201);
  // Host.
  for (const std::string h : std::vector<std::string>{"evil.example", "evil.example:" + port, "games.example.org.evil.example", "other.example.org",
                              "other.example.org:9001", "localhost.evil.example", "127.0.0.1.nip.io", "2130706433x"}) {
    auto r = send("GET", "/api/games", "Host: " + h + "\r\n");
    EXPECT_EQ(r.status, 421) << h << ": " << r.body;
    EXPECT_NE(r.body.find("--allowed-host"), std::string::npos) << r.body;
    EXPECT_EQ(send("POST", "/api/games", "Host: " + h + "\r\n" + json_type, body).status, 421) << h;
  }
  for (const std::string h : std::vector<std::string>{"localhost", "LOCALHOST:" + port, "localhost.", "127.0.0.1", "[::1]:" + port, "192.168.1.20:8080",
                              "[2001:db8::1]", "10.0.0.1", "games.example.org", "Games.Example.Org:8443", "other.example.org:9000"})
    EXPECT_EQ(send("GET", "/api/health", "Host: " + h + "\r\n").status, 200) << h;
  EXPECT_EQ(send("GET", "/api/health", "Host: a\r\nHost: b\r\n").status, 400);  // two Host headers
  EXPECT_EQ(send("GET", "/api/health", "Host: bad host\r\n").status, 421);
  // HTTP/1.0 without a Host (no browser sends that) is served.
  EXPECT_EQ(raw("GET /api/health HTTP/1.0\r\n\r\n").status, 200);
  // Refused requests created nothing: only the 6 accepted creates made games.
  EXPECT_EQ(json::parse(testhttp::get(port_, "/api/games").body)["games"].size(), 6u);
  // '*' turns the Host check off.
  server_.reset();
  opts_.allowed_hosts = {"*"};
  start();
  EXPECT_EQ(raw("GET /api/health HTTP/1.1\r\nHost: anything.example\r\nConnection: close\r\n\r\n").status, 200);
}

// Issue #33 item 13: a '.' or '..' segment in an /api path is 400, as for static files.
TEST_F(TransportTest, DotSegmentsInApiPathsAre400) {
  start();
  for (const char* u : {"/api/games/../health", "/api/%2e%2e/api/health", "/api/games/abc/./legal", "/api/./health",
                        "/api/games/%2E%2E", "/api/.."}) {
    auto r = raw(std::string("GET ") + u + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    EXPECT_EQ(r.status, 400) << u << ": " << r.body;
    EXPECT_NE(r.body.find("'.' or '..' segments"), std::string::npos) << u << ": " << r.body;
  }
  EXPECT_EQ(testhttp::get(port_, "/api/games/a..b").status, 404);  // dots inside a segment are a name
  EXPECT_TRUE(healthy());
}

// The request handling without a socket (what fuzz/http_fuzz.cc drives).
TEST(HandleBytes, AppliesTheTransportChecks) {
  using carc::server::handle_bytes;
  using carc::server::Request;
  using carc::server::Response;
  std::string seen;
  auto echo = [&](const Request& r) {
    seen = r.method + " " + r.path + " " + r.param("q") + " " + r.body;
    Response res;
    res.send({{"ok", true}});
    return res;
  };
  EXPECT_EQ(handle_bytes("GET /a%20b?q=x+y HTTP/1.1\r\nHost: localhost\r\n\r\n", echo).status, 200);
  EXPECT_EQ(seen, "GET /a b x y ");
  EXPECT_EQ(handle_bytes("POST /p HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", echo).status, 200);
  EXPECT_EQ(seen, "POST /p  abc");
  EXPECT_EQ(handle_bytes("GET /%FF HTTP/1.1\r\n\r\n", echo).status, 400);
  EXPECT_EQ(handle_bytes("GET /x HTTP/1.1\r\n", echo).status, 400);  // incomplete
  EXPECT_EQ(handle_bytes("", echo).status, 400);
  carc::server::HttpOptions o;
  o.max_body = 2;
  EXPECT_EQ(handle_bytes("POST /p HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc", echo, o).status, 413);
  EXPECT_EQ(handle_bytes("POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", echo, o).status, 413);
  EXPECT_EQ(handle_bytes("GET /" + std::string(1 << 16, 'a') + " HTTP/1.1\r\n\r\n", echo).status, 414);
  // The framing and cross-site checks hold here too (issue #33 items 9 and 12).
  EXPECT_EQ(handle_bytes("POST /p HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: xchunked\r\n\r\nabc", echo).status, 400);
  EXPECT_EQ(handle_bytes("POST /p HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n3\r\nabc\r\n0\r\n\r\n", echo).status, 400);
  EXPECT_EQ(handle_bytes("POST /p HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc", echo).status, 415);
  EXPECT_EQ(handle_bytes("GET /p HTTP/1.1\r\nHost: evil.example\r\n\r\n", echo).status, 421);
  EXPECT_EQ(handle_bytes("GET /p HTTP/1.1\r\nHost: localhost\r\nOrigin: http://evil.example\r\n\r\n", echo).status, 403);
  auto thrower = [](const Request&) -> Response { throw std::runtime_error("boom"); };
  EXPECT_EQ(handle_bytes("GET / HTTP/1.1\r\n\r\n", thrower).status, 500);
}

}  // namespace
