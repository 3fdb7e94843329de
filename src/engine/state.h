// The game state: board, features (union-find over tile segments), followers, scores,
// the bag, and the turn phase. OpenSpiel-style API: the tile draw is an explicit chance
// node; a decision is one Move (placement + rotation + optional follower or Festival
// take-back); legal moves come in a deterministic order.
//
// Invariants (checked by validate()): every follower is either in its owner's supply or
// recorded in followers(); each feature's counters equal a from-scratch recount.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "expansions/blocks.h"
#include "expansions/move_ext.h"
#include "game.h"
#include "types.h"

namespace carc {

// What a decision is. Almost every decision places the turn's tile (Place). The Wheel of
// Fortune adds two: the active player choosing which of several drawn tiles to play when it
// is a wheel tile (Choose: the wheel turns before the tile is placed, T-9), and a player
// taking a follower back from the land for the Plague (Plague).
enum class MoveKind : uint8_t { Place = 0, Choose = 1, Plague = 2 };

// A decision by the player to move. Layout (12 bytes):
//   x, y        board position of the placed tile (Plague: of the follower taken back)
//   rot         quarter turns clockwise (0..3)
//   meeple      segment index of the placed tile that receives a follower, or -1
//   choice      Fortune Teller: which of the drawn tiles is placed (0 otherwise)
//   kind        Place, or a Wheel of Fortune Choose / Plague decision
//   ext         the expansions' parts, each in its own bits (expansions/move_ext.h)
struct Move {
  int16_t x = 0, y = 0;
  uint8_t rot = 0;
  int8_t meeple = -1;
  uint8_t choice = 0;
  MoveKind kind = MoveKind::Place;
  MoveExt ext;
  // A follower is deployed: on the placed tile or, by an expansion, elsewhere.
  bool deploys() const { return meeple >= 0 || ext.deploys_elsewhere(); }
  bool operator==(const Move& o) const {
    return x == o.x && y == o.y && rot == o.rot && meeple == o.meeple && choice == o.choice && kind == o.kind &&
           ext == o.ext;
  }
};
static_assert(sizeof(Move) == 12, "Move stays 12 bytes");

// One scoring: `points` to `player` for a feature of `kind` ("road", "city", "monastery",
// "farm", "tent", ...), during turn `turn` (0 = start), `final` when in the end-of-game scoring.
struct ScoreEvent {
  int turn = 0;
  int player = 0;
  int points = 0;
  std::string kind;
  bool final = false;
  int x = 0, y = 0;  // a tile of the scored feature
  // Wheel of Fortune. Scorings of the wheel (fortuna, taxes, famine, storm, inquisition, crown)
  // name the pig's segment (an index into Game::wheel()); -1 otherwise. Two kinds score nothing
  // (points 0) and only report what happened, in order with the scorings:
  //   "pig": the pig moved `steps` segments from segment `from` to `segment`, turned by the
  //          drawn tile `tile` of `player` (x, y: the board);
  //   "plague": `player` (the deciding player) took back the follower at x, y, location `at`.
  int segment = -1;
  int from = -1, steps = 0;
  std::string tile, at;
};

// A follower on the board: its owner, the segment slot it stands on, and where that is.
struct Follower {
  uint8_t player;
  uint16_t slot;
};

// One tile on the board. (Feature, PlacedTile and Follower are trivial types on purpose:
// the state's large arrays of them are neither zeroed nor copied beyond their used part.)
// The slot fields come first, in the lane order of PlaceTemplate: place_tile writes them (and
// `ext`) as two 16-byte vectors.
struct PlacedTile {
  uint16_t side_slot[4];       // road/city slot on each side, or kNoSlot
  uint16_t half_slot[8];       // field slot on each half-edge, or kNoSlot
  uint16_t center_slot;        // monastery/tent slot, or kNoSlot
  int8_t ext;                  // a module's byte per placed tile (expansions/blocks.h, PlacedTile::ext), or -1
  int16_t x, y;
  uint8_t type, rot;
  uint16_t slot_base;          // its segments own slots slot_base .. slot_base + nseg - 1
};

// Feature (per-feature counters, valid at the feature's root slot) is defined in game.h.

constexpr uint16_t kNoSlot = 0xFFFF;
// Board cell values: a placed-tile index (< kFrontierBase), kFrontierBase + index into the
// frontier list for an empty cell next to a tile, or kEmptyCell.
constexpr uint16_t kEmptyCell = 0xFFFF;
constexpr uint16_t kFrontierBase = 0x100;
constexpr int kMaxPlaced = 160;
// Capacity of the frontier (the empty cells next to a placed tile): a tile placed on a frontier cell adds at most
// two net (three neighbours, less the cell it fills), so a game of kMaxPlaced tiles stays far below it.
constexpr int kMaxFrontier = 512;
constexpr int kMaxSlots = 1536;
constexpr int kMaxFollowers = kMaxPlayers * kFollowersPerPlayer;

// Chance: a tile is to be drawn. Place: the turn player places (or, Wheel of Fortune, chooses
// a wheel tile). Plague: a player takes back a follower. Terminal: the game is over.
enum class Phase : uint8_t { Chance, Place, Plague, Terminal };

constexpr int kChancePlayer = -1;
constexpr int kTerminalPlayer = -2;

// One placed turn of the history: the move and, for a Festival take-back, the slot the
// follower stood on (slots never change, so it names the place for good).
// `mods`: the modules' part of the turn (expansions/blocks.h).
struct TurnLog {
  Move move;
  uint16_t ret_slot = 0xFFFF;
  TurnLogMods mods{};
};

// One entry of the history: a drawn tile and what became of it.
enum class Fate : uint8_t {
  Pending,    // drawn this turn, not yet decided
  Placed,     // placed on the board
  Discarded,  // no legal place: out of the game (B-5, T-8)
  Returned,   // Fortune Teller: drawn but not chosen, back into the bag
};
struct Draw {
  uint8_t type = 0;
  Fate fate = Fate::Pending;
  uint16_t turn = 0;  // the turn it was drawn for (counted from 1)
};

// The large per-game arrays of a State. Their element types are trivial, so a new state
// does not zero them, and copying a state copies only the used part of each (the board
// cells are copied whole). Kept as a base class so State's copy stays compiler-generated.
struct FrontierCell {
  uint16_t cell;
  int16_t x, y;
  uint16_t present;   // ports (4 edges, then 8 half-edges) that face a neighbouring segment
  uint16_t port_slot[12];  // the neighbouring segment's slot on each present port
};

class StateTables {
 protected:
  StateTables() = default;
  StateTables(const StateTables& o) { *this = o; }
  StateTables& operator=(const StateTables& o);

  // Set by State::restore for the next assignment: the board cells that can differ from the
  // source are only those of tiles placed after it and of either frontier, so only they are
  // copied (not the whole 32 KB board). Reset by the assignment.
  bool restore_ = false;

  // Board: per cell a placed-tile index or a frontier index (see kFrontierBase).
  std::array<uint16_t, kBoardCells> cell_;
  std::array<FrontierCell, kMaxFrontier> frontier_;
  // Per frontier cell (same index), the edge types its neighbours require, 2 bits per side.
  // Kept apart from frontier_ so the scans over all cells read one dense byte each.
  std::array<uint8_t, kMaxFrontier> need_;
  // A module's table per frontier cell (same index), for the sampler's per-cell weights
  // (expansions/blocks.h).
  NearTrees near_;
  int nfrontier_ = 0;
  // Per tile type, the number of its placements (cell, distinct rotation) on the frontier:
  // the sum of popcount(fit[need_[i]]) over the frontier cells, 16 bits per type, 4 types to
  // a word (Game::fit_count_row). Kept up to date as cells join, change and leave the
  // frontier, so a drawn tile's placements are counted without a scan. At most kMaxFrontier = 512 cells
  // x 4 rotations = 2048 per type: no lane overflows.
  std::array<uint64_t, kMaxTileTypes / 4> fit_count_{};

  std::array<PlacedTile, kMaxPlaced> placed_;
  int nplaced_ = 0;

  // Union-find over segment slots; the smaller set is relabelled on a merge, so label_ is
  // always the root. next_ chains the members of a feature, starting at the root.
  // tail_ is the last member of a feature's list (valid at the root; the low 15 bits) and
  // Game::kSharedBit when one of its tiles has two segments of its kind, so that it can share
  // a tile with another feature (only then does a merge count shared tiles). Each array has
  // kSlotSlack slots to spare: place_tile writes a new tile's slots as whole vectors.
  static constexpr int kSlotSlack = 16;
  std::array<uint16_t, kMaxSlots + kSlotSlack> label_;
  std::array<uint16_t, kMaxSlots + kSlotSlack> next_;
  std::array<uint16_t, kMaxSlots + kSlotSlack> tail_;
  std::array<uint8_t, kMaxSlots + kSlotSlack> owner_;
  std::array<Feature, kMaxSlots + kSlotSlack> feat_;
  int nslots_ = 0;

  std::array<Follower, kMaxFollowers> followers_;
  int nfollowers_ = 0;
};

class State : private StateTables {
 public:
  // A new game: the start tile placed, the bag full, at the first chance node.
  // `seed` seeds the generator used by draw_random().
  State(const Game* game, uint64_t seed);
  // A new game whose start tile is `start_type` at rotation `start_rot` (scripted scenarios).
  State(const Game* game, uint64_t seed, int start_type, int start_rot);

  // Makes this state the new game State(game, seed), where `fresh` is a new game of the same
  // Game (any seed) and this state is `fresh` or a copy of it with moves and draws applied
  // since (the precondition of restore()). Only the board cells the old game used are cleared,
  // not the whole 32 KB board: random self-play (simulate, bench) reuses one state this way.
  void restart(const State& fresh, uint64_t seed);

  const Game& game() const { return *game_; }
  const Rules& rules() const { return game_->rules(); }
  int num_players() const { return nplayers_; }
  Phase phase() const { return phase_; }
  bool is_chance() const { return phase_ == Phase::Chance; }
  bool is_terminal() const { return phase_ == Phase::Terminal; }
  // The player to decide, kChancePlayer at a chance node, kTerminalPlayer at the end.
  int current_player() const;
  // The player whose turn it is (also at chance nodes).
  int turn_player() const { return player_; }
  // Turns played so far (placed tiles after the start tile). Turn numbers count from 1.
  int turn() const { return turn_; }

  // --- Chance ---
  // Tile types still in the bag with their counts (probability = count / bag_size()).
  std::vector<std::pair<int, int>> chance_outcomes() const;
  int bag_size() const { return bag_total_; }
  int bag_count(int type) const { return bag_[type]; }
  // Draws a tile of this type from the bag. A player draws 1 tile, plus 1 per fortune teller
  // they have on a tent (Fortune Teller), one chance node each. When the turn's tiles are
  // drawn and none has a legal place, all of them leave the game and as many are drawn again
  // (B-5, T-8); an empty bag ends the game. Returns false when that discard happened.
  // Precondition: is_chance() and bag_count(type) > 0.
  bool apply_draw(int type);
  // Draws with the state's own seeded generator.
  bool draw_random();
  // Tiles to draw this turn (1 + fortune tellers of the player, at most the bag), and the
  // tiles drawn so far this turn (Move::choice indexes them).
  int draw_target() const;
  int num_drawn() const { return ndrawn_; }
  int drawn_tile(int i) const { return drawn_[i]; }
  bool drawn_placeable(int i) const { return placeable_ >> i & 1; }
  // The first placeable drawn tile (the tile to place when only one was drawn), or -1.
  int current_tile() const;
  // A module's state block (expansions/blocks.h): the modules' public accessors are their
  // blocks' (e.g. `s.mod<FruitBlock>().left(f)`, `s.mod<WheelBlock>().pig_segment()`).
  template <class Block>
  const Block& mod() const {
    return mods_.get<Block>();
  }
  // The same, for the blocks' setters: what records, the state JSON and scripted tests set before
  // or during replay (the block's own fields only; the rest of the state is unchanged).
  template <class Block>
  Block& edit_mod() {
    return mods_.get<Block>();
  }

  // --- Decisions ---
  // All legal moves in a deterministic order (cleared first).
  void legal_moves(std::vector<Move>& out) const;
  // Number of legal moves (same as legal_moves().size()).
  int count_legal_moves() const;
  // A uniformly random legal move, found without building the list (rejection sampling over
  // placement x follower option; tested against the uniform distribution). The playout hot
  // path. Deterministic for a given generator state.
  Move sample_move(Rng& rng) const;
  // "" if `m` is legal, otherwise why not (for records and user input).
  std::string check_move(const Move& m) const;
  // Applies a legal move (unchecked), scores, and advances to the next chance node or the end.
  void apply(const Move& m);

  // True when tile type t has a legal place on the board now.
  // Type of the bag only (Game::fit_count_types()); the board's own cells are never drawn.
  bool has_placement(int type) const { return fit_count(type) != 0; }
  // The placements (frontier cell, distinct rotation) of tile type t: kept up to date for
  // every type that can be drawn (Game::fit_count_types()); 0 for the others.
  int fit_count(int t) const { return int(fit_count_[size_t(t) >> 2] >> (16 * (t & 3)) & 0xFFFF); }
  // Follower spots (bit = segment index) open on tile `type` placed on board cell `cell`
  // rotated `rot`, for `player`. Precondition: the placement fits.
  uint32_t free_segments(int type, int cell, int rot, int player) const;

  // Applies the end-of-game scoring now (also used by `replay --final`). Idempotent.
  void finish();

  // --- Observation ---
  int score(int p) const { return scores_[p]; }
  std::vector<int> scores() const { return std::vector<int>(scores_.begin(), scores_.begin() + nplayers_); }
  int supply(int p) const { return supply_[p]; }
  const Follower* followers() const { return followers_.data(); }
  int num_followers() const { return nfollowers_; }
  int num_placed() const { return nplaced_; }
  const PlacedTile& placed(int i) const { return placed_[i]; }
  // Index of the placed tile at (x,y), or -1.
  int tile_at(int x, int y) const;
  // Root slot of the feature a slot belongs to, and its counters.
  uint16_t root(uint16_t slot) const { return label_[slot]; }
  const Feature& feature(uint16_t slot) const { return feat_[label_[slot]]; }
  // The roots of the city features a field touches (completed or not), at most `max`, each
  // once; returns how many. `root` must be a field's root slot.
  int field_cities(uint16_t root, uint16_t* out, int max) const;
  // The placed tile and segment index of a slot.
  int slot_tile(uint16_t slot) const { return owner_[slot]; }
  int slot_segment(uint16_t slot) const { return slot - placed_[owner_[slot]].slot_base; }
  // Tent followers a player has (Fortune Teller).
  int frontier_size() const { return nfrontier_; }
  // Frontier cell i (0 <= i < frontier_size()): an empty cell next to a tile, with the slots of
  // the neighbouring segments on its 12 ports (4 edges, then 8 half-edges).
  const FrontierCell& frontier_cell(int i) const { return frontier_[size_t(i)]; }
  // The edge types frontier cell i's neighbours require, 2 bits per side (Game::fits's pattern).
  uint8_t frontier_need(int i) const { return need_[size_t(i)]; }
  const std::vector<Draw>& draws() const { return draws_; }
  const std::vector<TurnLog>& history() const { return history_; }
  uint64_t seed() const { return seed_; }
  const Rng& rng() const { return rng_; }
  void set_rng(const Rng& r) { rng_ = r; }
  // Replaces everything a player cannot see (the generator that decides future draws; with
  // the Fruit-Bearing Trees, the order of the face-down fruit tokens) by a fresh sample from
  // `rng`. Search must call this on its copy before simulating, so it never plays with
  // knowledge of the real future (information-set search). The result depends only on what
  // is public and on `rng` (stacks are shuffled from sorted order), so states equal up to
  // hidden information resample to the same state.
  void resample_hidden(Rng& rng);
  bool finished_scoring() const { return final_done_; }
  // Memory the state owns: sizeof(State) plus the heap blocks of its draw and turn history.
  size_t bytes_owned() const {
    return sizeof(State) + draws_.capacity() * sizeof(Draw) + history_.capacity() * sizeof(TurnLog);
  }

  // Scoring events are appended here when a log is attached (copies of a state do not
  // inherit the log).
  void set_event_log(std::vector<ScoreEvent>* log) { log_.p = log; }

  // Recomputes every feature from scratch and compares with the incremental state.
  // Returns "" or a description of the first mismatch. Slow: for tests and debugging.
  std::string validate() const;

  // Makes this state equal to `o` (like `*this = o`), where this state is `o` or a copy of it
  // with moves and draws applied since (o itself unchanged): then only the board cells the
  // moves touched are copied back, so search can reset its scratch state for each
  // iteration at a fraction of a copy's cost.
  void restore(const State& o) {
    restore_ = true;
    *this = o;
  }

  // Equality of everything that matters for play (board, features, followers, scores, bag,
  // phase, turn, generator), not the log.
  bool operator==(const State& o) const;

 private:
  struct LogPtr {
    std::vector<ScoreEvent>* p = nullptr;
    LogPtr() = default;
    LogPtr(const LogPtr&) : p(nullptr) {}
    LogPtr& operator=(const LogPtr&) { return *this; }
  };

  // The features touching an empty cell through its 12 ports (4 edges, then 8 half-edges):
  // their roots, which ports have a neighbour, and which touch an occupied feature.
  struct Ports {
    uint16_t root[12];
    uint16_t present = 0, occupied = 0;
  };
  void cell_ports(const FrontierCell& fc, Ports& p) const;
  uint32_t free_from_ports(const TileType& tt, int rot, const Ports& p, int player) const;
  // True when drawn tile c is placeable and the first drawn tile of its type (legal_moves()
  // and sample_move() offer each type's moves once).
  bool offers_moves(int c) const;
  int find_placement(const uint8_t* fit, uint32_t idx, uint32_t placements, Move& m) const;

  // --- The one move generator ---
  // A placement decision's moves are, per distinct placeable drawn tile, its placements x the
  // options of each placement (no follower, a follower on each free segment, and what the
  // active modules add: expansions/options.h lists them and their order). legal_moves() lists
  // them, the sampler (sample_placement) counts and draws them, check_move() accepts exactly
  // the listed ones (offered()); the modules only word the reasons for a refusal.
  struct TurnOptions;  // what the active modules add to every placement of a decision (options.h)
  struct TakeBacks;  // the Festival's take-back options (options.h)
  // One group of options per distinct placeable drawn tile: a single Choose for a wheel tile
  // still to be chosen (choose, weight 1), otherwise its placements, each with per = 1 + segs +
  // crowns + take_backs options (without fruit actions). option_group fills the header of drawn
  // tile c's group (options.h); false when c offers no moves.
  struct SampleGroup {
    uint8_t choice;
    bool choose;
    uint32_t segs, take_backs, per, weight, placements;
  };
  inline void turn_options(bool deploy, TurnOptions& to) const;
  inline bool option_group(int c, TurnOptions& to, SampleGroup& g) const;
  // The options of one placement, and of the placements at frontier cell i in rotations `rots`.
  inline void list_placement(const TurnOptions& to, const SampleGroup& g, Move m, uint32_t free, uint32_t trees,
                             std::vector<Move>& out) const;
  inline void list_cell(const TurnOptions& to, const SampleGroup& g, int i, uint8_t rots,
                        std::vector<Move>& out) const;
  // The last options of a sampled placement, the modules' (options.h).
  static inline Move last_option(Move m, uint32_t sub, const TurnOptions& to);
  // True when placement move m (its placement checked to fit) is one of the generator's moves.
  bool offered(const Move& m) const;
  // The sampler of the plain rule set (Game::plain_moves(): one group, no module options).
  Move sample_plain(Rng& rng) const;
  // The sampler of a placement decision; kCellWeights: with the Fruit-Bearing Trees' per-cell weights.
  template <bool kCellWeights>
  Move sample_placement(Rng& rng) const;

  void init(uint64_t seed, int start_type, int start_rot);
  void place_tile(int type, int x, int y, int rot);
  void refit(const uint8_t* gone, const uint8_t* come);
  void merge(uint16_t a, uint16_t b, bool edge);
  int shared_tiles(uint16_t big, uint16_t small) const;
  void add_follower(int player, uint16_t slot);
  void remove_follower(int index);
  void score_completed(const PlacedTile& P);
  void score_feature(uint16_t root, bool final_scoring);
  int field_value(uint16_t root) const;
  void emit(int player, int points, const char* kind, bool final_scoring, uint16_t root, int turn = -1,
            int segment = -1);
  void end_turn();
  bool draw_internal(int type);
  void add_to_bag(int type) {
    ++bag_[type];
    ++bag_total_;
  }

  // The expansion hook points: the modules' member functions, declared in their folder.
#include "expansions/state_hooks.inc"

  const Game* game_;
  int nplayers_;
  Phase phase_ = Phase::Chance;
  uint8_t player_ = 0;
  bool final_done_ = false;
  int turn_ = 0;
  std::array<uint8_t, 4> drawn_{};
  uint8_t ndrawn_ = 0;
  uint8_t placeable_ = 0;  // bit i: drawn_[i] has a legal place
  // The modules' state, one block each (expansions/blocks.h).
  ModuleBlocks mods_;
  // The monasteries and tents the last place_tile completed (at most the 8 around it and its own).
  uint8_t ncentres_done_ = 0;
  std::array<uint16_t, 9> centres_done_;
  int bag_total_ = 0;
  std::array<uint8_t, kMaxTileTypes> bag_{};
  std::array<int32_t, kMaxPlayers> scores_{};
  std::array<uint8_t, kMaxPlayers> supply_{};
  Rng rng_;

  std::vector<Draw> draws_;
  std::vector<TurnLog> history_;
  uint64_t seed_ = 0;
  LogPtr log_;
};

}  // namespace carc
