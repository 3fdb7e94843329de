// Tiles drawn as SVG from the engine's tile data (GET /api/tiles): fields, roads, cities with
// walls, pennants, monasteries, tents, trees, the festival symbol and wheel numbers. No image
// files. Every tile is drawn once at rotation 0 in a 100x100 box; the board rotates it.
import type { TileData } from './api';

const NS = 'http://www.w3.org/2000/svg';
export type Pt = [number, number];

const SIDES = ['N', 'E', 'S', 'W'];
const SIDE_MID: Record<string, Pt> = { N: [50, 0], E: [100, 50], S: [50, 100], W: [0, 50] };
const HALF_IN: Record<string, Pt> = {
  Nw: [27, 12], Ne: [73, 12], En: [88, 27], Es: [88, 73], Se: [73, 88], Sw: [27, 88], Ws: [12, 73], Wn: [12, 27],
};

export const COLORS = {
  field: '#8bc34a',
  fieldDark: '#7cb342',
  city: '#d8b57a',
  cityDark: '#b8904f',
  wall: '#7b5a36',
  road: '#f3ead7',
  roadEdge: '#8d7b5e',
};

export const PLAYER_COLORS = ['#e53935', '#1e88e5', '#fdd835', '#43a047', '#424242', '#8e24aa'];
export const PLAYER_COLOR_NAMES = ['red', 'blue', 'yellow', 'green', 'black', 'purple'];

export function el<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

// Rotates a point of the 100x100 box clockwise by `deg` (0, 90, 180, 270) around its centre.
export function rotatePt([x, y]: Pt, deg: number): Pt {
  switch (((deg % 360) + 360) % 360) {
    case 90: return [100 - y, x];
    case 180: return [100 - x, 100 - y];
    case 270: return [y, 100 - x];
    default: return [x, y];
  }
}

function sideMask(sides: string[]): number {
  let m = 0;
  for (const s of sides) m |= 1 << SIDES.indexOf(s);
  return m;
}

// City fill and wall (the inner boundary) for a set of sides, at rotation 0.
// `narrow`: the tile has more than one city, so shapes leave room between them.
function cityShape(mask: number, narrow: boolean): { fill: string; wall: string; rot: number } {
  const n = [0, 1, 2, 3].filter((d) => mask >> d & 1).length;
  const capC = narrow ? 40 : 56;
  if (n === 4) return { fill: 'M0,0 H100 V100 H0 Z', wall: '', rot: 0 };
  if (n === 1) {
    const d = [0, 1, 2, 3].find((d) => mask >> d & 1)!;
    return { fill: `M0,0 H100 Q50,${capC} 0,0 Z`, wall: `M100,0 Q50,${capC} 0,0`, rot: 90 * d };
  }
  if (n === 2) {
    if (mask === 0b0101 || mask === 0b1010) {
      const c = narrow ? 70 : 62;
      return {
        fill: `M0,0 H100 Q${c},50 100,100 H0 Q${100 - c},50 0,0 Z`,
        wall: `M100,0 Q${c},50 100,100 M0,100 Q${100 - c},50 0,0`,
        rot: mask === 0b0101 ? 0 : 90,
      };
    }
    // adjacent sides d, d+1: the shape for N+E turned by d
    const d = [0, 1, 2, 3].find((d) => (mask >> d & 1) && (mask >> ((d + 1) % 4) & 1))!;
    const c = narrow ? 80 : 72;
    return { fill: `M0,0 H100 V100 Q${c},${100 - c} 0,0 Z`, wall: `M100,100 Q${c},${100 - c} 0,0`, rot: 90 * d };
  }
  // three sides: the shape with S open, turned so the open side is the missing one
  const missing = [0, 1, 2, 3].find((d) => !(mask >> d & 1))!;
  return { fill: 'M0,0 H100 V100 Q50,38 0,100 Z', wall: 'M100,100 Q50,38 0,100', rot: 90 * ((missing - 2 + 4) % 4) };
}

function segAnchorRaw(t: TileData, i: number): Pt {
  const s = t.segments[i];
  if (s.kind === 'monastery' || s.kind === 'tent') return [50, 50];
  if (s.kind === 'city') {
    if (s.sides.length === 1) return rotatePt([50, 15], 90 * SIDES.indexOf(s.sides[0]));
    const pts = s.sides.map((d) => SIDE_MID[d]);
    const avg: Pt = [pts.reduce((a, p) => a + p[0], 0) / pts.length, pts.reduce((a, p) => a + p[1], 0) / pts.length];
    return avg;
  }
  if (s.kind === 'road') {
    if (s.sides.length === 1) {
      const [x, y] = SIDE_MID[s.sides[0]];
      return [x + (50 - x) * 0.45, y + (50 - y) * 0.45];
    }
    if (s.sides.length === 2) {
      const [a, b] = s.sides.map((d) => SIDE_MID[d]);
      return [(a[0] + 100 + b[0]) / 4, (a[1] + 100 + b[1]) / 4];
    }
    return [50, 50];
  }
  return [50, 50];
}

const anchorCache = new Map<string, Pt[]>();

// Where a follower stands on each segment (rotation 0): cities, roads and centres first,
// then each field at the candidate point farthest from everything else on the tile.
export function anchors(t: TileData): Pt[] {
  const cached = anchorCache.get(t.id);
  if (cached) return cached;
  const out: Pt[] = t.segments.map((_, i) => segAnchorRaw(t, i));
  const taken: Pt[] = [];
  t.segments.forEach((s, i) => { if (s.kind !== 'field') taken.push(out[i]); });
  // points along roads and city walls also count as taken, so farmers stand in the open
  t.segments.forEach((s) => {
    if (s.kind === 'road') for (const d of s.sides) { const m = SIDE_MID[d]; taken.push([(m[0] + 50) / 2, (m[1] + 50) / 2]); taken.push([m[0] * 0.8 + 10, m[1] * 0.8 + 10]); }
    if (s.kind === 'city') for (const d of s.sides) taken.push(rotatePt([50, 8], 90 * SIDES.indexOf(d)));
  });
  t.segments.forEach((s, i) => {
    if (s.kind !== 'field') return;
    const cands: Pt[] = [];
    if (s.halves.length === 0) {
      const cs = s.adj_cities.map((c) => out[c]);
      if (cs.length >= 2) cands.push([(cs[0][0] + cs[1][0]) / 2, (cs[0][1] + cs[1][1]) / 2 + (cs[0][0] === cs[1][0] ? 2 : 0)]);
      else cands.push([50, 72]);
    } else {
      const pts = s.halves.map((h) => HALF_IN[h]);
      cands.push([pts.reduce((a, p) => a + p[0], 0) / pts.length, pts.reduce((a, p) => a + p[1], 0) / pts.length]);
      cands.push(...pts);
      for (let k = 0; k + 1 < pts.length; ++k) cands.push([(pts[k][0] + pts[k + 1][0]) / 2, (pts[k][1] + pts[k + 1][1]) / 2]);
    }
    let best = cands[0];
    let bestD = -1;
    for (const c of cands) {
      let d = 1e9;
      for (const p of taken) d = Math.min(d, Math.hypot(c[0] - p[0], c[1] - p[1]));
      if (d > bestD + 0.5) { bestD = d; best = c; }
    }
    out[i] = best;
    taken.push(best);
  });
  anchorCache.set(t.id, out);
  return out;
}

// A pennant: a white shield with a brown border and cross (no player colour, so it is never
// taken for a follower).
function pennant(g: SVGGElement, [x, y]: Pt) {
  const p = el('path', {
    d: `M${x - 7},${y - 7} H${x + 7} V${y + 1} L${x},${y + 8} L${x - 7},${y + 1} Z`,
    fill: '#fffaf0', stroke: '#5d4037', 'stroke-width': 1.8, 'stroke-linejoin': 'round', class: 'pennant',
  });
  g.append(p);
  g.append(el('path', { d: `M${x},${y - 5} V${y + 5} M${x - 5},${y - 2} H${x + 5}`, stroke: '#8d2c1f', 'stroke-width': 2 }));
}

function monastery(g: SVGGElement) {
  g.append(el('rect', { x: 36, y: 42, width: 28, height: 22, fill: '#efe6d6', stroke: '#6d5843', 'stroke-width': 1.5 }));
  g.append(el('path', { d: 'M32,43 L50,28 L68,43 Z', fill: '#c0392b', stroke: '#6d5843', 'stroke-width': 1.5 }));
  g.append(el('rect', { x: 46, y: 52, width: 8, height: 12, fill: '#6d5843' }));
  g.append(el('path', { d: 'M50,18 V27 M46.5,21.5 H53.5', stroke: '#6d5843', 'stroke-width': 1.8 }));
}

function tent(g: SVGGElement) {
  g.append(el('path', { d: 'M30,64 L50,30 L70,64 Z', fill: '#fff3e0', stroke: '#6a1b9a', 'stroke-width': 1.6 }));
  g.append(el('path', { d: 'M50,30 L42,64 M50,30 L58,64', stroke: '#8e24aa', 'stroke-width': 3 }));
  g.append(el('path', { d: 'M50,30 V22 L57,25 L50,27', fill: '#e53935', stroke: '#6a1b9a', 'stroke-width': 1 }));
  g.append(el('path', { d: 'M46,64 L50,52 L54,64 Z', fill: '#4a148c' }));
}

function tree(g: SVGGElement, [x, y]: Pt) {
  g.append(el('rect', { x: x - 1.8, y: y, width: 3.6, height: 9, fill: '#6d4c41' }));
  g.append(el('circle', { cx: x, cy: y - 2, r: 8, fill: '#2e7d32', stroke: '#1b5e20', 'stroke-width': 1.2 }));
  for (const [dx, dy] of [[-3, -4], [3, -1], [-1, 2]]) g.append(el('circle', { cx: x + dx, cy: y - 2 + dy, r: 1.6, fill: '#e53935' }));
}

function festival(g: SVGGElement, [x, y]: Pt) {
  const pts: string[] = [];
  for (let k = 0; k < 10; ++k) {
    const r = k % 2 === 0 ? 8 : 3.6;
    const a = -Math.PI / 2 + (k * Math.PI) / 5;
    pts.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`);
  }
  g.append(el('circle', { cx: x, cy: y, r: 9.5, fill: '#fff8e1', stroke: '#c2185b', 'stroke-width': 1.3 }));
  g.append(el('polygon', { points: pts.join(' '), fill: '#f9a825', stroke: '#c2185b', 'stroke-width': 0.8 }));
}

function wheelNumber(g: SVGGElement, n: number, [x, y]: Pt) {
  g.append(el('circle', { cx: x, cy: y, r: 11.5, fill: '#fff', stroke: '#ad1457', 'stroke-width': 2 }));
  const t = el('text', { x, y: y + 6, 'text-anchor': 'middle', 'font-size': 17, 'font-weight': 700, fill: '#ad1457', 'font-family': 'sans-serif', class: 'wheel-number' });
  t.textContent = String(n);
  g.append(t);
}

// A free spot for a symbol: the corner point farthest from the tile's features.
function freeSpot(t: TileData, avoid: Pt[]): Pt {
  const cands: Pt[] = [[16, 16], [84, 16], [84, 84], [16, 84], [50, 84], [84, 50], [16, 50], [50, 16]];
  const a = anchors(t);
  const taken: Pt[] = [...avoid];
  t.segments.forEach((s, i) => { if (s.kind !== 'field') taken.push(a[i]); });
  t.segments.forEach((s) => {
    if (s.kind === 'city') for (const d of s.sides) taken.push(SIDE_MID[d], rotatePt([25, 10], 90 * SIDES.indexOf(d)), rotatePt([75, 10], 90 * SIDES.indexOf(d)));
    if (s.kind === 'road') for (const d of s.sides) taken.push([(SIDE_MID[d][0] + 50) / 2, (SIDE_MID[d][1] + 50) / 2]);
  });
  let best = cands[0];
  let bestD = -1;
  for (const c of cands) {
    let d = 1e9;
    for (const p of taken) d = Math.min(d, Math.hypot(c[0] - p[0], c[1] - p[1]));
    if (d > bestD + 0.5) { bestD = d; best = c; }
  }
  return best;
}

// Where the tree of a tree tile stands (rotation 0): the first free spot.
function treeSpotRaw(t: TileData): Pt {
  return freeSpot(t, []);
}
// Where the tree stands on a tile turned by `rot` degrees (the fruit tokens are drawn beside it).
export function treeSpot(t: TileData, rot: number): Pt {
  return rotatePt(treeSpotRaw(t), rot);
}

// The drawing of one tile type turned by `rot` degrees, in a 100x100 box: the land turns,
// buildings and symbols stay upright.
export function drawTile(t: TileData, rot = 0): SVGGElement {
  const outer = el('g', { class: 'tile-art' });
  const g = el('g', { transform: `rotate(${rot} 50 50)` });
  const up = el('g');
  outer.append(g, up);
  const R = (p: Pt): Pt => rotatePt(p, rot);
  // Wheel of Fortune board cells: a wheel side ('W' in edges) is the wood around the wheel; a
  // cell that is all wheel holds no land (the wheel is drawn over it by wheel.ts)
  const wheelSides = [...(t.edges ?? '')].map((c, d) => (c === 'W' ? d : -1)).filter((d) => d >= 0);
  if (wheelSides.length === 4) {
    g.append(el('rect', { x: 0, y: 0, width: 100, height: 100, fill: '#8d6e63' }));
    return outer;
  }
  g.append(el('rect', { x: 0, y: 0, width: 100, height: 100, fill: COLORS.field }));
  // a little texture in the fields
  for (const [x, y] of [[12, 60], [70, 35], [35, 85], [85, 90], [60, 12]])
    g.append(el('path', { d: `M${x},${y} l2,-4 l2,4`, stroke: COLORS.fieldDark, 'stroke-width': 1, fill: 'none' }));
  for (const d of wheelSides) {
    const wood = el('rect', { x: 0, y: 0, width: 100, height: 8, fill: '#8d6e63' });
    wood.setAttribute('transform', `rotate(${90 * d} 50 50)`);
    g.append(wood);
  }
  const cities = t.segments.filter((s) => s.kind === 'city');
  const narrow = cities.length > 1;
  // roads under cities' walls, over fields
  const roadEnds = t.segments.filter((s) => s.kind === 'road').reduce((a, s) => a + (s.sides.length === 1 ? 1 : 0), 0);
  const roadPaths: string[] = [];
  for (const s of t.segments) {
    if (s.kind !== 'road') continue;
    if (s.sides.length === 2) {
      const [a, b] = s.sides.map((d) => SIDE_MID[d]);
      roadPaths.push(`M${a[0]},${a[1]} Q50,50 ${b[0]},${b[1]}`);
    } else {
      for (const d of s.sides) {
        const m = SIDE_MID[d];
        roadPaths.push(`M${m[0]},${m[1]} L50,50`);
      }
    }
  }
  for (const d of roadPaths) g.append(el('path', { d, stroke: COLORS.roadEdge, 'stroke-width': 11, fill: 'none', 'stroke-linecap': 'butt' }));
  for (const d of roadPaths) g.append(el('path', { d, stroke: COLORS.road, 'stroke-width': 7.5, fill: 'none', 'stroke-linecap': 'butt' }));
  if (roadEnds >= 3 && t.center < 0) {
    // a village at the crossing
    up.append(el('rect', { x: 41, y: 41, width: 18, height: 18, fill: '#efe6d6', stroke: '#6d5843', 'stroke-width': 1.5 }));
    up.append(el('path', { d: 'M39,42 L50,33 L61,42 Z', fill: '#a1887f', stroke: '#6d5843', 'stroke-width': 1.2 }));
  } else if (roadEnds >= 1 && t.center < 0) {
    // a road that ends on the tile: a little house where it stops
    const single = t.segments.filter((s) => s.kind === 'road' && s.sides.length === 1);
    if (single.length === 1 && cities.length === 0 && !t.id.startsWith('board:')) {  // board roads: no house
      up.append(el('rect', { x: 44, y: 44, width: 12, height: 10, fill: '#efe6d6', stroke: '#6d5843', 'stroke-width': 1.2 }));
      up.append(el('path', { d: 'M42,45 L50,38 L58,45 Z', fill: '#c0392b', stroke: '#6d5843', 'stroke-width': 1 }));
    }
  }
  for (const s of cities) {
    const shape = cityShape(sideMask(s.sides), narrow);
    const cg = el('g', { transform: `rotate(${shape.rot} 50 50)` });
    cg.append(el('path', { d: shape.fill, fill: COLORS.city }));
    if (shape.wall) {
      cg.append(el('path', { d: shape.wall, stroke: COLORS.wall, 'stroke-width': 4, fill: 'none', 'stroke-dasharray': '5 1.5' }));
      cg.append(el('path', { d: shape.wall, stroke: COLORS.cityDark, 'stroke-width': 1.2, fill: 'none', transform: 'translate(0,0)' }));
    }
    g.append(cg);
    // a few roofs, so a city reads as a city
    const a = segAnchorRaw(t, t.segments.indexOf(s));
    for (const [dx, dy] of [[-9, 4], [8, 6]]) {
      const [x, y] = R([a[0] + dx, a[1] + dy]);
      if (x < 6 || x > 94 || y < 6 || y > 94) continue;
      up.append(el('path', { d: `M${x - 4},${y} L${x},${y - 4} L${x + 4},${y} Z`, fill: '#a0522d', opacity: 0.75 }));
    }
  }
  const a = anchors(t);
  t.segments.forEach((s, i) => {
    if (s.kind === 'city' && s.pennants > 0) {
      const [x, y] = a[i];
      pennant(up, R([x + (x > 50 ? -19 : 19), y + (y > 50 ? -8 : 8)]));
    }
  });
  if (t.center >= 0) {
    const k = t.segments[t.center].kind;
    if (k === 'monastery') monastery(up);
    else if (k === 'tent') tent(up);
  }
  const used: Pt[] = [];
  if (t.symbols.includes('tree')) {
    const p = treeSpotRaw(t);
    used.push(p);
    tree(up, R(p));
  }
  if (t.symbols.includes('festival')) {
    const p = freeSpot(t, used);
    used.push(p);
    festival(up, R(p));
  }
  if (t.wheel > 0) {
    // clear of the farmers' spots too, so a farmer never hides the pig number
    const farms = anchors(t).filter((_, i) => t.segments[i].kind === 'field');
    const p = freeSpot(t, [...used, ...farms]);
    used.push(p);
    wheelNumber(up, t.wheel, R(p));
  }
  // the cells of a start board (Wheel of Fortune) make one piece: no tile edge drawn
  if (!t.id.startsWith('board:'))
    outer.append(el('rect', { x: 0.25, y: 0.25, width: 99.5, height: 99.5, fill: 'none', stroke: 'rgba(0,0,0,0.25)', 'stroke-width': 0.5 }));
  return outer;
}

// A follower figure (standing, or lying for a farmer) centred on (x, y).
export function meeple(color: string, x: number, y: number, lying = false, scale = 1): SVGGElement {
  const g = el('g', { transform: `translate(${x} ${y}) scale(${scale})${lying ? ' rotate(-90)' : ''}`, class: 'meeple' });
  g.append(el('path', {
    d: 'M0,-11 C3.5,-11 4.5,-8 3.6,-5.5 C7,-4.5 10.5,-3 10.5,-0.5 C10.5,1.5 7,1 5,0.8 L8,10 H2 L0,5 L-2,10 H-8 L-5,0.8 C-7,1 -10.5,1.5 -10.5,-0.5 C-10.5,-3 -7,-4.5 -3.6,-5.5 C-4.5,-8 -3.5,-11 0,-11 Z',
    fill: color, stroke: '#fff', 'stroke-width': 1.6, 'stroke-linejoin': 'round',
  }));
  return g;
}

export function segmentKindWords(kind: string): string {
  switch (kind) {
    case 'field': return 'field (farmer)';
    case 'city': return 'city (knight)';
    case 'road': return 'road (thief)';
    case 'monastery': return 'monastery (monk)';
    case 'tent': return 'tent';
    default: return kind;
  }
}

