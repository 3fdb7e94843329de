// The `carcassonne` command: one binary, subcommands registered from an explicit table.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "input_limits.h"
#include "tiles.h"

namespace carc::cli {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw std::runtime_error(path + ": cannot write file");
    out << text;
    if (!out) throw std::runtime_error(path + ": write failed");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error(path + ": cannot rename into place");
}

Rules rules_from(int players, const std::string& tileset, const std::string& expansions) {
  Rules r;
  r.players = players;
  r.tileset = tileset;
  if (auto err = parse_expansions(expansions, r); !err.empty()) throw std::invalid_argument(err);
  if (auto err = r.validate(); !err.empty()) throw std::invalid_argument(err);
  return r;
}

Record load_record(const std::string& path) {
  // The size is checked before the file is read (a record of 10^6 turns is 63 MB).
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  if (!ec && bytes > limits::kMaxRecordBytes)
    throw RecordError(path + ": record: " + std::to_string(bytes) + " bytes, more than the limit of " +
                      std::to_string(limits::kMaxRecordBytes));
  std::string text = read_file(path);
  try {
    return parse_record(text);
  } catch (const RecordError& e) {
    throw RecordError(path + ": " + e.what(), e.turn());
  }
}

}  // namespace carc::cli

int main(int argc, char** argv) {
  using namespace carc::cli;
  CLI::App app{
      "carcassonne: an exact and fast Carcassonne engine (base game; Festival, Fortune Teller,\n"
      "Fruit-Bearing Trees, Wheel of Fortune as they land). Run 'carcassonne COMMAND --help'."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "carcassonne 0.1.0");
  register_replay(app);
  register_simulate(app);
  register_bench(app);
  register_show(app);
#ifdef CARC_HAVE_AI
  register_tournament(app);
  register_ladder(app);
  register_play(app);
  register_analyse(app);
#endif
#ifdef CARC_HAVE_SERVER
  register_serve(app);
  register_games(app);
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : kExitBadInput;
  } catch (const Exit& e) {
    return e.status;
  } catch (const carc::RecordError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const carc::TileDataError& e) {
    std::cerr << "error: tile data: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
