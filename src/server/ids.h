// Clocks and random identifiers: seat tokens, game ids, seeds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace carc::server {

int64_t now_ms();  // unix milliseconds
std::string random_string(size_t n, const char* alphabet);
std::string new_token();
std::string new_game_id();
uint64_t random_seed();

}  // namespace carc::server
