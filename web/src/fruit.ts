// Fruit-Bearing Trees: fruit names and colours, token chips for the side panel, token badges
// for the board (the fruit kinds and the points of a sale are the engine's: vocab.ts).
import type { HarvestOption, Placement } from './api';
import { t, type Key } from './i18n';
import { tables } from './vocab';
import { fruitWords } from './words';
import { el } from './tiles';

export const FRUIT_COLORS: Record<string, string> = {
  apple: '#d32f2f',
  apricot: '#fb8c00',
  cherry: '#880e4f',
  elder: '#311b92',
  plum: '#7b1fa2',
  quince: '#fbc02d',
};
// Text on a token of this colour.
export function fruitInk(type: string): string {
  return type === 'quince' || type === 'apricot' ? '#3e2723' : '#fff';
}

// "an apple" (in the player's language).
const FRUIT_A: Record<string, Key> = { apple: 'fruitA.apple', apricot: 'fruitA.apricot', cherry: 'fruitA.cherry', elder: 'fruitA.elder', plum: 'fruitA.plum', quince: 'fruitA.quince' };
export function fruitArticle(type: string): string {
  return FRUIT_A[type] ? t(FRUIT_A[type]) : type;
}

// The harvests a placement offers with the chosen stack, as the server lists them (GET .../legal:
// a tree tile's harvests each name the stack they go with, `fruit_type`; other tiles' name none).
export function harvestsFor(pl: Placement, stack: string | null | undefined): HarvestOption[] {
  return pl.fruit?.harvest.filter((h) => h.fruit_type === undefined || h.fruit_type === stack) ?? [];
}

// The tokens on a new stack (the engine's: one per token value, GET /api/tables).
export function stackSize(): number {
  return tables().fruit_token_values.length;
}

// A fruit token as a small inline SVG (side panel).
export function fruitIcon(type: string, size = 14): SVGSVGElement {
  const svg = el('svg', { viewBox: '-8 -9 16 17', width: size, height: size, class: 'fruit-icon' });
  svg.append(el('circle', { cx: 0, cy: 1, r: 6.5, fill: FRUIT_COLORS[type] ?? '#888', stroke: '#fff', 'stroke-width': 1.2 }));
  svg.append(el('path', { d: 'M0,-5 q1,-3 3.5,-3.5', stroke: '#5d4037', 'stroke-width': 1.4, fill: 'none' }));
  svg.append(el('ellipse', { cx: -2, cy: -4.5, rx: 2.2, ry: 1.2, fill: '#43a047', transform: 'rotate(-25 -2 -4.5)' }));
  return svg;
}

// Tokens on a tree, drawn on the board beside the tree at (x, y) (board units): a fruit
// with the number of tokens left; grey when the tree is bare.
export function treeBadge(type: string, left: number, x: number, y: number): SVGGElement {
  const g = el('g', { class: `fruit-badge${left ? '' : ' bare'}`, 'data-testid': `fruit-tree-${type}`, 'data-left': left, 'pointer-events': 'none' });
  const fill = left ? FRUIT_COLORS[type] ?? '#888' : '#9e9e9e';
  g.append(el('circle', { cx: x, cy: y, r: 9.5, fill, stroke: '#fff', 'stroke-width': 1.6 }));
  g.append(el('path', { d: `M${x},${y - 9} q1.5,-3.5 4.5,-4`, stroke: '#5d4037', 'stroke-width': 1.6, fill: 'none' }));
  const num = el('text', { x, y: y + 4.2, 'text-anchor': 'middle', 'font-size': 12, 'font-weight': 700, fill: left ? fruitInk(type) : '#fff', 'font-family': 'sans-serif' });
  num.textContent = String(left);
  g.append(num);
  const title = el('title');
  title.textContent = left ? t('fruit.treeLeft', { fruit: fruitWords(type), n: left }) : t('fruit.treeBare', { fruit: fruitWords(type) });
  g.append(title);
  return g;
}
