#include "game.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace carc {

Game::Game(const Rules& rules) : rules_(rules), modules_(rules.modules()) {
  if (auto err = rules.validate(); !err.empty()) throw std::invalid_argument(err);
  auto add_set = [&](const std::string& name) {
    const TileSetFile& f = load_tile_set(name);
    for (const TileType& t : f.tiles) {
      if (type_index(t.id) >= 0) throw TileDataError("tile id " + t.id + " appears in two tile sets");
      types_.push_back(t);
    }
    return &f;
  };
  const TileSetFile* main = add_set(rules.tileset);
  // The expansions' tiles, in the table's order (kModules): tile type indices follow it.
  for_each_module(ModuleKind::Expansion, [&](const ModuleInfo& m) {
    if (rules.has(Expansion(m.bit))) add_set(std::string(m.tiles));
  });
  if (types_.size() > size_t(kMaxTileTypes)) throw TileDataError("too many tile types");
  for (auto& t : types_) {
    counts_.push_back(uint8_t(t.count));
    total_ += t.count;
  }
  if (main->start) {
    start_type_ = type_index(main->start->first);
    start_rot_ = main->start->second;
    --counts_[start_type_];
    --total_;
  }
  const size_t bag_types = types_.size();  // the board's own cells below are never drawn
  if (!main->board.empty()) {
    const BoardFile& b = load_board(main->board);
    for (const BoardCell& c : b.cells) {
      board_cells_.push_back(SetupCell{int(types_.size()), c.x, c.y});
      types_.push_back(c.tile);
      counts_.push_back(0);
    }
    init_parts(b);
    if (types_.size() > size_t(kMaxTileTypes)) throw TileDataError("too many tile types");
  }
  plain_moves_ = rules.expansion_set == 0 && parts_plain(types_);
  fit_.assign(types_.size() * 256, 0);
  fit_all_.assign(types_.size() * 256, 0);
  for (size_t t = 0; t < types_.size(); ++t)
    for (int p = 0; p < 256; ++p) {
      uint8_t mask = 0;
      for (int r = 0; r < 4; ++r) {
        bool ok = true;
        for (int d = 0; d < 4 && ok; ++d) {
          int need = (p >> (2 * d)) & 3;
          ok = need == 0 || need == int(types_[t].rot[r].edge(d));
        }
        if (ok) mask |= uint8_t(1 << r);
      }
      // A pattern of all zeros has no neighbour: never a legal place.
      if (p == 0) mask = 0;
      fit_all_[t * 256 + p] = mask;
      fit_[t * 256 + p] = mask & types_[t].distinct_rotations;
    }
  // Placement counts only for the types that can be drawn (not the Wheel of Fortune's board cells).
  fit_count_types_ = int(bag_types);
  fit_count_words_ = 2 * int((bag_types + 7) / 8);  // even: State::refit adds two at a time
  fit_count_.assign(size_t(fit_count_words_) * 256, 0);
  for (size_t t = 0; t < bag_types; ++t)
    for (int p = 0; p < 256; ++p)
      fit_count_[size_t(p) * size_t(fit_count_words_) + t / 4] |= uint64_t(__builtin_popcount(fit_[t * 256 + p]))
                                                                    << (16 * (t % 4));
  std::vector<uint16_t> order(bag_types);
  for (size_t t = 0; t < bag_types; ++t) order[t] = uint16_t(t);
  std::stable_sort(order.begin(), order.end(), [&](uint16_t a, uint16_t b) { return counts_[a] > counts_[b]; });
  fit_types_.clear();
  for (int p = 0; p < 256; ++p) {
    fit_types_at_[size_t(p)] = uint32_t(fit_types_.size());
    for (uint16_t t : order)
      if (fit_[size_t(t) * 256 + size_t(p)]) fit_types_.push_back(t);
  }
  fit_types_at_[256] = uint32_t(fit_types_.size());
  build_place_templates();
}

void Game::build_place_templates() {
  static_assert(kMaxSegments <= 16, "feature templates are padded to 16 segments");
  constexpr uint16_t kNone = 0xFFFF;
  place_.assign(types_.size() * 4, PlaceTemplate{});
  feat_tmpl_.assign(types_.size() * 16, Feature{});
  shared_.assign(types_.size() * 16, 0);
  edge_segs_.assign(types_.size(), 0);
  for (size_t t = 0; t < types_.size(); ++t) {
    const TileType& tt = types_[t];
    for (int i = 0; i < tt.nseg; ++i) {
      const Segment& s = tt.rot[0].seg[i];
      Feature& f = feat_tmpl_[t * 16 + size_t(i)];
      f.kind = s.kind;
      f.pennants = s.pennants;
      f.tiles = 1;
      f.size = 1;
      if (s.kind == Kind::Road || s.kind == Kind::City) {
        f.open = uint16_t(__builtin_popcount(s.edges));
        edge_segs_[t] |= uint16_t(1u << i);
        if (tt.kind_count[int(s.kind)] >= 2) shared_[t * 16 + size_t(i)] = kSharedBit;
      }
    }
    for (int r = 0; r < 4; ++r) {
      const RotatedTile& rt = tt.rot[r];
      PlaceTemplate& pt = place_[t * 4 + size_t(r)];
      auto lane = [&](int l, int seg) {
        pt.value[l] = seg >= 0 ? uint16_t(seg) : kNone;
        pt.mask[l] = seg >= 0 ? kNone : 0;
      };
      for (int d = 0; d < 4; ++d) lane(d, rt.edge_seg[d]);
      for (int h = 0; h < 8; ++h) lane(4 + h, rt.half_seg[h]);
      lane(12, tt.center);
      lane(13, -1);  // fruit -1 and the pad byte
      lane(14, -1);  // x, y: written by place_tile
      lane(15, -1);
      for (int d = 0; d < 4; ++d) {
        const int od = opposite(d);
        pt.need[d] = uint8_t(int(rt.edge(d)) << (2 * od));
        uint16_t ports = 0;
        if (rt.edge_seg[d] >= 0) ports |= uint16_t(1u << od);
        for (int h = 2 * od; h < 2 * od + 2; ++h)
          if (rt.half_seg[opposite_half(h)] >= 0) ports |= uint16_t(1u << (4 + h));
        pt.ports[d] = ports;
      }
    }
  }
}

int Game::type_index(std::string_view id) const {
  for (size_t i = 0; i < types_.size(); ++i)
    if (types_[i].id == id) return int(i);
  return -1;
}

const Game* Game::get(const Rules& rules) {
  static std::mutex mu;
  static std::vector<std::unique_ptr<Game>> games;
  std::lock_guard<std::mutex> lock(mu);
  for (auto& g : games)
    if (g->rules() == rules) return g.get();
  games.emplace_back(new Game(rules));
  return games.back().get();
}

}  // namespace carc
