// Extension points for expansion UI. Each expansion registers a panel here: it is given the
// game view, the legal moves and the placement being prepared, may add controls to the side
// panel, contribute fields to the move being sent (e.g. {"fruit": {"harvest": {...}}},
// "plague": [...], a crown "follower": "crown:taxes:0"), and add a line to each player's row of
// the scoreboard. The game page calls every registered panel on each update.
// Done: the Festival take-back, the Fortune Teller tile choice, the Fruit-Bearing Trees (stack
// on a new tree, harvest or sale after a follower, tokens held and left), the Wheel of Fortune
// (the wheel and crown spaces on the board, the pig, the Plague choice, the wheel tile choice).
import type { GameView, Legal, FollowerOption, Placement } from './api';
import { fruitArticle, fruitIcon, harvestsFor } from './fruit';
import { fruitPoints, salePoints } from './vocab';
import { PLAYER_COLORS } from './tiles';
import { icon } from './icons';
import { h } from './ui';
import { listWords, t, tParts } from './i18n';
import { pigIcon, wheelEventHelp, wheelEventLabel } from './wheel';
import { crownWords, eventWords, fruitWords } from './words';

const cap = (w: string) => w[0].toUpperCase() + w.slice(1);

// The tile being placed: its legal entry (position, rotation, offers) and the follower chosen.
export interface PendingContext {
  placement: Placement;
  follower: FollowerOption | null;
  takeBack: boolean;  // Festival: a follower is taken back instead
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
  title(): string;
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
  title: () => t('panel.festival'),
  render(ctx) {
    if (!ctx.myTurn || !ctx.view.tile) return null;
    const p = document.createElement('p');
    p.className = 'hint';
    p.textContent = t('festival.hint');
    return ctx.legal?.placements.some((x) => x.take_backs.length) ? p : null;
  },
});

// The Fortune Teller: the choice between the drawn tiles is in the tile panel; this explains it.
registerExpansionPanel({
  expansion: 'fortune-teller',
  title: () => t('panel.fortuneTeller'),
  render(ctx) {
    if ((ctx.view.drawn?.length ?? 0) < 2) return null;
    const p = document.createElement('p');
    p.className = 'hint';
    p.textContent = t('fortune.hint');
    return p;
  },
});

// The Fruit-Bearing Trees: the stack put on a new tree tile, and after a follower is placed on
// a tile in the 3x3 block of a tree, one fruit action: harvest a tree (score its top token and
// keep it) or sell a set of held tokens of different kinds (the points: GET /api/tables,
// fruit_token_values and fruit_sale_points; the options: the legal moves).
// The trees' tokens are drawn on the board; each player's tokens are in the scoreboard.
function fruitChip(type: string, text: string, extra: Record<string, unknown> = {}) {
  const chip = h('span', { class: 'fruit-chip', title: fruitWords(type), ...extra }, text);
  chip.prepend(fruitIcon(type));
  return chip;
}

function heldOf(view: GameView, seat: number): [string, number][] {
  return Object.entries(view.fruit?.held?.[seat] ?? {}).filter(([, n]) => n > 0);
}

registerExpansionPanel({
  expansion: 'fruit-trees',
  title: () => t('panel.fruit'),
  playerInfo(view, seat) {
    const held = heldOf(view, seat);
    if (!view.fruit) return null;
    const total = held.reduce((a, [, n]) => a + n, 0);
    const line = h('div', { class: 'fruit-held', 'data-testid': `fruit-held-${seat}`, 'data-count': total, title: t('fruit.heldTitle', { n: fruitPoints().held }) });
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
      const line = h('div', { class: 'fruit-trees', 'data-testid': 'fruit-trees' }, h('small', {}, t('fruit.trees')));
      for (const tr of fr.trees) line.append(fruitChip(tr.type, tr.left ? t('fruit.chipLeft', { fruit: fruitWords(tr.type), n: tr.left }) : t('fruit.chipBare', { fruit: fruitWords(tr.type) }), { 'data-fruit': tr.type, 'data-left': tr.left, class: `fruit-chip${tr.left ? '' : ' bare'}` }));
      box.append(line);
    } else {
      box.append(h('p', { class: 'hint' }, t('fruit.noTree')));
    }
    const treesInPlay = fr.trees.length > 0 || !!ctx.legal?.placements.some((p) => p.fruit_types);
    if (ctx.myTurn && ctx.view.tile && treesInPlay && !ctx.pending?.placement.fruit)
      box.append(h('p', { class: 'hint' }, t('fruit.howTo')));
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
        'data-testid': 'fruit-stack', 'aria-label': t('fruit.stackLabel'),
        onchange: (e: Event) => ctx.setMoveFields({ fruit_type: (e.target as HTMLSelectElement).value }, 'turn'),
      }, ...stacks.map((f) => h('option', { value: f, selected: f === stack }, t('fruit.stackOption', { fruit: fruitWords(f), tokens: fruitPoints().tokens }))));
      box.append(h('div', { class: 'row' }, h('label', {}, t('fruit.stackFor'), sel)));
    }
    // The options are the server's (GET .../legal), for the chosen stack: a tree tile's harvests
    // each name the stack they go with (fruit_type); a sale is a set of 1 to sell_max of `sell`.
    const fruit = pl.fruit;
    const harvests = harvestsFor(pl, stack);
    if (!fruit || (!harvests.length && !fruit.sell.length)) return box.childNodes.length ? box : null;
    if (!p.follower) {
      box.append(h('p', { class: 'hint', 'data-testid': 'fruit-needs-follower' }, t('fruit.needsFollower')));
      return box;
    }
    // the fruit action: none, harvest a tree, or sell a set
    const action = ctx.moveFields.fruit as { harvest?: { x: number; y: number }; sell?: string[] } | undefined;
    const held = new Map(heldOf(v, v.current_player));
    const choice = h('fieldset', { class: 'fruit-action', 'data-testid': 'fruit-action' }, h('legend', {}, t('fruit.action')));
    const radio = (id: string, checked: boolean, label: (Node | string)[], onpick: () => void) => {
      const input = h('input', { type: 'radio', name: 'fruit-action', checked, 'data-testid': id, onchange: onpick });
      choice.append(h('label', { class: 'fruit-option' }, input, h('span', {}, ...label)));
    };
    radio('fruit-none', !action, [t('fruit.none')], () => ctx.setMoveFields({ fruit: undefined }, 'placement'));
    for (const tr of harvests) {
      const type = tr.type;
      const chosen = !!action?.harvest && action.harvest.x === tr.x && action.harvest.y === tr.y;
      radio(`fruit-harvest-${type}`, chosen,
        tParts(tr.new ? 'fruit.harvestNew' : 'fruit.harvestOld', { icon: fruitIcon(type), fruit: fruitWords(type), n: tr.left, ...fruitPoints() }),
        () => ctx.setMoveFields({ fruit: { harvest: { x: tr.x, y: tr.y } } }, 'placement'));
    }
    if (fruit.sell.length) {
      const sold = action?.sell ?? [];
      const pts = salePoints(sold.length);
      radio('fruit-sell', !!action?.sell,
        [action?.sell ? t('fruit.sellN', { n: sold.length, pts }) : t('fruit.sellAny', fruitPoints())],
        // picking "sell" offers the best set: one of each kind held, as many as a sale may name
        () => ctx.setMoveFields({ fruit: { sell: fruit.sell.slice(0, fruit.sell_max) } }, 'placement'));
      const boxes = h('div', { class: 'fruit-sell' });
      for (const type of fruit.sell) {
        const on = sold.includes(type);
        const cb = h('input', {
          type: 'checkbox', checked: on, disabled: !on && sold.length >= fruit.sell_max, 'data-testid': `fruit-sell-${type}`,
          onchange: (e: Event) => {
            const next = (e.target as HTMLInputElement).checked ? [...sold, type] : sold.filter((f) => f !== type);
            ctx.setMoveFields({ fruit: next.length ? { sell: next } : undefined }, 'placement');
          },
        });
        boxes.append(h('label', { class: 'fruit-option' }, cb, h('span', {}, fruitIcon(type), ` ${fruitWords(type)}`, h('small', {}, t('fruit.youHold', { n: held.get(type) ?? 0 })))));
      }
      choice.append(boxes);
    }
    const outcome = action?.harvest
      ? t('fruit.willHarvest', { fruit: fruitArticle(harvests.find((x) => x.x === action.harvest!.x && x.y === action.harvest!.y)?.type ?? 'fruit') })
      : action?.sell ? t('fruit.willSell', { n: salePoints(action.sell.length), list: listWords(action.sell.map(fruitWords)) }) : t('fruit.choose');
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
  title: () => t('panel.wheel'),
  playerInfo(view, seat) {
    const n = view.wheel?.segments.reduce((a, s) => a + s.crowns.filter((c) => c.player === seat).length, 0) ?? 0;
    if (!n) return null;
    return h('div', { class: 'crowns-held', 'data-testid': `crowns-held-${seat}`, 'data-count': n, title: t('wheel.crownsTitle') }, icon('crown', 14), t('wheel.onWheel', { n }));
  },
  render(ctx) {
    const w = ctx.view.wheel;
    if (!w) return null;
    const box = h('div', { class: 'wheel-panel', 'data-testid': 'wheel-panel' });
    const here = w.segments[w.pig];
    box.append(h('div', { class: 'wheel-pig', 'data-testid': 'wheel-pig', 'data-event': w.pig_event },
      pigIcon(18), ...tParts('wheel.pigOn', { seg: h('b', {}, wheelEventLabel(w.pig_event)), help: h('small', {}, ` (${wheelEventHelp(w.pig_event)})`) })));
    const last = [...ctx.view.events].reverse().find((e) => e.kind === 'pig');
    if (last) box.append(h('div', { class: 'wheel-last', 'data-testid': 'wheel-last' }, h('small', {}, t('wheel.lastTurn', { n: last.turn, text: eventWords(ctx.view, last) }))));
    if (ctx.view.phase === 'plague') {
      const who = ctx.view.players?.[ctx.view.current_player]?.name ?? '…';
      box.append(h('p', { class: 'hint plague-hint', 'data-testid': 'plague-hint' }, ctx.myTurn ? t('wheel.plagueMine') : t('wheel.plagueOther', { who })));
    }
    const list = h('div', { class: 'wheel-segments' });
    for (const seg of w.segments) {
      const line = h('div', { class: `wheel-seg-line${seg === here ? ' here' : ''}`, title: wheelEventHelp(seg.event) },
        h('span', { class: 'seg-name' }, wheelEventLabel(seg.event)));
      for (const c of seg.crowns)
        line.append(h('span', {
          class: `crown-chip${c.player >= 0 ? ' taken' : ''}`, 'data-space': c.space,
          style: c.player >= 0 ? `background:${PLAYER_COLORS[c.player % PLAYER_COLORS.length]}` : '',
          title: c.player >= 0 ? t('crown.taken', { who: ctx.view.players?.[c.player]?.name ?? t('crown.aPlayer'), where: crownWords(c.space) }) : t('crown.free', { where: cap(crownWords(c.space)) }),
        }, icon('crown', 13)));
      list.append(line);
    }
    box.append(list);
    const crowns = ctx.pending?.placement.crowns?.length ?? 0;
    if (ctx.myTurn && ctx.view.phase === 'place' && ctx.pending && crowns > 0)
      box.append(h('p', { class: 'hint' }, ctx.pending.crown ? t('wheel.crownChosen') : t('wheel.crownMay')));
    return box;
  },
});
