// The base game: the board, features, followers, draws, legal moves, apply and scoring.
//
// A turn, and where the expansions enter it (the hook points, listed with their files in
// expansions/state_hooks.inc; each is called behind the module bit, tile flag or move part that
// says the expansion is in play):
//   new game    modules_new_game (expansions/modules.cc)
//   draw        draw_random / apply_draw -> draw_internal: draw_target() tiles (Fortune Teller),
//               discard when none fits (B-5), a single wheel tile turns the wheel (start_wheel)
//   decide      the one move generator: legal_moves / sample_move / check_move over placement x
//               options (no follower, a follower on each free segment, then the modules' options:
//               expansions/options.h), Choose and Plague decisions (Wheel of Fortune)
//   apply       place the tile, take-back, follower or crown, fruit action, then score what
//               the tile completed (roads, cities, monasteries; a module's kind: score_module_kind)
//   end of turn end_turn: next player, or the end of the game and finish() (final scoring, then
//               modules_final_scoring)
// Each expansion's rules: src/engine/expansions/<expansion>.{h,cc}.
#include "state.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstring>

#include "expansions/inline_hooks.h"
#include "state_internal.h"
#include "vocabulary.h"

namespace carc {

using internal::kDx8;
using internal::kDy8;

namespace {
inline int popcount(unsigned v) { return __builtin_popcount(v); }
inline uint64_t load_word(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
}  // namespace

StateTables& StateTables::operator=(const StateTables& o) {
  if (this == &o) {
    restore_ = false;
    return *this;
  }
  if (restore_) {
    // This state descends from `o`: the cells of tiles placed since and of both frontiers are
    // the only ones that can differ.
    assert(nplaced_ >= o.nplaced_);
    for (int i = o.nplaced_; i < nplaced_; ++i) {
      const int c = cell_of(placed_[i].x, placed_[i].y);
      cell_[c] = o.cell_[c];
    }
    for (int i = 0; i < nfrontier_; ++i) cell_[frontier_[i].cell] = o.cell_[frontier_[i].cell];
    for (int i = 0; i < o.nfrontier_; ++i) cell_[o.frontier_[i].cell] = o.cell_[o.frontier_[i].cell];
    restore_ = false;
  } else {
    cell_ = o.cell_;
  }
  nfrontier_ = o.nfrontier_;
  fit_count_ = o.fit_count_;
  std::copy_n(o.frontier_.begin(), nfrontier_, frontier_.begin());
  std::copy_n(o.need_.begin(), nfrontier_, need_.begin());
  near_.copy_from(o.near_, nfrontier_);
  nplaced_ = o.nplaced_;
  std::copy_n(o.placed_.begin(), nplaced_, placed_.begin());
  nslots_ = o.nslots_;
  std::copy_n(o.label_.begin(), nslots_, label_.begin());
  std::copy_n(o.next_.begin(), nslots_, next_.begin());
  std::copy_n(o.tail_.begin(), nslots_, tail_.begin());
  std::copy_n(o.owner_.begin(), nslots_, owner_.begin());
  std::copy_n(o.feat_.begin(), nslots_, feat_.begin());
  nfollowers_ = o.nfollowers_;
  std::copy_n(o.followers_.begin(), nfollowers_, followers_.begin());
  return *this;
}

State::State(const Game* game, uint64_t seed) : game_(game) {
  init(seed, game->start_type(), game->start_rotation());
}

State::State(const Game* game, uint64_t seed, int start_type, int start_rot) : game_(game) {
  init(seed, start_type, start_rot);
}

void State::restart(const State& fresh, uint64_t seed) {
  assert(fresh.game_ == game_ && fresh.turn_ == 0);
  restore(fresh);
  // Only these depend on the seed in init().
  seed_ = seed;
  rng_.reseed(seed);
  modules_new_game(seed);
}

void State::init(uint64_t seed, int start_type, int start_rot) {
  nplayers_ = game_->rules().players;
  seed_ = seed;
  rng_.reseed(seed);
  cell_.fill(kEmptyCell);
  near_.reset(game_->modules() & kCellWeightModules);  // kept up to date by apply from here on
  const auto& counts = game_->initial_counts();
  for (size_t i = 0; i < counts.size(); ++i) bag_[i] = counts[i];
  bag_total_ = game_->total_tiles();
  // One allocation each for the whole game instead of a reallocation at every doubling.
  draws_.reserve(size_t(bag_total_));
  history_.reserve(size_t(bag_total_));
  for (int p = 0; p < nplayers_; ++p) supply_[p] = kFollowersPerPlayer;
  modules_new_game(seed);
  if (start_type >= 0) {
    if (start_type != game_->start_type()) {
      // A scenario's own start tile: the default start tile goes back into the bag.
      if (game_->start_type() >= 0) {
        ++bag_[game_->start_type()];
        ++bag_total_;
      }
      --bag_[start_type];
      --bag_total_;
    }
    place_tile(start_type, 0, 0, start_rot);
  } else {
    // Wheel of Fortune: the board's cells instead of a start tile.
    for (const auto& c : game_->board_cells()) place_tile(c.type, c.x, c.y, 0);
  }
  phase_ = bag_total_ > 0 ? Phase::Chance : Phase::Terminal;
}

int State::current_player() const {
  switch (phase_) {
    case Phase::Chance: return kChancePlayer;
    case Phase::Terminal: return kTerminalPlayer;
    case Phase::Place: return player_;
    default: return module_phase_player();  // a module's decision (expansions/state_hooks.inc)
  }
}

int State::tile_at(int x, int y) const {
  const int c = cell_[cell_of(x, y)];
  if (c >= kFrontierBase) return -1;
  const PlacedTile& p = placed_[c];
  return (p.x == x && p.y == y) ? c : -1;
}

std::vector<std::pair<int, int>> State::chance_outcomes() const {
  std::vector<std::pair<int, int>> out;
  for (int t = 0; t < game_->num_types(); ++t)
    if (bag_[t]) out.emplace_back(t, bag_[t]);
  return out;
}

bool State::apply_draw(int type) {
  assert(phase_ == Phase::Chance && bag_[type] > 0);
  rng_.below(uint32_t(bag_total_));  // keeps the generator in step with draw_random()
  return draw_internal(type);
}

bool State::draw_random() {
  assert(phase_ == Phase::Chance && bag_total_ > 0);
  static_assert(sizeof(drawn_) >= 1 + kMaxExtraDraws, "room for every tile of a turn's draw");
  uint32_t k = rng_.below(uint32_t(bag_total_));
  // The k-th tile of the bag in type order: 8 types' counts summed at a time; in the word that
  // holds it, the type is found from the counts' running sums (one byte each, exact when the
  // word's sum is below 128) as the number of running sums <= k.
  static_assert(kMaxTileTypes % 8 == 0, "the bag is read in words of 8 counts");
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  int t = 0;
  for (;; t += 8) {
    const uint64_t w = load_word(&bag_[t]);
    uint64_t v = (w & 0x00FF00FF00FF00FFull) + ((w >> 8) & 0x00FF00FF00FF00FFull);  // 4 sums of 2 counts
    const uint32_t n = uint32_t((v * 0x0001000100010001ull) >> 48);                 // their sum
    if (k < n) {
      if (n < 128) {
        const uint64_t sums = w * kOnes;  // byte i: counts 0..i
        const uint64_t above = ((sums | kHigh) - uint64_t(k + 1) * kOnes) & kHigh;  // sums > k
        return draw_internal(t + __builtin_popcountll(~above & kHigh));
      }
      break;
    }
    k -= n;
  }
  while (k >= bag_[t]) k -= bag_[t++];
  return draw_internal(t);
}

int State::current_tile() const {
  if (phase_ != Phase::Place && !module_phase()) return -1;
  for (int i = 0; i < ndrawn_; ++i)
    if (placeable_ >> i & 1) return drawn_[i];
  return -1;
}

bool State::draw_internal(int type) {
  --bag_[type];
  --bag_total_;
  drawn_[ndrawn_++] = uint8_t(type);
  draws_.push_back(Draw{uint8_t(type), Fate::Pending, uint16_t(turn_ + 1)});
  if (game_->modules() & kSeveralDrawsModules) {
    if (ndrawn_ < draw_target() && bag_total_ > 0) return true;  // more tiles to draw this turn
    placeable_ = 0;
    for (int i = 0; i < ndrawn_; ++i)
      if (has_placement(drawn_[i])) placeable_ |= uint8_t(1u << i);
  } else {
    placeable_ = has_placement(type) ? 1 : 0;  // one tile per turn
    if (placeable_ && game_->plain_moves()) [[likely]] {  // no wheel either
      phase_ = Phase::Place;
      clear_choice();
      return true;
    }
  }
  if (!placeable_) {
    // B-5 / T-8: none can be placed: all leave the game and the player draws again;
    // B-6: an empty bag ends the game.
    for (size_t i = draws_.size() - ndrawn_; i < draws_.size(); ++i) draws_[i].fate = Fate::Discarded;
    ndrawn_ = 0;
    if (bag_total_ == 0) {
      phase_ = Phase::Terminal;
      finish();
    }
    return false;
  }
  phase_ = Phase::Place;
  clear_choice();
  // A single drawn tile may start a module's step before it is placed (the Wheel of Fortune:
  // a wheel tile turns the wheel; with several drawn tiles the player first chooses, T-9).
  if (ndrawn_ == 1) single_tile_drawn(drawn_[0]);
  return true;
}

// ---------------------------------------------------------------------------------------
// Features

// The frontier's patterns `gone` left and `come` came in (0: none): each tile type's placement
// count changes by its fits there. Lane-wise the result stays within 0..2048, so the word-wide
// add and subtract cannot carry or borrow between types. Two words at a time (the rows are
// padded to an even number of words), all nine rows in one pass (row 0 is all zeros).
inline void State::refit(const uint8_t* gone, const uint8_t* come) {
  typedef uint64_t u64x2 __attribute__((vector_size(16)));
  const int n = game_->fit_count_words();
  uint64_t* c = fit_count_.data();
  const uint64_t* a[4];
  const uint64_t* b[5];
  for (int k = 0; k < 4; ++k) a[k] = game_->fit_count_row(come[k]);
  for (int k = 0; k < 5; ++k) b[k] = game_->fit_count_row(gone[k]);
  for (int w = 0; w < n; w += 2) {
    u64x2 vc, v;
    std::memcpy(&vc, c + w, 16);
    for (int k = 0; k < 4; ++k) {
      std::memcpy(&v, a[k] + w, 16);
      vc += v;
    }
    for (int k = 0; k < 5; ++k) {
      std::memcpy(&v, b[k] + w, 16);
      vc -= v;
    }
    std::memcpy(c + w, &vc, 16);
  }
}

void State::place_tile(int type, int x, int y, int rot) {
  typedef uint16_t u16x8 __attribute__((vector_size(16)));
  const TileType& tt = game_->type(type);
  const PlaceTemplate& pt = game_->place_template(type, rot);
  const int p = nplaced_++;
  PlacedTile& P = placed_[p];
  const int base = nslots_;
  const int nseg = tt.nseg;
  nslots_ += nseg;
  // The slot lanes (side_slot, half_slot, center_slot, ext) from the template, 8 at a time.
  static_assert(offsetof(PlacedTile, side_slot) == 0 && offsetof(PlacedTile, half_slot) == 8 &&
                    offsetof(PlacedTile, center_slot) == 24 && offsetof(PlacedTile, ext) == 26 &&
                    offsetof(PlacedTile, x) == 28 && offsetof(PlacedTile, y) == 30 && sizeof(PlacedTile) == 36,
                "PlacedTile's slot lanes match PlaceTemplate");
  const u16x8 vbase = u16x8{} + uint16_t(base);
  for (int k = 0; k < 2; ++k) {
    u16x8 v, m;
    std::memcpy(&v, pt.value + 8 * k, 16);
    std::memcpy(&m, pt.mask + 8 * k, 16);
    v += vbase & m;
    std::memcpy(reinterpret_cast<char*>(&P) + 16 * k, &v, 16);
  }
  P.x = int16_t(x);
  P.y = int16_t(y);
  P.type = uint8_t(type);
  P.rot = uint8_t(rot);
  P.slot_base = uint16_t(base);
  // The segments' slots: each its own feature (label and tail itself, no next member), copied
  // from the type's Feature templates 8 slots at a time (the arrays have kSlotSlack to spare).
  {
    const u16x8 iota = vbase + u16x8{0, 1, 2, 3, 4, 5, 6, 7};
    const u16x8 none = u16x8{} + kNoSlot;
    const uint64_t own = uint64_t(uint8_t(p)) * 0x0101010101010101ull;
    const Feature* ft = game_->feature_template(type);
    const uint16_t* shared = game_->shared_flags(type);
    for (int k = 0; k < 8 * (1 + (nseg > 8)); k += 8) {
      const u16x8 ids = iota + uint16_t(k);
      u16x8 tails;
      std::memcpy(&tails, shared + k, 16);
      tails |= ids;
      std::memcpy(&label_[size_t(base + k)], &ids, 16);
      std::memcpy(&tail_[size_t(base + k)], &tails, 16);
      std::memcpy(&next_[size_t(base + k)], &none, 16);
      std::memcpy(&owner_[size_t(base + k)], &own, 8);
      std::memcpy(&feat_[size_t(base + k)], ft + k, 8 * sizeof(Feature));
    }
  }

  // The frontier's per-type placement counts change by the rows of the patterns that leave
  // (the cell this tile takes, the old patterns of neighbour cells that change) and come in
  // (their new patterns): collected here and applied in one pass below (refit). Row 0 is zero.
  uint8_t gone[5] = {0, 0, 0, 0, 0}, come[4] = {0, 0, 0, 0};
  const int c = cell_of(x, y);
  if (cell_[c] != kEmptyCell) {  // a frontier cell: swap-remove it from the list
    const int i = cell_[c] - kFrontierBase;
    gone[4] = need_[i];
    frontier_[i] = frontier_[--nfrontier_];
    need_[i] = need_[nfrontier_];
    if (i < nfrontier_) cell_[frontier_[i].cell] = uint16_t(kFrontierBase + i);
  }
  cell_[c] = uint16_t(p);
  uint16_t side_nb[4];  // what the 4 orthogonal neighbour cells held before this tile
#pragma GCC unroll 4
  for (int d = 0; d < 4; ++d) {
    const int nc = cell_step(c, d);
    const uint16_t nb = cell_[nc];
    side_nb[d] = nb;
    const int od = opposite(d);
    if (nb < kFrontierBase) {
      const PlacedTile& N = placed_[nb];
      if (P.side_slot[d] != kNoSlot) merge(P.side_slot[d], N.side_slot[od], true);
      for (int h = 2 * d; h < 2 * d + 2; ++h)
        if (P.half_slot[h] != kNoSlot) merge(P.half_slot[h], N.half_slot[opposite_half(h)], false);
    } else {
      FrontierCell* fc;
      int fi;
      if (nb == kEmptyCell) {
        static constexpr int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
        fi = nfrontier_++;
        cell_[nc] = uint16_t(kFrontierBase + fi);
        fc = &frontier_[fi];
        fc->cell = uint16_t(nc);
        fc->x = int16_t(x + dx[d]);
        fc->y = int16_t(y + dy[d]);
        need_[fi] = 0;
        fc->present = 0;
      } else {
        fi = nb - kFrontierBase;
        fc = &frontier_[fi];
      }
      const uint8_t old = need_[fi];
      const uint8_t now = uint8_t(old | pt.need[d]);
      need_[fi] = now;
      gone[d] = old;
      come[d] = now;
      // The frontier cell's ports on its side `od` face this tile's side `d` (and only this
      // tile): written whether present or not, only the present ones are ever read.
      fc->port_slot[od] = P.side_slot[d];
      fc->port_slot[4 + 2 * od] = P.half_slot[opposite_half(2 * od)];
      fc->port_slot[4 + 2 * od + 1] = P.half_slot[opposite_half(2 * od + 1)];
      fc->present |= pt.ports[d];
    }
  }
  refit(gone, come);
  // Centre features: a monastery needs its 8 neighbours, a tent its 4 orthogonal ones. Those
  // this tile completes are noted for score_completed (no second look at the 9 cells).
  ncentres_done_ = 0;
  if (tt.center >= 0) {
    const uint16_t slot = P.center_slot;
    const bool orth_only = centre_needs_orthogonal_only(feat_[slot].kind);
    int missing = orth_only ? 4 : 8;
    for (int k = 0; k < 8; ++k) {
      const bool orth = kDx8[k] == 0 || kDy8[k] == 0;
      if (orth_only && !orth) continue;
      if (cell_[cell_of(x + kDx8[k], y + kDy8[k])] < kFrontierBase) --missing;
    }
    feat_[slot].open = uint16_t(missing);
    if (missing == 0) centres_done_[ncentres_done_++] = slot;
  }
  // Neighbouring centre features lose a missing neighbour: the 4 orthogonal neighbours (read
  // above), then the 4 diagonal ones (not for tents).
  for (int d = 0; d < 4; ++d) {
    const uint16_t nb = side_nb[d];
    if (nb >= kFrontierBase) continue;
    const uint16_t cs = placed_[nb].center_slot;
    if (cs != kNoSlot && --feat_[cs].open == 0) centres_done_[ncentres_done_++] = cs;
  }
  for (int k : {0, 2, 5, 7}) {  // the diagonals in kDx8/kDy8
    const uint16_t nb = cell_[cell_of(x + kDx8[k], y + kDy8[k])];
    if (nb >= kFrontierBase) continue;
    const uint16_t cs = placed_[nb].center_slot;
    if (cs == kNoSlot || centre_needs_orthogonal_only(feat_[cs].kind)) continue;
    if (--feat_[cs].open == 0) centres_done_[ncentres_done_++] = cs;
  }
}

// Tiles that hold members of both features (only possible when one tile has two segments of
// the same kind, e.g. the two city caps of tile H): they must be counted once after a merge.
int State::shared_tiles(uint16_t big, uint16_t small) const {
  int shared = 0;
  for (uint16_t s = small; s != kNoSlot; s = next_[s]) {
    const PlacedTile& P = placed_[owner_[s]];
    const TileType& tt = game_->type(P.type);
    const Kind k = feat_[big].kind;
    if (tt.kind_count[int(k)] < 2) continue;
    bool in_big = false, earlier = false;
    for (int i = 0; i < tt.nseg; ++i) {
      const uint16_t sib = uint16_t(P.slot_base + i);
      if (sib == s) continue;
      if (label_[sib] == big) in_big = true;
      if (label_[sib] == small && sib < s) earlier = true;
    }
    if (in_big && !earlier) ++shared;
  }
  return shared;
}

// Inlined into place_tile, its only caller (it runs about 170 times a game).
[[gnu::always_inline]] inline void State::merge(uint16_t a, uint16_t b, bool edge) {
  uint16_t ra = label_[a], rb = label_[b];
  if (ra == rb) {
    if (edge) feat_[ra].open -= 2;
    return;
  }
  if (feat_[ra].size < feat_[rb].size) std::swap(ra, rb);
  Feature& big = feat_[ra];
  const Feature& small = feat_[rb];
  constexpr uint16_t kShared = Game::kSharedBit;
  const uint16_t ta = tail_[ra], tb = tail_[rb];
  if (edge) {
    // A tile with members in both features is counted once; only tiles with two segments of
    // the kind can be one, so both features must hold such a tile.
    big.tiles = uint16_t(big.tiles + small.tiles);
    if (ta & tb & kShared) big.tiles = uint16_t(big.tiles - shared_tiles(ra, rb));
  }
  for (uint16_t s = rb; s != kNoSlot; s = next_[s]) label_[s] = ra;
  next_[ta & ~kShared] = rb;
  tail_[ra] = uint16_t(tb | (ta & kShared));
  big.size = uint16_t(big.size + small.size);
  big.pennants = uint8_t(big.pennants + small.pennants);
  big.open = uint16_t(big.open + small.open - (edge ? 2 : 0));
  big.total = uint8_t(big.total + small.total);
  // The per-player counts, added as bytes of one word (each sum is at most kMaxFollowers, so no
  // byte carries into the next).
  static_assert(kMaxPlayers == 6 && kMaxFollowers < 256, "counts added as 4 + 2 bytes");
  uint32_t b4, s4;
  uint16_t b2, s2;
  std::memcpy(&b4, big.count, 4);
  std::memcpy(&s4, small.count, 4);
  std::memcpy(&b2, big.count + 4, 2);
  std::memcpy(&s2, small.count + 4, 2);
  b4 += s4;
  b2 = uint16_t(b2 + s2);
  std::memcpy(big.count, &b4, 4);
  std::memcpy(big.count + 4, &b2, 2);
}

void State::add_follower(int player, uint16_t slot) {
  followers_[nfollowers_++] = Follower{uint8_t(player), slot};
  --supply_[player];
  Feature& f = feat_[label_[slot]];
  count_centre_follower(f.kind, player, 1);
  ++f.total;
  ++f.count[player];
}

void State::remove_follower(int index) {
  const Follower fo = followers_[index];
  Feature& f = feat_[label_[fo.slot]];
  count_centre_follower(f.kind, fo.player, -1);
  --f.total;
  --f.count[fo.player];
  ++supply_[fo.player];
  for (int i = index; i + 1 < nfollowers_; ++i) followers_[i] = followers_[i + 1];
  --nfollowers_;
}

// ---------------------------------------------------------------------------------------
// Legal moves

void State::cell_ports(const FrontierCell& fc, Ports& p) const {
  p.present = fc.present;
  p.occupied = 0;
  for (uint32_t q = fc.present; q; q &= q - 1) {
    const int port = __builtin_ctz(q);
    const uint16_t r = label_[fc.port_slot[port]];
    p.root[port] = r;
    if (feat_[r].total) p.occupied |= uint16_t(1u << port);
  }
}

uint32_t State::free_from_ports(const TileType& tt, int rot, const Ports& p, int player) const {
  const uint32_t all = centre_spot_allowed(tt, player, (1u << tt.nseg) - 1);
  if (!p.occupied) return all;
  const RotatedTile& rt = tt.rot[rot];
  auto seg_of = [&](int port) { return port < 4 ? rt.edge_seg[port] : rt.half_seg[port - 4]; };
  uint32_t occupied = 0;
  for (uint32_t o = p.occupied; o; o &= o - 1) occupied |= 1u << seg_of(__builtin_ctz(o));
  // Two segments of the new tile that join the same neighbouring feature become one
  // feature: an occupied one makes the other occupied too (transitively).
  int ports[12], n = 0;
  for (uint32_t q = p.present; q; q &= q - 1) ports[n++] = __builtin_ctz(q);
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        if (p.root[ports[i]] != p.root[ports[j]]) continue;
        const uint32_t pair = (1u << seg_of(ports[i])) | (1u << seg_of(ports[j]));
        if ((occupied & pair) && (occupied & pair) != pair) {
          occupied |= pair;
          changed = true;
        }
      }
  }
  return all & ~occupied;
}

uint32_t State::free_segments(int type, int c, int rot, int player) const {
  Ports p;
  if (cell_[c] < kFrontierBase || cell_[c] == kEmptyCell) return 0;
  cell_ports(frontier_[cell_[c] - kFrontierBase], p);
  return free_from_ports(game_->type(type), rot, p, player);
}

void State::legal_moves(std::vector<Move>& out) const {
  out.clear();
  if (module_phase()) {
    module_phase_moves(out);
    return;
  }
  if (phase_ != Phase::Place) return;
  TurnOptions to;
  turn_options(supply_[player_] > 0, to);
  for (int c = 0; c < ndrawn_; ++c) {
    SampleGroup g;
    if (!option_group(c, to, g)) continue;
    if (g.choose) {
      // A wheel tile among several drawn: choosing it turns the wheel before it is placed.
      Move m;
      m.kind = MoveKind::Choose;
      m.choice = uint8_t(c);
      out.push_back(m);
      continue;
    }
    const uint8_t* fit = game_->fit_row(drawn_[c]);
    for (int i = 0; i < nfrontier_; ++i)
      if (const uint8_t rots = fit[need_[i]]) list_cell(to, g, i, rots, out);
  }
}

bool State::offers_moves(int c) const {
  if (!(placeable_ >> c & 1)) return false;
  // Two drawn tiles of one type offer the same moves: only the first is listed.
  for (int e = 0; e < c; ++e)
    if ((placeable_ >> e & 1) && drawn_[e] == drawn_[c]) return false;
  return true;
}

bool State::offered(const Move& m) const {
  const int v = cell_[cell_of(m.x, m.y)];
  if (v < kFrontierBase || v == kEmptyCell) return false;
  const int i = v - kFrontierBase;
  const uint8_t rot = uint8_t(1u << m.rot);
  if (!(game_->fit_row(drawn_[m.choice])[need_[i]] & rot)) return false;
  TurnOptions to;
  turn_options(supply_[player_] > 0, to);
  SampleGroup g;
  if (!option_group(m.choice, to, g) || g.choose) return false;
  thread_local std::vector<Move> moves;  // scratch: check_move runs once per checked move (Python, server)
  moves.clear();
  list_cell(to, g, i, rot, moves);
  return std::find(moves.begin(), moves.end(), m) != moves.end();
}

void State::resample_hidden(Rng& rng) {
  rng_.reseed(rng.next());
  modules_resample_hidden(rng);
}

int State::count_legal_moves() const {
  std::vector<Move> v;
  legal_moves(v);
  return int(v.size());
}

// Placement idx (of `placements`) of the tile with fit row `fit`, in frontier order (cells in list
// order, rotations ascending), walked to from the nearer end of the list: sets m.x, m.y, m.rot
// and returns the frontier cell's index.
inline int State::find_placement(const uint8_t* fit, uint32_t idx, uint32_t placements, Move& m) const {
  int i;
  uint8_t mask;
  if (idx < placements / 2) {
    for (i = 0;; ++i) {
      mask = fit[need_[i]];
      const uint32_t n = uint32_t(popcount(mask));
      if (idx < n) break;
      idx -= n;
    }
  } else {
    idx = placements - 1 - idx;  // counted from the last placement
    uint32_t n;
    for (i = nfrontier_ - 1;; --i) {
      mask = fit[need_[i]];
      n = uint32_t(popcount(mask));
      if (idx < n) break;
      idx -= n;
    }
    idx = n - 1 - idx;
  }
  for (; idx; --idx) mask &= mask - 1;
  m.x = frontier_[i].x;
  m.y = frontier_[i].y;
  m.rot = uint8_t(__builtin_ctz(mask));
  return i;
}

Move State::sample_move(Rng& rng) const {
  if (game_->plain_moves()) [[likely]]
    return sample_plain(rng);
  if (module_phase()) return module_phase_sample(rng);
  assert(phase_ == Phase::Place);
  // Placements that differ in their number of options (Fruit-Bearing Trees: fruit actions).
  return game_->modules() & kCellWeightModules ? sample_placement<true>(rng) : sample_placement<false>(rng);
}

// No module adds options and one tile is drawn: the generator's one group, placements x (no
// follower, a follower on each segment), drawn as sample_placement<false> draws it (the same
// draws) by a short path that keeps the group in registers (sample_placement costs 2.3% more
// instructions per base game: docs/performance.md).
Move State::sample_plain(Rng& rng) const {
  const int t = drawn_[0];
  const TileType& tt = game_->type(t);
  const uint32_t per = 1 + (supply_[player_] > 0 ? uint32_t(tt.nseg) : 0);
  const uint32_t placements = uint32_t(fit_count(t));
  const uint8_t* fit = game_->fit_row(t);
  for (;;) {
    const uint32_t k = rng.below(placements * per);
    Move m;
    m.choice = 0;
    const uint32_t sub = k % per;
    const int i = find_placement(fit, k / per, placements, m);
    if (sub == 0) return m;
    m.meeple = int8_t(sub - 1);
    // A segment touching no neighbour's port is free (its feature is new; not the centre,
    // which a module may refuse).
    const Segment& sg = tt.rot[m.rot].seg[sub - 1];
    if (!((sg.edges | uint32_t(sg.halves) << 4) & frontier_[i].present) && int(sub - 1) != tt.center) return m;
    Ports ports;
    cell_ports(frontier_[i], ports);
    if (!(free_from_ports(tt, m.rot, ports, player_) >> (sub - 1) & 1)) continue;  // taken: draw again
    return m;
  }
}

// The generator's moves (as legal_moves() lists them), one group per distinct placeable drawn
// tile (option_group). Rejection sampling over (placement, option) pairs, so that only the
// sampled placement's follower spots are computed: a pair whose segment is taken is rejected
// and the whole draw is made again. Uniform over all legal moves, like
// legal_moves()[below(n)], but a different draw. Without fruit actions every placement of a
// group has the same `per` options; with them a placement's fruit actions depend on the trees in
// range (the cell, and the stack put on a new tree tile), so each frontier cell has its own
// weight (cell_weights_group, cell_weights_find: expansions/fruit_trees_sample.h).
template <bool kCellWeights>
Move State::sample_placement(Rng& rng) const {
  TurnOptions to;
  turn_options(supply_[player_] > 0, to);
  SampleGroup groups[4];
  uint32_t w0s[4];  // kCellWeights: a group's options per placement with no tree in range
  int ng = 0;
  uint32_t total = 0;
  for (int c = 0; c < ndrawn_; ++c) {
    SampleGroup& g = groups[ng];
    if (!option_group(c, to, g)) continue;
    ++ng;
    if (!g.choose) {
      if constexpr (kCellWeights) g.weight = cell_weights_group(to.fo, g, to.ncrowns, w0s[ng - 1]);
      else g.weight = g.placements * g.per;
    }
    total += g.weight;
  }
  for (;;) {
    uint32_t k = rng.below(total);
    int gi = 0;
    while (k >= groups[gi].weight) k -= groups[gi++].weight;
    const SampleGroup& g = groups[gi];
    Move m;
    m.choice = g.choice;
    if (g.choose) {
      m.kind = MoveKind::Choose;
      return m;
    }
    const TileType& tt = game_->type(drawn_[g.choice]);
    uint32_t sub, trees = 0, per_seg = 1;
    int i;
    if constexpr (kCellWeights) {
      i = cell_weights_find(to.fo, g, to.ncrowns, w0s[gi], k, m, sub, trees, per_seg);
    } else {
      sub = k % g.per;
      i = find_placement(game_->fit_row(drawn_[g.choice]), k / g.per, g.placements, m);
    }
    if (sub-- == 0) return m;
    const uint32_t segs = g.segs;
    if (sub < segs * per_seg) {
      const uint32_t seg = sub / per_seg, a = sub % per_seg;
      m.meeple = int8_t(seg);
      // A segment touching no neighbour's port is free (its feature is new), unless it is the
      // centre (a tent may be refused): only otherwise are the ports looked at.
      const Segment& sg = tt.rot[m.rot].seg[seg];
      if (((sg.edges | uint32_t(sg.halves) << 4) & frontier_[i].present) || int(seg) == tt.center) {
        Ports ports;
        cell_ports(frontier_[i], ports);
        if (!(free_from_ports(tt, m.rot, ports, player_) >> seg & 1)) continue;  // taken: draw again
      }
      if constexpr (kCellWeights)
        if (a) cell_weights_option(to.fo, trees, a - 1, m);
      return m;
    }
    return last_option(m, sub - segs * per_seg, to);
  }
}

std::string State::check_move(const Move& m) const {
  if (module_phase()) return check_module_phase(m);
  if (const char* e = module_kind_refusal(m)) return e;  // a module's kind of move, out of its phase
  if (phase_ != Phase::Place) return "no tile to place now";
  if (m.choice >= ndrawn_) return "no such drawn tile";
  if (!(placeable_ >> m.choice & 1))
    return "drawn tile " + game_->type(drawn_[m.choice]).id + " has no legal place; choose another";
  if (!offers_moves(m.choice)) {
    // Two drawn tiles of one type are the same choice: the first one stands for both (as listed).
    int first = 0;
    while (drawn_[first] != drawn_[m.choice]) ++first;
    return "drawn tiles " + std::to_string(first) + " and " + std::to_string(int(m.choice)) + " are the same tile (" +
           game_->type(drawn_[m.choice]).id + "): choose " + std::to_string(first);
  }
  const int t = drawn_[m.choice];
  const TileType& tt = game_->type(t);
  if (m.kind == MoveKind::Choose) return check_choose(m, tt);  // Wheel of Fortune
  if (std::string e = why_not_place_yet(tt); !e.empty()) return e;  // a tile to choose first
  const std::string where = "(" + std::to_string(m.x) + "," + std::to_string(m.y) + ")";
  if (m.rot > 3) return "bad rotation";
  if (tt.canonical_rot[m.rot] != m.rot)
    return "tile " + tt.id + " rotated " + std::to_string(90 * m.rot) + " looks the same as rotated " +
           std::to_string(90 * tt.canonical_rot[m.rot]) + ": moves name the lower rotation";
  if (tile_at(m.x, m.y) >= 0) return "position " + where + " is already taken";
  const int c = cell_of(m.x, m.y);
  const uint8_t need = cell_[c] >= kFrontierBase && cell_[c] != kEmptyCell ? need_[cell_[c] - kFrontierBase] : 0;
  bool neighbour = false;
  static constexpr int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
  for (int d = 0; d < 4; ++d) neighbour |= tile_at(m.x + dx[d], m.y + dy[d]) >= 0;
  if (!neighbour || need == 0) return "tile " + tt.id + " at " + where + " touches no tile";
  const RotatedTile& rt = tt.rot[m.rot];
  static const char* edge_names[4] = {"none", "field", "road", "city"};
  static const char* side_names[4] = {"north", "east", "south", "west"};
  for (int d = 0; d < 4; ++d) {
    const int req = (need >> (2 * d)) & 3;
    if (req && req != int(rt.edge(d)))
      return "tile " + tt.id + " does not fit at " + where + " rotation " + std::to_string(90 * m.rot) + ": its " +
             side_names[d] + " edge (" + edge_names[int(rt.edge(d))] + ") meets a " + edge_names[req];
  }
  // The placement fits: the move is legal exactly when the generator offers it. What follows
  // only words the refusal (base game first, then each module's reasons).
  if (offered(m)) return "";
  if (const char* e = module_part_refusal(m)) return e;  // a part of another kind of move
  if (m.deploys() && m.ext.takes_back()) return "cannot both deploy and take back a follower";
  if (m.ext.deploys_elsewhere()) {
    if (std::string e = why_not_elsewhere(m); !e.empty()) return e;
  } else if (m.meeple >= 0) {
    if (m.meeple >= tt.nseg) return "no such follower location";
    if (supply_[player_] == 0) return "player " + std::to_string(player_) + " has no follower left";
    const uint32_t free = free_segments(t, c, m.rot, player_);
    if (!(free >> m.meeple & 1)) {
      if (std::string e = why_not_centre(rt.seg[m.meeple].kind); !e.empty()) return e;
      return std::string("the ") + kind_name(rt.seg[m.meeple].kind) + " at " + tt.location_name(m.meeple, m.rot) +
             " is already occupied";
    }
  }
  if (std::string e = why_not_extras(m, tt); !e.empty()) return e;
  if (m.ext.takes_back())
    if (std::string e = why_not_take_back(m, tt); !e.empty()) return e;  // Festival
  return "not one of the moves this placement offers";
}

// ---------------------------------------------------------------------------------------
// Applying a move and scoring

void State::apply(const Move& m) {
  if (m.kind != MoveKind::Place) {
    apply_module_move(m);
    return;
  }
  assert(phase_ == Phase::Place);
  if (game_->plain_moves()) {
    // One drawn tile; a legal move has no take-back, crown or fruit (Game::plain_moves).
    assert(ndrawn_ == 1 && m.choice == 0 && m.ext == MoveExt{});
    draws_.back().fate = Fate::Placed;
    ndrawn_ = 0;
    ++turn_;
    place_tile(drawn_[0], m.x, m.y, m.rot);
    const PlacedTile& P = placed_[nplaced_ - 1];
    history_.push_back(TurnLog{m, kNoSlot});
    clear_choice();
    if (m.meeple >= 0) add_follower(player_, uint16_t(P.slot_base + m.meeple));
    score_completed(P);
    end_turn();
    return;
  }
  const int t = drawn_[m.choice];
  // The chosen tile is placed; other drawn tiles go back into the bag (Fortune Teller, T-7).
  for (int i = 0, base = int(draws_.size()) - ndrawn_; i < ndrawn_; ++i) {
    draws_[base + i].fate = i == m.choice ? Fate::Placed : Fate::Returned;
    if (i != m.choice) add_to_bag(drawn_[i]);
  }
  ndrawn_ = 0;
  ++turn_;
  if (near_.on) {
    // Fruit-Bearing Trees: the frontier cells in range of a tree follow the frontier's change.
    const int c = cell_of(m.x, m.y), i = cell_[c] - kFrontierBase, nf = nfrontier_;
    place_tile(t, m.x, m.y, m.rot);
    near_trees_frontier_changed(c, i, nf);
  } else {
    place_tile(t, m.x, m.y, m.rot);
  }
  const PlacedTile& P = placed_[nplaced_ - 1];
  history_.push_back(TurnLog{m, m.ext.take_back() >= 0 ? followers_[m.ext.take_back()].slot : kNoSlot});
  log_module_turn(history_.back());
  clear_choice();
  if (m.ext.takes_back()) apply_take_back(m);  // Festival
  if (m.ext.deploys_elsewhere()) {
    deploy_elsewhere(m);
  } else if (m.meeple >= 0) {
    add_follower(player_, uint16_t(P.slot_base + m.meeple));
  }
  // What follows the placement on the tile (before feature scoring).
  if (m.ext.placement_extras()) apply_extras(m, P);
  score_completed(P);
  end_turn();
}

// Scores what the placed tile P completed: roads, cities, then monasteries and tents (B-10).
void State::score_completed(const PlacedTile& P) {
  uint16_t done[16];
  int nd = 0;
  for (uint32_t segs = game_->edge_segments(P.type); segs; segs &= segs - 1) {  // roads and cities
    const uint16_t r = label_[P.slot_base + __builtin_ctz(segs)];
    if (feat_[r].open == 0 && !feat_[r].done && std::find(done, done + nd, r) == done + nd) done[nd++] = r;
  }
  // Monasteries and tents this tile completed (noted by place_tile).
  for (int k = 0; k < ncentres_done_; ++k) done[nd++] = centres_done_[k];
  if (nd > 1)
    std::sort(done, done + nd, [&](uint16_t a, uint16_t b) {
      return std::make_pair(int(feat_[a].kind), a) < std::make_pair(int(feat_[b].kind), b);
    });
  for (int i = 0; i < nd; ++i) score_feature(done[i], false);
}

void State::end_turn() {
  if (bag_total_ == 0) {
    phase_ = Phase::Terminal;
    finish();
    return;
  }
  player_ = uint8_t((player_ + 1) % nplayers_);
  phase_ = Phase::Chance;
}

void State::emit(int player, int points, const char* kind, bool final_scoring, uint16_t root, int turn, int segment) {
  if (points == 0) return;
  scores_[player] += points;
  if (log_.p) {
    const PlacedTile& P = placed_[owner_[root]];
    log_.p->push_back(
        ScoreEvent{turn < 0 ? turn_ : turn, player, points, kind, final_scoring, P.x, P.y, segment, -1, 0, {}, {}});
  }
}

int State::field_cities(uint16_t root, uint16_t* out, int max) const {
  int n = 0;
  for (uint16_t s = root; s != kNoSlot; s = next_[s]) {
    const PlacedTile& P = placed_[owner_[s]];
    const TileType& tt = game_->type(P.type);
    uint32_t adj = tt.rot[0].seg[s - P.slot_base].adj_cities;
    while (adj) {
      const int c = __builtin_ctz(adj);
      adj &= adj - 1;
      const uint16_t cr = label_[P.slot_base + c];
      if (std::find(out, out + n, cr) == out + n && n < max) out[n++] = cr;
    }
  }
  return n;
}

int State::field_value(uint16_t root) const {
  uint16_t cities[kMaxPlaced * 4];
  const int n = field_cities(root, cities, kMaxPlaced * 4);
  int completed = 0;
  for (int i = 0; i < n; ++i) completed += feat_[cities[i]].open == 0;
  return 3 * completed;
}

void State::score_feature(uint16_t root, bool final_scoring) {
  Feature& f = feat_[root];
  int points = 0;
  const char* kind = score_kind_name(f.kind);
  switch (f.kind) {
    case Kind::Road: points = f.tiles; break;
    case Kind::City: points = final_scoring ? f.tiles + f.pennants : 2 * (f.tiles + f.pennants); break;
    case Kind::Monastery: points = 9 - f.open; break;
    default: score_module_kind(f, root, final_scoring); break;  // a feature kind of a module
    case Kind::Field: points = field_value(root); break;
  }
  if (f.total > 0 && points > 0) {
    int best = 0;
    for (int p = 0; p < nplayers_; ++p) best = std::max(best, int(f.count[p]));
    for (int p = 0; p < nplayers_; ++p)
      if (f.count[p] == best) emit(p, points, kind, final_scoring, root);
  }
  f.done = 1;
  if (!final_scoring)
    for (int i = nfollowers_ - 1; i >= 0; --i)
      if (label_[followers_[i].slot] == root) remove_follower(i);
}

void State::finish() {
  if (final_done_) return;
  final_done_ = true;
  // Every occupied, unscored feature, in a fixed order: by kind, then root slot.
  uint16_t roots[kMaxFollowers];
  int n = 0;
  for (int i = 0; i < nfollowers_; ++i) {
    const uint16_t r = label_[followers_[i].slot];
    if (!feat_[r].done && std::find(roots, roots + n, r) == roots + n) roots[n++] = r;
  }
  std::sort(roots, roots + n, [&](uint16_t a, uint16_t b) {
    return std::make_pair(int(feat_[a].kind), a) < std::make_pair(int(feat_[b].kind), b);
  });
  for (int i = 0; i < n; ++i) score_feature(roots[i], true);
  modules_final_scoring();
}

// ---------------------------------------------------------------------------------------
// Checks

bool State::operator==(const State& o) const {
  if (game_ != o.game_ || phase_ != o.phase_ || player_ != o.player_ || turn_ != o.turn_ ||
      ndrawn_ != o.ndrawn_ || drawn_ != o.drawn_ || placeable_ != o.placeable_ || bag_total_ != o.bag_total_ ||
      bag_ != o.bag_ || scores_ != o.scores_ || supply_ != o.supply_ || !(rng_ == o.rng_) || nplaced_ != o.nplaced_ ||
      nslots_ != o.nslots_ || nfollowers_ != o.nfollowers_ || nfrontier_ != o.nfrontier_ ||
      final_done_ != o.final_done_ || !(mods_ == o.mods_))  // the modules' blocks: expansions/blocks.h
    return false;
  for (int i = 0; i < nplaced_; ++i) {
    const PlacedTile &a = placed_[i], &b = o.placed_[i];
    if (a.x != b.x || a.y != b.y || a.type != b.type || a.rot != b.rot) return false;
  }
  for (int s = 0; s < nslots_; ++s) {
    if (label_[s] != o.label_[s]) return false;
    if (label_[s] == s && (std::memcmp(&feat_[s], &o.feat_[s], sizeof(Feature)) != 0 || tail_[s] != o.tail_[s]))
      return false;
  }
  for (int i = 0; i < nfollowers_; ++i)
    if (followers_[i].player != o.followers_[i].player || followers_[i].slot != o.followers_[i].slot) return false;
  for (int i = 0; i < nfrontier_; ++i)
    if (frontier_[i].cell != o.frontier_[i].cell || need_[i] != o.need_[i])
      return false;
  if (draws_.size() != o.draws_.size() || history_.size() != o.history_.size()) return false;
  for (size_t i = 0; i < history_.size(); ++i)
    if (!(history_[i].move == o.history_[i].move) || history_[i].ret_slot != o.history_[i].ret_slot ||
        !history_[i].mods.same_play(o.history_[i].mods))
      return false;
  return true;
}

std::string State::validate() const {
  // Recompute every feature by a flood fill over the placed tiles and compare.
  std::vector<int> comp(nslots_, -1);
  std::vector<std::vector<uint16_t>> comps;
  auto neighbours = [&](uint16_t s, std::vector<uint16_t>& out) {
    out.clear();
    const PlacedTile& P = placed_[owner_[s]];
    static constexpr int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
    for (int d = 0; d < 4; ++d) {
      const int nb = tile_at(P.x + dx[d], P.y + dy[d]);
      if (nb < 0) continue;
      const PlacedTile& N = placed_[nb];
      if (P.side_slot[d] == s) out.push_back(N.side_slot[opposite(d)]);
      for (int h = 2 * d; h < 2 * d + 2; ++h)
        if (P.half_slot[h] == s) out.push_back(N.half_slot[opposite_half(h)]);
    }
  };
  std::vector<uint16_t> nb;
  for (int s = 0; s < nslots_; ++s) {
    if (comp[s] >= 0) continue;
    comps.emplace_back();
    std::vector<uint16_t> stack{uint16_t(s)};
    comp[s] = int(comps.size()) - 1;
    while (!stack.empty()) {
      const uint16_t v = stack.back();
      stack.pop_back();
      comps.back().push_back(v);
      neighbours(v, nb);
      for (uint16_t w : nb) {
        if (w == kNoSlot) return "slot " + std::to_string(v) + " joins a missing segment";
        if (comp[w] < 0) {
          comp[w] = comp[s];
          stack.push_back(w);
        }
      }
    }
  }
  for (auto& members : comps) {
    const uint16_t r = label_[members[0]];
    for (uint16_t m : members)
      if (label_[m] != r) return "segments of one feature have different roots (slot " + std::to_string(m) + ")";
    const Feature& f = feat_[r];
    if (f.size != members.size()) return "feature size mismatch at root " + std::to_string(r);
    std::vector<int> tiles;
    int pennants = 0, open = 0;
    for (uint16_t m : members) {
      tiles.push_back(owner_[m]);
      const PlacedTile& P = placed_[owner_[m]];
      const Segment& sg = game_->type(P.type).rot[P.rot].seg[m - P.slot_base];
      pennants += sg.pennants;
      if (f.kind == Kind::Road || f.kind == Kind::City) {
        static constexpr int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
        for (int d = 0; d < 4; ++d)
          if ((sg.edges >> d & 1) && tile_at(P.x + dx[d], P.y + dy[d]) < 0) ++open;
      }
    }
    std::sort(tiles.begin(), tiles.end());
    tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
    if (f.pennants != pennants) return "pennant count mismatch at root " + std::to_string(r);
    if ((f.kind == Kind::Road || f.kind == Kind::City)) {
      if (f.tiles != tiles.size())
        return "tile count mismatch at root " + std::to_string(r) + ": " + std::to_string(f.tiles) + " vs " +
               std::to_string(tiles.size());
      if (f.open != open) return "open edge mismatch at root " + std::to_string(r);
    }
    int count[kMaxPlayers] = {};
    int total = 0;
    for (int i = 0; i < nfollowers_; ++i)
      if (label_[followers_[i].slot] == r) {
        ++count[followers_[i].player];
        ++total;
      }
    if (total != f.total) return "follower total mismatch at root " + std::to_string(r);
    for (int p = 0; p < nplayers_; ++p)
      if (count[p] != f.count[p]) return "follower count mismatch at root " + std::to_string(r);
  }
  for (int p = 0; p < nplayers_; ++p) {
    int on_board = 0;
    for (int i = 0; i < nfollowers_; ++i) on_board += followers_[i].player == p;
    on_board += modules_followers(p);
    if (on_board + supply_[p] != kFollowersPerPlayer) return "followers of player " + std::to_string(p) + " not conserved";
  }
  for (int t = 0; t < game_->fit_count_types(); ++t) {
    const uint8_t* fit = game_->fit_row(t);
    int n = 0;
    for (int i = 0; i < nfrontier_; ++i) n += popcount(fit[need_[i]]);
    if (n != fit_count(t))
      return "placement count of tile type " + game_->type(t).id + " is " + std::to_string(fit_count(t)) +
             ", the frontier has " + std::to_string(n);
  }
  return modules_validate();
}

}  // namespace carc
