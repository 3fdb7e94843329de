// The API: every route turns a transport-neutral Request into a Response (docs/server.md).
#pragma once

#include <string>
#include <vector>

#include "api.h"
#include "quota.h"
#include "server_limits.h"

namespace carc::server {

class Store;
class Games;
struct Session;

class Api {
 public:
  Api(Games& games, Store& db, std::string web_dir, const Quotas& quotas = {},
      std::vector<std::string> trusted_proxies = {})
      : games_(games),
        db_(db),
        web_dir_(std::move(web_dir)),
        quotas_(quotas),
        creates_(quotas.create_burst, quotas.create_refill, limits::kMaxTrackedAddresses),
        uploads_(quotas.upload_burst, quotas.upload_refill, limits::kMaxTrackedAddresses),
        trusted_proxies_(std::move(trusted_proxies)) {
    // Several processes on one database: the buckets are the database's (docs/deployment.md).
    creates_.share(&db, "create");
    uploads_.share(&db, "upload");
  }

  // Answers one request. Never throws: a refusal is a JSON error response (4xx), anything
  // unexpected a 500.
  Response handle(const Request& req);

 private:
  Response dispatch(const Request& req);
  json created_json(const Session& s);
  static int seat_for(const Session& s, const json& body, const Request& req);

  void health(const Request& req, Response& res);
  void players(const Request& req, Response& res);
  void tiles(const Request& req, Response& res);
  void list_games(const Request& req, Response& res);
  void create_game(const Request& req, Response& res);
  void upload_game(const Request& req, Response& res);
  void get_game(const Request& req, Response& res, const std::string& id);
  void legal(const Request& req, Response& res, const std::string& id);
  void move(const Request& req, Response& res, const std::string& id);
  void undo(const Request& req, Response& res, const std::string& id);
  void resign(const Request& req, Response& res, const std::string& id);
  void join(const Request& req, Response& res, const std::string& id);
  void hint(const Request& req, Response& res, const std::string& id);
  void record(const Request& req, Response& res, const std::string& id);
  void replay(const Request& req, Response& res, const std::string& id);
  void events(const Request& req, Response& res, const std::string& id);
  void chat(const Request& req, Response& res, const std::string& id);
  void post_chat(const Request& req, Response& res, const std::string& id);
  void rematch(const Request& req, Response& res, const std::string& id);

  Games& games_;
  Store& db_;
  std::string web_dir_;
  // Per-client quotas (docs/security.md, "Quotas and lifetimes").
  Quotas quotas_;
  RateLimiter creates_;
  RateLimiter uploads_;
  std::vector<std::string> trusted_proxies_;  // `serve --trusted-proxy`: their X-Forwarded-For names the client
  // The quota key of the client behind a request (forwarded_client, then address_key).
  std::string owner_of(const Request& req) const {
    return address_key(forwarded_client(req.client, req.header("X-Forwarded-For"), trusted_proxies_));
  }
};

}  // namespace carc::server
