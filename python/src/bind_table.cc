// Bindings: the game in progress (src/match/table.h), the object the server and `carcassonne play`
// play their games with: seats, the undo policy, resignation, AI turns with the AI failure policy,
// hints and saving. Its refusals (match::Refused) are ValueError with the table's message.
#include <pybind11/stl.h>

#include <optional>
#include <tuple>

#include "common.h"
#include "input_limits.h"
#include "player.h"
#include "table.h"

namespace carc::py {

namespace {

struct PyTable {
  std::unique_ptr<match::Table> t;
};

match::Seat seat_of(const pyb::handle& h) {
  const auto tup = h.cast<std::vector<std::string>>();
  if (tup.size() < 2 || tup.size() > 3)
    throw std::invalid_argument("a seat is (name, type) or (name, 'ai', spec), type human, remote or ai");
  // The name is checked like every player name (limits::clean_player_name: UTF-8, no control or
  // invisible characters, at most kMaxPlayerNameBytes), since it is shown and saved.
  std::string name;
  if (const std::string err = limits::clean_player_name(tup[0], name); !err.empty())
    throw std::invalid_argument("seat name '" + tup[0] + "': " + err);
  if (name.size() > limits::kMaxPlayerNameBytes)
    throw std::invalid_argument("seat name: " + std::to_string(name.size()) + " bytes, at most " +
                                std::to_string(limits::kMaxPlayerNameBytes));
  match::Seat s{name, tup[1], tup.size() == 3 ? tup[2] : "", false};
  if (s.type != "human" && s.type != "remote" && s.type != "ai")
    throw std::invalid_argument("a seat's type is human, remote or ai, not '" + s.type + "'");
  if (s.type == "ai" && s.ai.empty()) s.ai = "greedy";
  return s;
}

template <class F>
decltype(auto) refused_as_value_error(F&& f) {
  try {
    return f();
  } catch (const match::Refused& e) {
    throw pyb::value_error(e.what());
  }
}

}  // namespace

void bind_table(pyb::module_& m) {
  pyb::class_<PyTable>(m, "Table",
                       "A game in progress as the server and `carcassonne play` hold it (src/match/table.h): seats "
                       "(people and AI players), the undo policy, resignation, AI turns and hints. Refused requests "
                       "raise ValueError and change nothing.")
      .def(pyb::init([](const PyGame& g, const pyb::list& seats, uint64_t seed) {
             Record rec;
             std::vector<match::Seat> ss;
             for (const auto& h : seats) ss.push_back(seat_of(h));
             if (int(ss.size()) != g.rules.players)
               throw std::invalid_argument("need one seat per player: " + std::to_string(g.rules.players) + " players, " +
                                           std::to_string(ss.size()) + " seats");
             for (const auto& s : ss) rec.players.push_back(s.name);
             rec.tileset = g.rules.tileset;
             rec.expansions = g.rules.expansions();
             rec.seed = seed;
             return PyTable{std::make_unique<match::Table>(ss, rec)};
           }),
           pyb::arg("game"), pyb::arg("seats"), pyb::arg("seed"),
           "A new game of `game` (its player count) with `seats`: (name, 'human'), (name, 'remote') or "
           "(name, 'ai', spec); the draws follow `seed`, AI seat j plays with seat_seed(seed, j).")
      .def_property_readonly(
          "state", [](const PyTable& t) { return PyState(t.t->state(), false, kDefaultRadius); },
          "A copy of the state now (at a decision, or the end).")
      .def_property_readonly(
          "seats",
          [](const PyTable& t) {
            std::vector<std::tuple<std::string, std::string, std::string, bool>> out;
            for (const auto& s : t.t->seats()) out.emplace_back(s.name, s.type, s.ai, s.resigned);
            return out;
          },
          "The seats: (name, type, ai spec, resigned).")
      .def_property_readonly(
          "status", [](const PyTable& t) { return t.t->status(); }, "'playing', 'finished' or 'view'.")
      .def_property_readonly(
          "end_reason", [](const PyTable& t) { return t.t->end_reason(); }, "'' unless ended by resignation.")
      .def_property_readonly(
          "auto_seat", [](const PyTable& t) { return t.t->auto_seat(); },
          "The seat played automatically now (an AI or a resigned seat), or -1.")
      .def_property_readonly(
          "ai_failure",
          [](const PyTable& t) -> std::optional<std::tuple<int, std::string, std::string>> {
            if (const auto& f = t.t->ai_failure()) return std::make_tuple(f->seat, f->spec, f->error);
            return std::nullopt;
          },
          "(seat, spec, error) of an AI that failed (nothing is played in its place), or None.")
      .def(
          "play",
          [](PyTable& t, int seat, const PyMove& pm) {
            refused_as_value_error([&] { t.t->play(seat, to_engine(t.t->state(), pm)); });
          },
          pyb::arg("seat"), pyb::arg("move"), "Plays `move` for `seat` and draws to the next decision.")
      .def(
          "play_ai",
          [](PyTable& t) {
            int n = 0;
            const match::PlayerFactory make = [](const std::string& spec, uint64_t seed) {
              return ai::make_player(spec, seed);
            };
            pyb::gil_scoped_release nogil;
            while (auto turn = t.t->ai_turn(make)) {
              t.t->finish_ai_turn(*turn, match::think(*turn));
              if (t.t->ai_failure()) break;
              ++n;
            }
            return n;
          },
          "Plays every automatic turn due now (AI seats, resigned seats); returns how many. An AI that fails "
          "leaves ai_failure set and plays nothing. The searches run without the GIL, so other threads may play "
          "their own Tables meanwhile; one Table must not be used by two threads at once.")
      .def(
          "undo", [](PyTable& t, int seat, uint64_t seed) { refused_as_value_error([&] { t.t->undo(seat, seed); }); },
          pyb::arg("seat"), pyb::arg("seed"),
          "Takes back `seat`'s last move and the automatic replies after it (the server's undo policy); what is "
          "still hidden is drawn afresh from `seed`.")
      .def(
          "resign", [](PyTable& t, int seat) { refused_as_value_error([&] { t.t->resign(seat); }); },
          pyb::arg("seat"), "`seat` resigns (played on by greedy; the game ends when one seat is left).")
      .def(
          "hint_position",
          [](const PyTable& t, int seat, uint64_t seed) {
            return refused_as_value_error(
                [&] { return PyState(t.t->hint_position(seat, seed), false, kDefaultRadius); });
          },
          pyb::arg("seat"), pyb::arg("seed"),
          "The position a hint for `seat` searches: the state with everything hidden drawn afresh from `seed`.")
      .def(
          "to_json", [](const PyTable& t) { return t.t->to_json().dump(); },
          "The table's saved form (the server's meta part: seats, view_only, end_reason, allow_hints); the turn in progress is in record_json().")
      .def(
          "record_json", [](const PyTable& t) { return t.t->record_json(); }, "The game as a record (JSON text).")
      .def_static(
          "from_json",
          [](const std::string& meta, const std::string& record) {
            // The meta is untrusted text like a record: its size, depth and duplicate keys are checked
            // by the readers the server uses (the record by the record reader inside from_json).
            if (meta.size() > limits::kMaxRecordBytes)
              throw std::invalid_argument("meta: " + std::to_string(meta.size()) + " bytes, at most " +
                                          std::to_string(limits::kMaxRecordBytes));
            if (const std::string err = limits::json_depth_error(meta); !err.empty())
              throw std::invalid_argument("meta: " + err);
            return PyTable{match::Table::from_json(limits::parse_json_unique_keys(meta), record)};
          },
          pyb::arg("meta"), pyb::arg("record"), "The table saved by to_json() and record_json().");
}

}  // namespace carc::py
