// The module table (src/engine/expansions/registry.h): every row loads and says what its data
// says; Rules reads its names, order and checks from it; Rules' equality sees every field.
#include <gtest/gtest.h>

#include <set>

#include "game.h"
#include "test_util.h"

using namespace carc;

TEST(Registry, EveryRowLoadsAndItsBoardColumnMatchesTheData) {
  std::set<std::string_view> names;
  for (const ModuleInfo& m : kModules) {
    SCOPED_TRACE(std::string(m.name));
    EXPECT_TRUE(names.insert(m.name).second) << "a name appears twice in the table";
    Rules r;
    if (m.kind == ModuleKind::TileSet) {
      r.tileset = std::string(m.name);
    } else {
      ASSERT_TRUE(r.enable(std::string(m.name)));
      EXPECT_EQ(&expansion_info(Expansion(m.bit)), &m);
      EXPECT_EQ(r.expansion_set, ExpansionSet(1) << m.bit);
    }
    const Game* g = Game::get(r);
    EXPECT_EQ(g->has_wheel(), m.board);
    bool has_own_tiles = false;
    for (int t = 0; t < g->num_types(); ++t) has_own_tiles = has_own_tiles || g->type(t).set == m.tiles;
    EXPECT_TRUE(has_own_tiles) << "no tile of data/tiles/" << m.tiles << ".json in the game";
  }
}

TEST(Registry, RulesListAndCheckNamesFromTheTable) {
  Rules all;
  all.expansion_set = kAllExpansions;
  std::vector<std::string> names;
  for_each_module(ModuleKind::Expansion, [&](const ModuleInfo& m) { names.emplace_back(m.name); });
  EXPECT_EQ(all.expansions(), names);  // canonical order = table order
  EXPECT_EQ(names, (std::vector<std::string>{"festival", "fortune-teller", "fruit-trees"}));
  EXPECT_EQ(all.to_string(), "base+festival+fortune-teller+fruit-trees/2p");
  Rules r;
  EXPECT_EQ(parse_expansions("festival,nope", r), "unknown expansion 'nope' (known: festival, fortune-teller, fruit-trees)");
  r.tileset = "nope";
  EXPECT_EQ(r.validate(), "unknown tile set 'nope' (base or wheel-of-fortune)");
  r.tileset = "festival";  // an expansion is not a tile set
  EXPECT_NE(r.validate(), "");
  r = Rules{};
  EXPECT_FALSE(r.enable("wheel-of-fortune"));  // a tile set is not an expansion
  r.expansion_set = ExpansionSet(1) << kNumExpansions;
  EXPECT_NE(r.validate(), "");
  EXPECT_EQ(module_names(ModuleKind::TileSet, ", ", " or "), "base or wheel-of-fortune");
}

TEST(Registry, RulesEqualityAndTheGameCacheSeeEveryField) {
  const Rules base;
  std::vector<Rules> changed;
  for (int b = 0; b < kNumExpansions; ++b) {
    Rules r;
    r.set(Expansion(b));
    changed.push_back(r);
  }
  Rules r = base;
  r.players = 3;
  changed.push_back(r);
  r = base;
  r.tileset = "wheel-of-fortune";
  changed.push_back(r);
  r = base;
  r.tent_scores_unoccupied = !r.tent_scores_unoccupied;
  changed.push_back(r);
  for (const Rules& c : changed) {
    SCOPED_TRACE(c.to_string());
    EXPECT_FALSE(c == base);
    EXPECT_NE(Game::get(c), Game::get(base));  // never another rule set's game
    EXPECT_EQ(Game::get(c)->rules(), c);
  }
  Rules on = base;
  on.set(Expansion::FruitTrees);
  on.set(Expansion::FruitTrees, false);
  EXPECT_EQ(on, base);
}

TEST(Registry, AllVariantsEnumeratesTheTable) {
  const auto variants = test::all_variants(4);
  std::set<std::string> names;
  for (const auto& v : variants) {
    EXPECT_EQ(v.rules.players, 4);
    EXPECT_TRUE(names.insert(v.name).second);
    EXPECT_EQ(v.rules.to_string(), v.name + "/4p");
  }
  EXPECT_EQ(variants.size(), size_t(2) << kNumExpansions);
  EXPECT_EQ(variants.front().name, "base");
  EXPECT_EQ(variants.back().name, "wheel-of-fortune+festival+fortune-teller+fruit-trees");
}
