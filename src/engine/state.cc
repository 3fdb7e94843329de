#include "state.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "vocabulary.h"

namespace carc {

namespace {
constexpr int kDx8[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
constexpr int kDy8[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
inline int popcount(unsigned v) { return __builtin_popcount(v); }
}  // namespace

const std::array<const char*, kFruitTypes> kFruitNames = {"apple", "apricot", "cherry", "elder", "plum", "quince"};

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
  std::copy_n(o.frontier_.begin(), nfrontier_, frontier_.begin());
  std::copy_n(o.need_.begin(), nfrontier_, need_.begin());
  nplaced_ = o.nplaced_;
  std::copy_n(o.placed_.begin(), nplaced_, placed_.begin());
  nslots_ = o.nslots_;
  std::copy_n(o.label_.begin(), nslots_, label_.begin());
  std::copy_n(o.next_.begin(), nslots_, next_.begin());
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

void State::init(uint64_t seed, int start_type, int start_rot) {
  nplayers_ = game_->rules().players;
  seed_ = seed;
  rng_.reseed(seed);
  cell_.fill(kEmptyCell);
  const auto& counts = game_->initial_counts();
  for (size_t i = 0; i < counts.size(); ++i) bag_[i] = counts[i];
  bag_total_ = game_->total_tiles();
  // One allocation each for the whole game instead of a reallocation at every doubling.
  draws_.reserve(size_t(bag_total_));
  history_.reserve(size_t(bag_total_));
  for (int p = 0; p < nplayers_; ++p) supply_[p] = kFollowersPerPlayer;
  if (game_->rules().fruit_trees) {
    // Each fruit type's stack of 5, 4, 3, 2 shuffled face down, from the game's seed (its
    // own generator, so the tile draws are the same as without the expansion).
    Rng fr(seed ^ 0xF2017F2017ull);
    for (auto& st : stack_) {
      st = {5, 4, 3, 2};
      for (int i = 3; i > 0; --i) std::swap(st[i], st[fr.below(uint32_t(i + 1))]);
    }
    init_stacks_ = stack_;
  }
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
  pig_ = uint8_t(game_->wheel_start());
  phase_ = bag_total_ > 0 ? Phase::Chance : Phase::Terminal;
}

int State::current_player() const {
  switch (phase_) {
    case Phase::Chance: return kChancePlayer;
    case Phase::Terminal: return kTerminalPlayer;
    case Phase::Plague: return plague_player_;
    default: return player_;
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

bool State::has_placement(int type) const {
  const uint8_t* fit = game_->fit_row(type);
  for (int i = 0; i < nfrontier_; ++i)
    if (fit[need_[i]]) return true;
  return false;
}

bool State::apply_draw(int type) {
  assert(phase_ == Phase::Chance && bag_[type] > 0);
  rng_.below(uint32_t(bag_total_));  // keeps the generator in step with draw_random()
  return draw_internal(type);
}

bool State::draw_random() {
  assert(phase_ == Phase::Chance && bag_total_ > 0);
  static_assert(sizeof(drawn_) >= 3, "at most 1 + 2 fortune tellers");
  uint32_t k = rng_.below(uint32_t(bag_total_));
  int t = 0;
  while (k >= bag_[t]) k -= bag_[t++];
  return draw_internal(t);
}

int State::draw_target() const { return 1 + tents_[player_]; }

int State::current_tile() const {
  if (phase_ != Phase::Place && phase_ != Phase::Plague) return -1;
  for (int i = 0; i < ndrawn_; ++i)
    if (placeable_ >> i & 1) return drawn_[i];
  return -1;
}

bool State::draw_internal(int type) {
  --bag_[type];
  --bag_total_;
  drawn_[ndrawn_++] = uint8_t(type);
  draws_.push_back(Draw{uint8_t(type), Fate::Pending, uint16_t(turn_ + 1)});
  if (ndrawn_ < draw_target() && bag_total_ > 0) return true;  // more tiles to draw this turn (T-6)
  placeable_ = 0;
  for (int i = 0; i < ndrawn_; ++i)
    if (has_placement(drawn_[i])) placeable_ |= uint8_t(1u << i);
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
  chosen_ = -1;
  // Wheel of Fortune: a single drawn wheel tile turns the wheel now, before it is placed; with
  // several drawn tiles the player first chooses (a Choose decision, T-9).
  if (ndrawn_ == 1 && game_->type(drawn_[0]).wheel) {
    chosen_ = 0;
    start_wheel(drawn_[0]);
  }
  return true;
}

// ---------------------------------------------------------------------------------------
// Features

void State::place_tile(int type, int x, int y, int rot) {
  const TileType& tt = game_->type(type);
  const RotatedTile& rt = tt.rot[rot];
  const int p = nplaced_++;
  PlacedTile& P = placed_[p];
  P.x = int16_t(x);
  P.y = int16_t(y);
  P.type = uint8_t(type);
  P.rot = uint8_t(rot);
  P.slot_base = uint16_t(nslots_);
  P.center_slot = kNoSlot;
  P.fruit = -1;
  const int base = nslots_;
  nslots_ += tt.nseg;
  for (int i = 0; i < tt.nseg; ++i) {
    const Segment& s = rt.seg[i];
    const uint16_t slot = uint16_t(base + i);
    label_[slot] = slot;
    next_[slot] = kNoSlot;
    owner_[slot] = uint8_t(p);
    Feature& f = feat_[slot];
    f = Feature{};
    f.kind = s.kind;
    f.pennants = s.pennants;
    f.tiles = 1;
    f.size = 1;
    f.tail = slot;
    if (s.kind == Kind::Road || s.kind == Kind::City) f.open = uint16_t(popcount(s.edges));
  }
  for (int d = 0; d < 4; ++d) P.side_slot[d] = rt.edge_seg[d] >= 0 ? uint16_t(base + rt.edge_seg[d]) : kNoSlot;
  for (int h = 0; h < 8; ++h) P.half_slot[h] = rt.half_seg[h] >= 0 ? uint16_t(base + rt.half_seg[h]) : kNoSlot;

  const int c = cell_of(x, y);
  if (cell_[c] != kEmptyCell) {  // a frontier cell: swap-remove it from the list
    const int i = cell_[c] - kFrontierBase;
    frontier_[i] = frontier_[--nfrontier_];
    need_[i] = need_[nfrontier_];
    if (i < nfrontier_) cell_[frontier_[i].cell] = uint16_t(kFrontierBase + i);
  }
  cell_[c] = uint16_t(p);
  for (int d = 0; d < 4; ++d) {
    const int nc = cell_step(c, d);
    const uint16_t nb = cell_[nc];
    if (nb < kFrontierBase) {
      const PlacedTile& N = placed_[nb];
      const int od = opposite(d);
      if (P.side_slot[d] != kNoSlot) merge(P.side_slot[d], N.side_slot[od], true);
      for (int h = 2 * d; h < 2 * d + 2; ++h)
        if (P.half_slot[h] != kNoSlot) merge(P.half_slot[h], N.half_slot[opposite_half(h)], false);
    } else {
      const int od = opposite(d);
      FrontierCell* fc;
      if (nb == kEmptyCell) {
        static constexpr int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
        cell_[nc] = uint16_t(kFrontierBase + nfrontier_);
        fc = &frontier_[nfrontier_++];
        fc->cell = uint16_t(nc);
        fc->x = int16_t(x + dx[d]);
        fc->y = int16_t(y + dy[d]);
        need_[nfrontier_ - 1] = 0;
        fc->present = 0;
      } else {
        fc = &frontier_[nb - kFrontierBase];
      }
      need_[fc - frontier_.data()] |= uint8_t(int(rt.edge(d)) << (2 * od));
      // The frontier cell's ports on its side `od` face this tile's side `d`.
      if (P.side_slot[d] != kNoSlot) {
        fc->port_slot[od] = P.side_slot[d];
        fc->present |= uint16_t(1u << od);
      }
      for (int h = 2 * od; h < 2 * od + 2; ++h) {
        const uint16_t hs = P.half_slot[opposite_half(h)];
        if (hs == kNoSlot) continue;
        fc->port_slot[4 + h] = hs;
        fc->present |= uint16_t(1u << (4 + h));
      }
    }
  }
  // Centre features: a monastery needs its 8 neighbours, a tent its 4 orthogonal ones.
  if (tt.center >= 0) {
    const uint16_t slot = uint16_t(base + tt.center);
    P.center_slot = slot;
    const bool tent = rt.seg[tt.center].kind == Kind::Tent;
    int missing = tent ? 4 : 8;
    for (int k = 0; k < 8; ++k) {
      const bool orth = kDx8[k] == 0 || kDy8[k] == 0;
      if (tent && !orth) continue;
      if (cell_[cell_of(x + kDx8[k], y + kDy8[k])] < kFrontierBase) --missing;
    }
    feat_[slot].open = uint16_t(missing);
  }
  for (int k = 0; k < 8; ++k) {
    const uint16_t nb = cell_[cell_of(x + kDx8[k], y + kDy8[k])];
    if (nb >= kFrontierBase || nb == p) continue;
    const uint16_t cs = placed_[nb].center_slot;
    if (cs == kNoSlot) continue;
    if (feat_[cs].kind == Kind::Tent && kDx8[k] != 0 && kDy8[k] != 0) continue;
    --feat_[cs].open;
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

void State::merge(uint16_t a, uint16_t b, bool edge) {
  uint16_t ra = label_[a], rb = label_[b];
  if (ra == rb) {
    if (edge) feat_[ra].open -= 2;
    return;
  }
  if (feat_[ra].size < feat_[rb].size) std::swap(ra, rb);
  Feature& big = feat_[ra];
  const Feature& small = feat_[rb];
  if (edge) big.tiles = uint16_t(big.tiles + small.tiles - shared_tiles(ra, rb));
  for (uint16_t s = rb; s != kNoSlot; s = next_[s]) label_[s] = ra;
  next_[big.tail] = rb;
  big.tail = small.tail;
  big.size = uint16_t(big.size + small.size);
  big.pennants = uint8_t(big.pennants + small.pennants);
  big.open = uint16_t(big.open + small.open - (edge ? 2 : 0));
  big.total = uint8_t(big.total + small.total);
  for (int p = 0; p < kMaxPlayers; ++p) big.count[p] = uint8_t(big.count[p] + small.count[p]);
}

void State::add_follower(int player, uint16_t slot) {
  followers_[nfollowers_++] = Follower{uint8_t(player), slot};
  --supply_[player];
  Feature& f = feat_[label_[slot]];
  if (f.kind == Kind::Tent) ++tents_[player];
  ++f.total;
  ++f.count[player];
}

void State::remove_follower(int index) {
  const Follower fo = followers_[index];
  Feature& f = feat_[label_[fo.slot]];
  if (f.kind == Kind::Tent) --tents_[fo.player];
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
  uint32_t all = (1u << tt.nseg) - 1;
  // T-10: at most two fortune tellers per player.
  if (tt.center >= 0 && tents_[player] >= kMaxTents && tt.rot[0].seg[tt.center].kind == Kind::Tent)
    all &= ~(1u << tt.center);
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
  if (phase_ == Phase::Plague) {
    // Wheel of Fortune Plague: one of the deciding player's followers on the land.
    for (int i = 0; i < nfollowers_; ++i) {
      if (followers_[i].player != plague_player_) continue;
      const PlacedTile& P = placed_[owner_[followers_[i].slot]];
      Move m;
      m.kind = MoveKind::Plague;
      m.x = P.x;
      m.y = P.y;
      m.ret = int8_t(i);
      out.push_back(m);
    }
    return;
  }
  if (phase_ != Phase::Place) return;
  for (int c = 0; c < ndrawn_; ++c) {
    if (!offers_moves(c)) continue;
    if (chosen_ < 0 && game_->type(drawn_[c]).wheel) {
      // A wheel tile among several drawn: choosing it turns the wheel before it is placed.
      Move m;
      m.kind = MoveKind::Choose;
      m.choice = uint8_t(c);
      out.push_back(m);
    } else {
      moves_for_tile(c, out);
    }
  }
}

int State::own_followers(int8_t* out) const {
  int n = 0;
  for (int i = 0; i < nfollowers_; ++i)
    if (followers_[i].player == player_) out[n++] = int8_t(i);
  for (int c = 0; c < kMaxCrowns; ++c)
    if (crown_[c] == player_) out[n++] = int8_t(kCrownBase + c);
  return n;
}

uint32_t State::free_crown_mask() const {
  uint32_t mask = 0;
  if (game_->has_wheel())
    for (int c = 0; c < kMaxCrowns; ++c)
      if (crown_[c] < 0 && game_->crown_exists(c)) mask |= 1u << c;
  return mask;
}

bool State::offers_moves(int c) const {
  if (!(placeable_ >> c & 1)) return false;
  // Two drawn tiles of one type offer the same moves: only the first is listed.
  for (int e = 0; e < c; ++e)
    if ((placeable_ >> e & 1) && drawn_[e] == drawn_[c]) return false;
  return true;
}

int State::crowns_of(int p) const {
  int n = 0;
  for (int c = 0; c < kMaxCrowns; ++c) n += crown_[c] == p;
  return n;
}

void State::moves_for_tile(int choice, std::vector<Move>& out) const {
  const int t = drawn_[choice];
  const TileType& tt = game_->type(t);
  const bool deploy = supply_[player_] > 0;
  // Festival: the player's own followers that could be taken back instead.
  int8_t own[kMaxFollowers];
  const int nown = tt.festival ? own_followers(own) : 0;
  const uint8_t* fit = game_->fit_row(t);
  const uint32_t free_crowns = deploy ? free_crown_mask() : 0;
  for (int i = 0; i < nfrontier_; ++i) {
    const FrontierCell& fc = frontier_[i];
    uint8_t mask = fit[need_[i]];
    if (!mask) continue;
    Ports ports;
    if (deploy) cell_ports(fc, ports);
    while (mask) {
      const int r = __builtin_ctz(mask);
      mask &= mask - 1;
      Move m;
      m.x = fc.x;
      m.y = fc.y;
      m.rot = uint8_t(r);
      m.choice = uint8_t(choice);
      const uint32_t free = deploy ? free_from_ports(tt, r, ports, player_) : 0;
      // Fruit Trees: a tree tile gets one of the unused stacks (the player's choice).
      uint32_t types = 1;  // bit 0 stands for "no stack" on other tiles
      if (tt.tree) {
        types = 0;
        for (int f = 0; f < kFruitTypes; ++f)
          if (stack_tile_[f] < 0) types |= 1u << f;
      }
      for (; types; types &= types - 1) {
        m.fruit_type = tt.tree ? int8_t(__builtin_ctz(types)) : int8_t(-1);
        out.push_back(m);
        if (free) {
          const uint32_t trees = rules().fruit_trees ? trees_in_range(fc.x, fc.y, m.fruit_type) : 0;
          for (uint32_t f = free; f; f &= f - 1) {
            m.meeple = int8_t(__builtin_ctz(f));
            out.push_back(m);
            if (trees) add_fruit_actions(m, trees, out);
          }
          m.meeple = -1;
        }
        // Wheel of Fortune: a follower on a free crown space instead of on the tile.
        for (uint32_t c = free_crowns; c; c &= c - 1) {
          m.meeple = int8_t(kCrownBase + __builtin_ctz(c));
          out.push_back(m);
        }
        m.meeple = -1;
        for (int k = 0; k < nown; ++k) {
          m.ret = own[k];
          out.push_back(m);
        }
        m.ret = -1;
      }
    }
  }
}

uint32_t State::trees_in_range(int x, int y, int new_tree) const {
  uint32_t mask = new_tree >= 0 ? 1u << new_tree : 0;
  for (int k = 0; k < 8; ++k) {
    const uint16_t nb = cell_[cell_of(x + kDx8[k], y + kDy8[k])];
    if (nb < kFrontierBase && placed_[nb].fruit >= 0) mask |= 1u << placed_[nb].fruit;
  }
  return mask;
}

// Appends, after the plain deployment `m`, its fruit actions: harvest each tree in range that
// still has tokens, or sell each set of 1 to 4 held types.
void State::add_fruit_actions(Move m, uint32_t trees, std::vector<Move>& out) const {
  m.action = FruitAction::Harvest;
  for (uint32_t t = trees; t; t &= t - 1) {
    const int f = __builtin_ctz(t);
    if (taken_[f] < 4) {
      m.target = uint8_t(f);
      out.push_back(m);
    }
  }
  uint32_t held = 0;
  for (int f = 0; f < kFruitTypes; ++f)
    if (held_[player_][f]) held |= 1u << f;
  m.action = FruitAction::Sell;
  for (uint32_t set = 1; set < 64; ++set)
    if ((set & ~held) == 0 && __builtin_popcount(set) <= 4) {
      m.target = uint8_t(set);
      out.push_back(m);
    }
}

std::vector<int> State::fruit_stack(int f) const {
  return std::vector<int>(stack_[f].begin() + taken_[f], stack_[f].end());
}

void State::set_fruit_stacks(const std::array<std::array<uint8_t, 4>, kFruitTypes>& stacks) {
  stack_ = init_stacks_ = stacks;
}

bool State::force_fruit_top(int f, int value) {
  for (int i = taken_[f]; i < 4; ++i)
    if (stack_[f][i] == value) {
      std::swap(stack_[f][i], stack_[f][taken_[f]]);
      return true;
    }
  return false;
}

bool State::set_fruit_order(int f, const std::vector<int>& top_first) {
  if (f < 0 || f >= kFruitTypes) return false;
  std::vector<int> have = fruit_stack(f), want = top_first;
  std::sort(have.begin(), have.end());
  std::sort(want.begin(), want.end());
  if (have != want) return false;
  for (size_t i = 0; i < top_first.size(); ++i) stack_[f][size_t(taken_[f]) + i] = uint8_t(top_first[i]);
  return true;
}

void State::resample_hidden(Rng& rng) {
  rng_.reseed(rng.next());
  for (int f = 0; f < kFruitTypes; ++f) {
    // From a canonical (sorted) order, so the result does not depend on the old hidden order.
    std::sort(stack_[f].begin() + taken_[f], stack_[f].end());
    for (int i = 3; i > taken_[f]; --i) {
      const int j = taken_[f] + int(rng.below(uint32_t(i - taken_[f] + 1)));
      std::swap(stack_[f][i], stack_[f][j]);
    }
  }
}

int State::count_legal_moves() const {
  std::vector<Move> v;
  legal_moves(v);
  return int(v.size());
}

Move State::sample_move(Rng& rng) const {
  if (phase_ == Phase::Plague) {
    // Wheel of Fortune Plague: one of the deciding player's followers on the land, the k-th
    // in legal_moves() order (the same draw as legal_moves()[below(n)]).
    uint32_t n = 0;
    for (int i = 0; i < nfollowers_; ++i) n += followers_[i].player == plague_player_;
    uint32_t k = rng.below(n);
    Move m;
    m.kind = MoveKind::Plague;
    for (int i = 0; i < nfollowers_; ++i) {
      if (followers_[i].player != plague_player_ || k-- != 0) continue;
      const PlacedTile& P = placed_[owner_[followers_[i].slot]];
      m.x = P.x;
      m.y = P.y;
      m.ret = int8_t(i);
      break;
    }
    return m;
  }
  assert(phase_ == Phase::Place);
  const bool deploy = supply_[player_] > 0;
  // Wheel of Fortune: the free crown spaces (offered with every placement when deploying).
  const uint32_t crowns = deploy ? free_crown_mask() : 0;
  const uint32_t ncrowns = uint32_t(__builtin_popcount(crowns));
  int8_t own[kMaxFollowers];
  int nown = -1;  // computed when a festival tile needs it
  // Fruit-Bearing Trees: a follower deployed next to a tree may also harvest one of the trees
  // in range that still has tokens, or sell one of the sets of 1 to 4 held fruit types. The
  // sets are the same for every placement this turn; the trees depend on the cell (and on the
  // stack put on a new tree tile).
  const bool fruit = rules().fruit_trees && deploy;
  uint32_t held = 0, nsales = 0, harvestable = 0;
  uint32_t free_stacks = 0;  // fruit types whose stack is not on a tree yet
  int ntrees = 0;            // trees on the board and where they stand
  int16_t tree_x[kFruitTypes], tree_y[kFruitTypes];
  uint8_t tree_f[kFruitTypes];
  if (rules().fruit_trees) {
    for (int f = 0; f < kFruitTypes; ++f) {
      if (held_[player_][f]) held |= 1u << f;
      if (taken_[f] < 4) harvestable |= 1u << f;
      if (stack_tile_[f] < 0) {
        free_stacks |= 1u << f;
      } else {
        tree_x[ntrees] = placed_[stack_tile_[f]].x;
        tree_y[ntrees] = placed_[stack_tile_[f]].y;
        tree_f[ntrees++] = uint8_t(f);
      }
    }
    // Sets of 1 to 4 of the n held types: C(n,1) + ... + C(n,4).
    static constexpr uint8_t kSets[kFruitTypes + 1] = {0, 1, 3, 7, 15, 30, 56};
    nsales = kSets[__builtin_popcount(held)];
  }
  // The trees in range of a frontier cell (the 3x3 block around it).
  auto trees_near_cell = [&](int i) {
    uint32_t t = 0;
    for (int j = 0; j < ntrees; ++j)
      if (unsigned(tree_x[j] - frontier_[i].x + 1) <= 2 && unsigned(tree_y[j] - frontier_[i].y + 1) <= 2)
        t |= 1u << tree_f[j];
    return t;
  };
  // Fruit actions of a follower deployed with trees `trees` in range.
  auto actions = [&](uint32_t trees) { return trees ? uint32_t(__builtin_popcount(trees & harvestable)) + nsales : 0; };
  // The moves of each distinct placeable drawn tile (as legal_moves() lists them): a single
  // Choose for a wheel tile still to be chosen, otherwise its placements x options. Rejection
  // sampling over (placement, option) pairs, so that only the sampled placement's follower
  // spots are computed: every placement offers at most 1 + nseg * (1 + fruit actions) +
  // crowns + take-backs options (no follower, a follower on each segment with each of its
  // fruit actions, each free crown space, each own follower); a pair whose segment is taken
  // is rejected and the whole draw is made again. Uniform over all legal moves, like
  // legal_moves()[below(n)], but a different draw. Without the Fruit-Bearing Trees every
  // placement has the same number of options (`per`); with them, a frontier cell's weight
  // is the sum over its placements (rotations x free stacks for a tree tile).
  struct Group {
    uint8_t choice;
    bool choose;
    uint32_t per, weight;
  };
  Group groups[4];
  uint8_t counts[4][512];  // fitting rotations per frontier cell, per group
  uint32_t cell_weight[4][512];  // Fruit-Bearing Trees: options of all placements of a cell, per group
  int ng = 0;
  uint32_t total = 0;
  for (int c = 0; c < ndrawn_; ++c) {
    if (!offers_moves(c)) continue;
    const TileType& tt = game_->type(drawn_[c]);
    Group& g = groups[ng++];
    g.choice = uint8_t(c);
    g.choose = chosen_ < 0 && tt.wheel;
    if (g.choose) {
      g.per = g.weight = 1;
    } else {
      if (tt.festival && nown < 0) nown = own_followers(own);
      const uint32_t take_backs = tt.festival ? uint32_t(nown) : 0;
      const uint32_t segs = deploy ? uint32_t(tt.nseg) : 0;
      g.per = 1 + segs + ncrowns + take_backs;
      const uint8_t* fit = game_->fit_row(drawn_[c]);
      uint8_t* cnt = counts[ng - 1];
      if (!rules().fruit_trees) {
        uint32_t placements = 0;
        for (int i = 0; i < nfrontier_; ++i) {
          cnt[i] = uint8_t(__builtin_popcount(fit[need_[i]]));
          placements += cnt[i];
        }
        g.weight = placements * g.per;
      } else {
        uint32_t* cw = cell_weight[ng - 1];
        g.weight = 0;
        for (int i = 0; i < nfrontier_; ++i) {
          cnt[i] = uint8_t(__builtin_popcount(fit[need_[i]]));
          cw[i] = 0;
          if (!cnt[i]) continue;
          const uint32_t trees = fruit && ntrees ? trees_near_cell(i) : 0;
          uint32_t w = 0;
          if (!tt.tree) {
            w = 1 + segs * (1 + actions(trees)) + ncrowns + take_backs;
          } else {
            for (uint32_t f = free_stacks; f; f &= f - 1)
              w += 1 + segs * (1 + actions(trees | (f & -f))) + ncrowns + take_backs;
          }
          cw[i] = cnt[i] * w;
          g.weight += cw[i];
        }
      }
    }
    total += g.weight;
  }
  for (;;) {
    uint32_t k = rng.below(total);
    int gi = 0;
    while (k >= groups[gi].weight) k -= groups[gi++].weight;
    const Group& g = groups[gi];
    Move m;
    m.choice = g.choice;
    if (g.choose) {
      m.kind = MoveKind::Choose;
      return m;
    }
    const TileType& tt = game_->type(drawn_[g.choice]);
    const uint8_t* fit = game_->fit_row(drawn_[g.choice]);
    const uint8_t* cnt = counts[gi];
    int i = 0;
    uint32_t idx, sub, trees = 0;
    if (!rules().fruit_trees) {
      idx = k / g.per;
      sub = k % g.per;
      while (idx >= cnt[i]) idx -= cnt[i++];
    } else {
      const uint32_t* cw = cell_weight[gi];
      while (k >= cw[i]) k -= cw[i++];
      const uint32_t w = cw[i] / cnt[i];
      idx = k / w;
      sub = k % w;
      trees = fruit && ntrees ? trees_near_cell(i) : 0;
      if (tt.tree) {
        // The stack: each free fruit type's placement has its own number of options.
        const uint32_t segs = deploy ? uint32_t(tt.nseg) : 0;
        const uint32_t take_backs = g.per - 1 - segs - ncrowns;
        for (uint32_t f = free_stacks;; f &= f - 1) {
          const uint32_t with = trees | (f & -f);
          const uint32_t n = 1 + segs * (1 + actions(with)) + ncrowns + take_backs;
          if (sub < n) {
            m.fruit_type = int8_t(__builtin_ctz(f));
            trees = fruit ? with : 0;
            break;
          }
          sub -= n;
        }
      }
    }
    uint8_t mask = fit[need_[i]];
    for (; idx; --idx) mask &= mask - 1;
    m.x = frontier_[i].x;
    m.y = frontier_[i].y;
    m.rot = uint8_t(__builtin_ctz(mask));
    if (sub-- == 0) return m;
    const uint32_t segs = deploy ? uint32_t(tt.nseg) : 0;
    const uint32_t per_seg = 1 + actions(trees);
    if (sub < segs * per_seg) {
      const uint32_t seg = sub / per_seg, a = sub % per_seg;
      Ports ports;
      cell_ports(frontier_[i], ports);
      if (!(free_from_ports(tt, m.rot, ports, player_) >> seg & 1)) continue;  // taken: draw again
      m.meeple = int8_t(seg);
      if (a == 0) return m;
      const uint32_t h = uint32_t(__builtin_popcount(trees & harvestable));
      if (a - 1 < h) {
        uint32_t t = trees & harvestable;
        for (uint32_t j = a - 1; j; --j) t &= t - 1;
        m.action = FruitAction::Harvest;
        m.target = uint8_t(__builtin_ctz(t));
      } else {
        // The (a - 1 - h)-th set of 1 to 4 held types, in increasing order of the bit mask.
        uint32_t j = a - 1 - h, set = 0;
        for (set = 1;; ++set)
          if ((set & ~held) == 0 && __builtin_popcount(set) <= 4 && j-- == 0) break;
        m.action = FruitAction::Sell;
        m.target = uint8_t(set);
      }
      return m;
    }
    sub -= segs * per_seg;
    if (sub < ncrowns) {
      uint32_t c = crowns;
      for (; sub; --sub) c &= c - 1;
      m.meeple = int8_t(kCrownBase + __builtin_ctz(c));
      return m;
    }
    m.ret = own[sub - ncrowns];
    return m;
  }
}

std::string State::check_move(const Move& m) const {
  if (phase_ == Phase::Plague) {
    const std::string who = "player " + std::to_string(plague_player_);
    if (m.kind != MoveKind::Plague) return who + " must first take back a follower from the land (Plague)";
    if (m.ret < 0 || m.ret >= nfollowers_ || followers_[m.ret].player != plague_player_)
      return "that follower is not one of " + who + "'s on the land (crown spaces are immune)";
    const PlacedTile& P = placed_[owner_[followers_[m.ret].slot]];
    if (m.x != P.x || m.y != P.y)
      return "that follower stands at (" + std::to_string(P.x) + "," + std::to_string(P.y) + "), not at (" +
             std::to_string(m.x) + "," + std::to_string(m.y) + ")";
    return "";
  }
  if (m.kind == MoveKind::Plague) return "no Plague decision is pending";
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
  if (m.kind == MoveKind::Choose) {
    if (chosen_ >= 0) return "the tile to play is already chosen";
    if (!tt.wheel) return "tile " + tt.id + " has no wheel number: place it directly";
    Move bare;
    bare.kind = MoveKind::Choose;
    bare.choice = m.choice;
    if (!(m == bare)) return "a Choose move names only the drawn tile (no place, follower or fruit)";
    return "";
  }
  if (chosen_ < 0 && tt.wheel)
    return "tile " + tt.id + " is a wheel tile: choose it first (the wheel turns before it is placed)";
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
  if (m.meeple >= 0 && m.ret >= 0) return "cannot both deploy and take back a follower";
  if (m.crown()) {
    const int c = m.meeple - kCrownBase;
    if (!game_->crown_exists(c)) return "no such crown space";
    if (supply_[player_] == 0) return "player " + std::to_string(player_) + " has no follower left";
    if (crown_[c] >= 0) return game_->crown_name(c) + " is already occupied";
  } else if (m.meeple >= 0) {
    if (m.meeple >= tt.nseg) return "no such follower location";
    if (supply_[player_] == 0) return "player " + std::to_string(player_) + " has no follower left";
    const uint32_t free = free_segments(t, c, m.rot, player_);
    if (!(free >> m.meeple & 1)) {
      if (rt.seg[m.meeple].kind == Kind::Tent && tents_[player_] >= kMaxTents)
        return "player " + std::to_string(player_) + " already has " + std::to_string(kMaxTents) + " fortune tellers";
      return std::string("the ") + kind_name(rt.seg[m.meeple].kind) + " at " + tt.location_name(m.meeple, m.rot) +
             " is already occupied";
    }
  }
  if (tt.tree) {
    if (m.fruit_type < 0 || m.fruit_type >= kFruitTypes) return "a tree tile needs a fruit stack (fruit_type)";
    if (stack_tile_[m.fruit_type] >= 0)
      return std::string("the ") + kFruitNames[m.fruit_type] + " stack is already on a tree";
  } else if (m.fruit_type >= 0) {
    return "tile " + tt.id + " has no tree for a fruit stack";
  }
  if (m.action == FruitAction::None && m.target != 0) return "a fruit target without a fruit action";
  if (m.action != FruitAction::None) {
    if (!rules().fruit_trees) return "fruit actions need the Fruit-Bearing Trees";
    if (m.meeple < 0 || m.crown()) return "a fruit action needs a follower deployed on the placed tile";
    const uint32_t trees = trees_in_range(m.x, m.y, tt.tree ? m.fruit_type : -1);
    if (m.action == FruitAction::Harvest) {
      if (m.target >= kFruitTypes || !(trees >> m.target & 1)) return "no such tree next to the placed tile";
      if (taken_[m.target] >= 4) return std::string("the ") + kFruitNames[m.target] + " tree has no fruit left";
    } else {
      if (!trees) return "no tree next to the placed tile";
      if (m.target == 0 || m.target >= 64 || __builtin_popcount(m.target) > 4) return "a sale is 1 to 4 fruit types";
      for (int f = 0; f < kFruitTypes; ++f)
        if ((m.target >> f & 1) && !held_[player_][f])
          return std::string("player ") + std::to_string(player_) + " holds no " + kFruitNames[f] + " token to sell";
    }
  }
  if (m.ret >= 0) {
    if (!tt.festival) return "only a festival tile lets a player take a follower back";
    if (m.ret >= kCrownBase) {
      const int c = m.ret - kCrownBase;
      if (c >= kMaxCrowns || crown_[c] != player_) return "the player has no follower on that crown space";
    } else if (m.ret >= nfollowers_ || followers_[m.ret].player != player_) {
      return "that follower is not one of the player's own on the board";
    }
  }
  return "";
}

// ---------------------------------------------------------------------------------------
// Applying a move and scoring

void State::apply(const Move& m) {
  if (m.kind != MoveKind::Place) {
    apply_wheel_move(m);
    return;
  }
  assert(phase_ == Phase::Place);
  const int t = drawn_[m.choice];
  // The chosen tile is placed; other drawn tiles go back into the bag (Fortune Teller).
  for (int i = 0, base = int(draws_.size()) - ndrawn_; i < ndrawn_; ++i) {
    draws_[base + i].fate = i == m.choice ? Fate::Placed : Fate::Returned;
    if (i != m.choice) add_to_bag(drawn_[i]);
  }
  ndrawn_ = 0;
  ++turn_;
  place_tile(t, m.x, m.y, m.rot);
  const PlacedTile& P = placed_[nplaced_ - 1];
  history_.push_back(TurnLog{m, m.ret >= 0 && m.ret < kCrownBase ? followers_[m.ret].slot : kNoSlot});
  if (nplague_) {
    history_.back().nplague = nplague_;
    history_.back().plague = plague_log_;
    history_.back().plague_player = plague_who_;
    nplague_ = 0;
  }
  chosen_ = -1;
  // Festival take-back, before scoring (F-3); from a crown space too (F-4).
  if (m.ret >= kCrownBase) {
    crown_[m.ret - kCrownBase] = -1;
    ++supply_[player_];
  } else if (m.ret >= 0) {
    remove_follower(m.ret);
  }
  if (m.crown()) {
    crown_[m.meeple - kCrownBase] = int8_t(player_);
    --supply_[player_];
  } else if (m.meeple >= 0) {
    add_follower(player_, uint16_t(P.slot_base + m.meeple));
  }
  if (m.fruit_type >= 0) {
    placed_[nplaced_ - 1].fruit = m.fruit_type;
    stack_tile_[m.fruit_type] = int8_t(nplaced_ - 1);
  }
  // Fruit action (R-12: after the follower, before feature scoring).
  if (m.action == FruitAction::Harvest) {
    const int f = m.target;
    const int value = stack_[f][taken_[f]++];
    ++held_[player_][f];
    history_.back().harvested = uint8_t(value);
    emit(player_, value, "fruit", false, P.slot_base);
  } else if (m.action == FruitAction::Sell) {
    for (int f = 0; f < kFruitTypes; ++f)
      if (m.target >> f & 1) {
        --held_[player_][f];
        ++sold_[f];
      }
    emit(player_, kFruitSalePoints[size_t(__builtin_popcount(m.target))], "fruit", false, P.slot_base);
  }

  // Score what this tile completed: roads, cities, then monasteries and tents (B-10).
  const TileType& tt = game_->type(t);
  uint16_t done[16];
  int nd = 0;
  for (int i = 0; i < tt.nseg; ++i) {
    const Kind k = tt.rot[0].seg[i].kind;
    if (k != Kind::Road && k != Kind::City) continue;
    const uint16_t r = label_[P.slot_base + i];
    if (feat_[r].open == 0 && !feat_[r].done && std::find(done, done + nd, r) == done + nd) done[nd++] = r;
  }
  for (int k = 0; k < 9; ++k) {
    const int dx = k == 8 ? 0 : kDx8[k], dy = k == 8 ? 0 : kDy8[k];
    const uint16_t nb = cell_[cell_of(P.x + dx, P.y + dy)];
    if (nb >= kFrontierBase) continue;
    const uint16_t cs = placed_[nb].center_slot;
    if (cs != kNoSlot && feat_[cs].open == 0 && !feat_[cs].done) done[nd++] = cs;
  }
  if (nd > 1)
    std::sort(done, done + nd, [&](uint16_t a, uint16_t b) {
      return std::make_pair(int(feat_[a].kind), a) < std::make_pair(int(feat_[b].kind), b);
    });
  for (int i = 0; i < nd; ++i) score_feature(done[i], false);
  end_turn();
}

// ---------------------------------------------------------------------------------------
// Wheel of Fortune

void State::apply_wheel_move(const Move& m) {
  if (m.kind == MoveKind::Choose) {
    chosen_ = int8_t(m.choice);
    placeable_ = uint8_t(1u << m.choice);  // only the chosen tile is placed now
    start_wheel(drawn_[m.choice]);
    return;
  }
  assert(phase_ == Phase::Plague && m.kind == MoveKind::Plague);
  const Follower fo = followers_[m.ret];
  plague_who_[nplague_] = fo.player;
  plague_log_[nplague_++] = fo.slot;
  if (log_.p) {
    const PlacedTile& P = placed_[owner_[fo.slot]];
    ScoreEvent e{turn_ + 1, fo.player, 0, "plague", false, P.x, P.y, -1, -1, 0, {}, {}};
    e.segment = pig_;
    e.at = game_->type(P.type).location_name(fo.slot - P.slot_base, P.rot);
    log_.p->push_back(std::move(e));
  }
  remove_follower(m.ret);
  ++plague_step_;
  next_plague();
}

void State::start_wheel(int type) {
  const int n = game_->type(type).wheel;
  const auto& wheel = game_->wheel();
  if (!n || wheel.empty()) return;
  const int from = pig_;
  pig_ = uint8_t((pig_ + n) % wheel.size());
  const int turn = turn_ + 1, seg = pig_;
  const uint16_t board = placed_[0].slot_base;  // scoring events of the wheel name the board
  if (log_.p) {
    ScoreEvent e{turn, player_, 0, "pig", false, placed_[0].x, placed_[0].y, -1, -1, 0, {}, {}};
    e.segment = seg;
    e.from = from;
    e.steps = n;
    e.tile = game_->type(type).id;
    log_.p->push_back(std::move(e));
  }
  switch (wheel[pig_].event) {
    case WheelEvent::Fortuna: emit(player_, 3, "fortuna", false, board, turn, seg); break;
    case WheelEvent::Taxes: {
      // Per knight: the city's pennants + the owner's knights in that city (W-12).
      uint16_t roots[kMaxFollowers];
      int nr = 0;
      for (int i = 0; i < nfollowers_; ++i) {
        const uint16_t r = label_[followers_[i].slot];
        if (feat_[r].kind == Kind::City && std::find(roots, roots + nr, r) == roots + nr) roots[nr++] = r;
      }
      for (int i = 0; i < nr; ++i) {
        const Feature& f = feat_[roots[i]];
        for (int p = 0; p < nplayers_; ++p)
          if (f.count[p]) emit(p, f.count[p] * (f.pennants + f.count[p]), "taxes", false, roots[i], turn, seg);
      }
      break;
    }
    case WheelEvent::Famine:
      // Per farmer, no majority: 1 per completed city next to its field (W-13).
      for (int i = 0; i < nfollowers_; ++i) {
        const uint16_t r = label_[followers_[i].slot];
        if (feat_[r].kind == Kind::Field) emit(followers_[i].player, field_value(r) / 3, "famine", false, r, turn, seg);
      }
      break;
    case WheelEvent::Storm:
      // 1 per follower in the supply (not on the land, not on crown spaces: W-11).
      for (int p = 0; p < nplayers_; ++p) emit(p, supply_[p], "storm", false, board, turn, seg);
      break;
    case WheelEvent::Inquisition:
      for (int i = 0; i < nfollowers_; ++i) {
        const uint16_t r = label_[followers_[i].slot];
        if (feat_[r].kind == Kind::Monastery) emit(followers_[i].player, 2, "inquisition", false, r, turn, seg);
      }
      break;
    case WheelEvent::Plague:
      // Every player with a follower on the land takes one back, the active player first
      // (W-14); the crown spaces are scored when the last has chosen.
      plague_step_ = 0;
      next_plague();
      return;
  }
  score_crowns();
}

void State::next_plague() {
  for (; plague_step_ < nplayers_; ++plague_step_) {
    const int p = (player_ + plague_step_) % nplayers_;
    for (int i = 0; i < nfollowers_; ++i)
      if (followers_[i].player == p) {
        phase_ = Phase::Plague;
        plague_player_ = uint8_t(p);
        return;
      }
  }
  phase_ = Phase::Place;
  score_crowns();
}

void State::score_crowns() {
  // Only the pig's segment: 3 on a one-space segment; 6 alone on a two-space segment, 3 each
  // when both are taken. Those followers go back to their owners.
  const int seg = pig_, n = game_->wheel()[seg].crowns;
  int occupied[kMaxCrownsPerSegment], k = 0;
  for (int i = 0; i < n; ++i)
    if (crown_[seg * kMaxCrownsPerSegment + i] >= 0) occupied[k++] = seg * kMaxCrownsPerSegment + i;
  const int points = n == 1 ? 3 : k == 1 ? 6 : 3;
  for (int i = 0; i < k; ++i) {
    const int p = crown_[occupied[i]];
    emit(p, points, "crown", false, placed_[0].slot_base, turn_ + 1, seg);
    crown_[occupied[i]] = -1;
    ++supply_[p];
  }
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
    case Kind::Tent: {
      // Fortune Teller: the player who completed the tent scores 3 (T-3: even when nobody is
      // on it, unless the option says otherwise); nothing at the end of the game.
      if (!final_scoring && (f.total > 0 || rules().tent_scores_unoccupied)) emit(player_, 3, "tent", false, root);
      points = 0;
      break;
    }
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
  // Fruit Trees: every token still held is worth 1 point.
  for (int p = 0; p < nplayers_; ++p) {
    int tokens = 0;
    for (int f = 0; f < kFruitTypes; ++f) tokens += held_[p][f];
    if (tokens && nplaced_) emit(p, tokens, "fruit", true, placed_[0].slot_base);
  }
}

// ---------------------------------------------------------------------------------------
// Checks

bool State::operator==(const State& o) const {
  if (game_ != o.game_ || phase_ != o.phase_ || player_ != o.player_ || turn_ != o.turn_ ||
      stack_ != o.stack_ || taken_ != o.taken_ || sold_ != o.sold_ || stack_tile_ != o.stack_tile_ ||
      held_ != o.held_ || ndrawn_ != o.ndrawn_ || drawn_ != o.drawn_ || placeable_ != o.placeable_ || tents_ != o.tents_ ||
      bag_total_ != o.bag_total_ || bag_ != o.bag_ || scores_ != o.scores_ ||
      supply_ != o.supply_ || !(rng_ == o.rng_) || nplaced_ != o.nplaced_ || nslots_ != o.nslots_ ||
      nfollowers_ != o.nfollowers_ || nfrontier_ != o.nfrontier_ || final_done_ != o.final_done_ ||
      pig_ != o.pig_ || crown_ != o.crown_ || plague_player_ != o.plague_player_ || plague_step_ != o.plague_step_ ||
      nplague_ != o.nplague_ || chosen_ != o.chosen_ ||
      !std::equal(plague_log_.begin(), plague_log_.begin() + nplague_, o.plague_log_.begin()))
    return false;
  for (int i = 0; i < nplaced_; ++i) {
    const PlacedTile &a = placed_[i], &b = o.placed_[i];
    if (a.x != b.x || a.y != b.y || a.type != b.type || a.rot != b.rot) return false;
  }
  for (int s = 0; s < nslots_; ++s) {
    if (label_[s] != o.label_[s]) return false;
    if (label_[s] == s && std::memcmp(&feat_[s], &o.feat_[s], sizeof(Feature)) != 0) return false;
  }
  for (int i = 0; i < nfollowers_; ++i)
    if (followers_[i].player != o.followers_[i].player || followers_[i].slot != o.followers_[i].slot) return false;
  for (int i = 0; i < nfrontier_; ++i)
    if (frontier_[i].cell != o.frontier_[i].cell || need_[i] != o.need_[i])
      return false;
  if (draws_.size() != o.draws_.size() || history_.size() != o.history_.size()) return false;
  for (size_t i = 0; i < history_.size(); ++i)
    if (!(history_[i].move == o.history_[i].move) || history_[i].ret_slot != o.history_[i].ret_slot ||
        history_[i].nplague != o.history_[i].nplague || history_[i].plague != o.history_[i].plague)
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
    on_board += crowns_of(p);
    if (on_board + supply_[p] != kFollowersPerPlayer) return "followers of player " + std::to_string(p) + " not conserved";
  }
  return "";
}

}  // namespace carc
