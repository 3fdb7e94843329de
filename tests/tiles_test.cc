// Unit tests of the tile-set and board parser (src/engine/tiles.cc): a good tile is read into the
// tables the engine uses, and each kind of broken tile is refused with a message that names the
// file, the tile and the problem.
#include <gtest/gtest.h>

#include <string>

#include "tiles.h"

using namespace carc;

namespace {

std::string set_with(const std::string& tile) {
  return R"({"tileset": "t", "description": "test", "start": {"tile": "S", "rotation": 0}, "tiles": [
    {"id": "S", "count": 1, "edges": "CRFR", "cities": "c1=N", "pennants": "0", "roads": "r1=E+W",
     "fields": "f1=En+Wn [c1]; f2=Es+Se+Sw+Ws"})" +
         (tile.empty() ? "" : ",\n    " + tile) + "]}";
}

// The error message of parsing `text`, or "" when it parses.
std::string error_of(const std::string& text) {
  try {
    parse_tile_set(text, "test.json");
  } catch (const TileDataError& e) {
    return e.what();
  }
  return "";
}

void expect_error(const std::string& tile, const std::string& part) {
  const std::string err = error_of(set_with(tile));
  EXPECT_NE(err.find(part), std::string::npos) << "tile " << tile << "\n  error: '" << err << "'\n  wanted: " << part;
  EXPECT_EQ(err.rfind("test.json", 0), 0u) << "the message names the file: " << err;
}

TEST(TileParser, ReadsATileIntoRotationTables) {
  const TileSetFile f = parse_tile_set(
      set_with(R"({"id": "O", "count": 2, "edges": "CRRC", "cities": "c1=N+W", "pennants": "c1:1",
                  "roads": "r1=E+S", "fields": "f1=En+Sw [c1]; f2=Es+Se", "note": "corner"})"),
      "test.json");
  ASSERT_EQ(f.tiles.size(), 2u);
  const TileType& o = f.tiles[1];
  EXPECT_EQ(o.id, "O");
  EXPECT_EQ(o.count, 2);
  EXPECT_EQ(o.nseg, 4);  // c1, r1, f1, f2
  EXPECT_EQ(o.rot[0].edge(kNorth), Edge::City);
  EXPECT_EQ(o.rot[0].edge(kEast), Edge::Road);
  // Rotated 90 degrees clockwise, the city (N+W) faces N+E and the road (E+S) faces S+W.
  EXPECT_EQ(o.rot[1].edge(kNorth), Edge::City);
  EXPECT_EQ(o.rot[1].edge(kEast), Edge::City);
  EXPECT_EQ(o.rot[1].edge(kSouth), Edge::Road);
  EXPECT_EQ(o.rot[1].edge(kWest), Edge::Road);
  const int city = o.segment_at("N", 0);
  ASSERT_GE(city, 0);
  EXPECT_EQ(o.rot[0].seg[city].kind, Kind::City);
  EXPECT_EQ(o.rot[0].seg[city].pennants, 1);
  // Location names follow the rotation.
  EXPECT_EQ(o.segment_at("W", 0), city);  // one city touches N and W
  EXPECT_NE(o.segment_at("E", 0), city);
  EXPECT_EQ(o.segment_at(o.location_name(city, 1), 1), city);
  // O has four distinct rotations; a symmetric tile (a full city) has one.
  EXPECT_EQ(o.distinct_rotations, 0xF);
  const TileSetFile c = parse_tile_set(
      set_with(R"({"id": "C", "count": 1, "edges": "CCCC", "cities": "c1=N+E+S+W", "pennants": "c1:1",
                  "roads": "-", "fields": "-"})"),
      "test.json");
  EXPECT_EQ(c.tiles[1].distinct_rotations, 0x1);
  EXPECT_EQ(c.tiles[1].canonical_rot[3], 0);
}

TEST(TileParser, RefusesBrokenTilesNamingTheProblem) {
  expect_error(R"({"id": "X1", "count": 1, "edges": "CRF", "cities": "-", "pennants": "0", "roads": "-", "fields": "-"})",
               "'edges' must be 4 letters");
  expect_error(R"({"id": "X2", "count": 1, "edges": "FFQF", "cities": "-", "pennants": "0", "roads": "-",
                   "fields": "f1=Nw+Ne+En+Es+Se+Sw+Ws+Wn"})",
               "edge S is 'Q'");
  expect_error(R"({"id": "X3", "count": -1, "edges": "FFFF", "cities": "-", "pennants": "0", "roads": "-",
                   "fields": "f1=Nw+Ne+En+Es+Se+Sw+Ws+Wn"})",
               "'count' must be a non-negative integer");
  expect_error(R"({"id": "X4", "count": 1, "edges": "FFFF", "cities": "-", "pennants": "0", "roads": "-",
                   "fields": "f1=Nw+Ne+En+Es+Se+Sw+Ws+Wn", "colour": "red"})",
               "unknown field 'colour'");
  expect_error(R"({"id": "X5", "count": 1, "edges": "CFFF", "cities": "-", "pennants": "0", "roads": "-",
                   "fields": "f1=En+Es+Se+Sw+Ws+Wn"})",
               "tile X5: side N must belong to exactly one");
  expect_error(R"({"id": "X6", "count": 1, "edges": "FFFF", "cities": "-", "pennants": "0", "roads": "-",
                   "fields": "f1=Nw+Ne+En+Es+Se+Sw+Ws+Wn+Nw"})",
               "names Nw twice");
  expect_error(R"({"id": "X7", "count": 1, "edges": "FFFF", "cities": "-", "pennants": "0", "roads": "-",
                   "fields": "f1=Nw+Ne+En+Es+Se+Sw+Ws"})",
               "both halves must belong to fields");
  expect_error(R"({"id": "X8", "count": 1, "edges": "CFFF", "cities": "c1=N", "pennants": "c2:1", "roads": "-",
                   "fields": "f1=En+Es+Se+Sw+Ws+Wn [c1]"})",
               "pennants name 'c2'");
  expect_error(R"({"id": "X9", "count": 1, "edges": "CFFF", "cities": "c1=N", "pennants": "0", "roads": "-",
                   "fields": "f1=En+Es+Se+Sw+Ws+Wn [c9]"})",
               "touches 'c9', which is not a city segment");
  expect_error(R"({"id": "XA", "count": 1, "edges": "FFFF", "cities": "-", "pennants": "0", "roads": "-",
                   "fields": "f1=Nw+Ne+En+Es+Se+Sw+Ws+Wn", "center": "castle"})",
               "unknown centre feature 'castle' (monastery or tent)");
  // A symbol no module defines (the Festival's "festival" and the trees' "tree" are known).
  expect_error(R"({"id": "XD", "count": 1, "edges": "FFFF", "cities": "-", "pennants": "0", "roads": "-",
                   "fields": "f1=Nw+Ne+En+Es+Se+Sw+Ws+Wn", "symbols": ["festival", "castle"]})",
               "tile XD: unknown symbol 'castle'");
  expect_error(R"({"id": "XB", "count": 1, "edges": "FFFF", "cities": "-", "pennants": "0", "roads": "-",
                   "fields": "f1=Nw+Ne+En+Es+Se+Sw+Ws+Wn", "wheel": 4})",
               "'wheel' must be 0..3");
  expect_error(R"({"id": "XC", "count": 1, "edges": "FRFF", "cities": "-", "pennants": "0", "roads": "r1=E+Q",
                   "fields": "f1=Nw+Ne+En+Es+Se+Sw+Ws+Wn"})",
               "'Q' is not a side");
  expect_error(R"({"count": 1, "edges": "FFFF"})", "missing string field 'id'");
  expect_error(R"({"id": "S", "count": 1, "edges": "CRFR", "cities": "c1=N", "pennants": "0", "roads": "r1=E+W",
                   "fields": "f1=En+Wn [c1]; f2=Es+Se+Sw+Ws"})",
               "tile S is listed twice");
}

TEST(TileParser, RefusesBrokenFiles) {
  EXPECT_NE(error_of("{").find("test.json: not valid JSON"), std::string::npos);
  EXPECT_NE(error_of("[]").find("expected an object with a 'tiles' array"), std::string::npos);
  EXPECT_NE(error_of(R"({"tileset": "t", "start": {"tile": "Q", "rotation": 0}, "tiles": []})")
                .find("start tile Q is not in the set"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"tileset": "t", "start": {"tile": "S", "rotation": 45}, "tiles": []})")
                .find("bad start rotation"),
            std::string::npos);
}

TEST(TileParser, EveryShippedTileSetAndBoardLoads) {
  for (const std::string& name : embedded_tile_set_names()) {
    SCOPED_TRACE(name);
    const TileSetFile& f = load_tile_set(name);
    EXPECT_FALSE(f.tiles.empty());
    if (!f.board.empty()) EXPECT_FALSE(load_board(f.board).cells.empty());
  }
}

TEST(BoardParser, RefusesBrokenBoards) {
  auto err = [](const std::string& text) {
    try {
      parse_board(text, "b.json");
    } catch (const TileDataError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(err(R"({"board": "b", "cells": []})").find("non-empty 'cells' array"), std::string::npos);
  EXPECT_NE(err(R"({"board": "b", "cells": [{"x": 0}]})").find("integer 'x' and 'y'"), std::string::npos);
  EXPECT_NE(err(R"({"board": "b", "cells": [{"x": 9, "y": 0, "edges": "FFFF", "cities": "-", "pennants": "0",
                   "roads": "-", "fields": "f1=Nw+Ne+En+Es+Se+Sw+Ws+Wn"}]})")
                .find("within -8..8"),
            std::string::npos);
  EXPECT_NE(err(R"({"board": "b", "size": 3, "cells": [{"x": 0, "y": 0, "edges": "FFFF", "cities": "-",
                   "pennants": "0", "roads": "-", "fields": "f1=Nw+Ne+En+Es+Se+Sw+Ws+Wn"}]})").find("unknown field 'size'"), std::string::npos);
}

}  // namespace
