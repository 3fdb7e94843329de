// The API routes (see routes.h and docs/server.md).
#include "routes.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>
#include <exception>

#include "ai_pool.h"
#include "store.h"
#include "decode.h"
#include "files.h"
#include "game.h"
#include "ids.h"
#include "input_limits.h"
#include "public_view.h"
#include "record.h"
#include "server_limits.h"
#include "session.h"
#include "views.h"
#include "vocabulary.h"

namespace carc::server {

bool Request::has_header(const std::string& k) const {
  for (const auto& [n, v] : headers)
    if (n.size() == k.size() && std::equal(n.begin(), n.end(), k.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        }))
      return true;
  return false;
}

std::string Request::header(const std::string& k) const {
  for (const auto& [n, v] : headers)
    if (n.size() == k.size() && std::equal(n.begin(), n.end(), k.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        }))
      return v;
  return "";
}

Response Api::handle(const Request& req) {
  try {
    return dispatch(req);
  } catch (const ApiError& e) {
    Response r = error_response(e.status, e.message);
    if (e.retry_after > 0) r.set_header("Retry-After", std::to_string(e.retry_after));
    return r;
  } catch (const DbError& e) {
    return error_response(503, std::string("the database is unavailable, try again: ") + e.what());
  } catch (const json::exception& e) {
    return error_response(400, std::string("bad request: ") + e.what());
  } catch (const std::exception& e) {
    return error_response(500, std::string("internal error: ") + e.what());
  } catch (...) {
    return error_response(500, "internal error");
  }
}

namespace {
// "allow_hints" of a create/upload request: true or false, default hints_default(seats).
bool allow_hints_of(const json& body, const std::vector<Seat>& seats) {
  auto it = body.find("allow_hints");
  if (it == body.end() || it->is_null()) return hints_default(seats);
  if (!it->is_boolean()) fail(400, "'allow_hints' must be true or false");
  return it->get<bool>();
}

// Runs a call into the game in progress (match::Table), turning its refusal into the API's error:
// Conflict 409, Forbidden 403, Invalid 400, Illegal 422 (nothing changed in each case).
template <class F>
decltype(auto) table_call(F&& f) {
  try {
    return f();
  } catch (const match::Refused& e) {
    const int status = e.kind == match::Refused::Forbidden ? 403
                       : e.kind == match::Refused::Invalid ? 400
                       : e.kind == match::Refused::Illegal ? 422
                                                           : 409;
    fail(status, e.kind == match::Refused::Illegal ? std::string("illegal move: ") + e.what() : std::string(e.what()));
  }
}

bool game_id_ok(const std::string& id) {
  return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); });
}
}  // namespace

Response Api::dispatch(const Request& req) {
  Response res;
  std::optional<Response> r;
  const std::string& p = req.path;
  const bool get = req.method == "GET" || req.method == "HEAD", post = req.method == "POST";
  if (get && p == "/api/health") {
    health(req, res);
  } else if (get && p == "/api/players") {
    players(req, res);
  } else if (get && p == "/api/tiles") {
    tiles(req, res);
  } else if (get && p == "/api/tables") {
    res.send(vocabulary_json());  // the engine's tables (docs/vocabulary.md), for the web client
  } else if (get && p == "/api/games") {
    list_games(req, res);
  } else if (post && p == "/api/games") {
    create_game(req, res);
  } else if (post && p == "/api/games/upload") {
    upload_game(req, res);
  } else if (p.rfind("/api/games/", 0) == 0) {
    const std::string rest = p.substr(11);
    const size_t slash = rest.find('/');
    const std::string id = rest.substr(0, slash);
    const std::string action = slash == std::string::npos ? "" : rest.substr(slash + 1);
    if (!game_id_ok(id) || (slash != std::string::npos && action.empty())) fail(404, "not found: " + p);
    if (get && action.empty()) get_game(req, res, id);
    else if (get && action == "legal") legal(req, res, id);
    else if (post && action == "move") move(req, res, id);
    else if (post && action == "undo") undo(req, res, id);
    else if (post && action == "resign") resign(req, res, id);
    else if (post && action == "join") join(req, res, id);
    else if (post && action == "hint") hint(req, res, id);
    else if (get && action == "record") record(req, res, id);
    else if (get && action == "replay") replay(req, res, id);
    else if (get && action == "events") events(req, res, id);
    else if (get && action == "chat") chat(req, res, id);
    else if (post && action == "chat") post_chat(req, res, id);
    else if (post && action == "rematch") rematch(req, res, id);
    else fail(404, "not found: " + p);
  } else if (get && p.rfind("/api/", 0) != 0 && !web_dir_.empty() && (r = static_file(web_dir_, p))) {
    res = std::move(*r);
  } else if (get && p == "/") {  // the web client is not built (or not found)
    res.content_type = "text/html";
    res.body = "<!doctype html><title>Carcassonne server</title><p>The web client is not built (looked in '" + web_dir_ +
               "'). Run <code>scripts/setup-web.sh</code> or <code>npm --prefix web run build</code>.</p>";
  } else {
    fail(404, "not found: " + p);
  }
  return res;
}

json Api::created_json(const Session& s) {
  json seats = json::array();
  for (size_t i = 0; i < s.num_seats(); ++i) {
    const match::Seat& seat = s.seat(int(i));
    const std::string& token = s.access[i].token;
    json j = {{"seat", i}, {"name", seat.name}, {"type", seat.type}};
    if (seat.type != "ai") j["token"] = token;
    if (seat.type == "remote") j["join_path"] = "/#/game/" + s.id + "/" + token;
    seats.push_back(j);
  }
  return {{"id", s.id}, {"seats", seats}, {"game", view_json(s)}};
}

// The seat a request's token holds (403 when the token is wrong).
int Api::seat_for(const Session& s, const json& body, const Request& req) {
  std::string token = str_field(body, "token");
  if (token.empty() && req.has_header("X-Seat-Token")) token = req.header("X-Seat-Token");
  if (token.empty()) fail(403, "a seat token is required ('token' in the body or the X-Seat-Token header)");
  const int seat = s.seat_of_token(token);
  if (seat < 0) fail(403, "this token holds no seat in this game");
  return seat;
}

void Api::health(const Request& req, Response& res) {
  if (!req.has_param("counters")) return res.send({{"ok", true}});
  // ?counters: this process's counters (docs/deployment.md: several processes on one database).
  const Games::Counters c = games_.counters();
  res.send({{"ok", true},
            {"counters",
             {{"ai_searches", c.ai_searches}, {"ai_moves", c.ai_moves}, {"ai_claims_waited", c.ai_claims_waited}, {"reloads", c.reloads}}}});
}

void Api::players(const Request& req, Response& res) {
  // "levels": the specs, in the lobby's order; "level_details": each with its label and
  // measured strength (games = 0: not calibrated yet), from ai::levels().
  const json details = ai_levels();
  json specs = json::array();
  for (const auto& l : details) specs.push_back(l["spec"]);
  // "tilesets" and "expansions": the engine's module table (expansions/registry.h), for the
  // lobby's choices: each with its name (what POST /api/games takes) and label.
  json tilesets = json::array(), expansions = json::array();
  for (const ModuleInfo& m : kModules)
    (m.kind == ModuleKind::TileSet ? tilesets : expansions)
        .push_back({{"name", m.name}, {"label", m.label}, {"board", m.board}});
  res.send({{"players", ai_registry()},
            {"levels", specs},
            {"level_details", details},
            {"tilesets", tilesets},
            {"expansions", expansions}});
}

void Api::tiles(const Request& req, Response& res) {
  const std::string tileset = req.has_param("tileset") ? req.param("tileset") : "base";
  json q = json::object();
  if (req.has_param("expansions")) q["expansions"] = req.param("expansions");
  Rules rules = rules_from(tileset, expansions_of(q), 2);
  const Game* g;
  try {
    g = Game::get(rules);
  } catch (const std::exception& e) {
    fail(400, e.what());
  }
  json tiles = json::array();
  for (int i = 0; i < g->num_types(); ++i) {
    json t = tile_type_json(g->type(i));
    t["count"] = g->initial_counts()[i] + (i == g->start_type() ? 1 : 0);
    tiles.push_back(t);
  }
  res.set_header("Cache-Control", "max-age=300");
  json out = {{"tileset", tileset}, {"expansions", rules.expansions()}, {"tiles", tiles}};
  out["start"] = g->start_type() >= 0
                     ? json{{"tile", g->type(g->start_type()).id}, {"rotation", 90 * g->start_rotation()}}
                     : json(nullptr);
  if (!g->board_cells().empty()) {  // Wheel of Fortune: the start board and its wheel
    json cells = json::array(), segs = json::array();
    for (const auto& c : g->board_cells()) cells.push_back({{"x", c.x}, {"y", c.y}, {"tile", g->type(c.type).id}});
    for (int i = 0; i < int(g->wheel().size()); ++i)
      segs.push_back({{"event", kWheelEventNames[int(g->wheel()[i].event)]}, {"crowns", g->wheel()[i].crowns}});
    out["board"] = {{"cells", cells}, {"wheel", segs}, {"pig", g->wheel_start()}};
  }
  res.send(out);
}

void Api::list_games(const Request& req, Response& res) {
  int limit = 50;
  if (req.has_param("limit")) {
    try {
      limit = std::clamp(std::stoi(req.param("limit")), 1, 500);
    } catch (const std::exception&) {
      fail(400, "'limit' must be a number");
    }
  }
  json games = json::array();
  for (const GameRow& row : db_.list(limit)) {
    json meta = json::parse(row.meta, nullptr, false);
    if (meta.is_discarded()) continue;
    json players = json::array();
    for (const auto& s : meta["seats"])
      players.push_back({{"name", s["name"]}, {"type", s["type"]}, {"ai", s["ai"]}});
    json g = meta["summary"];
    g["id"] = row.id;
    g["created"] = row.created;
    g["updated"] = row.updated;
    g["players"] = players;
    if (meta.contains("allow_hints") && meta["allow_hints"].is_boolean()) {
      g["allow_hints"] = meta["allow_hints"];
    } else {  // stored before hints existed: the default for its seats
      std::vector<Seat> seats;
      for (const auto& s : meta["seats"])
        if (s.is_object()) seats.push_back(Seat{"", s.value("type", "")});
      g["allow_hints"] = hints_default(seats);
    }
    games.push_back(g);
  }
  res.send({{"games", games}});
}

namespace {
// Takes one of the client's `what` from `bucket`, or refuses with 429 and Retry-After.
void take_quota(RateLimiter& bucket, const std::string& owner, const char* what, int burst,
                std::chrono::milliseconds refill) {
  const std::chrono::milliseconds wait = bucket.take(owner);
  if (wait.count() == 0) return;
  const long long s = retry_after_seconds(wait);
  fail_retry(429,
             std::string("too many ") + what + " from your address: at most " + std::to_string(burst) + ", then one every " +
                 std::to_string(refill.count() / 1000) + " s; try again in " + std::to_string(s) + " s",
             s);
}
}  // namespace

void Api::create_game(const Request& req, Response& res) {
  json body = parse_body(req.body);
  const std::string owner = owner_of(req);
  std::vector<Seat> seats = seats_from_request(body, nullptr, games_.ai_limits());
  Record rec;
  for (const Seat& s : seats) rec.players.push_back(s.name);
  rec.tileset = str_field(body, "tileset", "base");
  rec.expansions = expansions_of(body);
  rules_from(rec.tileset, rec.expansions, int(seats.size()));  // validates
  // Fair draws: with a seat another person plays, nobody may know the coming tiles, the creator
  // included: no chosen seed, and a secret one committed to (docs/security.md, "Fair draws").
  const bool fair = std::any_of(seats.begin(), seats.end(), [](const Seat& x) { return x.type == "remote"; });
  auto it = body.find("seed");
  if (it != body.end() && !it->is_null()) {
    if (!it->is_number_unsigned()) fail(400, "'seed' must be a non-negative integer");
    if (fair)
      fail(400, "'seed' is not allowed in a game with remote players: its draw order is secret to everyone "
                "(the server's secret seed is published when the game is over)");
    rec.seed = it->get<uint64_t>();
  } else {
    rec.seed = random_seed();
  }
  const bool hints = allow_hints_of(body, seats);
  take_quota(creates_, owner, "new games", quotas_.create_burst, quotas_.create_refill);
  auto s = games_.add_session(std::move(seats), rec, false, hints, owner, fair);
  std::lock_guard lk(s->m);
  res.send(created_json(*s), 201);
  for (SeatAccess& seat : s->access) seat.token.clear();  // from now on only its hash is kept
}

void Api::upload_game(const Request& req, Response& res) {
  json body = parse_body(req.body);
  const std::string owner = owner_of(req);
  auto it = body.find("record");
  if (it == body.end()) fail(400, "'record' is required: a game record (object or text)");
  std::string text = it->is_string() ? it->get<std::string>() : it->dump();
  Record rec;
  try {
    rec = parse_record(text);
  } catch (const std::exception& e) {
    fail(400, std::string("invalid record: ") + e.what());
  }
  const std::string mode = str_field(body, "mode", "continue");
  if (mode != "continue" && mode != "view") fail(400, "'mode' must be continue or view");
  std::vector<Seat> seats = seats_from_request(body, &rec.players, games_.ai_limits());
  for (size_t i = 0; i < seats.size(); ++i) rec.players[i] = seats[i].name;
  const bool hints = allow_hints_of(body, seats);
  // Continued with a seat another person plays: the uploader chose the record's seed, so the
  // draws from here on follow a secret one instead (docs/security.md, "Fair draws").
  const bool fair = mode == "continue" && std::any_of(seats.begin(), seats.end(), [](const Seat& x) { return x.type == "remote"; });
  take_quota(uploads_, owner, "uploads", quotas_.upload_burst, quotas_.upload_refill);
  auto s = games_.add_session(std::move(seats), rec, mode == "view", hints, owner, fair);
  std::lock_guard lk(s->m);
  res.send(created_json(*s), 201);
  for (SeatAccess& seat : s->access) seat.token.clear();  // from now on only its hash is kept
}

void Api::get_game(const Request& req, Response& res, const std::string& id) {
  auto s = games_.find(id);
  std::lock_guard lk(s->m);
  res.send(view_json(*s));
}

void Api::legal(const Request& req, Response& res, const std::string& id) {
  auto s = games_.find(id);
  std::lock_guard lk(s->m);
  if (s->over()) {
    res.send({{"turn", s->state().turn()}, {"player", -1}, {"tile", nullptr}, {"placements", json::array()}});
    return;
  }
  json j = legal_json(s->state());
  j["version"] = s->version;
  res.send(j);
}

void Api::move(const Request& req, Response& res, const std::string& id) {
  json body = parse_body(req.body);
  auto s = games_.find(id);
  std::lock_guard lk(s->m);
  const int seat = seat_for(*s, body, req);
  if (s->paused && !s->over()) fail(423, "this game is paused by the server's operator");
  const int turn = int_field(body, "turn", s->state().turn() + 1, 1, int(carc::limits::kMaxRecordTurns) + 1);
  table_call([&] { s->table->check_move_allowed(seat, turn); });
  Move m = move_from(s->state(), body);
  // Applied, published and answered only once saved: a failed write restores the game (503).
  table_call([&] {
    games_.change(*s, s, [&] {
      s->access[size_t(seat)].joined = true;
      s->table->play(seat, m);
    });
  });
  res.send(view_json(*s));
}

void Api::undo(const Request& req, Response& res, const std::string& id) {
  json body = parse_body(req.body);
  auto s = games_.find(id);
  std::lock_guard lk(s->m);
  const int seat = seat_for(*s, body, req);
  // The undo policy (docs/security.md) is the table's (match::Table::undo). What is still hidden
  // is drawn afresh from a new secret seed.
  table_call([&] { games_.change(*s, s, [&] { s->table->undo(seat, random_seed()); }); });
  res.send(view_json(*s));
}

void Api::resign(const Request& req, Response& res, const std::string& id) {
  json body = parse_body(req.body);
  auto s = games_.find(id);
  std::lock_guard lk(s->m);
  const int seat = seat_for(*s, body, req);
  table_call([&] { games_.change(*s, s, [&] { s->table->resign(seat); }); });
  res.send(view_json(*s));
}

void Api::join(const Request& req, Response& res, const std::string& id) {
  json body = parse_body(req.body);
  auto s = games_.find(id);
  std::lock_guard lk(s->m);
  const int seat = seat_for(*s, body, req);
  if (!s->access[size_t(seat)].joined) games_.change(*s, s, [&] { s->access[size_t(seat)].joined = true; });
  res.send({{"seat", seat}, {"name", s->seat(seat).name}, {"game", view_json(*s)}});
}

// Hints for the player to move (docs/server.md, "Hints"; limits in docs/security.md): the best
// few moves by an MCTS search that sees only public information, each with its estimated win
// probability and expected score difference, and the body that plays it.
void Api::hint(const Request& req, Response& res, const std::string& id) {
  json body = parse_body(req.body);
  auto s = games_.find(id);
  std::unique_ptr<State> copy;
  int seat;
  {
    std::lock_guard lk(s->m);
    seat = seat_for(*s, body, req);
    if (s->paused && s->table->allow_hints() && !s->over()) fail(423, "this game is paused by the server's operator");
    // Whether a hint is allowed, and the position it searches (everything hidden drawn afresh
    // from a secret seed): the table's (match::Table::hint_position).
    State pub = table_call([&] { return s->table->hint_position(seat, random_seed()); });
    const auto now = std::chrono::steady_clock::now();
    auto& last = s->last_hint[size_t(seat)];
    const std::chrono::milliseconds interval{games_.ai_limits().hint_interval_ms};
    if (last.time_since_epoch().count() != 0 && now - last < interval) {
      const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(interval - (now - last));
      fail(429, "one hint per player every " + (interval.count() % 1000 ? std::to_string(interval.count()) + " ms" : std::to_string(interval.count() / 1000) + " s") + ": try again in " +
                    std::to_string(wait.count()) + " ms");
    }
    if (s->hint_running) fail(429, "a hint for this game is being computed; try again when it is shown");
    // Several processes on one database: the seat's interval holds across them too (a shared
    // bucket of one hint per interval; a store of one process keeps none: -1).
    if (const int64_t w = db_.take_token("hint", s->id + ":" + std::to_string(seat), 1, interval.count()); w > 0)
      fail(429, "one hint per player every " + std::to_string(interval.count()) + " ms: try again in " + std::to_string(w) + " ms");
    last = now;
    s->hint_running = true;
    copy = std::make_unique<State>(std::move(pub));
  }
  // The interval counts from the end of the search too, so that a slow search (a loaded
  // machine, a large budget) cannot be followed by another at once.
  struct Running {
    Session& s;
    size_t seat;
    ~Running() {
      std::lock_guard lk(s.m);
      s.hint_running = false;
      if (seat < s.last_hint.size()) s.last_hint[seat] = std::chrono::steady_clock::now();
    }
  } running{*s, size_t(seat)};
  const std::vector<ai::MoveEval> evals = games_.hint(*copy, owner_of(req));
  json moves = json::array();
  for (const ai::MoveEval& e : evals)
    moves.push_back({{"move", move_body_json(*copy, e.move)},
                     {"description", describe_move(*copy, e.move)},
                     {"win_probability", e.win_probability},
                     {"score_diff", e.score_diff},
                     {"visits", e.visits}});
  res.send({{"turn", copy->turn() + 1}, {"player", seat}, {"moves", moves}});
}

void Api::record(const Request& req, Response& res, const std::string& id) {
  auto s = games_.find(id);
  std::lock_guard lk(s->m);
  // What a player may download (public_view.h): a running game's seed, which decides its future
  // draws, is covered by a fresh secret one (the record still replays the game so far exactly,
  // its turn in progress included).
  const Record rec = public_record(s->table->record(), s->over(), random_seed());
  res.set_header("Content-Disposition", "attachment; filename=\"carcassonne-" + s->id + ".json\"");
  res.status = 200;
  res.body = record_to_json(rec);
}

void Api::replay(const Request& req, Response& res, const std::string& id) {
  auto s = games_.find(id);
  Record rec;
  {
    std::lock_guard lk(s->m);
    rec = s->table->record();
  }
  const int total = int(rec.turns.size());
  int turn = total;
  if (req.has_param("turn")) {
    try {
      turn = std::stoi(req.param("turn"));
    } catch (const std::exception&) {
      fail(400, "'turn' must be a number");
    }
  }
  if (turn < 0 || turn > total) fail(400, "'turn' must be between 0 and " + std::to_string(total));
  rec.keep_turns(size_t(turn));
  Replay rp = carc::replay(rec);
  if (turn == total && rp.state.is_chance()) advance(rp.state);
  json j = board_json(rp.state, rp.events, rec.players);
  j["id"] = s->id;
  j["replay_turn"] = turn;
  j["turns_total"] = total;
  if (turn > 0) {
    const TurnRecord& t = rec.turns[size_t(turn - 1)];
    // The turn's move as a record writes it (the one move object: follower, take_back, fruit...).
    json mv = json::parse(carc::turn_json(t));
    mv["player"] = (turn - 1) % int(rec.players.size());
    j["move"] = mv;
  }
  res.send(j);
}

// The live event stream of a game (server-sent events): its state now and at every change.
void Api::events(const Request&, Response& res, const std::string& id) {
  std::shared_ptr<Session> s = games_.find(id);
  res.status = 200;
  res.content_type = "text/event-stream";
  res.set_header("Cache-Control", "no-cache");
  res.set_header("X-Accel-Buffering", "no");
  res.stream = std::make_shared<EventSource>();
  res.stream->subscribe = [s](Deliver deliver) -> std::function<void()> {
    std::lock_guard lk(s->m);
    const uint64_t n = s->next_watcher++;
    deliver(std::make_shared<const std::string>("event: state\ndata: " + view_json(*s).dump() + "\n\n"));
    s->watchers.emplace(n, std::move(deliver));
    return [s, n] {
      std::lock_guard lk2(s->m);
      s->watchers.erase(n);
    };
  };
}

// The chat of a game (docs/server.md, "Chat"): a seat's token (X-Seat-Token) reads it; without
// one, only when every seat a person holds lets spectators read it (403 otherwise).
void Api::chat(const Request& req, Response& res, const std::string& id) {
  auto s = games_.find(id);
  std::lock_guard lk(s->m);
  if (!s->chat_public()) seat_for(*s, json::object(), req);
  res.send({{"chat", chat_json(*s)}, {"chat_public", s->chat_public()}});
}

// Posts a chat message ("text") and/or sets whether spectators may read the chat ("spectators":
// true or false, for the poster's seat). Only the seats of a game with a friend (a remote
// seat) chat; the text is cleaned like a player name and has at most kMaxChatMessageBytes; a seat
// posts at most once per kChatInterval (429). Saved with the game (its meta), then published.
void Api::post_chat(const Request& req, Response& res, const std::string& id) {
  json body = parse_body(req.body);
  auto s = games_.find(id);
  std::lock_guard lk(s->m);
  const int seat = seat_for(*s, body, req);
  if (s->view_only()) fail(409, "this game is only for viewing");
  if (!s->has_remote()) fail(409, "chat is for games with a friend (a seat that joins by link)");
  std::optional<bool> spectators;
  if (auto it = body.find("spectators"); it != body.end() && !it->is_null()) {
    if (!it->is_boolean()) fail(400, "'spectators' must be true or false");
    spectators = it->get<bool>();
  }
  std::string text;
  const bool has_text = body.contains("text") && !body["text"].is_null();
  if (has_text) {
    if (!body["text"].is_string()) fail(400, "'text' must be a string");
    const std::string given = body["text"].get<std::string>();
    const auto too_long = [](size_t n) {
      fail(400, "a chat message has at most " + std::to_string(limits::kMaxChatMessageBytes) + " bytes (this one has " +
                    std::to_string(n) + ")");
    };
    // refused before cleaning too, so a huge text of spaces costs nothing to clean
    if (given.size() > 4 * limits::kMaxChatMessageBytes) too_long(given.size());
    if (auto err = carc::limits::clean_player_name(given, text); !err.empty()) fail(400, "the chat message " + err);
    if (text.size() > limits::kMaxChatMessageBytes) too_long(text.size());
    if (text.empty()) fail(400, "the chat message is empty");
  }
  if (!has_text && !spectators) fail(400, "'text' (a message) or 'spectators' (true or false) is required");
  if (has_text) {
    s->last_chat.resize(s->num_seats());
    const auto now = std::chrono::steady_clock::now();
    const auto last = s->last_chat[size_t(seat)];
    if (last.time_since_epoch().count() != 0 && now - last < limits::kChatInterval) {
      const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(limits::kChatInterval - (now - last));
      fail_retry(429, "one chat message per " + std::to_string(limits::kChatInterval.count()) + " ms per seat; try again in " +
                          std::to_string(wait.count()) + " ms",
                 retry_after_seconds(wait));
    }
  }
  games_.change(*s, s, [&] {
    if (spectators) s->access[size_t(seat)].chat_public = *spectators;
    if (has_text) {
      s->chat.push_back(ChatLine{seat, s->seat(seat).name, text, now_ms()});
      if (s->chat.size() > limits::kMaxChatMessages)
        s->chat.erase(s->chat.begin(), s->chat.end() - long(limits::kMaxChatMessages));
    }
  });
  if (has_text) s->last_chat[size_t(seat)] = std::chrono::steady_clock::now();
  res.send({{"chat", chat_json(*s)}, {"chat_public", s->chat_public()}});
}

// A rematch of a finished game (docs/server.md, "Rematch"): a new game with the same seats
// (names, kinds, computer levels; each seat's token holds its seat again), the same rules and a
// new secret seed; the old game names it ("rematch" in its view), so every seat holder's client
// is sent there by the event stream. Asked again, it answers the same game. Counts as a new game
// for the asking client's quota.
void Api::rematch(const Request& req, Response& res, const std::string& id) {
  json body = parse_body(req.body);
  auto s = games_.find(id);
  static std::mutex one_at_a_time;  // two seats asking at once make one game
  std::lock_guard rl(one_at_a_time);
  std::vector<Seat> seats;
  Record rec;
  bool hints = false, fair = false;
  {
    std::lock_guard lk(s->m);
    seat_for(*s, body, req);
    if (s->view_only()) fail(409, "this game is only for viewing");
    if (!s->over()) fail(409, "the game is not over: a rematch starts from a finished game");
    if (!s->rematch.empty()) {
      res.send({{"id", s->rematch}});
      return;
    }
    for (size_t i = 0; i < s->num_seats(); ++i) {
      const match::Seat& old = s->seat(int(i));
      Seat n(old.name, old.type);
      n.ai = old.ai;
      n.token_hash = s->access[i].token_hash;
      n.joined = s->access[i].joined;
      n.chat_public = s->access[i].chat_public;
      seats.push_back(std::move(n));
      rec.players.push_back(old.name);
    }
    rec.tileset = s->state().rules().tileset;
    rec.expansions = s->state().rules().expansions();
    hints = s->table->allow_hints();
    fair = s->has_remote();
  }
  rec.seed = random_seed();  // replaced by a committed secret one when a friend plays (fair draws)
  const std::string owner = owner_of(req);
  take_quota(creates_, owner, "new games", quotas_.create_burst, quotas_.create_refill);
  auto ns = games_.add_session(std::move(seats), rec, false, hints, owner, fair);
  std::string new_id;
  {
    std::lock_guard nl(ns->m);
    new_id = ns->id;
  }
  std::lock_guard lk(s->m);
  games_.change(*s, s, [&] { s->rematch = new_id; });
  res.send({{"id", new_id}}, 201);
}

}  // namespace carc::server
