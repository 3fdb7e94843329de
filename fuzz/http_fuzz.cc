// libFuzzer harness: HTTP request handling without a socket. The input is the bytes a client
// sends (request line, headers, body, chunked or not); they go through the transport's parser
// and limits (handle_bytes, src/server/http.cc) into the API (Api::handle, routes.cc) over an
// in-memory database. Fails on any crash, sanitizer report, or a 5xx answer (a refusal is
// always 4xx: a 5xx means something was thrown that should have been refused).
//   build: CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCARC_BUILD_FUZZ=ON && ninja -C build-fuzz http_fuzz
//   run:   build-fuzz/fuzz/http_fuzz -max_total_time=60 -max_len=65536 fuzz/corpus/http
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "ai_pool.h"
#include "sqlite_store.h"
#include "http.h"
#include "routes.h"
#include "session.h"

namespace {

using namespace carc::server;

struct World {
  SqliteStore db;
  AiPool ai;  // not started: AI turns stay queued (the fuzzer exercises requests, not searches)
  Games games{db, ai, 0};
  Api api{games, db, ""};
  HttpOptions opts;
  World() {
    db.open(":memory:");
    opts.max_body = 64 * 1024;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static World* w = new World();  // lives for the whole run
  const std::string_view raw(reinterpret_cast<const char*>(data), size);
  Response r = handle_bytes(raw, [](const Request& q) { return w->api.handle(q); }, w->opts);
  if (r.status < 200 || r.status > 599 || (r.status >= 500 && r.status != 503)) {
    std::fprintf(stderr, "http_fuzz: answered %d: %s\n", r.status, r.body.substr(0, 500).c_str());
    std::abort();
  }
  return 0;
}
