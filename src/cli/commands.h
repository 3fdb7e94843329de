// Each subcommand of `carcassonne` lives in its own file and registers itself on the app
// through one function listed in main.cc (an explicit table: no static-init tricks).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>

#include "input_limits.h"
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

// Reads a whole file of at most `max_bytes` (default: limits::kMaxRecordBytes) bytes, of any
// kind (a regular file, a pipe, /dev/stdin, a device): it stops reading at max_bytes + 1 and
// throws RecordError (exit 2) naming the file and the limit, so /dev/zero or an endless pipe
// cannot fill the memory. Throws std::runtime_error naming the file when it cannot be opened.
std::string read_file(const std::string& path, size_t max_bytes = limits::kMaxRecordBytes);
// Text from a file (a record's player names, locations, ...) made safe for a terminal: control
// characters (C0, DEL, C1), bidirectional controls, invisible characters (see
// limits::unsafe_code_point) and bytes that are not UTF-8 are written as escapes (\x1b,
// \u{202E}), so a record cannot move the cursor, recolour or rewrite the terminal. Every
// command prints a record's strings through it.
std::string term_safe(std::string_view text);
// Writes a file atomically (temp file + rename); throws std::runtime_error.
void write_file(const std::string& path, const std::string& text);
// Rules from command-line options; throws std::invalid_argument naming the bad value.
Rules rules_from(int players, const std::string& tileset, const std::string& expansions);
// The --tileset and --expansions help texts, from the module table (expansions/registry.h).
std::string tileset_help();
std::string expansions_help();
// Loads a record file; throws RecordError prefixed with the file name.
Record load_record(const std::string& path);

// Thrown by command handlers to exit with a status after printing a message to stderr.
struct Exit {
  int status;
};

}  // namespace carc::cli
