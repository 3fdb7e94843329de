// One legality: the moves check_move() accepts are exactly the moves legal_moves() lists, and
// perft-style move counts per rule set are pinned in a golden file (tests/golden/move_counts.txt).
//
// The cross-check builds, at sampled states of random games over every rule set, a superset of
// candidate moves (every drawn tile, every cell next to or on the board, every rotation, follower
// spot, crown space, take-back, fruit stack and fruit action) and asks check_move about each: a
// candidate is accepted exactly when it is listed. The reverse (every listed move is accepted)
// is checked too, so move generation, sampling and checking cannot drift apart.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "game.h"
#include "input_limits.h"
#include "notation.h"
#include "record.h"
#include "state.h"
#include "test_util.h"

using namespace carc;

namespace {

using test::all_variants;

// The canonical order of the perft counts (tests/golden/move_counts.txt): by kind, drawn tile,
// place, rotation, then the follower (segments, then crown spaces), the follower taken back
// (own followers or the Plague's, then crown spaces), the fruit stack, the fruit action and its
// argument (the harvested fruit type or the set sold).
auto key(const Move& m) {
  constexpr int kCrownsAfter = 64;  // crown spaces rank after every segment and follower index
  const MoveExt& e = m.ext;
  const int deploy = e.crown() >= 0 ? kCrownsAfter + e.crown() : m.meeple;
  const int back = e.take_back_crown() >= 0 ? kCrownsAfter + e.take_back_crown()
                   : e.take_back() >= 0     ? e.take_back()
                                            : e.plague();
  const int target = e.harvest() >= 0 ? e.harvest() : int(e.sale());
  return std::make_tuple(int(m.kind), m.choice, m.x, m.y, m.rot, deploy, back, e.fruit_type(), int(e.fruit_action()),
                         target, m.meeple, e.bits());
}
struct MoveLess {
  bool operator()(const Move& a, const Move& b) const { return key(a) < key(b); }
};

// Every candidate move at this state (a superset of the legal ones, with many illegal ones).
std::vector<Move> candidates(const State& s) {
  std::vector<Move> out;
  if (s.phase() == Phase::Plague) {
    for (int i = -1; i <= s.num_followers(); ++i)
      for (int p = 0; p < s.num_placed(); p += std::max(1, s.num_placed() / 7)) {
        Move m;
        m.kind = MoveKind::Plague;
        m.ext.set_plague(i);
        m.x = s.placed(p).x;
        m.y = s.placed(p).y;
        out.push_back(m);
      }
    for (int i = 0; i < s.num_followers(); ++i) {  // the right coordinates
      Move m;
      m.kind = MoveKind::Plague;
      m.ext.set_plague(i);
      const PlacedTile& P = s.placed(s.slot_tile(s.followers()[i].slot));
      m.x = P.x;
      m.y = P.y;
      out.push_back(m);
    }
    return out;
  }
  if (s.phase() != Phase::Place) return out;
  std::set<std::pair<int, int>> cells;
  static constexpr int dx[5] = {0, 1, 0, -1, 0}, dy[5] = {-1, 0, 1, 0, 0};
  for (int i = 0; i < s.num_placed(); ++i)
    for (int d = 0; d < 5; ++d) cells.insert({s.placed(i).x + dx[d], s.placed(i).y + dy[d]});
  cells.insert({40, 40});     // far from everything
  cells.insert({1 + 128, 0}); // aliases a cell of the 128x128 board
  const Game& g = s.game();
  const bool fruit = s.rules().has(Expansion::FruitTrees);
  for (int choice = 0; choice <= s.num_drawn(); ++choice) {
    Move c;
    c.kind = MoveKind::Choose;
    c.choice = uint8_t(choice);
    out.push_back(c);
    if (choice == s.num_drawn()) break;
    const TileType& tt = g.type(s.drawn_tile(choice));
    // (segment, crown space) of a deployed follower, and (follower, crown space) taken back;
    // -1 for none; both at once is never legal.
    std::vector<std::pair<int, int>> meeples = {{-1, -1}, {0, 0}};
    for (int k = 0; k <= tt.nseg; ++k) meeples.push_back({k, -1});
    for (int k = 0; k < kMaxCrowns; ++k) meeples.push_back({-1, k});
    std::vector<std::pair<int, int>> rets = {{-1, -1}};
    if (tt.festival) {
      rets.push_back({0, 0});
      for (int k = 0; k < s.num_followers(); ++k) rets.push_back({k, -1});
      for (int k = 0; k < kMaxCrowns; ++k) rets.push_back({-1, k});
    }
    std::vector<int> types = {-1};
    if (fruit)
      for (int f = 0; f < kFruitTypes; ++f) types.push_back(f);
    for (auto [x, y] : cells)
      for (int rot = 0; rot < 5; ++rot)
        for (auto [me, crown] : meeples)
          for (auto [re, re_crown] : rets)
            for (int ft : types) {
              Move m;
              m.choice = uint8_t(choice);
              m.x = int16_t(x);
              m.y = int16_t(y);
              m.rot = uint8_t(rot);
              m.meeple = int8_t(me);
              m.ext.set_crown(crown);
              m.ext.set_take_back(re);
              m.ext.set_take_back_crown(re_crown);
              m.ext.set_fruit_type(ft);
              out.push_back(m);
              // Fruit actions and a stray Plague part only where the plain move is legal (keeps it small).
              if (me < 0 || s.check_move(m) != "") continue;
              Move t = m;
              t.ext.set_plague(0);  // a Plague take-back in a placement
              out.push_back(t);
              if (!fruit) continue;
              t = m;
              for (int f = 0; f <= kFruitTypes; ++f) {
                t.ext.set_harvest(f);
                out.push_back(t);
              }
              t.ext.set_sale(3);  // harvest and sale at once
              out.push_back(t);
              t.ext.set_harvest(-1);
              for (uint32_t set = 1; set < 64; ++set) {
                t.ext.set_sale(set);
                out.push_back(t);
              }
            }
  }
  return out;
}

void cross_check(const State& s) {
  std::vector<Move> legal;
  s.legal_moves(legal);
  std::set<Move, MoveLess> listed(legal.begin(), legal.end());
  ASSERT_EQ(listed.size(), legal.size()) << "legal_moves lists a move twice";
  for (const Move& m : legal) ASSERT_EQ(s.check_move(m), "") << "listed but refused: " << describe_move(s, m);
  for (const Move& m : candidates(s)) {
    const bool accepted = s.check_move(m).empty();
    ASSERT_EQ(accepted, listed.count(m) == 1)
        << (accepted ? "accepted but not listed: " : "listed but refused: ") << describe_move(s, m) << " (choice "
        << int(m.choice) << ", x " << m.x << ", rot " << int(m.rot) << ", meeple " << int(m.meeple) << ", crown "
        << m.ext.crown() << ", take back " << m.ext.take_back() << "/" << m.ext.take_back_crown() << ", plague "
        << m.ext.plague() << ", fruit " << m.ext.fruit_type() << ", harvest " << m.ext.harvest() << ", sale "
        << m.ext.sale() << ", kind " << int(m.kind) << ")";
  }
}

TEST(Legality, CheckMoveAcceptsExactlyTheListedMoves) {
  for (auto& [name, rules] : all_variants(2)) {
    SCOPED_TRACE(name);
    for (uint64_t seed = 1; seed <= 2; ++seed) {
      State s(Game::get(rules), seed);
      Rng rng(seed * 31 + 7);
      int decisions = 0;
      while (!s.is_terminal()) {
        if (s.is_chance()) {
          s.draw_random();
          continue;
        }
        // Every 8th decision, every Plague decision and every other turn with several drawn tiles.
        if (decisions++ % 8 == 0 || s.phase() == Phase::Plague || (s.num_drawn() > 1 && decisions % 2)) {
          cross_check(s);
          if (testing::Test::HasFatalFailure()) return;
        }
        s.apply(s.sample_move(rng));
      }
    }
  }
}

TEST(Legality, SecondOfTwoIdenticalDrawnTilesIsRefusedWithAReason) {
  Rules r;
  r.players = 2;
  r.set(Expansion::FortuneTeller);
  bool seen = false;
  for (uint64_t seed = 1; seed < 400 && !seen; ++seed) {
    State s(Game::get(r), seed);
    Rng rng(seed);
    while (!s.is_terminal() && !seen) {
      if (s.is_chance()) {
        s.draw_random();
        continue;
      }
      for (int a = 0; a < s.num_drawn() && !seen; ++a)
        for (int b = a + 1; b < s.num_drawn() && !seen; ++b)
          if (s.drawn_tile(a) == s.drawn_tile(b) && s.drawn_placeable(a)) {
            std::vector<Move> legal;
            s.legal_moves(legal);
            Move m;
            for (const Move& l : legal)
              if (l.choice == a && l.kind == MoveKind::Place) m = l;
            ASSERT_EQ(m.choice, a);
            ASSERT_EQ(s.check_move(m), "");
            m.choice = uint8_t(b);
            const std::string err = s.check_move(m);
            EXPECT_NE(err.find("same tile"), std::string::npos) << err;
            seen = true;
          }
      s.apply(s.sample_move(rng));
    }
  }
  EXPECT_TRUE(seen) << "no state with two identical drawn tiles found";
}

// Perft-style counts: random games in which every decision is the k-th of the legal moves in a
// canonical order (so the counts depend on what is legal, not on the order moves are generated in),
// with the number of legal moves summed over the game and the final scores. Pinned per rule set in
// tests/golden/move_counts.txt; CARC_UPDATE_GOLDEN=1 rewrites the file (say why in the commit).
std::string perft_line(const std::string& name, const Rules& rules, uint64_t seed) {
  State s(Game::get(rules), seed);
  Rng rng(seed ^ 0x9e3779b97f4a7c15ull);
  std::vector<Move> moves;
  uint64_t total = 0, decisions = 0, hash = 1469598103934665603ull;
  while (!s.is_terminal()) {
    if (s.is_chance()) {
      s.draw_random();
      continue;
    }
    s.legal_moves(moves);
    std::sort(moves.begin(), moves.end(), MoveLess());
    total += moves.size();
    ++decisions;
    hash = (hash ^ moves.size()) * 1099511628211ull;
    s.apply(moves[rng.below(uint32_t(moves.size()))]);
  }
  std::ostringstream o;
  o << name << " seed=" << seed << " decisions=" << decisions << " moves=" << total << " hash=" << hash
    << " scores=";
  for (int p = 0; p < s.num_players(); ++p) o << (p ? "," : "") << s.score(p);
  return o.str();
}

TEST(Legality, PerftMoveCountsMatchTheGoldenFile) {
  std::string got;
  for (auto& [name, rules] : all_variants(2))
    for (uint64_t seed : {1, 2}) got += perft_line(name, rules, seed) + "\n";
  test::expect_golden("move_counts.txt", got, "a rule or move generation changed");
  if (test::updating_golden()) GTEST_SKIP() << "rewrote tests/golden/move_counts.txt";
}

}  // namespace

namespace {

// The named form of every legal move converts back to the same move (notation.h), over random
// games of every rule set: one vocabulary, both directions.
TEST(Notation, EveryLegalMoveRoundTripsThroughItsName) {
  for (auto& [name, rules] : all_variants(2)) {
    SCOPED_TRACE(name);
    State s(Game::get(rules), 5);
    Rng rng(11);
    std::vector<Move> legal;
    int checked = 0;
    while (!s.is_terminal()) {
      if (s.is_chance()) {
        s.draw_random();
        continue;
      }
      s.legal_moves(legal);
      for (const Move& m : legal) {
        const MoveResult r = parse_move(s, name_move(s, m));
        ASSERT_TRUE(r.ok()) << describe_move(s, m) << ": " << r.error;
        ASSERT_TRUE(r.move == m) << describe_move(s, m) << " came back as " << describe_move(s, r.move);
        ++checked;
      }
      s.apply(s.sample_move(rng));
    }
    EXPECT_GT(checked, 100);
  }
}

TEST(Notation, NamedMovesGiveClearErrorsAsValues) {
  Rules rules;
  State s(Game::get(rules), 3);
  s.draw_random();
  NamedMove n;
  n.x = 1;
  n.rotation = 45;
  MoveResult r = parse_move(s, n);
  EXPECT_EQ(r.status, MoveStatus::Malformed);
  EXPECT_NE(r.error.find("rotation must be 0, 90, 180 or 270"), std::string::npos) << r.error;
  n.rotation = 0;
  n.x = 65537;  // would alias x = 1 on the 128x128 board if it were not checked
  r = parse_move(s, n);
  EXPECT_EQ(r.status, MoveStatus::Illegal);
  EXPECT_NE(r.error.find("off the board"), std::string::npos) << r.error;
  n.x = 5;
  n.y = 5;
  r = parse_move(s, n);
  EXPECT_EQ(r.status, MoveStatus::Illegal);
  EXPECT_NE(r.error.find("touches no tile"), std::string::npos) << r.error;
  n.tile = "ZZ";
  r = parse_move(s, n);
  EXPECT_NE(r.error.find("tile ZZ was not drawn"), std::string::npos) << r.error;
  NamedMove p;
  p.kind = MoveKind::Plague;
  r = parse_move(s, p);
  EXPECT_NE(r.error.find("no Plague decision is pending"), std::string::npos) << r.error;

  // Names are bounded at the converter, for every caller (Python reaches it directly).
  NamedMove big;
  big.x = 1;
  big.follower = std::string(limits::kMaxRecordStringBytes, 'N');
  r = parse_move(s, big);
  EXPECT_EQ(r.error.find("names have at most"), std::string::npos) << "at the limit: " << r.error;
  big.follower.push_back('N');
  r = parse_move(s, big);
  EXPECT_EQ(r.status, MoveStatus::Malformed);
  EXPECT_NE(r.error.find("names have at most"), std::string::npos) << r.error;
  EXPECT_LT(r.error.size(), 200u) << "the error does not echo the name";
  big.follower.clear();
  big.sell.assign(kFruitTypes + 1, "apple");
  r = parse_move(s, big);
  EXPECT_EQ(r.status, MoveStatus::Malformed);
}

TEST(Notation, TakeBackRefusalsNameTheField) {
  // Issue #36: a refusal names the move object's field, take_back (not the old "return").
  Rules rules;
  rules.set(Expansion::Festival);
  State s(Game::get(rules), 3);
  s.draw_random();
  std::vector<Move> moves;
  s.legal_moves(moves);
  ASSERT_FALSE(moves.empty());
  NamedMove n = name_move(s, moves.front());
  n.take_back = ReturnSpec{9, 9, "N"};
  MoveResult r = parse_move(s, n);
  EXPECT_EQ(r.status, MoveStatus::Illegal);
  EXPECT_EQ(r.error.rfind("take_back: no tile at", 0), 0u) << r.error;
  n.take_back = ReturnSpec{0, 0, "N"};  // the start tile, with no follower on it
  r = parse_move(s, n);
  EXPECT_EQ(r.error.rfind("take_back: ", 0), 0u) << r.error;
  EXPECT_EQ(r.error.find("return"), std::string::npos) << r.error;
}

}  // namespace

// Move::ext: each expansion's field has its own bits, 0 (unused) reads as -1 / an empty set.
TEST(MoveExt, FieldsAreIndependentAndRoundTrip) {
  static_assert(sizeof(Move) <= 12, "Move stays small: it is copied in the hot path");
  MoveExt e;
  EXPECT_EQ(e.take_back(), -1);
  EXPECT_EQ(e.take_back_crown(), -1);
  EXPECT_EQ(e.crown(), -1);
  EXPECT_EQ(e.plague(), -1);
  EXPECT_EQ(e.fruit_type(), -1);
  EXPECT_EQ(e.harvest(), -1);
  EXPECT_EQ(e.sale(), 0u);
  EXPECT_EQ(e.fruit_action(), FruitAction::None);
  EXPECT_FALSE(e.takes_back());
  // The largest value of every field at once: none spills into another.
  e.set_take_back(kMaxPlayers * kFollowersPerPlayer - 1);
  e.set_take_back_crown(kMaxCrowns - 1);
  e.set_crown(kMaxCrowns - 1);
  e.set_plague(kMaxPlayers * kFollowersPerPlayer - 1);
  e.set_fruit_type(kFruitTypes - 1);
  e.set_harvest(kFruitTypes - 1);
  e.set_sale((1u << kFruitTypes) - 1);
  EXPECT_EQ(e.take_back(), kMaxPlayers * kFollowersPerPlayer - 1);
  EXPECT_EQ(e.take_back_crown(), kMaxCrowns - 1);
  EXPECT_EQ(e.crown(), kMaxCrowns - 1);
  EXPECT_EQ(e.plague(), kMaxPlayers * kFollowersPerPlayer - 1);
  EXPECT_EQ(e.fruit_type(), kFruitTypes - 1);
  EXPECT_EQ(e.harvest(), kFruitTypes - 1);
  EXPECT_EQ(e.sale(), (1u << kFruitTypes) - 1);
  // Clearing one field leaves the others.
  e.set_crown(-1);
  e.set_harvest(-1);
  EXPECT_EQ(e.crown(), -1);
  EXPECT_EQ(e.harvest(), -1);
  EXPECT_EQ(e.fruit_action(), FruitAction::Sell);
  EXPECT_EQ(e.take_back_crown(), kMaxCrowns - 1);
  EXPECT_EQ(e.plague(), kMaxPlayers * kFollowersPerPlayer - 1);
  EXPECT_TRUE(e.takes_back());
  e.set_take_back(0);
  EXPECT_EQ(e.take_back(), 0);
  EXPECT_FALSE(e == MoveExt{});
}

// The reasons check_move gives for combinations the old Move layout could not express.
TEST(MoveExt, CheckMoveRefusesPartsThatDoNotGoTogether) {
  std::map<std::string, std::string> seen;  // reason -> rule set it was seen in
  for (auto& [name, rules] : all_variants(2)) {
    State s(Game::get(rules), 3);
    Rng rng(5);
    std::vector<Move> legal;
    while (!s.is_terminal()) {
      if (s.is_chance()) {
        s.draw_random();
        continue;
      }
      s.legal_moves(legal);
      for (const Move& l : legal) {
        if (l.kind != MoveKind::Place) continue;
        auto expect = [&](Move m, const std::string& why) {
          EXPECT_EQ(s.check_move(m), why) << name;
          seen[why] = name;
        };
        Move m = l;
        m.ext.set_plague(0);
        expect(m, "only a Plague decision takes a follower back for the Plague");
        if (l.meeple >= 0 && s.game().has_wheel()) {
          m = l;
          m.ext.set_crown(0);
          expect(m, "a follower goes on the tile or on a crown space, not both");
        }
        if (l.ext.take_back() >= 0) {
          m = l;
          m.ext.set_take_back_crown(0);
          expect(m, "take back one follower, not two");
        }
        if (l.ext.harvest() >= 0) {
          m = l;
          m.ext.set_sale(1);
          expect(m, "one fruit action: harvest or sell, not both");
        }
      }
      s.apply(s.sample_move(rng));
    }
  }
  EXPECT_EQ(seen.size(), 4u) << "each reason is reached in some rule set";
}

// Game::fit_types(pattern) lists exactly the drawable types with a fitting rotation, each once, the most
// numerous at the start first (the AI's scarce-cell count stops early on it).
TEST(Legality, FitTypesListTheDrawableTypesThatFitEachPattern) {
  for (auto& [name, rules] : all_variants(2)) {
    SCOPED_TRACE(name);
    const Game& g = *Game::get(rules);
    for (int p = 0; p < 256; ++p) {
      auto [b, e] = g.fit_types(uint8_t(p));
      std::set<int> listed(b, e);
      EXPECT_EQ(listed.size(), size_t(e - b)) << "pattern " << p;
      for (int t = 0; t < g.fit_count_types(); ++t)
        EXPECT_EQ(listed.count(t) == 1, g.fits(t, uint8_t(p)) != 0) << "pattern " << p << ", type " << t;
      for (auto it = b; it != e && it + 1 != e; ++it)
        EXPECT_GE(g.initial_counts()[*it], g.initial_counts()[*(it + 1)]) << "pattern " << p;
    }
  }
}
