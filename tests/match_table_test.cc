// The game in progress (src/match/table.h) without HTTP: the undo policy (what may be undone, by
// whom, at which point), resignation, hints, AI turns, the AI failure policy, and the save/load
// round trip of a game in progress in every rule set (base, each expansion, Wheel of Fortune).
#include <gtest/gtest.h>

#include <iostream>

#include "player.h"
#include "runner.h"
#include "table.h"
#include "test_util.h"

namespace carc::match {
namespace {

Record new_game(const Rules& r, uint64_t seed, int players) {
  Record rec;
  for (int i = 0; i < players; ++i) rec.players.push_back("P" + std::to_string(i + 1));
  rec.tileset = r.tileset;
  rec.expansions = r.expansions();
  rec.seed = seed;
  return rec;
}

Seat human(const std::string& n) { return Seat{n, "human", "", false}; }
Seat remote(const std::string& n) { return Seat{n, "remote", "", false}; }
Seat bot(const std::string& n, const std::string& spec = "greedy") { return Seat{n, "ai", spec, false}; }

PlayerFactory plain() {
  return [](const std::string& spec, uint64_t seed) { return ai::make_player(spec, seed); };
}

// Plays every automatic turn due now (AI seats, resigned seats) through ai_turn/think/finish.
int run_ai(Table& t, const PlayerFactory& make = plain()) {
  int n = 0;
  while (auto turn = t.ai_turn(make)) {
    t.finish_ai_turn(*turn, think(*turn));
    ++n;
  }
  return n;
}

Move first_legal(const State& s) {
  std::vector<Move> moves;
  s.legal_moves(moves);
  return moves.at(0);
}

void expect_refused(const std::function<void()>& f, Refused::Kind kind, const std::string& words) {
  try {
    f();
    ADD_FAILURE() << "not refused (expected: " << words << ")";
  } catch (const Refused& e) {
    EXPECT_EQ(e.kind, kind) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(MatchTable, ANewGameWaitsForTheFirstDecision) {
  Table t({human("Ann"), bot("Bot")}, new_game(Rules{}, 5, 2));
  EXPECT_FALSE(t.state().is_chance());
  EXPECT_EQ(t.state().current_player(), 0);
  EXPECT_EQ(t.status(), "playing");
  EXPECT_EQ(t.auto_seat(), -1);
  EXPECT_EQ(t.people(), 1);
  EXPECT_TRUE(t.has_ai());
  EXPECT_FALSE(t.ai_only());
  expect_refused([&] { t.check_move_allowed(1); }, Refused::Conflict, "it is Ann's turn, not Bot's");
  expect_refused([&] { t.check_move_allowed(0, 7); }, Refused::Conflict, "this move is for turn 7, the game is at turn 1");
  expect_refused([&] { t.check_move_allowed(2); }, Refused::Invalid, "no seat 2");
  Move bad = first_legal(t.state());
  bad.x += 50;
  expect_refused([&] { t.play(0, bad); }, Refused::Illegal, "");
  EXPECT_EQ(t.state().turn(), 0) << "a refused move changes nothing";
}

TEST(MatchTable, UndoTakesBackTheSeatsMoveAndTheComputersReply) {
  Table t({human("Ann"), bot("Bot")}, new_game(Rules{}, 11, 2));
  expect_refused([&] { t.undo(0, 1); }, Refused::Conflict, "there is no move of yours to take back");
  const State before = t.state();
  const int tile = t.state().drawn_tile(0);
  t.play(0, first_legal(t.state()));
  EXPECT_EQ(t.auto_seat(), 1);
  EXPECT_EQ(run_ai(t), 1);
  EXPECT_EQ(t.state().turn(), 2);
  t.undo(0, 999);
  EXPECT_EQ(t.state().turn(), 0);
  EXPECT_EQ(t.state().current_player(), 0);
  EXPECT_EQ(t.state().drawn_tile(0), tile) << "the undone turn's tile comes again";
  EXPECT_EQ(t.state().num_placed(), before.num_placed());
  EXPECT_EQ(t.state().scores(), before.scores());
  EXPECT_EQ(t.state().seed(), 999u) << "what is still hidden follows the fresh seed";
}

TEST(MatchTable, UndoNeverTakesBackAnotherPersonsMove) {
  Table t({human("Ann"), human("Ben")}, new_game(Rules{}, 3, 2));
  t.play(0, first_legal(t.state()));
  t.play(1, first_legal(t.state()));
  expect_refused([&] { t.undo(0, 1); }, Refused::Conflict, "Ben has moved since your last move: only Ben can take that move back");
  t.undo(1, 2);  // Ben takes his own move back
  EXPECT_EQ(t.state().turn(), 1);
  t.undo(0, 3);  // then Ann may
  EXPECT_EQ(t.state().turn(), 0);
}

TEST(MatchTable, UndoIsRefusedWithRemoteSeatsInFinishedAndViewOnlyGames) {
  Table r({human("Ann"), remote("Ben")}, new_game(Rules{}, 3, 2));
  r.play(0, first_legal(r.state()));
  expect_refused([&] { r.undo(0, 1); }, Refused::Conflict, "undo is only allowed in games without other human players");
  Table v({human("Ann"), human("Ben")}, new_game(Rules{}, 3, 2), /*view_only=*/true);
  expect_refused([&] { v.undo(0, 1); }, Refused::Conflict, "only for viewing");
  expect_refused([&] { v.play(0, Move{}); }, Refused::Conflict, "only for viewing");
  Table f({human("Ann"), bot("Bot")}, new_game(Rules{}, 3, 2));
  f.play(0, first_legal(f.state()));
  f.resign(0);
  EXPECT_EQ(f.status(), "finished");
  expect_refused([&] { f.undo(0, 1); }, Refused::Conflict, "the game is over");
}

TEST(MatchTable, ResignationEndsATwoSeatGameAndAutoPlaysInALargerOne) {
  Table two({human("Ann"), human("Ben")}, new_game(Rules{}, 4, 2));
  two.resign(1);
  EXPECT_TRUE(two.over());
  EXPECT_EQ(two.end_reason(), "Ben resigned");
  expect_refused([&] { two.resign(0); }, Refused::Conflict, "the game is over");

  Rules r3;
  r3.players = 3;
  Table three({human("Ann"), human("Ben"), human("Cy")}, new_game(r3, 4, 3));
  three.resign(1);
  EXPECT_FALSE(three.over());
  expect_refused([&] { three.resign(1); }, Refused::Conflict, "you already resigned");
  three.play(0, first_legal(three.state()));
  EXPECT_EQ(three.auto_seat(), 1) << "a resigned seat is played on automatically";
  auto turn = three.ai_turn(plain());
  ASSERT_TRUE(turn);
  EXPECT_EQ(turn->spec, "greedy");
  three.finish_ai_turn(*turn, think(*turn));
  EXPECT_EQ(three.state().current_player(), 2);
  expect_refused([&] { three.check_move_allowed(1); }, Refused::Conflict, "it is Cy's turn");
  // Ann's undo takes back Ben's automatic move with hers, not Cy's (Cy has not moved yet).
  three.undo(0, 77);
  EXPECT_EQ(three.state().turn(), 0);
}

TEST(MatchTable, HintsSeeOnlyThePublicPositionOfTheSeatToMove) {
  Rules fr;
  fr.enable("fruit-trees");
  Table t({human("Ann"), bot("Bot")}, new_game(fr, 21, 2));
  expect_refused([&] { (void)t.hint_position(1, 1); }, Refused::Conflict, "hints are for the player to move");
  const State pub = t.hint_position(0, 1234);
  EXPECT_EQ(pub.turn(), t.state().turn());
  EXPECT_EQ(pub.drawn_tile(0), t.state().drawn_tile(0));
  std::vector<Move> a, b;
  pub.legal_moves(a);
  t.state().legal_moves(b);
  EXPECT_EQ(a, b) << "the same decision";
  EXPECT_EQ(t.hint_position(0, 1234), pub) << "a function of its seed";
  auto hinter = ai::make_player("mcts:iterations=200", 9);
  const auto evals = hinter->analyse(pub);
  ASSERT_FALSE(evals.empty());
  EXPECT_EQ(t.state().check_move(evals[0].move), "");

  Table off({human("Ann"), remote("Ben")}, new_game(Rules{}, 21, 2), false, /*allow_hints=*/false);
  expect_refused([&] { (void)off.hint_position(0, 1); }, Refused::Forbidden, "hints are off in this game: it has 2 human players");
  EXPECT_FALSE(hints_default(off.people()));
  EXPECT_TRUE(hints_default(t.people()));
}

TEST(MatchTable, AiTurnsPlayTheRunnersGame) {
  // A game of computers only through ai_turn/think/finish_ai_turn is the runner's game: the same
  // seat seeds (seat_seed(game seed, seat)) and draws.
  for (const uint64_t seed : {1ull, 42ull}) {
    Table t({bot("A"), bot("B")}, new_game(Rules{}, seed, 2));
    EXPECT_TRUE(t.ai_only());
    run_ai(t);
    EXPECT_EQ(t.status(), "finished");
    const SeatedGame g = play_game(&t.state().game(), {"greedy", "greedy"}, seed);
    EXPECT_EQ(t.state().scores(), g.scores) << seed;
  }
}

// A player whose search fails, or answers an illegal move.
struct Broken : ai::Player {
  bool illegal = false;
  std::string name() const override { return "broken"; }
  Move choose(const State& s) override {
    if (!illegal) throw std::runtime_error("out of memory");
    Move m = first_legal(s);
    m.x += 60;
    return m;
  }
};

TEST(MatchTable, AFailingAiStopsTheGameVisiblyAndNothingPlaysInItsPlace) {
  for (const bool illegal : {false, true}) {
    Table t({human("Ann"), bot("Bot", "mcts:level=hard")}, new_game(Rules{}, 8, 2));
    PlayerFactory make = [&](const std::string&, uint64_t) {
      auto b = std::make_unique<Broken>();
      b->illegal = illegal;
      return b;
    };
    t.play(0, first_legal(t.state()));
    const State at = t.state();
    EXPECT_EQ(run_ai(t, make), 1);
    ASSERT_TRUE(t.ai_failure());
    EXPECT_EQ(t.ai_failure()->seat, 1);
    EXPECT_EQ(t.ai_failure()->spec, "mcts:level=hard");
    EXPECT_NE(t.ai_failure()->error.find(illegal ? "illegal move" : "out of memory"), std::string::npos)
        << t.ai_failure()->error;
    EXPECT_EQ(t.state(), at) << "no move was played for the failed AI";
    EXPECT_EQ(t.auto_seat(), -1);
    EXPECT_FALSE(t.ai_turn(make)) << "the failure waits for a person";
    // The person's undo clears it: the AI is asked again.
    t.undo(0, 5);
    EXPECT_FALSE(t.ai_failure());
  }
}

TEST(MatchTable, AnAiThatCannotBeMadeIsAFailureNamingWhy) {
  Table t({bot("A", "mcts:time=99s"), human("Ann")}, new_game(Rules{}, 8, 2));
  PlayerFactory capped = [](const std::string& spec, uint64_t seed) -> std::unique_ptr<ai::Player> {
    if (spec.find("99s") != std::string::npos) throw std::invalid_argument("time=99s is beyond this server's limit of 10s");
    return ai::make_player(spec, seed);
  };
  EXPECT_FALSE(t.ai_turn(capped));
  ASSERT_TRUE(t.ai_failure());
  EXPECT_EQ(t.ai_failure()->seat, 0);
  EXPECT_NE(t.ai_failure()->error.find("cannot be made: time=99s is beyond"), std::string::npos) << t.ai_failure()->error;
  EXPECT_EQ(t.state().turn(), 0);
  // The normal path: a seat whose player can be made plays.
  Table ok({bot("A", "greedy"), human("Ann")}, new_game(Rules{}, 8, 2));
  EXPECT_EQ(run_ai(ok, capped), 1);
  EXPECT_FALSE(ok.ai_failure());
  EXPECT_EQ(ok.state().current_player(), 1);
}

TEST(MatchTable, AStaleAiResultIsRefused) {
  Table t({human("Ann"), bot("Bot")}, new_game(Rules{}, 9, 2));
  t.play(0, first_legal(t.state()));
  auto turn = t.ai_turn(plain());
  ASSERT_TRUE(turn);
  const AiResult r = think(*turn);
  t.undo(0, 1);  // the game changed while the AI thought
  expect_refused([&] { t.finish_ai_turn(*turn, r); }, Refused::Conflict, "no longer due");
}

// Saved and loaded at many points of seeded games (a placement, a Choose among drawn tiles, the
// Plague's take-backs half done, after resignations), in every rule set: the same game.
TEST(MatchTable, SaveAndLoadAGameInProgressInEveryRuleSet) {
  int saved = 0, mid_turn = 0;
  for (const test::Variant& v : test::all_variants(3)) {
    for (const uint64_t seed : {1ull, 2ull}) {
      Table t({human("Ann"), bot("Bot", "random"), human("Cy")}, new_game(v.rules, seed, 3));
      Rng rng(seed * 7 + 1);
      for (int step = 0; !t.over() && step < 400; ++step) {
        if (step == 25) t.resign(2);
        if (t.auto_seat() >= 0) {
          run_ai(t);
          continue;
        }
        std::vector<Move> moves;
        t.state().legal_moves(moves);
        t.play(t.state().current_player(), moves[rng.below(uint32_t(moves.size()))]);
        if (step % 9 == 0 || t.state().phase() == Phase::Plague || !pending_of(t.state()).empty()) {
          // Through text, as a store keeps it.
          const nlohmann::json meta = nlohmann::json::parse(t.to_json().dump());
          const std::unique_ptr<Table> u = Table::from_json(meta, t.record_json());
          ASSERT_EQ(u->state(), t.state()) << v.name << " seed " << seed << " step " << step;
          ASSERT_EQ(u->events().size(), t.events().size()) << v.name;
          EXPECT_EQ(u->seats()[2].resigned, t.seats()[2].resigned);
          EXPECT_EQ(u->to_json(), t.to_json());
          ++saved;
          const PendingTurn p = pending_of(t.state());
          mid_turn += p.choice >= 0 || !p.plague.empty() || p.draws.size() > 1;
        }
      }
    }
  }
  EXPECT_GT(saved, 100);
  EXPECT_GT(mid_turn, 10) << "some saves were in the middle of a turn (a Choose, the Plague, several drawn tiles)";
  std::cout << saved << " saves, " << mid_turn << " in the middle of a turn\n";
}

TEST(MatchTable, ALoadThatDoesNotFitIsAClearError) {
  Table t({human("Ann"), human("Ben")}, new_game(Rules{}, 1, 2));
  // The record's turn in progress (format 2), and a game saved before it (the meta's "pending").
  nlohmann::json rec = nlohmann::json::parse(t.record_json());
  ASSERT_TRUE(rec.contains("pending")) << "the drawn tile is the turn in progress";
  rec["pending"]["draws"] = {"no-such-tile"};
  nlohmann::json v1 = nlohmann::json::parse(t.record_json());
  v1.erase("pending");
  nlohmann::json meta = t.to_json();
  meta["pending"] = {{"draws", {"no-such-tile"}}};
  for (const auto& [m, r] : {std::pair{t.to_json(), rec.dump()}, std::pair{meta, v1.dump()}}) {
    try {
      (void)Table::from_json(m, r);
      ADD_FAILURE() << "loaded";
    } catch (const PendingError& e) {
      EXPECT_NE(std::string(e.what()).find("saved turn in progress does not fit"), std::string::npos) << e.what();
    }
  }
  // The meta's "pending" of an old game is read only when the record has none.
  meta["pending"] = {{"draws", {"no-such-tile"}}};
  EXPECT_EQ(Table::from_json(meta, t.record_json())->state(), t.state());
  nlohmann::json bad = t.to_json();
  bad["seats"][0]["type"] = "robot";
  EXPECT_THROW((void)Table::from_json(bad, t.record_json()), std::invalid_argument);
  EXPECT_THROW((void)Table::from_json(nlohmann::json::array(), t.record_json()), std::invalid_argument);
  EXPECT_THROW((void)Table::from_json(t.to_json(), "{"), std::exception);
}

}  // namespace
}  // namespace carc::match
