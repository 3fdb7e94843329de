// `carcassonne analyse FILE [--turn N] [--time 5s]`: the best moves for the player to move at
// a recorded position, each with MCTS's estimated win probability and expected score margin.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "ai_common.h"
#include "commands.h"
#include "mcts.h"
#include "player.h"
#include "spec.h"

namespace carc::cli {

namespace {

// The position of turn `n` (1-based): turns 1..n-1 applied, then turn n's draw as recorded
// (discarded tiles and the placed tile), or drawn with the game's own generator when the
// record stops before turn n.
State position_of(const Record& r, int n) {
  State s = initial_state(r);
  const int have = int(r.turns.size());
  if (n < 1 || n > have + 1)
    throw std::invalid_argument("--turn must be between 1 and " + std::to_string(have + 1) + " for this record");
  for (int i = 0; i < n - 1; ++i) apply_turn(s, r.turns[i], i + 1);
  if (s.is_terminal()) throw std::invalid_argument("the game is over at turn " + std::to_string(n) + ": nothing to analyse");
  if (n <= have) {
    // Every tile the turn drew (Fortune Teller: several), checked as replay checks them.
    apply_turn_draws(s, r.turns[n - 1], n);
  } else {
    while (s.is_chance()) s.draw_random();
  }
  if (s.is_terminal()) throw std::invalid_argument("the game is over at turn " + std::to_string(n));
  return s;
}

}  // namespace

void register_analyse(CLI::App& app) {
  auto* cmd = app.add_subcommand("analyse", "Best moves at a recorded position, with win probability and score margin");
  struct Opts {
    std::string file;
    int turn = 0;
    std::string time = "5s";
    std::string player;
    int threads = 1;
    int top = 5;
    uint64_t seed = 1;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("FILE", o->file, "game record")->required();
  cmd->add_option("--turn", o->turn, "the turn to analyse (1 = first after the start tile; default: the next turn)");
  cmd->add_option("--time", o->time, "thinking time (e.g. 5s, 500ms)");
  cmd->add_option("--player", o->player, "analysing player spec instead of mcts:time=..., e.g. mcts:iterations=20000");
  cmd->add_option("-t,--threads", o->threads, "search threads")->check(CLI::Range(1, 256));
  cmd->add_option("--top", o->top, "moves to list")->check(CLI::PositiveNumber);
  cmd->add_option("--seed", o->seed, "search seed");
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->alias("analyze");
  cmd->callback([o] {
    const Record rec = load_record(o->file);
    const int n = o->turn > 0 ? o->turn : int(rec.turns.size()) + 1;
    State s = position_of(rec, n);
    std::string spec = o->player;
    if (spec.empty()) spec = "mcts:time=" + ai::format_seconds(ai::parse_seconds(o->time)) + ":threads=" + std::to_string(o->threads);
    auto player = make_player_checked(spec, o->seed);
    std::vector<ai::MoveEval> ev = player->analyse(s);
    const int me = s.current_player();
    const std::string who = me < int(rec.players.size()) ? term_safe(rec.players[me]) : "player " + std::to_string(me + 1);
    if (o->json) {
      nlohmann::ordered_json j;
      j["turn"] = n;
      j["player"] = me;
      j["tile"] = s.game().type(s.current_tile()).id;
      j["analyser"] = player->name();
      j["moves"] = nlohmann::ordered_json::array();
      for (size_t i = 0; i < ev.size() && int(i) < o->top; ++i) {
        const TurnRecord t = turn_of(s, ev[i].move);
        nlohmann::ordered_json m;
        m["x"] = t.x;
        m["y"] = t.y;
        m["rotation"] = t.rotation;
        if (!t.follower.empty()) m["follower"] = t.follower;
        if (t.take_back)
          m["take_back"] = t.take_back->crown() ? nlohmann::ordered_json{{"at", t.take_back->at}}
                                                : nlohmann::ordered_json{{"x", t.take_back->x}, {"y", t.take_back->y}, {"at", t.take_back->at}};
        m["description"] = describe_move(s, ev[i].move);
        m["win_probability"] = ev[i].win_probability;
        m["score_diff"] = ev[i].score_diff;
        m["visits"] = ev[i].visits;
        j["moves"].push_back(m);
      }
      std::cout << j.dump() << "\n";
      return;
    }
    std::cout << "turn " << n << ": " << who << " (seat " << me + 1 << ") places tile " << s.game().type(s.current_tile()).id
              << "; scores";
    for (int p = 0; p < s.num_players(); ++p) std::cout << " " << s.score(p);
    std::cout << "; analysed by " << player->name() << "\n";
    std::cout << std::fixed;
    for (size_t i = 0; i < ev.size() && int(i) < o->top; ++i) {
      std::cout << "  " << i + 1 << ". " << std::left << std::setw(44) << describe_move(s, ev[i].move) << std::right
                << " win " << std::setprecision(1) << std::setw(5) << 100 * ev[i].win_probability << "%  margin "
                << std::showpos << std::setw(6) << ev[i].score_diff << std::noshowpos << "  (" << ev[i].visits
                << " visits)\n";
    }
  });
}

}  // namespace carc::cli
