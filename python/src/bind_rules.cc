// Bindings: the rule variant (Rules) and the game (Game: rules + tile types + action and
// observation sizes, the factory of states).
#include <pybind11/stl.h>

#include "common.h"

namespace carc::py {

Rules make_rules(int players, const std::string& tileset, const std::vector<std::string>& expansions) {
  Rules r;
  r.players = players;
  r.tileset = tileset;
  for (const auto& e : expansions)
    if (!r.enable(e))
      throw std::invalid_argument("unknown expansion '" + e + "' (known: " + module_names(ModuleKind::Expansion) + ")");
  if (auto err = r.validate(); !err.empty()) throw std::invalid_argument(err);
  return r;
}

namespace {

PyGame make_game(const Rules& r, int radius) {
  if (radius < 1 || radius > 63) throw std::invalid_argument("radius must be 1..63");
  if (auto err = r.validate(); !err.empty()) throw std::invalid_argument(err);
  PyGame g;
  g.rules = r;
  g.game = Game::get(r);
  g.radius = radius;
  return g;
}

}  // namespace

void bind_rules(pyb::module_& m) {
  pyb::class_<Rules>(m, "Rules", "The rule variant: player count, tile set, expansions, rule options.")
      .def(pyb::init([](int players, const std::string& tileset, const std::vector<std::string>& expansions) {
             return make_rules(players, tileset, expansions);
           }),
           pyb::arg("players") = 2, pyb::arg("tileset") = "base", pyb::arg("expansions") = std::vector<std::string>{})
      .def_readwrite("players", &Rules::players, "Number of players (2..6).")
      .def_readwrite("tileset", &Rules::tileset, "'base' or 'wheel-of-fortune'.")
      .def_property(
          "festival", [](const Rules& r) { return r.has(Expansion::Festival); }, [](Rules& r, bool on) { r.set(Expansion::Festival, on); },
          "The Festival expansion is on.")
      .def_property(
          "fortune_teller", [](const Rules& r) { return r.has(Expansion::FortuneTeller); }, [](Rules& r, bool on) { r.set(Expansion::FortuneTeller, on); },
          "The Fortune Teller expansion is on.")
      .def_property(
          "fruit_trees", [](const Rules& r) { return r.has(Expansion::FruitTrees); }, [](Rules& r, bool on) { r.set(Expansion::FruitTrees, on); },
          "The Fruit-Bearing Trees expansion is on.")
      .def_readwrite("tent_scores_unoccupied", &Rules::tent_scores_unoccupied, "Fortune Teller option: an unoccupied tent scores.")
      .def_property_readonly("expansions", &Rules::expansions, "Names of the expansions on.")
      .def("enable", &Rules::enable, "Enables an expansion by name; False for an unknown name.")
      .def("validate", &Rules::validate, "'' or what is wrong with the combination.")
      .def("__str__", &Rules::to_string)
      .def("__repr__", [](const Rules& r) { return "<carcassonne.Rules " + r.to_string() + ">"; })
      .def("__eq__", [](const Rules& a, const Rules& b) { return a == b; });

  pyb::class_<PyGame>(m, "Game",
                      "A rule variant ready to play: tile types, action space and observation sizes; "
                      "new_initial_state() makes states.")
      .def(pyb::init([](int players, const std::string& tileset, const std::vector<std::string>& expansions,
                        int radius) { return make_game(make_rules(players, tileset, expansions), radius); }),
           pyb::arg("players") = 2, pyb::arg("tileset") = "base", pyb::arg("expansions") = std::vector<std::string>{},
           pyb::arg("radius") = kDefaultRadius)
      .def(pyb::init([](const Rules& r, int radius) { return make_game(r, radius); }), pyb::arg("rules"),
           pyb::arg("radius") = kDefaultRadius)
      .def_property_readonly(
          "rules", [](const PyGame& g) { return g.rules; }, "The rule variant.")
      .def_property_readonly(
          "num_players", [](const PyGame& g) { return g.rules.players; }, "Number of players.")
      .def_property_readonly(
          "radius", [](const PyGame& g) { return g.radius; },
          "Half-width R of the board window of actions and observations.")
      .def_property_readonly(
          "num_tile_types", [](const PyGame& g) { return g.game->num_types(); }, "Number of tile types (len(tile_ids)).")
      .def_property_readonly("tile_ids",
                             [](const PyGame& g) {
                               std::vector<std::string> ids;
                               for (int i = 0; i < g.game->num_types(); ++i) ids.push_back(g.game->type(i).id);
                               return ids;
                             },
                             "Tile type ids; a type's index is its position here.")
      .def_property_readonly(
          "tile_counts",
          [](const PyGame& g) {
            std::vector<int> c(g.game->initial_counts().begin(), g.game->initial_counts().end());
            return c;
          },
          "Tiles of each type in the bag at the start (start tile taken out).")
      .def_property_readonly(
          "total_tiles", [](const PyGame& g) { return g.game->total_tiles(); }, "Tiles in the bag at the start.")
      .def_property_readonly(
          "start_tile",
          [](const PyGame& g) -> std::optional<std::string> {
            if (g.game->start_type() < 0) return std::nullopt;
            return g.game->type(g.game->start_type()).id;
          },
          "The start tile's id, or None when the game starts with a board (Wheel of Fortune).")
      .def_property_readonly(
          "board_cells",
          [](const PyGame& g) {
            std::vector<std::tuple<int, int, std::string>> out;
            for (const auto& c : g.game->board_cells()) out.emplace_back(c.x, c.y, g.game->type(c.type).id);
            return out;
          },
          "Wheel of Fortune: [(x, y, tile id)] of the start board's cells (placed before the first turn, "
          "rotation 0); empty otherwise.")
      .def_property_readonly(
          "num_setup_tiles", [](const PyGame& g) { return g.game->num_setup_tiles(); },
          "Tiles on the board before the first turn: 1 start tile, or the board's 16 cells.")
      .def_property_readonly(
          "has_wheel", [](const PyGame& g) { return g.game->has_wheel(); }, "True for the Wheel of Fortune.")
      .def_property_readonly(
          "wheel",
          [](const PyGame& g) {
            std::vector<std::pair<std::string, int>> out;
            for (const auto& w : g.game->wheel()) out.emplace_back(kWheelEventNames[int(w.event)], w.crowns);
            return out;
          },
          "Wheel of Fortune: [(event, crown spaces)] of the wheel's segments, clockwise (State.pig indexes it); "
          "empty without the wheel.")
      .def_property_readonly(
          "crown_spaces",
          [](const PyGame& g) {
            std::vector<std::string> out;
            if (g.game->has_wheel())
              for (int pc = 0; pc < kNumCrowns; ++pc)
                if (crown_in_game(*g.game, pc) >= 0) out.push_back(crown_label(pc));
            return out;
          },
          "Wheel of Fortune: the crown spaces this wheel has ('fortuna:0', 'taxes:0', 'taxes:1', ...), in "
          "CROWN_SPACES order.")
      .def(
          "tile_info",
          [](const PyGame& g, const std::string& id) {
            const int t = g.game->type_index(id);
            if (t < 0) throw pyb::key_error("unknown tile '" + id + "'");
            const TileType& tt = g.game->type(t);
            pyb::dict d;
            d["id"] = tt.id;
            d["set"] = tt.set;
            d["note"] = tt.note;
            d["count"] = tt.count;
            std::vector<std::string> edges;
            for (int s = 0; s < 4; ++s) {
              static const char* names[4] = {"none", "field", "road", "city"};
              edges.push_back(tt.rot[0].closed_sides >> s & 1 ? "wheel" : names[int(tt.rot[0].edge(s))]);  // board cells
            }
            d["edges"] = edges;  // N, E, S, W at rotation 0
            std::vector<std::pair<std::string, std::string>> segs;
            for (int s = 0; s < tt.nseg; ++s)
              segs.emplace_back(kind_name(tt.rot[0].seg[s].kind), tt.location_name(s, 0));
            d["segments"] = segs;  // (kind, location at rotation 0)
            d["festival"] = tt.festival;
            d["tree"] = tt.tree;    // Fruit-Bearing Trees: a tree tile (gets a fruit stack)
            d["wheel"] = tt.wheel;  // Wheel of Fortune: the pig number (0 = none)
            return d;
          },
          pyb::arg("tile"), "Description of a tile type: edges, segments, set.")
      .def_property_readonly(
          "num_actions", [](const PyGame& g) { return ActionSpace(g.rules, g.radius).size(); },
          "Size of the fixed action space: num_fruit_codes * num_placements, plus the Wheel of Fortune ranges "
          "(action_ranges).")
      .def_property_readonly(
          "action_ranges", [](const PyGame& g) { return action_ranges(ActionSpace(g.rules, g.radius)); },
          "{'place': (start, stop), 'crown': ..., 'plague': ..., 'choose': ...}: the parts of the action index "
          "(empty ranges for decisions the game does not have).")
      .def_property_readonly(
          "num_placements", [](const PyGame& g) { return ActionSpace(g.rules, g.radius).placements(); },
          "Size of the placement part of the index: choices * (2R+1)^2 * 4 * NUM_OPTIONS.")
      .def_property_readonly(
          "num_fruit_codes", [](const PyGame& g) { return ActionSpace(g.rules, g.radius).fruit; },
          "Size of the fruit part of the index: NUM_FRUIT_CODES (441) with the Fruit-Bearing Trees, else 1.")
      .def_property_readonly(
          "num_choices", [](const PyGame& g) { return num_choices(g.rules); },
          "Tile choices in the action index: 1, or 3 with the Fortune Teller.")
      .def(
          "new_initial_state",
          [](const PyGame& g, uint64_t seed, bool auto_chance, std::optional<std::string> start_tile,
             int start_rotation) {
            if (!start_tile) return PyState(State(g.game, seed), auto_chance, g.radius);
            if (g.game->start_type() < 0) throw std::invalid_argument("this tile set starts with a board, not a tile");
            const int t = g.game->type_index(*start_tile);
            if (t < 0) throw std::invalid_argument("unknown tile '" + *start_tile + "'");
            if (start_rotation != 0 && start_rotation != 90 && start_rotation != 180 && start_rotation != 270)
              throw std::invalid_argument("start_rotation is in degrees clockwise: 0, 90, 180 or 270 (got " +
                                          std::to_string(start_rotation) + ")");
            if (g.game->initial_counts()[size_t(t)] == 0 && t != g.game->start_type())
              throw std::invalid_argument("no tile " + *start_tile + " is left for the start");
            return PyState(State(g.game, seed, t, start_rotation / 90), auto_chance, g.radius);
          },
          pyb::arg("seed") = 0, pyb::arg("auto_chance") = false, pyb::arg("start_tile") = pyb::none(),
          pyb::arg("start_rotation") = 0,
          "A new game (start tile placed) at the first chance node, or with auto_chance=True at the first "
          "decision (draws made with the state's generator seeded by `seed`). `start_tile`/`start_rotation` "
          "(degrees clockwise) replace the usual start tile (scripted scenarios).")
      .def("__repr__", [](const PyGame& g) { return "<carcassonne.Game " + g.rules.to_string() + ">"; })
      .def(pyb::pickle(
          [](const PyGame& g) {
            return pyb::make_tuple(g.rules.players, g.rules.tileset, g.rules.expansions(), g.radius);
          },
          [](pyb::tuple t) {
            return make_game(
                make_rules(t[0].cast<int>(), t[1].cast<std::string>(), t[2].cast<std::vector<std::string>>()),
                t[3].cast<int>());
          }));

  m.def(
      "tile_sets",
      [] {
        // Only the names Game(tileset=...) accepts: the other embedded tile files are the tiles of
        // expansions (enabled with expansions=[...]), not tile sets of their own.
        std::vector<std::string> out;
        for_each_module(ModuleKind::TileSet, [&](const ModuleInfo& t) { out.emplace_back(t.name); });
        return out;
      },
      "Tile set names Game(tileset=...) accepts ('base', 'wheel-of-fortune'); expansions are listed by "
      "expansion_names().");
  m.def(
      "expansion_names",
      [] {
        std::vector<std::string> out;
        for_each_module(ModuleKind::Expansion, [&](const ModuleInfo& e) { out.emplace_back(e.name); });
        return out;
      },
      "Expansion names the rules know about, in canonical order (the engine's module table, "
      "src/engine/expansions/registry.h).");
}

}  // namespace carc::py
