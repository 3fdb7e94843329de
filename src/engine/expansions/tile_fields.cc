// The modules' parts of a tile entry (tile_fields.h), one line per module.
#include "tile_fields.h"

namespace carc {

bool modules_tile_symbol(const std::string& symbol, TileType& t) {
  if (symbol == "festival") return t.festival = true;  // The Festival
  return false;
}

bool modules_centre_kind(const std::string& name, Kind& kind) {
  if (name != "tent") return false;  // The Fortune Teller
  kind = Kind::Tent;
  return true;
}

std::string modules_centre_names() { return "tent"; }

std::string modules_tile_fields(const nlohmann::json& j, TileType& t) {
  if (j.contains("wheel")) {  // The Wheel of Fortune: how far a wheel tile turns the pig
    if (!j["wheel"].is_number_integer() || j["wheel"].get<int>() < 0 || j["wheel"].get<int>() > 3)
      return "'wheel' must be 0..3";
    t.wheel = j["wheel"].get<int>();
  }
  return "";
}

}  // namespace carc
