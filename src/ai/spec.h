// Player specs: NAME[:key=value[:key=value...]] (':' because ',' separates players on the
// command line). Parsed into a name and ordered key/value pairs; helpers read typed values
// and report what is wrong with a message that names the spec.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace carc::ai {

struct Spec {
  std::string text;  // as given
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;
};

// Splits a spec; throws std::invalid_argument for an empty name or a parameter without '='.
Spec parse_spec(const std::string& text);

// A duration: "1s", "0.5s", "100ms", "2m" or a plain number of seconds. Returns seconds;
// throws std::invalid_argument.
double parse_seconds(const std::string& text);
// A non-negative integer ("5000", "5k", "1m" is not allowed: use digits or a 'k' suffix).
long long parse_count(const std::string& text);
// A real number.
double parse_real(const std::string& text);
// A real number printed compactly ("%g"), for player names.
std::string format_real(double v);
// Seconds printed compactly: "1s", "0.1s", "250ms".
std::string format_seconds(double s);

}  // namespace carc::ai
