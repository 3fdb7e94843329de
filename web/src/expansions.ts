// Extension points for expansion UI. Each expansion registers a panel here: it is given the
// game view, the legal moves and the placement being prepared, may add controls to the side
// panel, contribute fields to the move being sent (e.g. {"fruit": {"harvest": {...}}},
// "plague": [...], a crown "follower": "crown:taxes:0"), and add a line to each player's row of
// the scoreboard. The game page calls every registered panel on each update.
// Done: the Festival take-back, the Fortune Teller tile choice, the Fruit-Bearing Trees (stack
// on a new tree, harvest or sale after a follower, tokens held and left), the Wheel of Fortune
// (the wheel and crown spaces on the board, the pig, the Plague choice, the wheel tile choice).
import type { GameView, Legal, FollowerOption, Placement } from './api';
import { fruitArticle, fruitIcon } from './fruit';
import { salePoints } from './vocab';
import { PLAYER_COLORS } from './tiles';
import { icon } from './icons';
import { h } from './ui';
import { pigIcon, WHEEL_EVENT_HELP, WHEEL_EVENT_LABELS } from './wheel';
import { crownWords, wheelLine } from './words';

const cap = (w: string) => w[0].toUpperCase() + w.slice(1);

// The tile being placed: its legal entry (position, rotation, offers) and the follower chosen.
export interface PendingContext {
  placement: Placement;
  meeple: FollowerOption | null;
  ret: boolean;  // Festival: a follower is taken back instead
  crown: string | null;  // Wheel of Fortune: the follower goes to this crown space instead
}

export interface ExpansionContext {
  view: GameView;
  legal: Legal | null;
  myTurn: boolean;
  pending: PendingContext | null;
  // The fields added to the move so far.
  moveFields: Record<string, unknown>;
  // Adds fields to the move under construction (merged into the POST body; `undefined`
  // removes one) and redraws. Scope 'placement': forgotten when the player changes the
  // placement or the follower; 'turn' (default): kept until the turn ends.
  setMoveFields(fields: Record<string, unknown>, scope?: 'turn' | 'placement'): void;
}

export interface ExpansionPanel {
  expansion: string;   // "festival", "fruit-trees", "wheel-of-fortune", ...
  title: string;
  render(ctx: ExpansionContext): HTMLElement | null;
  // Controls for the move being prepared, shown in the tile box just above "Place tile"
  // (e.g. the fruit action), or null.
  choice?(ctx: ExpansionContext): HTMLElement | null;
  // A line under a player's name in the scoreboard (e.g. fruit tokens held), or null.
  playerInfo?(view: GameView, seat: number): HTMLElement | null;
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
    return ctx.legal?.placements.some((p) => p.take_backs.length) ? t : null;
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

// The Fruit-Bearing Trees: the stack put on a new tree tile, and after a follower is placed on
// a tile in the 3x3 block of a tree, one fruit action: harvest a tree (score its top token,
// 2 to 5, and keep it) or sell a set of 1 to 4 held tokens of different kinds (3/6/10/15).
// The trees' tokens are drawn on the board; each player's tokens are in the scoreboard.
function fruitChip(type: string, text: string, extra: Record<string, unknown> = {}) {
  const chip = h('span', { class: 'fruit-chip', title: type, ...extra }, text);
  chip.prepend(fruitIcon(type));
  return chip;
}

function heldOf(view: GameView, seat: number): [string, number][] {
  return Object.entries(view.fruit?.held?.[seat] ?? {}).filter(([, n]) => n > 0);
}

registerExpansionPanel({
  expansion: 'fruit-trees',
  title: 'Fruit-Bearing Trees',
  playerInfo(view, seat) {
    const held = heldOf(view, seat);
    if (!view.fruit) return null;
    const total = held.reduce((a, [, n]) => a + n, 0);
    const line = h('div', { class: 'fruit-held', 'data-testid': `fruit-held-${seat}`, 'data-count': total, title: 'fruit tokens held (1 point each at the end)' });
    if (!held.length) return null;
    for (const [type, n] of held) line.append(fruitChip(type, `×${n}`, { 'data-fruit': type, 'data-n': n }));
    return line;
  },
  render(ctx) {
    const v = ctx.view;
    const fr = v.fruit;
    if (!fr) return null;
    const box = h('div', { class: 'fruit-panel', 'data-testid': 'fruit-panel' });
    if (fr.trees.length) {
      const line = h('div', { class: 'fruit-trees', 'data-testid': 'fruit-trees' }, h('small', {}, 'Trees on the board: '));
      for (const t of fr.trees) line.append(fruitChip(t.type, t.left ? ` ${t.type} ${t.left} left` : ` ${t.type} bare`, { 'data-fruit': t.type, 'data-left': t.left, class: `fruit-chip${t.left ? '' : ' bare'}` }));
      box.append(line);
    } else {
      box.append(h('p', { class: 'hint' }, 'No fruit tree on the board yet.'));
    }
    const treesInPlay = fr.trees.length > 0 || !!ctx.legal?.placements.some((p) => p.fruit_types);
    if (ctx.myTurn && ctx.view.tile && treesInPlay && !ctx.pending?.placement.fruit)
      box.append(h('p', { class: 'hint' }, 'Place a follower on a tile next to a tree (or on a tree tile) to harvest it or sell fruit.'));
    return box;
  },
  choice(ctx) {
    const v = ctx.view;
    const p = ctx.pending;
    if (!v.fruit || !ctx.myTurn || !p) return null;
    const box = h('div', { class: 'fruit-choice', 'data-testid': 'fruit-choice' });
    const pl = p.placement;
    const stacks = pl.fruit_types ?? [];
    const stack = stacks.includes(ctx.moveFields.fruit_type as string) ? (ctx.moveFields.fruit_type as string) : stacks[0];
    if (stacks.length) {
      const sel = h('select', {
        'data-testid': 'fruit-stack', 'aria-label': 'Fruit stack for the new tree',
        onchange: (e: Event) => ctx.setMoveFields({ fruit_type: (e.target as HTMLSelectElement).value }, 'turn'),
      }, ...stacks.map((f) => h('option', { value: f, selected: f === stack }, `${f} (4 tokens)`)));
      box.append(h('div', { class: 'row' }, h('label', {}, 'Stack for this tree: ', sel)));
    }
    if (!pl.fruit) return box.childNodes.length ? box : null;
    if (!p.meeple) {
      box.append(h('p', { class: 'hint', 'data-testid': 'fruit-needs-follower' }, 'Place a follower on this tile to harvest a tree or sell fruit.'));
      return box;
    }
    // the fruit action: none, harvest a tree, or sell a set
    const action = ctx.moveFields.fruit as { harvest?: { x: number; y: number }; sell?: string[] } | undefined;
    const held = new Map(heldOf(v, v.current_player));
    const choice = h('fieldset', { class: 'fruit-action', 'data-testid': 'fruit-action' }, h('legend', {}, 'Fruit action'));
    const radio = (id: string, checked: boolean, label: (Node | string)[], onpick: () => void) => {
      const input = h('input', { type: 'radio', name: 'fruit-action', checked, 'data-testid': id, onchange: onpick });
      choice.append(h('label', { class: 'fruit-option' }, input, h('span', {}, ...label)));
    };
    radio('fruit-none', !action, ['No fruit action'], () => ctx.setMoveFields({ fruit: undefined }, 'placement'));
    const typeOf = (t: { type: string; new: boolean }) => (t.new ? stack ?? t.type : t.type);
    for (const t of pl.fruit.harvest) {
      const type = typeOf(t);
      const chosen = !!action?.harvest && action.harvest.x === t.x && action.harvest.y === t.y;
      radio(`fruit-harvest-${type}`, chosen,
        [`Harvest ${t.new ? 'the new' : 'the'} `, fruitIcon(type), ` ${type} tree (${t.left} left): 2–5 points`],
        () => ctx.setMoveFields({ fruit: { harvest: { x: t.x, y: t.y } } }, 'placement'));
    }
    if (pl.fruit.sell.length) {
      const sold = action?.sell ?? [];
      const pts = salePoints(sold.length);
      radio('fruit-sell', !!action?.sell,
        [action?.sell ? `Sell ${sold.length} fruit${sold.length === 1 ? '' : 's'} for ${pts} points` : 'Sell fruit of different kinds (1/2/3/4 kinds: 3/6/10/15 points)'],
        // picking "sell" offers the best set: one of each kind held, at most 4
        () => ctx.setMoveFields({ fruit: { sell: pl.fruit!.sell.slice(0, 4) } }, 'placement'));
      const boxes = h('div', { class: 'fruit-sell' });
      for (const type of pl.fruit.sell) {
        const on = sold.includes(type);
        const cb = h('input', {
          type: 'checkbox', checked: on, disabled: !on && sold.length >= 4, 'data-testid': `fruit-sell-${type}`,
          onchange: (e: Event) => {
            const next = (e.target as HTMLInputElement).checked ? [...sold, type] : sold.filter((f) => f !== type);
            ctx.setMoveFields({ fruit: next.length ? { sell: next } : undefined }, 'placement');
          },
        });
        boxes.append(h('label', { class: 'fruit-option' }, cb, h('span', {}, fruitIcon(type), ` ${type}`, h('small', {}, ` (you hold ${held.get(type) ?? 0})`))));
      }
      choice.append(boxes);
    }
    const outcome = action?.harvest
      ? `You will harvest ${fruitArticle(typeOf(pl.fruit.harvest.find((t) => t.x === action.harvest!.x && t.y === action.harvest!.y) ?? { type: 'fruit', new: false }))} and score its value.`
      : action?.sell ? `You will score ${salePoints(action.sell.length)} for ${action.sell.join(', ')}.` : 'Choose, then place the tile.';
    choice.append(h('small', { class: 'fruit-outcome', 'data-testid': 'fruit-outcome' }, outcome));
    box.append(choice);
    return box;
  },
});

// The Wheel of Fortune: the wheel itself is drawn on the board (segments, crown spaces with
// the followers on them, the pig). This panel names the pig's segment and its last move, lists
// the segments with their crown spaces, explains the crown spaces when a follower may go there,
// and explains the Plague while it lasts. Each player's crown followers are in the scoreboard.
registerExpansionPanel({
  expansion: 'wheel-of-fortune',
  title: 'Wheel of Fortune',
  playerInfo(view, seat) {
    const n = view.wheel?.segments.reduce((a, s) => a + s.crowns.filter((c) => c.player === seat).length, 0) ?? 0;
    if (!n) return null;
    return h('div', { class: 'crowns-held', 'data-testid': `crowns-held-${seat}`, 'data-count': n, title: 'followers on crown spaces of the wheel' }, icon('crown', 14), ` ${n} on the wheel`);
  },
  render(ctx) {
    const w = ctx.view.wheel;
    if (!w) return null;
    const box = h('div', { class: 'wheel-panel', 'data-testid': 'wheel-panel' });
    const here = w.segments[w.pig];
    box.append(h('div', { class: 'wheel-pig', 'data-testid': 'wheel-pig', 'data-event': w.pig_event },
      pigIcon(18), ' The pig is on ', h('b', {}, WHEEL_EVENT_LABELS[w.pig_event] ?? w.pig_event), h('small', {}, ` (${WHEEL_EVENT_HELP[w.pig_event] ?? ''})`)));
    const last = [...w.log].reverse().find((e) => e.kind === 'pig');
    if (last) box.append(h('div', { class: 'wheel-last', 'data-testid': 'wheel-last' }, h('small', {}, `Turn ${last.turn}: ${wheelLine(ctx.view, last).text}`)));
    if (ctx.view.phase === 'plague') {
      const who = ctx.view.players?.[ctx.view.current_player]?.name ?? '…';
      box.append(h('p', { class: 'hint plague-hint', 'data-testid': 'plague-hint' }, ctx.myTurn
        ? 'The Plague: take back one of your followers. Every player with followers on the land takes one back, in turn order; followers on crown spaces are safe.'
        : `The Plague: ${who} takes back a follower; followers on crown spaces are safe.`));
    }
    const list = h('div', { class: 'wheel-segments' });
    for (const seg of w.segments) {
      const line = h('div', { class: `wheel-seg-line${seg === here ? ' here' : ''}`, title: WHEEL_EVENT_HELP[seg.event] ?? '' },
        h('span', { class: 'seg-name' }, WHEEL_EVENT_LABELS[seg.event] ?? seg.event));
      for (const c of seg.crowns)
        line.append(h('span', {
          class: `crown-chip${c.player >= 0 ? ' taken' : ''}`, 'data-space': c.space,
          style: c.player >= 0 ? `background:${PLAYER_COLORS[c.player % PLAYER_COLORS.length]}` : '',
          title: c.player >= 0 ? `${ctx.view.players?.[c.player]?.name ?? 'A player'} on ${crownWords(c.space, seg.name)}` : `${cap(crownWords(c.space, seg.name))}: free`,
        }, icon('crown', 13)));
      list.append(line);
    }
    box.append(list);
    const crowns = ctx.pending?.placement.crowns?.length ?? 0;
    if (ctx.myTurn && ctx.view.phase === 'place' && ctx.pending && crowns > 0)
      box.append(h('p', { class: 'hint' }, ctx.pending.crown
        ? 'Your follower goes to the crown space: it scores when the pig stops on its segment (3, or 6 alone on a two-space segment).'
        : 'Instead of on the tile, you may put your follower on a free crown space of the wheel (click a ringed crown).'));
    return box;
  },
});
