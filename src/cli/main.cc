// The `carcassonne` command: one binary, subcommands registered from an explicit table.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "commands.h"
#include "input_limits.h"
#include "tiles.h"

namespace carc::cli {

std::string read_file(const std::string& path, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open file");
  std::string out;
  std::vector<char> buf(64 * 1024);
  while (out.size() <= max_bytes) {  // at most max_bytes + 1, whatever the file is
    in.read(buf.data(), std::streamsize(std::min(buf.size(), max_bytes + 1 - out.size())));
    const auto n = in.gcount();
    if (n <= 0) break;
    out.append(buf.data(), size_t(n));
  }
  if (out.size() > max_bytes)
    throw RecordError(path + ": more than the limit of " + std::to_string(max_bytes) +
                      " bytes (reading stopped there)");
  return out;
}

std::string term_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char buf[16];
  for (size_t i = 0; i < text.size();) {
    const size_t start = i;
    char32_t c;
    if (!limits::next_code_point(text, i, c)) {
      std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(static_cast<unsigned char>(text[start])));
      out += buf;
    } else if (limits::unsafe_code_point(c)) {
      if (c < 0x80) std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(c));
      else std::snprintf(buf, sizeof buf, "\\u{%04X}", unsigned(c));
      out += buf;
    } else {
      out.append(text.substr(start, i - start));
    }
  }
  return out;
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

std::string tileset_help() { return module_names(ModuleKind::TileSet, ", ", " or "); }
std::string expansions_help() { return "comma-separated: " + module_names(ModuleKind::Expansion, ","); }

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
    std::cerr << "error: " << term_safe(e.what()) << "\n";
    return kExitBadInput;
  } catch (const carc::TileDataError& e) {
    std::cerr << "error: tile data: " << term_safe(e.what()) << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "error: " << term_safe(e.what()) << "\n";
    return 1;
  }
  return 0;
}
