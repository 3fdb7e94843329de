// `carcassonne replay FILE [--final] [--json]`: checks every turn of a record and prints the
// scores (shared spec §4). Exit status 2 with "FILE: turn N: reason" for an invalid record.
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"

namespace carc::cli {

void register_replay(CLI::App& app) {
  auto* cmd = app.add_subcommand("replay", "Replay a game record, check every turn, print the scores");
  auto file = std::make_shared<std::string>();
  auto final = std::make_shared<bool>(false);
  auto json = std::make_shared<bool>(false);
  auto verbose = std::make_shared<bool>(false);
  cmd->add_option("FILE", *file, "game record (carcassonne-record/1 JSON)")->required();
  cmd->add_flag("--final", *final, "apply the end-of-game scoring to the position reached");
  cmd->add_flag("--json", *json, "print one JSON object: scores, finished, events");
  cmd->add_flag("-v,--verbose", *verbose, "print every scoring event and the scores after each turn");
  cmd->callback([=] {
    Record rec = load_record(*file);
    Replay rp = [&] {
      try {
        return replay(rec, *final);
      } catch (const RecordError& e) {
        throw RecordError(*file + ": " + e.what(), e.turn());
      }
    }();
    const State& s = rp.state;
    if (*json) {
      nlohmann::ordered_json j;
      j["scores"] = s.scores();
      j["finished"] = s.is_terminal();
      auto ev = nlohmann::ordered_json::array();
      for (auto& e : rp.events)
        ev.push_back({{"turn", e.turn}, {"player", e.player}, {"points", e.points}, {"kind", e.kind}, {"final", e.final}});
      j["events"] = ev;
      std::cout << j.dump() << "\n";
      return;
    }
    if (*verbose) {
      for (auto& e : rp.events)
        std::cout << (e.final ? "final" : "turn " + std::to_string(e.turn)) << ": " << rec.players[e.player] << " scores "
                  << e.points << " for a " << e.kind << "\n";
    }
    std::cout << rec.turns.size() << " turns, " << (s.is_terminal() ? "game over" : "game in progress")
              << (*final && !s.is_terminal() ? " (final scoring applied)" : "") << "\n";
    for (int p = 0; p < s.num_players(); ++p) std::cout << rec.players[p] << ": " << s.score(p) << "\n";
  });
}

}  // namespace carc::cli
