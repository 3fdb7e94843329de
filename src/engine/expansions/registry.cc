#include "registry.h"

#include <vector>

namespace carc {

namespace {

constexpr bool table_is_consistent() {
  // Tile sets carry no bit; expansion i carries bit i, in table order (the canonical order).
  int next_bit = 0;
  for (const ModuleInfo& m : kModules) {
    if (m.kind == ModuleKind::TileSet && m.bit != -1) return false;
    if (m.kind == ModuleKind::Expansion && m.bit != next_bit++) return false;
    if (m.kind == ModuleKind::Expansion && m.board) return false;  // only a tile set brings a board
    if (m.name.empty() || m.label.empty() || m.tiles.empty()) return false;
  }
  return next_bit == kNumExpansions;
}
static_assert(table_is_consistent(), "kModules: every expansion has the next bit, in order; tile sets have none");

}  // namespace

const ModuleInfo& expansion_info(Expansion e) {
  const ModuleInfo* found = &kModules[0];
  for (const ModuleInfo& m : kModules)
    if (m.kind == ModuleKind::Expansion && m.bit == int(e)) found = &m;
  return *found;
}

const ModuleInfo* find_module(ModuleKind kind, std::string_view name) {
  for (const ModuleInfo& m : kModules)
    if (m.kind == kind && m.name == name) return &m;
  return nullptr;
}

std::string module_names(ModuleKind kind, std::string_view sep, std::string_view last) {
  std::vector<std::string_view> names;
  for_each_module(kind, [&](const ModuleInfo& m) { names.push_back(m.name); });
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += i + 1 == names.size() && !last.empty() ? last : sep;
    out += names[i];
  }
  return out;
}

}  // namespace carc
