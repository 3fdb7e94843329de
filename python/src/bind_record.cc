// Bindings: game records (docs/record-format.md): parse, write, replay, and the record of a
// state. Errors in a record raise carcassonne.RecordError (a ValueError) naming the turn.
#include <pybind11/stl.h>

#include <fstream>
#include <sstream>

#include "common.h"

namespace carc::py {

namespace {

pyb::dict turn_dict(const TurnRecord& t) {
  pyb::dict d;
  d["tile"] = t.tile;
  d["x"] = t.x;
  d["y"] = t.y;
  d["rotation"] = t.rotation;
  d["follower"] = t.follower.empty() ? pyb::object(pyb::none()) : pyb::object(pyb::str(t.follower));
  d["discarded"] = t.discarded;
  d["drawn"] = t.drawn;
  d["player"] = t.player ? pyb::object(pyb::int_(*t.player)) : pyb::object(pyb::none());
  d["take_back"] = t.take_back ? pyb::object(pyb::make_tuple(t.take_back->x, t.take_back->y, t.take_back->at)) : pyb::object(pyb::none());
  d["fruit_type"] = t.fruit_type.empty() ? pyb::object(pyb::none()) : pyb::object(pyb::str(t.fruit_type));
  d["harvest"] = t.harvest ? pyb::object(pyb::make_tuple(t.harvest->x, t.harvest->y)) : pyb::object(pyb::none());
  d["harvest_value"] = t.harvest_value ? pyb::object(pyb::int_(*t.harvest_value)) : pyb::object(pyb::none());
  d["sell"] = t.sell;
  pyb::list plague;
  for (const auto& p : t.plague) plague.append(pyb::make_tuple(p.x, p.y, p.at));
  d["plague"] = plague;
  return d;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::invalid_argument("cannot write " + path);
  out << text;
}

}  // namespace

void bind_record(pyb::module_& m) {
  pyb::register_exception<RecordError>(m, "RecordError", PyExc_ValueError);
  pyb::register_exception<TileDataError>(m, "TileDataError", PyExc_ValueError);

  pyb::class_<Record>(m, "Record", "A game record: setup (players, tile set, expansions, seed) and turns.")
      .def_readwrite("players", &Record::players, "Player names, one per seat.")
      .def_readwrite("tileset", &Record::tileset, "Tile set name.")
      .def_readwrite("expansions", &Record::expansions, "Expansion names.")
      .def_readwrite("seed", &Record::seed, "Seed of the draw generator.")
      .def_readwrite("scripted", &Record::scripted, "True when the draws are the tiles listed (not the seed's).")
      .def_property_readonly(
          "turns",
          [](const Record& r) {
            pyb::list l;
            for (const auto& t : r.turns) l.append(turn_dict(t));
            return l;
          },
          "The turns as dicts: tile, x, y, rotation (degrees), meeple (a location, 'crown:taxes:0' or None), "
          "discarded, drawn, player, take_back ((x, y, at) or None), fruit_type, harvest ((x, y) or None), "
          "harvest_value, sell, plague ([(x, y, at)]: the followers taken back for the Plague before the tile "
          "was placed).")
      .def("__len__", [](const Record& r) { return r.turns.size(); })
      .def("rules", &rules_of, "The rule variant of the record.")
      .def("to_json", &record_to_json, "The record's JSON text (docs/record-format.md).")
      .def(
          "save", [](const Record& r, const std::string& path) { write_text(path, record_to_json(r)); },
          pyb::arg("path"), "Writes the record's JSON to a file.")
      .def("__repr__",
           [](const Record& r) {
             return "<carcassonne.Record " + rules_of(r).to_string() + ", " + std::to_string(r.turns.size()) +
                    " turns>";
           })
      .def(pyb::pickle([](const Record& r) { return record_to_json(r); },
                       [](const std::string& s) { return parse_record(s); }));

  m.def(
      "parse_record", [](const std::string& text) { return parse_record(text); }, pyb::arg("text"),
      "Parses a record's JSON text (shape only; replay() checks the moves).");
  m.def(
      "load_record", [](const std::string& path) { return parse_record(read_text(path)); }, pyb::arg("path"),
      "Reads and parses a record file.");
  m.def("record_to_json", &record_to_json, pyb::arg("record"), "A record's JSON text.");
  m.def(
      "save_record", [](const Record& r, const std::string& path) { write_text(path, record_to_json(r)); },
      pyb::arg("record"), pyb::arg("path"), "Writes a record's JSON to a file.");
  m.def(
      "record_of",
      [](const PyState& ps, std::vector<std::string> names, bool scripted) { return record_of(ps.s, names, scripted); },
      pyb::arg("state"), pyb::arg("names") = std::vector<std::string>{}, pyb::arg("scripted") = false,
      "The record of a game so far (player names default to P0, P1, ...).");
  m.def(
      "replay",
      [](const Record& r, bool final, bool auto_chance, int radius) {
        Replay rp = replay(r, final);
        return PyState(std::move(rp.state), auto_chance, radius);
      },
      pyb::arg("record"), pyb::arg("final") = false, pyb::arg("auto_chance") = false,
      pyb::arg("radius") = kDefaultRadius,
      "Replays every turn (checking each) and returns the state; with final=True also applies the "
      "end-of-game scoring. Raises RecordError.");
  m.def(
      "replay_events",
      [](const Record& r, bool final) {
        Replay rp = replay(r, final);
        std::vector<std::tuple<int, int, int, std::string, bool, int, int>> ev;
        for (const auto& e : rp.events) ev.emplace_back(e.turn, e.player, e.points, e.kind, e.final, e.x, e.y);
        return std::make_pair(ev, rp.after_turn);
      },
      pyb::arg("record"), pyb::arg("final") = false,
      "([(turn, player, points, kind, final, x, y)], scores after each turn) of a replay. Wheel of Fortune: "
      "kinds 'pig' and 'plague' (0 points) report the pig's moves and the Plague's take-backs; replay_log "
      "has their details.");
  m.def(
      "replay_log",
      [](const Record& r, bool final) {
        Replay rp = replay(r, final);
        const Game& g = rp.state.game();
        auto seg = [&](int i) { return std::string(kWheelEventNames[int(g.wheel()[size_t(i)].event)]); };
        pyb::list out;
        for (const auto& e : rp.events) {
          pyb::dict d;
          d["turn"] = e.turn;
          d["player"] = e.player;
          d["points"] = e.points;
          d["kind"] = e.kind;
          d["final"] = e.final;
          d["x"] = e.x;
          d["y"] = e.y;
          if (e.segment >= 0) d["segment"] = seg(e.segment);
          if (e.kind == "pig") {
            d["from"] = seg(e.from);
            d["to"] = seg(e.segment);
            d["steps"] = e.steps;
            d["tile"] = e.tile;
          }
          if (e.kind == "plague") d["at"] = e.at;
          out.append(d);
        }
        return out;
      },
      pyb::arg("record"), pyb::arg("final") = false,
      "Every event of a replay as a dict {turn, player, points, kind, final, x, y}; Wheel of Fortune scorings "
      "add 'segment' (the pig's segment: 'taxes', ...), a 'pig' event (0 points) adds from, to, steps and "
      "tile (the drawn tile that turned the wheel), a 'plague' event (0 points) names the deciding player "
      "and the follower taken back (x, y, at).");
  m.def(
      "initial_state",
      [](const Record& r, bool auto_chance, int radius) { return PyState(initial_state(r), auto_chance, radius); },
      pyb::arg("record"), pyb::arg("auto_chance") = false, pyb::arg("radius") = kDefaultRadius,
      "A new game in the record's setup, at the first chance node.");
}

}  // namespace carc::py
