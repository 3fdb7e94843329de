// The Fruit-Bearing Trees: scenario tests with scripted fruit stacks and expected points.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "playout.h"
#include "test_util.h"

using namespace carc;

namespace {

// The fruit types (bit mask) of the trees a follower deployed by placement m could use: on the
// 8 neighbours of its cell and, for a tree tile, the stack m puts on it (read from the board).
uint32_t trees_near(const State& s, const Move& m) {
  const int f = m.ext.fruit_type();
  uint32_t mask = s.game().type(s.drawn_tile(m.choice)).tree && f >= 0 ? 1u << f : 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      if (const int t = dx || dy ? s.tile_at(m.x + dx, m.y + dy) : -1; t >= 0 && s.placed(t).ext >= 0)
        mask |= 1u << s.placed(t).ext;
  return mask;
}

// A scripted fruit-trees game (optionally with the Festival) with known stacks.
Record fruit_game(const std::string& turns, bool festival = false) {
  nlohmann::json j;
  j["format"] = "carcassonne-record/1";
  std::vector<std::string> ex = {"fruit-trees"};
  if (festival) ex.insert(ex.begin(), "festival");
  j["setup"] = {{"players", {"A", "B"}}, {"tileset", "base"}, {"expansions", ex}, {"seed", 1}, {"draws", "scripted"}};
  j["setup"]["fruit_stacks"] = nlohmann::json::parse(
      R"({"apple":[4,5,3,2],"apricot":[5,4,3,2],"cherry":[2,3,4,5],"elder":[5,4,3,2],"plum":[3,2,4,5],"quince":[2,3,4,5]})");
  j["turns"] = nlohmann::json::parse(turns);
  return parse_record(j.dump());
}

const std::string kT1 = R"({"tile":"FB01","x":0,"y":1,"rotation":0,"fruit_type":"apple","meeple":"Nw","fruit":{"harvest":{"x":0,"y":1}}})";
const std::string kT2 = R"({"tile":"FB02","x":1,"y":1,"rotation":180,"fruit_type":"apricot"})";
const std::string kT3 = R"({"tile":"FB04","x":-1,"y":1,"rotation":0,"fruit_type":"cherry","meeple":"S","fruit":{"harvest":{"x":-1,"y":1}}})";
const std::string kT4 = R"({"tile":"E","x":0,"y":-1,"rotation":180})";
const std::string kT5 = R"({"tile":"B","x":0,"y":2,"rotation":0,"meeple":"C","fruit":{"harvest":{"x":1,"y":1}}})";
const std::string kT6 = R"({"tile":"U","x":1,"y":0,"rotation":90})";
std::string upto(int n) {
  std::vector<std::string> t = {kT1, kT2, kT3, kT4, kT5, kT6};
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? "," : "") + t[i];
  return s;
}

}  // namespace

TEST(FruitTrees, HarvestFromTheTreeTileItself) {
  Replay r = replay(fruit_game(upto(1) + "]"));
  EXPECT_EQ(r.state.scores(), (std::vector<int>{4, 0}));  // top apple token is a 4
  EXPECT_EQ(r.state.mod<FruitBlock>().held_by(0, 0), 1);
  EXPECT_EQ(r.state.mod<FruitBlock>().left(0), 3);
  EXPECT_EQ(r.events.back().kind, "fruit");
}

TEST(FruitTrees, HarvestFromADiagonalNeighbourAndChoiceBetweenTrees) {
  // Turn 5: the monastery at (0,2) touches the apple tree (0,1) orthogonally, the apricot
  // tree (1,1) and the cherry tree (-1,1) diagonally; A chooses the apricot tree (top 5).
  Replay r = replay(fruit_game(upto(5) + "]"));
  EXPECT_EQ(r.state.scores(), (std::vector<int>{4 + 2 + 5, 0}));
  EXPECT_EQ(r.state.mod<FruitBlock>().left(1), 3);
  // The same turn harvesting the apple tree instead takes its second token (5).
  std::string alt = upto(4) + R"(,{"tile":"B","x":0,"y":2,"rotation":0,"meeple":"C","fruit":{"harvest":{"x":0,"y":1}}}])";
  EXPECT_EQ(replay(fruit_game(alt)).state.scores(), (std::vector<int>{4 + 2 + 5, 0}));
  EXPECT_EQ(replay(fruit_game(alt)).state.mod<FruitBlock>().held_by(0, 0), 2);
}

TEST(FruitTrees, NoFruitActionWithoutAFollowerOrOutOfRange) {
  // B places the apricot tree without a follower: a harvest is refused.
  std::string t = upto(1) + R"(,{"tile":"FB02","x":1,"y":1,"rotation":180,"fruit_type":"apricot","fruit":{"harvest":{"x":1,"y":1}}}])";
  EXPECT_THROW(replay(fruit_game(t)), RecordError);
  // Far from every tree: refused.
  std::string far = upto(4) + R"(,{"tile":"V","x":-1,"y":0,"rotation":180,"meeple":"N","fruit":{"harvest":{"x":1,"y":1}}}])";
  EXPECT_THROW(replay(fruit_game(far)), RecordError);
}

TEST(FruitTrees, SellingSetsOfOneTwoAndThreeTypes) {
  // After turn 6 A holds apple, cherry and apricot. Turn 7: a monastery next to the apricot
  // tree, with a sale.
  auto sell = [&](const std::string& set) {
    return replay(fruit_game(upto(6) + R"(,{"tile":"B","x":2,"y":1,"rotation":0,"meeple":"C","fruit":{"sell":)" + set +
                             "}}]"));
  };
  const int before = 4 + 2 + 5;
  EXPECT_EQ(sell(R"(["apple"])").state.score(0), before + 3);
  EXPECT_EQ(sell(R"(["apple","cherry"])").state.score(0), before + 6);
  Replay three = sell(R"(["apple","cherry","apricot"])");
  EXPECT_EQ(three.state.score(0), before + 10);
  for (int f = 0; f < kFruitTypes; ++f) EXPECT_EQ(three.state.mod<FruitBlock>().held_by(0, f), 0);
  EXPECT_EQ(three.state.mod<FruitBlock>().num_sold(0), 1);
}

TEST(FruitTrees, SellingFourTypesAndFinalScoring) {
  std::string t = upto(6) + R"(,
    {"tile":"FB06","x":2,"y":1,"rotation":270,"fruit_type":"plum","meeple":"N","fruit":{"harvest":{"x":2,"y":1}}},
    {"tile":"V","x":-1,"y":0,"rotation":180},
    {"tile":"E","x":1,"y":2,"rotation":0,"meeple":"N","fruit":{"sell":["apple","apricot","cherry","plum"]}}])";
  Replay r = replay(fruit_game(t));
  // Harvests 4 + 2 + 5 + 3, the apricot city (FB02 + E) completed by A: 4, the sale of 4 types: 15.
  EXPECT_EQ(r.state.scores(), (std::vector<int>{4 + 2 + 5 + 3 + 4 + 15, 0}));
  Replay fin = replay(fruit_game(t), true);
  // Final: A's farmer touches the completed apricot city (3), monastery with 4 neighbours (5),
  // two one-tile roads (1 + 1); no tokens left.
  EXPECT_EQ(fin.state.score(0), 33 + 3 + 5 + 1 + 1);
}

TEST(FruitTrees, HeldTokensScoreOnePointEachAtTheEnd) {
  Replay r = replay(fruit_game(upto(5) + "]"), true);
  int fruit_final = 0;
  for (auto& e : r.events)
    if (e.final && e.kind == "fruit") fruit_final += e.points;
  EXPECT_EQ(fruit_final, 3);  // apple, cherry, apricot held
}

TEST(FruitTrees, IllegalSaleAndEmptyStackAreRejected) {
  try {
    replay(fruit_game(upto(6) + R"(,{"tile":"B","x":2,"y":1,"rotation":0,"meeple":"C","fruit":{"sell":["apple","apple"]}}])"));
    FAIL();
  } catch (const RecordError& e) {
    EXPECT_NE(std::string(e.what()).find("apple appears twice"), std::string::npos) << e.what();
  }
  try {
    replay(fruit_game(upto(6) + R"(,{"tile":"B","x":2,"y":1,"rotation":0,"meeple":"C","fruit":{"sell":["plum"]}}])"));
    FAIL();
  } catch (const RecordError& e) {
    EXPECT_NE(std::string(e.what()).find("holds no plum"), std::string::npos) << e.what();
  }
  // Empty stack: keep harvesting the apple tree until it is empty; then no move harvests it
  // and a harvest is refused with the reason.
  State s = replay(fruit_game(upto(1) + "]")).state;
  Rng rng(3);
  std::vector<Move> moves;
  bool checked = false;
  while (!s.is_terminal() && !checked) {
    if (s.is_chance()) {
      s.draw_random();
      continue;
    }
    s.legal_moves(moves);
    const Move* pick = nullptr;
    for (auto& m : moves)
      if (m.ext.harvest() == 0) pick = &m;
    if (s.mod<FruitBlock>().left(0) == 0) {
      EXPECT_EQ(pick, nullptr);
      for (auto& m : moves)
        if (m.meeple >= 0 && m.ext.fruit_action() == FruitAction::None && trees_near(s, m) & 1) {
          Move h = m;
          h.ext.set_harvest(0);
          EXPECT_EQ(s.check_move(h), "the apple tree has no fruit left");
          checked = true;
          break;
        }
    }
    s.apply(pick ? *pick : moves[rng.below(uint32_t(moves.size()))]);
  }
  EXPECT_EQ(s.mod<FruitBlock>().left(0), 0);
  EXPECT_TRUE(checked);
}

TEST(FruitTrees, FestivalTakeBackGivesNoFruitAction) {
  std::string t = R"([
    {"tile":"FB01","x":0,"y":1,"rotation":0,"fruit_type":"apple","meeple":"Nw"},
    {"tile":"E","x":0,"y":-1,"rotation":180},
    {"tile":"FE06","x":-1,"y":0,"rotation":0,"return":{"x":0,"y":1,"at":"Nw"},"fruit":{"harvest":{"x":0,"y":1}}}])";
  try {
    replay(fruit_game(t, true));
    FAIL();
  } catch (const RecordError& e) {
    EXPECT_NE(std::string(e.what()).find("needs a follower deployed"), std::string::npos) << e.what();
  }
}

TEST(FruitTrees, TreeTileNeedsAStackAndNoFollowerOnTheTree) {
  EXPECT_THROW(replay(fruit_game(R"([{"tile":"FB01","x":0,"y":1,"rotation":0}])")), RecordError);
  // The tree is no feature: FB01's only follower spots are its field.
  State s = replay(fruit_game("[]")).state;
  s.apply_draw(s.game().type_index("FB01"));
  std::vector<Move> moves;
  s.legal_moves(moves);
  for (auto& m : moves) EXPECT_TRUE(m.meeple < 0 || s.game().type(s.current_tile()).rot[m.rot].seg[m.meeple].kind == Kind::Field);
}

TEST(FruitTrees, ObservationDoesNotRevealStackOrder) {
  // Two states that differ only in the hidden stack order serialize the same public part
  // and offer the same legal moves.
  Rules r;
  r.set(Expansion::FruitTrees);
  State a(Game::get(r), 5), b(Game::get(r), 5);
  std::array<std::array<uint8_t, 4>, kFruitTypes> other{};
  for (auto& st : other) st = {2, 3, 4, 5};
  b.edit_mod<FruitBlock>().set_stacks(other);
  std::vector<Move> ma, mb;
  Rng ra(1), rb(1);
  for (int i = 0; i < 30 && !a.is_terminal(); ++i) {
    while (a.is_chance()) a.draw_random(), b.draw_random();
    a.legal_moves(ma);
    b.legal_moves(mb);
    ASSERT_EQ(ma, mb);
    // Avoid harvests so the revealed values do not differ.
    Move m = ma[ra.below(uint32_t(ma.size()))];
    if (m.ext.harvest() >= 0) m.ext.set_harvest(-1);
    a.apply(m);
    b.apply(m);
    ASSERT_EQ(observation_json(a, 0), observation_json(b, 0));
    ASSERT_NE(state_to_json(a), state_to_json(b));  // the full state does differ
  }
  // A different draw generator is hidden too.
  State c = a;
  Rng hidden(99);
  c.resample_hidden(hidden);
  EXPECT_EQ(observation_json(a, 1), observation_json(c, 1));
}

TEST(FruitTrees, TokensAreConservedInRandomGames) {
  Rules r;
  r.set(Expansion::FruitTrees);
  r.set(Expansion::Festival);
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    State s(Game::get(r), seed);
    Rng rng(seed);
    std::vector<Move> moves;
    while (!s.is_terminal()) {
      if (s.is_chance()) {
        s.draw_random();
        continue;
      }
      s.apply(s.sample_move(rng));
      for (int f = 0; f < kFruitTypes; ++f) {
        int held = 0;
        for (int p = 0; p < 2; ++p) held += s.mod<FruitBlock>().held_by(p, f);
        ASSERT_EQ(s.mod<FruitBlock>().left(f) + held + s.mod<FruitBlock>().num_sold(f), 4) << kFruitNames[f];
      }
    }
  }
}

// Plays a seeded fruit-trees game for `decisions` decisions (random moves, harvests allowed).
State fruit_midgame(uint64_t seed, int decisions) {
  Rules r;
  r.set(Expansion::FruitTrees);
  State s(Game::get(r), seed);
  Rng rng(seed + 100);
  std::vector<Move> moves;
  for (int i = 0; i < decisions && !s.is_terminal();) {
    if (s.is_chance()) {
      s.draw_random();
      continue;
    }
    s.apply(s.sample_move(rng));
    ++i;
  }
  return s;
}

TEST(FruitTrees, ResampledStacksSurviveStateJson) {
  // resample_hidden reorders the tokens left on the stacks; the state JSON must keep that order.
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    State s = fruit_midgame(seed, 25);
    Rng hidden(seed * 7);
    s.resample_hidden(hidden);
    const State back = state_from_json(state_to_json(s));
    for (int f = 0; f < kFruitTypes; ++f) EXPECT_EQ(back.mod<FruitBlock>().stack_of(f), s.mod<FruitBlock>().stack_of(f)) << kFruitNames[f];
    EXPECT_TRUE(back == s) << "seed " << seed;
    // The current order stays hidden from observers.
    EXPECT_EQ(observation_json(s, 0).find("\"stacks\""), std::string::npos);
  }
}

TEST(FruitTrees, BadStackOrderInStateJsonIsRejected) {
  State s = fruit_midgame(3, 5);
  auto j = nlohmann::json::parse(state_to_json(s));
  j["fruit"]["stacks"]["apple"] = {9, 9, 9, 9};
  try {
    state_from_json(j.dump());
    FAIL() << "accepted a stack that is no permutation of the tokens left";
  } catch (const RecordError& e) {
    EXPECT_NE(std::string(e.what()).find("fruit.stacks.apple"), std::string::npos) << e.what();
  }
}

TEST(FruitTrees, StateJsonWithoutInitialStacksIsRejected) {
  // Found by record_fuzz: a state whose 'fruit' lacks 'initial_stacks' (or is no object) read a
  // missing key of a const JSON object (undefined behaviour, a use after free under ASan).
  State s = fruit_midgame(3, 5);
  const auto good = nlohmann::json::parse(state_to_json(s));
  for (const char* what : {"misspelt", "not an object"}) {
    auto j = good;
    if (std::string(what) == "misspelt") {
      j["fruit"]["inotial_stacks"] = j["fruit"]["initial_stacks"];
      j["fruit"].erase("initial_stacks");
    } else {
      j["fruit"] = 7;
    }
    try {
      state_from_json(j.dump());
      FAIL() << "accepted a state whose fruit is " << what;
    } catch (const RecordError& e) {
      EXPECT_NE(std::string(e.what()).find("initial_stacks"), std::string::npos) << e.what();
    }
  }
}

TEST(FruitTrees, ResampleHiddenDependsOnlyOnPublicStateAndSeed) {
  // Two states equal up to the hidden stack order resample to equal states with the same seed.
  Rules r;
  r.set(Expansion::FruitTrees);
  State a(Game::get(r), 5), b(Game::get(r), 5);
  std::array<std::array<uint8_t, 4>, kFruitTypes> other{};
  for (auto& st : other) st = {2, 3, 4, 5};
  b.edit_mod<FruitBlock>().set_stacks(other);
  while (a.is_chance()) a.draw_random(), b.draw_random();
  ASSERT_FALSE(a == b);
  Rng ra(42), rb(42);
  a.resample_hidden(ra);
  b.resample_hidden(rb);
  for (int f = 0; f < kFruitTypes; ++f) EXPECT_EQ(a.mod<FruitBlock>().stack_of(f), b.mod<FruitBlock>().stack_of(f)) << kFruitNames[f];
  // Different seeds still give different orders somewhere (6 stacks of 4 tokens).
  State c = a;
  Rng rc(43);
  c.resample_hidden(rc);
  bool differs = false;
  for (int f = 0; f < kFruitTypes; ++f) differs |= c.mod<FruitBlock>().stack_of(f) != a.mod<FruitBlock>().stack_of(f);
  EXPECT_TRUE(differs);
}
