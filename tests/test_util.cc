#include "test_util.h"

#include <filesystem>
#include <nlohmann/json.hpp>

namespace carc::test {

std::string source_dir() { return CARC_SOURCE_DIR; }

std::string shared_dir() {
  namespace fs = std::filesystem;
  for (fs::path p : {fs::path(CARC_SOURCE_DIR) / ".." / "shared", fs::path(CARC_SOURCE_DIR) / "shared"})
    if (fs::exists(p / "conformance")) return p.string();
  return "";
}

Record scenario(const std::string& turns, int players, const std::string& start,
                const std::vector<std::string>& expansions) {
  nlohmann::json j;
  j["format"] = "carcassonne-record/1";
  std::vector<std::string> names;
  for (int i = 0; i < players; ++i) names.push_back(std::string(1, char('A' + i)));
  j["setup"] = {{"players", names}, {"tileset", "base"}, {"expansions", expansions}, {"seed", 1}, {"draws", "scripted"}};
  if (!start.empty()) {
    auto slash = start.find('/');
    j["setup"]["start"] = {{"tile", start.substr(0, slash)},
                           {"rotation", slash == std::string::npos ? 0 : std::stoi(start.substr(slash + 1))}};
  }
  j["turns"] = nlohmann::json::parse(turns);
  return parse_record(j.dump());
}

Replay play(const Record& r, bool final) { return replay(r, final); }

}  // namespace carc::test
