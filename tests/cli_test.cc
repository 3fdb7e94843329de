// Integration tests that drive the `carcassonne` binary: exit codes, messages, JSON output.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace {

struct CmdResult {
  int status;
  std::string out;
};

CmdResult run_env(const std::string& env, const std::string& args);
CmdResult run(const std::string& args) { return run_env("", args); }

// Runs the binary with environment assignments in front ("NAME=value ").
CmdResult run_env(const std::string& env, const std::string& args) {
  std::string cmd = env + std::string(CARC_BINARY_DIR) + "/carcassonne " + args + " 2>&1";
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

// A Fortune Teller turn draws several tiles: analyse sets them all up and lists the moves (it drew
// only the placed tile, searched from a chance node and crashed).
TEST(Cli, AnalyseAFortuneTellerTurnWithSeveralDrawnTiles) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("carc_analyse_" + std::to_string(getpid()));
  fs::remove_all(dir);
  ASSERT_EQ(run("simulate --games 20 --seed 5 --expansions fortune-teller --out " + dir.string()).status, 0);
  std::string file;
  int turn = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path());
    const auto rec = nlohmann::json::parse(in);
    for (size_t i = 0; i < rec["turns"].size() && !turn; ++i)
      if (rec["turns"][i].contains("drawn") && rec["turns"][i]["drawn"].size() > 1) file = e.path().string(), turn = int(i) + 1;
    if (turn) break;
  }
  ASSERT_GT(turn, 0) << "no turn with several drawn tiles in " << dir;
  CmdResult r = run("analyse " + file + " --turn " + std::to_string(turn) + " --player mcts:iterations=200 --json");
  EXPECT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["turn"], turn);
  EXPECT_FALSE(j["moves"].empty()) << r.out;
  fs::remove_all(dir);
}

// The analysed turn's draws are checked as replay checks them: an unknown discarded tile is a clear
// error naming the turn (analyse used to pass its index, -1, straight to the engine).
TEST(Cli, AnalyseRefusesAnUnknownTileInTheAnalysedTurn) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("carc_analyse_bad_" + std::to_string(getpid()));
  fs::remove_all(dir);
  ASSERT_EQ(run("simulate --games 1 --seed 3 --out " + dir.string()).status, 0);
  const fs::path file = fs::directory_iterator(dir)->path();
  nlohmann::json rec;
  {
    std::ifstream in(file);
    rec = nlohmann::json::parse(in);
  }
  ASSERT_GT(rec["turns"].size(), 5u);
  rec["turns"][4]["discarded"] = {"ZZ"};
  std::ofstream(file) << rec.dump();
  const CmdResult r = run("analyse " + file.string() + " --turn 5 --player mcts:iterations=50");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("turn 5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unknown tile 'ZZ'"), std::string::npos) << r.out;
  fs::remove_all(dir);
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

TEST(Cli, WheelOfFortuneSimulateReplayShowBench) {
  auto dir = std::filesystem::temp_directory_path() / ("carc_wof_" + std::to_string(getpid()));
  CmdResult r = run("simulate --tileset wheel-of-fortune --expansions festival,fortune-teller,fruit-trees --players 3 --games 3 --seed 5 --out " +
                    dir.string());
  ASSERT_EQ(r.status, 0) << r.out;
  int n = 0, wheel_events = 0;
  std::string one;
  for (auto& f : std::filesystem::directory_iterator(dir)) {
    CmdResult rp = run("replay " + f.path().string() + " --json");
    ASSERT_EQ(rp.status, 0) << rp.out;
    auto j = nlohmann::json::parse(rp.out);
    EXPECT_EQ(j["finished"], true);
    for (auto& e : j["events"])
      for (const char* k : {"fortuna", "taxes", "famine", "storm", "inquisition", "crown"}) wheel_events += e["kind"] == k;
    one = f.path().string();
    ++n;
  }
  EXPECT_EQ(n, 3);
  EXPECT_GT(wheel_events, 0);
  CmdResult show = run("show " + one + " --color never");
  ASSERT_EQ(show.status, 0) << show.out;
  EXPECT_NE(show.out.find("WHEEL OF FORTUNE"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("wheel: "), std::string::npos);
  std::filesystem::remove_all(dir);
  auto b = nlohmann::json::parse(run("bench --tileset wheel-of-fortune --games 50 --json").out);
  EXPECT_GT(b["games_per_second"].get<double>(), 0);
}

// A corrected board layout is a data change: a board whose rim is all city caps, read from a
// data directory. Then a tile without a city edge has no place (a wheel tile discarded before
// any wheel step, W-8) and a city completed against the board counts the board's cell.
TEST(Cli, WheelBoardLayoutIsData) {
  namespace fs = std::filesystem;
  const fs::path data = fs::temp_directory_path() / ("carc_data_" + std::to_string(getpid()));
  fs::create_directories(data / "tiles");
  fs::create_directories(data / "boards");
  for (auto& f : fs::directory_iterator(fs::path(carc::test::source_dir()) / "data" / "tiles"))
    fs::copy_file(f.path(), data / "tiles" / f.path().filename());
  nlohmann::json cells = nlohmann::json::array();
  static const char* halves[4][2] = {{"Nw", "Ne"}, {"En", "Es"}, {"Se", "Sw"}, {"Ws", "Wn"}};
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const bool outer[4] = {y == 0, x == 3, y == 3, x == 0};
      std::string edges, cities, fields, adj;
      int nc = 0;
      for (int d = 0; d < 4; ++d) {
        edges += outer[d] ? 'C' : 'F';
        if (outer[d]) {
          ++nc;
          cities += std::string(cities.empty() ? "" : "; ") + "c" + std::to_string(nc) + "=" + "NESW"[d];
          adj += std::string(adj.empty() ? "" : ",") + "c" + std::to_string(nc);
        } else {
          fields += std::string(fields.empty() ? "" : "+") + halves[d][0] + "+" + halves[d][1];
        }
      }
      cells.push_back({{"x", x}, {"y", y}, {"edges", edges}, {"cities", cities.empty() ? "-" : cities}, {"pennants", "0"},
                       {"roads", "-"}, {"fields", "f1=" + fields + (adj.empty() ? "" : " [" + adj + "]")}});
    }
  nlohmann::json board = {{"board", "wheel-of-fortune"},
                          {"cells", cells},
                          {"wheel",
                           {{"start", "fortuna"},
                            {"segments",
                             {{{"name", "fortuna"}, {"crowns", 1}},
                              {{"name", "taxes"}, {"crowns", 2}},
                              {{"name", "famine"}, {"crowns", 1}},
                              {{"name", "storm"}, {"crowns", 2}},
                              {{"name", "inquisition"}, {"crowns", 1}},
                              {{"name", "plague"}, {"crowns", 2}}}}}}};
  std::ofstream(data / "boards" / "wheel-of-fortune.json") << board.dump(1);
  std::string rec = temp_file("cityrim.json", R"({"format":"carcassonne-record/1","setup":{"players":["Ann","Ben"],"tileset":"wheel-of-fortune","expansions":[],"seed":1,"draws":"scripted"},
    "turns":[{"discarded":["U@2"],"tile":"E","x":1,"y":-1,"rotation":180,"meeple":"S"}]})");
  const std::string env = "CARCASSONNE_DATA=" + data.string() + " ";
  CmdResult r = run_env(env, "replay " + rec + " --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["scores"], nlohmann::json::parse("[4, 0]"));  // E + the board's cell: a city of 2 tiles
  ASSERT_EQ(j["events"].size(), 1u);
  EXPECT_EQ(j["events"][0]["kind"], "city");
  // The embedded board rejects the same record: U@2 has a place there, and E's city at (1,-1)
  // would meet the rim's field.
  EXPECT_EQ(run("replay " + rec).status, 2);
  // A broken board file is reported with its name and the problem.
  cells[1]["edges"] = "CCFF";
  board["cells"] = cells;
  std::ofstream(data / "boards" / "wheel-of-fortune.json") << board.dump(1);
  CmdResult bad = run_env(env, "replay " + rec);
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.out.find("boards/wheel-of-fortune.json"), std::string::npos) << bad.out;
  fs::remove_all(data);
}

// The Wheel of Fortune's reports in `replay --json` and `-v`: the pig's move (from, to,
// steps, tile), the Plague's take-backs with the deciding player, the segment of a crown scoring.
TEST(Cli, ReplayReportsTheWheel) {
  const std::string rec = temp_file("wheel-events.json", R"({"format":"carcassonne-record/1","setup":{"players":["A","B","C"],
    "tileset":"wheel-of-fortune","expansions":[],"seed":1,"draws":"scripted"},"turns":[
    {"tile":"F","x":0,"y":-1,"rotation":90,"meeple":"N"},
    {"tile":"B","x":1,"y":4,"rotation":0,"meeple":"crown:taxes:0"},
    {"tile":"F","x":4,"y":2,"rotation":0,"meeple":"E"},
    {"tile":"U@3","x":2,"y":-1,"rotation":0,"meeple":"crown:plague:0"},
    {"tile":"U@2","x":-1,"y":0,"rotation":0,"plague":[{"x":4,"y":2,"at":"E"},{"x":0,"y":-1,"at":"N"}]}]})");
  CmdResult r = run("replay " + rec + " --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> turn5;
  for (const auto& e : j["events"]) {
    if (e["turn"] != 5) continue;
    turn5.push_back(e["kind"]);
    if (e["kind"] == "pig") {
      EXPECT_EQ(e["from"], "storm");
      EXPECT_EQ(e["segment"], "plague");
      EXPECT_EQ(e["steps"], 2);
      EXPECT_EQ(e["tile"], "U@2");
      EXPECT_EQ(e["player"], 1);
    }
    if (e["kind"] == "crown") {
      EXPECT_EQ(e["segment"], "plague");
    }
  }
  EXPECT_EQ(turn5, (std::vector<std::string>{"pig", "plague", "plague", "crown"}));
  EXPECT_EQ(j["events"][5]["player"], 2);  // C decides first (B has nobody on the land)
  EXPECT_EQ(j["events"][5]["at"], "E");
  CmdResult v = run("replay " + rec + " -v");
  ASSERT_EQ(v.status, 0) << v.out;
  EXPECT_NE(v.out.find("turn 5: B draws U@2: the pig moves 2 to plague"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("turn 5: C takes back the follower at (4,2) E for the plague"), std::string::npos) << v.out;
}

// Issue #13 item 7/12: numbers that would wrap and oversized input: exit 2, turn and field named.
TEST(Cli, ReplayRefusesOutOfRangeNumbersAndHugeInput) {
  const std::string head =
      R"({"format":"carcassonne-record/1","setup":{"players":["Ann","Ben"],"tileset":"base","expansions":[],"seed":1,"draws":"scripted"},"turns":[{"tile":"E","x":0,"y":-1,"rotation":180},)";
  CmdResult wrap = run("replay " + temp_file("wrap.json", head + R"({"tile":"K","x":65537,"y":0,"rotation":0}]})"));
  EXPECT_EQ(wrap.status, 2);
  EXPECT_NE(wrap.out.find("turn 2: 'x' is out of range (-1000 to 1000, got 65537)"), std::string::npos) << wrap.out;
  CmdResult seed = run("replay " + temp_file("seed.json", R"({"format":"carcassonne-record/1","setup":{"players":["Ann","Ben"],"seed":1e400},"turns":[]})"));
  EXPECT_EQ(seed.status, 2);
  EXPECT_NE(seed.out.find("number overflow parsing '1e400'"), std::string::npos) << seed.out;
  CmdResult neg = run("replay " + temp_file("neg.json", R"({"format":"carcassonne-record/1","setup":{"players":["Ann","Ben"],"seed":-5},"turns":[]})"));
  EXPECT_EQ(neg.status, 2);
  EXPECT_NE(neg.out.find("setup.seed: must be an integer from 0 to 18446744073709551615 (got -5)"), std::string::npos) << neg.out;
  CmdResult rot = run("replay " + temp_file("rot.json", head + R"({"tile":"K","x":1,"y":0,"rotation":4294967386}]})"));
  EXPECT_EQ(rot.status, 2);
  EXPECT_NE(rot.out.find("turn 2: 'rotation' is out of range"), std::string::npos) << rot.out;
  CmdResult deep = run("replay " + temp_file("deep.json", std::string(70000, '[') + std::string(70000, ']')));
  EXPECT_EQ(deep.status, 2);
  EXPECT_NE(deep.out.find("JSON nested deeper than 32 levels"), std::string::npos) << deep.out;
  CmdResult big = run("replay " + temp_file("big.json", std::string(2 << 20, ' ')));
  EXPECT_EQ(big.status, 2);
  EXPECT_NE(big.out.find("record: 2097152 bytes, more than the limit of 1048576"), std::string::npos) << big.out;
  std::string name(100000, 'n');
  CmdResult longname = run("replay " + temp_file("name.json", R"({"format":"carcassonne-record/1","setup":{"players":["Ann",")" + name + R"("]},"turns":[]})"));
  EXPECT_EQ(longname.status, 2);
  EXPECT_NE(longname.out.find("'players[1]' has 100000 bytes (at most 100)"), std::string::npos) << longname.out.substr(0, 300);
}

TEST(Cli, LadderRatesTheOutputsOfTournaments) {
  // Two real (small) tournaments, random-greedy and greedy-greedy:eval=expect, read back by
  // `ladder`: greedy anchored at 1000, random below it, every interval around its rating.
  CmdResult a = run("tournament --players greedy,random --games 6 --seed 2 --json");
  CmdResult b = run("tournament --players greedy:eval=expect:follower=7,greedy --games 6 --seed 2 --json");
  ASSERT_EQ(a.status, 0) << a.out;
  ASSERT_EQ(b.status, 0) << b.out;
  const std::string fa = temp_file("ladder_a.json", a.out), fb = temp_file("ladder_b.json", b.out);
  CmdResult r = run("ladder " + fa + " " + fb + " --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j.size(), 3u);
  std::map<std::string, nlohmann::json> by;
  for (const auto& e : j) by[e["name"].get<std::string>()] = e;
  ASSERT_TRUE(by.count("greedy") && by.count("random") && by.count("greedy:eval=expect:follower=7"));
  EXPECT_DOUBLE_EQ(by["greedy"]["elo"].get<double>(), 1000);
  EXPECT_DOUBLE_EQ(by["greedy"]["games"].get<double>(), 12);
  const double random_elo = by["random"]["elo"].get<double>();
  EXPECT_LT(random_elo, 1000);
  EXPECT_LT(by["random"]["ci95"][0].get<double>(), random_elo);
  EXPECT_GT(by["random"]["ci95"][1].get<double>(), random_elo);
  // The anchor must play; a file that is not a tournament output is named in the error.
  CmdResult bad = run("ladder " + fa + " --anchor mcts");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.out.find("--anchor mcts"), std::string::npos) << bad.out;
  const std::string junk = temp_file("ladder_junk.json", "{\"players\": []}");
  CmdResult bj = run("ladder " + junk);
  EXPECT_NE(bj.status, 0);
  EXPECT_NE(bj.out.find("ladder_junk.json"), std::string::npos) << bj.out;
  // Nesting beyond the JSON depth limit is refused before parsing, naming the file.
  const std::string deep = temp_file("ladder_deep.json", std::string(200, '[') + std::string(200, ']'));
  CmdResult bd = run("ladder " + deep);
  EXPECT_NE(bd.status, 0);
  EXPECT_NE(bd.out.find("ladder_deep.json"), std::string::npos) << bd.out;
  EXPECT_NE(bd.out.find("nest"), std::string::npos) << bd.out;
}

TEST(Cli, TournamentResumeContinuesAStoppedRun) {
  // A run of 3 games with records, then the same run of 6 with --resume: games 0-2 are read
  // from their records, 3-5 played; the scores are those of a run of 6 without records.
  const auto dir = std::filesystem::temp_directory_path() / ("carc_cli_test_" + std::to_string(getpid()) + "_resume");
  std::filesystem::remove_all(dir);
  const std::string players = "--players greedy:eval=expect,random ";
  CmdResult a = run("tournament " + players + "-n 3 --seed 8 --json --out " + dir.string());
  ASSERT_EQ(a.status, 0) << a.out;
  CmdResult b = run("tournament " + players + "-n 6 --seed 8 --json --resume --out " + dir.string());
  ASSERT_EQ(b.status, 0) << b.out;
  EXPECT_NE(b.out.find("3 of 6 games read from"), std::string::npos) << b.out;
  CmdResult c = run("tournament " + players + "-n 6 --seed 8 --json");
  ASSERT_EQ(c.status, 0) << c.out;
  const auto jb = nlohmann::json::parse(b.out.substr(b.out.find('{')));
  const auto jc = nlohmann::json::parse(c.out);
  EXPECT_EQ(jb["games"], 6);
  for (int p = 0; p < 2; ++p) {
    EXPECT_EQ(jb["players"][p]["wins"], jc["players"][p]["wins"]);
    EXPECT_EQ(jb["players"][p]["mean_score"], jc["players"][p]["mean_score"]);
  }
  EXPECT_TRUE(std::filesystem::exists(dir / "game_000005.record.json"));
  // Records of another run are refused, naming the file and what differs.
  CmdResult seed = run("tournament " + players + "-n 6 --seed 9 --resume --out " + dir.string());
  EXPECT_NE(seed.status, 0);
  EXPECT_NE(seed.out.find("game_000000.record.json: not this run's game 0"), std::string::npos) << seed.out;
  CmdResult who = run("tournament --players greedy,random -n 6 --seed 8 --resume --out " + dir.string());
  EXPECT_NE(who.status, 0);
  EXPECT_NE(who.out.find("its players are not this run's"), std::string::npos) << who.out;
  CmdResult rules = run("tournament " + players + "-n 6 --seed 8 --expansions festival --resume --out " + dir.string());
  EXPECT_NE(rules.status, 0);
  CmdResult noout = run("tournament " + players + "-n 6 --resume");
  EXPECT_NE(noout.status, 0);
  EXPECT_NE(noout.out.find("--resume needs --out"), std::string::npos) << noout.out;
  // A damaged record is an error naming it, never a silently different result.
  { std::ofstream(dir / "game_000001.record.json") << "{\"format\": "; }
  CmdResult bad = run("tournament " + players + "-n 6 --seed 8 --resume --out " + dir.string());
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.out.find("game_000001.record.json"), std::string::npos) << bad.out;
  std::filesystem::remove_all(dir);
}

// Fair draws (docs/security.md): `replay --draws-from K` checks that every tile drawn after
// turn K is the seed's, and `--commitment --salt` that the published commitment opens.
TEST(Cli, ReplayChecksThatTheDrawsFollowTheSeedAndTheCommitment) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("carc_cli_fair_" + std::to_string(getpid()));
  fs::remove_all(dir);
  ASSERT_EQ(run("simulate --games 1 --seed 3 --out " + dir.string()).status, 0);
  std::string file;
  for (const auto& f : fs::directory_iterator(dir)) file = f.path().string();
  ASSERT_FALSE(file.empty());
  CmdResult ok = run("replay " + file + " --draws-from 0");
  EXPECT_EQ(ok.status, 0) << ok.out;
  EXPECT_NE(ok.out.find("is the seed's"), std::string::npos) << ok.out;
  std::ifstream in(file);
  nlohmann::json rec = nlohmann::json::parse(in);
  const uint64_t seed = rec["setup"]["seed"];
#ifdef CARC_HAVE_SERVER
  // The commitment: SHA-256 of "salt:seed", computed here by sha256sum as anyone could.
  const std::string salt = "00112233445566778899aabbccddeeff";
  FILE* p = popen(("printf '%s' '" + salt + ":" + std::to_string(seed) + "' | sha256sum").c_str(), "r");
  char hex[65] = {};
  ASSERT_EQ(fread(hex, 1, 64, p), 64u);
  pclose(p);
  CmdResult opened = run("replay " + file + " --draws-from 0 --salt " + salt + " --commitment " + hex);
  EXPECT_EQ(opened.status, 0) << opened.out;
  EXPECT_NE(opened.out.find("open the commitment"), std::string::npos) << opened.out;
  CmdResult wrong_salt = run("replay " + file + " --draws-from 0 --salt ff --commitment " + hex);
  EXPECT_EQ(wrong_salt.status, 1) << wrong_salt.out;
#else
  // Without the server layer there is no SHA-256 in the binary: a clear error, not a pass.
  CmdResult no_sha = run("replay " + file + " --draws-from 0 --salt 00 --commitment 00");
  EXPECT_EQ(no_sha.status, 2) << no_sha.out;
  EXPECT_NE(no_sha.out.find("needs a build with the server layer"), std::string::npos) << no_sha.out;
#endif
  // Another seed: the same turns replay (they list their draws) but were not the seed's.
  rec["setup"]["seed"] = seed + 1;
  const std::string other = temp_file("other_seed.json", rec.dump());
  EXPECT_EQ(run("replay " + other).status, 0);
  CmdResult bad = run("replay " + other + " --draws-from 0");
  EXPECT_EQ(bad.status, 1) << bad.out;
  EXPECT_NE(bad.out.find("do not follow the seed"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("turn "), std::string::npos) << bad.out;
  // Checked only after the given turn: from the last turn on, nothing is left to check.
  EXPECT_EQ(run("replay " + other + " --draws-from " + std::to_string(rec["turns"].size())).status, 0);
  fs::remove_all(dir);
}

// The operator's command on a server's database: list, and clear errors.
TEST(Cli, GamesListsAServersDatabaseAndRefusesUnknownGames) {
  namespace fs = std::filesystem;
  const std::string db = (fs::temp_directory_path() / ("carc_cli_games_" + std::to_string(getpid()) + ".sqlite")).string();
  fs::remove(db);
  EXPECT_EQ(run("games --db " + db + " list").status, 2) << "no such database: not created";
  EXPECT_FALSE(fs::exists(db));
  // A server creates it (stopped by timeout at once).
  run_env("timeout 2 ", "serve --port 0 --db " + db);
  ASSERT_TRUE(fs::exists(db));
  CmdResult list = run("games --db " + db + " list");
  EXPECT_EQ(list.status, 0) << list.out;
  EXPECT_NE(list.out.find("0 game(s)"), std::string::npos) << list.out;
  CmdResult pause = run("games --db " + db + " pause nosuchgame");
  EXPECT_EQ(pause.status, 2) << pause.out;
  EXPECT_NE(pause.out.find("no game 'nosuchgame'"), std::string::npos) << pause.out;
  EXPECT_EQ(run("games --db " + db + " expire --days 1").status, 0);
  for (const char* ext : {"", "-wal", "-shm"}) fs::remove(db + ext);
}

// Issue #33 item 6: a record read from something that is not a regular file (/dev/zero, a
// pipe) is read only up to the record limit (limits::kMaxRecordBytes, 1 MiB) + 1 byte, then
// refused with exit 2; within the limit it is read as from a file. `timeout` turns the old
// unbounded read (3.9 GB in 10 s) into a failure instead of a hang.
TEST(Cli, RecordsFromNonRegularFilesAreBounded) {
  for (const char* cmd : {"replay", "show"}) {
    CmdResult zero = run_env("timeout 20 ", std::string(cmd) + " /dev/zero");
    EXPECT_EQ(zero.status, 2) << cmd << ": " << zero.out.substr(0, 300);
    EXPECT_NE(zero.out.find("/dev/zero: more than the limit of 1048576 bytes"), std::string::npos) << zero.out.substr(0, 300);
    CmdResult pipe = run_env("head -c 3000000 /dev/zero | timeout 20 ", std::string(cmd) + " /dev/stdin");
    EXPECT_EQ(pipe.status, 2) << cmd << ": " << pipe.out.substr(0, 300);
    EXPECT_NE(pipe.out.find("more than the limit of 1048576 bytes"), std::string::npos) << pipe.out.substr(0, 300);
  }
  // A named pipe (mkfifo) fed without end.
  const auto fifo = std::filesystem::temp_directory_path() / ("carc_cli_test_" + std::to_string(getpid()) + "_fifo");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  CmdResult named = run_env("(cat /dev/zero > " + fifo.string() + " 2>/dev/null &) ; timeout 20 ", "replay " + fifo.string());
  EXPECT_EQ(named.status, 2) << named.out.substr(0, 300);
  EXPECT_NE(named.out.find("more than the limit of 1048576 bytes"), std::string::npos) << named.out.substr(0, 300);
  std::filesystem::remove(fifo);
  // At the edge: a record of exactly 1 MiB (padded with spaces) through a pipe is read; one
  // byte more is refused.
  const std::string rec =
      R"({"format":"carcassonne-record/1","setup":{"players":["Ann","Ben"],"tileset":"base","expansions":[],"seed":1,"draws":"scripted"},"turns":[{"tile":"E","x":0,"y":-1,"rotation":180,"meeple":"S"}]})";
  const std::string at = temp_file("edge.json", rec + std::string((1 << 20) - rec.size(), ' '));
  const std::string over = temp_file("edge1.json", rec + std::string((1 << 20) + 1 - rec.size(), ' '));
  CmdResult ok = run_env("cat " + at + " | timeout 20 ", "replay /dev/stdin");
  EXPECT_EQ(ok.status, 0) << ok.out.substr(0, 300);
  EXPECT_NE(ok.out.find("Ann: 4"), std::string::npos) << ok.out;
  CmdResult shown = run_env("cat " + at + " | timeout 20 ", "show /dev/stdin --color never");
  EXPECT_EQ(shown.status, 0) << shown.out.substr(0, 300);
  CmdResult no = run_env("cat " + over + " | timeout 20 ", "replay /dev/stdin");
  EXPECT_EQ(no.status, 2) << no.out.substr(0, 300);
  EXPECT_NE(no.out.find("more than the limit of 1048576 bytes"), std::string::npos) << no.out.substr(0, 300);
}

// Issue #33 item 5: a record's strings never reach the terminal raw: control characters (ESC,
// BEL, newline), bidirectional overrides and invisible characters are printed as escapes by
// replay, show and the error messages.
TEST(Cli, RecordTextIsEscapedOnTheTerminal) {
  const std::string f = temp_file("ctl.json",
      R"({"format":"carcassonne-record/1","setup":{"players":["Ann\u001b[2J\u001b]0;pwned\u0007","\u202eneB\u200b\nX"],"tileset":"base","expansions":[],"seed":1,"draws":"scripted"},"turns":[{"tile":"E","x":0,"y":-1,"rotation":180,"meeple":"S"}]})");
  for (const std::string cmd : {"replay -v", "show --color never"}) {
    CmdResult r = run(cmd + " " + f);
    EXPECT_EQ(r.status, 0) << cmd << ": " << r.out;
    for (const std::string bad : {"\x1b", "\x07", "\xe2\x80\xae", "\xe2\x80\x8b", "neB\nX"})
      EXPECT_EQ(r.out.find(bad), std::string::npos) << cmd << ": raw control text in " << r.out;
    EXPECT_NE(r.out.find("Ann\\x1b[2J\\x1b]0;pwned\\x07"), std::string::npos) << cmd << ": " << r.out;
    EXPECT_NE(r.out.find("\\u{202E}neB\\u{200B}\\x0aX"), std::string::npos) << cmd << ": " << r.out;
  }
  // Error messages quote the record too (an unknown tile id).
  const std::string bad = temp_file("ctltile.json",
      R"({"format":"carcassonne-record/1","setup":{"players":["Ann","Ben"],"seed":1,"draws":"scripted"},"turns":[{"tile":"E\u001b[31m","x":0,"y":-1,"rotation":180}]})");
  CmdResult e = run("replay " + bad);
  EXPECT_EQ(e.status, 2) << e.out;
  EXPECT_EQ(e.out.find('\x1b'), std::string::npos) << e.out;
}
