#include "value_net.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace carc::ai {

extern const char* const kEmbeddedValueNet;  // generated from data/nets/value.txt (src/ai/CMakeLists.txt)

NetSnapshot NetSnapshot::of(const State& s) {
  NetSnapshot n;
  n.players = s.num_players();
  n.to_move = s.is_chance() || s.is_terminal() ? -1 : s.current_player();
  const int total = std::max(1, s.game().total_tiles());
  n.bag_share = double(s.bag_size()) / total;
  for (int p = 0; p < n.players; ++p) n.score[size_t(p)] = s.score(p), n.supply[size_t(p)] = s.supply(p);
  return n;
}

Features value_features(const NetSnapshot& snap, const Values& h, int p) {
  int best = -1;  // the strongest other player by the heuristic
  for (int q = 0; q < snap.players; ++q)
    if (q != p && (best < 0 || h[size_t(q)] > h[size_t(best)])) best = q;
  int best_score = -1 << 30;
  for (int q = 0; q < snap.players; ++q)
    if (q != p) best_score = std::max(best_score, snap.score[size_t(q)]);
  const double hm = (h[size_t(p)] - h[size_t(best)]) / 50.0;
  const double sm = (snap.score[size_t(p)] - best_score) / 50.0;
  Features x{};
  x[0] = float(hm);
  x[1] = float(sm);
  x[2] = float(snap.bag_share);
  x[3] = float(snap.supply[size_t(p)] / 7.0);
  x[4] = float(snap.supply[size_t(best)] / 7.0);
  x[5] = snap.to_move == p ? 1.0f : 0.0f;
  x[6] = float(hm * snap.bag_share);
  x[7] = float(sm * snap.bag_share);
  x[8] = float(h[size_t(p)] / 100.0);
  x[9] = float(snap.players / 6.0);
  return x;
}

ValueNet ValueNet::parse(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  std::vector<std::string> tokens;
  std::vector<int> token_line;
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line[0] == '#') continue;
    std::istringstream ls(line);
    for (std::string t; ls >> t;) tokens.push_back(t), token_line.push_back(lineno);
  }
  size_t at = 0;
  auto where = [&] { return "value net, line " + std::to_string(at < token_line.size() ? token_line[at] : lineno); };
  auto word = [&](const char* want) {
    if (at >= tokens.size() || tokens[at] != want)
      throw std::invalid_argument(where() + ": expected '" + want + "'");
    ++at;
  };
  auto integer = [&](int lo, int hi) {
    if (at >= tokens.size()) throw std::invalid_argument(where() + ": expected a number");
    size_t used = 0;
    int v = 0;
    try {
      v = std::stoi(tokens[at], &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != tokens[at].size() || v < lo || v > hi)
      throw std::invalid_argument(where() + ": expected an integer " + std::to_string(lo) + ".." + std::to_string(hi) +
                                  ", got '" + tokens[at] + "'");
    ++at;
    return v;
  };
  auto numbers = [&](size_t n, std::vector<float>& out) {
    out.resize(n);
    for (size_t i = 0; i < n; ++i) {
      if (at >= tokens.size()) throw std::invalid_argument(where() + ": the file ends early");
      size_t used = 0;
      double v = 0;
      try {
        v = std::stod(tokens[at], &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != tokens[at].size() || !std::isfinite(v) || std::fabs(v) > 1e6)
        throw std::invalid_argument(where() + ": not a finite number: '" + tokens[at] + "'");
      out[i] = float(v);
      ++at;
    }
  };
  word("carcassonne-value-net/1");
  word("features");
  const int f = integer(kValueFeatures, kValueFeatures);
  word("hidden");
  ValueNet net;
  net.hidden_ = integer(0, 256);
  const size_t h = size_t(net.hidden_);
  numbers(h * size_t(f), net.w1_);
  numbers(h, net.b1_);
  numbers(h, net.wout_);
  std::vector<float> bout;
  numbers(1, bout);
  net.bout_ = bout[0];
  numbers(size_t(f), net.skip_);
  if (at != tokens.size()) throw std::invalid_argument(where() + ": unexpected data after the weights");
  return net;
}

ValueNet ValueNet::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("value net: cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  try {
    return parse(ss.str());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
}

const ValueNet& ValueNet::builtin() {
  static const ValueNet net = parse(kEmbeddedValueNet);
  return net;
}

const ValueNet& ValueNet::active() {
  static const ValueNet net = [] {
    const char* path = std::getenv("CARC_VALUE_NET");
    return path && *path ? load(path) : builtin();
  }();
  return net;
}

namespace {
// tanh by a rational (Lambert's continued fraction to x^7/x^6) on [-4.97, 4.97] and +-1 beyond: error
// below 1e-4 everywhere (largest at the clamp; tanh(4.97) = 1 - 9.6e-5), without a libm call: the
// prediction took 194 ns with std::tanh and takes 93 ns with it (BM_ValueNetPredict, bench/ai_bench.cc).
inline float fast_tanh(float x) {
  x = std::clamp(x, -4.97f, 4.97f);
  const float x2 = x * x;
  const float p = x * (135135.0f + x2 * (17325.0f + x2 * (378.0f + x2)));
  const float q = 135135.0f + x2 * (62370.0f + x2 * (3150.0f + x2 * 28.0f));
  return std::clamp(p / q, -1.0f, 1.0f);
}
}  // namespace

double ValueNet::predict(const Features& x) const {
  float out = bout_;
  for (int f = 0; f < kValueFeatures; ++f) out += skip_[size_t(f)] * x[size_t(f)];
  const float* w = w1_.data();
  for (int j = 0; j < hidden_; ++j, w += kValueFeatures) {
    float a = b1_[size_t(j)];
    for (int f = 0; f < kValueFeatures; ++f) a += w[f] * x[size_t(f)];
    out += wout_[size_t(j)] * fast_tanh(a);
  }
  return 50.0 * double(out);
}

void ValueNet::adjust(const NetSnapshot& snap, Values& h) const {
  const Values orig = h;
  for (int p = 0; p < snap.players; ++p) {
    const double predicted = predict(value_features(snap, orig, p));
    const double heuristic = margin(orig, p, snap.players);
    // Two players: the margins become exactly the predictions (their mean, if the two disagree).
    h[size_t(p)] = orig[size_t(p)] + (predicted - heuristic) / 2;
  }
}

}  // namespace carc::ai
