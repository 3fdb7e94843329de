// Extension points for expansion UI. The engine supports the base game and the Festival
// take-back today; the Fruit-Bearing Trees actions, Wheel of Fortune crown spaces and wheel,
// and the Plague choice come later. Each expansion registers a panel here: it is given the
// game view and the legal moves and may add controls to the side panel and contribute fields
// to the move being sent (e.g. {"fruit": {"harvest": {...}}}, "plague": [...], a crown
// "meeple": "crown:taxes:0"). The game page calls every registered panel on each update.
// Done today: the Festival take-back and the Fortune Teller tile choice.
import type { GameView, Legal } from './api';

export interface ExpansionContext {
  view: GameView;
  legal: Legal | null;
  myTurn: boolean;
  // Adds fields to the move under construction (merged into the POST body).
  setMoveFields(fields: Record<string, unknown>): void;
}

export interface ExpansionPanel {
  expansion: string;   // "festival", "fruit-trees", "wheel-of-fortune", ...
  title: string;
  render(ctx: ExpansionContext): HTMLElement | null;
}

const panels: ExpansionPanel[] = [];

export function registerExpansionPanel(p: ExpansionPanel) {
  panels.push(p);
}

export function activePanels(view: GameView): ExpansionPanel[] {
  const on = new Set([...view.expansions, view.tileset]);
  return panels.filter((p) => on.has(p.expansion));
}

// The Festival: the take-back is chosen on the board (rings around your followers); this panel
// explains it.
registerExpansionPanel({
  expansion: 'festival',
  title: 'Festival',
  render(ctx) {
    if (!ctx.myTurn || !ctx.view.tile) return null;
    const t = document.createElement('p');
    t.className = 'hint';
    t.textContent = 'Festival tile: instead of placing a follower you may take one of yours back (click a ringed follower).';
    return ctx.legal?.placements.some((p) => p.returns.length) ? t : null;
  },
});

// The Fortune Teller: the choice between the drawn tiles is in the tile panel; this explains it.
registerExpansionPanel({
  expansion: 'fortune-teller',
  title: 'Fortune Teller',
  render(ctx) {
    if ((ctx.view.drawn?.length ?? 0) < 2) return null;
    const p = document.createElement('p');
    p.className = 'hint';
    p.textContent = 'Your fortune tellers let you draw several tiles: pick the one to place; the others go back into the bag.';
    return p;
  },
});

// Placeholders where the engine's support will plug in (kept visible so the hooks are used).
for (const [expansion, title, text] of [
  ['fruit-trees', 'Fruit-Bearing Trees', 'Fruit actions (harvest a tree, sell fruit) will appear here.'],
  ['wheel-of-fortune', 'Wheel of Fortune', 'The wheel with the pig, crown spaces and the Plague choice will appear here.'],
] as const) {
  registerExpansionPanel({
    expansion,
    title,
    render() {
      const p = document.createElement('p');
      p.className = 'hint';
      p.textContent = text;
      return p;
    },
  });
}
