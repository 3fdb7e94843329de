// Bindings: the flat action space of the research conventions (python/carcassonne/_flat.py,
// docs/python.md "Flat action space"), built in C++ so that carcassonne.spiel and
// carcassonne.pettingzoo get their legal actions and masks without per-step Python loops.
// Layout (R = radius, P = placements):
//   [0, P)                   placement part of a 'place' action (engine a % P)
//   [P, P + CP)              crown placement (engine crown index without the stack)
//   [.., + W*W*14)           Plague take-back, [.., + choose) Choose (engine index shifted)
//   [.., + 441)              fruit part (Fruit-Bearing Trees only): the second decision
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>

#include "common.h"

namespace carc::py {

namespace {

struct Flat {
  int64_t P, crown_base, crown_pl, plague_base, f_crown, f_plague, f_fruit, size;
  bool fruit;
  explicit Flat(const ActionSpace& a)
      : P(a.placements()),
        crown_base(a.crown_base()),
        crown_pl(a.crown_placements()),
        plague_base(a.plague_base()),
        f_crown(P),
        f_plague(P + crown_pl),
        f_fruit(f_plague + (a.size() - a.plague_base())),
        size(f_fruit + (a.fruit > 1 ? a.fruit : 0)),
        fruit(a.fruit > 1) {}
  // The engine action of a first decision and a fruit part (-1 when they do not go together).
  int64_t join(int64_t first, int64_t fr) const {
    if (first < 0 || first >= f_fruit || fr < 0 || fr >= (fruit ? kFruitCodes : 1)) return -1;
    if (first < f_crown) return fr * P + first;
    if (first < f_plague)
      return fr % kFruitActions ? -1 : crown_base + (fr / kFruitActions) * crown_pl + (first - f_crown);
    return fr ? -1 : first - f_plague + plague_base;
  }
  // (first decision, fruit part) of an engine action; the fruit part is 0 when it has none.
  std::pair<int64_t, int64_t> split(int64_t a) const {
    if (a < crown_base) return {a % P, a / P};
    if (a < plague_base) {
      const int64_t r = a - crown_base;
      return {f_crown + r % crown_pl, (r / crown_pl) * kFruitActions};
    }
    return {a - plague_base + f_plague, 0};
  }
};

// The sorted engine indices of the legal moves inside the window.
std::vector<int64_t> legal_engine_actions(const PyState& ps) {
  std::vector<Move> moves;
  ps.s.legal_moves(moves);
  std::vector<int64_t> out;
  out.reserve(moves.size());
  for (const Move& mv : moves)
    if (int64_t a = ps.space.encode(ps.s, mv); a >= 0) out.push_back(a);
  std::sort(out.begin(), out.end());
  return out;
}

// Applies the engine move `m` after the engine's legality check (std::invalid_argument with
// the reason otherwise).
void apply_move_checked(PyState& ps, const Move& m, int64_t a) {
  if (std::string err = ps.s.check_move(m); !err.empty())
    throw std::invalid_argument("action " + std::to_string(a) + " is not legal here: " + err);
  ps.s.apply(m);
}

void apply_engine_checked(PyState& ps, int64_t a) {
  require_decision(ps.s);
  apply_move_checked(ps, ps.space.decode(ps.s, a), a);
}

// Where a flat-space state stands beyond its engine state: the player who acted, a first
// decision waiting for its fruit part (or -1), a harvest (engine action) waiting for its fruit
// token's value to be revealed by chance (or -1).
struct FlatStep {
  int player = -1;
  int64_t first = -1, reveal = -1;
};

// Applies engine action `e` of a fruit game by `player`: a harvest from a stack whose tokens
// left are not all of one value waits for the chance node that reveals the value.
FlatStep apply_fruit_engine(PyState& ps, int player, int64_t e) {
  const Move m = ps.space.decode(ps.s, e);
  if (m.ext.harvest() >= 0) {
    std::vector<int> v = ps.s.mod<FruitBlock>().stack_of(m.ext.harvest());
    if (!v.empty() && std::any_of(v.begin(), v.end(), [&](int x) { return x != v[0]; })) {
      if (std::string err = ps.s.check_move(m); !err.empty())
        throw std::invalid_argument("action " + std::to_string(e) + " is not legal here: " + err);
      return {player, -1, e};
    }
  }
  apply_move_checked(ps, m, e);
  return {player, -1, -1};
}

// One action of the flat space (carcassonne.spiel's apply_action): a chance outcome (tile type
// index < T, or T + value - 2 for a revealed fruit token) or a player's decision.
FlatStep flat_step(PyState& ps, const Flat& f, int T, int64_t first, int64_t reveal, int64_t a) {
  State& s = ps.s;
  if (reveal >= 0) {
    const Move m = ps.space.decode(s, reveal);
    const int64_t v = a - T + 2;
    if (a < T || v < 2 || v > 5 || m.ext.harvest() < 0 || !s.edit_mod<FruitBlock>().force_top(m.ext.harvest(), int(v)))
      throw std::invalid_argument("chance action " + std::to_string(a) + " is no fruit value left");
    apply_move_checked(ps, m, reveal);
    return {};
  }
  if (s.is_terminal()) throw std::invalid_argument("the game is over");
  if (s.is_chance()) {
    if (a < 0 || a >= T) throw std::invalid_argument("chance action " + std::to_string(a) + " is no tile type (0.." +
                                                     std::to_string(T - 1) + ")");
    if (s.bag_count(int(a)) == 0)
      throw std::invalid_argument("no tile " + s.game().type(int(a)).id + " is left in the bag");
    s.apply_draw(int(a));
    return {};
  }
  const int player = s.current_player();
  if (!f.fruit) {
    if (a < 0 || a >= f.size) throw std::invalid_argument("action " + std::to_string(a) + " out of range");
    apply_move_checked(ps, ps.space.decode(s, a), a);
    return {player, -1, -1};
  }
  if (first < 0 && a >= f.f_fruit)
    throw std::invalid_argument("action " + std::to_string(a) + " is a fruit part, but no placement waits for one");
  if (first >= 0 && a < f.f_fruit)
    throw std::invalid_argument("action " + std::to_string(a) + " is not a fruit part (one is due)");
  const std::vector<int64_t> legal = legal_engine_actions(ps);
  int64_t found = -1;
  int n = 0;
  for (int64_t e : legal) {
    const auto [fi, fr] = f.split(e);
    if (first >= 0 ? (fi == first && fr == a - f.f_fruit) : fi == a) found = e, ++n;
  }
  if (n == 0) throw std::invalid_argument("action " + std::to_string(a) + " is not legal here");
  if (first < 0 && n > 1) return {player, a, -1};
  return apply_fruit_engine(ps, player, found);
}

}  // namespace

void bind_flat(pyb::module_&, StateClass& cls) {
  cls.def_property_readonly(
         "num_flat_actions", [](const PyState& ps) { return Flat(ps.space).size; },
         "Size of the flat action space of carcassonne.spiel / carcassonne.pettingzoo (docs/python.md).")
      .def(
          "legal_flat_actions",
          [](const PyState& ps) -> pyb::tuple {
            const Flat f(ps.space);
            std::vector<int64_t> firsts;
            if (ps.s.is_chance() || ps.s.is_terminal()) return pyb::make_tuple(firsts, pyb::none(), pyb::none());
            const std::vector<int64_t> acts = legal_engine_actions(ps);
            std::vector<std::pair<int64_t, int64_t>> pairs;
            pairs.reserve(acts.size());
            for (int64_t a : acts) pairs.push_back(f.split(a));
            std::sort(pairs.begin(), pairs.end());
            firsts.reserve(pairs.size());
            for (const auto& p : pairs)
              if (firsts.empty() || firsts.back() != p.first) firsts.push_back(p.first);
            if (!f.fruit) return pyb::make_tuple(firsts, pyb::none(), pyb::none());
            std::vector<int64_t> starts, parts;
            starts.reserve(firsts.size() + 1);
            parts.reserve(pairs.size());
            for (size_t i = 0; i < pairs.size(); ++i) {
              if (i == 0 || pairs[i].first != pairs[i - 1].first) starts.push_back(int64_t(i));
              parts.push_back(pairs[i].second);
            }
            starts.push_back(int64_t(pairs.size()));
            return pyb::make_tuple(firsts, starts, parts);
          },
          "(firsts, starts, parts) of the flat action space: the sorted legal first decisions and, with the "
          "Fruit-Bearing Trees, the sorted legal fruit parts of firsts[i] in parts[starts[i]:starts[i + 1]] "
          "(None, None without: every first decision is one whole move). ([], None, None) at a chance node or "
          "the end.")
      .def(
          "flat_moves",
          [](const PyState& ps) {
            const Flat f(ps.space);
            std::vector<Move> moves;
            if (!ps.s.is_chance() && !ps.s.is_terminal()) ps.s.legal_moves(moves);
            pyb::array_t<int64_t> firsts(int64_t(moves.size())), parts(int64_t(moves.size()));
            int64_t* fp = firsts.mutable_data();
            int64_t* pp = parts.mutable_data();
            for (size_t i = 0; i < moves.size(); ++i) {
              const int64_t a = ps.space.encode(ps.s, moves[i]);
              if (a < 0) {
                fp[i] = pp[i] = -1;
              } else {
                const auto [fi, fr] = f.split(a);
                fp[i] = fi, pp[i] = fr;
              }
            }
            return pyb::make_tuple(firsts, parts);
          },
          "(firsts, parts): int64 arrays with one entry per legal_moves() move, in that order: the move's first "
          "decision in the flat action space and its fruit part (0 for none; -1, -1 for a move outside the action "
          "window). Maps a flat-space policy to the engine's move order (carcassonne.spiel.make_evaluator).")
      .def(
          "flat_chance_outcomes",
          [](const PyState& ps) {
            std::vector<std::pair<int, double>> out;
            if (ps.s.is_terminal() || !ps.s.is_chance()) return out;
            const double total = ps.s.bag_size();
            for (auto [t, c] : ps.s.chance_outcomes()) out.emplace_back(t, c / total);
            std::sort(out.begin(), out.end());
            return out;
          },
          "[(tile type index, probability)] of the next draw, sorted by index (empty unless at a chance node): "
          "the chance outcomes of carcassonne.spiel.")
      .def(
          "legal_flat_mask",
          [](const PyState& ps, std::optional<pyb::array_t<bool>> out) {
            const Flat f(ps.space);
            pyb::array_t<bool> mask;
            if (out) {
              mask = *out;
              if (mask.ndim() != 1 || mask.shape(0) != f.size || !(mask.flags() & pyb::array::c_style))
                throw std::invalid_argument("out must be a contiguous bool array of shape (" +
                                            std::to_string(f.size) + ",)");
            } else {
              mask = pyb::array_t<bool>(f.size);
            }
            bool* p = mask.mutable_data();
            std::memset(p, 0, size_t(f.size));
            if (!ps.s.is_chance() && !ps.s.is_terminal()) {
              std::vector<Move> moves;
              ps.s.legal_moves(moves);
              for (const Move& mv : moves)
                if (int64_t a = ps.space.encode(ps.s, mv); a >= 0) p[f.split(a).first] = true;
            }
            return mask;
          },
          pyb::arg("out").noconvert() = pyb::none(),
          "numpy bool array of num_flat_actions entries: True for the legal first decisions of the flat "
          "action space (all False at a chance node or the end). `out`: an array to fill instead.")
      .def(
          "flat_step",
          [](PyState& ps, int64_t first, int64_t reveal, int64_t action) {
            const FlatStep r = flat_step(ps, Flat(ps.space), ps.s.game().num_types(), first, reveal, action);
            return pyb::make_tuple(r.player, r.first, r.reveal);
          },
          pyb::arg("first"), pyb::arg("reveal"), pyb::arg("action"),
          "One action of the flat space (carcassonne.spiel's apply_action) from the flat position (first "
          "decision waiting for its fruit part or -1, harvest waiting for its revealed value or -1): a chance "
          "outcome (tile type index, or num_tile_types + value - 2) or a decision, checked by the engine "
          "(ValueError with the reason). Returns (player who acted or -1 for chance, first, reveal) after it.")
      .def(
          "flat_apply_engine",
          [](PyState& ps, int64_t e) {
            require_decision(ps.s);
            const FlatStep r = apply_fruit_engine(ps, ps.s.current_player(), e);
            return pyb::make_tuple(r.player, r.first, r.reveal);
          },
          pyb::arg("engine_action"),
          "The last part of flat_step for a decision whose engine action is known (carcassonne.spiel, from its "
          "cached legal table): applies it after the engine's check, or with the Fruit-Bearing Trees leaves a "
          "harvest waiting for its revealed value. Returns (player, -1, reveal).")
      .def(
          "flat_replay",
          [](PyState& ps, const std::vector<int64_t>& actions) {
            const Flat f(ps.space);
            const int T = ps.s.game().num_types();
            FlatStep at;
            std::vector<int> players;
            players.reserve(actions.size());
            for (size_t i = 0; i < actions.size(); ++i) {
              try {
                const int64_t a = actions[i];
                const bool decision = f.fruit && at.reveal < 0 && !ps.s.is_chance() && !ps.s.is_terminal();
                if (decision && at.first >= 0) {
                  // The fruit part of a pending first decision: one engine action, checked.
                  const int64_t e = f.join(at.first, a - f.f_fruit);
                  if (a < f.f_fruit || e < 0)
                    throw std::invalid_argument("action " + std::to_string(a) + " is no fruit part of the pending decision");
                  at = apply_fruit_engine(ps, ps.s.current_player(), e);
                } else if (decision && a < f.f_fruit && i + 1 < actions.size() && actions[i + 1] >= f.f_fruit) {
                  // A first decision followed by its fruit part: it was pending (checked with the part).
                  at = {ps.s.current_player(), a, -1};
                } else if (const int64_t e0 = f.join(a, 0);
                           decision && i + 1 < actions.size() && e0 >= 0 && ps.s.check_move(ps.space.decode(ps.s, e0)).empty()) {
                  // A whole move in one action whose no-fruit form is legal: the history says it had one
                  // fruit part (else its part would follow), so it is that one; no move generation.
                  at = apply_fruit_engine(ps, ps.s.current_player(), e0);
                } else {
                  at = flat_step(ps, f, T, at.first, at.reveal, a);
                }
              } catch (const std::invalid_argument& e) {
                throw std::invalid_argument("action number " + std::to_string(i + 1) + " (" +
                                            std::to_string(actions[i]) + "): " + e.what());
              }
              players.push_back(at.player);
            }
            return pyb::make_tuple(players, at.first, at.reveal);
          },
          pyb::arg("actions"),
          "flat_step over a whole action history from a new game (the flat position starts empty): returns "
          "(players who acted, first, reveal) after it. carcassonne.spiel's deserialize_state, undo_action and "
          "from_snapshot. ValueError naming the action (1-based) that failed.");

}

}  // namespace carc::py
