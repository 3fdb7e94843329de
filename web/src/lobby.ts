// The lobby: start a game (against the computer, hot-seat, or with friends by link), the list
// of games, and uploading a record to continue or view it.
import { api, tokens, type CreatedGame } from './api';
import { levelStrength, loadLevels, type Level } from './levels';
import { icon } from './icons';
import { PLAYER_COLORS } from './tiles';
import { h, toast } from './ui';
import { currentLang, LANG_NAMES, LANGS, serverText, setLang, t, type Lang } from './i18n';

// The computer's levels come from the server (levels.ts): in words, in their order of measured
// strength. The quick button plays QUICK_SPEC when the server has it, else its first level.
const QUICK_SPEC = 'mcts:level=easy';

interface Row { name: string; type: 'human' | 'remote' | 'ai'; ai: string }

// The host's name: remembered from the last game set up here; "Player 1" until one is typed
// (a friend must never see the host called "You").
const NAME_KEY = 'carc.name';
function myName(): string {
  try {
    return localStorage.getItem(NAME_KEY) || t('player.n', { n: 1 });
  } catch {
    return t('player.n', { n: 1 });
  }
}
function rememberName(name: string) {
  try {
    if (name.trim()) localStorage.setItem(NAME_KEY, name.trim());
  } catch {
    /* private mode: not remembered */
  }
}
// The default name of a seat of a kind (used when its kind changes and its name was a default).
const defaultName = (type: Row['type'], n?: number) =>
  n === undefined ? t(type === 'human' ? 'seat.player' : type === 'remote' ? 'seat.friend' : 'seat.computer')
    : t(type === 'human' ? 'player.n' : type === 'remote' ? 'seat.friendN' : 'seat.computerN', { n });
function isDefaultName(name: string): boolean {
  const n = name.trim();
  if (/^(Player \d+|Player|Friend|Friend \d+|Computer|Computer \d+|You)$/.test(n)) return true;
  const numbered = n.replace(/ \d+$/, ' 1');
  return (['human', 'remote', 'ai'] as const).some((k) => n === defaultName(k) || numbered === defaultName(k, 1));
}

function remember(g: CreatedGame) {
  for (const s of g.seats) {
    if (!s.token) continue;
    if (s.type === 'remote') tokens.setInvite(g.id, s.seat, s.token);
    else tokens.set(g.id, s.seat, s.token);
  }
}

// The games list's status in words.
function statusWords(status: string): string {
  return status === 'playing' ? t('status.playing') : status === 'finished' ? t('status.finished') : status === 'view' ? t('status.view') : status;
}

// The language switch (remembered; the page is drawn again in the new language).
function langSwitch(): HTMLElement {
  const sel = h('select', { 'aria-label': t('lobby.language'), 'data-testid': 'lang', onchange: (e: Event) => {
    setLang((e.target as HTMLSelectElement).value as Lang);
    location.reload();
  } }, ...LANGS.map((l) => h('option', { value: l, selected: l === currentLang(), lang: l }, LANG_NAMES[l])));
  return h('label', { class: 'lang-switch' }, t('lobby.languageLabel'), sel);
}

// `isCurrent`: false once the player went elsewhere while the levels loaded (the lobby is then not
// drawn over the page they opened).
export async function renderLobby(parent: HTMLElement, isCurrent: () => boolean = () => true) {
  const levels: Level[] = await loadLevels();
  if (!isCurrent()) return;
  const defaultAi = levels.find((l) => l.spec === QUICK_SPEC)?.spec ?? levels[0]?.spec ?? QUICK_SPEC;
  const levelOf = (spec: string) => levels.find((l) => l.spec === spec);
  // a level chooser: the levels by name, weakest first (the sentence on how it plays is beside it)
  const levelOptions = (chosen: string) => levels.length
    ? levels.map((l) => h('option', { value: l.spec, selected: chosen === l.spec, title: l.how }, l.name))
    : [h('option', { value: defaultAi, selected: true }, t('level.computer'))];
  const rows: Row[] = [
    { name: myName(), type: 'human', ai: '' },
    { name: t('level.computer'), type: 'ai', ai: defaultAi },
  ];
  const expansions = new Set<string>();
  let tileset = 'base';
  // Hints ("Suggest a move"): on by default when at most one person plays here (alone against
  // the computer, or all seats on this screen); with friends, off unless ticked (everyone sees it).
  let hintsTouched = false;
  const people = () => (rows.some((r) => r.type === 'human') ? 1 : 0) + rows.filter((r) => r.type === 'remote').length;
  const hintsBox = h('input', { type: 'checkbox', 'data-testid': 'allow-hints', checked: true, onchange: () => { hintsTouched = true; } }) as HTMLInputElement;
  const playersBox = h('div', { class: 'seats' });
  const error = h('div', { class: 'error' });

  const create = async (players: Row[]) => {
    error.textContent = '';
    try {
      const body = {
        players: players.map((r) => ({ name: r.name, type: r.type, ai: r.type === 'ai' ? r.ai : undefined })),
        tileset,
        expansions: [...expansions],
        allow_hints: players === rows ? hintsBox.checked : undefined,
      };
      const first = players.find((r) => r.type === 'human');
      if (first && !isDefaultName(first.name)) rememberName(first.name);
      const g = await api.create(body);
      // the creator keeps the tokens of local seats and of friends' seats (to share their links)
      remember(g);
      location.hash = `#/game/${g.id}`;
    } catch (e) {
      error.textContent = t('error.create', { msg: (e as Error).message });
    }
  };

  const drawRows = () => {
    if (!hintsTouched) hintsBox.checked = people() <= 1;
    playersBox.replaceChildren(...rows.flatMap((r, i) => {
      const name = h('input', { class: 'seat-name-input', value: r.name, 'aria-label': t('seat.nameLabel', { n: i + 1 }), oninput: (e: Event) => { r.name = (e.target as HTMLInputElement).value; } });
      const type = h('select', { class: 'seat-kind', 'aria-label': t('seat.kindLabel', { n: i + 1 }), onchange: (e: Event) => {
        r.type = (e.target as HTMLSelectElement).value as Row['type'];
        if (r.type === 'ai' && !r.ai) r.ai = defaultAi;
        if (isDefaultName(r.name) && i > 0) r.name = r.type === 'human' ? t('player.n', { n: i + 1 }) : rows.filter((x) => x.type === r.type).length > 1 ? defaultName(r.type, i + 1) : defaultName(r.type);
        drawRows();
      } },
        ...[['human', t('seat.here')], ['remote', t('seat.remote')], ['ai', t('level.computer')]].map(([v, label]) => h('option', { value: v, selected: r.type === v }, label)));
      const level = r.type === 'ai'
        ? h('select', { class: 'seat-level', 'aria-label': t('seat.strengthLabel', { n: i + 1 }), 'aria-describedby': `level-help-${i}`, onchange: (e: Event) => {
          r.ai = (e.target as HTMLSelectElement).value;
          // the sentence follows the choice (the select is kept: it keeps the focus)
          const help = document.getElementById(`level-help-${i}`);
          if (help) help.textContent = levelOf(r.ai)?.how ?? '';
        } },
          ...levelOptions(r.ai))
        : h('span', { class: 'seat-level' });
      const del = h('button', { class: 'btn ghost remove', type: 'button', title: t('seat.remove', { n: i + 1 }), 'aria-label': t('seat.remove', { n: i + 1 }), disabled: rows.length <= 2, onclick: () => { rows.splice(i, 1); drawRows(); } }, icon('close'));
      const row = h('div', { class: 'seat-row', 'data-testid': `seat-row-${i}` }, h('span', { class: 'dot seat-dot', style: `background:${PLAYER_COLORS[i]}` }), name, type, level, del);
      const how = r.type === 'ai' ? levelOf(r.ai)?.how : undefined;
      return how ? [row, h('p', { class: 'level-help muted', id: `level-help-${i}`, 'data-testid': `level-help-${i}` }, how)] : [row];
    }));
  };
  drawRows();

  // The expansions: the server's list (GET /api/players, "expansions": the engine's module table),
  // filled in below once loaded.
  const expBox = h('div', { class: 'expansions' });
  const drawExpansions = (list: { name: string; label: string }[]) => expBox.replaceChildren(...list.map(({ name: id, label }) =>
    h('label', {}, h('input', { type: 'checkbox', checked: expansions.has(id), onchange: (e: Event) => { if ((e.target as HTMLInputElement).checked) expansions.add(id); else expansions.delete(id); } }), ` ${serverText(label)}`)));

  // The tile set: the base game, or the Wheel of Fortune (its board replaces the start tile);
  // either goes with any of the expansions.
  const tilesetBox = h('div', { class: 'row' }, h('label', {}, t('lobby.tilesetLabel'),
    h('select', { 'aria-label': t('lobby.tileset'), 'data-testid': 'tileset', onchange: (e: Event) => { tileset = (e.target as HTMLSelectElement).value; } },
      h('option', { value: 'base', selected: true }, t('lobby.base')),
      h('option', { value: 'wheel-of-fortune' }, t('lobby.wheel')))));

  const quick = h('div', { class: 'quick' },
    h('button', { class: 'btn primary big', 'data-testid': 'play-vs-ai', title: levelOf(defaultAi)?.how, onclick: () => create([{ name: myName(), type: 'human', ai: '' }, { name: t('level.computer'), type: 'ai', ai: defaultAi }]) },
      t('lobby.playAi'), levelOf(defaultAi) ? h('span', { class: 'quick-level' }, ` (${levelOf(defaultAi)!.name})`) : null),
    h('button', { class: 'btn big', 'data-testid': 'play-hot-seat', onclick: () => create([{ name: 'Ann', type: 'human', ai: '' }, { name: 'Ben', type: 'human', ai: '' }]) }, t('lobby.hotSeat')),
  );

  const form = h('div', { class: 'card' },
    h('h3', {}, t('lobby.newGame')),
    playersBox,
    levels.length ? h('details', { class: 'level-strength', 'data-testid': 'level-strength' },
      h('summary', {}, t('lobby.howStrong')),
      h('ul', {}, ...levels.map((l) => h('li', {}, h('b', {}, l.name), `: ${levelStrength(l)}. ${l.how}`))),
      h('p', { class: 'muted' }, t('lobby.eloNote'))) : null,
    h('div', { class: 'row' },
      h('button', { class: 'btn', onclick: () => { if (rows.length < 6) { rows.push({ name: t('player.n', { n: rows.length + 1 }), type: 'ai', ai: defaultAi }); drawRows(); } } }, t('lobby.addPlayer'))),
    h('h4', {}, t('lobby.tileset')),
    tilesetBox,
    h('h4', {}, t('lobby.expansions')),
    expBox,
    h('div', { class: 'row' }, h('label', {}, hintsBox, t('lobby.allowHints'))),
    h('div', { class: 'row' }, h('button', { class: 'btn primary', 'data-testid': 'create-game', onclick: () => create(rows) }, t('lobby.start'))),
    error,
  );

  // uploads: continue a game (each seat played here or by the computer) or only view it
  const file = h('input', { type: 'file', accept: '.json,application/json', 'aria-label': t('lobby.recordFile') }) as HTMLInputElement;
  const mode = h('select', { 'aria-label': t('lobby.recordWhat'), 'data-testid': 'upload-mode' }, h('option', { value: 'continue' }, t('lobby.continue')), h('option', { value: 'view' }, t('lobby.viewOnly'))) as HTMLSelectElement;
  const uploadSeats = h('div', { class: 'seats upload-seats', 'data-testid': 'upload-seats' });
  let upRows: Row[] = [];
  const drawUploadSeats = () => {
    uploadSeats.replaceChildren(...(mode.value === 'view' ? [] : upRows.map((r, i) => {
      const type = h('select', { 'aria-label': t('lobby.whoPlays', { name: r.name }), 'data-testid': `upload-kind-${i}`, onchange: (e: Event) => { r.type = (e.target as HTMLSelectElement).value as Row['type']; drawUploadSeats(); } },
        h('option', { value: 'human', selected: r.type === 'human' }, t('seat.here')), h('option', { value: 'ai', selected: r.type === 'ai' }, t('level.computer')));
      const level = r.type === 'ai'
        ? h('select', { 'aria-label': t('lobby.strengthOf', { name: r.name }), onchange: (e: Event) => { r.ai = (e.target as HTMLSelectElement).value; } }, ...levelOptions(r.ai))
        : h('span', {});
      return h('div', { class: 'seat-row' }, h('span', { class: 'dot', style: `background:${PLAYER_COLORS[i % PLAYER_COLORS.length]}` }), h('span', { class: 'seat-name' }, r.name), type, level);
    })));
  };
  mode.addEventListener('change', drawUploadSeats);
  // the record names its players: a seat called like the computer is the computer again
  file.addEventListener('change', async () => {
    upRows = [];
    const f = file.files?.[0];
    if (f) {
      try {
        const rec = JSON.parse(await f.text());
        const names: unknown = rec?.setup?.players;
        if (Array.isArray(names)) upRows = names.slice(0, 6).map((n) => {
          const name = String(n);
          const ai = /^(computer|ai|bot)\b/i.test(name);
          return { name, type: ai ? 'ai' : 'human', ai: ai ? defaultAi : '' } as Row;
        });
      } catch {
        /* the server says what is wrong with the file when it is opened */
      }
    }
    drawUploadSeats();
  });
  const upload = h('div', { class: 'card' },
    h('h3', {}, t('lobby.openRecord')),
    h('p', { class: 'muted' }, t('lobby.recordNote')),
    h('div', { class: 'row' }, file, mode), uploadSeats,
    h('div', { class: 'row' }, h('button', { class: 'btn', 'data-testid': 'upload-open', onclick: async () => {
      const f = file.files?.[0];
      if (!f) { toast(t('lobby.chooseFile')); return; }
      try {
        const body: Record<string, unknown> = { record: await f.text(), mode: mode.value };
        if (mode.value === 'continue' && upRows.length) body.players = upRows.map((r) => ({ name: r.name, type: r.type, ai: r.type === 'ai' ? r.ai : undefined }));
        const g = await api.upload(body);
        remember(g);
        location.hash = mode.value === 'view' ? `#/replay/${g.id}/end` : `#/game/${g.id}`;
      } catch (e) {
        toast(t('error.open', { msg: (e as Error).message }));
      }
    } }, t('lobby.open'))));

  const list = h('div', { class: 'card games' }, h('h3', {}, t('lobby.games')), h('div', { class: 'muted' }, t('common.loading')));
  parent.replaceChildren(h('div', { class: 'lobby' },
    h('header', { class: 'hero' }, h('h1', {}, t('app.name')), h('p', {}, t('lobby.tagline')), langSwitch()),
    quick,
    h('div', { class: 'lobby-grid' }, form, h('div', {}, list, upload)),
  ));

  // The expansions to choose from: the server's list (GET /api/players, "expansions").
  try {
    const { expansions: known } = await api.players();
    if (known?.length) drawExpansions(known);
  } catch {
    /* the box stays empty: a game without expansions can still start */
  }

  try {
    const { games } = await api.games();
    const body = games.length ? h('table', { class: 'games-table' },
      h('tr', {}, h('th', {}, t('lobby.colPlayers')), h('th', {}, t('lobby.colScore')), h('th', {}, t('lobby.colTurn')), h('th', {}, t('lobby.colStatus')), h('th', {}, '')),
      ...games.slice(0, 20).map((g) => {
        const mine = Object.keys(tokens.get(g.id)).length > 0;
        return h('tr', {},
          h('td', {}, g.players.map((p) => p.name).join(' · ')),
          h('td', {}, g.scores.join(' : ')),
          h('td', {}, String(g.turn)),
          h('td', {}, statusWords(g.status) + (mine ? t('lobby.yours') : '') + (g.allow_hints ? t('lobby.hints') : '')),
          h('td', {}, h('a', { href: `#/game/${g.id}` }, g.status === 'playing' ? (mine ? t('lobby.continueGame') : t('lobby.watch')) : t('lobby.open')), ' ',
            h('a', { href: `#/replay/${g.id}` }, t('common.replay')), ' ',
            h('a', { href: api.recordUrl(g.id), download: `carcassonne-${g.id}.json` }, t('lobby.record'))));
      })) : h('div', { class: 'muted' }, t('lobby.noGames'));
    list.replaceChildren(h('h3', {}, t('lobby.games')), body);
  } catch (e) {
    list.replaceChildren(h('h3', {}, t('lobby.games')), h('div', { class: 'error' }, t('error.list', { msg: (e as Error).message })));
  }
}

// A join link: #/game/ID/TOKEN. Claims the seat, remembers the token, opens the game.
export async function joinSeat(id: string, token: string) {
  try {
    const r = await api.join(id, token);
    tokens.set(id, r.seat, token);
    toast(t('join.youPlay', { name: r.name }));
  } catch (e) {
    toast(t('error.join', { msg: (e as Error).message }));
  }
  location.replace(`#/game/${id}`);
}
