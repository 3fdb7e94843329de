// `carcassonne games`: the operator's view of a server's database (docs/server.md, "Operating
// a server"): list the games, pause and resume them, delete them, expire idle ones. It works
// on the server's store directly (its SQLite file or PostgreSQL database), also while the
// server runs: the server refuses a change to a paused or deleted game at once (423, 410) and
// applies the operator's changes to the games in memory within limits::kOperatorSyncInterval.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "store.h"

namespace carc::cli {

namespace {

using json = nlohmann::json;

// Text from the database for a terminal: control characters (and DEL) are shown as \xNN, so a
// player's name can never drive the terminal.
std::string printable(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out;
}

std::string iso_time(int64_t ms) {
  const std::time_t t = std::time_t(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%SZ", &tm);
  return buf;
}

// The server's store named by --db: a SQLite file that must exist, or a PostgreSQL URI.
std::unique_ptr<server::Store> open_existing(const std::string& path) {
  if (!server::is_postgres_uri(path) && !std::filesystem::is_regular_file(path)) {
    std::cerr << "error: " << path << ": no such database (give the server's --db file or postgresql:// URI)\n";
    throw Exit{kExitBadInput};
  }
  auto db = server::make_store(path);
  db->open(path);
  return db;
}

}  // namespace

void register_games(CLI::App& app) {
  auto* cmd = app.add_subcommand("games", "The operator's commands on a server's games: list, pause, resume, delete, expire");
  cmd->require_subcommand(1);
  auto db_path = std::make_shared<std::string>("carcassonne.sqlite");
  cmd->add_option("--db", *db_path, "the server's database: its SQLite file, or a postgresql:// URI")->capture_default_str();

  auto* list = cmd->add_subcommand("list", "List the games, least recently changed first");
  auto status = std::make_shared<std::string>("all");
  auto as_json = std::make_shared<bool>(false);
  list->add_option("--status", *status, "only games with this status: playing, finished, view, paused or all")
      ->capture_default_str()
      ->check(CLI::IsMember({"playing", "finished", "view", "paused", "all"}));
  list->add_flag("--json", *as_json, "one JSON object per line");
  list->callback([db_path, status, as_json] {
    auto store = open_existing(*db_path);
    server::Store& db = *store;
    int shown = 0;
    for (const server::GameRow& row : db.all()) {
      json meta = json::parse(row.meta, nullptr, false);
      if (meta.is_discarded()) continue;
      const json summary = meta.value("summary", json::object());
      const std::string st = summary.is_object() ? summary.value("status", "?") : "?";
      const bool paused = db.paused(row.id);
      if (*status == "paused" ? !paused : (*status != "all" && *status != st)) continue;
      std::string players;
      json names = json::array();
      if (meta.contains("seats") && meta["seats"].is_array())
        for (const auto& s : meta["seats"]) {
          if (!s.is_object()) continue;
          const std::string n = s.value("name", "?"), t = s.value("type", "?");
          names.push_back({{"name", n}, {"type", t}, {"ai", s.value("ai", "")}});
          players += (players.empty() ? "" : ", ") + printable(n) + " (" + printable(t == "ai" ? s.value("ai", "ai") : t) + ")";
        }
      const std::string creator = meta.contains("creator") && meta["creator"].is_string() ? meta["creator"].get<std::string>() : "";
      if (*as_json) {
        std::cout << json{{"id", row.id}, {"status", st}, {"paused", paused}, {"created", row.created},
                          {"updated", row.updated}, {"turn", summary.value("turn", 0)}, {"creator", creator},
                          {"players", names}}
                         .dump(-1, ' ', true, json::error_handler_t::replace)
                  << "\n";
      } else {
        std::cout << row.id << "  " << st << (paused ? " (paused)" : "") << "  turn " << summary.value("turn", 0)
                  << "  changed " << iso_time(row.updated) << "  by " << (creator.empty() ? "?" : printable(creator))
                  << "  " << players << "\n";
      }
      ++shown;
    }
    if (!*as_json) std::cerr << shown << " game(s)\n";
  });

  auto ids = std::make_shared<std::vector<std::string>>();
  auto each = [db_path, ids](const char* done, auto&& act) {
    auto store = open_existing(*db_path);
    server::Store& db = *store;
    int missing = 0;
    for (const std::string& id : *ids) {
      if (!db.load(id)) {
        std::cerr << "error: no game '" << printable(id) << "'\n";
        ++missing;
        continue;
      }
      act(db, id);
      std::cout << id << ": " << done << "\n";
    }
    if (missing) throw Exit{kExitBadInput};
  };
  auto* pause = cmd->add_subcommand("pause", "Pause games: no move, no AI move, until resumed");
  pause->add_option("ids", *ids, "game ids")->required();
  pause->callback([each] { each("paused", [](server::Store& db, const std::string& id) { db.set_paused(id, true); }); });
  auto* resume = cmd->add_subcommand("resume", "Resume paused games");
  resume->add_option("ids", *ids, "game ids")->required();
  resume->callback([each] { each("resumed", [](server::Store& db, const std::string& id) { db.set_paused(id, false); }); });
  auto* del = cmd->add_subcommand("delete", "Delete games for good (their links stop working)");
  del->add_option("ids", *ids, "game ids")->required();
  del->callback([each] { each("deleted", [](server::Store& db, const std::string& id) { db.remove(id); }); });

  auto* expire = cmd->add_subcommand("expire", "Delete the unfinished games without a change for N days (what the server does itself)");
  auto days = std::make_shared<int>(14);
  expire->add_option("--days", *days, "days without a change")->capture_default_str()->check(CLI::Range(0, 36500));
  expire->callback([db_path, days] {
    auto store = open_existing(*db_path);
    server::Store& db = *store;
    const int64_t now =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    int n = 0;
    for (const server::GameRow& row : db.unfinished(now - int64_t(*days) * 86'400'000)) n += db.remove(row.id);
    std::cout << n << " game(s) deleted\n";
  });
}

}  // namespace carc::cli
