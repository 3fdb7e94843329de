#include "secure.h"

#include <openssl/sha.h>
#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace carc::server {

void secure_random_bytes(void* out, size_t n) {
  auto* p = static_cast<unsigned char*>(out);
  while (n > 0) {
    const ssize_t got = getrandom(p, n, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("getrandom failed: ") + std::strerror(errno));
    }
    p += got;
    n -= size_t(got);
  }
}

uint64_t secure_random_u64() {
  uint64_t v;
  secure_random_bytes(&v, sizeof v);
  return v;
}

std::string secure_random_string(size_t n, const char* alphabet) {
  const size_t len = std::strlen(alphabet);
  if (len == 0 || len > 256) throw std::invalid_argument("secure_random_string: alphabet of 1 to 256 characters");
  const unsigned limit = 256 - 256 % unsigned(len);  // bytes at or above it are redrawn
  std::string s;
  s.reserve(n);
  unsigned char buf[64];
  while (s.size() < n) {
    secure_random_bytes(buf, sizeof buf);
    for (unsigned char b : buf)
      if (b < limit && s.size() < n) s += alphabet[b % len];
  }
  return s;
}

std::string sha256_hex(const std::string& text) {
  unsigned char d[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), d);
  static const char* hex = "0123456789abcdef";
  std::string out(2 * SHA256_DIGEST_LENGTH, '0');
  for (int i = 0; i < SHA256_DIGEST_LENGTH; ++i) {
    out[size_t(2 * i)] = hex[d[i] >> 4];
    out[size_t(2 * i + 1)] = hex[d[i] & 15];
  }
  return out;
}

bool constant_time_equal(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace carc::server
