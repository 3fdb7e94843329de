// The bench signatures of every variant of `carcassonne bench --suite`, pinned in
// tests/golden/bench_signatures.txt: any change of behaviour in a rule set (scoring, move
// generation, the sampling of random moves, the draws) changes a signature and fails here.
// A legitimate change regenerates the file (`carcassonne bench --suite --golden --games 2000`)
// and says why in the commit message and docs/performance.md.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

std::vector<std::string> lines_of(std::istream& in) {
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') out.push_back(line);
  return out;
}

}  // namespace

TEST(BenchSignatures, EveryVariantMatchesTheGoldenFile) {
  const std::string path = std::string(CARC_SOURCE_DIR) + "/tests/golden/bench_signatures.txt";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  const auto golden = lines_of(in);
  ASSERT_FALSE(golden.empty()) << path << " has no signature line";
  // The games count is part of each line; all lines use the same one.
  std::istringstream first(golden[0]);
  std::string players, tileset, expansions, games;
  first >> players >> tileset >> expansions >> games;
  ASSERT_FALSE(games.empty()) << path << ": malformed line '" << golden[0] << "'";
  const std::string cmd = std::string(CARC_BINARY_DIR) + "/carcassonne bench --suite --golden --games " + games + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_TRUE(p) << cmd;
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  ASSERT_EQ(pclose(p), 0) << cmd << ":\n" << out;
  std::istringstream os(out);
  const auto got = lines_of(os);
  ASSERT_EQ(got.size(), golden.size()) << "the bench suite and " << path << " list different variants:\n" << out;
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i], golden[i]) << "the bench signature changed (players tileset expansions games signature "
                                    "total_score moves: got the first line, " << path << " pins the second)";
}
