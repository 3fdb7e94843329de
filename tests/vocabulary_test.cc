// The engine's vocabulary tables (vocabulary.h) against what the engine does: every event kind
// it emits is listed, a turn's events come in the listed order of stages, feature and score
// kinds are named as docs/vocabulary.md says; and the half-finished turn (notation's
// PendingTurn) round-trips, with errors as values for one that does not fit.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "game.h"
#include "notation.h"
#include "record.h"
#include "state.h"
#include "test_util.h"
#include "vocabulary.h"
#include "expansions/vocabulary_rows.h"

using namespace carc;

namespace {

std::vector<Rules> every_rule_set() {
  std::vector<Rules> out;
  for (const test::Variant& v : test::all_variants(3)) out.push_back(v.rules);
  return out;
}

int stage_of(const ScoreEvent& e) {
  const EventKindInfo* k = event_kind(e.kind);
  return e.final ? int(EventStage::Final) : k ? int(k->stage) : -1;
}

}  // namespace

TEST(Vocabulary, EveryEmittedEventKindIsListedAndComesInStageOrder) {
  std::map<std::string, int> seen;
  for (const Rules& rules : every_rule_set()) {
    SCOPED_TRACE(rules.to_string());
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      State s(Game::get(rules), seed);
      std::vector<ScoreEvent> log;
      s.set_event_log(&log);
      Rng rng(seed * 7);
      while (!s.is_terminal()) {
        if (s.is_chance()) s.draw_random();
        else s.apply(s.sample_move(rng));
      }
      s.finish();
      int last_turn = 0, last_stage = -1;
      for (const ScoreEvent& e : log) {
        const EventKindInfo* k = event_kind(e.kind);
        ASSERT_NE(k, nullptr) << "event kind '" << e.kind << "' is not in kEventKinds";
        ++seen[e.kind];
        EXPECT_EQ(k->category[0] != 0, e.kind != "pig" && e.kind != "plague") << e.kind;
        const int stage = stage_of(e);
        if (e.final) {
          last_stage = stage;
          continue;
        }
        ASSERT_NE(last_stage, int(EventStage::Final)) << "a turn's event after the final scoring: " << e.kind;
        if (e.turn != last_turn) {
          EXPECT_GT(e.turn, last_turn) << e.kind;
          last_turn = e.turn;
          last_stage = stage;
        }
        EXPECT_GE(stage, last_stage) << "turn " << e.turn << ": '" << e.kind << "' (stage "
                                     << kEventStageNames[size_t(stage)] << ") after stage "
                                     << kEventStageNames[size_t(last_stage)];
        last_stage = stage;
      }
    }
  }
  // Every listed kind happens in these games: the table holds nothing the engine never emits.
  for (const EventKindInfo& k : kEventKinds) EXPECT_GT(seen[k.name], 0) << "never emitted: " << k.name;
}

TEST(Vocabulary, FeatureAndScoreKindNames) {
  EXPECT_STREQ(kind_name(Kind::Field), "field");
  EXPECT_STREQ(score_kind_name(Kind::Field), "farm");
  for (Kind k : {Kind::Road, Kind::City, Kind::Monastery, Kind::Tent}) EXPECT_STREQ(score_kind_name(k), kind_name(k));
  // Every score kind counts for a listed category; the categories are in display order.
  std::set<std::string> cats;
  for (const ScoreCategory& c : kScoreCategories) cats.insert(c.name);
  for (const EventKindInfo& k : kEventKinds)
    if (k.category[0]) EXPECT_TRUE(cats.count(k.category)) << k.name;
  EXPECT_EQ(std::string(kScoreCategories[0].name), "road");
  const nlohmann::json j = vocabulary_json();
  EXPECT_EQ(j["fruit_sale_points"], nlohmann::json({0, 3, 6, 10, 15}));
  // the values a harvest may score: a new game's stacks hold exactly these (shuffled)
  EXPECT_EQ(j["fruit_token_values"], nlohmann::json({5, 4, 3, 2}));
  // where a client shows each event kind: the wheel as a whole, or a tile of the board
  for (const auto& k : j["event_kinds"]) {
    static const std::set<std::string> wheel = {"pig", "fortuna", "storm", "crown"};
    EXPECT_EQ(k["where"], wheel.count(k["name"].get<std::string>()) ? "wheel" : "board") << k.dump();
  }
  EXPECT_EQ(j["fruit_kinds"].size(), size_t(kFruitTypes));
  EXPECT_EQ(j["event_kinds"].size(), kEventKinds.size());
  EXPECT_EQ(j["feature_kinds"][int(Kind::Field)]["name"], "field");
  EXPECT_EQ(j["feature_kinds"][int(Kind::Field)]["score_kind"], "farm");
}

// A sale scores kFruitSalePoints (the table the web client shows is the engine's own).
TEST(Vocabulary, FruitSalesScoreTheTable) {
  Rules rules;
  rules.set(Expansion::FruitTrees);
  int sales = 0;
  for (uint64_t seed = 1; seed <= 40 && sales < 5; ++seed) {
    State s(Game::get(rules), seed);
    std::vector<ScoreEvent> log;
    s.set_event_log(&log);
    Rng rng(seed);
    std::vector<Move> legal;
    while (!s.is_terminal()) {
      if (s.is_chance()) {
        s.draw_random();
        continue;
      }
      s.legal_moves(legal);
      Move pick = legal[rng.below(uint32_t(legal.size()))];
      for (const Move& m : legal)
        if (m.ext.sale()) pick = m;
      const size_t before = log.size();
      s.apply(pick);
      if (!pick.ext.sale()) continue;
      int points = 0;
      for (size_t i = before; i < log.size(); ++i)
        if (log[i].kind == "fruit") points += log[i].points;
      EXPECT_EQ(points, kFruitSalePoints[size_t(__builtin_popcount(pick.ext.sale()))]);
      ++sales;
    }
  }
  EXPECT_GE(sales, 5);
}

// The half-finished turn: pending_of / apply_pending_* restore a state saved mid-turn (drawn
// tiles, the Choose, Plague take-backs), and a saved turn that does not fit is an error value.
TEST(Notation, PendingTurnRoundTripsAndBadOnesAreErrors) {
  Rules rules;
  rules.tileset = "wheel-of-fortune";
  rules.set(Expansion::FortuneTeller);
  rules.players = 3;
  int plague_restored = 0, choice_restored = 0, checked = 0, plague_refused = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    State s(Game::get(rules), seed);
    Rng rng(seed);
    while (!s.is_terminal()) {
      if (s.is_chance()) {
        s.draw_random();
        continue;
      }
      // Rebuild this position the way a restarted server does: the record (format 2) holds the
      // turn in progress, and replaying its JSON restores it.
      const PendingTurn p = pending_of(s);
      Record rec = record_of(s, {"A", "B", "C"});
      Replay rp = replay(parse_record(record_to_json(rec)));
      ASSERT_TRUE(rp.state == s) << "turn " << s.turn() << ": the record's turn in progress is not restored";
      // The same in two steps, the way a server restores a game saved before format 2: the
      // record of whole turns, then the saved turn in progress (its meta's "pending").
      rec.pending = PendingTurn{};
      State t = replay(rec).state;
      ASSERT_EQ(apply_pending_draws(t, p), "");
      while (t.is_chance() && !t.is_terminal()) t.draw_random();  // nothing left to draw: advance
      ASSERT_EQ(apply_pending_decisions(t, p), "");
      ASSERT_TRUE(t == s) << "turn " << s.turn() << ": the restored state differs";
      // A state JSON of format 1 (history with "meeple"/"return", pending_*) loads to the same state.
      nlohmann::json v1 = nlohmann::json::parse(state_to_json(s));
      v1["format"] = "carcassonne-state/1";
      for (auto& turn : v1["history"]) {
        if (turn.contains("follower")) turn["meeple"] = turn["follower"], turn.erase("follower");
        if (turn.contains("take_back")) turn["return"] = turn["take_back"], turn.erase("take_back");
      }
      const nlohmann::json pend = v1["pending"];
      v1.erase("pending");
      if (pend.contains("draws")) v1["pending_draws"] = pend["draws"];
      if (pend.contains("choice")) v1["pending_choice"] = pend["choice"];
      if (pend.contains("plague")) v1["pending_plague"] = pend["plague"];
      ASSERT_TRUE(state_from_json(v1.dump()) == s) << "turn " << s.turn() << ": format 1 state JSON";
      if (pend.contains("plague")) {
        // A saved Plague take-back goes through the one checked reader (parse_move, check_move):
        // one that names no follower of the deciding player is refused with its reason.
        v1["pending_plague"][0] = {{"x", 999}, {"y", 999}, {"at", "N"}};
        std::string err;
        try {
          state_from_json(v1.dump());
        } catch (const RecordError& e) {
          err = e.what();
        }
        EXPECT_NE(err.find("state: pending: saved Plague take-back 1 ((999,999) N): player "), std::string::npos) << err;
        ++plague_refused;
      }
      ++checked;
      plague_restored += !p.plague.empty();
      choice_restored += p.choice >= 0;
      s.apply(s.sample_move(rng));
    }
  }
  EXPECT_GT(checked, 100);
  EXPECT_GT(plague_restored, 0) << "no game stopped in the middle of the Plague";
  EXPECT_GT(choice_restored, 0) << "no game stopped after a Choose";
  EXPECT_GT(plague_refused, 0) << "no saved Plague take-back was checked";

  State s(Game::get(rules), 3);
  PendingTurn bad;
  bad.draws = {"NOPE"};
  EXPECT_NE(apply_pending_draws(s, bad).find("saved draw 1 ('NOPE'): no such tile in tile set"), std::string::npos);
  s.draw_random();
  bad.draws = {"A"};
  EXPECT_NE(apply_pending_draws(s, bad).find("no tile is to be drawn now"), std::string::npos);
  bad = PendingTurn{};
  bad.plague = {ReturnSpec{0, 0, "N"}};
  EXPECT_NE(apply_pending_decisions(s, bad).find("saved Plague take-back 1 ((0,0) N): no Plague decision is pending"),
            std::string::npos);
  bad = PendingTurn{};
  bad.choice = 9;
  EXPECT_NE(apply_pending_decisions(s, bad).find("saved choice of drawn tile 9: no drawn tile number 9"), std::string::npos);
}
