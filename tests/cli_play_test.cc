// `carcassonne play` in the terminal, driven through its standard input: `help` lists the
// commands, `hint` suggests moves in the keys the player types (typing them plays exactly the
// suggested move), the hint is the same for the same seed, and `undo` takes a move back.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <sstream>

namespace {

// Runs `carcassonne play ARGS` with `input` on its standard input; returns the output.
std::string play(const std::string& input, const std::string& args) {
  const auto dir = std::filesystem::temp_directory_path() / ("carc_cli_play_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string in = (dir / "input.txt").string();
  if (FILE* f = fopen(in.c_str(), "w")) {
    fputs(input.c_str(), f);
    fclose(f);
  }
  const std::string cmd = std::string(CARC_BINARY_DIR) + "/carcassonne play " + args + " --save " +
                          (dir / "game.json").string() + " < " + in + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  pclose(p);
  std::filesystem::remove_all(dir);
  return out;
}

struct Suggestion {
  std::string keys, description;
};

// The lines "  K. KEYS: DESCRIPTION  win P%, score difference D" after "hint (".
std::vector<Suggestion> suggestions(const std::string& out) {
  std::vector<Suggestion> v;
  const size_t at = out.find("hint (");
  if (at == std::string::npos) return v;
  std::istringstream in(out.substr(at));
  std::string line;
  std::getline(in, line);
  const std::regex re(R"(^  [0-9]+\. (.+?): (.+?)  win [0-9.]+%, score difference [-+][0-9.]+$)");
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, re)) break;
    v.push_back({m[1], m[2]});
  }
  return v;
}

const std::string kArgs = "--seed 5 --vs greedy --hint mcts:iterations=2000";

TEST(CliPlay, HelpListsTheCommands) {
  const std::string out = play("help\nq\n", kArgs);
  EXPECT_NE(out.find("'hint' suggests moves"), std::string::npos) << out;
  EXPECT_NE(out.find("'q' saves the record and quits"), std::string::npos) << out;
  EXPECT_NE(out.find("'undo' takes back your last move"), std::string::npos) << out;
  EXPECT_NE(out.find("(hint: suggest a move, help, q: save and quit)"), std::string::npos) << out;
}

TEST(CliPlay, HintSuggestsMovesInTheKeysThePlayerTypes) {
  const std::string out = play("hint\nq\n", kArgs);
  const std::vector<Suggestion> s = suggestions(out);
  ASSERT_GE(s.size(), 2u) << out;
  ASSERT_LE(s.size(), 3u) << out;
  // Same seed, same hint.
  const std::vector<Suggestion> again = suggestions(play("hint\nq\n", kArgs));
  ASSERT_EQ(again.size(), s.size());
  for (size_t i = 0; i < s.size(); ++i) EXPECT_EQ(again[i].description, s[i].description);
  // Typing a suggestion's keys plays exactly that move, for each of them.
  for (const Suggestion& g : s) {
    std::string keys = g.keys, input = "hint\n";
    for (size_t p; (p = keys.find(" then ")) != std::string::npos; keys.erase(0, p + 6)) input += keys.substr(0, p) + "\n";
    input += keys + "\nq\n";
    const std::string played = play(input, kArgs);
    EXPECT_NE(played.find("turn 1: You: " + g.description + "\n"), std::string::npos)
        << "keys '" << g.keys << "' should play " << g.description << "\n" << played;
  }
}

// 'undo' (match::Table::undo, the server's policy): refused before your first move; after it, your
// move and the computer's reply are taken back and the same tile comes again.
TEST(CliPlay, UndoTakesBackYourMoveAndTheComputersReply) {
  const std::string refused = play("undo\nq\n", kArgs);
  EXPECT_NE(refused.find("cannot undo: there is no move of yours to take back"), std::string::npos) << refused;
  const std::vector<Suggestion> s = suggestions(play("hint\nq\n", kArgs));
  ASSERT_FALSE(s.empty());
  std::string keys = s[0].keys, input;
  for (size_t p; (p = keys.find(" then ")) != std::string::npos; keys.erase(0, p + 6)) input += keys.substr(0, p) + "\n";
  input += keys + "\nundo\nq\n";
  const std::string out = play(input, kArgs);
  EXPECT_NE(out.find("turn 1: You: " + s[0].description + "\n"), std::string::npos) << out;
  EXPECT_NE(out.find("turn 2: AI 2"), std::string::npos) << out;
  EXPECT_NE(out.find("took back 2 moves; turn 1\n"), std::string::npos) << out;
  const size_t first = out.find("your tile is ");
  ASSERT_NE(first, std::string::npos) << out;
  const std::string tile_line = out.substr(first, out.find('\n', first) - first);
  EXPECT_NE(out.rfind(tile_line), first) << "the same tile comes again after the undo\n" << out;
}

TEST(CliPlay, ABadHintSpecIsRefusedBeforeTheGame) {
  const std::string out = play("q\n", "--seed 5 --hint mcts:nonsense=1");
  EXPECT_NE(out.find("nonsense"), std::string::npos) << out;
  EXPECT_EQ(out.find("your tile is"), std::string::npos) << out;
}

}  // namespace
