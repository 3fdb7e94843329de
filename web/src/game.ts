// The game page: board, drawn tile, scoreboard, log, controls, live updates (server-sent
// events), and the final scoring shown step by step.
import { api, ApiError, tokens, type GameView, type HintMove, type Legal, type TileSet, type WheelLogEntry } from './api';
import { BoardView, tilePreview, type PendingFruit, type PendingPlacement } from './board';
import { activePanels, type ExpansionContext, type PendingContext } from './expansions';
import { helpButton, openHelp } from './help';
import { icon, iconButton } from './icons';
import { meeple, PLAYER_COLORS } from './tiles';
import { coarsePointer, copyText, h, prefersReducedMotion, toast } from './ui';
import { breakdown, categoryLabel, describeTile, followerWords, moveWords, placeWords, spotWords, wheelLine } from './words';
import { stageOf } from './vocab';
import { WHEEL_EVENT_HELP } from './wheel';
import { computerWords, loadLevels, type Level } from './levels';

// "You scores 8" -> "You score 8" (a player may be called "You"); also harvests, sells and
// takes back (the Plague).
function words(text: string): string {
  return text.replace(/^You (scores|harvests|sells|takes) /, (_m, verb: string) => `You ${verb.slice(0, -1)} `);
}

// Wheel of Fortune event kinds scored for the wheel as a whole (shown over the wheel).
const WHEEL_WIDE = new Set(['fortuna', 'storm', 'crown']);

// The log: the scoring events with the Wheel of Fortune's lines (the pig's moves, the Plague's
// take-backs) in the engine's order (vocab.ts stageOf, from /api/tables): within a turn the pig
// moves, the wheel's event scores, the Plague takes followers back, the crown spaces score, then
// the placement; the end-of-game scoring comes after every turn. Both lists are in the engine's
// order already; they are merged by (final, turn, stage), the view's events first on a tie.
type LogLine = { turn: number; player: number; text: string; kind: string; final?: boolean };
export function mergeLog(v: GameView): LogLine[] {
  const wheel: WheelLogEntry[] = (v.wheel?.log ?? []).map((e) => wheelLine(v, e));
  if (!wheel.length) return v.events;
  const key = (e: LogLine) => [e.final ? 1 : 0, e.final ? 0 : e.turn, stageOf(e)];
  const before = (a: LogLine, b: LogLine) => {
    const ka = key(a), kb = key(b);
    for (let i = 0; i < ka.length; ++i) if (ka[i] !== kb[i]) return ka[i] < kb[i];
    return false;
  };
  const out: LogLine[] = [];
  let w = 0;
  for (const e of v.events) {
    while (w < wheel.length && before(wheel[w], e)) out.push(wheel[w++]);
    out.push(e);
  }
  while (w < wheel.length) out.push(wheel[w++]);
  return out;
}

const cap = (w: string) => w[0].toUpperCase() + w.slice(1);

// Suggestions that read the same (one square, two ways to turn the tile or two spots for the
// follower) are told apart: where on the tile the follower goes, then how the tile is turned.
const TURNS: Record<number, string> = { 0: 'as drawn', 90: 'turned once to the right', 180: 'turned upside down', 270: 'turned once to the left' };
export function distinctHints(moves: HintMove[], texts: string[]): string[] {
  const out = [...texts];
  const same = (i: number) => out.some((t, j) => j !== i && t === out[i]);
  const clash = out.map((_, i) => same(i));
  clash.forEach((c, i) => {
    const f = moves[i].move.follower;
    if (c && f && !f.startsWith('crown:')) out[i] += ` (${spotWords(f)})`;
  });
  const clash2 = out.map((_, i) => same(i));
  clash2.forEach((c, i) => {
    const r = moves[i].move.rotation;
    if (c && r !== undefined) out[i] += `, ${TURNS[r] ?? `turned ${r}°`}`;
  });
  out.forEach((t, i) => { if (out.some((u, j) => j < i && u === t)) out[i] += ` (option ${i + 1})`; });
  return out;
}

export class GamePage {
  private root: HTMLElement;
  private board!: BoardView;
  private side!: HTMLElement;
  private view: GameView | null = null;
  private legal: Legal | null = null;
  private legalFor = '';
  private pending: PendingPlacement | null = null;
  private previewRot = 0;
  private tileset: TileSet | null = null;
  private es: EventSource | null = null;
  private sending = false;
  private seenEvents = -1;
  private finalShown = false;
  // Fields added to the move by expansion panels: kept for the turn, or only for the current
  // placement and follower (e.g. the fruit action).
  private turnFields: Record<string, unknown> = {};
  private placementFields: Record<string, unknown> = {};
  private keyHandler = (e: KeyboardEvent) => this.onKey(e);
  private bagOpen = false;
  private levels: Level[] = [];  // the computer's levels in words ("Computer (Casual)")
  private choice = 0;  // which drawn tile is being placed (Fortune Teller draws several)
  private turnbar!: HTMLElement;
  // "What just happened": the moves in words (newest last) and each player's last placement
  private moves: { turn: number; player: number; text: string; x: number; y: number }[] = [];
  private movesUpTo = 0;
  // "Suggest a move": the hint for the decision `key` (turn, player, phase, version of the
  // legal moves), while it loads, once shown, or why it failed
  private hint: { key: string; state: 'loading' | 'done' | 'error'; moves: HintMove[]; error: string } | null = null;

  constructor(parent: HTMLElement, private id: string) {
    this.root = h('div', { class: 'game-page' });
    parent.replaceChildren(this.root);
  }

  async start() {
    const link = (href: string, name: string, text: string, extra: Record<string, unknown> = {}) => {
      const a = h('a', { href, class: 'btn ghost', title: text, ...extra }, icon(name), h('span', { class: 'label' }, text));
      return a;
    };
    const header = h('header', { class: 'topbar' },
      h('a', { href: '#/', class: 'brand' }, 'Carcassonne'),
      h('span', { class: 'game-id' }, `game ${this.id}`),
      h('span', { class: 'spacer' }),
      h('button', { class: 'btn ghost', type: 'button', title: 'Rules', 'data-testid': 'help-open', onclick: () => openHelp('turn', this.helpSets()) }, icon('help'), h('span', { class: 'label' }, 'Rules')),
      link(`#/replay/${this.id}`, 'replay', 'Replay'),
      link(api.recordUrl(this.id), 'download', 'Download record', { download: `carcassonne-${this.id}.json`, 'data-testid': 'download-record' }),
    );
    const boardWrap = h('div', { class: 'board-wrap' });
    this.side = h('aside', { class: 'side', 'aria-label': 'Scores and game log' });
    this.turnbar = h('section', { class: 'turnbar', 'aria-label': 'Your move', 'data-testid': 'turnbar' });
    this.root.append(header, h('main', { class: 'game-main' }, h('div', { class: 'stage' }, boardWrap, this.turnbar), this.side));
    this.board = new BoardView(boardWrap, {
      onCellClick: (x, y) => this.clickCell(x, y),
      onSpotClick: (seg) => this.clickSpot(seg),
      onReturnClick: (r) => this.clickReturn(r),
      onTreeClick: (x, y) => this.clickTree(x, y),
      onCrownClick: (space) => this.clickCrown(space),
      onPlagueClick: (f) => void this.clickPlague(f),
    });
    const zb = (name: string, label: string, onclick: () => void, testid: string) => {
      const b = h('button', { title: label, 'aria-label': label, type: 'button', onclick, 'data-testid': testid });
      b.append(icon(name, 20));
      return b;
    };
    this.wheelButton = zb('crown', 'Show the Wheel of Fortune large', () => this.showWheelLarge(), 'wheel-zoom');
    this.wheelButton.hidden = true;
    boardWrap.append(h('div', { class: 'zoom-buttons' },
      this.wheelButton,
      zb('plus', 'Zoom in', () => this.board.zoom(1.25), 'zoom-in'),
      zb('minus', 'Zoom out', () => this.board.zoom(0.8), 'zoom-out'),
      zb('fit', 'Fit the board', () => { if (this.view) this.board.fit(this.view, true); }, 'zoom-fit'),
    ));
    window.addEventListener('keydown', this.keyHandler);
    try {
      const [v, levels] = await Promise.all([api.game(this.id), loadLevels()]);
      this.levels = levels;
      this.tileset = await api.tiles(v.tileset, v.expansions);
      this.board.setTileSet(this.tileset);
      this.wheelButton.hidden = !this.board.wheelGeometry;
      this.seenEvents = v.events.length;
      this.finalShown = v.status !== 'playing';
      await this.update(v);
      void this.loadMoves(v);
    } catch (e) {
      this.side.replaceChildren(h('p', { class: 'error' }, `Cannot open game ${this.id}: ${(e as Error).message}`), h('a', { href: '#/' }, 'Back to the lobby'));
      return;
    }
    this.connect();
  }

  destroy() {
    this.es?.close();
    clearInterval(this.pollTimer);
    window.removeEventListener('keydown', this.keyHandler);
  }

  private pollTimer = 0;
  private wheelButton!: HTMLElement;

  // The Wheel of Fortune drawn large over the page (its names, crown spaces and numbers are too
  // small on a phone's board), with the segments in words; a free crown space may be chosen on it.
  private showWheelLarge() {
    const v = this.view;
    document.querySelector('.wheel-overlay')?.remove();
    const svg = this.board.wheelLarge((space) => { close(); this.clickCrown(space); });
    if (!v || !svg) return;
    const opener = document.activeElement as HTMLElement | null;
    const close = () => { overlay.remove(); document.removeEventListener('keydown', onKey, true); opener?.focus(); };
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') { e.stopPropagation(); close(); } };
    document.addEventListener('keydown', onKey, true);
    const closeBtn = h('button', { class: 'btn', type: 'button', 'aria-label': 'Close the wheel', title: 'Close', 'data-testid': 'wheel-large-close', onclick: close }, icon('close'));
    const players = v.players ?? [];
    const segs = v.wheel?.segments ?? [];
    const list = h('ul', { class: 'wheel-large-list' }, ...segs.map((s, i) => h('li', { class: i === v.wheel?.pig ? 'here' : '' },
      h('b', {}, cap(s.name)), i === v.wheel?.pig ? ' (the pig is here)' : '', ': ',
      WHEEL_EVENT_HELP[s.event] ? `${WHEEL_EVENT_HELP[s.event]}. ` : '',
      s.crowns.map((c, k) => `Crown space ${k + 1}: ${c.player >= 0 ? `${players[c.player]?.name ?? 'taken'}` : 'free'}`).join(', '), '.')));
    const card = h('div', { class: 'card wheel-card', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'wheel-large-title' },
      h('div', { class: 'help-head' }, h('h2', { id: 'wheel-large-title' }, 'The Wheel of Fortune'), closeBtn),
      svg, list);
    const overlay = h('div', { class: 'overlay wheel-overlay', onclick: (e: Event) => { if (e.target === overlay) close(); } }, card);
    document.body.append(overlay);
    closeBtn.focus();
  }

  // Live updates by server-sent events; when the server has no stream to spare (503) or the
  // stream keeps failing, poll the game every 2 s instead.
  private connect() {
    this.es = new EventSource(`/api/games/${this.id}/events`);
    let opened = false;
    this.es.addEventListener('open', () => { opened = true; });
    this.es.addEventListener('state', (e) => {
      const v = JSON.parse((e as MessageEvent).data) as GameView;
      void this.update(v);
    });
    this.es.addEventListener('error', () => {
      if (opened || this.pollTimer) return;
      this.es?.close();
      this.pollTimer = window.setInterval(async () => {
        try {
          await this.update(await api.game(this.id));
        } catch {
          /* the server may be restarting: try again */
        }
      }, 2000);
    });
  }

  private helpSets(): string[] {
    const v = this.view;
    return v ? [...v.expansions, v.tileset] : [];
  }

  // The recent moves in words, from the replay API (one request per new turn; at most the last
  // 12 turns when the page opens). Each player's last placement is outlined on the board.
  private async loadMoves(v: GameView) {
    const upto = v.turns_total ?? v.turn;
    if (upto <= this.movesUpTo) {
      if (upto < this.movesUpTo) {  // undo: forget the moves taken back
        this.moves = this.moves.filter((m) => m.turn <= upto);
        this.movesUpTo = upto;
        this.showMoves();
      }
      return;
    }
    const from = Math.max(this.movesUpTo + 1, upto - 11);
    this.movesUpTo = upto;
    const names = (v.players ?? []).map((p) => p.name);
    const segName = (space: string) => v.wheel?.segments.find((s) => s.crowns.some((c) => c.space === space))?.name ?? 'the wheel';
    try {
      const got = await Promise.all(Array.from({ length: upto - from + 1 }, (_, i) => api.replay(this.id, from + i)));
      for (const r of got) {
        if (!r.move || this.moves.some((m) => m.turn === r.replay_turn)) continue;
        this.moves.push({ turn: r.replay_turn ?? 0, player: r.move.player, x: r.move.x, y: r.move.y,
          text: moveWords(r, names, (id) => this.board.tile(id), segName) });
      }
      this.moves.sort((a, b) => a.turn - b.turn);
      this.moves = this.moves.slice(-30);
    } catch {
      /* the moves log is a help, not needed to play */
    }
    this.showMoves();
  }

  private showMoves() {
    const last = new Map<number, { x: number; y: number; player: number }>();
    for (const m of this.moves) last.set(m.player, { x: m.x, y: m.y, player: m.player });
    this.board.setLastMoves([...last.values()]);
    this.renderPlacement();
    const box = this.side.querySelector('[data-testid="moves"]');
    if (box) box.replaceWith(this.movesBox());
  }

  private movesBox(): HTMLElement {
    const box = h('ol', { class: 'moves', 'data-testid': 'moves', 'aria-label': 'Recent moves', tabindex: 0 });
    const list = [...this.moves].reverse().slice(0, 12);
    if (!list.length) box.append(h('li', { class: 'muted' }, 'No tile placed yet.'));
    for (const m of list)
      box.append(h('li', { class: 'ev' }, h('span', { class: 'dot', style: `background:${PLAYER_COLORS[m.player % PLAYER_COLORS.length]}` }), m.text, h('small', {}, ` · turn ${m.turn}`)));
    return box;
  }

  private myTokens() {
    return tokens.get(this.id);
  }
  private myTurn(v = this.view): boolean {
    if (!v || v.status !== 'playing' || v.current_player < 0) return false;
    if ((v.thinking ?? -1) === v.current_player) return false;
    return !!this.myTokens()[v.current_player];
  }
  private anyToken(): string | null {
    const t = Object.values(this.myTokens());
    return t.length ? t[0] : null;
  }

  private async update(v: GameView) {
    // the same or an older state (a move's answer and its event both arrive): nothing to do
    if (this.view && (v.version ?? 0) <= (this.view.version ?? 0)) return;
    const prev = this.view;
    this.view = v;
    const turnChanged = !prev || prev.turn !== v.turn || prev.tile !== v.tile || prev.version !== v.version && prev.status !== v.status;
    if (turnChanged) {
      if (!prev || prev.turn !== v.turn) {
        this.pending = null;
        this.turnFields = {};
        this.placementFields = {};
        const i = (v.drawn ?? []).findIndex((d) => d.tile === v.tile);
        this.choice = i >= 0 ? i : 0;
      }
    }
    if (prev && prev.phase !== v.phase) this.pending = null;  // e.g. the Plague is over
    if ((v.chosen ?? -1) >= 0) this.choice = v.chosen!;  // Wheel of Fortune: the wheel tile chosen
    this.board.setPlaced(v);
    this.board.render(v);
    // new scoring events: float the points over the board
    if (this.seenEvents >= 0 && v.events.length > this.seenEvents) {
      const onCell = new Map<string, number>();  // several scorings on one tile float one above the other
      const wgeo = this.board.wheelGeometry;
      let onWheel = 0;
      for (const ev of v.events.slice(this.seenEvents)) {
        if (ev.final) continue;
        if (wgeo && WHEEL_WIDE.has(ev.kind)) {  // Fortuna, the storm, crown spaces: over the wheel
          this.board.floatAt(wgeo.cx, wgeo.cy - wgeo.r - 14 - 30 * onWheel++, `+${ev.points}`, PLAYER_COLORS[ev.player % PLAYER_COLORS.length]);
          continue;
        }
        const k = onCell.get(`${ev.x},${ev.y}`) ?? 0;
        onCell.set(`${ev.x},${ev.y}`, k + 1);
        this.board.floatText(ev.x, ev.y, `+${ev.points}`, PLAYER_COLORS[ev.player % PLAYER_COLORS.length], k);
        if (k === 0) this.board.highlightCell(ev.x, ev.y, PLAYER_COLORS[ev.player % PLAYER_COLORS.length]);  // the scored feature's tile flashes
      }
    }
    // Wheel of Fortune: the pig moved: say where, over the wheel
    const geo = this.board.wheelGeometry;
    if (geo && prev?.wheel && v.wheel && prev.wheel.pig !== v.wheel.pig) {
      const seg = v.wheel.segments[v.wheel.pig];
      // under the wheel, clear of the pig (which points at its segment from the centre)
      this.board.floatAt(geo.cx, geo.cy + geo.r + 30, `the pig: ${seg?.name ?? ''}`, '#ad1457', 'float-wheel');
    }
    if (v.events.length < this.seenEvents) this.finalShown = false;  // undo
    this.seenEvents = v.events.length;
    if (this.myTurn(v)) {
      const key = `${v.id}:${v.turn}:${v.tile}:${v.version}`;
      if (this.legalFor !== key) {
        this.legalFor = key;
        try {
          const legal = await api.legal(this.id);
          if (this.view?.version !== v.version) return;  // a newer state arrived meanwhile
          this.legal = legal;
          this.board.ensureVisible(v, legal.placements);
        } catch (e) {
          toast((e as Error).message);
        }
      }
    } else {
      this.legal = null;
      this.pending = null;
    }
    this.renderPlacement();
    this.renderSide();
    if (!prev || prev.turn !== v.turn || (prev.turns_total ?? 0) !== (v.turns_total ?? 0)) void this.loadMoves(v);
    if (v.status === 'finished' && !this.finalShown) {
      this.finalShown = true;
      this.showFinal(v);
    }
  }

  // The decision a hint is for: a new turn, player or phase asks afresh.
  private hintKey(v = this.view): string {
    return v ? `${v.turn}:${v.current_player}:${v.phase ?? 'place'}:${v.chosen ?? -1}` : '';
  }

  private async askHint() {
    const v = this.view;
    if (!v || !this.myTurn(v)) return;
    const token = this.myTokens()[v.current_player];
    if (!token || this.hint?.state === 'loading') return;
    const key = this.hintKey(v);
    this.hint = { key, state: 'loading', moves: [], error: '' };
    this.renderSide();
    try {
      const r = await api.hint(this.id, token);
      if (this.hint?.key !== key) return;  // the game moved on meanwhile
      this.hint = { key, state: 'done', moves: r.moves, error: '' };
    } catch (e) {
      if (this.hint?.key !== key) return;
      this.hint = { key, state: 'error', moves: [], error: e instanceof ApiError ? e.message : String(e) };
    }
    this.renderSide();
    this.turnbar.querySelector<HTMLElement>('[data-testid="hint-result"]')?.scrollIntoView({ block: 'nearest' });
  }

  // A suggestion in words (the tile, where, the follower), as the player sees the game.
  private hintWords(m: HintMove): string {
    const mv = m.move;
    const v = this.view;
    if (mv.kind === 'plague') return `Take back your follower ${placeWords(mv.x ?? 0, mv.y ?? 0)}`;
    const tile = describeTile(this.board.tile(mv.tile ?? v?.tile ?? ''));
    if (mv.kind === 'choose') return `Play ${tile} first: it turns the wheel`;
    let s = `${cap(tile)} ${placeWords(mv.x ?? 0, mv.y ?? 0)}`;
    const pl = this.legal?.placements.find((p) => (p.choice ?? 0) === (mv.choice ?? 0) && p.x === mv.x && p.y === mv.y && p.rotation === mv.rotation);
    if (mv.follower?.startsWith('crown:')) {
      const seg = v?.wheel?.segments.find((g) => g.crowns.some((c) => c.space === mv.follower));
      s += `, a follower on a crown space of ${seg?.name ?? 'the wheel'}`;
    } else if (mv.follower) {
      const kind = pl?.followers.find((x) => x.at === mv.follower)?.kind;
      s += kind ? `, with ${followerWords(kind)}` : ', with a follower';
    } else {
      s += ', no follower';
    }
    if (mv.take_back) s += mv.take_back.at.startsWith('crown:') ? ', taking a follower back from the wheel' : ', taking a follower back (Festival)';
    if (mv.fruit?.harvest) s += ', harvesting a tree';
    if (mv.fruit?.sell) s += `, selling ${mv.fruit.sell.join(', ')}`;
    return s;
  }

  // Puts a suggested placement on the board as the tile being placed (a ghost until "Place tile").
  private showHint(m: HintMove) {
    const mv = m.move;
    if (mv.kind !== 'place' || !this.myTurn() || !this.legal || mv.x === undefined || mv.y === undefined) return;
    this.choice = mv.choice ?? 0;
    const pl = this.placementsFor(mv.x, mv.y).find((p) => p.rotation === mv.rotation);
    if (!pl) {
      toast('This suggestion is no longer possible');
      return;
    }
    const crown = mv.follower?.startsWith('crown:') ? mv.follower : null;
    const seg = mv.follower && !crown ? pl.followers.find((x) => x.at === mv.follower)?.seg ?? null : null;
    const ret = mv.take_back ? { x: mv.take_back.x ?? 0, y: mv.take_back.y ?? 0, at: mv.take_back.at } : null;
    this.pending = { x: mv.x, y: mv.y, rotation: pl.rotation, meeple: seg, ret, crown };
    this.previewRot = pl.rotation;
    this.placementFields = mv.fruit ? { fruit: mv.fruit } : {};
    if (mv.fruit_type) this.turnFields.fruit_type = mv.fruit_type;
    if (this.view) this.board.ensureVisible(this.view, [{ x: mv.x, y: mv.y }]);
    this.renderPlacement();
    this.renderSide();
  }

  // The "Suggest a move" box of the turn bar (only for the player to move).
  private hintBox(v: GameView): HTMLElement | null {
    if (!this.myTurn(v) || v.status !== 'playing') return null;
    if (v.allow_hints === false)
      return h('div', { class: 'hint-box', 'data-testid': 'hint-off' }, h('small', { class: 'muted' }, 'Hints are off in this game (several people play and it was not created with hints).'));
    const hint = this.hint?.key === this.hintKey(v) ? this.hint : null;
    const loading = hint?.state === 'loading';
    const button = h('button', {
      class: 'btn', type: 'button', 'data-testid': 'hint', disabled: loading, 'aria-busy': loading ? 'true' : 'false',
      title: 'The computer suggests its best moves for you (it sees only what you see)', onclick: () => void this.askHint(),
    }, icon('help'), hint?.state === 'done' ? 'Suggest again' : 'Suggest a move');
    const result = h('div', { class: 'hint-result', 'data-testid': 'hint-result', role: 'status', 'aria-live': 'polite' });
    if (loading) {
      result.append(h('span', { class: 'spinner' }), ' Thinking about your move…');
    } else if (hint?.state === 'error') {
      result.append(h('div', { class: 'error', 'data-testid': 'hint-error' }, `No suggestion: ${hint.error}`));
    } else if (hint?.state === 'done') {
      if (!hint.moves.length) result.append(h('small', {}, 'No suggestion for this decision.'));
      const list = h('ol', { class: 'hint-list', 'data-testid': 'hint-list' });
      const texts = distinctHints(hint.moves, hint.moves.map((m) => this.hintWords(m)));
      hint.moves.forEach((m, i) => {
        const pct = Math.round(100 * m.win_probability);
        const diff = `${m.score_diff >= 0 ? '+' : '−'}${Math.abs(m.score_diff).toFixed(1)}`;
        const text = texts[i];
        list.append(h('li', { 'data-testid': `hint-move-${i}` },
          h('span', { class: 'hint-text' }, text),
          h('small', { class: 'hint-odds' }, ` · ${pct}% to win, final margin ${diff} points`),
          m.move.kind === 'place'
            ? h('button', { class: 'btn ghost small', type: 'button', 'data-testid': `hint-show-${i}`, 'aria-label': `Show suggestion ${i + 1} on the board: ${text}`, onclick: () => this.showHint(m) }, 'Show')
            : null));
      });
      result.append(list);
    }
    return h('div', { class: 'hint-box' }, button, result);
  }

  private choicePlacements() {
    return (this.legal?.placements ?? []).filter((p) => (p.choice ?? 0) === this.choice);
  }
  private placementsFor(x: number, y: number) {
    return this.choicePlacements().filter((p) => p.x === x && p.y === y);
  }
  // The tile being placed: the chosen one of the drawn tiles.
  private choiceTile(): string | null {
    const v = this.view;
    if (!v) return null;
    return v.drawn?.[this.choice]?.tile ?? v.tile;
  }
  private choose(i: number) {
    if (i === this.choice) return;
    this.choice = i;
    this.pending = null;
    this.renderPlacement();
    this.renderSide();
  }

  private clickCell(x: number, y: number) {
    if (!this.myTurn() || !this.legal) return;
    const options = this.placementsFor(x, y);
    if (!options.length) return;
    if (this.pending && this.pending.x === x && this.pending.y === y) {
      this.rotate(1);
      return;
    }
    const rots = options.map((p) => p.rotation);
    const rotation = rots.includes(this.previewRot) ? this.previewRot : rots[0];
    this.pending = { x, y, rotation, meeple: null, ret: null, crown: null };
    this.placementFields = {};
    this.previewRot = rotation;
    this.renderPlacement();
    this.renderSide();
  }

  private rotate(dir: 1 | -1) {
    if (!this.view?.tile) return;
    if (this.pending) {
      const rots = this.placementsFor(this.pending.x, this.pending.y).map((p) => p.rotation).sort((a, b) => a - b);
      if (rots.length <= 1) {
        toast('This is the only way the tile fits here');
        return;
      }
      const i = rots.indexOf(this.pending.rotation);
      this.pending.rotation = rots[(i + (dir > 0 ? 1 : rots.length - 1)) % rots.length];
      this.pending.meeple = null;
      this.pending.ret = null;
      this.pending.crown = null;
      this.placementFields = {};
      this.previewRot = this.pending.rotation;
    } else {
      this.previewRot = (this.previewRot + (dir > 0 ? 90 : 270)) % 360;
    }
    this.renderPlacement();
    this.renderSide();
  }

  private clickSpot(seg: number) {
    if (!this.pending) return;
    this.pending.meeple = this.pending.meeple === seg ? null : seg;
    this.pending.ret = null;
    this.pending.crown = null;
    this.placementFields = {};
    this.renderPlacement();
    this.renderSide();
    // a choice that came with the follower (the fruit action): keep it and "Place tile" in view
    this.side.querySelector('[data-testid="confirm"]')?.scrollIntoView({ block: 'nearest' });
  }

  private clickReturn(r: { x: number; y: number; at: string }) {
    if (!this.pending) return;
    const same = this.pending.ret && this.pending.ret.x === r.x && this.pending.ret.y === r.y && this.pending.ret.at === r.at;
    this.pending.ret = same ? null : r;
    this.pending.meeple = null;
    this.pending.crown = null;
    this.placementFields = {};
    this.renderPlacement();
    this.renderSide();
  }

  // Wheel of Fortune: a free crown space for the follower instead of the tile (click again: none).
  private clickCrown(space: string) {
    if (!this.pending) return;
    const pl = this.pendingPlacement();
    if (!pl?.crowns?.includes(space)) return;
    this.pending.crown = this.pending.crown === space ? null : space;
    this.pending.meeple = null;
    this.pending.ret = null;
    this.placementFields = {};
    this.renderPlacement();
    this.renderSide();
    this.side.querySelector('[data-testid="confirm"]')?.scrollIntoView({ block: 'nearest' });
  }

  // Sends a decision that is not a placement (the Plague, the Wheel of Fortune tile choice).
  private async sendDecision(fields: Record<string, unknown>) {
    const v = this.view;
    if (!v || this.sending) return;
    const token = this.myTokens()[v.current_player];
    if (!token) return;
    this.sending = true;
    try {
      const nv = await api.move(this.id, { token, turn: v.turn + 1, ...fields });
      this.pending = null;
      await this.update(nv);
    } catch (e) {
      toast(e instanceof ApiError ? e.message : String(e));
    } finally {
      this.sending = false;
    }
  }

  // The Plague: clicking a ringed follower of yours takes it back.
  private async clickPlague(f: { x: number; y: number; at: string }) {
    if (!this.myTurn() || this.view?.phase !== 'plague' || !this.legal?.plague) return;
    await this.sendDecision({ kind: 'plague', x: f.x, y: f.y, at: f.at });
  }

  // Wheel of Fortune with the Fortune Teller: a drawn wheel tile is chosen before it is placed
  // (the wheel turns at once).
  private async chooseWheelTile(i: number) {
    await this.sendDecision({ kind: 'choose', choice: i });
  }

  // Fruit-Bearing Trees: clicking a ringed tree chooses (or drops) harvesting it.
  private clickTree(x: number, y: number) {
    if (!this.pending) return;
    const f = this.placementFields.fruit as { harvest?: { x: number; y: number } } | undefined;
    const same = f?.harvest && f.harvest.x === x && f.harvest.y === y;
    this.setMoveFields({ fruit: same ? undefined : { harvest: { x, y } } }, 'placement');
  }

  private setMoveFields(fields: Record<string, unknown>, scope: 'turn' | 'placement' = 'turn') {
    const target = scope === 'placement' ? this.placementFields : this.turnFields;
    for (const [k, v] of Object.entries(fields)) {
      if (v === undefined) delete target[k];
      else target[k] = v;
    }
    this.renderPlacement();
    this.renderSide();
  }

  private pendingPlacement() {
    return this.pending ? this.placementsFor(this.pending.x, this.pending.y).find((p) => p.rotation === this.pending!.rotation) : undefined;
  }

  private pendingContext(): PendingContext | null {
    const pl = this.pendingPlacement();
    if (!this.pending || !pl) return null;
    return { placement: pl, meeple: pl.followers.find((m) => m.seg === this.pending!.meeple) ?? null, ret: !!this.pending.ret, crown: this.pending.crown };
  }

  // The fields of the expansions, only those that fit the placement being sent: a fruit stack
  // only on a tree tile, a fruit action only with a follower where one is offered.
  private moveFields(): Record<string, unknown> {
    const f: Record<string, unknown> = { ...this.turnFields, ...this.placementFields };
    const pl = this.pendingPlacement();
    if (!pl?.fruit_types?.includes(f.fruit_type as string)) delete f.fruit_type;
    if (!pl?.fruit || this.pending?.meeple == null) delete f.fruit;
    return f;
  }

  private async confirm() {
    const v = this.view;
    if (!v || !this.pending || this.sending) return;
    const token = this.myTokens()[v.current_player];
    if (!token) return;
    const pl = this.placementsFor(this.pending.x, this.pending.y).find((p) => p.rotation === this.pending!.rotation);
    if (!pl) return;
    if (this.pending.meeple === null && !this.pending.ret && !this.pending.crown && !pl.plain) {
      toast('Choose a follower spot or a follower to take back');
      return;
    }
    const body: Record<string, unknown> = {
      token, x: this.pending.x, y: this.pending.y, rotation: this.pending.rotation, turn: v.turn + 1, choice: pl.choice ?? 0, ...this.moveFields(),
    };
    if (this.pending.meeple !== null) body.follower = pl.followers.find((m) => m.seg === this.pending!.meeple)?.at;
    else if (this.pending.crown) body.follower = this.pending.crown;
    if (this.pending.ret) body.take_back = this.pending.ret.at.startsWith('crown:') ? { at: this.pending.ret.at } : this.pending.ret;
    this.sending = true;
    try {
      const nv = await api.move(this.id, body);
      this.pending = null;
      this.turnFields = {};
      this.placementFields = {};
      await this.update(nv);
    } catch (e) {
      toast(e instanceof ApiError ? e.message : String(e));
    } finally {
      this.sending = false;
    }
  }

  private async undo() {
    const t = this.anyToken();
    if (!t) return;
    try {
      this.pending = null;
      await this.update(await api.undo(this.id, t));
    } catch (e) {
      toast((e as Error).message);
    }
  }

  private async resign() {
    const v = this.view;
    if (!v) return;
    const mine = this.myTokens();
    const seat = mine[v.current_player] ? v.current_player : Number(Object.keys(mine)[0]);
    if (!mine[seat]) return;
    if (!confirm(`Resign for ${v.players?.[seat]?.name ?? 'this seat'}?`)) return;
    try {
      await this.update(await api.resign(this.id, mine[seat]));
    } catch (e) {
      toast((e as Error).message);
    }
  }

  // Keyboard play: arrows move the tile between the legal squares, R turns it, F chooses the
  // next follower spot (then none), Enter places it, Escape cancels; + - zoom; ? the rules.
  private onKey(e: KeyboardEvent) {
    const t = e.target as HTMLElement;
    if (t && (['INPUT', 'SELECT', 'TEXTAREA'].includes(t.tagName) || t.isContentEditable)) return;
    if (document.querySelector('.overlay')) return;  // a dialog is open: its own keys
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const arrows: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (e.key === 'r' || e.key === 'R') this.rotate(e.shiftKey ? -1 : 1);
    else if (e.key in arrows) {
      if (!this.myTurn() || !this.legal) return;
      e.preventDefault();
      this.moveByKey(...arrows[e.key]);
    } else if (e.key === 'f' || e.key === 'F') this.nextSpot();
    else if (e.key === 'Enter') {
      // Enter on a focused button or link does what it says; elsewhere it places the tile
      if (t && (t.tagName === 'BUTTON' || t.tagName === 'A' || t.getAttribute('role') === 'button')) {
        if (t.classList.contains('legal-cell')) { e.preventDefault(); const x = Number(t.getAttribute('data-x')), y = Number(t.getAttribute('data-y')); this.clickCell(x, y); }
        return;
      }
      void this.confirm();
    } else if (e.key === 'Escape') {
      this.pending = null;
      this.placementFields = {};
      this.renderPlacement();
      this.renderSide();
    } else if (e.key === '+' || e.key === '=') this.board.zoom(1.25);
    else if (e.key === '-') this.board.zoom(0.8);
    else if (e.key === '?') openHelp('keys', this.helpSets());
  }

  // The nearest legal square in a direction (or the first one when no tile is placed yet).
  private moveByKey(dx: number, dy: number) {
    const cells = [...new Map(this.choicePlacements().map((p) => [`${p.x},${p.y}`, p])).values()];
    if (!cells.length) return;
    let next = cells[0];
    if (this.pending) {
      const { x, y } = this.pending;
      let best = Infinity;
      for (const c of cells) {
        const ax = c.x - x, ay = c.y - y;
        const along = ax * dx + ay * dy;
        if (along <= 0) continue;
        const d = along + 2 * Math.abs(ax * dy - ay * dx);
        if (d < best) { best = d; next = c; }
      }
      if (best === Infinity) return;
    } else {
      const last = this.view?.last ?? { x: 0, y: 0 };
      next = cells.reduce((a, c) => (Math.hypot(c.x - last.x, c.y - last.y) < Math.hypot(a.x - last.x, a.y - last.y) ? c : a));
    }
    this.pending = null;
    this.clickCell(next.x, next.y);
    this.board.ensureVisible(this.view!, [next]);
  }

  // F: the next follower spot of the tile being placed, then none again.
  private nextSpot() {
    const pl = this.pendingPlacement();
    if (!this.pending || !pl) return;
    const segs = pl.followers.map((m) => m.seg);
    if (!segs.length) return;
    const i = this.pending.meeple === null ? -1 : segs.indexOf(this.pending.meeple);
    this.pending.meeple = i + 1 < segs.length ? segs[i + 1] : null;
    this.pending.ret = null;
    this.pending.crown = null;
    this.placementFields = {};
    this.renderPlacement();
    this.renderSide();
  }

  private renderPlacement() {
    const v = this.view;
    if (!v) return;
    const mine = this.myTurn(v) && this.legal && this.legal.turn === v.turn + 1;
    if (v.phase === 'plague') {
      this.board.renderPlague(mine && this.legal?.phase === 'plague' ? this.legal.plague ?? [] : [], v.current_player);
      return;
    }
    // Fruit-Bearing Trees: the stack on a new tree, the trees a follower lets you harvest
    let fruit: PendingFruit | null = null;
    const pl = mine ? this.pendingPlacement() : undefined;
    if (pl && (pl.fruit_types?.length || pl.fruit)) {
      const f = this.moveFields();
      const h = (f.fruit as { harvest?: { x: number; y: number } } | undefined)?.harvest ?? null;
      fruit = {
        stack: pl.fruit_types?.length ? (f.fruit_type as string | undefined) ?? pl.fruit_types[0] : null,
        harvest: this.pending?.meeple != null ? pl.fruit?.harvest ?? [] : [],
        chosen: h,
      };
    }
    this.board.renderPlacement(mine ? this.choiceTile() : null, mine ? this.choicePlacements() : [], this.pending, v.current_player, this.previewRot, fruit);
  }

  // Seats played on this screen: more than one is a hot-seat game (names instead of "you").
  private localSeats(): number {
    return Object.keys(this.myTokens()).length;
  }

  private renderSide() {
    const v = this.view;
    if (!v) return;
    const players = v.players ?? [];
    const mine = this.myTokens();
    const hotSeat = this.localSeats() > 1;
    const sets = this.helpSets();
    const tap = coarsePointer() ? 'tap' : 'click';
    const parts: HTMLElement[] = [];
    const bar: HTMLElement[] = [];
    const ctx: ExpansionContext = {
      view: v, legal: this.legal, myTurn: this.myTurn(v), pending: this.pendingContext(), moveFields: this.moveFields(),
      setMoveFields: (f, scope) => this.setMoveFields(f, scope),
    };

    // status line (with the rules for the situation one tap away)
    let status: HTMLElement;
    let helpAt = 'turn';
    if (v.status === 'finished') {
      const names = (v.winners ?? []).map((w) => players[w]?.name).join(' and ');
      status = h('div', { class: 'status done', 'data-testid': 'status' }, v.end_reason ? `Game over: ${v.end_reason}. ` : 'Game over. ', names ? `${names} ${v.winners!.length > 1 ? 'win' : 'wins'}!` : '');
      helpAt = 'end';
    } else if (v.status === 'view') {
      status = h('div', { class: 'status', 'data-testid': 'status' }, 'Viewing an uploaded game');
    } else if ((v.thinking ?? -1) >= 0) {
      status = h('div', { class: 'status thinking', 'data-testid': 'status' }, h('span', { class: 'spinner' }), `${players[v.thinking!]?.name} is thinking…`);
    } else if (v.phase === 'plague' && this.myTurn(v)) {
      const who = hotSeat ? `${players[v.current_player]?.name}: ` : '';
      status = h('div', { class: 'status mine plague', 'data-testid': 'status' }, `${who}The Plague: take back one of your followers (${tap} a ringed follower on the land)`);
      helpAt = 'wheel';
    } else if (v.phase === 'plague') {
      const p = players[v.current_player];
      status = h('div', { class: 'status plague', 'data-testid': 'status' }, `The Plague: waiting for ${p?.name ?? '…'} to take back a follower`);
      helpAt = 'wheel';
    } else if (this.myTurn(v) && (this.legal?.choices?.length ?? 0) > 0 && !this.choicePlacements().length) {
      const who = hotSeat ? `${players[v.current_player]?.name}, your turn` : 'Your turn';
      status = h('div', { class: 'status mine', 'data-testid': 'status' }, `${who}: choose the tile to place (a wheel tile turns the wheel first)`);
      helpAt = 'wheel';
    } else if (this.myTurn(v)) {
      const who = hotSeat ? `${players[v.current_player]?.name}, your turn` : 'Your turn';
      const fruitOffered = this.pending?.meeple != null && !!this.pendingPlacement()?.fruit;
      const what = this.pending ? (fruitOffered ? 'choose a fruit action, then confirm' : this.pending.meeple !== null || this.pending.ret || this.pending.crown ? 'confirm the move' : `${tap} a circle for a follower, or confirm`) : `${tap} a highlighted square`;
      status = h('div', { class: 'status mine', 'data-testid': 'status' }, `${who}: ${what}`);
      if (fruitOffered) helpAt = 'fruit-trees';
    } else {
      const p = players[v.current_player];
      status = h('div', { class: 'status', 'data-testid': 'status', role: 'status' }, `Waiting for ${p?.name ?? '…'}${p?.type === 'remote' && !p.joined ? ' (has not joined yet)' : ''}`);
    }
    bar.push(h('div', { class: 'status-row' }, status, helpButton(helpAt, sets, 'Rules for this situation')));
    const hintBox = this.hintBox(v);
    if (hintBox) bar.push(hintBox);

    // the scores at a glance (under the board on a phone; the full scoreboard is in the side panel)
    bar.push(h('div', { class: 'score-strip', 'data-testid': 'scores-strip' }, ...players.map((p, i) => h('span', {
      class: `chip-score${v.current_player === i && v.status === 'playing' ? ' current' : ''}`, title: `${p.name}: ${v.scores[i]} points, ${v.supply[i]} followers left`,
    }, h('span', { class: 'dot', style: `background:${PLAYER_COLORS[i % PLAYER_COLORS.length]}` }), h('span', { class: 'chip-name' }, p.name), h('b', {}, String(v.scores[i]))))));

    // scoreboard
    const sb = h('div', { class: 'scoreboard', 'data-testid': 'scoreboard' });
    players.forEach((p, i) => {
      const color = PLAYER_COLORS[i % PLAYER_COLORS.length];
      const chip = h('span', { class: 'chip' });
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      svg.setAttribute('viewBox', '-12 -12 24 24');
      svg.setAttribute('width', '22');
      svg.setAttribute('height', '22');
      svg.setAttribute('aria-hidden', 'true');
      svg.append(meeple(color, 0, 0));
      chip.append(svg);
      const who = p.type === 'ai' ? computerWords(p.ai, this.levels) : mine[i] ? (hotSeat ? 'plays on this screen' : 'you') : p.type === 'remote' ? (p.joined ? 'friend' : 'invited') : 'human';
      const extra = activePanels(v).map((x) => x.playerInfo?.(v, i) ?? null).filter((x): x is HTMLElement => !!x);
      const row = h('div', { class: `player${v.current_player === i && v.status === 'playing' ? ' current' : ''}${p.resigned ? ' resigned' : ''}`, 'data-testid': `player-${i}` },
        chip,
        h('div', { class: 'pname' }, h('b', {}, p.name), h('small', { 'data-testid': `seat-label-${i}` }, who + (p.resigned ? ' · resigned' : '')), ...extra),
        h('div', { class: 'followers', title: 'followers left' }, `${v.supply[i]}`, h('small', {}, ' left')),
        h('div', { class: 'score', 'data-testid': `score-${i}` }, String(v.scores[i])),
      );
      sb.append(row);
    });
    parts.push(sb);
    parts.push(this.scoreTrack(v));
    parts.push(h('div', { class: 'tiles-left', 'data-testid': 'tiles-left' }, `Tiles left: ${v.bag}`, h('small', {}, ` of ${v.total_tiles}`), ` · turn ${v.turn + (v.status === 'playing' ? 1 : 0)}`));
    if (v.bag_counts && v.bag > 0) {
      const det = h('details', { class: 'bag' }, h('summary', {}, 'What is left in the bag')) as HTMLDetailsElement;
      det.open = this.bagOpen;
      const fill = () => {
        if (det.querySelector('.bag-grid')) return;
        const grid = h('div', { class: 'bag-grid' });
        for (const [id, n] of Object.entries(v.bag_counts!)) {
          const cell = h('div', { class: 'bag-tile', title: describeTile(this.board.tile(id)) }, tilePreview(this.board.tile(id), 0, 38), h('span', {}, `×${n}`));
          grid.append(cell);
        }
        det.append(grid);
      };
      if (det.open) fill();
      det.addEventListener('toggle', () => { this.bagOpen = det.open; if (det.open) fill(); });
      parts.push(det);
    }

    // the drawn tile
    if (v.status === 'playing' && v.tile) {
      const t = this.board.tile(this.choiceTile() ?? v.tile);
      const rot = this.pending ? this.pending.rotation : this.previewRot;
      // during the Plague the tile waits: the turn's player places it afterwards
      const plague = v.phase === 'plague';
      const canAct = this.myTurn(v) && !plague;
      const owner = players[v.turn_player ?? v.current_player]?.name ?? '';
      const box = h('div', { class: `drawn${canAct ? ' acting' : ''}` },
        h('div', { class: 'drawn-title' }, canAct ? (hotSeat ? `${owner}'s tile` : 'Your tile') : plague ? `${owner}'s tile (placed after the Plague)` : `${owner}'s tile`),
      );
      const preview = tilePreview(t, rot, canAct ? 84 : 64);
      preview.setAttribute('data-testid', 'drawn-tile');
      preview.setAttribute('role', 'img');
      preview.setAttribute('aria-label', describeTile(t));
      const body = h('div', { class: 'drawn-body' }, preview);
      box.append(body);
      const drawn = v.drawn ?? [];
      // Wheel of Fortune: a wheel tile among them is chosen first, which turns the wheel; until
      // then the tile cannot be turned or placed, so those buttons are not shown
      const wheelChoice = canAct && drawn.length > 1 ? this.legal?.choices?.find((c) => c.choice === this.choice) : undefined;
      if (drawn.length > 1) {
        // Fortune Teller: several tiles drawn, the player places one, the others go back
        const pick = h('div', { class: 'drawn-choice' }, h('small', {}, canAct ? 'Choose the tile to place:' : 'Drawn tiles:'), helpButton('fortune-teller', sets, 'Rules: the Fortune Teller'));
        const chosen = v.chosen ?? -1;
        drawn.forEach((d, i) => {
          const dt = this.board.tile(d.tile);
          const label = d.placeable ? `Place ${describeTile(dt)}${d.wheel ? ` (a wheel tile: the pig moves ${d.wheel})` : ''}` : `${describeTile(dt)}: fits nowhere`;
          const b = h('button', {
            class: `choice-tile${i === this.choice ? ' chosen' : ''}`, disabled: !canAct || !d.placeable || (chosen >= 0 && i !== chosen),
            title: label, 'aria-label': label, 'aria-pressed': i === this.choice ? 'true' : 'false', 'data-testid': `choose-${i}`, type: 'button',
            onclick: () => this.choose(i),
          }, tilePreview(dt, 0, 44));
          pick.append(b);
        });
        box.append(pick);
        if (wheelChoice) {
          box.append(h('div', { class: 'wheel-choose' },
            h('p', { class: 'hint' }, `This is a wheel tile: choosing it turns the wheel first (the pig moves ${wheelChoice.wheel}), then you place it.`),
            h('button', { class: 'btn primary', 'data-testid': 'choose-wheel-tile', disabled: this.sending, onclick: () => void this.chooseWheelTile(wheelChoice.choice) }, 'Play this tile and turn the wheel')));
        }
      }
      if (canAct && !wheelChoice) {
        const pl = this.pending ? this.placementsFor(this.pending.x, this.pending.y).find((p) => p.rotation === this.pending!.rotation) : undefined;
        let choice = 'no follower';
        if (this.pending?.meeple != null && pl) {
          const m = pl.followers.find((m) => m.seg === this.pending!.meeple);
          choice = m ? `follower on the ${m.kind}` : choice;
        } else if (this.pending?.crown) {
          const seg = v.wheel?.segments.find((s) => s.crowns.some((c) => c.space === this.pending!.crown));
          choice = `follower on a crown space of ${seg?.name ?? 'the wheel'}`;
        } else if (this.pending?.ret) {
          choice = this.pending.ret.at.startsWith('crown:') ? 'take a follower back from the wheel (Festival)' : 'take a follower back (Festival)';
        }
        body.append(h('div', { class: 'rotate-buttons' },
          iconButton('rotate-left', 'Turn left (Shift+R)', { onclick: () => this.rotate(-1), 'data-testid': 'rotate-left' }),
          iconButton('rotate-right', 'Turn right (R)', { 'data-testid': 'rotate', onclick: () => this.rotate(1) })));
        box.append(
          this.pending
            ? h('div', { class: 'choice', 'data-testid': 'choice' }, `Here: ${choice}.`,
              ((pl?.followers.length ?? 0) > 0 || (pl?.crowns?.length ?? 0) > 0) && v.supply[v.current_player] > 0
                ? h('small', {}, (pl?.crowns?.length ?? 0) > 0 ? ` ${cap(tap)} a circle on the tile, or a free crown space on the wheel, for a follower. ${cap(tap)} the tile to turn it.` : ` ${cap(tap)} a circle on the tile for a follower. ${cap(tap)} the tile to turn it.`) : h('small', {}, ` ${cap(tap)} the tile to turn it.`))
            : h('div', { class: 'choice', 'data-testid': 'choice' }, `${describeTile(t)[0].toUpperCase()}${describeTile(t).slice(1)}.`),
          ...activePanels(v).map((p) => p.choice?.(ctx) ?? null).filter((x): x is HTMLElement => !!x),
          h('div', { class: 'row confirm-row' },
            h('button', { class: 'btn primary big-confirm', 'data-testid': 'confirm', disabled: !this.pending || this.sending, onclick: () => void this.confirm() }, icon('check'), 'Place tile'),
            h('button', { class: 'btn', 'data-testid': 'cancel', disabled: !this.pending, onclick: () => { this.pending = null; this.placementFields = {}; this.renderPlacement(); this.renderSide(); } }, 'Cancel'),
          ),
        );
      }
      bar.push(box);
    }

    // expansion panels
    for (const p of activePanels(v)) {
      const node = p.render(ctx);
      const section = p.expansion === 'wheel-of-fortune' ? 'wheel' : p.expansion;
      if (node) parts.push(h('div', { class: 'panel' }, h('div', { class: 'panel-head' }, h('h4', {}, p.title), helpButton(section, sets, `Rules: ${p.title}`)), node));
    }

    // actions
    const hasSeat = Object.keys(mine).length > 0;
    if (hasSeat && v.status === 'playing') {
      parts.push(h('div', { class: 'row actions' },
        h('button', { class: 'btn', 'data-testid': 'undo', disabled: !v.can_undo, title: v.can_undo ? 'Take back your last move' : 'Undo is for games without other human players', onclick: () => void this.undo() }, 'Undo'),
        h('button', { class: 'btn danger', onclick: () => void this.resign() }, 'Resign'),
      ));
    }
    // invitations for friends' seats
    if (v.status === 'playing') {
      const links = tokens.invites(this.id);
      const invites = players.filter((p) => p.type === 'remote' && !p.joined && links[p.seat] && !mine[p.seat]);
      if (invites.length) {
        const box = h('div', { class: 'panel invites' }, h('h4', {}, 'Invite your friends'));
        for (const p of invites) {
          const url = `${location.origin}/#/game/${this.id}/${links[p.seat]}`;
          const input = h('input', { value: url, readonly: true, 'aria-label': `Join link for ${p.name}`, onclick: (e: Event) => (e.target as HTMLInputElement).select() }) as HTMLInputElement;
          const copy = h('button', { class: 'btn', type: 'button', 'data-testid': `copy-link-${p.seat}`, title: `Copy ${p.name}'s join link`,
            onclick: async () => { toast((await copyText(url, input)) ? `Link for ${p.name} copied: send it to them` : 'Select the link and copy it'); } }, icon('link'), 'Copy link');
          box.append(h('div', { class: 'invite' }, h('span', {}, `${p.name}: `), h('div', { class: 'invite-row' }, input, copy)));
        }
        parts.push(box);
      }
    }

    // what just happened: the recent moves in words
    parts.push(h('h4', {}, 'Recent moves'), this.movesBox());
    // the points by category, with the rules of each
    parts.push(h('div', { class: 'panel-head' }, h('h4', {}, 'Points by kind'), helpButton('roads', sets, 'Rules: what each feature scores')), this.breakdownTable(v, true));
    // log
    const log = h('div', { class: 'log', 'data-testid': 'log', tabindex: 0, role: 'log', 'aria-label': 'Scoring' });
    const evs = mergeLog(v).reverse();
    if (!evs.length) log.append(h('div', { class: 'muted' }, 'No points scored yet.'));
    for (const e of evs.slice(0, 60)) {
      const kind = 'kind' in e && (e.kind === 'pig' || e.kind === 'plague') ? ` wheel-${e.kind}` : '';
      const final = 'final' in e && e.final;
      log.append(h('div', { class: `ev${final ? ' final' : ''}${kind}` },
        h('span', { class: 'dot', style: `background:${e.kind === 'pig' ? '#f48fb1' : PLAYER_COLORS[e.player % PLAYER_COLORS.length]}` }),
        words(e.text), h('small', {}, final ? '' : ` · turn ${e.turn}`)));
    }
    parts.push(h('h4', {}, 'Scoring'), log);
    if (v.status === 'finished') parts.push(h('div', { class: 'row' }, h('button', { class: 'btn', 'data-testid': 'show-final', onclick: () => this.showFinal(v) }, 'Show final scoring'), h('a', { class: 'btn', href: '#/' }, 'New game')));
    // keyboard users keep their place: the control that had the focus has it again
    const active = document.activeElement as HTMLElement | null;
    const inPanels = !!active && (this.turnbar.contains(active) || this.side.contains(active));
    const key = inPanels ? active!.getAttribute('data-testid') ?? active!.getAttribute('title') : null;
    // the turn panel keeps its scroll position when drawn again (on a phone it scrolls)
    const scrolled = this.turnbar.scrollTop;
    const hadFruit = !!this.turnbar.querySelector('[data-testid="fruit-action"]');
    this.turnbar.replaceChildren(...bar);
    this.side.replaceChildren(...parts);
    this.turnbar.scrollTop = scrolled;
    // a fruit action just offered: its choices are scrolled into the panel's view, over "Place tile"
    const fruit = this.turnbar.querySelector<HTMLElement>('[data-testid="fruit-action"]');
    if (fruit && !hadFruit && this.turnbar.scrollHeight > this.turnbar.clientHeight) {
      const sticky = this.turnbar.querySelector<HTMLElement>('.confirm-row')?.getBoundingClientRect().height ?? 0;
      const over = fruit.getBoundingClientRect().bottom - (this.turnbar.getBoundingClientRect().bottom - sticky);
      if (over > 0) this.turnbar.scrollTop += over;
    }
    if (key) {
      const again = [...this.root.querySelectorAll<HTMLElement>('[data-testid], [title]')]
        .find((e) => e.getAttribute('data-testid') === key || (!e.hasAttribute('data-testid') && e.getAttribute('title') === key));
      if (again && !(again as HTMLButtonElement).disabled) again.focus();
    }
  }

  // Points per player and kind of feature, with the total: a row per player (the final
  // scoring), or a row per kind and a column per player (`byKind`, the narrow side panel).
  private breakdownTable(v: GameView, byKind = false): HTMLElement {
    const players = v.players ?? [];
    const { cats, points } = breakdown(v);
    const dot = (i: number) => h('span', { class: 'dot', style: `background:${PLAYER_COLORS[i % PLAYER_COLORS.length]}` });
    const table = byKind
      ? h('table', { class: 'breakdown by-kind', 'data-testid': 'breakdown' },
        h('caption', { class: 'sr-only' }, 'Points by kind of feature'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Kind'), ...players.map((p, i) => h('th', { scope: 'col', title: p.name }, dot(i), h('span', { class: 'col-name' }, p.name))))),
        h('tbody', {}, ...cats.map((c) => h('tr', {}, h('th', { scope: 'row', 'data-cat': c }, categoryLabel(c)),
          ...players.map((_, i) => h('td', { 'data-cat': c, 'data-player': i }, String(points[c][i]))))),
        h('tr', { class: 'total-row' }, h('th', { scope: 'row' }, 'Total'), ...players.map((_, i) => h('td', { class: 'total', 'data-player': i }, String(v.scores[i]))))))
      : h('table', { class: 'breakdown', 'data-testid': 'breakdown' },
        h('caption', { class: 'sr-only' }, 'Points by kind of feature'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'), ...cats.map((c) => h('th', { scope: 'col', 'data-cat': c }, categoryLabel(c))), h('th', { scope: 'col' }, 'Total'))),
        h('tbody', {}, ...players.map((p, i) => h('tr', {},
          h('th', { scope: 'row' }, dot(i), p.name),
          ...cats.map((c) => h('td', { 'data-cat': c, 'data-player': i }, String(points[c][i]))),
          h('td', { class: 'total', 'data-player': i }, String(v.scores[i]))))));
    return h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Points by kind' }, table);
  }

  // The score track: 50 spaces as on the box's board; a marker past 50 shows how many laps.
  private scoreTrack(v: GameView): HTMLElement {
    const players = v.players ?? [];
    const W = 300, H = 48, pad = 8, mid = 17;
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('class', 'score-track');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', `Score track: ${players.map((p, i) => `${p.name} ${v.scores[i]}`).join(', ')}`);
    svg.setAttribute('data-testid', 'points-track');
    const x = (s: number) => pad + ((s % 50) / 49) * (W - 2 * pad);
    const add = (tag: string, attrs: Record<string, string | number>) => {
      const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
      for (const [k, val] of Object.entries(attrs)) e.setAttribute(k, String(val));
      svg.append(e);
      return e;
    };
    add('line', { x1: pad, y1: mid, x2: W - pad, y2: mid, stroke: '#b9a888', 'stroke-width': 3 });
    for (let s = 0; s < 50; s += 5) add('line', { x1: x(s), y1: mid - (s % 10 ? 3 : 6), x2: x(s), y2: mid + (s % 10 ? 3 : 6), stroke: '#8d7b5e', 'stroke-width': 1 });
    // the numbers of the spaces, every 10 (and the last), so a score can be read off the track
    for (const s of [0, 10, 20, 30, 40, 49]) {
      const t = add('text', { x: x(s), y: H - 3, 'text-anchor': 'middle', class: 'track-num' });
      t.textContent = String(s);
    }
    const seen = new Map<number, number>();
    players.forEach((p, i) => {
      const s = v.scores[i];
      const k = seen.get(s % 50) ?? 0;
      seen.set(s % 50, k + 1);
      const cx = x(s), cy = mid + (k % 2 ? 7 : -7) * Math.min(1, k);
      add('circle', { cx, cy, r: 6, fill: PLAYER_COLORS[i % PLAYER_COLORS.length], stroke: '#fff', 'stroke-width': 1.5, 'data-player': i, 'data-score': s });
      if (s >= 50) {
        const t = add('text', { x: cx, y: cy + 3, 'text-anchor': 'middle', 'font-size': 8, 'font-weight': 700, fill: '#fff' });
        t.textContent = String(Math.floor(s / 50));
      }
    });
    return h('div', { class: 'track-wrap' }, svg);
  }

  // The end-of-game scoring, one feature at a time, with running totals.
  private showFinal(v: GameView) {
    const players = v.players ?? [];
    const finals = v.events.filter((e) => e.final);
    const totals = [...v.scores];
    for (const e of finals) totals[e.player] -= e.points;
    document.querySelector('[data-testid="final-scoring"]')?.remove();
    const overlay = h('div', { class: 'overlay', 'data-testid': 'final-scoring' });
    const card = h('div', { class: 'card final-card', role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Final scoring' });
    const tableRows = players.map((p, i) => h('tr', {}, h('td', {}, h('span', { class: 'dot', style: `background:${PLAYER_COLORS[i % PLAYER_COLORS.length]}` }), p.name), h('td', { class: 'num', 'data-final-score': i }, String(totals[i]))));
    const list = h('div', { class: 'final-list', tabindex: 0, role: 'log', 'aria-label': 'Final scoring, feature by feature' });
    const title = h('h2', {}, v.end_reason ? `Game over: ${v.end_reason}` : 'Final scoring');
    const skip = h('button', { class: 'btn', 'data-testid': 'final-skip' }, 'Show all');
    const close = h('button', { class: 'btn primary', 'data-testid': 'final-close', onclick: () => overlay.remove() }, 'Close');
    const byKind = h('div', { class: 'final-breakdown' });
    card.append(title, h('table', { class: 'final-table' }, ...tableRows), list, byKind, h('div', { class: 'row' }, skip, close));
    overlay.append(card);
    this.root.append(overlay);
    let i = 0;
    let timer = 0;
    let finished = false;
    // once: the winner line and the points by kind; "Show all" has nothing left to do
    const finish = () => {
      if (finished) return;
      finished = true;
      skip.remove();
      const w = (v.winners ?? []).map((k) => players[k]?.name).join(' and ');
      if (w) list.append(h('div', { class: 'winner', 'data-testid': 'winner' }, icon('trophy', 22), ` ${w} ${v.winners!.length > 1 ? 'win' : 'wins'} with ${v.scores[v.winners![0]]} points`));
      list.scrollTop = list.scrollHeight;
      byKind.append(h('h4', {}, 'Points by kind'), this.breakdownTable(v, window.innerWidth < 600));
    };
    const step = () => {
      if (i >= finals.length) { finish(); return; }
      const e = finals[i++];
      totals[e.player] += e.points;
      (tableRows[e.player].querySelector('.num') as HTMLElement).textContent = String(totals[e.player]);
      list.append(h('div', { class: 'ev' }, h('span', { class: 'dot', style: `background:${PLAYER_COLORS[e.player % PLAYER_COLORS.length]}` }), words(e.text.replace(' (final scoring)', ''))));
      list.scrollTop = list.scrollHeight;
      this.board.highlightCell(e.x, e.y, PLAYER_COLORS[e.player % PLAYER_COLORS.length]);
      timer = window.setTimeout(step, prefersReducedMotion() ? 120 : 650);
    };
    skip.addEventListener('click', () => {
      clearTimeout(timer);
      while (i < finals.length) {
        const e = finals[i++];
        totals[e.player] += e.points;
        list.append(h('div', { class: 'ev' }, h('span', { class: 'dot', style: `background:${PLAYER_COLORS[e.player % PLAYER_COLORS.length]}` }), words(e.text.replace(' (final scoring)', ''))));
      }
      tableRows.forEach((r, k) => ((r.querySelector('.num') as HTMLElement).textContent = String(totals[k])));
      finish();
    });
    if (!finals.length) list.append(h('div', { class: 'muted' }, 'Nothing left to score.'));
    timer = window.setTimeout(step, prefersReducedMotion() ? 0 : 500);
    close.focus();
  }
}
