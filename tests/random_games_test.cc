// Random games over many seeds, player counts and expansion combinations, checking the
// invariants at every step (OpenSpiel-style generic simulation test).
#include <gtest/gtest.h>
#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "playout.h"
#include "test_util.h"

using namespace carc;

namespace {

// Every tile set and expansion combination of the module table (test::all_variants).
std::vector<Rules> all_variants(int players) {
  std::vector<Rules> out;
  for (const test::Variant& v : test::all_variants(players)) out.push_back(v.rules);
  return out;
}

// A follower placed by a move must land on a feature that had no follower after the tile
// was placed: check by placing the same tile without the follower and looking.
void check_follower_rule(const State& s, const Move& m) {
  if (m.meeple < 0 || m.ext.crown() >= 0 || m.kind != MoveKind::Place) return;
  State c = s;
  Move bare = m;
  bare.meeple = -1;
  const int slot_base_next = [&] {
    int base = 0;
    for (int i = 0; i < s.num_placed(); ++i) base = s.placed(i).slot_base;
    return base + s.game().type(s.placed(s.num_placed() - 1).type).nseg;
  }();
  // Take-backs change followers before scoring; only check plain deployments.
  c.apply(bare);
  if (c.num_placed() <= s.num_placed()) return;
  const PlacedTile& P = c.placed(s.num_placed());
  ASSERT_EQ(P.slot_base, slot_base_next);
  const Feature& f = c.feature(uint16_t(P.slot_base + m.meeple));
  // A feature completed and scored by this placement has had its followers removed.
  if (!f.done) EXPECT_EQ(f.total, 0) << "follower placed on an occupied feature: " << describe_move(s, m);
}

void run_game(const Rules& rules, uint64_t seed, bool deep) {
  const Game* g = Game::get(rules);
  State s(g, seed);
  Rng rng(seed * 7 + 1);
  std::vector<Move> moves;
  std::vector<int> last(rules.players, 0);
  int steps = 0;
  while (!s.is_terminal()) {
    ASSERT_LT(++steps, 1000) << "game does not end";
    if (s.is_chance()) {
      s.draw_random();
      continue;
    }
    s.legal_moves(moves);
    ASSERT_FALSE(moves.empty());
    EXPECT_EQ(s.count_legal_moves(), int(moves.size()));
    // Clone equals original.
    State c = s;
    ASSERT_TRUE(c == s);
    if (deep) {
      ASSERT_EQ(s.validate(), "");
      for (const Move& m : moves) {
        ASSERT_EQ(s.check_move(m), "") << describe_move(s, m);
        check_follower_rule(s, m);
      }
      // sample_move returns a legal move.
      Rng r1(steps);
      const Move sm = s.sample_move(r1);
      ASSERT_TRUE(std::find(moves.begin(), moves.end(), sm) != moves.end()) << describe_move(s, sm);
      // State JSON round trip.
      State back = state_from_json(state_to_json(s));
      ASSERT_TRUE(back == s) << "state JSON round trip differs at turn " << s.turn();
    }
    const Move m = moves[rng.below(uint32_t(moves.size()))];
    s.apply(m);
    for (int p = 0; p < rules.players; ++p) {
      EXPECT_GE(s.score(p), last[p]) << "score went down";
      last[p] = s.score(p);
      int on_board = 0;
      for (int i = 0; i < s.num_followers(); ++i) on_board += s.followers()[i].player == p;
      ASSERT_EQ(on_board + s.mod<WheelBlock>().crowns_of(p) + s.supply(p), kFollowersPerPlayer) << "followers not conserved";
    }
  }
  EXPECT_EQ(s.bag_size(), 0);
  EXPECT_TRUE(s.finished_scoring());
  ASSERT_EQ(s.validate(), "");
  // Record round trip: write, parse, replay: same final state and scores.
  Record rec = record_of(s, {}, false);
  Record parsed = parse_record(record_to_json(rec));
  Replay rp = replay(parsed);
  EXPECT_EQ(rp.state.scores(), s.scores());
  EXPECT_TRUE(rp.state.is_terminal());
  EXPECT_TRUE(rp.state == s);
  EXPECT_EQ(record_to_json(record_of(rp.state, {}, false)), record_to_json(rec));
}

}  // namespace

TEST(RandomGames, EveryVariantIsCovered) {
  // Every tile set of the module table (the Wheel of Fortune's sourced 71 tiles and board included)
  // with every combination of the expansions: 2 x 2^3 = 16 variants today, none silently missing.
  size_t tilesets = 0;
  for_each_module(ModuleKind::TileSet, [&](const ModuleInfo&) { ++tilesets; });
  EXPECT_EQ(tilesets, 2u);
  EXPECT_EQ(kNumExpansions, 3);
  EXPECT_EQ(all_variants(2).size(), tilesets << kNumExpansions);
  int wheel = 0;
  for (const Rules& r : all_variants(5)) wheel += r.tileset == "wheel-of-fortune";
  EXPECT_EQ(wheel, 1 << kNumExpansions);
}

TEST(RandomGames, InvariantsHoldDeepChecks) {
  for (int players = 2; players <= 6; ++players)
    for (const Rules& r : all_variants(players))
      for (uint64_t seed = 1; seed <= 2; ++seed) {
        SCOPED_TRACE(r.to_string() + " seed " + std::to_string(seed));
        run_game(r, seed, true);
      }
}

TEST(RandomGames, InvariantsHoldManySeeds) {
  for (int players = 2; players <= 6; ++players)
    for (const Rules& r : all_variants(players))
      for (uint64_t seed = 100; seed < 160; ++seed) {
        SCOPED_TRACE(r.to_string() + " seed " + std::to_string(seed));
        run_game(r, seed, false);
      }
}

namespace {

// Draws `per` times as many moves with sample_move as `s` has legal moves and checks that each
// legal move's count is within 5 standard deviations of `per` (and that nothing else is drawn).
void expect_uniform_sampling(const State& s, uint64_t seed, const std::string& where, int per = 300) {
  std::vector<Move> moves;
  s.legal_moves(moves);
  ASSERT_FALSE(moves.empty()) << where;
  auto key = [](const Move& m) { return std::string(reinterpret_cast<const char*>(&m), sizeof m); };
  std::unordered_map<std::string, size_t> index;
  for (size_t k = 0; k < moves.size(); ++k) index.emplace(key(moves[k]), k);
  ASSERT_EQ(index.size(), moves.size()) << where << ": legal_moves lists a move twice";
  std::vector<int> count(moves.size(), 0);
  Rng sr(seed);
  for (size_t n = 0; n < moves.size() * per; ++n) {
    const Move m = s.sample_move(sr);
    const auto it = index.find(key(m));
    ASSERT_TRUE(it != index.end()) << where << ": sampled an illegal move " << describe_move(s, m);
    ++count[it->second];
  }
  const double p = 1.0 / double(moves.size()), sd = std::sqrt(per * moves.size() * p * (1 - p));
  for (size_t k = 0; k < moves.size(); ++k)
    EXPECT_NEAR(count[k], per, 5 * sd) << where << ": " << describe_move(s, moves[k]);
}

bool has_fruit_action(const State& s) {
  std::vector<Move> moves;
  s.legal_moves(moves);
  return std::any_of(moves.begin(), moves.end(), [](const Move& m) { return m.ext.fruit_action() != FruitAction::None; });
}

}  // namespace

// sample_move draws every legal move with the same probability: at positions where the
// player has followers (so rejection happens), each move's count over 300 draws per move is
// within 5 standard deviations of the mean.
TEST(RandomGames, SampleMoveIsUniformOverLegalMoves) {
  for (const char* tileset : {"base", "wheel-of-fortune"}) {
    Rules r;
    r.tileset = tileset;
    r.set(Expansion::Festival);
    r.set(Expansion::FortuneTeller);
    const Game* g = Game::get(r);
    int checked = 0;
    for (uint64_t seed = 1; checked < 6 && seed < 100; ++seed) {
      State s(g, seed);
      Rng rng(seed);
      play_random_until(s, rng, 5 + int(seed % 20));
      if (s.is_terminal() || s.phase() != Phase::Place || s.supply(s.turn_player()) == 0) continue;
      expect_uniform_sampling(s, seed * 3, std::string(tileset) + " seed " + std::to_string(seed));
      ++checked;
    }
    EXPECT_EQ(checked, 6);
  }
  // Several drawn tiles (a player with fortune tellers), one of them a wheel tile to choose.
  Rules r;
  r.tileset = "wheel-of-fortune";
  r.set(Expansion::FortuneTeller);
  const Game* g = Game::get(r);
  State s = replay(parse_record(R"({"format":"carcassonne-record/1","setup":{"players":["A","B"],"tileset":"wheel-of-fortune",
    "expansions":["fortune-teller"],"seed":1,"draws":"scripted"},"turns":[{"tile":"FT01","x":1,"y":4,"rotation":0,"meeple":"C"},
    {"tile":"B","x":2,"y":4,"rotation":0}]})")).state;
  s.apply_draw(g->type_index("U@3"));
  s.apply_draw(g->type_index("E"));
  expect_uniform_sampling(s, 77, "two drawn tiles");
}

// One sampler (issue #35): the plain rule set's short path (State::sample_plain) draws exactly what
// the general sampler (sample_placement) draws for the same options. A Festival game that never
// draws a festival tile offers the base game's moves through the general path; the same seeded
// generator must give the same moves, turn after turn, as in the base game.
TEST(RandomGames, PlainSamplerDrawsWhatTheGeneralSamplerDraws) {
  Rules base, fest;
  fest.set(Expansion::Festival);
  const Game* ga = Game::get(base);
  const Game* gb = Game::get(fest);
  ASSERT_TRUE(ga->plain_moves());
  ASSERT_FALSE(gb->plain_moves()) << "the Festival game must take the general path";
  int compared = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    State a(ga, seed), b(gb, seed);
    Rng pick(seed * 11), ra(seed * 13), rb(seed * 13);
    while (!a.is_terminal()) {
      if (a.is_chance()) {
        // The same tile in both games, by id (the Festival game's indices differ).
        std::vector<std::pair<int, int>> out = a.chance_outcomes();
        const int t = out[pick.below(uint32_t(out.size()))].first;
        const int tb = gb->type_index(ga->type(t).id);
        ASSERT_GE(tb, 0) << ga->type(t).id;
        a.apply_draw(t);
        b.apply_draw(tb);
        continue;
      }
      ASSERT_FALSE(b.is_chance());
      for (int k = 0; k < 8; ++k) {
        const Move ma = a.sample_move(ra), mb = b.sample_move(rb);
        ASSERT_TRUE(ma == mb) << "seed " << seed << " turn " << a.turn() << ": " << describe_move(a, ma) << " against "
                              << describe_move(b, mb);
        ++compared;
      }
      const Move m = a.sample_move(pick);
      a.apply(m);
      b.apply(m);
      // The same game so far (the Festival game's bag still holds its festival tiles at the end,
      // so only a's final scoring differs).
      if (!a.is_terminal())
        for (int p = 0; p < a.num_players(); ++p) ASSERT_EQ(a.score(p), b.score(p)) << "turn " << a.turn();
    }
  }
  EXPECT_GT(compared, 1000);
}

// The same with the Fruit-Bearing Trees, whose placements offer different numbers of moves
// (harvests of the trees in range, sales of held tokens, a stack for a tree tile), alone and
// with every expansion (several drawn tiles, take-backs, crown spaces).
TEST(RandomGames, SampleMoveIsUniformWithFruitActions) {
  for (int variant = 0; variant < 2; ++variant) {
    Rules r;
    r.set(Expansion::FruitTrees);
    if (variant == 1) {
      r.tileset = "wheel-of-fortune";
      r.set(Expansion::Festival);
      r.set(Expansion::FortuneTeller);
    }
    const Game* g = Game::get(r);
    int checked = 0, with_sales = 0, tree_tiles = 0, several = 0;
    // Until 8 positions are checked and, with the Fortune Teller, one with several drawn tiles.
    for (uint64_t seed = 1; (checked < 8 || (variant == 1 && several == 0)) && seed < 1000; ++seed) {
      State s(g, seed);
      Rng rng(seed);
      play_random_until(s, rng, 10 + int(seed % 40));
      if (s.is_terminal() || s.phase() != Phase::Place || s.supply(s.turn_player()) == 0) continue;
      if (!has_fruit_action(s) || s.count_legal_moves() > 3000) continue;
      if (checked >= 8 && s.num_drawn() < 2) continue;
      int held = 0;
      for (int f = 0; f < kFruitTypes; ++f) held += s.mod<FruitBlock>().held_by(s.turn_player(), f) > 0;
      with_sales += held > 0;
      tree_tiles += s.current_tile() >= 0 && g->type(s.current_tile()).tree;
      several += s.num_drawn() > 1;
      expect_uniform_sampling(s, seed * 5, r.to_string() + " seed " + std::to_string(seed));
      ++checked;
    }
    EXPECT_GE(checked, 8) << r.to_string();
    EXPECT_GT(with_sales, 0) << r.to_string() << ": no position with fruit tokens to sell was checked";
    EXPECT_GT(tree_tiles, 0) << r.to_string() << ": no position with a tree tile to place was checked";
    if (variant == 1) EXPECT_GT(several, 0) << r.to_string() << ": no position with several drawn tiles was checked";
  }
}

// The Plague (Wheel of Fortune): the follower taken back is uniform over the deciding
// player's followers on the land.
TEST(RandomGames, SampleMoveIsUniformInThePlague) {
  Rules r;
  r.tileset = "wheel-of-fortune";
  const Game* g = Game::get(r);
  int checked = 0;
  for (uint64_t seed = 1; checked < 4 && seed < 400; ++seed) {
    State s(g, seed);
    Rng rng(seed);
    while (!s.is_terminal() && s.phase() != Phase::Plague) {
      if (s.is_chance()) s.draw_random();
      else s.apply(s.sample_move(rng));
    }
    if (s.is_terminal() || s.count_legal_moves() < 2) continue;
    expect_uniform_sampling(s, seed, "Plague, seed " + std::to_string(seed), 2000);
    ++checked;
  }
  EXPECT_EQ(checked, 4);
}

TEST(RandomGames, SameSeedSameGame) {
  Rules r;
  const Game* g = Game::get(r);
  std::vector<Move> moves;
  State a(g, 42), b(g, 42);
  Rng ra(5), rb(5);
  random_playout(a, ra, moves);
  random_playout(b, rb, moves);
  EXPECT_TRUE(a == b);
  EXPECT_EQ(a.scores(), b.scores());
}

TEST(RandomGames, ReplayedGameContinuesLikeTheLiveOne) {
  // Play 30 turns, save, load, then both continue with the same choices: identical.
  Rules r;
  const Game* g = Game::get(r);
  std::vector<Move> moves;
  State live(g, 9);
  Rng rng(3);
  while (live.turn() < 30) {
    if (live.is_chance()) {
      live.draw_random();
      continue;
    }
    live.legal_moves(moves);
    live.apply(moves[rng.below(uint32_t(moves.size()))]);
  }
  State loaded = replay(parse_record(record_to_json(record_of(live, {"a", "b"})))).state;
  ASSERT_TRUE(loaded == live);
  Rng r1(11), r2(11);
  random_playout(live, r1, moves);
  random_playout(loaded, r2, moves);
  EXPECT_TRUE(loaded == live);
}

// State::restore (search's cheap reset of its scratch state): after moves on a copy, restoring
// it from the original gives a state equal to the original that plays on exactly like it.
TEST(RandomGames, RestoreAfterMovesEqualsTheOriginal) {
  for (const char* tileset : {"base", "wheel-of-fortune"}) {
    Rules r;
    r.tileset = tileset;
    r.expansion_set = kAllExpansions;
    const Game* g = Game::get(r);
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      State root(g, seed);
      Rng rng(seed);
      play_random_until(root, rng, int(seed * 3 % 60));
      if (root.is_terminal()) continue;
      State scratch = root;
      for (int round = 0; round < 3; ++round) {
        // Moves on the scratch state (to the end in the last round).
        std::vector<std::pair<int, int>> placed;
        Rng mr(seed * 31 + round);
        for (int k = 0; !scratch.is_terminal() && (round == 2 || k < 10 * (round + 1)); ++k) {
          if (scratch.is_chance()) {
            scratch.draw_random();
            continue;
          }
          const Move m = scratch.sample_move(mr);
          scratch.apply(m);
          if (m.kind == MoveKind::Place) placed.emplace_back(m.x, m.y);
        }
        scratch.restore(root);
        ASSERT_TRUE(scratch == root) << tileset << " seed " << seed << " round " << round;
        for (auto [x, y] : placed) EXPECT_EQ(scratch.tile_at(x, y), -1) << "(" << x << "," << y << ") still placed";
        ASSERT_EQ(scratch.validate(), "");
      }
      // Both play on identically.
      State a = root;
      Rng ra(seed), rb(seed);
      std::vector<Move> moves;
      random_playout(a, ra, moves);
      random_playout(scratch, rb, moves);
      EXPECT_TRUE(a == scratch) << tileset << " seed " << seed;
      EXPECT_EQ(a.scores(), scratch.scores());
    }
  }
}

// State::restart (random self-play's reuse of one state): after a whole game, restarting from a
// new game with another seed gives the state State(game, seed) gives, and both play the same
// game to the end, in every variant (the fruit stacks depend on the seed).
TEST(RandomGames, RestartEqualsANewGame) {
  for (const Rules& r : all_variants(3)) {
    const Game* g = Game::get(r);
    const State fresh(g, 5);
    State s = fresh;
    std::vector<Move> moves;
    for (uint64_t seed = 100; seed < 104; ++seed) {
      Rng rng(seed);
      random_playout(s, rng, moves);  // the previous game, to the end
      ASSERT_TRUE(s.is_terminal());
      s.restart(fresh, seed + 1);
      const State direct(g, seed + 1);
      ASSERT_TRUE(s == direct) << r.to_string() << " seed " << seed + 1;
      ASSERT_EQ(s.validate(), "");
      for (int f = 0; f < kFruitTypes; ++f) EXPECT_EQ(s.mod<FruitBlock>().stack_of(f), direct.mod<FruitBlock>().stack_of(f));
      State a = direct;
      Rng ra(seed * 3), rb(seed * 3);
      random_playout(a, ra, moves);
      State b = s;
      random_playout(b, rb, moves);
      EXPECT_TRUE(a == b) << r.to_string() << " seed " << seed + 1;
      EXPECT_EQ(a.scores(), b.scores());
    }
  }
}
