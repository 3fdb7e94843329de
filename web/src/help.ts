// Rules help in the game: a dialog with short sections in the project's own words (from
// shared/rules/*.md and the decisions in docs/rules-decisions.md), opened at the section the
// situation calls for ("?" buttons beside the status, the expansion panels, the score
// breakdown and the wheel). Only the sections of the game's rule set are listed.
import { icon } from './icons';
import { h } from './ui';

interface Section { id: string; title: string; when?: string; body: string[] }

const SECTIONS: Section[] = [
  { id: 'turn', title: 'Your turn', body: [
    'Place the tile you drew so that it touches the board and every edge it touches matches: city to city, road to road, field to field. Tap or click a highlighted square; tap the tile again (or press R) to turn it.',
    'Then you may put one follower from your supply on a feature of that tile: a road, a city, a monastery or a field. Only on a feature where nobody stands yet, even far away.',
    'Confirm with "Place tile". Every road, city and monastery the tile completes is scored at once, and the followers on it go back to their owners.',
  ] },
  { id: 'roads', title: 'Roads', body: [
    'A road is complete when both ends stop (at a village, a city, a monastery or a crossing) or it closes into a loop.',
    'Complete: 1 point per tile. At the end, an unfinished road still scores 1 per tile.',
  ] },
  { id: 'cities', title: 'Cities', body: [
    'A city is complete when its wall is closed with no gap.',
    'Complete: 2 points per tile and 2 per pennant (the shield). At the end, an unfinished city scores 1 per tile and 1 per pennant.',
  ] },
  { id: 'monasteries', title: 'Monasteries', body: [
    'A monastery is complete when all 8 squares around it hold tiles: 9 points.',
    'At the end, an unfinished one scores 1 for itself and 1 for each tile around it.',
  ] },
  { id: 'farms', title: 'Fields and farmers', body: [
    'Farmers lie in fields and stay there until the end of the game. Roads, cities and the edge of the board split fields.',
    'At the end, each field scores 3 points for every completed city it touches, for the player with the most farmers in it.',
  ] },
  { id: 'majority', title: 'Sharing a feature', body: [
    'Tiles may join two features that already have followers. When a feature scores, the player with the most followers on it scores all of it; players tied for the most all score in full; the others score nothing.',
  ] },
  { id: 'end', title: 'End of the game', body: [
    'The game ends after the turn that places the last tile. Then unfinished roads, cities and monasteries with followers score, then the fields; the highest total wins.',
  ] },
  { id: 'festival', when: 'festival', title: 'The Festival', body: [
    'A tile with the festival symbol lets you, instead of placing a follower, take one of your followers back from anywhere (a farmer too, or one on a crown space). It goes back to your supply without scoring.',
    'On the board your followers that can be taken back have pink rings: tap one, then confirm.',
  ] },
  { id: 'fortune-teller', when: 'fortune-teller', title: 'The Fortune Teller', body: [
    'Some tiles have a fortune-teller tent. A follower on the tent is a fortune teller; you may have at most 2.',
    'At the start of your turn you draw one tile more for each of your fortune tellers and choose which to place; the others go back into the bag.',
    'A tent is complete when the 4 squares beside it (not the corners) hold tiles: the player who completes it scores 3 and the fortune teller goes home. An unfinished tent scores nothing at the end.',
  ] },
  { id: 'fruit-trees', when: 'fruit-trees', title: 'Fruit-Bearing Trees', body: [
    'A tree tile gets a stack of 4 fruit tokens (worth 2 to 5 each) when it is placed.',
    'When you place a follower on a tile that is a tree tile or touches one (corners count), you may do one fruit action: harvest (take the top token of one of those trees, score its value and keep the token), or sell 1 to 4 tokens of different fruits for 3, 6, 10 or 15 points.',
    'At the end every token you still hold scores 1 point.',
  ] },
  { id: 'wheel', when: 'wheel-of-fortune', title: 'The Wheel of Fortune', body: [
    'The wheel board replaces the start tile. A tile with a number on it turns the wheel: the pig moves that many segments clockwise before you place the tile, and the segment it stops on happens at once.',
    'Instead of on your tile, you may put your follower on a free crown space of the wheel. When the pig stops on that segment, the crown spaces score: 3 points each, or 6 for a player alone on a segment with two spaces; the followers then go home.',
    'Fortuna: the player turning the wheel scores 3.',
    'Taxes: each knight scores the pennants of its city plus its owner\'s knights in that city.',
    'Famine: each farmer scores 1 for each completed city beside its field.',
    'Storm: each player scores 1 for each follower in their supply.',
    'Inquisition: each monk scores 2.',
    'The Plague: every player with followers on the land takes one of them back, starting with the player whose turn it is; followers on crown spaces are safe.',
  ] },
  { id: 'keys', title: 'Keyboard', body: [
    'Arrow keys: move the tile between the highlighted squares. R: turn it (Shift+R: the other way). F: the next follower spot (or none). Enter: place the tile. Escape: cancel. + and -: zoom. ?: this help.',
  ] },
];

// Opens the rules help at a section; `expansions` limits it to the sections of the game.
export function openHelp(section = 'turn', expansions: string[] = []) {
  document.querySelector('.help-overlay')?.remove();
  const on = new Set(expansions);
  const shown = SECTIONS.filter((s) => !s.when || on.has(s.when));
  const close = () => { overlay.remove(); document.removeEventListener('keydown', onKey, true); opener?.focus(); };
  const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') { e.stopPropagation(); close(); } };
  const opener = document.activeElement as HTMLElement | null;
  const closeBtn = h('button', { class: 'btn', 'aria-label': 'Close the rules', title: 'Close', 'data-testid': 'help-close', onclick: close });
  closeBtn.append(icon('close'));
  const nav = h('nav', { class: 'help-nav', 'aria-label': 'Rules sections' },
    ...shown.map((s) => h('a', { href: `#help-${s.id}`, onclick: (e: Event) => { e.preventDefault(); body.querySelector(`#help-${s.id}`)?.scrollIntoView({ block: 'start' }); } }, s.title)));
  const body = h('div', { class: 'help-body' },
    ...shown.map((s) => h('section', { id: `help-${s.id}`, class: `help-section${s.id === section ? ' current' : ''}`, 'data-section': s.id },
      h('h3', {}, s.title), ...s.body.map((p) => h('p', {}, p)))));
  const card = h('div', { class: 'card help-card', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'help-title', 'data-testid': 'help' },
    h('div', { class: 'help-head' }, h('h2', { id: 'help-title' }, 'Rules'), closeBtn), nav, body);
  const overlay = h('div', { class: 'overlay help-overlay', onclick: (e: Event) => { if (e.target === overlay) close(); } }, card);
  document.body.append(overlay);
  document.addEventListener('keydown', onKey, true);
  closeBtn.focus();
  body.querySelector(`#help-${section}`)?.scrollIntoView({ block: 'start' });
}

// A small "?" button that opens the help at `section`.
export function helpButton(section: string, expansions: string[], label = 'Rules: how this works'): HTMLElement {
  const b = h('button', { class: 'help-btn', type: 'button', title: label, 'aria-label': label, 'data-help': section,
    onclick: (e: Event) => { e.stopPropagation(); openHelp(section, expansions); } });
  b.append(icon('help', 18));
  return b;
}
