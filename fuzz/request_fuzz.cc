// libFuzzer harness: the decoding of request bodies (src/server/decode.cc) on arbitrary bytes,
// as the routes use it: the body parsed as JSON (depth checked first), then read as a move
// against positions of every expansion (and the decoded move applied to a copy), as the seats
// and rules of a create request, and as an upload (its "record" read, its seats checked, the
// record replayed). Refusals are ApiError (4xx) or RecordError; a json::exception is answered
// 400 by the routes. Anything else escaping, a crash, a sanitizer report, a leak or a hang is
// a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ai_pool.h"
#include "decode.h"
#include "game.h"
#include "record.h"
#include "session.h"

using namespace carc;
using namespace carc::server;

namespace {

// A position after `moves` random moves of a seeded game (draws included).
State position(const Rules& rules, uint64_t seed, int moves) {
  State s(Game::get(rules), seed);
  Rng rng(seed);
  std::vector<Move> legal;
  for (int i = 0; i < moves && !s.is_terminal(); ++i) {
    while (s.is_chance()) s.draw_random();
    if (s.is_terminal()) break;
    s.legal_moves(legal);
    s.apply(legal[rng.below(uint32_t(legal.size()))]);
  }
  while (s.is_chance()) s.draw_random();
  return s;
}

const std::vector<State>& positions() {
  static const std::vector<State> all = [] {
    std::vector<State> v;
    Rules base;
    v.push_back(position(base, 1, 0));
    v.push_back(position(base, 2, 30));
    Rules all_exp;
    all_exp.players = 3;
    all_exp.expansion_set = kAllExpansions;
    v.push_back(position(all_exp, 3, 25));
    Rules wheel = all_exp;
    wheel.tileset = "wheel-of-fortune";
    v.push_back(position(wheel, 4, 20));
    return v;
  }();
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  const AiLimits limits;
  json j;
  try {
    j = parse_body(body);
  } catch (const ApiError&) {
    return 0;
  }
  for (const State& s : positions()) {
    try {
      const Move m = move_from(s, j);
      State c = s;
      c.apply(m);
    } catch (const ApiError&) {
    } catch (const json::exception&) {
    }
  }
  try {
    (void)seats_from_request(j, nullptr, limits);
    (void)rules_from(str_field(j, "tileset", "base"), expansions_of(j), 2);
  } catch (const ApiError&) {
  } catch (const json::exception&) {
  }
  auto it = j.find("record");
  if (it != j.end()) {
    try {
      const std::string text = it->is_string() ? it->get<std::string>() : it->dump();
      Record rec = parse_record(text);
      (void)seats_from_request(j, &rec.players, limits);
      (void)replay(rec);
    } catch (const ApiError&) {
    } catch (const RecordError&) {
    } catch (const json::exception&) {
    }
  }
  return 0;
}
