// Player specs: NAME[:key=value[:key=value...]] (':' because ',' separates players on the
// command line). Parsed into a name and ordered key/value pairs; helpers read typed values
// and report what is wrong with a message that names the spec.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace carc::ai {

// Caps on the numbers of a player spec (a server client chooses its AI seats' specs, so every
// value is hostile until checked). Beyond them a spec is refused with a message naming the cap,
// so no value can overflow a sum into infinity and NaN, a conversion to an integer, or a
// duration. docs/security.md "Limits" lists them; tests/ai_test.cc "Specs.Limits" tests each edge.
// Heuristic weights (follower, grow, farm, fmin, ...) and the search's c, pscale and scale.
constexpr double kMaxSpecWeight = 1000;
// mcts `time` per decision, in seconds (a server caps it far lower, --ai-max-time).
constexpr double kMaxSpecSeconds = 86400;
// Small integer parameters (prior, depth).
constexpr long long kMaxSpecSmallInt = 1000000;

struct Spec {
  std::string text;  // as given
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;
};

// Splits a spec; throws std::invalid_argument for an empty name or a parameter without '='.
Spec parse_spec(const std::string& text);

// A duration: "1s", "0.5s", "100ms", "2m" or a plain number of seconds, at most
// kMaxSpecSeconds. Returns seconds; throws std::invalid_argument.
double parse_seconds(const std::string& text);
// A non-negative integer ("5000", "5k", "1m" is not allowed: use digits or a 'k' suffix), at
// most 12 digits before the suffix.
long long parse_count(const std::string& text);
// A real number.
double parse_real(const std::string& text);
// A real number in [lo, hi]; otherwise throws "NAME must be in [lo, hi]".
double parse_real_in(const std::string& text, const char* name, double lo, double hi);
// A real number printed compactly ("%g"), for player names.
std::string format_real(double v);
// Seconds printed compactly: "1s", "0.1s", "250ms".
std::string format_seconds(double s);

}  // namespace carc::ai
