// Per-client quotas (see quota.h).
#include "quota.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstdio>

#include "server_limits.h"
#include "store.h"

namespace carc::server {

std::string address_key(const std::string& address) {
  in6_addr a6{};
  if (address.find(':') == std::string::npos || inet_pton(AF_INET6, address.c_str(), &a6) != 1) return address;
  static const unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::equal(kMapped, kMapped + 12, a6.s6_addr)) {
    char buf[INET_ADDRSTRLEN];
    in_addr a4{};
    std::copy(a6.s6_addr + 12, a6.s6_addr + 16, reinterpret_cast<unsigned char*>(&a4.s_addr));
    return inet_ntop(AF_INET, &a4, buf, sizeof buf) ? std::string(buf) : address;
  }
  static_assert(limits::kIpv6PrefixBits % 8 == 0 && limits::kIpv6PrefixBits <= 128, "whole bytes");
  std::fill(a6.s6_addr + limits::kIpv6PrefixBits / 8, a6.s6_addr + 16, 0);
  char buf[INET6_ADDRSTRLEN];
  if (!inet_ntop(AF_INET6, &a6, buf, sizeof buf)) return address;
  return std::string(buf) + "/" + std::to_string(limits::kIpv6PrefixBits);
}

std::string forwarded_client(const std::string& peer, const std::string& x_forwarded_for,
                             const std::vector<std::string>& trusted_proxies) {
  auto trusted = [&](const std::string& a) {
    return std::find(trusted_proxies.begin(), trusted_proxies.end(), a) != trusted_proxies.end();
  };
  if (x_forwarded_for.empty() || !trusted(peer)) return peer;
  auto is_ip = [](const std::string& a) {
    unsigned char buf[sizeof(in6_addr)];
    return inet_pton(AF_INET, a.c_str(), buf) == 1 || inet_pton(AF_INET6, a.c_str(), buf) == 1;
  };
  std::vector<std::string> hops;  // left to right, as the proxies appended them
  size_t start = 0;
  while (start <= x_forwarded_for.size()) {
    size_t comma = x_forwarded_for.find(',', start);
    if (comma == std::string::npos) comma = x_forwarded_for.size();
    std::string a = x_forwarded_for.substr(start, comma - start);
    const size_t b = a.find_first_not_of(" \t"), e = a.find_last_not_of(" \t");
    hops.push_back(b == std::string::npos ? std::string() : a.substr(b, e - b + 1));
    start = comma + 1;  // (the header is bounded by the transport's header limit)
  }
  std::string client = peer;
  for (auto it = hops.rbegin(); it != hops.rend(); ++it) {
    if (!is_ip(*it)) break;  // malformed: keep the last address known good
    client = *it;
    if (!trusted(*it)) break;
  }
  return client;
}

RateLimiter::RateLimiter(int burst, std::chrono::milliseconds refill, std::size_t max_keys)
    : burst_(std::max(1, burst)), refill_(std::max(std::chrono::milliseconds(1), refill)), max_keys_(max_keys) {}

double RateLimiter::level(const Bucket& b, Clock::time_point now) const {
  const double gained = std::chrono::duration<double, std::milli>(now - b.at).count() / double(refill_.count());
  return std::min(double(burst_), b.tokens + std::max(0.0, gained));
}

std::chrono::milliseconds RateLimiter::take(const std::string& key, Clock::time_point now) {
  if (store_) {
    const int64_t wait = store_->take_token(kind_, key, burst_, refill_.count());
    if (wait >= 0) return std::chrono::milliseconds(wait);
  }
  std::lock_guard lk(m_);
  auto it = buckets_.find(key);
  if (it == buckets_.end()) {
    if (buckets_.size() >= max_keys_) {  // forget the full buckets (they hold nothing)
      for (auto j = buckets_.begin(); j != buckets_.end();)
        j = level(j->second, now) >= burst_ ? buckets_.erase(j) : std::next(j);
      if (buckets_.size() >= max_keys_) {  // still at the cap: forget the fullest bucket (it holds the least)
        auto fullest = buckets_.begin();
        for (auto j = buckets_.begin(); j != buckets_.end(); ++j)
          if (level(j->second, now) > level(fullest->second, now)) fullest = j;
        buckets_.erase(fullest);
      }
    }
    it = buckets_.emplace(key, Bucket{double(burst_), now}).first;
  }
  Bucket& b = it->second;
  const double have = level(b, now);
  if (have < 1.0) {
    const double ms = (1.0 - have) * double(refill_.count());
    return std::chrono::milliseconds(std::max<long long>(1, (long long)(ms + 0.999)));
  }
  b.tokens = have - 1.0;
  b.at = now;
  return std::chrono::milliseconds(0);
}

}  // namespace carc::server
