// `carcassonne play`: a human plays in the terminal against AI players (or hot-seat). The
// board is drawn as text with the legal places labelled; a turn is two short choices (the
// place, then the rotation/follower option there); the score log is printed in words. The
// record is saved when the game ends, on end of input, on 'q' and on Ctrl-C. The game itself
// (seats, AI turns, undo, hints) is the match layer's game in progress (src/match/table.h), the
// same object the server plays its games with.
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <functional>
#include <iomanip>
#include <ctime>
#include <iostream>
#include <random>
#include <sstream>

#include "ai_common.h"
#include "board_text.h"
#include "commands.h"
#include "player.h"
#include "table.h"

namespace carc::cli {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_sigint(int) { g_interrupted = 1; }

std::string label_of(size_t k) { return k < 26 ? std::string(1, char('a' + k)) : std::to_string(k); }

struct Session {
  std::unique_ptr<match::Table> t;
  const State& s() const { return t->state(); }
  const std::vector<ScoreEvent>& events() const { return t->events(); }
  std::vector<std::string> names;
  size_t events_shown = 0;
  size_t draws_shown = 0;
  std::string save;
  bool color = false;
  std::unique_ptr<ai::Player> hinter;  // `hint`: analyses the position for the player to move
  std::string hint_spec;
  uint64_t seed = 0;
  int undos = 0;
};

void save_record(const Session& ss) {
  if (ss.save.empty()) return;
  write_file(ss.save, ss.t->record_json());
  std::cout << "record saved to " << ss.save << "\n";
}

// The name of a wheel segment ("storm"), or "?".
std::string segment_name(const Session& ss, int seg) {
  const auto& w = ss.s().game().wheel();
  return seg >= 0 && seg < int(w.size()) ? kWheelEventNames[int(w[seg].event)] : "?";
}

// What a scoring was for, in words.
std::string event_words(const Session& ss, const ScoreEvent& e) {
  if (e.kind == "fortuna") return "Fortuna";
  if (e.kind == "taxes") return "the taxes on knights (city at (" + std::to_string(e.x) + "," + std::to_string(e.y) + "))";
  if (e.kind == "famine") return "the famine (a farmer at (" + std::to_string(e.x) + "," + std::to_string(e.y) + "))";
  if (e.kind == "storm") return "the storm (followers in hand)";
  if (e.kind == "inquisition") return "the inquisition (a monk at (" + std::to_string(e.x) + "," + std::to_string(e.y) + "))";
  if (e.kind == "crown") return "a crown space of the " + segment_name(ss, e.segment) + " on the wheel";
  if (e.kind == "fruit") return e.final ? "fruit tokens held" : "fruit";
  return std::string("a ") + (e.final ? "incomplete " : "completed ") + e.kind + " at (" + std::to_string(e.x) + "," +
         std::to_string(e.y) + ")";
}

void show_events(Session& ss) {
  for (; ss.events_shown < ss.events().size(); ++ss.events_shown) {
    const ScoreEvent& e = ss.events()[ss.events_shown];
    const std::string& who = ss.names[e.player];
    const bool you = who == "You";
    if (e.kind == "pig") {
      // Wheel of Fortune: a drawn wheel tile turns the wheel before it is placed.
      std::cout << who << (you ? " draw " : " draws ") << e.tile << ": the pig moves " << e.steps << " from "
                << segment_name(ss, e.from) << " to " << segment_name(ss, e.segment) << "\n";
      continue;
    }
    if (e.kind == "plague") {
      std::cout << "  " << who << (you ? " take back" : " takes back") << " the follower at (" << e.x << "," << e.y << ") "
                << e.at << " for the plague\n";
      continue;
    }
    std::cout << "  " << who << (you ? " score " : " scores ") << e.points << (e.points == 1 ? " point" : " points")
              << " for " << event_words(ss, e) << (e.final ? " (final scoring)" : "") << "\n";
  }
}

void show_draws(Session& ss) {
  const auto& d = ss.s().draws();
  for (; ss.draws_shown < d.size(); ++ss.draws_shown)
    if (d[ss.draws_shown].fate == carc::Fate::Discarded)
      std::cout << "  tile " << ss.s().game().type(d[ss.draws_shown].type).id << " fits nowhere and is discarded\n";
}

void show_scores(const Session& ss) {
  std::cout << "scores:";
  for (int p = 0; p < ss.s().num_players(); ++p)
    std::cout << "  " << ss.names[p] << " " << ss.s().score(p) << " (" << ss.s().supply(p) << " followers in hand)";
  std::cout << "  | tiles left " << ss.s().bag_size() << "\n";
}

// Reads one line; false on end of input or Ctrl-C.
bool read_line(std::string& line) {
  std::cout << "> " << std::flush;
  if (!std::getline(std::cin, line) || g_interrupted) return false;
  const size_t a = line.find_first_not_of(" \t\r"), b = line.find_last_not_of(" \t\r");
  line = a == std::string::npos ? "" : line.substr(a, b - a + 1);
  return true;
}

const char* const kHelp =
    "commands: a letter picks a place on the board, a number an option; 'hint' suggests moves\n"
    "(the computer's best few, with its estimated chance to win and final score difference;\n"
    "it sees only what you see); 'undo' takes back your last move and the computer's replies\n"
    "(the tile you had comes again); 'help' shows this; 'q' saves the record and quits\n";

constexpr int kQuit = -1, kUndo = -2;

// Reads a number 1..n (0 too when `zero`); kQuit when the human quits, kUndo for 'undo'.
// `hint` answers 'hint'.
int read_number(int n, bool zero, const std::function<void()>& hint) {
  std::string line;
  for (;;) {
    if (!read_line(line) || line == "q") return kQuit;
    if (line == "undo") return kUndo;
    if (line == "hint") {
      hint();
      continue;
    }
    if (line == "help" || line == "?") {
      std::cout << kHelp;
      continue;
    }
    int k = -1;
    try {
      size_t used = 0;
      k = std::stoi(line, &used);
      if (used != line.size()) k = -1;
    } catch (const std::exception&) {
    }
    if ((k == 0 && zero) || (k >= 1 && k <= n)) return k;
    std::cout << "type a number from " << (zero ? 0 : 1) << " to " << n << "\n";
  }
}

// What the player types for move `m` at `s`, in ask_move's menus: the option number of the
// drawn tile (when several were drawn), the place's letter (when there are several places),
// the option number there (when there are several), e.g. "b then 2".
std::string keys_for(const State& s, const Move& m) {
  std::vector<Move> moves;
  s.legal_moves(moves);
  auto index_of = [](const std::vector<Move>& v, const Move& x) -> size_t {
    return size_t(std::find(v.begin(), v.end(), x) - v.begin());
  };
  if (s.phase() == Phase::Plague) return std::to_string(index_of(moves, m) + 1);
  std::vector<std::string> keys;
  if (std::any_of(moves.begin(), moves.end(), [](const Move& x) { return x.kind == MoveKind::Choose; })) {
    std::vector<Move> options;  // as in ask_move
    for (const Move& x : moves)
      if (x.kind == MoveKind::Choose ||
          std::none_of(options.begin(), options.end(), [&](const Move& o) { return o.choice == x.choice; }))
        options.push_back(x);
    for (size_t k = 0; k < options.size(); ++k)
      if (options[k].choice == m.choice && (options[k].kind == MoveKind::Choose) == (m.kind == MoveKind::Choose))
        keys.push_back(std::to_string(k + 1));
    if (m.kind == MoveKind::Choose) return keys.empty() ? "?" : keys[0];
    moves.erase(std::remove_if(moves.begin(), moves.end(),
                               [&](const Move& x) { return x.kind != MoveKind::Place || x.choice != m.choice; }),
                moves.end());
  }
  std::vector<std::pair<int, int>> cells;
  for (const Move& x : moves)
    if (std::find(cells.begin(), cells.end(), std::pair<int, int>{x.x, x.y}) == cells.end()) cells.push_back({x.x, x.y});
  const size_t cell = size_t(std::find(cells.begin(), cells.end(), std::pair<int, int>{m.x, m.y}) - cells.begin());
  if (cells.size() > 1) keys.push_back(label_of(cell));
  std::vector<Move> here;
  for (const Move& x : moves)
    if (x.x == m.x && x.y == m.y) here.push_back(x);
  if (here.size() > 1) keys.push_back(std::to_string(index_of(here, m) + 1));
  if (keys.empty()) return "(the only move: any key)";
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : " then ") + k;
  return out;
}

// `hint`: the best few moves for the player to move, by a search on the public position only
// (the hidden part, the bag's order and face-down fruit tokens, is drawn afresh first; MCTS
// redraws it at every iteration). Deterministic for the game's seed and turn.
void show_hint(Session& ss) {
  const State pub =
      ss.t->hint_position(ss.s().current_player(), derive_seed(ss.seed, 0x68696e74ull + uint64_t(ss.s().turn())));  // "hint"
  if (!ss.hinter) ss.hinter = make_player_checked(ss.hint_spec, derive_seed(ss.seed, 0x68696e74ull));
  const std::vector<ai::MoveEval> ev = ss.hinter->analyse(pub);
  std::cout << "hint (" << ss.hinter->name() << "; type the keys shown):\n";
  for (size_t i = 0; i < ev.size() && i < 3; ++i) {
    std::ostringstream line;
    line << std::fixed << std::setprecision(1) << "  " << i + 1 << ". " << keys_for(ss.s(), ev[i].move) << ": "
         << describe_move(ss.s(), ev[i].move) << "  win " << 100 * ev[i].win_probability << "%, score difference "
         << std::showpos << ev[i].score_diff;
    std::cout << line.str() << "\n";
  }
}

enum class Ask { Move, Quit, Undo };

// Asks the human for a move; Quit when the human quits (q, end of input, Ctrl-C), Undo for 'undo'.
Ask ask_move(Session& ss, Move& out) {
  const State& s = ss.s();
  const std::function<void()> hint = [&ss] { show_hint(ss); };
  std::vector<Move> moves;
  s.legal_moves(moves);
  if (s.phase() == Phase::Plague) {
    // Wheel of Fortune: the Plague: a follower of the deciding player back from the land.
    BoardTextOptions opt;
    opt.color = ss.color;
    std::cout << "\n" << board_text(s, opt);
    show_scores(ss);
    std::cout << ss.names[s.current_player()] << ", the Plague: take back one of your followers (seat number "
              << s.current_player() + 1 << " on the board):\n";
    for (size_t k = 0; k < moves.size(); ++k) std::cout << "  " << k + 1 << ") " << describe_move(s, moves[k]) << "\n";
    const int k = read_number(int(moves.size()), false, hint);
    if (k < 0) return k == kUndo ? Ask::Undo : Ask::Quit;
    out = moves[size_t(k - 1)];
    return Ask::Move;
  }
  if (std::any_of(moves.begin(), moves.end(), [](const Move& m) { return m.kind == MoveKind::Choose; })) {
    // Several drawn tiles, some with a wheel number: choosing one of those turns the wheel
    // before it is placed; the others are placed directly.
    std::vector<Move> options;
    for (const Move& m : moves)
      if (m.kind == MoveKind::Choose ||
          std::none_of(options.begin(), options.end(), [&](const Move& o) { return o.choice == m.choice; }))
        options.push_back(m);
    std::cout << ss.names[s.current_player()] << ", you drew several tiles; which one do you play?\n";
    for (size_t k = 0; k < options.size(); ++k) {
      const TileType& tt = s.game().type(s.drawn_tile(options[k].choice));
      std::cout << "  " << k + 1 << ") " << tt.id
                << (options[k].kind == MoveKind::Choose ? " (the pig moves " + std::to_string(tt.wheel) + " first)" : "")
                << "\n";
    }
    const int k = read_number(int(options.size()), false, hint);
    if (k < 0) return k == kUndo ? Ask::Undo : Ask::Quit;
    const Move pick = options[size_t(k - 1)];
    if (pick.kind == MoveKind::Choose) {
      out = pick;
      return Ask::Move;
    }
    moves.erase(std::remove_if(moves.begin(), moves.end(),
                               [&](const Move& m) { return m.kind != MoveKind::Place || m.choice != pick.choice; }),
                moves.end());
  }
  std::vector<std::pair<int, int>> cells;
  std::vector<std::vector<int>> at;
  for (size_t i = 0; i < moves.size(); ++i) {
    std::pair<int, int> c{moves[i].x, moves[i].y};
    auto it = std::find(cells.begin(), cells.end(), c);
    if (it == cells.end()) {
      cells.push_back(c);
      at.emplace_back();
      it = cells.end() - 1;
    }
    at[it - cells.begin()].push_back(int(i));
  }
  for (;;) {
    BoardTextOptions opt;
    opt.color = ss.color;
    opt.marks = cells;
    std::cout << "\n" << board_text(s, opt);
    show_scores(ss);
    const TileType& tt = s.game().type(s.drawn_tile(moves.front().choice));
    std::cout << ss.names[s.current_player()] << ", your tile is " << tt.id << (tt.note.empty() ? "" : " (" + tt.note + ")")
              << ":\n"
              << tile_text(tt, 0);
    int cell = -1;
    if (cells.size() == 1) {
      cell = 0;
    } else {
      std::cout << "choose a place:";
      for (size_t k = 0; k < cells.size(); ++k)
        std::cout << " " << label_of(k) << "=(" << cells[k].first << "," << cells[k].second << ")";
      std::cout << "   (hint: suggest a move, help, q: save and quit)\n";
      std::string line;
      for (;;) {
        if (!read_line(line) || line == "q") return Ask::Quit;
        if (line == "undo") return Ask::Undo;
        if (line == "hint") {
          hint();
          continue;
        }
        if (line == "help" || line == "?") {
          std::cout << kHelp;
          continue;
        }
        for (size_t k = 0; k < cells.size(); ++k)
          if (line == label_of(k)) cell = int(k);
        if (cell >= 0) break;
        std::cout << "type one of the letters shown on the board\n";
      }
    }
    const std::vector<int>& opts = at[cell];
    if (opts.size() == 1) {
      out = moves[opts[0]];
      return Ask::Move;
    }
    std::cout << "at (" << cells[cell].first << "," << cells[cell].second << "):\n";
    for (size_t k = 0; k < opts.size(); ++k) {
      std::cout << "  " << k + 1 << ") " << describe_move(s, moves[opts[k]]) << "\n";
    }
    std::cout << "  0) back to the places\n";
    const int k = read_number(int(opts.size()), true, hint);
    if (k < 0) return k == kUndo ? Ask::Undo : Ask::Quit;
    if (k == 0) continue;  // back to the places
    out = moves[size_t(opts[size_t(k - 1)])];
    return Ask::Move;
  }
}

}  // namespace

void register_play(CLI::App& app) {
  auto* cmd = app.add_subcommand("play", "Play in the terminal against AI players, or hot-seat");
  struct Opts {
    std::string vs = "mcts:level=medium";
    int players = 2;
    int seat = 1;
    bool hotseat = false;
    uint64_t seed = 0;
    std::string save, tileset = "base", expansions;
    std::string hint = "mcts:iterations=20000";
    bool color = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("--vs", o->vs, "AI opponent spec (every AI seat), e.g. greedy, mcts:time=2s");
  cmd->add_option("-p,--players", o->players, "players in the game (2..6)")->check(CLI::Range(2, 6));
  cmd->add_option("--seat", o->seat, "your seat (1 = first to play)")->check(CLI::Range(1, 6));
  cmd->add_flag("--hotseat", o->hotseat, "every seat is a human at this terminal");
  cmd->add_option("--seed", o->seed, "seed of the tile draws (default: random)");
  cmd->add_option("--save", o->save, "record file written at the end (default: game-SEED.record.json)");
  cmd->add_option("--tileset", o->tileset, tileset_help());
  cmd->add_option("--expansions", o->expansions, expansions_help());
  cmd->add_flag("--color", o->color, "ANSI colours on the board");
  cmd->add_option("--hint", o->hint, "the AI that answers 'hint' (suggested moves), e.g. mcts:time=2s");
  cmd->callback([o] {
    if (o->seat > o->players) throw std::invalid_argument("--seat must be at most --players");
    uint64_t seed = o->seed;
    if (seed == 0) seed = (uint64_t(std::random_device{}()) << 20) ^ uint64_t(time(nullptr));
    Rules rules = ai_rules_from(o->players, o->tileset, o->expansions);
    Session ss;
    ss.color = o->color;
    ss.seed = seed;
    ss.hint_spec = o->hint;
    make_player_checked(o->hint, 0);  // a bad --hint is refused before the game starts
    ss.save = o->save.empty() ? "game-" + std::to_string(seed) + ".record.json" : o->save;
    std::vector<match::Seat> seats;
    Record rec;
    rec.tileset = rules.tileset;
    rec.expansions = rules.expansions();
    rec.seed = seed;
    for (int p = 0; p < o->players; ++p) {
      if (o->hotseat || p == o->seat - 1) {
        seats.push_back({o->hotseat ? "Player " + std::to_string(p + 1) : "You", "human", "", false});
      } else {
        // The spec is checked now, and its name shown; the table makes the seat's player with
        // the seat seed seat_seed(seed, p) when it first moves (the one seed rule, seeds.h).
        const std::string name = make_player_checked(o->vs, seat_seed(seed, p))->name();
        seats.push_back({"AI " + std::to_string(p + 1) + " (" + name + ")", "ai", o->vs, false});
      }
      rec.players.push_back(seats.back().name);
    }
    ss.names = rec.players;
    ss.t = std::make_unique<match::Table>(seats, rec);
    const match::PlayerFactory make = [](const std::string& spec, uint64_t s) { return make_player_checked(spec, s); };
    struct sigaction sa {};
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: a blocked read returns at once
    sigaction(SIGINT, &sa, nullptr);
    std::cout << "Carcassonne " << rules.to_string() << ", seed " << seed << ". Seats:";
    for (int p = 0; p < o->players; ++p) std::cout << " " << p + 1 << "=" << ss.names[p];
    std::cout << "\nfollowers on the board show as the seat number (1..6). Type 'help' for the commands, 'hint' for a suggestion.\n";
    show_draws(ss);
    show_events(ss);  // Wheel of Fortune: a single drawn wheel tile turns the wheel at once
    auto after_move = [&ss] {
      show_events(ss);
      show_draws(ss);
      show_events(ss);
    };
    // The AI failure policy (docs/ai.md): an AI that fails stops the game with its error; the
    // record is saved, and nothing plays in its place.
    auto stop_on_failure = [&ss] {
      const auto& f = ss.t->ai_failure();
      if (!f) return;
      std::cout << "\n" << ss.names[size_t(f->seat)] << " failed: " << f->error << "; the game stops here\n";
      save_record(ss);
      throw Exit{1};
    };
    while (!ss.t->over()) {
      if (g_interrupted) {
        std::cout << "\ninterrupted\n";
        save_record(ss);
        throw Exit{130};
      }
      if (auto turn = ss.t->ai_turn(make)) {
        const match::AiResult r = match::think(*turn);
        if (r.error.empty())
          std::cout << "turn " << ss.s().turn() + 1 << ": " << ss.names[size_t(turn->seat)] << ": "
                    << describe_move(ss.s(), r.move) << "\n";
        ss.t->finish_ai_turn(*turn, r);
        stop_on_failure();
        after_move();
        continue;
      }
      stop_on_failure();
      const int p = ss.s().current_player();
      Move m;
      const Ask a = ask_move(ss, m);
      if (a == Ask::Quit) {
        std::cout << "\ngame left unfinished\n";
        save_record(ss);
        if (g_interrupted) throw Exit{130};
        return;
      }
      if (a == Ask::Undo) {
        // The undo policy of the server's games (docs/security.md): your own last move and the
        // computer's replies; what is still hidden is drawn afresh (here from the game's seed).
        try {
          const int before = ss.s().turn();
          ss.t->undo(p, derive_seed(seed, 0x756e646full + uint64_t(++ss.undos)));  // "undo"
          std::cout << "took back " << before - ss.s().turn() << (before - ss.s().turn() == 1 ? " move" : " moves")
                    << "; turn " << ss.s().turn() + 1 << "\n";
          ss.events_shown = std::min(ss.events_shown, ss.events().size());
          ss.draws_shown = std::min(ss.draws_shown, ss.s().draws().size());
        } catch (const match::Refused& e) {
          std::cout << "cannot undo: " << e.what() << "\n";
        }
        continue;
      }
      std::cout << "turn " << ss.s().turn() + 1 << ": " << ss.names[size_t(p)] << ": " << describe_move(ss.s(), m) << "\n";
      ss.t->play(p, m);
      after_move();
    }
    show_draws(ss);
    show_events(ss);
    BoardTextOptions opt;
    opt.color = ss.color;
    std::cout << "\n" << board_text(ss.s(), opt) << "game over. ";
    show_scores(ss);
    int best = 0;
    for (int p = 0; p < ss.s().num_players(); ++p) best = std::max(best, ss.s().score(p));
    std::string winners;
    for (int p = 0; p < ss.s().num_players(); ++p)
      if (ss.s().score(p) == best) winners += (winners.empty() ? "" : " and ") + ss.names[p];
    std::cout << "winner: " << winners << " with " << best << " points\n";
    save_record(ss);
  });
}

}  // namespace carc::cli
