// A game in progress (see table.h).
#include "table.h"

#include <algorithm>
#include <cstdlib>

#include "input_limits.h"
#include "seeds.h"

namespace carc::match {

using json = nlohmann::json;

AiResult think(const AiTurn& t) {
  AiResult r;
  try {
    if (!t.player || !t.position) throw std::invalid_argument("no player or position");
    r.move = t.player->choose(*t.position);
    if (const std::string why = t.position->check_move(r.move); !why.empty())
      r.error = "it chose an illegal move (" + why + ")";
  } catch (const std::exception& e) {
    r.error = std::string("its search failed: ") + e.what();
  }
  return r;
}

int people(const std::vector<Seat>& seats) {
  int n = std::any_of(seats.begin(), seats.end(), [](const Seat& x) { return x.type == "human"; }) ? 1 : 0;
  for (const Seat& x : seats) n += x.type == "remote";
  return n;
}

Table::Table(std::vector<Seat> seats, const Record& rec, bool view_only, bool allow_hints)
    : seats_(std::move(seats)), view_only_(view_only), allow_hints_(allow_hints) {
  if (seats_.size() != rec.players.size())
    throw std::invalid_argument("the record has " + std::to_string(rec.players.size()) + " players for " +
                                std::to_string(seats_.size()) + " seats");
  Replay rp = replay(rec);
  state_ = std::make_unique<State>(std::move(rp.state));
  events_ = std::move(rp.events);
  state_->set_event_log(&events_);
  players_.resize(seats_.size());
  if (!view_only_) advance();
}

Table::Table(const Table& o)
    : seats_(o.seats_),
      state_(std::make_unique<State>(*o.state_)),
      events_(o.events_),
      view_only_(o.view_only_),
      allow_hints_(o.allow_hints_),
      end_reason_(o.end_reason_),
      failure_(o.failure_),
      players_(o.players_) {
  state_->set_event_log(&events_);
}

Table& Table::operator=(const Table& o) {
  if (this == &o) return *this;
  seats_ = o.seats_;
  state_ = std::make_unique<State>(*o.state_);
  events_ = o.events_;
  state_->set_event_log(&events_);
  view_only_ = o.view_only_;
  allow_hints_ = o.allow_hints_;
  end_reason_ = o.end_reason_;
  failure_ = o.failure_;
  players_ = o.players_;
  return *this;
}

void Table::advance() {
  while (state_->is_chance()) state_->draw_random();
}

std::vector<std::string> Table::names() const {
  std::vector<std::string> n;
  for (const auto& s : seats_) n.push_back(s.name);
  return n;
}

std::string Table::status() const {
  if (view_only_) return "view";
  if (!end_reason_.empty() || state_->is_terminal()) return "finished";
  return "playing";
}

int Table::people() const { return match::people(seats_); }

bool Table::ai_only() const {
  return std::none_of(seats_.begin(), seats_.end(), [](const Seat& x) { return x.person(); });
}
bool Table::has_ai() const {
  return std::any_of(seats_.begin(), seats_.end(), [](const Seat& x) { return x.type == "ai"; });
}
bool Table::has_remote() const {
  return std::any_of(seats_.begin(), seats_.end(), [](const Seat& x) { return x.type == "remote"; });
}

int Table::auto_seat() const {
  if (over() || failure_) return -1;
  const int p = state_->current_player();
  if (p < 0) return -1;
  return seats_[size_t(p)].type == "ai" || seats_[size_t(p)].resigned ? p : -1;
}

void Table::check_seat(int seat) const {
  if (seat < 0 || size_t(seat) >= seats_.size())
    throw Refused(Refused::Invalid, "no seat " + std::to_string(seat) + " (this game has " +
                                        std::to_string(seats_.size()) + ")");
}

void Table::check_move_allowed(int seat, int turn) const {
  check_seat(seat);
  if (view_only_) throw Refused(Refused::Conflict, "this game is only for viewing");
  if (over()) throw Refused(Refused::Conflict, "the game is over");
  const State& st = *state_;
  if (st.current_player() != seat) {
    if (st.phase() == Phase::Plague)
      throw Refused(Refused::Conflict, "the Plague: it is " + seats_[size_t(st.current_player())].name +
                                           "'s decision, not " + seats_[size_t(seat)].name + "'s");
    throw Refused(Refused::Conflict,
                  "it is " + seats_[size_t(st.turn_player())].name + "'s turn, not " + seats_[size_t(seat)].name + "'s");
  }
  if (seats_[size_t(seat)].resigned) throw Refused(Refused::Conflict, "you resigned from this game");
  if (turn != 0 && turn != st.turn() + 1)
    throw Refused(Refused::Conflict, "this move is for turn " + std::to_string(turn) + ", the game is at turn " +
                                         std::to_string(st.turn() + 1));
}

void Table::play(int seat, const Move& m) {
  check_move_allowed(seat);
  if (const std::string why = state_->check_move(m); !why.empty()) throw Refused(Refused::Illegal, why);
  state_->apply(m);
  advance();
}

void Table::undo(int seat, uint64_t fresh_seed) {
  check_seat(seat);
  if (view_only_) throw Refused(Refused::Conflict, "this game is only for viewing");
  if (has_remote()) throw Refused(Refused::Conflict, "undo is only allowed in games without other human players");
  if (over()) throw Refused(Refused::Conflict, "the game is over");
  const size_t n = seats_.size();
  Record rec = record();
  size_t keep = rec.turns.size();  // turns 1..keep stay
  while (keep > 0 && (keep - 1) % n != size_t(seat)) {
    const Seat& by = seats_[(keep - 1) % n];
    if (by.type != "ai" && !by.resigned)
      throw Refused(Refused::Conflict, by.name + " has moved since your last move: only " + by.name +
                                           " can take that move back");
    --keep;
  }
  if (keep == 0) throw Refused(Refused::Conflict, "there is no move of yours to take back");
  const TurnRecord undone = rec.turns[keep - 1];
  rec.keep_turns(keep - 1);  // the turn in progress goes too
  // A fresh seed: the generator that decides the coming draws and the order of the fruit
  // tokens still face down are new, so undoing never shows what would have come next. The
  // record replays exactly all the same: it lists every drawn tile and revealed token.
  rec.seed = fresh_seed;
  Replay rp = carc::replay(rec);
  auto st = std::make_unique<State>(std::move(rp.state));
  // The undone turn's own draws were already seen: they come again (drawing them afresh would
  // let a player re-roll a tile by undoing). Only what comes after is new.
  events_ = std::move(rp.events);
  state_ = std::move(st);
  state_->set_event_log(&events_);
  auto draw = [this](const std::string& tile) {
    const int t = state_->game().type_index(tile);
    if (t >= 0 && state_->is_chance() && state_->bag_count(t) > 0) state_->apply_draw(t);
  };
  for (const std::string& d : undone.discarded) draw(d);
  if (undone.drawn.empty()) draw(undone.tile);
  for (const std::string& d : undone.drawn) draw(d);
  advance();
  failure_.reset();
}

void Table::resign(int seat) {
  check_seat(seat);
  if (over()) throw Refused(Refused::Conflict, "the game is over");
  if (seats_[size_t(seat)].resigned) throw Refused(Refused::Conflict, "you already resigned");
  seats_[size_t(seat)].resigned = true;
  int left = 0;
  for (const Seat& x : seats_) left += !x.resigned;
  if (left <= 1) end_reason_ = seats_[size_t(seat)].name + " resigned";
  failure_.reset();
}

std::optional<AiTurn> Table::ai_turn(const PlayerFactory& make) {
  const int seat = auto_seat();
  if (seat < 0) return std::nullopt;
  const Seat& s = seats_[size_t(seat)];
  AiTurn t;
  t.seat = seat;
  t.spec = s.type == "ai" ? s.ai : "greedy";
  t.turn = state_->turn();
  if (!players_[size_t(seat)]) {
    try {
      players_[size_t(seat)] = make(t.spec, seat_seed(state_->seed(), seat));  // the one seed rule (seeds.h)
      if (!players_[size_t(seat)]) throw std::invalid_argument("no player");
    } catch (const std::exception& e) {
      failure_ = AiFailure{seat, t.spec, std::string("its player cannot be made: ") + e.what()};
      return std::nullopt;
    }
  }
  t.player = players_[size_t(seat)];
  t.position = std::make_shared<const State>(*state_);
  return t;
}

void Table::finish_ai_turn(const AiTurn& t, const AiResult& r) {
  if (auto_seat() != t.seat || state_->turn() != t.turn)
    throw Refused(Refused::Conflict, "this AI turn is no longer due (the game changed)");
  if (!r.error.empty()) {
    failure_ = AiFailure{t.seat, t.spec, r.error};
    return;
  }
  if (const std::string why = state_->check_move(r.move); !why.empty()) {
    failure_ = AiFailure{t.seat, t.spec, "it chose an illegal move (" + why + ")"};
    return;
  }
  state_->apply(r.move);
  advance();
}

void Table::adopt_players(const Table& o) {
  for (size_t i = 0; i < players_.size() && i < o.players_.size() && i < o.seats_.size(); ++i)
    if (!players_[i] && seats_[i].type == o.seats_[i].type && seats_[i].ai == o.seats_[i].ai &&
        seats_[i].resigned == o.seats_[i].resigned)
      players_[i] = o.players_[i];
}

State Table::hint_position(int seat, uint64_t hidden_seed) const {
  check_seat(seat);
  if (!allow_hints_)
    throw Refused(Refused::Forbidden, "hints are off in this game: it has " + std::to_string(people()) +
                                          " human players and was not created with \"allow_hints\": true");
  if (view_only_) throw Refused(Refused::Conflict, "this game is only for viewing");
  if (over()) throw Refused(Refused::Conflict, "the game is over");
  if (state_->current_player() != seat)
    throw Refused(Refused::Conflict, "hints are for the player to move: it is " +
                                         seats_[size_t(state_->current_player())].name + "'s turn, not " +
                                         seats_[size_t(seat)].name + "'s");
  if (seats_[size_t(seat)].resigned) throw Refused(Refused::Conflict, "you resigned from this game");
  // The search sees only what the player sees: the hidden part (the bag's order, face-down
  // fruit tokens) is drawn afresh (MCTS redraws it again at every iteration).
  State pub = *state_;
  pub.set_event_log(nullptr);
  Rng rng(hidden_seed);
  pub.resample_hidden(rng);
  return pub;
}

// ---------------------------------------------------------------------------------------
// Saving

// Games saved before record format 2 kept their turn in progress in the meta ("pending"); format
// 2 keeps it in the record, and both are read into the one form (the record's PendingTurn).
std::string pending_from_json(const json& j, PendingTurn& p) {
  p = PendingTurn{};
  if (j.is_null()) return "";
  if (!j.is_object()) return "'pending' is not an object";
  if (auto it = j.find("draws"); it != j.end()) {
    if (!it->is_array() || it->size() > carc::limits::kMaxListEntries) return "'pending.draws' is not a list of tile ids";
    for (const auto& id : *it) {
      if (!id.is_string()) return "'pending.draws' is not a list of tile ids";
      p.draws.push_back(id.get<std::string>());
    }
  }
  if (auto it = j.find("choice"); it != j.end()) {
    if (!it->is_number_unsigned() || it->get<uint64_t>() > 255) return "'pending.choice' is not a drawn tile's index";
    p.choice = int(it->get<uint64_t>());
  }
  if (auto it = j.find("plague"); it != j.end()) {
    if (!it->is_array() || it->size() > carc::limits::kMaxListEntries) return "'pending.plague' is not a list of places";
    for (const auto& e : *it) {
      if (!e.is_object() || !e.contains("x") || !e["x"].is_number_integer() || !e.contains("y") ||
          !e["y"].is_number_integer() || !e.contains("at") || !e["at"].is_string())
        return "'pending.plague' entries are {x, y, at}";
      const int64_t x = e["x"].get<int64_t>(), y = e["y"].get<int64_t>();
      if (std::abs(x) > carc::limits::kMaxCoordinate || std::abs(y) > carc::limits::kMaxCoordinate)
        return "'pending.plague' names a place off the board";
      p.plague.push_back(ReturnSpec{int(x), int(y), e["at"].get<std::string>()});
    }
  }
  return "";
}

json Table::to_json() const {
  json seats = json::array();
  for (const Seat& s : seats_)
    seats.push_back({{"name", s.name}, {"type", s.type}, {"ai", s.ai}, {"resigned", s.resigned}});
  return {{"seats", seats},
          {"view_only", view_only_},
          {"end_reason", end_reason_},
          {"allow_hints", allow_hints_}};
}

std::unique_ptr<Table> Table::from_json(const json& meta, const std::string& record_text,
                                        std::optional<bool> allow_hints_default) {
  if (!meta.is_object()) throw std::invalid_argument("the saved table is not an object");
  if (!meta.contains("seats") || !meta["seats"].is_array()) throw std::invalid_argument("the saved table has no 'seats' list");
  std::vector<Seat> seats;
  for (const auto& j : meta["seats"]) {
    if (!j.is_object() || !j.contains("name") || !j["name"].is_string() || !j.contains("type") || !j["type"].is_string())
      throw std::invalid_argument("a saved seat is not {name, type, ...}");
    Seat s;
    s.name = j["name"].get<std::string>();
    s.type = j["type"].get<std::string>();
    if (s.type != "human" && s.type != "remote" && s.type != "ai")
      throw std::invalid_argument("a saved seat's type is '" + s.type + "' (human, remote or ai)");
    s.ai = j.contains("ai") && j["ai"].is_string() ? j["ai"].get<std::string>() : "";
    s.resigned = j.contains("resigned") && j["resigned"].is_boolean() && j["resigned"].get<bool>();
    seats.push_back(std::move(s));
  }
  const bool view_only = meta.contains("view_only") && meta["view_only"].is_boolean() && meta["view_only"].get<bool>();
  bool hints;
  if (meta.contains("allow_hints") && meta["allow_hints"].is_boolean())
    hints = meta["allow_hints"].get<bool>();
  else
    hints = allow_hints_default ? *allow_hints_default : hints_default(match::people(seats));
  // The saved turn in progress is in the record (format 2) or, for games saved before it, in the
  // meta. It is restored exactly, every decision checked, or not at all (never half-restored).
  Record rec;
  std::string err;
  try {
    rec = parse_record(record_text);
  } catch (const RecordError& e) {
    const std::string what = e.what();
    if (what.rfind("pending", 0) != 0) throw;
    err = what;  // the record's turn in progress has a bad shape
  }
  if (err.empty() && view_only) rec.pending = PendingTurn{};
  else if (err.empty() && rec.pending.empty())
    err = pending_from_json(meta.contains("pending") ? meta["pending"] : json(nullptr), rec.pending);
  if (!err.empty()) throw PendingError("its saved turn in progress does not fit the game (" + err + ")");
  std::unique_ptr<Table> t;
  try {
    t = std::make_unique<Table>(std::move(seats), rec, view_only, hints);
  } catch (const RecordError& e) {
    const std::string what = e.what();
    if (what.rfind("pending: ", 0) != 0) throw;
    throw PendingError("its saved turn in progress does not fit the game (" + what.substr(9) + ")");
  }
  t->end_reason_ = meta.contains("end_reason") && meta["end_reason"].is_string() ? meta["end_reason"].get<std::string>() : "";
  return t;
}

}  // namespace carc::match
