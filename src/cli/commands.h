// Each subcommand of `carcassonne` lives in its own file and registers itself on the app
// through one function listed in main.cc (an explicit table: no static-init tricks).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "record.h"

namespace carc::cli {

void register_replay(CLI::App& app);
void register_simulate(CLI::App& app);
void register_bench(CLI::App& app);
void register_show(CLI::App& app);
void register_tournament(CLI::App& app);
void register_ladder(CLI::App& app);
void register_play(CLI::App& app);
void register_analyse(CLI::App& app);
void register_serve(CLI::App& app);
void register_games(CLI::App& app);

// Exit status for bad input (invalid record, bad arguments).
constexpr int kExitBadInput = 2;

// Reads a whole file; throws std::runtime_error naming the file.
std::string read_file(const std::string& path);
// Writes a file atomically (temp file + rename); throws std::runtime_error.
void write_file(const std::string& path, const std::string& text);
// Rules from command-line options; throws std::invalid_argument naming the bad value.
Rules rules_from(int players, const std::string& tileset, const std::string& expansions);
// Loads a record file; throws RecordError prefixed with the file name.
Record load_record(const std::string& path);

// Thrown by command handlers to exit with a status after printing a message to stderr.
struct Exit {
  int status;
};

}  // namespace carc::cli
