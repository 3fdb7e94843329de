// The client's entry point: a hash router over the lobby, the game page and the replay page.
import { api, type GameView } from './api';
import { BoardView, tilePreview } from './board';
import { GamePage, prefetchGame } from './game';
import { joinSeat, renderLobby } from './lobby';
import { icon, iconButton } from './icons';
import { PLAYER_COLORS } from './tiles';
import { h } from './ui';
import { describeTile, eventWords, moveWords } from './words';
import { setTables } from './vocab';
import { loadLang, t } from './i18n';

const app = document.getElementById('app')!;
let current: { destroy(): void } | null = null;

async function replayPage(id: string, atEnd = false) {
  const root = h('div', { class: 'game-page' });
  app.replaceChildren(root);
  const boardWrap = h('div', { class: 'board-wrap' });
  const side = h('aside', { class: 'side' });
  root.append(
    h('header', { class: 'topbar' }, h('a', { href: '#/', class: 'brand' }, t('app.name')), h('span', { class: 'game-id' }, t('replay.of', { id })), h('span', { class: 'spacer' }),
      h('a', { href: `#/game/${id}`, class: 'btn ghost', title: t('replay.open') }, icon('play'), h('span', { class: 'label' }, t('replay.open'))),
      h('a', { href: api.recordUrl(id), class: 'btn ghost', title: t('game.download'), download: `carcassonne-${id}.json` }, icon('download'), h('span', { class: 'label' }, t('game.download')))),
    h('main', { class: 'game-main' }, h('div', { class: 'stage' }, boardWrap), side));
  const board = new BoardView(boardWrap, { onCellClick() {}, onSpotClick() {}, onReturnClick() {} });
  const first = await api.replay(id, 0);
  board.setTileSet(await api.tiles(first.tileset, first.expansions));
  const full = await api.game(id);
  const total = first.turns_total;
  let turn = 0;
  let timer = 0;
  const show = async (at: number) => {
    turn = Math.max(0, Math.min(total, at));
    const v: GameView = await api.replay(id, turn);
    board.setPlaced(v);
    board.render(v);
    const players = full.players ?? [];
    const mv = v.move;
    side.replaceChildren(
      h('div', { class: 'status' }, t('replay.turn', { n: turn, total })),
      h('div', { class: 'scoreboard' }, ...players.map((p, i) => h('div', { class: `player${mv && mv.player === i ? ' current' : ''}` },
        h('span', { class: 'dot', style: `background:${PLAYER_COLORS[i % PLAYER_COLORS.length]}` }),
        h('div', { class: 'pname' }, h('b', {}, p.name)), h('div', { class: 'followers' }, `${v.supply[i]}`, h('small', {}, t('score.left'))),
        h('div', { class: 'score', 'data-testid': `score-${i}` }, String(v.scores[i]))))),
      mv ? h('p', { 'data-testid': 'replay-move' }, moveWords(v, players.map((p) => p.name), (tid) => board.tile(tid))) : h('p', { 'data-testid': 'replay-move' }, v.wheel ? t('replay.wheelBoard') : t('replay.startTile', { tile: describeTile(board.tile(v.board[0]?.tile ?? '')) })),
      h('div', { class: 'row replay-buttons' },
        iconButton('first', t('replay.first'), { onclick: () => show(0), 'data-testid': 'replay-first' }),
        iconButton('prev', t('replay.prev'), { 'data-testid': 'replay-prev', onclick: () => show(turn - 1) }),
        iconButton(timer ? 'pause' : 'play', timer ? t('replay.pause') : t('replay.play'), { 'data-testid': 'replay-play', onclick: () => { if (timer) { clearInterval(timer); timer = 0; void show(turn); } else timer = window.setInterval(() => { if (turn >= total) { clearInterval(timer); timer = 0; void show(turn); } else void show(turn + 1); }, 700); } }),
        iconButton('next', t('replay.next'), { 'data-testid': 'replay-next', onclick: () => show(turn + 1) }),
        iconButton('last', t('replay.last'), { onclick: () => show(total), 'data-testid': 'replay-last' })),
      h('input', { type: 'range', min: 0, max: total, value: turn, class: 'slider', 'aria-label': t('lobby.colTurn'), 'data-testid': 'replay-slider', onchange: (e: Event) => show(Number((e.target as HTMLInputElement).value)) }),
      h('h4', {}, t('replay.scoringSoFar')),
      h('div', { class: 'log' }, ...[...v.events].reverse().map((e) => h('div', { class: 'ev' }, h('span', { class: 'dot', style: `background:${PLAYER_COLORS[e.player % PLAYER_COLORS.length]}` }), eventWords({ ...v, players: v.players ?? full.players }, e)))),
    );
  };
  await show(atEnd ? total : 0);
  return { destroy() { clearInterval(timer); } };
}

// A gallery of every tile of a tile set (#/tiles/base/festival,fruit-trees): checks the drawings.
async function tilesPage(tileset: string, expansions: string[]) {
  const ts = await api.tiles(tileset, expansions);
  const grid = h('div', { class: 'gallery' });
  for (const tile of ts.tiles) {
    const cell = h('figure', { class: 'gallery-tile' });
    for (const r of [0, 90]) cell.append(tilePreview(tile, r, 110));
    // a page for checking the drawings: the tile's id and the engine's note are wanted here
    cell.append(h('figcaption', {}, h('b', {}, tile.id), ` ×${tile.count} `, h('small', {}, tile.note)));
    grid.append(cell);
  }
  app.replaceChildren(h('div', { class: 'lobby' }, h('h2', {}, t('tiles.title', { set: [tileset, ...expansions].join(' ') })), grid));
}

let tablesLoaded = false;

let routeSeq = 0;  // the route being drawn: an older one that finishes late draws nothing

async function route() {
  const seq = ++routeSeq;
  current?.destroy();
  current = null;
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  try {
    if (parts[0] === 'game' && parts[1] && !parts[2]) prefetchGame(parts[1]);
    if (!tablesLoaded) {
      // the engine's tables and the player's language, before any page is drawn
      const [tables] = await Promise.all([api.tables(), loadLang()]);
      setTables(tables);
      tablesLoaded = true;
    }
    if (parts[0] === 'game' && parts[1] && parts[2]) {
      await joinSeat(parts[1], parts[2]);
      return;
    }
    if (parts[0] === 'game' && parts[1]) {
      const page = new GamePage(app, parts[1]);
      current = page;
      // the lobby's scroll position ("Start game" is below a phone's first screen) must not
      // carry over: every game opens at the top, the board in view
      window.scrollTo(0, 0);
      await page.start();
      window.scrollTo(0, 0);
      return;
    }
    if (parts[0] === 'tiles') {
      await tilesPage(parts[1] || 'base', (parts[2] || '').split(',').filter(Boolean));
      return;
    }
    if (parts[0] === 'replay' && parts[1]) {
      window.scrollTo(0, 0);
      current = await replayPage(parts[1], parts[2] === 'end');
      return;
    }
    await renderLobby(app, () => seq === routeSeq);
  } catch (e) {
    app.replaceChildren(h('div', { class: 'card' }, h('p', { class: 'error' }, t('error.page', { msg: (e as Error).message })), h('a', { href: '#/' }, t('common.backToLobby'))));
  }
}

window.addEventListener('hashchange', () => void route());
void route();
