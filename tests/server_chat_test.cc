// Chat and rematch through the API (issue #39; docs/server.md "Chat" and "Rematch", limits in
// docs/security.md "Chat"): only seat holders of a game with a friend post; the text is cleaned
// and has at most kMaxChatMessageBytes (at the edge and one byte beyond); one message per
// kChatInterval per seat; spectators read it only when every person's seat allowed it; the
// chat survives a restart (stored in the game's meta); a rematch makes one new game with the
// same seats, tokens and rules and a new secret seed, named in the old game's view.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "server_fixture.h"
#include "server_limits.h"

using json = nlohmann::json;
namespace lim = carc::server::limits;

namespace {

using servertest::Resp;

class ServerChatTest : public servertest::ServerFixture {
 protected:
  ServerChatTest() : ServerFixture("server-chat") {}

  // A game of Ann (here) and Ben (a friend by link); Ben has joined.
  json friends_game() {
    Resp r = post("/api/games", json{{"players", json::array({{{"name", "Ann"}, {"type", "human"}},
                                                              {{"name", "Ben"}, {"type", "remote"}}})}});
    EXPECT_EQ(r.status, 201) << r.text;
    EXPECT_EQ(post("/api/games/" + r.body["id"].get<std::string>() + "/join", json{{"token", r.body["seats"][1]["token"]}}).status, 200);
    return r.body;
  }
  Resp say(const std::string& id, const json& token, const json& text) {
    return post("/api/games/" + id + "/chat", json{{"token", token}, {"text", text}});
  }
  Resp read_as(const std::string& id, const std::string& token) {
    return servertest::wrap(testhttp::request(port_, "GET", "/api/games/" + id + "/chat", "", token.empty() ? "" : "X-Seat-Token: " + token + "\r\n"));
  }
  static void wait_interval() { std::this_thread::sleep_for(lim::kChatInterval + std::chrono::milliseconds(20)); }
};

TEST_F(ServerChatTest, SeatsChatWithinTheLimits) {
  json g = friends_game();
  const std::string id = g["id"];
  const std::string ann = g["seats"][0]["token"], ben = g["seats"][1]["token"];
  // cleaned: runs of spaces collapsed, trimmed
  Resp r = say(id, ann, "  hello   Ben  ");
  ASSERT_EQ(r.status, 200) << r.text;
  ASSERT_EQ(r.body["chat"].size(), 1u);
  EXPECT_EQ(r.body["chat"][0]["text"], "hello Ben");
  EXPECT_EQ(r.body["chat"][0]["name"], "Ann");
  EXPECT_EQ(r.body["chat"][0]["seat"], 0);
  // the public view counts the messages but does not show them (spectators were not allowed)
  json v = get("/api/games/" + id).body;
  EXPECT_EQ(v["chat_count"], 1);
  EXPECT_EQ(v["chat_public"], false);
  EXPECT_FALSE(v.contains("chat"));
  EXPECT_EQ(get("/api/games/" + id).text.find("hello Ben"), std::string::npos);
  // a seat reads it with its token; a spectator may not; a wrong token may not
  EXPECT_EQ(read_as(id, ben).body["chat"][0]["text"], "hello Ben");
  EXPECT_EQ(read_as(id, "").status, 403);
  EXPECT_EQ(read_as(id, "not-a-token").status, 403);

  // the length limit: exactly kMaxChatMessageBytes passes, one byte more is refused
  Resp at = say(id, ben, std::string(lim::kMaxChatMessageBytes, 'a'));
  ASSERT_EQ(at.status, 200) << at.text;
  EXPECT_EQ(at.body["chat"][1]["text"].get<std::string>().size(), lim::kMaxChatMessageBytes);
  wait_interval();
  Resp over = say(id, ben, std::string(lim::kMaxChatMessageBytes + 1, 'a'));
  EXPECT_EQ(over.status, 400) << over.text;
  EXPECT_NE(over.text.find(std::to_string(lim::kMaxChatMessageBytes)), std::string::npos) << over.text;
  // counted after cleaning: spaces around the limit's worth of text are not counted
  Resp padded = say(id, ben, "   " + std::string(lim::kMaxChatMessageBytes, 'b') + "   ");
  EXPECT_EQ(padded.status, 200) << padded.text;
  wait_interval();
  // far beyond: refused before cleaning
  EXPECT_EQ(say(id, ben, std::string(100'000, ' ')).status, 400);
  // unsafe or empty text, wrong types, no token, a wrong token: refused, nothing stored
  EXPECT_EQ(say(id, ann, "a\x1b[2Jb").status, 400);
  Resp newline = say(id, ann, "two\nlines");  // a message is one line
  EXPECT_EQ(newline.status, 400);
  EXPECT_NE(newline.text.find("U+000A"), std::string::npos) << newline.text;
  EXPECT_EQ(say(id, ann, "x\xe2\x80\xaey").status, 400);  // U+202E, right-to-left override
  EXPECT_EQ(post_raw("/api/games/" + id + "/chat", "{\"token\":\"" + ann + "\",\"text\":\"\xff\xfe\"}").status, 400);  // not UTF-8
  EXPECT_EQ(say(id, ann, "   ").status, 400);
  EXPECT_EQ(say(id, ann, "").status, 400);
  EXPECT_EQ(say(id, ann, 42).status, 400);
  EXPECT_EQ(post("/api/games/" + id + "/chat", json{{"text", "hi"}}).status, 403);
  EXPECT_EQ(say(id, "wrong", "hi").status, 403);
  EXPECT_EQ(post("/api/games/" + id + "/chat", json{{"token", ann}}).status, 400);
  EXPECT_EQ(read_as(id, ann).body["chat"].size(), 3u);

  // the rate limit: a second message within kChatInterval is refused with Retry-After, and
  // accepted once the interval is over; another seat is not held back
  ASSERT_EQ(say(id, ann, "one").status, 200);
  Resp fast = say(id, ann, "two");
  EXPECT_EQ(fast.status, 429) << fast.text;
  EXPECT_TRUE(fast.headers.count("retry-after"));
  EXPECT_EQ(say(id, ben, "mine").status, 200);
  wait_interval();
  EXPECT_EQ(say(id, ann, "two").status, 200);
  EXPECT_EQ(read_as(id, ann).body["chat"].size(), 6u);
}

TEST_F(ServerChatTest, SpectatorsOnlyWhenEverySeatAllows) {
  json g = friends_game();
  const std::string id = g["id"];
  const std::string ann = g["seats"][0]["token"], ben = g["seats"][1]["token"];
  ASSERT_EQ(say(id, ann, "gg").status, 200);
  EXPECT_EQ(post("/api/games/" + id + "/chat", json{{"token", ann}, {"spectators", "yes"}}).status, 400);
  ASSERT_EQ(post("/api/games/" + id + "/chat", json{{"token", ann}, {"spectators", true}}).status, 200);
  // one seat allowing is not enough
  EXPECT_EQ(get("/api/games/" + id).body["chat_public"], false);
  EXPECT_EQ(read_as(id, "").status, 403);
  Resp both = post("/api/games/" + id + "/chat", json{{"token", ben}, {"spectators", true}});
  ASSERT_EQ(both.status, 200);
  EXPECT_EQ(both.body["chat_public"], true);
  json v = get("/api/games/" + id).body;
  EXPECT_EQ(v["chat_public"], true);
  ASSERT_EQ(v["chat"].size(), 1u);
  EXPECT_EQ(v["chat"][0]["text"], "gg");
  EXPECT_EQ(read_as(id, "").status, 200);
  // stored with the game: a restart keeps the messages and the choice
  restart();
  json after = get("/api/games/" + id).body;
  EXPECT_EQ(after["chat"][0]["text"], "gg");
  EXPECT_EQ(after["chat_public"], true);
  // withdrawn by one seat: hidden again
  ASSERT_EQ(post("/api/games/" + id + "/chat", json{{"token", ben}, {"spectators", false}}).status, 200);
  EXPECT_FALSE(get("/api/games/" + id).body.contains("chat"));
}

TEST_F(ServerChatTest, OnlyGamesWithAFriendChat) {
  Resp r = post("/api/games", json{{"players", json::array({{{"name", "Ann"}, {"type", "human"}},
                                                            {{"name", "Bot"}, {"type", "ai"}, {"ai", "random"}}})}});
  ASSERT_EQ(r.status, 201);
  EXPECT_EQ(say(r.body["id"], r.body["seats"][0]["token"], "hi").status, 409);
}

TEST_F(ServerChatTest, KeepsTheLastMessages) {
  json g = friends_game();
  const std::string id = g["id"];
  const std::string ann = g["seats"][0]["token"];
  ASSERT_EQ(say(id, ann, "first").status, 200);
  // a stored game with more messages than a game keeps (written by another process): loaded
  // with the last kMaxChatMessages only
  json meta = json::parse(sql("SELECT meta FROM games WHERE id = '" + id + "'"));
  const size_t n = lim::kMaxChatMessages + 5;
  meta["chat"] = json::array();
  for (size_t i = 0; i < n; ++i) meta["chat"].push_back({{"seat", i % 2}, {"name", "x"}, {"text", "m" + std::to_string(i)}, {"at", 1}});
  meta["chat"].push_back({{"seat", 7}, {"text", "no such seat"}});  // skipped
  meta["chat"].push_back("not a message");                          // skipped
  sql("UPDATE games SET meta = '" + meta.dump() + "' WHERE id = '" + id + "'");
  restart();
  json chat = read_as(id, ann).body["chat"];
  ASSERT_EQ(chat.size(), lim::kMaxChatMessages);
  EXPECT_EQ(chat[0]["text"], "m5");
  EXPECT_EQ(chat.back()["text"], "m" + std::to_string(n - 1));
  // a new message drops the oldest
  ASSERT_EQ(say(id, ann, "newest").status, 200);
  chat = read_as(id, ann).body["chat"];
  ASSERT_EQ(chat.size(), lim::kMaxChatMessages);
  EXPECT_EQ(chat[0]["text"], "m6");
  EXPECT_EQ(chat.back()["text"], "newest");
}

TEST_F(ServerChatTest, RematchWithTheSameSeats) {
  json g = friends_game();
  const std::string id = g["id"];
  const std::string ann = g["seats"][0]["token"], ben = g["seats"][1]["token"];
  // not before the game is over
  EXPECT_EQ(post("/api/games/" + id + "/rematch", json{{"token", ann}}).status, 409);
  ASSERT_EQ(post("/api/games/" + id + "/resign", json{{"token", ben}}).status, 200);
  EXPECT_EQ(post("/api/games/" + id + "/rematch", json{{"token", "nope"}}).status, 403);
  EXPECT_EQ(post("/api/games/" + id + "/rematch", json::object()).status, 403);
  Resp r = post("/api/games/" + id + "/rematch", json{{"token", ben}});
  ASSERT_EQ(r.status, 201) << r.text;
  const std::string nid = r.body["id"];
  EXPECT_NE(nid, id);
  // asked again (by the other seat): the same game
  Resp again = post("/api/games/" + id + "/rematch", json{{"token", ann}});
  ASSERT_EQ(again.status, 200);
  EXPECT_EQ(again.body["id"], nid);
  // the old game names it (its event stream sends every seat there)
  EXPECT_EQ(get("/api/games/" + id).body["rematch"], nid);
  // the same seats, rules, and tokens; nobody resigned; a new committed secret seed
  json old = get("/api/games/" + id).body, v = get("/api/games/" + nid).body;
  EXPECT_EQ(v["status"], "playing");
  EXPECT_EQ(v["tileset"], old["tileset"]);
  EXPECT_EQ(v["expansions"], old["expansions"]);
  ASSERT_EQ(v["players"].size(), 2u);
  EXPECT_EQ(v["players"][0]["name"], "Ann");
  EXPECT_EQ(v["players"][1]["name"], "Ben");
  EXPECT_EQ(v["players"][1]["type"], "remote");
  EXPECT_EQ(v["players"][1]["resigned"], false);
  ASSERT_TRUE(v.contains("fair_draws"));
  EXPECT_NE(v["fair_draws"]["commitment"], old["fair_draws"]["commitment"]);
  EXPECT_EQ(v["turn"], 0);
  EXPECT_EQ(post("/api/games/" + nid + "/join", json{{"token", ben}}).body["seat"], 1);
  EXPECT_EQ(say(nid, ann, "again!").status, 200);
  // a rematch is kept across a restart
  restart();
  EXPECT_EQ(get("/api/games/" + id).body["rematch"], nid);
  EXPECT_EQ(post("/api/games/" + id + "/rematch", json{{"token", ann}}).body["id"], nid);
}

TEST_F(ServerChatTest, RematchAgainstTheComputerKeepsItsLevel) {
  Resp r = post("/api/games", json{{"players", json::array({{{"name", "Ann"}, {"type", "human"}},
                                                            {{"name", "Bot"}, {"type", "ai"}, {"ai", "random"}}})},
                                   {"expansions", json::array({"festival"})}});
  ASSERT_EQ(r.status, 201);
  const std::string id = r.body["id"];
  ASSERT_EQ(post("/api/games/" + id + "/resign", json{{"token", r.body["seats"][0]["token"]}}).status, 200);
  Resp m = post("/api/games/" + id + "/rematch", json{{"token", r.body["seats"][0]["token"]}});
  ASSERT_EQ(m.status, 201) << m.text;
  json v = get("/api/games/" + m.body["id"].get<std::string>()).body;
  EXPECT_EQ(v["players"][1]["ai"], "random");
  EXPECT_EQ(v["expansions"], json::array({"festival"}));
}

}  // namespace
