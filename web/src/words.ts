// Game things in words for players: a tile by what is on it, a place on the board by where it
// lies from the start, a follower by its role, a move as a sentence, score categories, and the
// log's lines (scorings, the pig, the Plague) from the events' data. Built from the server's data
// (tile segments, follower kinds, event kinds), no engine rules; every word from the message
// table of the player's language (i18n.ts).
import type { GameView, ScoreEventView, SeatView, TileData } from './api';
import { listWords, serverText, t, type Key } from './i18n';
import { fruitArticle } from './fruit';
import { categories, categoryOf, scores } from './vocab';

// "a tile with a city (pennant) and a road".
export function describeTile(tile: TileData | undefined): string {
  if (!tile) return t('tile.unknown');
  const cities = tile.segments.filter((s) => s.kind === 'city');
  const roads = tile.segments.filter((s) => s.kind === 'road');
  const parts: string[] = [];
  if (cities.length) {
    const pennants = cities.reduce((a, s) => a + s.pennants, 0);
    parts.push(t('tile.cities', { n: cities.length }) + (pennants ? t('tile.pennants', { n: pennants }) : ''));
  }
  if (roads.length) parts.push(t('tile.roads', { n: roads.length }));
  if (tile.segments.some((s) => s.kind === 'monastery')) parts.push(t('tile.monastery'));
  if (tile.segments.some((s) => s.kind === 'tent')) parts.push(t('tile.tent'));
  if (tile.symbols.includes('tree')) parts.push(t('tile.tree'));
  if (tile.symbols.includes('festival')) parts.push(t('tile.festival'));
  if (tile.wheel > 0) parts.push(t('tile.wheel', { n: tile.wheel }));
  if (!parts.length) return t('tile.field');
  return t('tile.with', { parts: listWords(parts) });
}

// Where a square lies from the start tile (0, 0): "2 east and 1 north of the start".
export function placeWords(x: number, y: number): string {
  if (x === 0 && y === 0) return t('place.start');
  const bits: string[] = [];
  if (y) bits.push(t(y < 0 ? 'place.north' : 'place.south', { n: Math.abs(y) }));
  if (x) bits.push(t(x > 0 ? 'place.east' : 'place.west', { n: Math.abs(x) }));
  return t('place.from', { bits: listWords(bits) });
}

// Where on a tile a follower spot lies, from the engine's location code: "N" -> "north edge",
// "Nw" -> "north edge, west half", "C" -> "middle".
const SIDE: Record<string, Key> = { n: 'side.north', e: 'side.east', s: 'side.south', w: 'side.west' };
const HALF: Record<string, Key> = { n: 'half.north', e: 'half.east', s: 'half.south', w: 'half.west' };
export function spotWords(at: string): string {
  if (at === 'C') return t('spot.middle');
  const m = /^([NESW])([nesw]?)$/.exec(at);
  if (!m) return t('spot.here');
  const side = t(SIDE[m[1].toLowerCase()]);
  return m[2] ? t('spot.half', { side, half: t(HALF[m[2]]) }) : side;
}

// A wheel segment's name by its event ("the Plague"), in words.
const SEGMENT: Record<string, Key> = {
  fortuna: 'seg.fortuna', taxes: 'seg.taxes', famine: 'seg.famine', storm: 'seg.storm', inquisition: 'seg.inquisition', plague: 'seg.plague',
};
export function segmentWords(event: string | undefined): string {
  return event && SEGMENT[event] ? t(SEGMENT[event]) : t('seg.wheel');
}
// The event of the segment holding a crown space ("crown:taxes:0" -> "taxes").
export function crownEvent(space: string): string | undefined {
  return /^crown:([^:]+):\d+$/.exec(space)?.[1];
}

// "crown:taxes:0" -> "crown space 1 of Taxes".
export function crownWords(space: string): string {
  const m = /^crown:([^:]+):(\d+)$/.exec(space);
  if (!m) return t('crown.some');
  return t('crown.space', { k: Number(m[2]) + 1, seg: segmentWords(m[1]) });
}

// The follower's role on a feature kind.
const ROLE: Record<string, Key> = { city: 'role.city', road: 'role.road', monastery: 'role.monastery', field: 'role.field', tent: 'role.tent' };
export function followerWords(kind: string): string {
  return ROLE[kind] ? t(ROLE[kind]) : t('role.other');
}
// The feature a follower stands on ("the city").
const FEATURE: Record<string, Key> = { city: 'feature.city', road: 'feature.road', monastery: 'feature.monastery', field: 'feature.field', tent: 'feature.tent' };
export function featureWords(kind: string): string {
  return FEATURE[kind] ? t(FEATURE[kind]) : t('feature.other');
}

// A fruit kind's name ("apple"), and sold fruit as a list.
const FRUIT: Record<string, Key> = { apple: 'fruit.apple', apricot: 'fruit.apricot', cherry: 'fruit.cherry', elder: 'fruit.elder', plum: 'fruit.plum', quince: 'fruit.quince' };
export function fruitWords(kind: string): string {
  return FRUIT[kind] ? t(FRUIT[kind]) : kind;
}

// A move of the replay API (`view.move`, with the position after it) as a sentence:
// "Ann placed a tile with a city and a road 1 east of the start, with a knight in the city."
export function moveWords(v: GameView, names: string[], tile: (id: string) => TileData | undefined): string {
  const mv = v.move;
  if (!mv) return '';
  const who = names[mv.player] ?? t('player.n', { n: mv.player + 1 });
  let s = t('move.placed', { who, tile: describeTile(tile(mv.tile)), place: placeWords(mv.x, mv.y) });
  if (mv.follower) {
    if (mv.follower.startsWith('crown:')) s += t('move.crown', { seg: segmentWords(crownEvent(mv.follower)) });
    else {
      const f = v.followers.find((f) => f.x === mv.x && f.y === mv.y && f.at === mv.follower && f.player === mv.player);
      s += f ? t('move.with', { role: followerWords(f.kind) }) : t('move.scoredAtOnce');
    }
  }
  if (mv.take_back) s += mv.take_back.at.startsWith('crown:') ? t('move.backWheel') : t('move.backFestival');
  if (mv.fruit_type) s += t('move.stack', { fruit: fruitWords(mv.fruit_type) });
  if (mv.fruit?.harvest) s += t('move.harvest');
  if (mv.fruit?.sell) s += t('move.sell', { list: listWords(mv.fruit.sell.map(fruitWords)) });
  if (mv.plague?.length) s += t('move.plague', { n: mv.plague.length });
  return s + t('move.end');
}

// Score categories for the breakdown: the engine's, in its display order (vocab.ts); event kinds
// of the Wheel of Fortune's segments and crown spaces count as "wheel". Unknown kinds get their
// own column.
export function categoryLabel(cat: string): string {
  const label = categories().find((c) => c.name === cat)?.label;
  return label ? serverText(label) : cat;
}

// Points per player per category: {city: [8, 2], ...}, with the categories in display order.
export { categoryOf };

export function breakdown(v: GameView): { cats: string[]; points: Record<string, number[]> } {
  const n = v.scores.length;
  const points: Record<string, number[]> = {};
  for (const e of v.events) {
    if (!scores(e.kind)) continue;  // the pig's moves, the Plague's take-backs
    const c = categoryOf(e.kind);
    (points[c] ??= new Array(n).fill(0))[e.player] += e.points;
  }
  const order = categories().map((c) => c.name);
  for (const c of order.slice(0, 4)) points[c] ??= new Array(n).fill(0);  // the base game's four always shown
  const cats = Object.keys(points).sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  return { cats, points };
}

// The name of player `p` of a view (its players list), for a log line.
function nameOf(players: SeatView[] | undefined, p: number): string {
  return players?.[p]?.name ?? t('player.n', { n: p + 1 });
}

// What a feature kind scored for ("a city"), by the event's score kind.
const SCORED: Record<string, Key> = {
  road: 'scored.road', city: 'scored.city', monastery: 'scored.monastery', farm: 'scored.farm', tent: 'scored.tent',
};

// One entry of the view's event log in words, from the event's data (not the server's English
// text), keyed by its kind:
// "Ann scores 8 for a city", "Ben harvests an apple worth 4", "Ann scores 3: Fortuna", with
// "(final scoring)" for the end-of-game scoring unless `bare`.
export function eventWords(v: GameView, e: ScoreEventView, bare = false): string {
  const who = nameOf(v.players, e.player);
  const n = e.points;
  let s: string;
  switch (e.kind) {
    case 'fortuna': s = t('ev.fortuna', { who, n }); break;
    case 'taxes': s = t('ev.taxes', { who, n }); break;
    case 'famine': s = t('ev.famine', { who, n }); break;
    case 'storm': s = t('ev.storm', { who, n }); break;
    case 'inquisition': s = t('ev.inquisition', { who, n }); break;
    case 'crown': s = t('ev.crown', { who, n, seg: segmentWords(e.segment) }); break;
    // the report-only kinds: the pig's move (without the tile's internal name), a follower
    // taken back for the Plague
    case 'pig': s = t('wheel.pigMoves', { n: e.steps ?? 0, seg: segmentWords(e.to), who }); break;
    case 'plague': s = t('wheel.plagueBack', { who, role: followerWords(e.feature ?? ''), place: placeWords(e.x, e.y) }); break;
    case 'fruit':
      if (e.final) s = t('ev.fruitHeld', { who, n });
      else if (e.fruit?.harvest) s = t('ev.harvest', { who, n, fruit: fruitArticle(e.fruit.harvest) });
      else if (e.fruit?.sell) s = t('ev.sell', { who, pts: n, n: e.fruit.sell.length });
      else s = t('ev.fruit', { who, n });
      break;
    default:
      s = SCORED[e.kind] ? t('ev.scores', { who, n, what: t(SCORED[e.kind]) }) : t('ev.other', { who, n });
  }
  return e.final && !bare ? t('ev.final', { text: s }) : s;
}

