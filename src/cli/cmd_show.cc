// `carcassonne show FILE`: draws the board of a record (or a state JSON) in the terminal.
#include <unistd.h>

#include <iostream>

#include "board_text.h"
#include "commands.h"

namespace carc::cli {

void register_show(CLI::App& app) {
  auto* cmd = app.add_subcommand("show", "Draw the board of a game record or state as text");
  auto file = std::make_shared<std::string>();
  auto turn = std::make_shared<int>(-1);
  auto color = std::make_shared<std::string>("auto");
  cmd->add_option("FILE", *file, "game record or state JSON")->required();
  cmd->add_option("--turn", *turn, "show the position after this many turns (default: all)");
  cmd->add_option("--color", *color, "auto, always or never")->check(CLI::IsMember({"auto", "always", "never"}));
  cmd->footer(
      "Legend: # city  ^ pennant  | - road  * road end  + road bend  M monastery  T tent\n"
      "        . field  1-6 followers of players 1-6  f festival  Y tree  digit at top right: pig number");
  cmd->callback([=] {
    std::string text = read_file(*file);
    std::vector<std::string> names;
    State s = [&] {
      if (text.find("carcassonne-state/") != std::string::npos) return state_from_json(text);
      Record rec = [&] {  // from the text already read (a pipe can be read only once)
        try {
          return parse_record(text);
        } catch (const RecordError& e) {
          throw RecordError(*file + ": " + e.what(), e.turn());
        }
      }();
      names = rec.players;
      if (*turn >= 0 && size_t(*turn) < rec.turns.size()) rec.keep_turns(size_t(*turn));
      try {
        return replay(rec).state;
      } catch (const RecordError& e) {
        throw RecordError(*file + ": " + e.what(), e.turn());
      }
    }();
    BoardTextOptions opt;
    opt.color = *color == "always" || (*color == "auto" && isatty(1));
    std::cout << board_text(s, opt);
    std::cout << "turn " << s.turn() << (s.is_terminal() ? " (game over)" : "") << ", " << s.bag_size()
              << " tiles left\n";
    for (int p = 0; p < s.num_players(); ++p)
      std::cout << "  " << (p + 1) << " " << (p < int(names.size()) ? term_safe(names[p]) : "P" + std::to_string(p)) << ": "
                << s.score(p) << " points, " << s.supply(p) << " followers in supply\n";
  });
}

}  // namespace carc::cli
