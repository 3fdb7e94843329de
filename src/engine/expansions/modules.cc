// The turn steps' hooks off the hot path (new game, final scoring, search, validation): each
// enters the active modules in the table's order, chosen by the game's module bits
// (Game::modules()), with no virtual call. The hot paths' hooks: options.h and each module's
// header.
#include "../state.h"
#include "options.h"
#include "vocabulary_rows.h"

namespace carc {

// New game (State::init, and State::restart after copying a fresh game): what depends on the seed
// or on the game's board.
void State::modules_new_game(uint64_t seed) {
  for (ModuleSet a = game_->modules(); a; a &= a - 1) {
    const int module = __builtin_ctz(a);
    if (module == kWheelModule) mods_.wheel.pig = uint8_t(game_->wheel_start());
    if (module == kFruitModule) init_fruit_stacks(seed);
  }
}

// Final scoring (State::finish), after the features.
void State::modules_final_scoring() {
  if (game_->modules() & ModuleSet(1) << kFruitModule) score_fruit_tokens();
}

// Search (State::resample_hidden): the hidden order of the fruit stacks. Called in every rule set:
// without the expansion it makes the same draws from `rng` (search draws alike everywhere).
void State::modules_resample_hidden(Rng& rng) { resample_fruit_stacks(rng); }

// Followers of player p off the land (crown spaces), for the conservation check of validate().
int State::modules_followers(int p) const { return mods_.wheel.crowns_of(p); }

// validate(): each module's own invariants, "" or the first mismatch.
std::string State::modules_validate() const {
  if (game_->modules() & ModuleSet(1) << kFruitModule) return validate_fruit();
  return "";
}

// vocabulary_json(): the modules' tables.
void modules_vocabulary_json(nlohmann::json& j) {
  nlohmann::json fruits = nlohmann::json::array();
  for (const char* f : kFruitNames) fruits.push_back(f);
  j["fruit_kinds"] = fruits;
  j["fruit_sale_points"] = kFruitSalePoints;
  j["fruit_token_values"] = kFruitTokenValues;  // what a harvest may score
  j["fruit_held_token_points"] = kFruitHeldTokenPoints;  // each token held at the end
  nlohmann::json wheel = nlohmann::json::array();
  for (const char* w : kWheelEventNames) wheel.push_back(w);
  j["wheel_events"] = wheel;
}

}  // namespace carc
