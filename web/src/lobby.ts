// The lobby: start a game (against the computer, hot-seat, or with friends by link), the list
// of games, and uploading a record to continue or view it.
import { api, tokens, type CreatedGame } from './api';
import { levelStrength, loadLevels, type Level } from './levels';
import { icon } from './icons';
import { PLAYER_COLORS } from './tiles';
import { h, toast } from './ui';

// The computer's levels come from the server (levels.ts): in words, in their order of measured
// strength. The quick button plays QUICK_SPEC when the server has it, else its first level.
const QUICK_SPEC = 'mcts:level=easy';

interface Row { name: string; type: 'human' | 'remote' | 'ai'; ai: string }

// The host's name: remembered from the last game set up here; "Player 1" until one is typed
// (a friend must never see the host called "You").
const NAME_KEY = 'carc.name';
function myName(): string {
  try {
    return localStorage.getItem(NAME_KEY) || 'Player 1';
  } catch {
    return 'Player 1';
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
const DEFAULT_NAMES: Record<Row['type'], string> = { human: 'Player', remote: 'Friend', ai: 'Computer' };
function isDefaultName(name: string): boolean {
  return /^(Player \d+|Player|Friend|Friend \d+|Computer|Computer \d+|You)$/.test(name.trim());
}

function remember(g: CreatedGame) {
  for (const s of g.seats) {
    if (!s.token) continue;
    if (s.type === 'remote') tokens.setInvite(g.id, s.seat, s.token);
    else tokens.set(g.id, s.seat, s.token);
  }
}

export async function renderLobby(parent: HTMLElement) {
  const levels: Level[] = await loadLevels();
  const defaultAi = levels.find((l) => l.spec === QUICK_SPEC)?.spec ?? levels[0]?.spec ?? QUICK_SPEC;
  const levelOf = (spec: string) => levels.find((l) => l.spec === spec);
  // a level chooser: the levels by name, weakest first (the sentence on how it plays is beside it)
  const levelOptions = (chosen: string) => levels.length
    ? levels.map((l) => h('option', { value: l.spec, selected: chosen === l.spec, title: l.how }, l.name))
    : [h('option', { value: defaultAi, selected: true }, 'Computer')];
  const rows: Row[] = [
    { name: myName(), type: 'human', ai: '' },
    { name: 'Computer', type: 'ai', ai: defaultAi },
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
      error.textContent = (e as Error).message;
    }
  };

  const drawRows = () => {
    if (!hintsTouched) hintsBox.checked = people() <= 1;
    playersBox.replaceChildren(...rows.flatMap((r, i) => {
      const name = h('input', { class: 'seat-name-input', value: r.name, 'aria-label': `Player ${i + 1} name`, oninput: (e: Event) => { r.name = (e.target as HTMLInputElement).value; } });
      const type = h('select', { class: 'seat-kind', 'aria-label': `Player ${i + 1} kind`, onchange: (e: Event) => {
        r.type = (e.target as HTMLSelectElement).value as Row['type'];
        if (r.type === 'ai' && !r.ai) r.ai = defaultAi;
        if (isDefaultName(r.name) && i > 0) r.name = r.type === 'human' ? `Player ${i + 1}` : rows.filter((x) => x.type === r.type).length > 1 ? `${DEFAULT_NAMES[r.type]} ${i + 1}` : DEFAULT_NAMES[r.type];
        drawRows();
      } },
        ...[['human', 'Plays here'], ['remote', 'Friend (join link)'], ['ai', 'Computer']].map(([v, t]) => h('option', { value: v, selected: r.type === v }, t)));
      const level = r.type === 'ai'
        ? h('select', { class: 'seat-level', 'aria-label': `Player ${i + 1} strength`, 'aria-describedby': `level-help-${i}`, onchange: (e: Event) => {
          r.ai = (e.target as HTMLSelectElement).value;
          // the sentence follows the choice (the select is kept: it keeps the focus)
          const help = document.getElementById(`level-help-${i}`);
          if (help) help.textContent = levelOf(r.ai)?.how ?? '';
        } },
          ...levelOptions(r.ai))
        : h('span', { class: 'seat-level' });
      const del = h('button', { class: 'btn ghost remove', type: 'button', title: `Remove player ${i + 1}`, 'aria-label': `Remove player ${i + 1}`, disabled: rows.length <= 2, onclick: () => { rows.splice(i, 1); drawRows(); } }, icon('close'));
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
    h('label', {}, h('input', { type: 'checkbox', checked: expansions.has(id), onchange: (e: Event) => { if ((e.target as HTMLInputElement).checked) expansions.add(id); else expansions.delete(id); } }), ` ${label}`)));

  // The tile set: the base game, or the Wheel of Fortune (its board replaces the start tile);
  // either goes with any of the expansions.
  const tilesetBox = h('div', { class: 'row' }, h('label', {}, 'Tile set: ',
    h('select', { 'aria-label': 'Tile set', 'data-testid': 'tileset', onchange: (e: Event) => { tileset = (e.target as HTMLSelectElement).value; } },
      h('option', { value: 'base', selected: true }, 'Base game (start tile)'),
      h('option', { value: 'wheel-of-fortune' }, 'The Wheel of Fortune (wheel board, pig, crown spaces, Plague)'))));

  const quick = h('div', { class: 'quick' },
    h('button', { class: 'btn primary big', 'data-testid': 'play-vs-ai', title: levelOf(defaultAi)?.how, onclick: () => create([{ name: myName(), type: 'human', ai: '' }, { name: 'Computer', type: 'ai', ai: defaultAi }]) },
      'Play against the computer', levelOf(defaultAi) ? h('span', { class: 'quick-level' }, ` (${levelOf(defaultAi)!.name})`) : null),
    h('button', { class: 'btn big', 'data-testid': 'play-hot-seat', onclick: () => create([{ name: 'Ann', type: 'human', ai: '' }, { name: 'Ben', type: 'human', ai: '' }]) }, 'Two players on this screen'),
  );

  const form = h('div', { class: 'card' },
    h('h3', {}, 'New game'),
    playersBox,
    levels.length ? h('details', { class: 'level-strength', 'data-testid': 'level-strength' },
      h('summary', {}, 'How strong are the computer levels?'),
      h('ul', {}, ...levels.map((l) => h('li', {}, h('b', {}, l.name), `: ${levelStrength(l)}. ${l.how}`))),
      h('p', { class: 'muted' }, 'Elo is a rating measured from games between the levels: 100 points more wins about 64 games in 100.')) : null,
    h('div', { class: 'row' },
      h('button', { class: 'btn', onclick: () => { if (rows.length < 6) { rows.push({ name: `Player ${rows.length + 1}`, type: 'ai', ai: defaultAi }); drawRows(); } } }, '+ Add player')),
    h('h4', {}, 'Tile set'),
    tilesetBox,
    h('h4', {}, 'Expansions'),
    expBox,
    h('div', { class: 'row' }, h('label', {}, hintsBox, ' Allow hints ("Suggest a move") for every player')),
    h('div', { class: 'row' }, h('button', { class: 'btn primary', 'data-testid': 'create-game', onclick: () => create(rows) }, 'Start game')),
    error,
  );

  // uploads: continue a game (each seat played here or by the computer) or only view it
  const file = h('input', { type: 'file', accept: '.json,application/json', 'aria-label': 'Game record file' }) as HTMLInputElement;
  const mode = h('select', { 'aria-label': 'What to do with the record', 'data-testid': 'upload-mode' }, h('option', { value: 'continue' }, 'continue it here'), h('option', { value: 'view' }, 'only view it (from the end)')) as HTMLSelectElement;
  const uploadSeats = h('div', { class: 'seats upload-seats', 'data-testid': 'upload-seats' });
  let upRows: Row[] = [];
  const drawUploadSeats = () => {
    uploadSeats.replaceChildren(...(mode.value === 'view' ? [] : upRows.map((r, i) => {
      const type = h('select', { 'aria-label': `${r.name}: who plays`, 'data-testid': `upload-kind-${i}`, onchange: (e: Event) => { r.type = (e.target as HTMLSelectElement).value as Row['type']; drawUploadSeats(); } },
        h('option', { value: 'human', selected: r.type === 'human' }, 'Plays here'), h('option', { value: 'ai', selected: r.type === 'ai' }, 'Computer'));
      const level = r.type === 'ai'
        ? h('select', { 'aria-label': `${r.name}: strength`, onchange: (e: Event) => { r.ai = (e.target as HTMLSelectElement).value; } }, ...levelOptions(r.ai))
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
    h('h3', {}, 'Open a game record'),
    h('p', { class: 'muted' }, 'A record file (carcassonne-record/1) from this server or any other tool.'),
    h('div', { class: 'row' }, file, mode), uploadSeats,
    h('div', { class: 'row' }, h('button', { class: 'btn', 'data-testid': 'upload-open', onclick: async () => {
      const f = file.files?.[0];
      if (!f) { toast('Choose a file first'); return; }
      try {
        const body: Record<string, unknown> = { record: await f.text(), mode: mode.value };
        if (mode.value === 'continue' && upRows.length) body.players = upRows.map((r) => ({ name: r.name, type: r.type, ai: r.type === 'ai' ? r.ai : undefined }));
        const g = await api.upload(body);
        remember(g);
        location.hash = mode.value === 'view' ? `#/replay/${g.id}/end` : `#/game/${g.id}`;
      } catch (e) {
        toast((e as Error).message);
      }
    } }, 'Open')));

  const list = h('div', { class: 'card games' }, h('h3', {}, 'Games'), h('div', { class: 'muted' }, 'Loading…'));
  parent.replaceChildren(h('div', { class: 'lobby' },
    h('header', { class: 'hero' }, h('h1', {}, 'Carcassonne'), h('p', {}, 'Lay tiles, build cities, roads and monasteries, and place your followers to score.')),
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
      h('tr', {}, h('th', {}, 'Players'), h('th', {}, 'Score'), h('th', {}, 'Turn'), h('th', {}, 'Status'), h('th', {}, '')),
      ...games.slice(0, 20).map((g) => {
        const mine = Object.keys(tokens.get(g.id)).length > 0;
        return h('tr', {},
          h('td', {}, g.players.map((p) => p.name).join(' · ')),
          h('td', {}, g.scores.join(' : ')),
          h('td', {}, String(g.turn)),
          h('td', {}, g.status + (mine ? ' · yours' : '') + (g.allow_hints ? ' · hints' : '')),
          h('td', {}, h('a', { href: `#/game/${g.id}` }, g.status === 'playing' ? (mine ? 'Continue' : 'Watch') : 'Open'), ' ',
            h('a', { href: `#/replay/${g.id}` }, 'Replay'), ' ',
            h('a', { href: api.recordUrl(g.id), download: `carcassonne-${g.id}.json` }, 'Record')));
      })) : h('div', { class: 'muted' }, 'No games yet.');
    list.replaceChildren(h('h3', {}, 'Games'), body);
  } catch (e) {
    list.replaceChildren(h('h3', {}, 'Games'), h('div', { class: 'error' }, (e as Error).message));
  }
}

// A join link: #/game/ID/TOKEN. Claims the seat, remembers the token, opens the game.
export async function joinSeat(id: string, token: string) {
  try {
    const r = await api.join(id, token);
    tokens.set(id, r.seat, token);
    toast(`You play as ${r.name}`);
  } catch (e) {
    toast((e as Error).message);
  }
  location.replace(`#/game/${id}`);
}
