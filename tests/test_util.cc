#include "test_util.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace carc::test {

std::string source_dir() { return CARC_SOURCE_DIR; }

std::vector<Variant> all_variants(int players) {
  std::vector<Variant> out;
  for_each_module(ModuleKind::TileSet, [&](const ModuleInfo& t) {
    for (ExpansionSet set = 0; set <= kAllExpansions; ++set) {
      Variant v;
      v.rules.players = players;
      v.rules.tileset = std::string(t.name);
      v.rules.expansion_set = set;
      v.name = v.rules.tileset;
      for (const std::string& e : v.rules.expansions()) v.name += "+" + e;
      try {
        Game::get(v.rules);
      } catch (const std::exception& e) {
        ADD_FAILURE() << "the variant " << v.name << " does not load: " << e.what();
        continue;
      }
      out.push_back(std::move(v));
    }
  });
  return out;
}

std::string shared_dir() {
  namespace fs = std::filesystem;
  for (fs::path p : {fs::path(CARC_SOURCE_DIR) / ".." / "shared", fs::path(CARC_SOURCE_DIR) / "shared"})
    if (fs::exists(p / "conformance")) return p.string();
  return "";
}

Record scenario(const std::string& turns, int players, const std::string& start,
                const std::vector<std::string>& expansions) {
  nlohmann::json j;
  j["format"] = "carcassonne-record/1";
  std::vector<std::string> names;
  for (int i = 0; i < players; ++i) names.push_back(std::string(1, char('A' + i)));
  j["setup"] = {{"players", names}, {"tileset", "base"}, {"expansions", expansions}, {"seed", 1}, {"draws", "scripted"}};
  if (!start.empty()) {
    auto slash = start.find('/');
    j["setup"]["start"] = {{"tile", start.substr(0, slash)},
                           {"rotation", slash == std::string::npos ? 0 : std::stoi(start.substr(slash + 1))}};
  }
  j["turns"] = nlohmann::json::parse(turns);
  return parse_record(j.dump());
}

Replay play(const Record& r, bool final) { return replay(r, final); }

State random_position(const Game* g, uint64_t seed, int turns) {
  State s(g, seed);
  Rng rng(seed * 31 + 7);
  walk_until(s, rng, [turns](const State& x) { return x.turn() >= turns; });
  return s;
}

bool walk_until(State& s, Rng& rng, const std::function<bool(const State&)>& stop) {
  std::vector<Move> moves;
  while (!s.is_terminal()) {
    if (s.is_chance()) {
      s.draw_random();
      continue;
    }
    if (stop(s)) return true;
    s.legal_moves(moves);
    s.apply(moves[rng.below(uint32_t(moves.size()))]);
  }
  return false;
}

bool updating_golden() {
  const char* u = std::getenv("CARC_UPDATE_GOLDEN");
  return u && std::string(u) == "1";
}

int expect_golden(const std::string& name, const std::string& got, const std::string& why) {
  const std::string path = source_dir() + "/tests/golden/" + name;
  if (updating_golden()) {
    std::ofstream(path) << got;
    return 0;
  }
  std::ifstream in(path);
  EXPECT_TRUE(in) << path << " is missing (CARC_UPDATE_GOLDEN=1 creates it)";
  if (!in) return 0;
  std::stringstream want;
  want << in.rdbuf();
  std::istringstream a(want.str()), b(got);
  std::string la, lb;
  int line = 0;
  while (std::getline(a, la)) {
    ++line;
    if (!std::getline(b, lb)) {
      ADD_FAILURE() << path << " has more lines (" << line << "+) than the test produced";
      return line;
    }
    EXPECT_EQ(lb, la) << path << " line " << line << " differs: " << why
                      << " (a deliberate change regenerates the file with CARC_UPDATE_GOLDEN=1 and says why)";
  }
  EXPECT_FALSE(std::getline(b, lb)) << "the test produced more lines than " << path << " lists: " << lb;
  return line;
}

}  // namespace carc::test
