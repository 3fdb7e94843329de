// Integration tests that drive the `carcassonne` binary: exit codes, messages, JSON output.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace {

struct CmdResult {
  int status;
  std::string out;
};

CmdResult run(const std::string& args) {
  std::string cmd = std::string(CARC_BINARY_DIR) + "/carcassonne " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  int st = pclose(p);
  return {WEXITSTATUS(st), out};
}

std::string temp_file(const std::string& name, const std::string& text) {
  auto path = std::filesystem::temp_directory_path() / ("carc_cli_test_" + std::to_string(getpid()) + "_" + name);
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

TEST(Cli, ReplayJsonMatchesSpecShape) {
  std::string f = temp_file("ok.json", R"({"format":"carcassonne-record/1","setup":{"players":["Ann","Ben"],"tileset":"base","expansions":[],"seed":1,"draws":"scripted"},
    "turns":[{"tile":"E","x":0,"y":-1,"rotation":180,"meeple":"S"}]})");
  CmdResult r = run("replay " + f + " --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["scores"], nlohmann::json::parse("[4,0]"));
  EXPECT_EQ(j["finished"], false);
  ASSERT_EQ(j["events"].size(), 1u);
  EXPECT_EQ(j["events"][0]["kind"], "city");
  EXPECT_EQ(j["events"][0]["turn"], 1);
  EXPECT_EQ(j["events"][0]["player"], 0);
  EXPECT_EQ(j["events"][0]["points"], 4);
  EXPECT_EQ(j["events"][0]["final"], false);
}

TEST(Cli, InvalidRecordExitsTwoNamingTurnAndReason) {
  std::string f = temp_file("bad.json", R"({"format":"carcassonne-record/1","setup":{"players":["Ann","Ben"],"tileset":"base","expansions":[],"seed":1,"draws":"scripted"},
    "turns":[{"tile":"E","x":0,"y":-1,"rotation":180},{"tile":"K","x":1,"y":0,"rotation":270}]})");
  CmdResult r = run("replay " + f);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("turn 2: tile K does not fit at (1,0) rotation 270: its west edge (city) meets a road"),
            std::string::npos)
      << r.out;
  CmdResult missing = run("replay /nonexistent/file.json");
  EXPECT_NE(missing.status, 0);
  EXPECT_NE(missing.out.find("cannot open"), std::string::npos);
  CmdResult garbage = run("replay " + temp_file("garbage.json", "{\"format\": "));
  EXPECT_EQ(garbage.status, 2);
  EXPECT_NE(garbage.out.find("not valid JSON"), std::string::npos);
}

TEST(Cli, SimulateJsonHasTheRequiredKeys) {
  CmdResult r = run("simulate --games 20 --seed 3 --players 3 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["games"], 20);
  EXPECT_TRUE(j["seconds"].is_number());
  EXPECT_GT(j["games_per_second"].get<double>(), 0);
  EXPECT_EQ(j["mean_scores"].size(), 3u);
  // Same seed, same games.
  auto j2 = nlohmann::json::parse(run("simulate --games 20 --seed 3 --players 3 --json --threads 2").out);
  EXPECT_EQ(j["mean_scores"], j2["mean_scores"]);
}

TEST(Cli, SimulateSavesRecordsThatReplay) {
  auto dir = std::filesystem::temp_directory_path() / ("carc_sim_" + std::to_string(getpid()));
  CmdResult r = run("simulate --games 3 --out " + dir.string());
  ASSERT_EQ(r.status, 0) << r.out;
  int n = 0;
  for (auto& f : std::filesystem::directory_iterator(dir)) {
    CmdResult rp = run("replay " + f.path().string() + " --json");
    EXPECT_EQ(rp.status, 0) << rp.out;
    EXPECT_EQ(nlohmann::json::parse(rp.out)["finished"], true);
    ++n;
  }
  EXPECT_EQ(n, 3);
  std::filesystem::remove_all(dir);
}

TEST(Cli, BenchSignatureIsDeterministic) {
  auto a = nlohmann::json::parse(run("bench --games 200 --json").out);
  auto b = nlohmann::json::parse(run("bench --games 200 --json").out);
  EXPECT_EQ(a["signature"], b["signature"]);
  EXPECT_EQ(a["total_score"], b["total_score"]);
}

TEST(Cli, ShowDrawsTheBoard) {
  std::string f = temp_file("show.json", R"({"format":"carcassonne-record/1","setup":{"players":["Ann","Ben"],"tileset":"base","expansions":[],"seed":1,"draws":"scripted"},
    "turns":[{"tile":"B","x":0,"y":1,"rotation":0,"meeple":"C"}]})");
  CmdResult r = run("show " + f + " --color never");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("M"), std::string::npos);
  EXPECT_NE(r.out.find("#"), std::string::npos);
  EXPECT_NE(r.out.find("Ann"), std::string::npos);
}

TEST(Cli, BadArgumentsExitTwo) {
  EXPECT_EQ(run("simulate --players 9").status, 2);
  EXPECT_EQ(run("simulate --expansions dragons").status, 1 + 0 * 2) << "unknown expansion";
  EXPECT_EQ(run("frobnicate").status, 2);
}
