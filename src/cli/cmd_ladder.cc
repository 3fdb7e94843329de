// `carcassonne ladder`: Bradley-Terry (Elo-scale) ratings with 95% intervals from the --json
// outputs of two-player tournaments, one player anchored (docs/ai.md, "Levels").
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "input_limits.h"
#include "stats.h"

namespace carc::cli {

void register_ladder(CLI::App& app) {
  auto* cmd = app.add_subcommand("ladder", "Elo ladder (Bradley-Terry, 95% intervals) from `tournament --json` files");
  struct Opts {
    std::vector<std::string> files;
    std::string anchor = "greedy";
    double anchor_elo = 1000;
    double prior = 1;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("files", o->files, "outputs of `carcassonne tournament --players A,B --json` (two players each)")->required();
  cmd->add_option("--anchor", o->anchor, "the player whose rating is fixed")->capture_default_str();
  cmd->add_option("--anchor-elo", o->anchor_elo, "the anchor's rating")->capture_default_str();
  cmd->add_option("--prior-ties", o->prior, "virtual tied games added to every pair that met")->capture_default_str()->check(CLI::NonNegativeNumber);
  cmd->add_flag("--json", o->json, "print JSON instead of text");
  cmd->callback([o] {
    std::vector<std::string> names;
    auto index = [&](const std::string& n) {
      for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == n) return int(i);
      names.push_back(n);
      return int(names.size() - 1);
    };
    std::vector<ai::PairResult> pairs;
    for (const auto& f : o->files) {
      nlohmann::json j;
      try {
        const std::string text = read_file(f);
        if (auto err = limits::json_depth_error(text); !err.empty()) throw std::invalid_argument(err);
        j = nlohmann::json::parse(text);
        const auto& pl = j.at("players");
        if (pl.size() != 2) throw std::invalid_argument("has " + std::to_string(pl.size()) + " players, not 2");
        ai::PairResult r;
        r.a = index(pl[0].at("name").get<std::string>());
        r.b = index(pl[1].at("name").get<std::string>());
        r.score_a = pl[0].at("wins").get<double>();
        r.games = j.at("games").get<double>();
        if (r.a == r.b) throw std::invalid_argument("a player against itself");
        pairs.push_back(r);
      } catch (const std::exception& e) {
        throw std::invalid_argument(f + ": not a two-player `tournament --json` output: " + e.what());
      }
    }
    int anchor = -1;
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == o->anchor) anchor = int(i);
    if (anchor < 0) throw std::invalid_argument("--anchor " + o->anchor + " plays in none of the files");
    const auto ratings = ai::bradley_terry(int(names.size()), pairs, anchor, o->anchor_elo, o->prior);
    std::vector<size_t> order(names.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ratings[a].elo > ratings[b].elo; });
    if (o->json) {
      nlohmann::ordered_json out = nlohmann::ordered_json::array();
      for (size_t i : order)
        out.push_back({{"name", names[i]}, {"elo", ratings[i].elo}, {"ci95", {ratings[i].lo, ratings[i].hi}},
                       {"games", ratings[i].games}});
      std::cout << out.dump() << "\n";
      return;
    }
    size_t w = 6;
    for (auto& n : names) w = std::max(w, n.size());
    std::cout << "ladder: " << pairs.size() << " matches, anchor " << o->anchor << " = " << o->anchor_elo
              << ", Bradley-Terry with " << o->prior << " virtual tie(s) per pair\n";
    for (size_t i : order) {
      std::cout << "  " << std::left << std::setw(int(w)) << term_safe(names[i]) << std::right << std::fixed << std::setprecision(0)
                << "  Elo " << std::setw(5) << ratings[i].elo << "  (95% CI " << ratings[i].lo << " to " << ratings[i].hi
                << ")  " << ratings[i].games << " games\n";
    }
  });
}

}  // namespace carc::cli
