// Game things in words for players: a tile by what is on it, a place on the board by where it
// lies from the start, a follower by its role, a move as a sentence, and score categories.
// Built from the server's data (tile segments, follower kinds, event kinds), no engine rules.
import type { GameView, TileData, WheelLogEntry } from './api';
import { categories, categoryOf } from './vocab';

function count(n: number, one: string, many: string): string {
  return n === 1 ? `a ${one}` : `${n} ${many}`;
}

// "a tile with a city (pennant) and a road".
export function describeTile(t: TileData | undefined): string {
  if (!t) return 'a tile';
  const cities = t.segments.filter((s) => s.kind === 'city');
  const roads = t.segments.filter((s) => s.kind === 'road');
  const parts: string[] = [];
  if (cities.length) {
    const pennants = cities.reduce((a, s) => a + s.pennants, 0);
    parts.push(count(cities.length, 'city', 'cities') + (pennants ? ` with ${pennants === 1 ? 'a pennant' : `${pennants} pennants`}` : ''));
  }
  if (roads.length) parts.push(count(roads.length, 'road', 'roads'));
  if (t.segments.some((s) => s.kind === 'monastery')) parts.push('a monastery');
  if (t.segments.some((s) => s.kind === 'tent')) parts.push('a fortune-teller tent');
  if (t.symbols.includes('tree')) parts.push('a fruit tree');
  if (t.symbols.includes('festival')) parts.push('the festival symbol');
  if (t.wheel > 0) parts.push(`wheel number ${t.wheel}`);
  if (!parts.length) return 'a field tile';
  const last = parts.pop()!;
  return `a tile with ${parts.length ? `${parts.join(', ')} and ${last}` : last}`;
}

// Where a square lies from the start tile (0, 0): "2 east and 1 north of the start".
export function placeWords(x: number, y: number): string {
  if (x === 0 && y === 0) return 'on the start square';
  const bits: string[] = [];
  if (y) bits.push(`${Math.abs(y)} ${y < 0 ? 'north' : 'south'}`);
  if (x) bits.push(`${Math.abs(x)} ${x > 0 ? 'east' : 'west'}`);
  return `${bits.join(' and ')} of the start`;
}

// Where on a tile a follower spot lies, from the engine's location code: "N" -> "north edge",
// "Nw" -> "north edge, west half", "C" -> "middle".
const SIDE: Record<string, string> = { n: 'north', e: 'east', s: 'south', w: 'west' };
export function spotWords(at: string): string {
  if (at === 'C') return 'middle';
  const m = /^([NESW])([nesw]?)$/.exec(at);
  if (!m) return 'here';
  const side = `${SIDE[m[1].toLowerCase()]} edge`;
  return m[2] ? `${side}, ${SIDE[m[2]]} half` : side;
}

// "crown:taxes:0" -> "crown space 1 of Taxes" (the segment's name from the view when known).
export function crownWords(space: string, segName?: string): string {
  const m = /^crown:([^:]+):(\d+)$/.exec(space);
  if (!m) return 'a crown space';
  const name = segName ?? m[1].replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());
  return `crown space ${Number(m[2]) + 1} of ${name}`;
}

// The follower's role on a feature kind.
export function followerWords(kind: string): string {
  switch (kind) {
    case 'city': return 'a knight in the city';
    case 'road': return 'a thief on the road';
    case 'monastery': return 'a monk in the monastery';
    case 'field': return 'a farmer in the field';
    case 'tent': return 'a fortune teller on the tent';
    default: return `a follower (${kind})`;
  }
}

// A move of the replay API (`view.move`, with the position after it) as a sentence:
// "Ann placed a tile with a city and a road 1 east of the start, with a knight in the city."
export function moveWords(v: GameView, names: string[], tile: (id: string) => TileData | undefined, segmentName: (space: string) => string): string {
  const mv = v.move;
  if (!mv) return '';
  const who = names[mv.player] ?? `Player ${mv.player + 1}`;
  let s = `${who} placed ${describeTile(tile(mv.tile))} ${placeWords(mv.x, mv.y)}`;
  if (mv.meeple) {
    if (mv.meeple.startsWith('crown:')) s += `, with a follower on a crown space of ${segmentName(mv.meeple)}`;
    else {
      const f = v.followers.find((f) => f.x === mv.x && f.y === mv.y && f.at === mv.meeple && f.player === mv.player);
      s += f ? `, with ${followerWords(f.kind)}` : ', with a follower that scored at once';
    }
  }
  if (mv.return) s += mv.return.at.startsWith('crown:') ? ', and took a follower back from the wheel' : ', and took a follower back (Festival)';
  if (mv.fruit_type) s += `; a ${mv.fruit_type} stack went on the tree`;
  if (mv.fruit?.harvest) s += '; harvested a tree';
  if (mv.fruit?.sell) s += `; sold ${mv.fruit.sell.join(', ')}`;
  if (mv.plague?.length) s += `; the Plague took back ${mv.plague.length} follower${mv.plague.length === 1 ? '' : 's'}`;
  return `${s}.`;
}

// Score categories for the breakdown: the engine's, in its display order (vocab.ts); event kinds
// of the Wheel of Fortune's segments and crown spaces count as "wheel". Unknown kinds get their
// own column.
export function categoryLabel(cat: string): string {
  return categories().find((c) => c.name === cat)?.label ?? cat;
}

// Points per player per category: {city: [8, 2], ...}, with the categories in display order.
export { categoryOf };

export function breakdown(v: GameView): { cats: string[]; points: Record<string, number[]> } {
  const n = v.scores.length;
  const points: Record<string, number[]> = {};
  for (const e of v.events) {
    const c = categoryOf(e.kind);
    (points[c] ??= new Array(n).fill(0))[e.player] += e.points;
  }
  const order = categories().map((c) => c.name);
  for (const c of order.slice(0, 4)) points[c] ??= new Array(n).fill(0);  // the base game's four always shown
  const cats = Object.keys(points).sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  return { cats, points };
}

// A wheel log line for players: the pig's move without the tile's internal name
// ("The pig moves 2 to the Famine (Ben's tile)").
export function wheelLine(v: GameView, e: WheelLogEntry): WheelLogEntry {
  if (e.kind !== 'pig' || e.steps === undefined) return e;
  const to = v.wheel?.segments.find((s) => s.event === e.to)?.name ?? e.to ?? '';
  const who = v.players?.[e.player]?.name;
  return { ...e, text: `The pig moves ${e.steps} to ${to}${who ? ` (${who}'s tile)` : ''}` };
}
