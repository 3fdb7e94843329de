#include "ids.h"

#include <chrono>
#include <mutex>
#include <random>

namespace carc::server {

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string random_string(size_t n, const char* alphabet) {
  static std::mutex m;
  static std::mt19937_64 gen{[] {
    std::random_device rd;
    std::seed_seq seq{rd(), rd(), rd(), rd(), rd(), rd(), rd(), rd()};
    std::mt19937_64 g(seq);
    return g;
  }()};
  std::lock_guard lk(m);
  const size_t len = std::char_traits<char>::length(alphabet);
  std::string s(n, ' ');
  for (char& c : s) c = alphabet[gen() % len];
  return s;
}
std::string new_token() { return random_string(32, "0123456789abcdef"); }
std::string new_game_id() { return random_string(10, "abcdefghijkmnpqrstuvwxyz23456789"); }
uint64_t random_seed() {
  std::string s = random_string(15, "0123456789");
  return std::stoull(s);
}

}  // namespace carc::server
