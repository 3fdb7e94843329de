#include "spec.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace carc::ai {

Spec parse_spec(const std::string& text) {
  Spec s;
  s.text = text;
  size_t pos = 0;
  bool first = true;
  while (pos <= text.size()) {
    size_t end = text.find(':', pos);
    if (end == std::string::npos) end = text.size();
    std::string part = text.substr(pos, end - pos);
    if (first) {
      s.name = part;
      first = false;
    } else {
      size_t eq = part.find('=');
      if (eq == std::string::npos || eq == 0)
        throw std::invalid_argument("player '" + text + "': parameter '" + part + "' is not key=value");
      s.params.emplace_back(part.substr(0, eq), part.substr(eq + 1));
    }
    pos = end + 1;
  }
  if (s.name.empty()) throw std::invalid_argument("player spec '" + text + "': missing player name");
  return s;
}

double parse_real(const std::string& text) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || !std::isfinite(v))
    throw std::invalid_argument("'" + text + "' is not a number");
  return v;
}

double parse_real_in(const std::string& text, const char* name, double lo, double hi) {
  const double v = parse_real(text);
  if (v < lo || v > hi)
    throw std::invalid_argument(std::string(name) + " must be in [" + format_real(lo) + ", " + format_real(hi) + "]");
  return v;
}

double parse_seconds(const std::string& text) {
  std::string num = text;
  double scale = 1;
  auto ends = [&](const std::string& suf) {
    return num.size() > suf.size() && num.compare(num.size() - suf.size(), suf.size(), suf) == 0;
  };
  if (ends("ms")) {
    num.resize(num.size() - 2);
    scale = 1e-3;
  } else if (ends("s")) {
    num.resize(num.size() - 1);
  } else if (ends("m")) {
    num.resize(num.size() - 1);
    scale = 60;
  }
  double v;
  try {
    v = parse_real(num);
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument("'" + text + "' is not a duration (examples: 1s, 0.5s, 100ms)");
  }
  if (v < 0) throw std::invalid_argument("'" + text + "': a duration cannot be negative");
  if (v * scale > kMaxSpecSeconds)
    throw std::invalid_argument("'" + text + "' is longer than the limit of " + format_real(kMaxSpecSeconds) + "s");
  return v * scale;
}

long long parse_count(const std::string& text) {
  std::string num = text;
  long long scale = 1;
  if (!num.empty() && (num.back() == 'k' || num.back() == 'K')) {
    num.pop_back();
    scale = 1000;
  }
  if (num.empty() || num.find_first_not_of("0123456789") != std::string::npos || num.size() > 12)
    throw std::invalid_argument("'" + text + "' is not a whole number (examples: 500, 5000, 20k)");
  return std::stoll(num) * scale;
}

std::string format_real(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", v);
  return b;
}

std::string format_seconds(double s) {
  char buf[32];
  if (s < 1 && s > 0 && std::fabs(s * 1000 - std::round(s * 1000)) < 1e-6)
    std::snprintf(buf, sizeof buf, "%gms", std::round(s * 1000));
  else
    std::snprintf(buf, sizeof buf, "%gs", s);
  return buf;
}

}  // namespace carc::ai
