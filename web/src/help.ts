// Rules help in the game: a dialog with short sections in the project's own words (from
// shared/rules/*.md and the decisions in docs/rules-decisions.md), opened at the section the
// situation calls for ("?" buttons beside the status, the expansion panels, the score
// breakdown and the wheel). Only the sections of the game's rule set are listed.
import { icon } from './icons';
import { t, type Key } from './i18n';
import { fruitPoints } from './vocab';
import { h } from './ui';

interface Section { id: string; when?: string; paras: number }

// The sections in order; their titles and paragraphs are the message table's help.ID.title and
// help.ID.1 .. help.ID.N (lang/*.ts).
const SECTIONS: Section[] = [
  { id: 'turn', paras: 3 },
  { id: 'roads', paras: 2 },
  { id: 'cities', paras: 2 },
  { id: 'monasteries', paras: 2 },
  { id: 'farms', paras: 2 },
  { id: 'majority', paras: 1 },
  { id: 'end', paras: 1 },
  { id: 'festival', when: 'festival', paras: 2 },
  { id: 'fortune-teller', when: 'fortune-teller', paras: 3 },
  { id: 'fruit-trees', when: 'fruit-trees', paras: 3 },
  { id: 'wheel', when: 'wheel-of-fortune', paras: 8 },
  { id: 'keys', paras: 1 },
];
const title = (s: Section) => t(`help.${s.id}.title` as Key);
// The points in the rules come from the engine's tables (the fruit's token values and sale points).
const paragraphs = (s: Section) => Array.from({ length: s.paras }, (_, i) => t(`help.${s.id}.${i + 1}` as Key, s.id === 'fruit-trees' ? { ...fruitPoints(), n: fruitPoints().held } : {}));

// Opens the rules help at a section; `expansions` limits it to the sections of the game.
export function openHelp(section = 'turn', expansions: string[] = []) {
  document.querySelector('.help-overlay')?.remove();
  const on = new Set(expansions);
  const shown = SECTIONS.filter((s) => !s.when || on.has(s.when));
  const close = () => { overlay.remove(); document.removeEventListener('keydown', onKey, true); opener?.focus(); };
  const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') { e.stopPropagation(); close(); } };
  const opener = document.activeElement as HTMLElement | null;
  const closeBtn = h('button', { class: 'btn', 'aria-label': t('help.closeLabel'), title: t('common.close'), 'data-testid': 'help-close', onclick: close });
  closeBtn.append(icon('close'));
  const nav = h('nav', { class: 'help-nav', 'aria-label': t('help.sections') },
    ...shown.map((s) => h('a', { href: `#help-${s.id}`, onclick: (e: Event) => { e.preventDefault(); body.querySelector(`#help-${s.id}`)?.scrollIntoView({ block: 'start' }); } }, title(s))));
  const body = h('div', { class: 'help-body' },
    ...shown.map((s) => h('section', { id: `help-${s.id}`, class: `help-section${s.id === section ? ' current' : ''}`, 'data-section': s.id },
      h('h3', {}, title(s)), ...paragraphs(s).map((p) => h('p', {}, p)))));
  const card = h('div', { class: 'card help-card', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'help-title', 'data-testid': 'help' },
    h('div', { class: 'help-head' }, h('h2', { id: 'help-title' }, t('help.rules')), closeBtn), nav, body);
  const overlay = h('div', { class: 'overlay help-overlay', onclick: (e: Event) => { if (e.target === overlay) close(); } }, card);
  document.body.append(overlay);
  document.addEventListener('keydown', onKey, true);
  closeBtn.focus();
  body.querySelector(`#help-${section}`)?.scrollIntoView({ block: 'start' });
}

// A small "?" button that opens the help at `section`.
export function helpButton(section: string, expansions: string[], label = t('help.how')): HTMLElement {
  const b = h('button', { class: 'help-btn', type: 'button', title: label, 'aria-label': label, 'data-help': section,
    onclick: (e: Event) => { e.stopPropagation(); openHelp(section, expansions); } });
  b.append(icon('help', 18));
  return b;
}
