// The game page: board, drawn tile, scoreboard, log, controls, live updates (server-sent
// events), and the final scoring shown step by step.
import { api, ApiError, tokens, type GameView, type HintMove, type Legal, type Placement, type TileSet } from './api';
import { BoardView, tilePreview, type PendingFruit, type PendingPlacement } from './board';
import { harvestsFor } from './fruit';
import { activePanels, type ExpansionContext, type PendingContext } from './expansions';
import { helpButton, openHelp } from './help';
import { icon, iconButton } from './icons';
import { meeple, PLAYER_COLORS } from './tiles';
import { coarsePointer, copyText, h, prefersReducedMotion, toast } from './ui';
import { breakdown, categoryLabel, crownEvent, describeTile, eventWords, featureWords, followerWords, fruitWords, moveWords, placeWords, segmentWords, spotWords } from './words';
import { currentLang, listWords, t } from './i18n';
import { scores } from './vocab';
import { wheelEventHelp } from './wheel';
import { computerWords, loadLevels, type Level } from './levels';
import { ChatPanel, goToRematch, startRematch, TurnAlert } from './table';

// "You scores 8" -> "You score 8" (a player may be called "You"); also harvests, sells and
// takes back (the Plague).
function words(text: string): string {
  if (currentLang() !== 'en') return text;
  return text.replace(/^You (scores|harvests|sells|takes) /, (_m, verb: string) => `You ${verb.slice(0, -1)} `);
}

const cap = (w: string) => w[0].toUpperCase() + w.slice(1);

// Suggestions that read the same (one square, two ways to turn the tile or two spots for the
// follower) are told apart: where on the tile the follower goes, then how the tile is turned.
const TURNS: Record<number, 'turn.0' | 'turn.90' | 'turn.180' | 'turn.270'> = { 0: 'turn.0', 90: 'turn.90', 180: 'turn.180', 270: 'turn.270' };
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
    if (c && r !== undefined) out[i] += `, ${TURNS[r] ? t(TURNS[r]) : t('turn.deg', { n: r })}`;
  });
  out.forEach((x, i) => { if (out.some((u, j) => j < i && u === x)) out[i] += t('hint.option', { n: i + 1 }); });
  return out;
}

// The game page's first requests, started by the router before anything else loads (the engine's
// tables, the script's other work), so they travel together: the game, its legal moves, the levels.
const prefetched = new Map<string, { game: Promise<GameView>; legal: Promise<Legal | null>; tiles: Promise<TileSet | null> }>();
export function prefetchGame(id: string) {
  const game = api.game(id);
  game.catch(() => { /* GamePage.start reports it */ });
  // the tile set as soon as the game says which one
  const tiles = game.then((v) => api.tiles(v.tileset, v.expansions)).catch(() => null);
  prefetched.set(id, { game, legal: api.legal(id).catch(() => null), tiles });
  void loadLevels();
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
    this.chat = new ChatPanel(id, () => this.anyToken(), () => this.chatSeat());
    this.root = h('div', { class: 'game-page' });
    parent.replaceChildren(this.root);
  }

  async start() {
    const link = (href: string, name: string, text: string, extra: Record<string, unknown> = {}) => {
      const a = h('a', { href, class: 'btn ghost', title: text, ...extra }, icon(name), h('span', { class: 'label' }, text));
      return a;
    };
    const header = h('header', { class: 'topbar' },
      h('a', { href: '#/', class: 'brand' }, t('app.name')),
      h('span', { class: 'game-id' }, t('game.id', { id: this.id })),
      h('span', { class: 'spacer' }),
      h('button', { class: 'btn ghost', type: 'button', title: t('help.rules'), 'data-testid': 'help-open', onclick: () => openHelp('turn', this.helpSets()) }, icon('help'), h('span', { class: 'label' }, t('help.rules'))),
      link(`#/replay/${this.id}`, 'replay', t('common.replay')),
      link(api.recordUrl(this.id), 'download', t('game.download'), { download: `carcassonne-${this.id}.json`, 'data-testid': 'download-record' }),
    );
    const boardWrap = h('div', { class: 'board-wrap' });
    this.side = h('aside', { class: 'side', 'aria-label': t('game.sideLabel') }, this.chat.el, this.sideParts);
    this.turnbar = h('section', { class: 'turnbar', 'aria-label': t('game.turnbarLabel'), 'data-testid': 'turnbar' });
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
    this.wheelButton = zb('crown', t('game.wheelLarge'), () => this.showWheelLarge(), 'wheel-zoom');
    this.wheelButton.hidden = true;
    boardWrap.append(h('div', { class: 'zoom-buttons' },
      this.wheelButton,
      zb('plus', t('game.zoomIn'), () => this.board.zoom(1.25), 'zoom-in'),
      zb('minus', t('game.zoomOut'), () => this.board.zoom(0.8), 'zoom-out'),
      zb('fit', t('game.fit'), () => { if (this.view) this.board.fit(this.view, true); }, 'zoom-fit'),
    ));
    window.addEventListener('keydown', this.keyHandler);
    try {
      const pre = prefetched.get(this.id);
      prefetched.delete(this.id);
      this.prefetchedLegal = pre?.legal ?? null;
      const [v, levels] = await Promise.all([pre?.game ?? api.game(this.id), loadLevels()]);
      this.levels = levels;
      const early = pre ? await pre.tiles : null;
      this.tileset = early && early.tileset === v.tileset && early.expansions.join() === v.expansions.join() ? early : await api.tiles(v.tileset, v.expansions);
      this.board.setTileSet(this.tileset);
      this.wheelButton.hidden = !this.board.wheelGeometry;
      this.seenEvents = v.events.length;
      this.finalShown = v.status !== 'playing';
      await this.update(v);
      void this.loadMoves(v);
    } catch (e) {
      this.side.replaceChildren(h('p', { class: 'error' }, t('game.cannotOpen', { id: this.id, msg: (e as Error).message })), h('a', { href: '#/' }, t('common.backToLobby')));
      return;
    }
    this.connect();
  }

  destroy() {
    this.alert.destroy();
    this.es?.close();
    clearInterval(this.pollTimer);
    window.removeEventListener('keydown', this.keyHandler);
  }

  private pollTimer = 0;
  private wheelButton!: HTMLElement;
  private prefetchedLegal: Promise<Legal | null> | null = null;
  // the table talks: chat, the turn notification, the alerts' choices
  private chat: ChatPanel;
  private alert = new TurnAlert();
  private alertsPanel: HTMLElement | null = null;
  private sideParts = h('div', { class: 'side-parts' });

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
    const closeBtn = h('button', { class: 'btn', type: 'button', 'aria-label': t('game.closeWheel'), title: t('common.close'), 'data-testid': 'wheel-large-close', onclick: close }, icon('close'));
    const players = v.players ?? [];
    const segs = v.wheel?.segments ?? [];
    const list = h('ul', { class: 'wheel-large-list' }, ...segs.map((s, i) => h('li', { class: i === v.wheel?.pig ? 'here' : '' },
      h('b', {}, cap(segmentWords(s.event))), i === v.wheel?.pig ? t('wheel.pigHere') : '', ': ',
      wheelEventHelp(s.event) ? `${wheelEventHelp(s.event)}. ` : '',
      s.crowns.map((c, k) => t('wheel.crownState', { k: k + 1, who: c.player >= 0 ? players[c.player]?.name ?? t('wheel.taken') : t('wheel.free') })).join(', '), '.')));
    const card = h('div', { class: 'card wheel-card', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'wheel-large-title' },
      h('div', { class: 'help-head' }, h('h2', { id: 'wheel-large-title' }, t('game.wheelTitle')), closeBtn),
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
    try {
      const got = await Promise.all(Array.from({ length: upto - from + 1 }, (_, i) => api.replay(this.id, from + i)));
      for (const r of got) {
        if (!r.move || this.moves.some((m) => m.turn === r.replay_turn)) continue;
        this.moves.push({ turn: r.replay_turn ?? 0, player: r.move.player, x: r.move.x, y: r.move.y,
          text: moveWords(r, names, (id) => this.board.tile(id)) });
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
    const box = h('ol', { class: 'moves', 'data-testid': 'moves', 'aria-label': t('game.recentMoves'), tabindex: 0 });
    const list = [...this.moves].reverse().slice(0, 12);
    if (!list.length) box.append(h('li', { class: 'muted' }, t('game.noTile')));
    for (const m of list)
      box.append(h('li', { class: 'ev' }, h('span', { class: 'dot', style: `background:${PLAYER_COLORS[m.player % PLAYER_COLORS.length]}` }), m.text, h('small', {}, t('game.atTurn', { n: m.turn }))));
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
        if (ev.final || !scores(ev.kind)) continue;  // the pig's move is said below, the Plague's on the board
        if (wgeo && ev.where === 'wheel') {  // Fortuna, the storm, crown spaces: over the wheel (the server says so)
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
      this.board.floatAt(geo.cx, geo.cy + geo.r + 30, t('wheel.pigNote', { seg: segmentWords(seg?.event) }), '#ad1457', 'float-wheel');
    }
    if (v.events.length < this.seenEvents) this.finalShown = false;  // undo
    this.seenEvents = v.events.length;
    if (this.myTurn(v)) {
      const key = `${v.id}:${v.turn}:${v.tile}:${v.version}`;
      if (this.legalFor !== key) {
        this.legalFor = key;
        try {
          // the router's early request, when it is for this very state
          const early = this.prefetchedLegal ? await this.prefetchedLegal : null;
          this.prefetchedLegal = null;
          const legal = early && early.version === v.version ? early : await api.legal(this.id);
          if (this.view?.version !== v.version) return;  // a newer state arrived meanwhile
          this.legal = legal;
          this.board.ensureVisible(v, legal.placements);
        } catch (e) {
          toast(t('error.legal', { msg: (e as Error).message }));
        }
      }
    } else {
      this.legal = null;
      this.pending = null;
    }
    this.renderPlacement();
    this.renderSide();
    this.chat.update(v);
    // it became this player's turn: said in the title and the icon while the tab is hidden
    if (this.myTurn(v) && (!prev || prev.turn !== v.turn || prev.phase !== v.phase || !this.myTurn(prev)))
      this.alert.turn(this.localSeats() > 1 ? v.players?.[v.current_player]?.name ?? '' : '');
    // a rematch was started while this page was open: every seat of this browser goes there
    if (v.rematch && prev && !prev.rematch && this.localSeats() > 0) {
      goToRematch(this.id, v.rematch);
      return;
    }
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
    if (mv.kind === 'plague') return t('hint.plague', { place: placeWords(mv.x ?? 0, mv.y ?? 0) });
    const tile = describeTile(this.board.tile(mv.tile ?? v?.tile ?? ''));
    if (mv.kind === 'choose') return t('hint.choose', { tile });
    let s = t('hint.place', { tile: cap(tile), place: placeWords(mv.x ?? 0, mv.y ?? 0) });
    const pl = this.legal?.placements.find((p) => (p.choice ?? 0) === (mv.choice ?? 0) && p.x === mv.x && p.y === mv.y && p.rotation === mv.rotation);
    if (mv.follower?.startsWith('crown:')) {
      s += t('hint.crown', { seg: segmentWords(crownEvent(mv.follower)) });
    } else if (mv.follower) {
      const kind = pl?.followers.find((x) => x.at === mv.follower)?.kind;
      s += kind ? t('move.with', { role: followerWords(kind) }) : t('hint.withFollower');
    } else {
      s += t('hint.noFollower');
    }
    if (mv.take_back) s += mv.take_back.at.startsWith('crown:') ? t('hint.backWheel') : t('hint.backFestival');
    if (mv.fruit?.harvest) s += t('hint.harvest');
    if (mv.fruit?.sell) s += t('hint.sell', { list: listWords(mv.fruit.sell.map(fruitWords)) });
    return s;
  }

  // Puts a suggested placement on the board as the tile being placed (a ghost until "Place tile").
  private showHint(m: HintMove) {
    const mv = m.move;
    if (mv.kind !== 'place' || !this.myTurn() || !this.legal || mv.x === undefined || mv.y === undefined) return;
    this.choice = mv.choice ?? 0;
    const pl = this.placementsFor(mv.x, mv.y).find((p) => p.rotation === mv.rotation);
    if (!pl) {
      toast(t('hint.gone'));
      return;
    }
    const crown = mv.follower?.startsWith('crown:') ? mv.follower : null;
    const seg = mv.follower && !crown ? pl.followers.find((x) => x.at === mv.follower)?.seg ?? null : null;
    const ret = mv.take_back ? { x: mv.take_back.x ?? 0, y: mv.take_back.y ?? 0, at: mv.take_back.at } : null;
    this.pending = { x: mv.x, y: mv.y, rotation: pl.rotation, follower: seg, take_back: ret, crown };
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
      return h('div', { class: 'hint-box', 'data-testid': 'hint-off' }, h('small', { class: 'muted' }, t('hint.off')));
    const hint = this.hint?.key === this.hintKey(v) ? this.hint : null;
    const loading = hint?.state === 'loading';
    const button = h('button', {
      class: 'btn', type: 'button', 'data-testid': 'hint', disabled: loading, 'aria-busy': loading ? 'true' : 'false',
      title: t('hint.title'), onclick: () => void this.askHint(),
    }, icon('help'), hint?.state === 'done' ? t('hint.again') : t('hint.ask'));
    const result = h('div', { class: 'hint-result', 'data-testid': 'hint-result', role: 'status', 'aria-live': 'polite' });
    if (loading) {
      result.append(h('span', { class: 'spinner' }), t('hint.thinking'));
    } else if (hint?.state === 'error') {
      result.append(h('div', { class: 'error', 'data-testid': 'hint-error' }, t('hint.error', { msg: hint.error })));
    } else if (hint?.state === 'done') {
      if (!hint.moves.length) result.append(h('small', {}, t('hint.none')));
      const list = h('ol', { class: 'hint-list', 'data-testid': 'hint-list' });
      const texts = distinctHints(hint.moves, hint.moves.map((m) => this.hintWords(m)));
      hint.moves.forEach((m, i) => {
        const pct = Math.round(100 * m.win_probability);
        const diff = `${m.score_diff >= 0 ? '+' : '−'}${Math.abs(m.score_diff).toFixed(1)}`;
        const text = texts[i];
        list.append(h('li', { 'data-testid': `hint-move-${i}` },
          h('span', { class: 'hint-text' }, text),
          h('small', { class: 'hint-odds' }, t('hint.odds', { pct, diff })),
          m.move.kind === 'place'
            ? h('button', { class: 'btn ghost small', type: 'button', 'data-testid': `hint-show-${i}`, 'aria-label': t('hint.showLabel', { n: i + 1, text }), onclick: () => this.showHint(m) }, t('hint.show'))
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
    this.pending = { x, y, rotation, follower: null, take_back: null, crown: null };
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
        toast(t('game.onlyWay'));
        return;
      }
      const i = rots.indexOf(this.pending.rotation);
      this.pending.rotation = rots[(i + (dir > 0 ? 1 : rots.length - 1)) % rots.length];
      this.pending.follower = null;
      this.pending.take_back = null;
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
    this.pending.follower = this.pending.follower === seg ? null : seg;
    this.pending.take_back = null;
    this.pending.crown = null;
    this.placementFields = {};
    this.renderPlacement();
    this.renderSide();
    // a choice that came with the follower (the fruit action): keep it and "Place tile" in view
    this.side.querySelector('[data-testid="confirm"]')?.scrollIntoView({ block: 'nearest' });
  }

  private clickReturn(r: { x: number; y: number; at: string }) {
    if (!this.pending) return;
    const same = this.pending.take_back && this.pending.take_back.x === r.x && this.pending.take_back.y === r.y && this.pending.take_back.at === r.at;
    this.pending.take_back = same ? null : r;
    this.pending.follower = null;
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
    this.pending.follower = null;
    this.pending.take_back = null;
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
      toast(t('error.move', { msg: e instanceof ApiError ? e.message : String(e) }));
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
    return { placement: pl, follower: pl.followers.find((m) => m.seg === this.pending!.follower) ?? null, takeBack: !!this.pending.take_back, crown: this.pending.crown };
  }

  // The fields of the expansions, only those that fit the placement being sent: a fruit stack
  // only on a tree tile, a fruit action only with a follower where one is offered.
  private moveFields(): Record<string, unknown> {
    const f: Record<string, unknown> = { ...this.turnFields, ...this.placementFields };
    const pl = this.pendingPlacement();
    if (!pl?.fruit_types?.includes(f.fruit_type as string)) delete f.fruit_type;
    if (!pl?.fruit || this.pending?.follower == null) delete f.fruit;
    // a harvest only where the list offers it with the stack chosen
    const h = (f.fruit as { harvest?: { x: number; y: number } } | undefined)?.harvest;
    if (pl && h && !harvestsFor(pl, this.stackOf(pl, f)).some((o) => o.x === h.x && o.y === h.y)) delete f.fruit;
    return f;
  }

  // The stack a tree tile's placement gets: the one chosen, else the default (the first listed).
  private stackOf(pl: Placement, f: Record<string, unknown>): string | null {
    return pl.fruit_types?.length ? (f.fruit_type as string | undefined) ?? pl.fruit_types[0] : null;
  }

  private async confirm() {
    const v = this.view;
    if (!v || !this.pending || this.sending) return;
    const token = this.myTokens()[v.current_player];
    if (!token) return;
    const pl = this.placementsFor(this.pending.x, this.pending.y).find((p) => p.rotation === this.pending!.rotation);
    if (!pl) return;
    if (this.pending.follower === null && !this.pending.take_back && !this.pending.crown && !pl.plain) {
      toast(t('game.chooseSpot'));
      return;
    }
    const body: Record<string, unknown> = {
      token, x: this.pending.x, y: this.pending.y, rotation: this.pending.rotation, turn: v.turn + 1, choice: pl.choice ?? 0, ...this.moveFields(),
    };
    if (this.pending.follower !== null) body.follower = pl.followers.find((m) => m.seg === this.pending!.follower)?.at;
    else if (this.pending.crown) body.follower = this.pending.crown;
    if (this.pending.take_back) body.take_back = this.pending.take_back.at.startsWith('crown:') ? { at: this.pending.take_back.at } : this.pending.take_back;
    this.sending = true;
    try {
      const nv = await api.move(this.id, body);
      this.pending = null;
      this.turnFields = {};
      this.placementFields = {};
      await this.update(nv);
    } catch (e) {
      toast(t('error.move', { msg: e instanceof ApiError ? e.message : String(e) }));
    } finally {
      this.sending = false;
    }
  }

  private async undo() {
    const tok = this.anyToken();
    if (!tok) return;
    try {
      this.pending = null;
      await this.update(await api.undo(this.id, tok));
    } catch (e) {
      toast(t('error.undo', { msg: (e as Error).message }));
    }
  }

  private async resign() {
    const v = this.view;
    if (!v) return;
    const mine = this.myTokens();
    const seat = mine[v.current_player] ? v.current_player : Number(Object.keys(mine)[0]);
    if (!mine[seat]) return;
    if (!confirm(t('game.resignConfirm', { name: v.players?.[seat]?.name ?? t('game.thisSeat') }))) return;
    try {
      await this.update(await api.resign(this.id, mine[seat]));
    } catch (e) {
      toast(t('error.resign', { msg: (e as Error).message }));
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
    const i = this.pending.follower === null ? -1 : segs.indexOf(this.pending.follower);
    this.pending.follower = i + 1 < segs.length ? segs[i + 1] : null;
    this.pending.take_back = null;
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
      const stack = this.stackOf(pl, f);
      fruit = {
        stack,
        harvest: this.pending?.follower != null ? harvestsFor(pl, stack) : [],
        chosen: h,
      };
    }
    this.board.renderPlacement(mine ? this.choiceTile() : null, mine ? this.choicePlacements() : [], this.pending, v.current_player, this.previewRot, fruit);
  }

  // Why the game ended early, in words ("Ben resigned"), from the seats (the server's
  // end_reason is English).
  private endReason(v: GameView): string {
    if (!v.end_reason) return '';
    const gone = (v.players ?? []).filter((p) => p.resigned).map((p) => p.name);
    return gone.length ? t('final.resigned', { names: listWords(gone), n: gone.length }) : v.end_reason;
  }

  // The seat this browser chats as (its first), or -1.
  private chatSeat(): number {
    const seats = Object.keys(this.myTokens()).map(Number);
    return seats.length ? Math.min(...seats) : -1;
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
    const tap = coarsePointer() ? t('game.tap') : t('game.click');
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
      const names = listWords((v.winners ?? []).map((w) => players[w]?.name ?? ''));
      status = h('div', { class: 'status done', 'data-testid': 'status' }, this.endReason(v) ? t('status.overBecause', { why: this.endReason(v) }) : t('status.over'), names ? t('status.winners', { names, n: v.winners!.length }) : '');
      helpAt = 'end';
    } else if (v.status === 'view') {
      status = h('div', { class: 'status', 'data-testid': 'status' }, t('status.viewing'));
    } else if (v.ai_failure) {
      status = h('div', { class: 'status', 'data-testid': 'status' }, t('status.aiFailed', { name: players[v.ai_failure.seat]?.name ?? '', error: v.ai_failure.error }));
    } else if ((v.thinking ?? -1) >= 0) {
      status = h('div', { class: 'status thinking', 'data-testid': 'status' }, h('span', { class: 'spinner' }), t('status.thinking', { name: players[v.thinking!]?.name ?? '' }));
    } else if (v.phase === 'plague' && this.myTurn(v)) {
      const who = hotSeat ? `${players[v.current_player]?.name}: ` : '';
      status = h('div', { class: 'status mine plague', 'data-testid': 'status' }, who + t('status.plagueMine', { tap }));
      helpAt = 'wheel';
    } else if (v.phase === 'plague') {
      const p = players[v.current_player];
      status = h('div', { class: 'status plague', 'data-testid': 'status' }, t('status.plagueWait', { name: p?.name ?? '…' }));
      helpAt = 'wheel';
    } else if (this.myTurn(v) && (this.legal?.choices?.length ?? 0) > 0 && !this.choicePlacements().length) {
      const who = hotSeat ? t('status.yourTurnNamed', { name: players[v.current_player]?.name ?? '' }) : t('status.yourTurn');
      status = h('div', { class: 'status mine', 'data-testid': 'status' }, t('status.chooseTile', { who }));
      helpAt = 'wheel';
    } else if (this.myTurn(v)) {
      const who = hotSeat ? t('status.yourTurnNamed', { name: players[v.current_player]?.name ?? '' }) : t('status.yourTurn');
      const fruitOffered = this.pending?.follower != null && !!this.pendingPlacement()?.fruit;
      const what = this.pending ? (fruitOffered ? t('status.fruit') : this.pending.follower !== null || this.pending.take_back || this.pending.crown ? t('status.confirm') : t('status.circle', { tap })) : t('status.square', { tap });
      status = h('div', { class: 'status mine', 'data-testid': 'status' }, t('status.what', { who, what }));
      if (fruitOffered) helpAt = 'fruit-trees';
    } else {
      const p = players[v.current_player];
      status = h('div', { class: 'status', 'data-testid': 'status', role: 'status' }, t(p?.type === 'remote' && !p.joined ? 'status.waitingJoin' : 'status.waiting', { name: p?.name ?? '…' }));
    }
    bar.push(h('div', { class: 'status-row' }, status, helpButton(helpAt, sets, t('help.situation'))));
    const hintBox = this.hintBox(v);
    if (hintBox) bar.push(hintBox);

    // the scores at a glance (under the board on a phone; the full scoreboard is in the side panel)
    bar.push(h('div', { class: 'score-strip', 'data-testid': 'scores-strip' }, ...players.map((p, i) => h('span', {
      class: `chip-score${v.current_player === i && v.status === 'playing' ? ' current' : ''}`, title: t('score.chip', { name: p.name, n: v.scores[i], f: v.supply[i] }),
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
      const who = p.type === 'ai' ? computerWords(p.ai, this.levels) : mine[i] ? (hotSeat ? t('seatLabel.here') : t('seatLabel.you')) : p.type === 'remote' ? (p.joined ? t('seatLabel.friend') : t('seatLabel.invited')) : t('seatLabel.human');
      const extra = activePanels(v).map((x) => x.playerInfo?.(v, i) ?? null).filter((x): x is HTMLElement => !!x);
      const row = h('div', { class: `player${v.current_player === i && v.status === 'playing' ? ' current' : ''}${p.resigned ? ' resigned' : ''}`, 'data-testid': `player-${i}` },
        chip,
        h('div', { class: 'pname' }, h('b', {}, p.name), h('small', { 'data-testid': `seat-label-${i}` }, who + (p.resigned ? t('seatLabel.resigned') : '')), ...extra),
        h('div', { class: 'followers', title: t('score.followersLeft') }, `${v.supply[i]}`, h('small', {}, t('score.left'))),
        h('div', { class: 'score', 'data-testid': `score-${i}` }, String(v.scores[i])),
      );
      sb.append(row);
    });
    parts.push(sb);
    parts.push(this.scoreTrack(v));
    parts.push(h('div', { class: 'tiles-left', 'data-testid': 'tiles-left' }, t('game.tilesLeft', { n: v.bag }), h('small', {}, t('game.ofTotal', { n: v.total_tiles })), t('game.atTurn', { n: v.turn + (v.status === 'playing' ? 1 : 0) })));
    if (v.bag_counts && v.bag > 0) {
      const det = h('details', { class: 'bag' }, h('summary', {}, t('game.bag'))) as HTMLDetailsElement;
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
      const tl = this.board.tile(this.choiceTile() ?? v.tile);
      const rot = this.pending ? this.pending.rotation : this.previewRot;
      // during the Plague the tile waits: the turn's player places it afterwards
      const plague = v.phase === 'plague';
      const canAct = this.myTurn(v) && !plague;
      const owner = players[v.turn_player ?? v.current_player]?.name ?? '';
      const box = h('div', { class: `drawn${canAct ? ' acting' : ''}` },
        h('div', { class: 'drawn-title' }, canAct ? (hotSeat ? t('drawn.owner', { name: owner }) : t('drawn.yours')) : plague ? t('drawn.afterPlague', { name: owner }) : t('drawn.owner', { name: owner })),
      );
      const preview = tilePreview(tl, rot, canAct ? 84 : 64);
      preview.setAttribute('data-testid', 'drawn-tile');
      preview.setAttribute('role', 'img');
      preview.setAttribute('aria-label', describeTile(tl));
      const body = h('div', { class: 'drawn-body' }, preview);
      box.append(body);
      const drawn = v.drawn ?? [];
      // Wheel of Fortune: a wheel tile among them is chosen first, which turns the wheel; until
      // then the tile cannot be turned or placed, so those buttons are not shown
      const wheelChoice = canAct && drawn.length > 1 ? this.legal?.choices?.find((c) => c.choice === this.choice) : undefined;
      if (drawn.length > 1) {
        // Fortune Teller: several tiles drawn, the player places one, the others go back
        const pick = h('div', { class: 'drawn-choice' }, h('small', {}, canAct ? t('drawn.choose') : t('drawn.drawn')), helpButton('fortune-teller', sets, t('drawn.rules')));
        const chosen = v.chosen ?? -1;
        drawn.forEach((d, i) => {
          const dt = this.board.tile(d.tile);
          const label = d.placeable ? t(d.wheel ? 'drawn.placeWheel' : 'drawn.place', { tile: describeTile(dt), n: d.wheel ?? 0 }) : t('drawn.nowhere', { tile: describeTile(dt) });
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
            h('p', { class: 'hint' }, t('drawn.wheelTile', { n: wheelChoice.wheel })),
            h('button', { class: 'btn primary', 'data-testid': 'choose-wheel-tile', disabled: this.sending, onclick: () => void this.chooseWheelTile(wheelChoice.choice) }, t('drawn.playWheel'))));
        }
      }
      if (canAct && !wheelChoice) {
        const pl = this.pending ? this.placementsFor(this.pending.x, this.pending.y).find((p) => p.rotation === this.pending!.rotation) : undefined;
        let choice = t('choice.none');
        if (this.pending?.follower != null && pl) {
          const m = pl.followers.find((m) => m.seg === this.pending!.follower);
          choice = m ? t('choice.on', { feature: featureWords(m.kind) }) : choice;
        } else if (this.pending?.crown) {
          choice = t('choice.crown', { seg: segmentWords(crownEvent(this.pending.crown)) });
        } else if (this.pending?.take_back) {
          choice = this.pending.take_back.at.startsWith('crown:') ? t('choice.backWheel') : t('choice.back');
        }
        body.append(h('div', { class: 'rotate-buttons' },
          iconButton('rotate-left', t('game.turnLeft'), { onclick: () => this.rotate(-1), 'data-testid': 'rotate-left' }),
          iconButton('rotate-right', t('game.turnRight'), { 'data-testid': 'rotate', onclick: () => this.rotate(1) })));
        box.append(
          this.pending
            ? h('div', { class: 'choice', 'data-testid': 'choice' }, t('choice.here', { choice }),
              ((pl?.followers.length ?? 0) > 0 || (pl?.crowns?.length ?? 0) > 0) && v.supply[v.current_player] > 0
                ? h('small', {}, (pl?.crowns?.length ?? 0) > 0 ? t('choice.howCrown', { Tap: cap(tap) }) : t('choice.how', { Tap: cap(tap) })) : h('small', {}, t('choice.turn', { Tap: cap(tap) })))
            : h('div', { class: 'choice', 'data-testid': 'choice' }, `${cap(describeTile(tl))}.`),
          ...activePanels(v).map((p) => p.choice?.(ctx) ?? null).filter((x): x is HTMLElement => !!x),
          h('div', { class: 'row confirm-row' },
            h('button', { class: 'btn primary big-confirm', 'data-testid': 'confirm', disabled: !this.pending || this.sending, onclick: () => void this.confirm() }, icon('check'), t('game.place')),
            h('button', { class: 'btn', 'data-testid': 'cancel', disabled: !this.pending, onclick: () => { this.pending = null; this.placementFields = {}; this.renderPlacement(); this.renderSide(); } }, t('game.cancel')),
          ),
        );
      }
      bar.push(box);
    }

    // expansion panels
    for (const p of activePanels(v)) {
      const node = p.render(ctx);
      const section = p.expansion === 'wheel-of-fortune' ? 'wheel' : p.expansion;
      if (node) parts.push(h('div', { class: 'panel' }, h('div', { class: 'panel-head' }, h('h4', {}, p.title()), helpButton(section, sets, t('help.rulesOf', { title: p.title() }))), node));
    }

    // actions
    const hasSeat = Object.keys(mine).length > 0;
    if (hasSeat && v.status === 'playing') {
      parts.push(h('div', { class: 'row actions' },
        h('button', { class: 'btn', 'data-testid': 'undo', disabled: !v.can_undo, title: v.can_undo ? t('game.undoTitle') : t('game.undoNo'), onclick: () => void this.undo() }, t('game.undo')),
        h('button', { class: 'btn danger', onclick: () => void this.resign() }, t('game.resign')),
      ));
    }
    // invitations for friends' seats
    if (v.status === 'playing') {
      const links = tokens.invites(this.id);
      const invites = players.filter((p) => p.type === 'remote' && !p.joined && links[p.seat] && !mine[p.seat]);
      if (invites.length) {
        const box = h('div', { class: 'panel invites' }, h('h4', {}, t('invite.title')));
        for (const p of invites) {
          const url = `${location.origin}/#/game/${this.id}/${links[p.seat]}`;
          const input = h('input', { value: url, readonly: true, 'aria-label': t('invite.linkFor', { name: p.name }), onclick: (e: Event) => (e.target as HTMLInputElement).select() }) as HTMLInputElement;
          const copy = h('button', { class: 'btn', type: 'button', 'data-testid': `copy-link-${p.seat}`, title: t('invite.copyTitle', { name: p.name }),
            onclick: async () => { toast((await copyText(url, input)) ? t('invite.copied', { name: p.name }) : t('invite.selectIt')); } }, icon('link'), t('invite.copy'));
          box.append(h('div', { class: 'invite' }, h('span', {}, `${p.name}: `), h('div', { class: 'invite-row' }, input, copy)));
        }
        parts.push(box);
      }
    }

    // what just happened: the recent moves in words
    parts.push(h('h4', {}, t('game.recentMoves')), this.movesBox());
    // the points by category, with the rules of each
    parts.push(h('div', { class: 'panel-head' }, h('h4', {}, t('game.byKind')), helpButton('roads', sets, t('help.scores'))), this.breakdownTable(v, true));
    // log
    const log = h('div', { class: 'log', 'data-testid': 'log', tabindex: 0, role: 'log', 'aria-label': t('game.scoring') });
    const evs = [...v.events].reverse();  // the server's one log, in the engine's order
    if (!evs.length) log.append(h('div', { class: 'muted' }, t('game.noPoints')));
    for (const e of evs.slice(0, 60)) {
      const kind = scores(e.kind) ? '' : ` wheel-${e.kind}`;  // the pig's moves, the Plague's take-backs
      const final = e.final;
      log.append(h('div', { class: `ev${final ? ' final' : ''}${kind}` },
        h('span', { class: 'dot', style: `background:${e.kind === 'pig' ? '#f48fb1' : PLAYER_COLORS[e.player % PLAYER_COLORS.length]}` }),
        words(eventWords(v, e)), h('small', {}, final ? '' : t('game.atTurn', { n: e.turn }))));
    }
    parts.push(h('h4', {}, t('game.scoring')), log);
    if (v.status === 'finished') parts.push(h('div', { class: 'row' }, h('button', { class: 'btn', 'data-testid': 'show-final', onclick: () => this.showFinal(v) }, t('game.showFinal')),
      this.rematchButton(v, 'rematch'), h('a', { class: 'btn', href: '#/' }, t('lobby.newGame'))));
    // the turn alerts' choices, for a player with a seat here (kept open or closed across redraws)
    if (hasSeat && v.status === 'playing') parts.push(this.alertsPanel ??= this.alert.panel());
    // keyboard users keep their place: the control that had the focus has it again
    const active = document.activeElement as HTMLElement | null;
    const inPanels = !!active && (this.turnbar.contains(active) || this.side.contains(active));
    const key = inPanels ? active!.getAttribute('data-testid') ?? active!.getAttribute('title') : null;
    // the turn panel keeps its scroll position when drawn again (on a phone it scrolls)
    const scrolled = this.turnbar.scrollTop;
    const hadFruit = !!this.turnbar.querySelector('[data-testid="fruit-action"]');
    this.turnbar.replaceChildren(...bar);
    this.sideParts.replaceChildren(...parts);
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
        h('caption', { class: 'sr-only' }, t('table.caption')),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('table.kind')), ...players.map((p, i) => h('th', { scope: 'col', title: p.name }, dot(i), h('span', { class: 'col-name' }, p.name))))),
        h('tbody', {}, ...cats.map((c) => h('tr', {}, h('th', { scope: 'row', 'data-cat': c }, categoryLabel(c)),
          ...players.map((_, i) => h('td', { 'data-cat': c, 'data-player': i }, String(points[c][i]))))),
        h('tr', { class: 'total-row' }, h('th', { scope: 'row' }, t('table.total')), ...players.map((_, i) => h('td', { class: 'total', 'data-player': i }, String(v.scores[i]))))))
      : h('table', { class: 'breakdown', 'data-testid': 'breakdown' },
        h('caption', { class: 'sr-only' }, t('table.caption')),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('table.player')), ...cats.map((c) => h('th', { scope: 'col', 'data-cat': c }, categoryLabel(c))), h('th', { scope: 'col' }, t('table.total')))),
        h('tbody', {}, ...players.map((p, i) => h('tr', {},
          h('th', { scope: 'row' }, dot(i), p.name),
          ...cats.map((c) => h('td', { 'data-cat': c, 'data-player': i }, String(points[c][i]))),
          h('td', { class: 'total', 'data-player': i }, String(v.scores[i]))))));
    return h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': t('game.byKind') }, table);
  }

  // "Rematch" (for a player with a seat here, in a finished game), or "To the rematch" when one
  // was started already.
  private rematchButton(v: GameView, testid: string): HTMLElement | null {
    if (v.status !== 'finished' || this.localSeats() === 0) return null;
    if (v.rematch) return h('a', { class: 'btn primary', href: `#/game/${v.rematch}`, 'data-testid': testid, onclick: (e: Event) => { e.preventDefault(); goToRematch(this.id, v.rematch!); } }, t('rematch.goto'));
    return h('button', { class: 'btn primary', type: 'button', 'data-testid': testid, title: t('rematch.title'), onclick: () => void startRematch(this.id) }, t('rematch.start'));
  }

  // The score track: 50 spaces as on the box's board; a marker past 50 shows how many laps.
  private scoreTrack(v: GameView): HTMLElement {
    const players = v.players ?? [];
    const W = 300, H = 48, pad = 8, mid = 17;
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
    svg.setAttribute('class', 'score-track');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', t('track.label', { list: players.map((p, i) => `${p.name} ${v.scores[i]}`).join(', ') }));
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
    const card = h('div', { class: 'card final-card', role: 'dialog', 'aria-modal': 'true', 'aria-label': t('final.title') });
    const tableRows = players.map((p, i) => h('tr', {}, h('td', {}, h('span', { class: 'dot', style: `background:${PLAYER_COLORS[i % PLAYER_COLORS.length]}` }), p.name), h('td', { class: 'num', 'data-final-score': i }, String(totals[i]))));
    const list = h('div', { class: 'final-list', tabindex: 0, role: 'log', 'aria-label': t('final.listLabel') });
    const title = h('h2', {}, this.endReason(v) ? t('final.overBecause', { why: this.endReason(v) }) : t('final.title'));
    const skip = h('button', { class: 'btn', 'data-testid': 'final-skip' }, t('final.showAll'));
    const close = h('button', { class: 'btn primary', 'data-testid': 'final-close', onclick: () => overlay.remove() }, t('common.close'));
    const byKind = h('div', { class: 'final-breakdown' });
    card.append(title, h('table', { class: 'final-table' }, ...tableRows), list, byKind, h('div', { class: 'row' }, skip, this.rematchButton(v, 'final-rematch'), close));
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
      const w = listWords((v.winners ?? []).map((k) => players[k]?.name ?? ''));
      if (w) list.append(h('div', { class: 'winner', 'data-testid': 'winner' }, icon('trophy', 22), t('final.winners', { names: w, n: v.winners!.length, pts: v.scores[v.winners![0]] })));
      list.scrollTop = list.scrollHeight;
      byKind.append(h('h4', {}, t('game.byKind')), this.breakdownTable(v, window.innerWidth < 600));
    };
    const step = () => {
      if (i >= finals.length) { finish(); return; }
      const e = finals[i++];
      totals[e.player] += e.points;
      (tableRows[e.player].querySelector('.num') as HTMLElement).textContent = String(totals[e.player]);
      list.append(h('div', { class: 'ev' }, h('span', { class: 'dot', style: `background:${PLAYER_COLORS[e.player % PLAYER_COLORS.length]}` }), words(eventWords(v, e, true))));
      list.scrollTop = list.scrollHeight;
      this.board.highlightCell(e.x, e.y, PLAYER_COLORS[e.player % PLAYER_COLORS.length]);
      timer = window.setTimeout(step, prefersReducedMotion() ? 120 : 650);
    };
    skip.addEventListener('click', () => {
      clearTimeout(timer);
      while (i < finals.length) {
        const e = finals[i++];
        totals[e.player] += e.points;
        list.append(h('div', { class: 'ev' }, h('span', { class: 'dot', style: `background:${PLAYER_COLORS[e.player % PLAYER_COLORS.length]}` }), words(eventWords(v, e, true))));
      }
      tableRows.forEach((r, k) => ((r.querySelector('.num') as HTMLElement).textContent = String(totals[k])));
      finish();
    });
    if (!finals.length) list.append(h('div', { class: 'muted' }, t('final.nothing')));
    timer = window.setTimeout(step, prefersReducedMotion() ? 0 : 500);
    close.focus();
  }
}
