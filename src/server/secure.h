// Secrets: random bytes from the operating system's secure source (getrandom(2)), never from
// a seeded generator, and SHA-256 for storing seat tokens (only their hash is ever written).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace carc::server {

// Fills `out` with `n` bytes from getrandom(2). Throws std::runtime_error when the kernel
// refuses (never falls back to a weaker source).
void secure_random_bytes(void* out, size_t n);
uint64_t secure_random_u64();
// `n` characters drawn uniformly (rejection sampling, no modulo bias) from `alphabet`.
std::string secure_random_string(size_t n, const char* alphabet);
// SHA-256 of `text` as 64 lowercase hex digits.
std::string sha256_hex(const std::string& text);
// The commitment to a fair-draw game's secret seed (docs/security.md, "Fair draws"): SHA-256 of
// "<salt>:<seed in decimal>", published at the start; the salt and the seed are published at
// the end, so anyone can check it (`sha256sum`, or `carcassonne replay --draws-from`).
inline std::string draw_commitment(const std::string& salt, uint64_t seed) {
  return sha256_hex(salt + ":" + std::to_string(seed));
}
// Compares two strings in time independent of where they differ.
bool constant_time_equal(const std::string& a, const std::string& b);

}  // namespace carc::server
