// The server's legal-move list (GET /api/games/ID/legal, server::legal_json) is lossless (issue
// #36): a client that sends exactly what it lists, and nothing else, plays exactly the engine's
// legal moves. At every decision of seeded games in every rule variant of the module table, the
// list is expanded into move bodies as a client builds them (each placement, per fruit stack of a
// tree tile; no follower, each follower spot and, with a follower on the tile, each harvest listed
// for that stack and each sale of 1 to sell_max of the listed types; each crown space; each
// take-back; each drawn tile to choose; each follower the Plague takes back), and
//   - each body is accepted by the server's move decoder (server::move_from: the request's fields
//     and the engine's legality);
//   - the moves they stand for are exactly the engine's legal_moves, no more, no fewer.
// The Fruit-Bearing Trees' part is checked where it matters: a tree tile with several free stacks,
// where each stack offers the harvest of its own new tree and of the trees already in range.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "decode.h"
#include "game.h"
#include "test_util.h"
#include "views.h"

namespace {

using carc::Move;
using carc::MoveKind;
using carc::Rng;
using carc::State;
using nlohmann::json;

// What a fruit-stack test counts over the decisions it checked.
struct Seen {
  int decisions = 0;
  int tree_tiles = 0;          // decisions with a tree tile offering two stacks or more
  int other_stack_new = 0;     // harvest of the new tree with a stack other than the default
  int other_stack_old = 0;     // harvest of a tree on the board, offered with a stack other than the default
  int sales = 0;               // sale bodies
};

// A move's bytes: a key for sets (Move is 12 bytes without padding).
std::string key_of(const Move& m) {
  std::string k(sizeof(Move), '\0');
  std::memcpy(k.data(), &m, sizeof(Move));
  return k;
}

// The move bodies a client may build from `legal`, as the schema documents them
// (docs/schema.md, schema/wire.schema.json: Legal, Placement, HarvestOption).
std::vector<json> bodies_of(const json& legal, Seen& seen) {
  std::vector<json> out;
  if (legal.value("phase", "") == "plague") {
    for (const auto& p : legal["plague"]) out.push_back({{"kind", "plague"}, {"x", p["x"]}, {"y", p["y"]}, {"at", p["at"]}});
    return out;
  }
  if (legal.contains("choices"))
    for (const auto& c : legal["choices"]) out.push_back({{"kind", "choose"}, {"choice", c["choice"]}});
  for (const auto& p : legal["placements"]) {
    const json place = {{"x", p["x"]}, {"y", p["y"]}, {"rotation", p["rotation"]}, {"choice", p["choice"]}};
    const json stacks = p.contains("fruit_types") ? p["fruit_types"] : json::array({nullptr});
    if (stacks.size() >= 2) ++seen.tree_tiles;
    for (const auto& stack : stacks) {
      json b = place;
      if (!stack.is_null()) b["fruit_type"] = stack;
      if (p["plain"].get<bool>()) out.push_back(b);
      for (const auto& f : p["followers"]) {
        json m = b;
        m["follower"] = f["at"];
        out.push_back(m);
        if (!p.contains("fruit")) continue;
        const json& fr = p["fruit"];
        for (const auto& h : fr["harvest"]) {
          // A tree tile's harvests each name their stack; other tiles' name none.
          EXPECT_EQ(h.contains("fruit_type"), !stack.is_null()) << h;
          if (h.contains("fruit_type") && h["fruit_type"] != stack) continue;
          if (!stack.is_null() && stack != stacks[0]) ++(h["new"].get<bool>() ? seen.other_stack_new : seen.other_stack_old);
          json a = m;
          a["fruit"] = {{"harvest", {{"x", h["x"]}, {"y", h["y"]}}}};
          out.push_back(a);
        }
        const json& sell = fr["sell"];
        const int max = fr["sell_max"].get<int>();
        EXPECT_EQ(sell.empty(), max == 0) << fr;
        for (uint32_t set = 1; set < (1u << sell.size()); ++set) {
          if (__builtin_popcount(set) > max) continue;
          json names = json::array();
          for (size_t i = 0; i < sell.size(); ++i)
            if (set >> i & 1) names.push_back(sell[i]);
          json a = m;
          a["fruit"] = {{"sell", names}};
          out.push_back(a);
          ++seen.sales;
        }
      }
      if (p.contains("crowns"))
        for (const auto& c : p["crowns"]) {
          json m = b;
          m["follower"] = c;
          out.push_back(m);
        }
      for (const auto& t : p["take_backs"]) {
        json m = b;
        m["take_back"] = t.value("crown", false) ? json{{"at", t["at"]}} : json{{"x", t["x"]}, {"y", t["y"]}, {"at", t["at"]}};
        out.push_back(m);
      }
    }
  }
  return out;
}

// Checks one decision: every body is accepted, and the moves are exactly the engine's.
void check_decision(const State& s, Seen& seen) {
  const json legal = carc::server::legal_json(s);
  std::vector<Move> moves;
  s.legal_moves(moves);
  std::set<std::string> engine, wire;
  for (const Move& m : moves) engine.insert(key_of(m));
  ASSERT_EQ(engine.size(), moves.size()) << "the engine lists a move twice";
  for (const json& body : bodies_of(legal, seen)) {
    try {
      const Move m = carc::server::move_from(s, body);
      wire.insert(key_of(m));
    } catch (const carc::server::ApiError& e) {
      ADD_FAILURE() << "turn " << s.turn() << ": the listed move " << body.dump() << " is refused: " << e.status << " " << e.message;
    }
  }
  if (wire != engine) {
    int missing = 0, extra = 0;
    for (const auto& k : engine) missing += !wire.count(k);
    for (const auto& k : wire) extra += !engine.count(k);
    for (const Move& m : moves)
      if (!wire.count(key_of(m))) {
        ADD_FAILURE() << "turn " << s.turn() << ": " << missing << " legal moves not in the list (" << extra
                      << " listed moves not legal), e.g. " << carc::server::move_body_json(s, m).dump();
        break;
      }
    if (!missing) ADD_FAILURE() << "turn " << s.turn() << ": " << extra << " listed moves the engine does not list";
  }
  ++seen.decisions;
}

// Plays a seeded game (moves uniform over the engine's list), checking every decision.
Seen play_checked(const carc::Game* g, uint64_t seed, int max_decisions) {
  Seen seen;
  State s(g, seed);
  Rng pick(seed * 7 + 1);
  std::vector<Move> moves;
  while (!s.is_terminal() && seen.decisions < max_decisions) {
    if (s.is_chance()) {
      s.draw_random();
      continue;
    }
    check_decision(s, seen);
    if (::testing::Test::HasFailure()) break;
    s.legal_moves(moves);
    s.apply(moves[pick.below(uint32_t(moves.size()))]);
  }
  return seen;
}

}  // namespace

// Every rule variant of the module table (tile sets x subsets of the expansions), 2 and 3 players.
TEST(LegalMoves, TheListIsExactlyTheEngineMovesInEveryVariant) {
  for (int players : {2, 3}) {
    for (const carc::test::Variant& v : carc::test::all_variants(players)) {
      SCOPED_TRACE(v.name + ", " + std::to_string(players) + " players");
      const carc::Game* g = carc::Game::get(v.rules);
      const Seen seen = play_checked(g, 1000 + uint64_t(players), 400);
      EXPECT_GT(seen.decisions, 20);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// A tree tile with several free stacks: each (stack, harvest) the engine lists is in the list, with
// its stack, and accepted; the harvests of another stack's new tree are not offered with this one.
// Seeded games of the fruit variants are played until enough such decisions were checked, among
// them harvests of a tree already on the board offered with a stack other than the default.
TEST(LegalMoves, TreeTileHarvestsForEveryStack) {
  Seen all;
  for (const carc::test::Variant& v : carc::test::all_variants(2)) {
    if (!v.rules.has(carc::Expansion::FruitTrees)) continue;
    SCOPED_TRACE(v.name);
    const carc::Game* g = carc::Game::get(v.rules);
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      State s(g, seed);
      Rng rng(seed * 131 + 3);
      // Stop at tree tiles (other decisions are the test above's).
      auto tree_now = [](const State& x) {
        return x.phase() == carc::Phase::Place && x.game().type(x.current_tile()).tree;
      };
      std::vector<Move> moves;
      while (carc::test::walk_until(s, rng, tree_now)) {
        Seen seen;
        check_decision(s, seen);
        if (::testing::Test::HasFailure()) return;
        // Per stack: the engine's harvests with it are the list's (bodies_of checked them all).
        s.legal_moves(moves);
        std::set<std::pair<int, int>> pairs;
        for (const Move& m : moves)
          if (m.ext.harvest() >= 0) pairs.insert({m.ext.fruit_type(), m.ext.harvest()});
        const json legal = carc::server::legal_json(s);
        std::set<std::pair<int, int>> listed;
        for (const auto& p : legal["placements"])
          if (p.contains("fruit"))
            for (const auto& h : p["fruit"]["harvest"]) {
              int stack = -1, tree = -1;
              for (int f = 0; f < carc::kFruitTypes; ++f) {
                if (h["fruit_type"] == carc::kFruitNames[f]) stack = f;
                if (h["type"] == carc::kFruitNames[f]) tree = f;
              }
              listed.insert({stack, tree});
              // the new tree is the chosen stack's; no other stack's new tree is offered
              if (h["new"].get<bool>()) {
                EXPECT_EQ(stack, tree) << h;
              }
            }
        EXPECT_EQ(listed, pairs) << "turn " << s.turn();
        all.decisions += seen.decisions;
        all.tree_tiles += seen.tree_tiles > 0;
        all.other_stack_new += seen.other_stack_new;
        all.other_stack_old += seen.other_stack_old;
        s.apply(moves[rng.below(uint32_t(moves.size()))]);
      }
    }
  }
  // What the positions covered (the seeds are fixed: these are properties of the chosen games).
  std::printf("tree-tile decisions: %d (several stacks: %d); harvests offered with a stack other than the default: "
              "%d of the new tree, %d of a tree on the board\n",
              all.decisions, all.tree_tiles, all.other_stack_new, all.other_stack_old);
  EXPECT_GT(all.tree_tiles, 20);
  EXPECT_GT(all.other_stack_new, 0) << "no new tree harvested with a stack other than the default";
  EXPECT_GT(all.other_stack_old, 0) << "no tree on the board harvested with a stack other than the default";
}
