// The Wheel of Fortune board: its 16 cells are ordinary tiles (drawn from their tile data, so a
// future layout with roads and cities shows), and the wheel is drawn over the inner area: six
// segments clockwise from the top, the crown spaces along the rim with the followers on them,
// and the pig, which turns to its segment (animated, always clockwise).
import type { GameView, TileSet, WheelSegmentView } from './api';
import { el, meeple, PLAYER_COLORS, type Pt } from './tiles';
import { t, type Key } from './i18n';
import { crownWords } from './words';

const cap = (w: string) => w[0].toUpperCase() + w.slice(1);

// A segment's short name ("Taxes") and what it does, in the player's language.
const NAMES: Record<string, Key> = {
  fortuna: 'segName.fortuna', taxes: 'segName.taxes', famine: 'segName.famine', storm: 'segName.storm', inquisition: 'segName.inquisition', plague: 'segName.plague',
};
const HELP: Record<string, Key> = {
  fortuna: 'segHelp.fortuna', taxes: 'segHelp.taxes', famine: 'segHelp.famine', storm: 'segHelp.storm', inquisition: 'segHelp.inquisition', plague: 'segHelp.plague',
};
const SEGMENT_COLORS: Record<string, string> = {
  fortuna: '#ffd54f', taxes: '#b0bec5', famine: '#d7ccc8', storm: '#90caf9', inquisition: '#b39ddb', plague: '#a5d6a7',
};
export function wheelEventLabel(ev: string): string {
  return NAMES[ev] ? t(NAMES[ev]) : ev;
}
// One-line explanations of the events (for titles and the side panel).
export function wheelEventHelp(ev: string): string {
  return HELP[ev] ? t(HELP[ev]) : '';
}

// Where things are on the wheel, in board units (a cell is `cell` units).
export class WheelGeometry {
  readonly cx: number;
  readonly cy: number;
  readonly r: number;
  readonly minX: number;
  readonly minY: number;
  readonly w: number;
  readonly h: number;
  readonly events: string[];
  readonly crowns: number[];

  constructor(board: NonNullable<TileSet['board']>, cell: number) {
    const xs = board.cells.map((c) => c.x), ys = board.cells.map((c) => c.y);
    this.minX = Math.min(...xs) * cell;
    this.minY = Math.min(...ys) * cell;
    this.w = (Math.max(...xs) + 1) * cell - this.minX;
    this.h = (Math.max(...ys) + 1) * cell - this.minY;
    this.cx = this.minX + this.w / 2;
    this.cy = this.minY + this.h / 2;
    // the inner area: half of the board (2x2 cells of 4x4)
    this.r = Math.min(this.w, this.h) / 4 - 4;
    this.events = board.wheel.map((s) => s.event);
    this.crowns = board.wheel.map((s) => s.crowns);
  }

  get n() {
    return this.events.length;
  }
  // The middle of segment i, in degrees clockwise from the top.
  midAngle(i: number): number {
    return (360 / this.n) * (i + 0.5);
  }
  point(angleDeg: number, radius: number): Pt {
    const a = ((angleDeg - 90) * Math.PI) / 180;
    return [this.cx + radius * Math.cos(a), this.cy + radius * Math.sin(a)];
  }
  // "crown:taxes:1" -> its place on the rim.
  crownPos(space: string): Pt | null {
    const [, event, k] = space.split(':');
    const i = this.events.indexOf(event);
    if (i < 0) return null;
    const n = this.crowns[i];
    const spread = 360 / this.n / 4.2;
    const a = this.midAngle(i) + (n > 1 ? (Number(k) === 0 ? -spread : spread) : 0);
    return this.point(a, this.r * 0.83);
  }
}

function crownGlyph(x: number, y: number, color = '#b8860b'): SVGPathElement {
  return el('path', {
    d: `M${x - 6},${y + 4} L${x - 7},${y - 4} L${x - 3},${y} L${x},${y - 6} L${x + 3},${y} L${x + 7},${y - 4} L${x + 6},${y + 4} Z`,
    fill: color, stroke: '#7a5a00', 'stroke-width': 0.8, 'stroke-linejoin': 'round',
  });
}

// The pig, seen from above, centred on the origin with its nose up (towards the top of the
// wheel): the wheel's pointer, turned to its segment.
export function pig(): SVGGElement {
  const g = el('g', { class: 'pig' });
  const ink = '#ad1457', skin = '#f8bbd0';
  g.append(el('path', { d: 'M0,15 q5,3 2,7 q-3,3 1,6', stroke: ink, 'stroke-width': 1.6, fill: 'none' }));  // tail
  for (const [x, y] of [[-10, -8], [10, -8], [-10, 8], [10, 8]])
    g.append(el('ellipse', { cx: x, cy: y, rx: 3.2, ry: 2.4, fill: '#f48fb1', stroke: ink, 'stroke-width': 1 }));
  g.append(el('ellipse', { cx: 0, cy: 0, rx: 10.5, ry: 16, fill: skin, stroke: ink, 'stroke-width': 1.6 }));
  g.append(el('path', { d: 'M-7,-22 l-5,-8 l8,3 Z M7,-22 l5,-8 l-8,3 Z', fill: '#f48fb1', stroke: ink, 'stroke-width': 1 }));
  g.append(el('circle', { cx: 0, cy: -19, r: 8.5, fill: skin, stroke: ink, 'stroke-width': 1.6 }));
  g.append(el('ellipse', { cx: 0, cy: -27, rx: 5, ry: 3.4, fill: '#f06292', stroke: ink, 'stroke-width': 1 }));
  g.append(el('circle', { cx: -1.8, cy: -27, r: 1, fill: '#880e4f' }));
  g.append(el('circle', { cx: 1.8, cy: -27, r: 1, fill: '#880e4f' }));
  g.append(el('circle', { cx: -3.6, cy: -20.5, r: 1.2, fill: '#3e2723' }));
  g.append(el('circle', { cx: 3.6, cy: -20.5, r: 1.2, fill: '#3e2723' }));
  return g;
}

// A small pig for text (the side panel).
export function pigIcon(size = 16): SVGSVGElement {
  const svg = el('svg', { viewBox: '-16 -33 32 62', width: size * 0.55, height: size, class: 'pig-icon' });
  svg.append(pig());
  return svg;
}

// The wheel drawing. Kept between renders, so the pig's turn is animated.
export class WheelDrawing {
  readonly g: SVGGElement;
  private segLayer: SVGGElement;
  private crownLayer: SVGGElement;
  private pigTurn: SVGGElement;
  private angle = -1;  // the pig's angle so far (grows: the pig only turns clockwise)
  private pigSeg = -1;

  constructor(readonly geo: WheelGeometry) {
    this.g = el('g', { class: 'wheel', 'data-testid': 'wheel' });
    const { cx, cy, r } = geo;
    // a frame around the whole board: one board of 4x4 cells
    this.g.append(el('rect', {
      x: geo.minX + 1.5, y: geo.minY + 1.5, width: geo.w - 3, height: geo.h - 3, rx: 6,
      fill: 'none', stroke: '#5d4037', 'stroke-width': 3, 'pointer-events': 'none',
    }));
    this.g.append(el('circle', { cx, cy, r: r + 5, fill: '#6d4c41', stroke: '#3e2723', 'stroke-width': 1.5 }));
    this.segLayer = el('g');
    this.g.append(this.segLayer);
    const n = geo.n;
    for (let i = 0; i < n; ++i) {
      const ev = geo.events[i];
      const a0 = (360 / n) * i, a1 = (360 / n) * (i + 1);
      const [x0, y0] = geo.point(a0, r), [x1, y1] = geo.point(a1, r);
      const seg = el('path', {
        d: `M${cx},${cy} L${x0.toFixed(2)},${y0.toFixed(2)} A${r},${r} 0 0 1 ${x1.toFixed(2)},${y1.toFixed(2)} Z`,
        fill: SEGMENT_COLORS[ev] ?? '#eee', stroke: '#5d4037', 'stroke-width': 1.2,
        class: 'wheel-seg', 'data-testid': `wheel-seg-${ev}`, 'data-event': ev,
      });
      const title = el('title');
      title.textContent = t('wheel.segTitle', { name: wheelEventLabel(ev), help: wheelEventHelp(ev) });
      seg.append(title);
      this.segLayer.append(seg);
      // the label runs along the rim (upright on the lower half), clear of the crown spaces
      const mid = geo.midAngle(i);
      const [lx, ly] = geo.point(mid, r * 0.58);
      const turn = mid > 90 && mid < 270 ? mid - 180 : mid;
      const label = el('text', {
        x: lx.toFixed(1), y: (ly + 3).toFixed(1), 'text-anchor': 'middle', 'font-size': 9.5, 'font-weight': 700,
        transform: `rotate(${turn.toFixed(1)} ${lx.toFixed(1)} ${ly.toFixed(1)})`,
        fill: '#3e2723', 'font-family': 'Georgia, serif', 'pointer-events': 'none', class: 'wheel-label',
      });
      label.textContent = wheelEventLabel(ev);
      this.g.append(label);
    }
    this.crownLayer = el('g', { class: 'crowns' });
    this.g.append(this.crownLayer);
    // the pig turns around the centre: an outer group puts the origin there, the inner one turns
    const at = el('g', { transform: `translate(${cx} ${cy})`, 'pointer-events': 'none' });
    this.pigTurn = el('g', { class: 'pig-turn', 'data-testid': 'pig' });
    const scale = (r / 96) * 1.15;
    at.append(el('circle', { cx: 0, cy: 0, r: r * 0.36, fill: 'rgba(255,255,255,0.35)', stroke: '#5d4037', 'stroke-width': 1 }));
    const p = pig();
    p.setAttribute('transform', `scale(${scale.toFixed(3)})`);
    this.pigTurn.append(p);
    at.append(this.pigTurn);
    this.g.append(at);
  }

  update(view: GameView) {
    const w = view.wheel;
    const segs: WheelSegmentView[] = w?.segments ?? this.geo.events.map((e, i) => ({
      event: e, name: e, crowns: Array.from({ length: this.geo.crowns[i] }, (_, k) => ({ space: `crown:${e}:${k}`, player: -1 })),
    }));
    const pigSeg = w ? w.pig : 0;
    this.segLayer.querySelectorAll('.wheel-seg').forEach((s, i) => s.classList.toggle('pig-here', i === pigSeg));
    // crown spaces
    this.crownLayer.replaceChildren();
    for (const seg of segs) {
      for (const c of seg.crowns) {
        const pos = this.geo.crownPos(c.space);
        if (!pos) continue;
        const [x, y] = pos;
        const g = el('g', { class: `crown${c.player >= 0 ? ' taken' : ''}`, 'data-testid': `crown-${c.space.replace(/:/g, '-')}`, 'data-player': c.player });
        g.append(el('circle', { cx: x, cy: y, r: 11, fill: '#fff8e1', stroke: '#b8860b', 'stroke-width': 1.6 }));
        if (c.player >= 0) g.append(meeple(PLAYER_COLORS[c.player % PLAYER_COLORS.length], x, y, false, 0.78));
        else g.append(crownGlyph(x, y));
        const title = el('title');
        const where = crownWords(c.space);
        title.textContent = c.player >= 0 ? t('crown.taken', { who: view.players?.[c.player]?.name ?? t('crown.aPlayer'), where }) : t('crown.free', { where: cap(where) });
        g.append(title);
        this.crownLayer.append(g);
      }
    }
    // the pig: turns clockwise to its segment
    const target = this.geo.midAngle(pigSeg);
    if (this.angle < 0) {
      this.angle = target;
      this.pigTurn.style.transition = 'none';
    } else if (pigSeg !== this.pigSeg) {
      const cur = ((this.angle % 360) + 360) % 360;
      this.angle += ((target - cur) % 360 + 360) % 360;
      this.pigTurn.style.transition = '';
    }
    this.pigSeg = pigSeg;
    this.pigTurn.style.transform = `rotate(${this.angle}deg)`;
    this.pigTurn.setAttribute('data-segment', this.geo.events[pigSeg] ?? '');
  }
}
