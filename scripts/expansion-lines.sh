#!/usr/bin/env bash
# Prints how many code lines of the engine outside the expansions' folder name an expansion
# concept (issue 35's measure): the .h/.cc files under src/engine except src/engine/expansions/,
# comments stripped (// to the end of the line and /* ... */, outside string literals), blank
# lines dropped, lines naming festival|fortune|tent|fruit|harvest|sale|wheel|crown|plague|pig
# (string literals count: they are code). A word counts where it begins a word or a camel-case
# part: any case after the line's start or a character other than a letter or digit (`tent`,
# `Tent`, `_tent`, `TENT`, `crowns_of`), and capitalised after a lower-case letter or digit (`kTent`,
# `kMaxTents`, `isFruit`); not inside a word (`content`, `intent`, `kMaxListEntries`).
#   scripts/expansion-lines.sh            the total
#   scripts/expansion-lines.sh --files    per file, then the total
#   scripts/expansion-lines.sh --lines    every counted line (file:line: text)
# Usage: run from anywhere inside the repository; ROOT=dir counts another checkout.
set -euo pipefail
root=${ROOT:-"$(cd "$(dirname "$0")/.." && pwd)"}
mode=${1:-}
case "$mode" in
  "" | --files | --lines) ;;
  *) echo "usage: $0 [--files|--lines]" >&2; exit 2 ;;
esac
[ -d "$root/src/engine" ] || { echo "error: no src/engine under $root" >&2; exit 1; }
mapfile -t files < <(cd "$root" && find src/engine -path src/engine/expansions -prune -o \
  \( -name '*.h' -o -name '*.cc' \) -type f -print | LC_ALL=C sort)
[ "${#files[@]}" -gt 0 ] || { echo "error: no source files under $root/src/engine" >&2; exit 1; }
total=0
for f in "${files[@]}"; do
  # The comment stripper: a small state machine over characters (strings, chars, comments).
  matches=$(awk -v file="$f" '
    BEGIN { block = 0 }
    {
      line = $0; out = ""; i = 1; n = length(line); q = ""
      while (i <= n) {
        c = substr(line, i, 1); two = substr(line, i, 2)
        if (block) { if (two == "*/") { block = 0; i += 2 } else i++; continue }
        if (q != "") {
          out = out c
          if (c == "\\") { out = out substr(line, i + 1, 1); i += 2; continue }
          if (c == q) q = ""
          i++; continue
        }
        if (two == "//") break
        if (two == "/*") { block = 1; i += 2; continue }
        if (c == "\"" || c == "\047") q = c
        out = out c; i++
      }
      if (out ~ /[^ \t]/ && (tolower(out) ~ /(^|[^a-z0-9])(festival|fortune|tent|fruit|harvest|sale|wheel|crown|plague|pig)/ ||
                              out ~ /[a-z0-9](Festival|Fortune|Tent|Fruit|Harvest|Sale|Wheel|Crown|Plague|Pig)/))
        printf "%s:%d: %s\n", file, NR, out
    }' "$root/$f")
  count=0
  [ -n "$matches" ] && count=$(printf '%s\n' "$matches" | wc -l)
  total=$((total + count))
  if [ "$mode" = --files ] && [ "$count" -gt 0 ]; then printf '%5d %s\n' "$count" "$f"; fi
  if [ "$mode" = --lines ] && [ -n "$matches" ]; then printf '%s\n' "$matches"; fi
done
if [ "$mode" = --files ]; then printf '%5d total\n' "$total"; elif [ -z "$mode" ]; then echo "$total"; fi
