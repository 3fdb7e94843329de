#include "input_limits.h"

#include <cstdio>
#include <set>
#include <vector>

namespace carc::limits {

std::string json_depth_error(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // skip the escaped character (a \uXXXX's digits are plain characters)
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth)
        return "JSON nested deeper than " + std::to_string(max_depth) + " levels (at byte " + std::to_string(i) + ")";
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return "";
}

bool next_code_point(std::string_view text, size_t& i, char32_t& cp) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const unsigned c = p[i];
  if (c < 0x80) {
    cp = c;
    ++i;
    return true;
  }
  size_t len;
  char32_t v, min;
  if ((c & 0xE0) == 0xC0) len = 2, v = c & 0x1F, min = 0x80;
  else if ((c & 0xF0) == 0xE0) len = 3, v = c & 0x0F, min = 0x800;
  else if ((c & 0xF8) == 0xF0) len = 4, v = c & 0x07, min = 0x10000;
  else return ++i, false;
  if (i + len > text.size()) return ++i, false;
  for (size_t k = 1; k < len; ++k) {
    if ((p[i + k] & 0xC0) != 0x80) return ++i, false;
    v = v << 6 | (p[i + k] & 0x3F);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return ++i, false;
  cp = v;
  i += len;
  return true;
}

const char* unsafe_code_point(char32_t c) {
  if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) return "a control character";
  if ((c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0x061C || c == 0x200E || c == 0x200F)
    return "a bidirectional control character";
  if ((c >= 0x200B && c <= 0x200D) || (c >= 0x2060 && c <= 0x2064) || c == 0xFEFF || c == 0x00AD || c == 0x034F ||
      c == 0x115F || c == 0x1160 || c == 0x180E || c == 0x3164 || c == 0xFFA0 || c == 0x2028 || c == 0x2029)
    return "an invisible character";
  return nullptr;
}

namespace {
bool name_space(char32_t c) {
  return c == 0x20 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}
bool combining_mark(char32_t c) {
  return (c >= 0x300 && c <= 0x36F) || (c >= 0x1AB0 && c <= 0x1AFF) || (c >= 0x1DC0 && c <= 0x1DFF) ||
         (c >= 0x20D0 && c <= 0x20FF) || (c >= 0xFE20 && c <= 0xFE2F);
}
std::string code_point_name(char32_t c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", unsigned(c));
  return buf;
}
}  // namespace

std::string clean_player_name(std::string_view name, std::string& out) {
  out.clear();
  bool pending_space = false;
  size_t marks = 0;
  for (size_t i = 0; i < name.size();) {
    const size_t start = i;
    char32_t c;
    if (!next_code_point(name, i, c)) return "is not valid UTF-8";
    if (const char* what = unsafe_code_point(c)) return std::string("holds ") + what + " (" + code_point_name(c) + ")";
    if (name_space(c)) {
      pending_space = !out.empty();
      marks = 0;
      continue;
    }
    if (combining_mark(c)) {
      if (++marks > kMaxCombiningMarks)
        return "holds more than " + std::to_string(kMaxCombiningMarks) + " combining marks on one character";
    } else {
      marks = 0;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out.append(name.substr(start, i - start));
  }
  if (out.empty() && !name.empty()) return "holds only whitespace";
  return "";
}

DuplicateKeyError::DuplicateKeyError(const std::string& k)
    : std::runtime_error("the key " + nlohmann::json(k).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace).substr(0, 80) +
                         " appears twice in one object"),
      key(k) {}

nlohmann::json parse_json_unique_keys(std::string_view text) {
  using json = nlohmann::json;
  // The keys seen so far in each open object, innermost last (arrays hold no keys).
  std::vector<std::set<std::string>> open;
  json::parser_callback_t cb = [&open](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: open.emplace_back(); break;
      case json::parse_event_t::object_end:
        if (!open.empty()) open.pop_back();
        break;
      case json::parse_event_t::key:
        if (!open.empty() && !open.back().insert(parsed.get<std::string>()).second)
          throw DuplicateKeyError(parsed.get<std::string>());
        break;
      default: break;
    }
    return true;
  };
  return json::parse(text.begin(), text.end(), cb);
}

}  // namespace carc::limits
