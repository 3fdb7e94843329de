// `carcassonne replay FILE [--final] [--json]`: checks every turn of a record and prints the
// scores (shared spec §4). Exit status 2 with "FILE: turn N: reason" for an invalid record.
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#ifdef CARC_HAVE_SERVER
#include "secure.h"
#endif

namespace carc::cli {

void register_replay(CLI::App& app) {
  auto* cmd = app.add_subcommand("replay", "Replay a game record, check every turn, print the scores");
  auto file = std::make_shared<std::string>();
  auto final = std::make_shared<bool>(false);
  auto json = std::make_shared<bool>(false);
  auto verbose = std::make_shared<bool>(false);
  cmd->add_option("FILE", *file, "game record (carcassonne-record/2 JSON, or the older /1)")->required();
  cmd->add_flag("--final", *final, "apply the end-of-game scoring to the position reached");
  cmd->add_flag("--json", *json, "print one JSON object: scores, finished, events");
  cmd->add_flag("-v,--verbose", *verbose, "print every scoring event and the scores after each turn");
  // Fair draws (docs/security.md): a finished server game with several people publishes its
  // secret seed, the salt and the turn from which the seed draws; this checks them.
  auto draws_from = std::make_shared<int>(-1);
  auto salt = std::make_shared<std::string>();
  auto commitment = std::make_shared<std::string>();
  cmd->add_option("--draws-from", *draws_from,
                  "check that every tile drawn after this turn is the one the record's seed draws (fair draws)")
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--commitment", *commitment, "with --draws-from: the game's published commitment, checked against --salt and the seed");
  cmd->add_option("--salt", *salt, "with --commitment: the salt published at the end of the game");
  cmd->callback([=] {
    Record rec = load_record(*file);
    if (*draws_from >= 0) {
      const std::string why = [&] {
        try {
          return check_draws_follow_seed(rec, *draws_from);
        } catch (const RecordError& e) {
          throw RecordError(*file + ": " + e.what(), e.turn());
        }
      }();
      if (!why.empty()) {
        std::cerr << *file << ": the draws do not follow the seed " << rec.seed << ": " << why << "\n";
        throw Exit{1};
      }
      std::cout << "every tile drawn after turn " << *draws_from << " is the seed's (" << rec.seed << ")\n";
      if (!commitment->empty()) {
#ifdef CARC_HAVE_SERVER
        if (server::draw_commitment(*salt, rec.seed) != *commitment) {
          std::cerr << *file << ": the seed " << rec.seed << " and this salt do not open the commitment\n";
          throw Exit{1};
        }
        std::cout << "the seed and the salt open the commitment " << *commitment << "\n";
#else
        std::cerr << "error: --commitment needs a build with the server layer (SHA-256)\n";
        throw Exit{kExitBadInput};
#endif
      }
    }
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
      const auto seg = [&](int i) { return std::string(kWheelEventNames[int(s.game().wheel()[size_t(i)].event)]); };
      for (auto& e : rp.events) {
        nlohmann::ordered_json j = {{"turn", e.turn}, {"player", e.player}, {"points", e.points}, {"kind", e.kind}, {"final", e.final}};
        // Wheel of Fortune: the pig's segment on wheel scorings; the pig's move; who took back what for the Plague.
        if (e.segment >= 0) j["segment"] = seg(e.segment);
        if (e.kind == "pig") {
          j["from"] = seg(e.from);
          j["steps"] = e.steps;
          j["tile"] = e.tile;
        }
        if (e.kind == "plague") {
          j["x"] = e.x;
          j["y"] = e.y;
          j["at"] = e.at;
        }
        ev.push_back(j);
      }
      j["events"] = ev;
      std::cout << j.dump() << "\n";
      return;
    }
    if (*verbose) {
      for (auto& e : rp.events)
        if (e.kind == "pig")
          std::cout << "turn " << e.turn << ": " << term_safe(rec.players[e.player]) << " draws " << term_safe(e.tile) << ": the pig moves "
                    << e.steps << " to " << kWheelEventNames[int(s.game().wheel()[size_t(e.segment)].event)] << "\n";
        else if (e.kind == "plague")
          std::cout << "turn " << e.turn << ": " << term_safe(rec.players[e.player]) << " takes back the follower at (" << e.x << ","
                    << e.y << ") " << term_safe(e.at) << " for the plague\n";
        else
          std::cout << (e.final ? "final" : "turn " + std::to_string(e.turn)) << ": " << term_safe(rec.players[e.player]) << " scores "
                    << e.points << " for a " << term_safe(e.kind) << "\n";
    }
    std::cout << rec.turns.size() << " turns, " << (s.is_terminal() ? "game over" : "game in progress")
              << (*final && !s.is_terminal() ? " (final scoring applied)" : "") << "\n";
    for (int p = 0; p < s.num_players(); ++p) std::cout << term_safe(rec.players[p]) << ": " << s.score(p) << "\n";
  });
}

}  // namespace carc::cli
