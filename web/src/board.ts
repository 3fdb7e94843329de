// The board: an SVG with pan (drag) and zoom (wheel, buttons), placed tiles, followers, the
// legal places for the drawn tile, the tile being placed (ghost) and its follower spots.
import type { FollowerView, GameView, HarvestOption, Placement, PlagueOption, TileData, TileSet } from './api';
import { stackSize, treeBadge } from './fruit';
import { anchors, drawTile, el, meeple, PLAYER_COLORS, rotatePt, treeSpot, type Pt } from './tiles';
import { WheelDrawing, WheelGeometry } from './wheel';
import { t } from './i18n';
import { crownWords, featureWords, spotWords } from './words';

export const CELL = 100;
// A finger slides a little during a tap: the browser still calls it a tap (a click follows) up to
// about 15 px, so the board starts panning only beyond this; with the mouse's 5 px a tap that slid
// 5-15 px was neither a pan nor a click, and lost (issue #39, item 10).
const TOUCH_SLOP = 14;

export interface PendingPlacement {
  x: number;
  y: number;
  rotation: number;
  follower: number | null;        // segment index (displayed rotation) chosen for a follower
  take_back: { x: number; y: number; at: string } | null;  // Festival: follower taken back instead (at "crown:..." for a crown space)
  crown: string | null;           // Wheel of Fortune: the crown space chosen for the follower instead
}

// Fruit-Bearing Trees, for the tile being placed: the stack put on it (a tree tile), and the
// trees that may be harvested with the follower chosen (rings, click to choose).
export interface PendingFruit {
  stack: string | null;
  harvest: HarvestOption[];
  chosen: { x: number; y: number } | null;
}

export interface BoardCallbacks {
  onCellClick(x: number, y: number): void;
  onSpotClick(seg: number): void;
  onReturnClick(r: { x: number; y: number; at: string }): void;
  onTreeClick?(x: number, y: number): void;
  onCrownClick?(space: string): void;
  onPlagueClick?(f: { x: number; y: number; at: string }): void;
}

export class BoardView {
  readonly svg: SVGSVGElement;
  private viewport: SVGGElement;
  private layerTiles: SVGGElement;
  private layerHighlights: SVGGElement;
  private layerFollowers: SVGGElement;
  private layerWheel: SVGGElement;
  private wheel: WheelDrawing | null = null;
  private layerFruit: SVGGElement;
  private layerPending: SVGGElement;
  private layerFx: SVGGElement;
  private tiles = new Map<string, TileData>();
  private tx = 0;
  private ty = 0;
  private scale = 1;
  private fitted = false;
  private userMoved = false;   // the player panned or zoomed: stop following the board's growth
  private extent = '';
  private drag: { x: number; y: number; tx: number; ty: number; moved: boolean; slop: number } | null = null;
  private lastView: GameView | null = null;
  private placedAt = -1e9;  // when a square was last clicked (the tile put there)
  private markScale = 1;  // followers and rings grow when zoomed out, so they stay readable
  private lastMoves: { x: number; y: number; player: number }[] = [];

  constructor(parent: HTMLElement, private cb: BoardCallbacks) {
    this.svg = el('svg', { class: 'board', 'data-testid': 'board' });
    const defs = el('defs');
    const pat = el('pattern', { id: 'grass', width: 40, height: 40, patternUnits: 'userSpaceOnUse' });
    // a cool grey-blue table: tan cities and green fields both stand out from it
    pat.append(el('rect', { width: 40, height: 40, fill: '#c5d0d3' }));
    pat.append(el('circle', { cx: 8, cy: 10, r: 1.2, fill: '#b3c0c4' }));
    pat.append(el('circle', { cx: 28, cy: 30, r: 1.2, fill: '#b3c0c4' }));
    defs.append(pat);
    this.svg.append(defs);
    this.svg.append(el('rect', { x: -1e5, y: -1e5, width: 2e5, height: 2e5, fill: 'url(#grass)', class: 'bg' }));
    this.viewport = el('g', { class: 'viewport' });
    this.layerTiles = el('g');
    this.layerHighlights = el('g');
    this.layerFollowers = el('g');
    this.layerWheel = el('g', { class: 'wheel-layer' });
    this.layerFruit = el('g', { class: 'fruit-layer' });
    this.layerPending = el('g');
    this.layerFx = el('g', { 'pointer-events': 'none' });
    this.viewport.append(this.layerTiles, this.layerWheel, this.layerFollowers, this.layerFruit, this.layerHighlights, this.layerPending, this.layerFx);
    this.svg.append(this.viewport);
    parent.append(this.svg);
    this.installPanZoom();
  }

  setTileSet(ts: TileSet) {
    this.tiles.clear();
    this.defined.clear();
    this.svg.querySelector('defs')!.querySelectorAll('.tiledef').forEach((n) => n.remove());
    for (const t of ts.tiles) this.tiles.set(t.id, t);
    // Wheel of Fortune: the wheel over the start board's inner cells
    this.layerWheel.replaceChildren();
    this.wheel = ts.board ? new WheelDrawing(new WheelGeometry(ts.board, CELL)) : null;
    if (this.wheel) this.layerWheel.append(this.wheel.g);
  }

  get wheelGeometry(): WheelGeometry | null {
    return this.wheel?.geo ?? null;
  }

  tile(id: string): TileData | undefined {
    return this.tiles.get(id);
  }

  // A tile's drawing at a rotation is made the first time it is used (not every tile of the set
  // at every rotation up front: the page is ready sooner, on a phone's CPU too).
  private defined = new Set<string>();
  private ensureDef(id: string, rot: number) {
    const key = `${id}-${rot}`;
    const t = this.tiles.get(id);
    if (this.defined.has(key) || !t) return;
    this.defined.add(key);
    const g = drawTile(t, rot);
    g.setAttribute('id', `tile-${cssId(id)}-${rot}`);
    g.classList.add('tiledef');
    this.svg.querySelector('defs')!.append(g);
  }

  private useTile(id: string, x: number, y: number, rot: number, extra: Record<string, string | number> = {}) {
    this.ensureDef(id, rot);
    const u = el('use', { href: `#tile-${cssId(id)}-${rot}`, transform: `translate(${x * CELL} ${y * CELL})`, ...extra });
    return u;
  }

  // Board position of a segment's follower spot on a tile placed with rotation `rot`.
  spot(tileId: string, x: number, y: number, rot: number, seg: number): Pt {
    const t = this.tiles.get(tileId);
    const p = t ? anchors(t)[seg] ?? [50, 50] : [50, 50] as Pt;
    const [px, py] = rotatePt(p, rot);
    return [x * CELL + px, y * CELL + py];
  }

  // Each player's last placement, outlined in the player's colour ("what just happened").
  setLastMoves(moves: { x: number; y: number; player: number }[]) {
    this.lastMoves = moves;
    if (this.lastView) this.render(this.lastView);
  }

  render(view: GameView) {
    const prevKeys = new Set<string>();
    this.layerTiles.querySelectorAll('use.placed').forEach((u) => prevKeys.add(`${u.getAttribute('data-x')},${u.getAttribute('data-y')}`));
    const animate = prevKeys.size > 0;
    this.layerTiles.replaceChildren();
    for (const p of view.board) {
      const isNew = animate && !prevKeys.has(`${p.x},${p.y}`);
      const u = this.useTile(p.tile, p.x, p.y, p.rotation, { 'data-x': p.x, 'data-y': p.y, class: `placed${isNew ? ' just-placed' : ''}` });
      if (isNew) u.style.transformOrigin = `${p.x * CELL + CELL / 2}px ${p.y * CELL + CELL / 2}px`;
      this.layerTiles.append(u);
    }
    for (const m of this.lastMoves) {
      if (view.last && m.x === view.last.x && m.y === view.last.y) continue;
      if (!view.board.some((b) => b.x === m.x && b.y === m.y)) continue;
      this.layerTiles.append(el('rect', {
        x: m.x * CELL + 3, y: m.y * CELL + 3, width: CELL - 6, height: CELL - 6,
        fill: 'none', stroke: PLAYER_COLORS[m.player % PLAYER_COLORS.length], 'stroke-width': 4, 'stroke-dasharray': '10 6',
        class: 'player-last', 'data-player': m.player, 'pointer-events': 'none',
      }));
    }
    if (view.last) {
      const by = this.lastMoves.find((m) => m.x === view.last!.x && m.y === view.last!.y);
      this.layerTiles.append(el('rect', {
        x: view.last.x * CELL + 2, y: view.last.y * CELL + 2, width: CELL - 4, height: CELL - 4,
        fill: 'none', stroke: by ? PLAYER_COLORS[by.player % PLAYER_COLORS.length] : '#fff', 'stroke-width': 6, class: 'last-move', 'pointer-events': 'none',
      }));
    }
    this.lastView = view;
    this.wheel?.update(view);
    this.renderFollowers(view.followers, view);
    this.renderFruit(view);
    const xs = view.board.map((b) => b.x), ys = view.board.map((b) => b.y);
    const extent = `${Math.min(...xs)},${Math.max(...xs)},${Math.min(...ys)},${Math.max(...ys)}`;
    if (view.board.length && (!this.fitted || (!this.userMoved && extent !== this.extent))) this.fitted = this.fit(view);
    this.extent = extent;
  }

  private renderFollowers(followers: FollowerView[], view: GameView) {
    const before = new Set<string>();
    this.layerFollowers.querySelectorAll('[data-follower]').forEach((m) => before.add(m.getAttribute('data-follower')!));
    const animate = before.size > 0 || view.board.length > 1;
    this.layerFollowers.replaceChildren();
    for (const f of followers) {
      const placed = view.board.find((b) => b.x === f.x && b.y === f.y);
      if (!placed) continue;
      const [px, py] = this.spot(placed.tile, f.x, f.y, placed.rotation, f.seg);
      const m = meeple(PLAYER_COLORS[f.player % PLAYER_COLORS.length], px, py, f.kind === 'field', 1.2 * this.markScale);
      const key = `${f.x},${f.y},${f.at}`;
      m.setAttribute('data-follower', key);
      m.setAttribute('data-player', String(f.player));
      if (animate && !before.has(key)) m.classList.add('just-placed-follower');
      m.setAttribute('pointer-events', 'none');
      this.layerFollowers.append(m);
    }
  }

  // Where the fruit tokens of a tree tile at (x, y) turned `rot` are drawn: beside the tree,
  // towards the middle of the tile.
  fruitSpot(tileId: string, x: number, y: number, rot: number): Pt {
    const t = this.tiles.get(tileId);
    const [tx, ty] = t ? treeSpot(t, rot) : [50, 50];
    const bx = Math.min(90, Math.max(10, tx + (tx > 50 ? -13 : 13)));
    const by = Math.min(90, Math.max(10, ty + 5));
    return [x * CELL + bx, y * CELL + by];
  }

  // Fruit-Bearing Trees: the tokens left on each tree.
  private renderFruit(view: GameView) {
    this.layerFruit.replaceChildren();
    for (const tr of view.fruit?.trees ?? []) {
      const placed = view.board.find((b) => b.x === tr.x && b.y === tr.y);
      if (!placed) continue;
      const [bx, by] = this.fruitSpot(placed.tile, tr.x, tr.y, placed.rotation);
      this.layerFruit.append(treeBadge(tr.type, tr.left, bx, by));
    }
  }

  // Legal places (all cells with any rotation), the pending tile and its follower spots.
  renderPlacement(tileId: string | null, placements: Placement[], pending: PendingPlacement | null, player: number, previewRot = 0, fruit: PendingFruit | null = null) {
    this.layerHighlights.replaceChildren();
    this.layerPending.replaceChildren();
    if (!tileId) return;
    const cells = new Map<string, { x: number; y: number }>();
    for (const p of placements) cells.set(`${p.x},${p.y}`, { x: p.x, y: p.y });
    for (const c of cells.values()) {
      if (pending && pending.x === c.x && pending.y === c.y) continue;
      const r = el('rect', {
        x: c.x * CELL + 4, y: c.y * CELL + 4, width: CELL - 8, height: CELL - 8, rx: 8,
        class: 'legal-cell', 'data-x': c.x, 'data-y': c.y, 'data-testid': `cell-${c.x}_${c.y}`,
        role: 'button', tabindex: 0, 'aria-label': t('board.cell', { x: c.x, y: c.y }),
      });
      r.addEventListener('click', (e) => {
        if (this.drag?.moved) return;
        e.stopPropagation();
        this.placedAt = performance.now();
        this.cb.onCellClick(c.x, c.y);
      });
      // hovering a legal square shows the tile there, turned as in the preview when it fits so
      let hover: SVGElement | null = null;
      r.addEventListener('mouseenter', () => {
        const rots = placements.filter((p) => p.x === c.x && p.y === c.y).map((p) => p.rotation);
        const rot = rots.includes(previewRot) ? previewRot : rots[0];
        hover = this.useTile(tileId, c.x, c.y, rot, { opacity: 0.6, 'pointer-events': 'none', class: 'hover-tile' });
        this.layerHighlights.insertBefore(hover, this.layerHighlights.firstChild);
      });
      r.addEventListener('mouseleave', () => { hover?.remove(); hover = null; });
      this.layerHighlights.append(r);
    }
    if (!pending) return;
    const g = el('g', { class: 'pending' });
    const ghost = this.useTile(tileId, pending.x, pending.y, pending.rotation, { class: 'ghost', 'data-testid': 'pending-tile' });
    ghost.addEventListener('click', (e) => {
      if (this.drag?.moved) return;
      e.stopPropagation();
      // the second click of a double click on a square: the tile was just put there, do not turn it
      if (secondClick(e) && performance.now() - this.placedAt < 800) return;
      this.cb.onCellClick(pending.x, pending.y);
    });
    g.append(ghost);
    g.append(el('rect', {
      x: pending.x * CELL, y: pending.y * CELL, width: CELL, height: CELL, fill: 'none',
      stroke: '#ffeb3b', 'stroke-width': 4, 'pointer-events': 'none',
    }));
    const pl = placements.find((p) => p.x === pending.x && p.y === pending.y && p.rotation === pending.rotation);
    const color = PLAYER_COLORS[player % PLAYER_COLORS.length];
    if (pl) {
      for (const m of pl.followers) {
        const [px, py] = this.spot(tileId, pending.x, pending.y, pending.rotation, m.seg);
        const chosen = pending.follower === m.seg;
        const spot = el('g', { class: `spot${chosen ? ' chosen' : ''}`, 'data-testid': `spot-${m.at}`, 'data-at': m.at, 'data-kind': m.kind });
        spot.append(el('circle', { cx: px, cy: py, r: 19, fill: 'transparent', class: 'spot-hit' }));  // a finger-sized target
        spot.append(el('circle', { cx: px, cy: py, r: 11, class: 'spot-ring' }));
        if (chosen) spot.append(meeple(color, px, py, m.kind === 'field', 0.9));
        const title = el('title');
        title.textContent = t('board.spot', { feature: featureWords(m.kind), where: spotWords(m.at) });
        spot.append(title);
        spot.addEventListener('click', (e) => {
          e.stopPropagation();
          if (secondClick(e)) return;
          this.cb.onSpotClick(m.seg);
        });
        g.append(spot);
      }
      // Festival: own followers that may be taken back instead
      for (const r of pl.take_backs) {
        if (r.crown) continue;  // crown followers: below (no x, y, seg)
        const placed = this.placedTiles.get(`${r.x},${r.y}`);
        if (!placed) continue;
        const [px, py] = this.spot(placed.tile, r.x, r.y, placed.rotation, r.seg);
        const chosen = pending.take_back && pending.take_back.x === r.x && pending.take_back.y === r.y && pending.take_back.at === r.at;
        const spot = el('g', { class: `return-spot${chosen ? ' chosen' : ''}`, 'data-testid': `return-${r.x}_${r.y}_${r.at}` });
        spot.append(el('circle', { cx: px, cy: py, r: 14, class: 'return-ring' }));
        const title = el('title');
        title.textContent = t('board.returnSpot');
        spot.append(title);
        spot.addEventListener('click', (e) => {
          e.stopPropagation();
          if (secondClick(e)) return;
          this.cb.onReturnClick({ x: r.x, y: r.y, at: r.at });
        });
        g.append(spot);
      }
      // Wheel of Fortune: free crown spaces for the follower instead of the tile, and (Festival)
      // own crown followers that may be taken back
      const geo = this.wheel?.geo;
      for (const space of geo ? pl.crowns ?? [] : []) {
        const pos = geo!.crownPos(space);
        if (!pos) continue;
        const chosen = pending.crown === space;
        const spot = el('g', { class: `spot crown-spot${chosen ? ' chosen' : ''}`, 'data-testid': `spot-${space}`, 'data-at': space, 'data-kind': 'crown' });
        spot.append(el('circle', { cx: pos[0], cy: pos[1], r: 13, class: 'spot-ring' }));
        if (chosen) spot.append(meeple(color, pos[0], pos[1], false, 0.8));
        const title = el('title');
        title.textContent = t('board.crownSpot', { where: crownWords(space) });
        spot.append(title);
        spot.addEventListener('click', (e) => {
          e.stopPropagation();
          if (secondClick(e)) return;
          this.cb.onCrownClick?.(space);
        });
        g.append(spot);
      }
      for (const r of geo ? pl.take_backs.filter((x) => x.crown) : []) {
        const pos = geo!.crownPos(r.at);
        if (!pos) continue;
        const chosen = pending.take_back?.at === r.at;
        const spot = el('g', { class: `return-spot${chosen ? ' chosen' : ''}`, 'data-testid': `return-${r.at}` });
        spot.append(el('circle', { cx: pos[0], cy: pos[1], r: 15, class: 'return-ring' }));
        const title = el('title');
        title.textContent = t('board.returnCrown');
        spot.append(title);
        spot.addEventListener('click', (e) => {
          e.stopPropagation();
          if (secondClick(e)) return;
          this.cb.onReturnClick({ x: 0, y: 0, at: r.at });
        });
        g.append(spot);
      }
    }
    if (fruit?.stack) {
      // the stack put on the tree of the tile being placed
      const [bx, by] = this.fruitSpot(tileId, pending.x, pending.y, pending.rotation);
      const b = treeBadge(fruit.stack, stackSize(), bx, by);
      b.setAttribute('data-testid', 'pending-stack');
      g.append(b);
    }
    // trees that may be harvested: rings, the chosen one highlighted (under the follower spots)
    const rings = el('g', { class: 'harvest-rings' });
    g.insertBefore(rings, g.childNodes[2] ?? null);
    for (const opt of fruit?.harvest ?? []) {
      const at = opt.new ? { tile: tileId, rotation: pending.rotation } : this.placedTiles.get(`${opt.x},${opt.y}`);
      if (!at) continue;
      const [bx, by] = this.fruitSpot(at.tile, opt.x, opt.y, at.rotation);
      const chosen = !!fruit?.chosen && fruit.chosen.x === opt.x && fruit.chosen.y === opt.y;
      const ring = el('g', { class: `harvest-spot${chosen ? ' chosen' : ''}`, 'data-testid': `harvest-${opt.x}_${opt.y}` });
      ring.append(el('circle', { cx: bx, cy: by, r: 13, class: 'harvest-ring' }));
      const title = el('title');
      title.textContent = t('board.harvest', { n: opt.left });
      ring.append(title);
      ring.addEventListener('click', (e) => {
        e.stopPropagation();
          if (secondClick(e)) return;
        this.cb.onTreeClick?.(opt.x, opt.y);
      });
      rings.append(ring);
    }
    this.layerPending.append(g);
  }

  // The Plague: rings around the deciding player's followers on the land; a click takes one back.
  renderPlague(options: PlagueOption[], player: number) {
    this.layerHighlights.replaceChildren();
    this.layerPending.replaceChildren();
    const g = el('g', { class: 'plague' });
    for (const o of options) {
      const placed = this.placedTiles.get(`${o.x},${o.y}`);
      if (!placed) continue;
      const [px, py] = this.spot(placed.tile, o.x, o.y, placed.rotation, o.seg);
      const spot = el('g', { class: 'plague-spot', 'data-testid': `plague-${o.x}_${o.y}_${o.at}`, 'data-player': player });
      spot.append(el('circle', { cx: px, cy: py, r: 24 * this.markScale, class: 'plague-ring' }));
      const title = el('title');
      title.textContent = t('board.plague');
      spot.append(title);
      spot.addEventListener('click', (e) => {
        e.stopPropagation();
          if (secondClick(e)) return;
        this.cb.onPlagueClick?.({ x: o.x, y: o.y, at: o.at });
      });
      g.append(spot);
    }
    this.layerPending.append(g);
  }

  // The Wheel of Fortune drawn large (for a phone): a copy of the wheel as it is now, with the
  // free crown spaces the tile being placed may take (a tap chooses one, as on the board).
  wheelLarge(onCrown: (space: string) => void): SVGSVGElement | null {
    const geo = this.wheel?.geo;
    if (!geo || !this.wheel) return null;
    const m = geo.r + 10;
    const svg = el('svg', { viewBox: `${geo.cx - m} ${geo.cy - m} ${2 * m} ${2 * m}`, class: 'wheel-large', 'data-testid': 'wheel-large', role: 'group', 'aria-label': t('board.wheelLarge') });
    const copy = this.wheel.g.cloneNode(true) as SVGGElement;
    for (const n of [copy, ...copy.querySelectorAll('[data-testid]')]) {
      const id = n.getAttribute('data-testid');
      if (id) n.setAttribute('data-testid', `large-${id}`);
    }
    svg.append(copy);
    for (const spot of this.layerPending.querySelectorAll<SVGGElement>('.crown-spot')) {
      const c = spot.cloneNode(true) as SVGGElement;
      const space = spot.getAttribute('data-at')!;
      c.setAttribute('data-testid', `large-spot-${space}`);
      c.addEventListener('click', (e) => { e.stopPropagation(); onCrown(space); });
      svg.append(c);
    }
    return svg;
  }

  // A floating text at a board point (e.g. over the wheel); a new note of the same kind replaces
  // the one still floating (two notes of the pig never overlap).
  floatAt(px: number, py: number, text: string, color: string, cls = 'float-score') {
    if (cls !== 'float-score') this.layerFx.querySelectorAll(`.${cls}`).forEach((n) => n.remove());
    const t = el('text', { x: px, y: py, 'text-anchor': 'middle', class: cls, fill: color });
    t.textContent = text;
    this.layerFx.append(t);
    setTimeout(() => t.remove(), 2400);
  }

  private placedTiles = new Map<string, { tile: string; rotation: number }>();
  setPlaced(view: GameView) {
    this.placedTiles.clear();
    for (const p of view.board) this.placedTiles.set(`${p.x},${p.y}`, { tile: p.tile, rotation: p.rotation });
  }

  // A floating "+8" over a tile.
  floatText(x: number, y: number, text: string, color: string, k = 0) {
    const t = el('text', {
      x: x * CELL + 50, y: y * CELL + 45 + 32 * k, 'text-anchor': 'middle', class: 'float-score', fill: color,
    });
    t.textContent = text;
    this.layerFx.append(t);
    setTimeout(() => t.remove(), 1800);
  }

  highlightCell(x: number, y: number, color: string) {
    const r = el('rect', { x: x * CELL, y: y * CELL, width: CELL, height: CELL, fill: color, opacity: 0.35, class: 'flash', 'data-testid': 'flash' });
    this.layerFx.append(r);
    setTimeout(() => r.remove(), 1400);
  }

  // --- pan and zoom ----------------------------------------------------------------------

  private apply() {
    this.viewport.setAttribute('transform', `translate(${this.tx} ${this.ty}) scale(${this.scale})`);
    // zoomed out (tiles under ~90 px), followers grow so that they stay about 22 px tall
    const k = Math.round(Math.min(2.2, Math.max(1, 0.9 / this.scale)) * 10) / 10;
    if (k !== this.markScale) {
      this.markScale = k;
      if (this.lastView) this.renderFollowers(this.lastView.followers, this.lastView);
    }
  }

  get zoomScale() {
    return this.scale;
  }

  // Fits the board to the view; false when the board has no size yet (not laid out).
  fit(view: GameView, byUser = false): boolean {
    if (byUser) this.userMoved = false;
    const r = this.svg.getBoundingClientRect();
    if (!r.width || !r.height || !view.board.length) return false;
    const xs = view.board.map((b) => b.x), ys = view.board.map((b) => b.y);
    // one free ring around (the legal squares), and a sliver of room beyond it
    const minX = Math.min(...xs) - 1.08, maxX = Math.max(...xs) + 2.08, minY = Math.min(...ys) - 1.08, maxY = Math.max(...ys) + 2.08;
    const w = (maxX - minX) * CELL, h = (maxY - minY) * CELL;
    // the whole board, as large as the box allows: it fills the box's width or its height,
    // whichever comes first (on a phone a wide board makes small squares: pinch to zoom in)
    this.scale = Math.min(1.1, Math.max(0.05, Math.min(r.width / w, r.height / h)));
    this.tx = r.width / 2 - ((minX + maxX) / 2) * CELL * this.scale;
    this.ty = r.height / 2 - ((minY + maxY) / 2) * CELL * this.scale;
    this.apply();
    return true;
  }

  // When none of these cells is on screen (the board grew), fits the board to the view.
  ensureVisible(view: GameView, cells: { x: number; y: number }[]) {
    const r = this.svg.getBoundingClientRect();
    if (!r.width || !cells.length) return;
    const s = CELL * this.scale;
    const visible = cells.some((c) => {
      const sx = this.tx + c.x * CELL * this.scale, sy = this.ty + c.y * CELL * this.scale;
      return sx >= 0 && sy >= 0 && sx + s <= r.width && sy + s <= r.height;
    });
    if (visible) return;
    this.fit(view);
    // the whole board does not fit at a size that can be tapped: centre the square nearest to
    // the last move
    const s2 = CELL * this.scale;
    const still = cells.some((c) => {
      const sx = this.tx + c.x * CELL * this.scale, sy = this.ty + c.y * CELL * this.scale;
      return sx >= 0 && sy >= 0 && sx + s2 <= r.width && sy + s2 <= r.height;
    });
    if (still) return;
    const last = view.last ?? { x: 0, y: 0 };
    const c = cells.reduce((a, b) => (Math.hypot(b.x - last.x, b.y - last.y) < Math.hypot(a.x - last.x, a.y - last.y) ? b : a));
    this.tx = r.width / 2 - (c.x + 0.5) * CELL * this.scale;
    this.ty = r.height / 2 - (c.y + 0.5) * CELL * this.scale;
    this.apply();
  }

  // The tile being placed stays wholly on screen when the board's box shrinks (on a phone the
  // turn panel under the board grows, e.g. with a fruit action): pan the least that shows it.
  private keepPendingInView() {
    const p = this.layerPending.querySelector('[data-testid="pending-tile"]');
    if (!p) return;
    const b = this.svg.getBoundingClientRect(), r = p.getBoundingClientRect();
    const pad = 6;
    let dx = 0, dy = 0;
    if (r.top < b.top + pad) dy = b.top + pad - r.top;
    else if (r.bottom > b.bottom - pad) dy = b.bottom - pad - r.bottom;
    if (r.left < b.left + pad) dx = b.left + pad - r.left;
    else if (r.right > b.right - pad) dx = b.right - pad - r.right;
    if (!dx && !dy) return;
    this.tx += dx;
    this.ty += dy;
    this.apply();
  }

  zoom(factor: number, cx?: number, cy?: number) {
    this.userMoved = true;
    const r = this.svg.getBoundingClientRect();
    const px = cx ?? r.width / 2, py = cy ?? r.height / 2;
    const ns = Math.min(3, Math.max(Math.min(0.15, this.scale), this.scale * factor));
    const k = ns / this.scale;
    this.tx = px - (px - this.tx) * k;
    this.ty = py - (py - this.ty) * k;
    this.scale = ns;
    this.apply();
  }

  private installPanZoom() {
    this.apply();
    // the board's box changes (side panel filled, phone turned, window resized): fit again
    // unless the player has panned or zoomed; a small change of height (the turn's panel under
    // the board on a phone grows by a line) keeps the scale and the centre
    if (typeof ResizeObserver !== 'undefined') {
      let lw = 0, lh = 0;
      new ResizeObserver(() => {
        const r = this.svg.getBoundingClientRect();
        const w = Math.round(r.width), hgt = Math.round(r.height);
        if (w === lw && hgt === lh) return;
        const dw = w - lw, dh = hgt - lh;
        const small = lw > 0 && dw === 0 && Math.abs(dh) < 0.25 * lh;
        lw = w;
        lh = hgt;
        if (small && this.fitted) {
          this.ty += dh / 2;
          this.apply();
          this.keepPendingInView();
        } else if (this.lastView && !this.userMoved) {
          this.fitted = this.fit(this.lastView);
        }
      }).observe(this.svg);
    }
    this.svg.addEventListener('wheel', (e) => {
      e.preventDefault();
      const r = this.svg.getBoundingClientRect();
      this.zoom(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    // one finger or the mouse pans; two fingers pinch to zoom
    const pointers = new Map<number, { x: number; y: number }>();
    let pinch: number | null = null;  // the distance between the two fingers
    const spread = () => {
      const [a, b] = [...pointers.values()];
      return { d: Math.hypot(a.x - b.x, a.y - b.y), mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2 };
    };
    this.svg.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 2) {
        pinch = spread().d;
        if (this.drag) this.drag.moved = true;  // no tap at the end of a pinch
        return;
      }
      this.drag = { x: e.clientX, y: e.clientY, tx: this.tx, ty: this.ty, moved: false, slop: e.pointerType === 'touch' ? TOUCH_SLOP : 5 };
    });
    window.addEventListener('pointermove', (e) => {
      if (pointers.has(e.pointerId)) pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pinch !== null && pointers.size >= 2) {
        const { d, mx, my } = spread();
        const r = this.svg.getBoundingClientRect();
        if (pinch > 0 && d > 0) this.zoom(d / pinch, mx - r.left, my - r.top);
        pinch = d;
        return;
      }
      if (!this.drag) return;
      const dx = e.clientX - this.drag.x, dy = e.clientY - this.drag.y;
      if (!this.drag.moved && Math.hypot(dx, dy) < this.drag.slop) return;
      if (!this.drag.moved) this.svg.setPointerCapture?.(e.pointerId);
      this.drag.moved = true;
      this.userMoved = true;
      this.svg.classList.add('dragging');
      this.tx = this.drag.tx + dx;
      this.ty = this.drag.ty + dy;
      this.apply();
    });
    const up = (e: PointerEvent) => {
      pointers.delete(e.pointerId);
      if (pinch !== null) {
        if (pointers.size < 2) pinch = null;
        // the finger left on the board pans on from where it is
        const [rest] = [...pointers.values()];
        if (rest) this.drag = { x: rest.x, y: rest.y, tx: this.tx, ty: this.ty, moved: true, slop: 0 };
        else { const d = this.drag; setTimeout(() => { if (this.drag === d) this.drag = null; }, 0); }
        return;
      }
      this.svg.classList.remove('dragging');
      // keep `moved` visible to the click that follows this pointerup
      const d = this.drag;
      setTimeout(() => { if (this.drag === d) this.drag = null; }, 0);
    };
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
  }
}

// The second (or later) click of a double click: it lands where the first one just made a
// follower spot appear, so it must not choose that spot (nor turn a tile just put down).
function secondClick(e: Event): boolean {
  return (e as MouseEvent).detail >= 2;
}

export function cssId(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, '_');
}

// A standalone drawing of one tile (for the "tile to place" panel).
export function tilePreview(t: TileData | undefined, rot: number, size = 120): SVGSVGElement {
  const svg = el('svg', { viewBox: '-4 -4 108 108', width: size, height: size, class: 'tile-preview' });
  if (t) {
    svg.append(drawTile(t, rot));
  }
  return svg;
}
