// The turn steps' hooks off the hot path (new game, final scoring, search, validation): each
// enters the active modules in the table's order, chosen by the game's module bits
// (Game::modules()), with no virtual call. The hot paths' hooks: options.h and each module's
// header.
#include "../state.h"
#include "options.h"

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

}  // namespace carc
