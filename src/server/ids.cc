#include "ids.h"

#include <chrono>

#include "secure.h"

namespace carc::server {

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Every identifier and seed comes from the OS's secure source (secure.h): tokens are 128 bits,
// game ids 60 bits (12 of 32 letters and digits), seeds 53 bits (exact as a JavaScript number,
// for the web client that reads records).
std::string random_string(size_t n, const char* alphabet) { return secure_random_string(n, alphabet); }
std::string new_token() { return random_string(32, "0123456789abcdef"); }
std::string new_game_id() { return random_string(12, "abcdefghijkmnpqrstuvwxyz23456789"); }
uint64_t random_seed() { return secure_random_u64() >> 11; }

}  // namespace carc::server
