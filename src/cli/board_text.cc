#include "board_text.h"

#include <algorithm>
#include <climits>
#include <map>

namespace carc {

namespace {

constexpr int kW = 7, kH = 3;

// Character position of a location on a 7x3 tile.
void edge_pos(int d, int& cx, int& cy) {
  static constexpr int x[4] = {3, 6, 3, 0}, y[4] = {0, 1, 2, 1};
  cx = x[d];
  cy = y[d];
}
void half_pos(int h, int& cx, int& cy) {
  static constexpr int x[8] = {1, 5, 6, 6, 5, 1, 0, 0}, y[8] = {0, 0, 0, 2, 2, 2, 2, 0};
  cx = x[h];
  cy = y[h];
}

using Block = std::array<std::array<char, kW>, kH>;

Block draw_tile(const TileType& t, int rot) {
  Block b;
  const RotatedTile& rt = t.rot[rot];
  // A cell of the Wheel of Fortune's wheel (wheel sides all round): left blank, the wheel's
  // segments are written over it (board_text).
  for (auto& row : b) row.fill(rt.closed_sides == 0xF ? ' ' : '.');
  for (int i = 0; i < t.nseg; ++i) {
    const Segment& s = rt.seg[i];
    if (s.kind == Kind::City) {
      for (int d = 0; d < 4; ++d) {
        if (!(s.edges >> d & 1)) continue;
        if (d == kNorth || d == kSouth) {
          int y = d == kNorth ? 0 : 2;
          for (int x = 1; x < kW - 1; ++x) b[y][x] = '#';
        } else {
          int x = d == kEast ? kW - 1 : 0;
          for (int y = 0; y < kH; ++y) b[y][x] = '#';
          b[1][d == kEast ? kW - 2 : 1] = '#';
        }
      }
      if (__builtin_popcount(s.edges) >= 2) {
        for (int x = 2; x <= 4; ++x) b[1][x] = '#';
        // A corner city also fills the corner between its two edges.
        if ((s.edges & 1) && (s.edges & 8)) b[0][0] = '#';
        if ((s.edges & 1) && (s.edges & 2)) b[0][kW - 1] = '#';
        if ((s.edges & 4) && (s.edges & 2)) b[2][kW - 1] = '#';
        if ((s.edges & 4) && (s.edges & 8)) b[2][0] = '#';
      }
      if (s.pennants) {
        for (int d = 0; d < 4; ++d)
          if (s.edges >> d & 1) {
            int cx, cy;
            edge_pos(d, cx, cy);
            b[cy][cx == 0 ? 1 : cx == kW - 1 ? kW - 2 : cx + 1] = '^';
            break;
          }
      }
    }
  }
  bool through = false, ends = false;
  char through_char = '+';
  for (int i = 0; i < t.nseg; ++i) {
    const Segment& s = rt.seg[i];
    if (s.kind != Kind::Road) continue;
    if (__builtin_popcount(s.edges) >= 2) {
      through = true;
      through_char = s.edges == 0b0101 ? '|' : s.edges == 0b1010 ? '-' : '+';
    }
    else ends = true;
    for (int d = 0; d < 4; ++d) {
      if (!(s.edges >> d & 1)) continue;
      if (d == kNorth) b[0][3] = '|';
      if (d == kSouth) b[2][3] = '|';
      if (d == kEast) b[1][4] = b[1][5] = b[1][6] = '-';
      if (d == kWest) b[1][0] = b[1][1] = b[1][2] = '-';
    }
  }
  if (ends) b[1][3] = '*';
  else if (through) b[1][3] = through_char;
  if (t.center >= 0) b[1][3] = rt.seg[t.center].kind == Kind::Monastery ? 'M' : 'T';
  if (t.festival) b[2][0] = b[2][0] == '.' ? 'f' : b[2][0];
  if (t.tree) b[0][0] = b[0][0] == '.' ? 'Y' : b[0][0];
  if (t.wheel) b[0][kW - 1] = char('0' + t.wheel);
  return b;
}

void location_pos(const TileType& t, int seg, int rot, int& cx, int& cy) {
  const Segment& s = t.rot[rot].seg[seg];
  cx = 4;  // beside the monastery or tent symbol
  cy = 1;
  if (s.kind == Kind::Road || s.kind == Kind::City) {
    for (int d = 0; d < 4; ++d)
      if (s.edges >> d & 1) {
        edge_pos(d, cx, cy);
        if (d == kNorth || d == kSouth) cx = 2;  // beside the road line
        return;
      }
  } else if (s.kind == Kind::Field) {
    for (int h = 0; h < 8; ++h)
      if (s.halves >> h & 1) {
        half_pos(h, cx, cy);
        return;
      }
    cx = 2;
  }
}

const char* kColors[6] = {"\033[1;31m", "\033[1;34m", "\033[1;32m", "\033[1;33m", "\033[1;35m", "\033[1;36m"};

}  // namespace

std::string tile_text(const TileType& t, int rot) {
  Block b = draw_tile(t, rot);
  std::string out;
  for (auto& row : b) out += std::string(row.begin(), row.end()) + "\n";
  return out;
}

std::string board_text(const State& s, const BoardTextOptions& opt) {
  int minx = INT_MAX, maxx = INT_MIN, miny = INT_MAX, maxy = INT_MIN;
  auto extend = [&](int x, int y) {
    minx = std::min(minx, x), maxx = std::max(maxx, x), miny = std::min(miny, y), maxy = std::max(maxy, y);
  };
  for (int i = 0; i < s.num_placed(); ++i) extend(s.placed(i).x, s.placed(i).y);
  for (auto& m : opt.marks) extend(m.first, m.second);
  const int cols = (maxx - minx + 1) * kW, rows = (maxy - miny + 1) * kH;
  std::vector<std::string> grid(rows, std::string(cols, ' '));
  std::vector<std::vector<int>> owner(rows, std::vector<int>(cols, -1));
  for (int i = 0; i < s.num_placed(); ++i) {
    const PlacedTile& P = s.placed(i);
    Block b = draw_tile(s.game().type(P.type), P.rot);
    for (int y = 0; y < kH; ++y)
      for (int x = 0; x < kW; ++x) grid[(P.y - miny) * kH + y][(P.x - minx) * kW + x] = b[y][x];
  }
  for (int i = 0; i < s.num_followers(); ++i) {
    const Follower& f = s.followers()[i];
    const PlacedTile& P = s.placed(s.slot_tile(f.slot));
    int cx, cy;
    location_pos(s.game().type(P.type), s.slot_segment(f.slot), P.rot, cx, cy);
    const int gy = (P.y - miny) * kH + cy, gx = (P.x - minx) * kW + cx;
    grid[gy][gx] = char('1' + f.player);
    owner[gy][gx] = f.player;
  }
  if (s.game().has_wheel() && !s.game().board_cells().empty()) {
    // The wheel in the middle of its board (its rim's cities and roads are drawn as tiles): one
    // line per segment, clockwise from the top, '*' at the pig, then the crown spaces (the seat
    // number on each, or '-'), centred on the board.
    int bx0 = INT_MAX, bx1 = INT_MIN, by0 = INT_MAX, by1 = INT_MIN;
    for (const auto& c : s.game().board_cells())
      bx0 = std::min(bx0, c.x), bx1 = std::max(bx1, c.x), by0 = std::min(by0, c.y), by1 = std::max(by1, c.y);
    const auto& w = s.game().wheel();
    std::vector<std::string> lines;
    for (int seg = 0; seg < int(w.size()); ++seg) {
      std::string name = kWheelEventNames[int(w[seg].event)];
      if (name.size() > 8) name = name.substr(0, 7) + ".";
      std::string l = std::string(seg == s.mod<WheelBlock>().pig_segment() ? "*" : " ") + name + std::string(8 - name.size(), ' ') + "[";
      for (int k = 0; k < w[seg].crowns; ++k) {
        const int p = s.mod<WheelBlock>().crown_player(s.game().crown_at(seg, k));
        l += std::string(k ? " " : "") + (p < 0 ? "-" : std::to_string(p + 1));
      }
      lines.push_back(l + "]");
    }
    const int cx = ((bx0 + bx1 + 1) * kW) / 2 - minx * kW, cy = ((by0 + by1 + 1) * kH) / 2 - miny * kH;
    for (int l = 0; l < int(lines.size()); ++l) {
      const int gy = cy - int(lines.size()) / 2 + l, gx = cx - 7;
      for (size_t i = 0; i < lines[l].size(); ++i)
        if (gy >= 0 && gy < rows && gx + int(i) >= 0 && gx + int(i) < cols) grid[gy][gx + i] = lines[l][i];
    }
  }
  for (size_t k = 0; k < opt.marks.size(); ++k) {
    const int gy = (opt.marks[k].second - miny) * kH + 1, gx = (opt.marks[k].first - minx) * kW + 1;
    std::string label = "[" + (k < 26 ? std::string(1, char('a' + k)) : std::to_string(k)) + "]";
    for (size_t i = 0; i < label.size() && gx + i < size_t(cols); ++i) grid[gy][gx + i] = label[i];
  }
  std::string out;
  const std::string margin = opt.coordinates ? "     " : "";
  if (opt.coordinates) {
    std::string ruler = margin;
    for (int x = minx; x <= maxx; ++x) {
      std::string n = std::to_string(x);
      ruler += std::string((kW - n.size()) / 2, ' ') + n + std::string(kW - n.size() - (kW - n.size()) / 2, ' ');
    }
    out += ruler + "\n";
  }
  for (int r = 0; r < rows; ++r) {
    if (opt.coordinates) {
      if (r % kH == 1) {
        std::string n = std::to_string(miny + r / kH);
        out += std::string(4 - std::min<size_t>(4, n.size()), ' ') + n + " ";
      } else {
        out += margin;
      }
    }
    for (int c = 0; c < cols; ++c) {
      const char ch = grid[r][c];
      if (opt.color && owner[r][c] >= 0) {
        out += kColors[owner[r][c]];
        out += ch;
        out += "\033[0m";
      } else if (opt.color && ch == '#') {
        out += "\033[33m#\033[0m";
      } else if (opt.color && ch == '.') {
        out += "\033[32m.\033[0m";
      } else {
        out += ch;
      }
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += "\n";
  }
  if (s.game().has_wheel()) {
    // The crown spaces, segment by segment in clockwise order: the seat number or '-'.
    out += "WHEEL OF FORTUNE wheel:";
    const auto& w = s.game().wheel();
    for (int seg = 0; seg < int(w.size()); ++seg) {
      out += std::string(" ") + (seg == s.mod<WheelBlock>().pig_segment() ? "*" : "") + kWheelEventNames[int(w[seg].event)] + "[";
      for (int k = 0; k < w[seg].crowns; ++k) {
        const int p = s.mod<WheelBlock>().crown_player(s.game().crown_at(seg, k));
        out += std::string(k ? " " : "") + (p < 0 ? "-" : std::to_string(p + 1));
      }
      out += "]";
    }
    out += "   (* = the pig; crown spaces: seat number or -)\n";
  }
  return out;
}

}  // namespace carc
