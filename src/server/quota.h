// Per-client quotas (docs/security.md, "Quotas and lifetimes"): token buckets keyed by client
// address, and the key itself (an IPv4 address, or an IPv6 address's /64 network).
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace carc::server {

// The key a client address is counted under: IPv4 as it is ("203.0.113.7"; an IPv4-mapped
// IPv6 address "::ffff:203.0.113.7" is the IPv4 address), IPv6 by its first
// limits::kIpv6PrefixBits bits ("2001:db8:1:2::/64"); anything else as it is.
std::string address_key(const std::string& address);

// The address of the client behind a request: `peer` itself, unless `peer` is one of the
// `trusted_proxies` (`serve --trusted-proxy`) and the request has X-Forwarded-For: then the
// rightmost address in it that is not a trusted proxy (a client can prepend anything to the
// header, but not what the proxies append). Entries that are not IP literals stop the walk.
std::string forwarded_client(const std::string& peer, const std::string& x_forwarded_for,
                             const std::vector<std::string>& trusted_proxies);

class Store;

// A token bucket per key: `burst` tokens, refilled by one every `refill`. Thread-safe. In
// memory, unless shared through a store that several server processes use (share()).
class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  RateLimiter(int burst, std::chrono::milliseconds refill, std::size_t max_keys);
  // The buckets live in `store` under `kind` when the store is shared by several processes
  // (Store::take_token: one statement per take); otherwise they stay in memory. A take whose
  // database write fails throws DbError (503).
  void share(Store* store, std::string kind) {
    store_ = store;
    kind_ = std::move(kind);
  }
  // Takes one token of `key`'s bucket: 0 when taken, otherwise how long until one is there
  // (nothing is taken).
  std::chrono::milliseconds take(const std::string& key, Clock::time_point now = Clock::now());

 private:
  struct Bucket {
    double tokens;
    Clock::time_point at;
  };
  double level(const Bucket& b, Clock::time_point now) const;
  int burst_;
  std::chrono::milliseconds refill_;
  Store* store_ = nullptr;
  std::string kind_;
  std::size_t max_keys_;
  std::mutex m_;
  std::map<std::string, Bucket> buckets_;
};

// "Retry-After" seconds for a wait (rounded up, at least 1).
inline long long retry_after_seconds(std::chrono::milliseconds wait) {
  const long long s = (wait.count() + 999) / 1000;
  return s < 1 ? 1 : s;
}

}  // namespace carc::server
