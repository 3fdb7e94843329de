// The game page: board, drawn tile, scoreboard, log, controls, live updates (server-sent
// events), and the final scoring shown step by step.
import { api, ApiError, tokens, type GameView, type Legal, type TileSet, type WheelLogEntry } from './api';
import { BoardView, tilePreview, type PendingFruit, type PendingPlacement } from './board';
import { activePanels, type ExpansionContext, type PendingContext } from './expansions';
import { meeple, PLAYER_COLORS } from './tiles';
import { h, toast } from './ui';

// "You scores 8" -> "You score 8" (a player may be called "You"); also harvests, sells and
// takes back (the Plague).
function words(text: string): string {
  return text.replace(/^You (scores|harvests|sells|takes) /, (_m, verb: string) => `You ${verb.slice(0, -1)} `);
}

// Wheel of Fortune event kinds scored for the wheel as a whole (shown over the wheel).
const WHEEL_WIDE = new Set(['fortuna', 'storm', 'crown']);

// The log: the scoring events with the Wheel of Fortune's lines (the pig's moves, the Plague's
// take-backs) in order: a turn's wheel lines come first (the wheel turns before the tile is
// placed), then the followers taken back, then that turn's scorings after the wheel's.
type LogLine = { turn: number; player: number; text: string; kind: string; final?: boolean };
export function mergeLog(v: GameView): LogLine[] {
  const wheel: WheelLogEntry[] = v.wheel?.log ?? [];
  if (!wheel.length) return v.events;
  const out: LogLine[] = [];
  let w = 0;
  const WHEEL_EVENTS = new Set(['fortuna', 'taxes', 'famine', 'storm', 'inquisition', 'crown']);
  for (let i = 0; i < v.events.length; ++i) {
    const e = v.events[i];
    // the pig's move before the turn's first event; Plague take-backs before its crown scoring
    // and its placement scorings (the Plague has no scoring of its own)
    while (w < wheel.length && !e.final && (wheel[w].turn < e.turn || (wheel[w].turn === e.turn && (wheel[w].kind === 'pig' || !WHEEL_EVENTS.has(e.kind) || e.kind === 'crown'))))
      out.push(wheel[w++]);
    while (w < wheel.length && e.final) out.push(wheel[w++]);
    out.push(e);
  }
  while (w < wheel.length) out.push(wheel[w++]);
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
  private choice = 0;  // which drawn tile is being placed (Fortune Teller draws several)

  constructor(parent: HTMLElement, private id: string) {
    this.root = h('div', { class: 'game-page' });
    parent.replaceChildren(this.root);
  }

  async start() {
    const header = h('header', { class: 'topbar' },
      h('a', { href: '#/', class: 'brand' }, 'Carcassonne'),
      h('span', { class: 'game-id' }, `game ${this.id}`),
      h('span', { class: 'spacer' }),
      h('a', { href: `#/replay/${this.id}`, class: 'btn ghost' }, 'Replay'),
      h('a', { href: api.recordUrl(this.id), class: 'btn ghost', download: `carcassonne-${this.id}.json` }, 'Download record'),
    );
    const boardWrap = h('div', { class: 'board-wrap' });
    this.side = h('aside', { class: 'side' });
    this.root.append(header, h('div', { class: 'game-main' }, boardWrap, this.side));
    this.board = new BoardView(boardWrap, {
      onCellClick: (x, y) => this.clickCell(x, y),
      onSpotClick: (seg) => this.clickSpot(seg),
      onReturnClick: (r) => this.clickReturn(r),
      onTreeClick: (x, y) => this.clickTree(x, y),
      onCrownClick: (space) => this.clickCrown(space),
      onPlagueClick: (f) => void this.clickPlague(f),
    });
    boardWrap.append(h('div', { class: 'zoom-buttons' },
      h('button', { title: 'Zoom in', onclick: () => this.board.zoom(1.25) }, '+'),
      h('button', { title: 'Zoom out', onclick: () => this.board.zoom(0.8) }, '−'),
      h('button', { title: 'Fit the board', onclick: () => this.view && this.board.fit(this.view, true) }, '⤢'),
    ));
    window.addEventListener('keydown', this.keyHandler);
    try {
      const v = await api.game(this.id);
      this.tileset = await api.tiles(v.tileset, v.expansions);
      this.board.setTileSet(this.tileset);
      this.seenEvents = v.events.length;
      this.finalShown = v.status !== 'playing';
      await this.update(v);
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
          this.board.floatAt(wgeo.cx, wgeo.cy - wgeo.r * 0.35 + 30 * onWheel++, `+${ev.points}`, PLAYER_COLORS[ev.player % PLAYER_COLORS.length]);
          continue;
        }
        const k = onCell.get(`${ev.x},${ev.y}`) ?? 0;
        onCell.set(`${ev.x},${ev.y}`, k + 1);
        this.board.floatText(ev.x, ev.y, `+${ev.points}`, PLAYER_COLORS[ev.player % PLAYER_COLORS.length], k);
      }
    }
    // Wheel of Fortune: the pig moved: say where, over the wheel
    const geo = this.board.wheelGeometry;
    if (geo && prev?.wheel && v.wheel && prev.wheel.pig !== v.wheel.pig) {
      const seg = v.wheel.segments[v.wheel.pig];
      this.board.floatAt(geo.cx, geo.cy + geo.r * 0.45, `→ ${seg?.name ?? ''}`, '#ad1457', 'float-wheel');
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
    if (v.status === 'finished' && !this.finalShown) {
      this.finalShown = true;
      this.showFinal(v);
    }
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
    return { placement: pl, meeple: pl.meeples.find((m) => m.seg === this.pending!.meeple) ?? null, ret: !!this.pending.ret, crown: this.pending.crown };
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
    if (this.pending.meeple !== null) body.meeple = pl.meeples.find((m) => m.seg === this.pending!.meeple)?.at;
    else if (this.pending.crown) body.meeple = this.pending.crown;
    if (this.pending.ret) body.return = this.pending.ret.at.startsWith('crown:') ? { at: this.pending.ret.at } : this.pending.ret;
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

  private onKey(e: KeyboardEvent) {
    if ((e.target as HTMLElement)?.tagName === 'INPUT') return;
    if (e.key === 'r' || e.key === 'R') this.rotate(e.shiftKey ? -1 : 1);
    else if (e.key === 'Enter') void this.confirm();
    else if (e.key === 'Escape') {
      this.pending = null;
      this.placementFields = {};
      this.renderPlacement();
      this.renderSide();
    }
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

  private renderSide() {
    const v = this.view;
    if (!v) return;
    const players = v.players ?? [];
    const mine = this.myTokens();
    const parts: HTMLElement[] = [];
    const ctx: ExpansionContext = {
      view: v, legal: this.legal, myTurn: this.myTurn(v), pending: this.pendingContext(), moveFields: this.moveFields(),
      setMoveFields: (f, scope) => this.setMoveFields(f, scope),
    };

    // status line
    let status: HTMLElement;
    if (v.status === 'finished') {
      const names = (v.winners ?? []).map((w) => players[w]?.name).join(' and ');
      status = h('div', { class: 'status done', 'data-testid': 'status' }, v.end_reason ? `Game over: ${v.end_reason}. ` : 'Game over. ', names ? `${names} ${v.winners!.length > 1 ? 'win' : 'wins'}!` : '');
    } else if (v.status === 'view') {
      status = h('div', { class: 'status', 'data-testid': 'status' }, 'Viewing an uploaded game');
    } else if ((v.thinking ?? -1) >= 0) {
      status = h('div', { class: 'status thinking', 'data-testid': 'status' }, h('span', { class: 'spinner' }), `${players[v.thinking!]?.name} is thinking…`);
    } else if (v.phase === 'plague' && this.myTurn(v)) {
      const who = Object.keys(mine).length > 1 ? `${players[v.current_player]?.name}: ` : '';
      status = h('div', { class: 'status mine plague', 'data-testid': 'status' }, `${who}The Plague: take back one of your followers (click a ringed follower on the land)`);
    } else if (v.phase === 'plague') {
      const p = players[v.current_player];
      status = h('div', { class: 'status plague', 'data-testid': 'status' }, `The Plague: waiting for ${p?.name ?? '…'} to take back a follower`);
    } else if (this.myTurn(v) && (this.legal?.choices?.length ?? 0) > 0 && !this.choicePlacements().length) {
      const who = Object.keys(mine).length > 1 ? `${players[v.current_player]?.name}, your turn` : 'Your turn';
      status = h('div', { class: 'status mine', 'data-testid': 'status' }, `${who}: choose the tile to place (a wheel tile turns the wheel first)`);
    } else if (this.myTurn(v)) {
      const who = Object.keys(mine).length > 1 ? `${players[v.current_player]?.name}, your turn` : 'Your turn';
      const fruitOffered = this.pending?.meeple != null && !!this.pendingPlacement()?.fruit;
      const what = this.pending ? (fruitOffered ? 'choose a fruit action, then confirm' : this.pending.meeple !== null || this.pending.ret || this.pending.crown ? 'confirm the move' : 'choose a follower spot or confirm') : 'click a highlighted square';
      status = h('div', { class: 'status mine', 'data-testid': 'status' }, `${who}: ${what}`);
    } else {
      const p = players[v.current_player];
      status = h('div', { class: 'status', 'data-testid': 'status' }, `Waiting for ${p?.name ?? '…'}${p?.type === 'remote' && !p.joined ? ' (has not joined yet)' : ''}`);
    }
    parts.push(status);

    // scoreboard
    const sb = h('div', { class: 'scoreboard', 'data-testid': 'scoreboard' });
    players.forEach((p, i) => {
      const color = PLAYER_COLORS[i % PLAYER_COLORS.length];
      const icon = h('span', { class: 'chip' });
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      svg.setAttribute('viewBox', '-12 -12 24 24');
      svg.setAttribute('width', '22');
      svg.setAttribute('height', '22');
      svg.append(meeple(color, 0, 0));
      icon.append(svg);
      const who = p.type === 'ai' ? `computer · ${p.ai}` : mine[i] ? 'you' : p.type === 'remote' ? (p.joined ? 'friend' : 'invited') : 'human';
      const extra = activePanels(v).map((x) => x.playerInfo?.(v, i) ?? null).filter((x): x is HTMLElement => !!x);
      const row = h('div', { class: `player${v.current_player === i && v.status === 'playing' ? ' current' : ''}${p.resigned ? ' resigned' : ''}`, 'data-testid': `player-${i}` },
        icon,
        h('div', { class: 'pname' }, h('b', {}, p.name), h('small', {}, who + (p.resigned ? ' · resigned' : '')), ...extra),
        h('div', { class: 'followers', title: 'followers left' }, `${v.supply[i]}`, h('small', {}, ' left')),
        h('div', { class: 'score', 'data-testid': `score-${i}` }, String(v.scores[i])),
      );
      sb.append(row);
    });
    parts.push(sb);
    parts.push(h('div', { class: 'tiles-left', 'data-testid': 'tiles-left' }, `Tiles left: ${v.bag}`, h('small', {}, ` of ${v.total_tiles}`), ` · turn ${v.turn + (v.status === 'playing' ? 1 : 0)}`));
    if (v.bag_counts && v.bag > 0) {
      const det = h('details', { class: 'bag' }, h('summary', {}, 'What is left in the bag')) as HTMLDetailsElement;
      det.open = this.bagOpen;
      const fill = () => {
        if (det.querySelector('.bag-grid')) return;
        const grid = h('div', { class: 'bag-grid' });
        for (const [id, n] of Object.entries(v.bag_counts!)) {
          const cell = h('div', { class: 'bag-tile', title: this.board.tile(id)?.note ?? id }, tilePreview(this.board.tile(id), 0, 38), h('span', {}, `×${n}`));
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
      const box = h('div', { class: 'drawn' },
        h('div', { class: 'drawn-title' }, canAct ? 'Your tile' : plague ? `${owner}'s tile (placed after the Plague)` : `${owner}'s tile`),
        h('div', { class: 'drawn-body' }, tilePreview(t, rot, 110)),
      );
      box.querySelector('.tile-preview')?.setAttribute('data-testid', 'drawn-tile');
      const drawn = v.drawn ?? [];
      if (drawn.length > 1) {
        // Fortune Teller: several tiles drawn, the player places one, the others go back
        const pick = h('div', { class: 'drawn-choice' }, h('small', {}, canAct ? 'Choose the tile to place:' : 'Drawn tiles:'));
        const chosen = v.chosen ?? -1;
        drawn.forEach((d, i) => {
          const b = h('button', {
            class: `choice-tile${i === this.choice ? ' chosen' : ''}`, disabled: !canAct || !d.placeable || (chosen >= 0 && i !== chosen),
            title: d.placeable ? `Place ${d.tile}${d.wheel ? ` (wheel tile: the pig moves ${d.wheel})` : ''}` : `${d.tile} fits nowhere`, 'data-testid': `choose-${i}`,
            onclick: () => this.choose(i),
          }, tilePreview(this.board.tile(d.tile), 0, 44));
          pick.append(b);
        });
        box.append(pick);
        // Wheel of Fortune: a wheel tile among them is chosen first, which turns the wheel
        const wheelChoice = canAct ? this.legal?.choices?.find((c) => c.choice === this.choice) : undefined;
        if (wheelChoice) {
          box.append(h('div', { class: 'wheel-choose' },
            h('p', { class: 'hint' }, `${wheelChoice.tile} is a wheel tile: choosing it turns the wheel first (the pig moves ${wheelChoice.wheel}), then you place it.`),
            h('button', { class: 'btn primary', 'data-testid': 'choose-wheel-tile', disabled: this.sending, onclick: () => void this.chooseWheelTile(wheelChoice.choice) }, `Play ${wheelChoice.tile} and turn the wheel`)));
        }
      }
      if (canAct) {
        const pl = this.pending ? this.placementsFor(this.pending.x, this.pending.y).find((p) => p.rotation === this.pending!.rotation) : undefined;
        let choice = 'no follower';
        if (this.pending?.meeple != null && pl) {
          const m = pl.meeples.find((m) => m.seg === this.pending!.meeple);
          choice = m ? `follower on the ${m.kind === 'farm' ? 'field' : m.kind}` : choice;
        } else if (this.pending?.crown) {
          const seg = v.wheel?.segments.find((s) => s.crowns.some((c) => c.space === this.pending!.crown));
          choice = `follower on a crown space of ${seg?.name ?? 'the wheel'}`;
        } else if (this.pending?.ret) {
          choice = this.pending.ret.at.startsWith('crown:') ? 'take a follower back from the wheel (Festival)' : 'take a follower back (Festival)';
        }
        box.append(
          h('div', { class: 'row' },
            h('button', { class: 'btn', title: 'Rotate left (Shift+R)', onclick: () => this.rotate(-1) }, '⟲'),
            h('button', { class: 'btn', title: 'Rotate right (R)', 'data-testid': 'rotate', onclick: () => this.rotate(1) }, '⟳'),
          ),
          this.pending
            ? h('div', { class: 'choice' }, `At (${this.pending.x}, ${this.pending.y}), ${choice}.`,
              ((pl?.meeples.length ?? 0) > 0 || (pl?.crowns?.length ?? 0) > 0) && v.supply[v.current_player] > 0
                ? h('small', {}, (pl?.crowns?.length ?? 0) > 0 ? ' Click a circle on the tile or a free crown space on the wheel to place a follower.' : ' Click a circle on the tile to place a follower.') : '')
            : h('div', { class: 'choice' }, t?.note ?? ''),
          ...activePanels(v).map((p) => p.choice?.(ctx) ?? null).filter((x): x is HTMLElement => !!x),
          h('div', { class: 'row' },
            h('button', { class: 'btn primary', 'data-testid': 'confirm', disabled: !this.pending || this.sending, onclick: () => void this.confirm() }, 'Place tile ⏎'),
            h('button', { class: 'btn', disabled: !this.pending, onclick: () => { this.pending = null; this.placementFields = {}; this.renderPlacement(); this.renderSide(); } }, 'Cancel'),
          ),
        );
      }
      parts.push(box);
    }

    // expansion panels
    for (const p of activePanels(v)) {
      const node = p.render(ctx);
      if (node) parts.push(h('div', { class: 'panel' }, h('h4', {}, p.title), node));
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
          const input = h('input', { value: url, readonly: true, onclick: (e: Event) => (e.target as HTMLInputElement).select() });
          box.append(h('div', { class: 'invite' }, h('span', {}, `${p.name}: `), input));
        }
        parts.push(box);
      }
    }

    // log
    const log = h('div', { class: 'log', 'data-testid': 'log' });
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
    if (v.status === 'finished') parts.push(h('div', { class: 'row' }, h('button', { class: 'btn', onclick: () => this.showFinal(v) }, 'Show final scoring'), h('a', { class: 'btn', href: '#/' }, 'New game')));
    this.side.replaceChildren(...parts);
  }

  // The end-of-game scoring, one feature at a time, with running totals.
  private showFinal(v: GameView) {
    const players = v.players ?? [];
    const finals = v.events.filter((e) => e.final);
    const totals = [...v.scores];
    for (const e of finals) totals[e.player] -= e.points;
    const overlay = h('div', { class: 'overlay', 'data-testid': 'final-scoring' });
    const card = h('div', { class: 'card final-card' });
    const tableRows = players.map((p, i) => h('tr', {}, h('td', {}, h('span', { class: 'dot', style: `background:${PLAYER_COLORS[i % PLAYER_COLORS.length]}` }), p.name), h('td', { class: 'num', 'data-final-score': i }, String(totals[i]))));
    const list = h('div', { class: 'final-list' });
    const title = h('h2', {}, v.end_reason ? `Game over: ${v.end_reason}` : 'Final scoring');
    const skip = h('button', { class: 'btn' }, 'Show all');
    const close = h('button', { class: 'btn primary', onclick: () => overlay.remove() }, 'Close');
    card.append(title, h('table', { class: 'final-table' }, ...tableRows), list, h('div', { class: 'row' }, skip, close));
    overlay.append(card);
    this.root.append(overlay);
    let i = 0;
    let timer = 0;
    const finish = () => {
      const w = (v.winners ?? []).map((k) => players[k]?.name).join(' and ');
      if (w) list.append(h('div', { class: 'winner' }, `🏆 ${w} ${v.winners!.length > 1 ? 'win' : 'wins'} with ${Math.max(...v.scores)} points`));
    };
    const step = () => {
      if (i >= finals.length) { finish(); return; }
      const e = finals[i++];
      totals[e.player] += e.points;
      (tableRows[e.player].querySelector('.num') as HTMLElement).textContent = String(totals[e.player]);
      list.append(h('div', { class: 'ev' }, h('span', { class: 'dot', style: `background:${PLAYER_COLORS[e.player % PLAYER_COLORS.length]}` }), words(e.text.replace(' (final scoring)', ''))));
      list.scrollTop = list.scrollHeight;
      this.board.highlightCell(e.x, e.y, PLAYER_COLORS[e.player % PLAYER_COLORS.length]);
      timer = window.setTimeout(step, 650);
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
      skip.remove();
    });
    if (!finals.length) list.append(h('div', { class: 'muted' }, 'Nothing left to score.'));
    timer = window.setTimeout(step, 500);
  }
}
