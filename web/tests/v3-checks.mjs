// The web client, v3 (issue #39): the defects players met, each checked in Chromium at a phone's
// 390x844 (touch) and/or a desktop's 1280x800. Run alone with E2E_ONLY=v3.
//   1  a game started from the "New game" form (below the first screen) opens at the top, board in view
//   2  the fitted board fills the screen's width or height (at opening and with "Fit the board")
//   3  no internal strings: the computer's seat, follower and crown tooltips in words
//   4  the computer's levels in words, ordered by measured Elo (from the server), the strength on demand,
//      the quick button saying which level it plays
//   7  prefers-reduced-motion stops the Plague's rings and the spinners
//   8  the score track has numbers
//   9  a resigned player is never named as the winner
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
async function axe(page) {
  await page.evaluate(readFileSync(AXE, 'utf8'));
  const res = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, n: v.nodes.length, target: v.nodes[0]?.target?.join(' ') }));
  });
  return res.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };

function simulatedRecord(bin, seed) {
  const dir = mkdtempSync(join(tmpdir(), 'carc-sim-'));
  try {
    const r = spawnSync(bin, ['simulate', '-n', '1', '--seed', String(seed), '--out', dir], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`carcassonne simulate failed: ${r.stderr}`);
    return readFileSync(join(dir, readdirSync(dir)[0]), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
function editRecord(text, players, turns) {
  const seed = text.match(/"seed"\s*:\s*(\d+)/)[1];
  const rec = JSON.parse(text.replace(/"seed"\s*:\s*\d+/, '"seed":"__SEED__"'));
  rec.setup.players = players;
  if (turns !== undefined) rec.turns = rec.turns.slice(0, turns);
  return JSON.stringify(rec).replace('"__SEED__"', seed);
}

async function pageWith(browser, opts, errors) {
  const ctx = await browser.newContext(opts);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return { ctx, page };
}

const waitMine = (page, timeout = 30000) => page.locator('[data-testid^="cell-"]').first().waitFor({ timeout });

// How the board sits in its box: every tile and legal square inside, and how much of the box's
// width and height they take.
function fitOf(page) {
  return page.evaluate(() => {
    const b = document.querySelector('[data-testid="board"]').getBoundingClientRect();
    let l = Infinity, t = Infinity, r = -Infinity, bo = -Infinity, inside = true;
    for (const u of document.querySelectorAll('use.placed, [data-testid^="cell-"]')) {
      const q = u.getBoundingClientRect();
      l = Math.min(l, q.left); t = Math.min(t, q.top); r = Math.max(r, q.right); bo = Math.max(bo, q.bottom);
      if (q.left < b.left - 1 || q.top < b.top - 1 || q.right > b.right + 1 || q.bottom > b.bottom + 1) inside = false;
    }
    const tile = document.querySelector('use.placed').getBoundingClientRect().width;
    return { inside, fillW: (r - l) / b.width, fillH: (bo - t) / b.height, tile, boardTop: b.top, boardBottom: b.bottom, scrollY: window.scrollY };
  });
}
const fills = (f) => f.inside && Math.max(f.fillW, f.fillH) >= 0.8;
const fmt = (f) => `tiles ${Math.round(f.tile)} px, ${Math.round(f.fillW * 100)}% of the width, ${Math.round(f.fillH * 100)}% of the height${f.inside ? '' : ', some outside'}`;

export async function v3Checks(browser, url, errors, { check, artifacts, bin }) {
  console.log('v3 (#39): a phone (390x844, touch)');
  {
    const { page, ctx } = await pageWith(browser, PHONE, errors);
    // #1: "Start game" is below the first screen: the game still opens at the top
    await page.goto(url);
    await page.getByTestId('create-game').scrollIntoViewIfNeeded();
    const lobbyY = await page.evaluate(() => window.scrollY);
    await page.getByTestId('create-game').tap();
    await page.waitForURL(/#\/game\//);
    await waitMine(page);
    await page.waitForTimeout(300);
    let f = await fitOf(page);
    check(lobbyY > 0 && f.scrollY === 0 && f.boardTop >= 0 && f.boardTop < 100 && f.inside,
      `#39.1 phone: a game started from "New game" (lobby scrolled ${lobbyY} px) opens at the top with the board in view (scrollY ${f.scrollY}, board at ${Math.round(f.boardTop)} px)`);

    // #3: follower spots' tooltips in words
    await page.locator('[data-testid^="cell-"]').first().dispatchEvent('click');
    await page.getByTestId('pending-tile').waitFor();
    const spotTitles = await page.locator('[data-testid^="spot-"] title').allTextContents();
    check(spotTitles.length > 0 && spotTitles.every((t) => !/\b[NESW][nesw]?\b|crown:/.test(t)), `#39.3: follower spots' tooltips in words (${spotTitles.slice(0, 3).join(' | ')})`);
    await page.keyboard.press('Escape');

    // #2: a wide board late in a game is fitted to the width (or height) when the game opens
    const rec = editRecord(simulatedRecord(bin, 11), ['Player 1', 'Computer'], 60);
    await page.goto(url);
    await page.locator('input[type=file]').setInputFiles({ name: 'late.json', mimeType: 'application/json', buffer: Buffer.from(rec) });
    await page.getByTestId('upload-open').tap();
    await page.waitForURL(/#\/game\//);
    await waitMine(page);
    await page.waitForTimeout(300);
    f = await fitOf(page);
    check(fills(f), `#39.2 phone: the game opens with the whole board fitted to the screen (${fmt(f)})`);
    await page.screenshot({ path: join(artifacts, 'phone-late-fitted.png') });
    await page.getByTestId('zoom-in').tap();
    await page.getByTestId('zoom-in').tap();
    await page.getByTestId('zoom-fit').tap();
    f = await fitOf(page);
    check(fills(f), `#39.2 phone: "Fit the board" fits the whole board again (${fmt(f)})`);

    // #3: the computer's seat in words
    const label = await page.getByTestId('seat-label-1').textContent();
    check(/^Computer \([A-Z][a-z]+\)/.test(label) && !/mcts|level=|·/.test(label), `#39.3: the computer's seat reads "${label}"`);
    await ctx.close();
  }

  console.log('v3 (#39): the Wheel of Fortune on a phone (390x844, touch)');
  {
    const { page, ctx } = await pageWith(browser, PHONE, errors);
    const wheelRec = { format: 'carcassonne-record/1', setup: { players: ['Ann', 'Ben'], tileset: 'wheel-of-fortune', expansions: [], seed: 1625, draws: 'random' }, turns: [] };
    await page.goto(url);
    await page.locator('input[type=file]').setInputFiles({ name: 'wheel.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(wheelRec)) });
    await page.getByTestId('upload-open').tap();
    await page.waitForURL(/#\/game\//);
    await waitMine(page);
    // #5: the wheel large, on a tap: its names and crown spaces readable, a crown space chosen on it
    await page.locator('[data-testid^="cell-"]').first().dispatchEvent('click');
    await page.getByTestId('pending-tile').waitFor();
    await page.getByTestId('wheel-zoom').tap();
    await page.getByTestId('wheel-large').waitFor();
    const sizes = await page.evaluate(() => {
      const big = document.querySelector('[data-testid="wheel-large"]');
      const min = (sel) => Math.min(...[...big.querySelectorAll(sel)].map((e) => e.getBoundingClientRect().height));
      const r = big.getBoundingClientRect();
      const k = big.getScreenCTM().a;
      return { label: Math.min(...[...big.querySelectorAll('.wheel-label')].map((e) => parseFloat(e.getAttribute('font-size')) * k)), crown: min('.crown circle'), inside: r.left >= 0 && r.right <= 390 && r.top >= 0 && r.bottom <= 844 };
    });
    check(sizes.label >= 12 && sizes.crown >= 28 && sizes.inside, `#39.5 phone: the wheel drawn large on a tap: names ${Math.round(sizes.label)} px, crown spaces ${Math.round(sizes.crown)} px, on screen`);
    await page.screenshot({ path: join(artifacts, 'phone-wheel-large.png') });
    const wheelAxe = await axe(page);
    check(wheelAxe.length === 0, `axe: no serious or critical violations with the large wheel open (phone)${wheelAxe.length ? ': ' + JSON.stringify(wheelAxe) : ''}`);
    await page.getByTestId('large-spot-crown:taxes:0').tap();
    await page.getByTestId('wheel-large').waitFor({ state: 'detached' });
    check(/crown space of/.test(await page.getByTestId('choice').textContent()), '#39.5 phone: a crown space tapped on the large wheel takes the follower');
    await ctx.close();
  }

  console.log('v3 (#39): a fruit action on a phone (390x844, touch)');
  {
    const { page, ctx } = await pageWith(browser, PHONE, errors);
    const rec = { format: 'carcassonne-record/1', setup: { players: ['Ann', 'Ben'], tileset: 'base', expansions: ['fruit-trees'], seed: 10, draws: 'random',
      fruit_stacks: { apple: [5, 4, 3, 2], apricot: [5, 4, 3, 2], cherry: [4, 5, 3, 2], elder: [5, 4, 3, 2], plum: [5, 4, 3, 2], quince: [5, 4, 3, 2] } }, turns: [] };
    await page.goto(url);
    await page.locator('input[type=file]').setInputFiles({ name: 'fruit.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(rec)) });
    await page.getByTestId('upload-open').tap();
    await page.waitForURL(/#\/game\//);
    await waitMine(page);
    const gid = page.url().match(/#\/game\/([a-z0-9]+)/)[1];
    const legal = await page.evaluate((g) => fetch(`/api/games/${g}/legal`).then((x) => x.json()), gid);
    const pl = legal.placements.find((p) => p.fruit_types && p.followers.length && p.fruit?.harvest.some((t) => t.new));
    await page.getByTestId(`cell-${pl.x}_${pl.y}`).dispatchEvent('click');
    for (let i = 0; i < 4; i++) {
      if ((await page.getByTestId('pending-tile').getAttribute('href')).endsWith(`-${pl.rotation}`)) break;
      await page.getByTestId('rotate').tap();
    }
    await page.getByTestId(`spot-${pl.followers[0].at}`).dispatchEvent('click');
    await page.getByTestId('fruit-action').waitFor();
    await page.waitForTimeout(300);
    const g = await page.evaluate(() => {
      const b = document.querySelector('[data-testid="board"]').getBoundingClientRect();
      const t = document.querySelector('[data-testid="pending-tile"]').getBoundingClientRect();
      const c = document.querySelector('[data-testid="confirm"]').getBoundingClientRect();
      const hv = document.querySelector('[data-testid^="fruit-harvest-"]').getBoundingClientRect();
      return { harvest: hv.top >= b.bottom && hv.bottom <= c.top, h: b.height, tileIn: t.top >= b.top - 1 && t.bottom <= b.bottom + 1 && t.left >= b.left - 1 && t.right <= b.right + 1, confirm: c.bottom <= innerHeight, scrollY };
    });
    check(g.h >= 0.45 * 844 && g.tileIn && g.confirm && g.harvest && g.scrollY === 0, `#39.10 phone: with the fruit action shown the board keeps ${Math.round(g.h)} px (at least 45% of the screen), the tile being placed on it, the harvest choice and "Place tile" in view${g.harvest ? '' : ' (the harvest choice is not)'}`);
    await page.screenshot({ path: join(artifacts, 'phone-fruit-action.png') });
    await ctx.close();
  }

  console.log('v3 (#39): taps and notices (390x844, touch)');
  {
    const { page, ctx } = await pageWith(browser, PHONE, errors);
    await page.goto(url);
    await page.getByTestId('play-hot-seat').tap();
    await page.waitForURL(/#\/game\//);
    await waitMine(page);
    // #10: a tap whose square is drawn again between the finger's touch and its lift (a view
    // arriving, the preview turned) still puts the tile there
    const cdp = await ctx.newCDPSession(page);
    const cellId = await page.locator('[data-testid^="cell-"]').first().getAttribute('data-testid');
    const r = await page.getByTestId(cellId).boundingBox();
    const pt = { x: r.x + r.width / 2, y: r.y + r.height / 2, id: 1 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [pt] });
    await page.keyboard.press('r');  // turns the preview: the legal squares are drawn again
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    let placed = true;
    try {
      await page.getByTestId('pending-tile').waitFor({ timeout: 2000 });
    } catch {
      placed = false;
    }
    check(placed, '#39.10 phone: a tap survives the squares being drawn again under the finger');
    // ... and a tap whose finger slides a few pixels (less than the browser's touch slop, so the
    // browser still calls it a tap) is a tap, not a drag of the board
    await page.keyboard.press('Escape');
    await page.getByTestId('pending-tile').waitFor({ state: 'detached' });
    const r2 = await page.getByTestId(cellId).boundingBox();
    const p2 = { x: r2.x + r2.width / 2, y: r2.y + r2.height / 2, id: 1 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [p2] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ ...p2, x: p2.x + 4, y: p2.y + 3 }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ ...p2, x: p2.x + 7, y: p2.y + 4 }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    placed = true;
    try {
      await page.getByTestId('pending-tile').waitFor({ timeout: 2000 });
    } catch {
      placed = false;
    }
    check(placed, '#39.10 phone: a tap with a finger sliding 8 px still puts the tile on the square');

    // #10: two suggestions that would read the same are told apart (the server's answer is
    // replaced on its way by two moves on one square, turned two ways, without a follower)
    {
      await page.goto(url);
      await page.getByTestId('play-hot-seat').tap();
      await page.waitForURL(/#\/game\//);
      await waitMine(page);
      const gid = page.url().match(/#\/game\/([a-z0-9]+)/)[1];
      const [gv, legal] = await page.evaluate((g) => Promise.all([fetch(`/api/games/${g}`).then((x) => x.json()), fetch(`/api/games/${g}/legal`).then((x) => x.json())]), gid);
      const cell = (p) => `${p.x},${p.y}`;
      const a = legal.placements.find((p) => legal.placements.some((q) => cell(q) === cell(p) && q.rotation !== p.rotation));
      const b = a && legal.placements.find((q) => cell(q) === cell(a) && q.rotation !== a.rotation);
      if (a && b) {
        const mv = (p) => ({ move: { kind: 'place', tile: gv.tile, x: p.x, y: p.y, rotation: p.rotation }, description: '', win_probability: 0.5, score_diff: 0, visits: 10 });
        await page.route('**/hint', (route) => route.fulfill({ json: { turn: gv.turn, player: gv.current_player, moves: [mv(a), mv(b)] } }));
        await page.getByTestId('hint').tap();
        await page.getByTestId('hint-list').waitFor();
        const hints = await page.locator('[data-testid^="hint-move-"] .hint-text').allTextContents();
        check(hints.length === 2 && hints[0] !== hints[1], `#39.10 phone: two suggestions on one square read differently (${hints.join(' | ')})`);
        await page.unroute('**/hint');
      } else {
        check(true, '#39.10 phone: (no square with two ways to fit in this game)');
      }
    }

    // #6: notices show one at a time (three taps on "Open" without a file: one "Choose a file first")
    await page.goto(url);
    for (let i = 0; i < 3; i++) await page.getByTestId('upload-open').tap();
    const notes = await page.locator('.toast').allTextContents();
    check(notes.length === 1, `#39.6 phone: one notice at a time, not a pile (${notes.length}: ${notes.join(' | ')})`);
    await ctx.close();
  }

  console.log('v3 (#39): levels, the track, reduced motion, resigning (1280x800)');
  {
    const { page, ctx } = await pageWith(browser, DESKTOP, errors);
    // #3: the crown spaces' tooltips in words (a Wheel of Fortune game, on the wheel and in its panel)
    const wheelRec = { format: 'carcassonne-record/1', setup: { players: ['Ann', 'Ben'], tileset: 'wheel-of-fortune', expansions: [], seed: 1625, draws: 'random' }, turns: [] };
    await page.goto(url);
    await page.locator('input[type=file]').setInputFiles({ name: 'wheel.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(wheelRec)) });
    await page.getByTestId('upload-open').click();
    await page.waitForURL(/#\/game\//);
    await waitMine(page);
    await page.locator('[data-testid^="cell-"]').first().click();
    await page.getByTestId('pending-tile').waitFor();
    const crownTitles = [
      ...await page.locator('[data-testid^="crown-crown-"] title').allTextContents(),
      ...await page.locator('[data-testid^="spot-crown:"] title').allTextContents(),
      ...await page.locator('.crown-chip').evaluateAll((cs) => cs.map((c) => c.getAttribute('title'))),
    ];
    check(crownTitles.length >= 27 && crownTitles.every((t) => /crown space \d of /i.test(t) && !/crown:|\(/.test(t)), `#39.3: crown spaces' tooltips in words (${crownTitles[0]} | ${crownTitles[crownTitles.length - 1]})`);

    // #4: the levels come from the server: a changed table (labels, Elo) is shown in its Elo order
    const real = await (await page.request.get(`${url}api/players`)).json();
    const n = real.level_details.length;
    const changed = { ...real, level_details: real.level_details.map((l, i) => ({ ...l, label: `Lvl${i}`, elo: 500 + ((i * 7) % n) * 100, games: 100 })) };
    await page.route('**/api/players', (route) => route.fulfill({ json: changed }));
    await page.goto(url);
    await page.waitForFunction(() => document.querySelector('[data-testid="level-help-1"]'));
    const order = await page.locator('[aria-label="Player 2 strength"] option').evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
    const want = [...changed.level_details].sort((a, b) => a.elo - b.elo).map((l) => [l.spec, l.label]);
    check(JSON.stringify(order) === JSON.stringify(want), `#39.4: the levels are ordered by the server's measured Elo, with its labels (${order.map((o) => o[1]).join(', ')})`);
    await page.unroute('**/api/players');
    await page.goto(url);
    await page.waitForFunction(() => document.querySelector('[data-testid="level-help-1"]'));
    const texts = await page.locator('[aria-label="Player 2 strength"] option').allTextContents();
    // rated levels by their Elo, then the not yet calibrated ones (games 0, e.g. expert) in the server's order
    const realOrder = [...real.level_details.filter((l) => l.games > 0).sort((a, b) => a.elo - b.elo), ...real.level_details.filter((l) => l.games <= 0)].map((l) => l.label);
    check(texts.every((t) => !/Elo|mcts|level=/.test(t)) && JSON.stringify(texts) === JSON.stringify(realOrder), `#39.4: the levels read as the server names them, weakest first (${texts.join(' | ')})`);
    const sentence = await page.getByTestId('level-help-1').textContent();
    const easy = real.level_details.find((l) => l.spec === 'mcts:level=easy');
    check(sentence.length > 20 && !/mcts|iterations/i.test(sentence) && (!easy?.description || sentence === easy.description), `#39.4: the chosen level has a sentence on how it plays (${sentence})`);
    const strengthSel = page.getByLabel('Player 2 strength');
    const other = (await strengthSel.locator('option').evaluateAll((os) => os.map((o) => o.value))).find((v) => v !== 'mcts:level=easy');
    if (other) {
      await strengthSel.evaluate((e) => { e.dataset.kept = '1'; });
      await strengthSel.selectOption(other);
      const s2 = await page.getByTestId('level-help-1').textContent();
      check(s2 !== sentence && await strengthSel.getAttribute('data-kept') === '1', `#39.4: choosing another level tells how it plays, the chooser stays (${s2})`);
      await strengthSel.selectOption('mcts:level=easy');
    }
    const details = page.getByTestId('level-strength');
    await details.locator('summary').click();
    const strength = await details.innerText();
    check(/Elo/.test(strength) && real.level_details.every((l) => strength.includes(String(Math.round(l.elo))) || l.games <= 0), '#39.4: the measured strength of every level is shown on demand');
    const quick = await page.getByTestId('play-vs-ai').textContent();
    check(texts.some((t) => quick.includes(t.split(' — ')[0])), `#39.4: the quick button says which level it plays (${quick})`);

    // #7: reduced motion stops the Plague's rings and the spinners
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const anims = await page.evaluate(() => {
      const s = document.createElement('span');
      s.className = 'spinner';
      document.body.append(s);
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      const c = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
      c.setAttribute('class', 'plague-ring');
      svg.append(c);
      document.body.append(svg);
      const out = [getComputedStyle(s).animationName, getComputedStyle(c).animationName];
      s.remove(); svg.remove();
      return out;
    });
    check(anims.every((a) => a === 'none'), `#39.7: with reduced motion the spinner and the Plague's rings stand still (${anims.join(', ')})`);
    await page.emulateMedia({ reducedMotion: 'no-preference' });

    // #9 and #8: a friend resigns at 0:0; the final scoring names only the host; the track has numbers
    await page.getByLabel('Player 2 kind').selectOption('remote');
    await page.getByTestId('create-game').click();
    await page.waitForURL(/#\/game\//);
    const link = await page.locator('.invites input').inputValue();
    const ctx2 = await browser.newContext(DESKTOP);
    const friend = await ctx2.newPage();
    await friend.goto(link);
    await friend.waitForURL(/#\/game\/[a-z0-9]+$/);
    await friend.getByTestId('status').waitFor();
    friend.on('dialog', (d) => d.accept());
    await friend.getByRole('button', { name: 'Resign' }).click();
    await page.getByTestId('winner').waitFor({ timeout: 20000 });
    const winner = await page.getByTestId('winner').textContent();
    check(/Player 1 wins/.test(winner) && !/Friend/.test(winner), `#39.9: after the friend resigns at 0:0 only the host is named the winner (${winner.trim()})`);
    await page.getByTestId('final-close').click();
    const nums = await page.locator('[data-testid="points-track"] text.track-num').allTextContents();
    check(nums.length >= 5 && nums.includes('0') && nums.includes('10'), `#39.8: the score track has numbers (${nums.join(' ')})`);
    await ctx2.close();
    await ctx.close();
  }

  await fortuneWheelChecks(browser, url, errors, check, artifacts);
  await boardJumpCheck(browser, url, errors, check);
}

// #10: no board jump at the start of a turn: once the player has moved the board (a drag), the
// computer's move and the new legal squares leave the view where it is (the squares are in view).
export async function boardJumpCheck(browser, url, errors, check) {
  console.log('v3 (#39): the board stays put at the start of a turn (1280x800)');
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.getByTestId('play-vs-ai').click();
  await page.waitForURL(/#\/game\//);
  const cell = page.locator('[data-testid^="cell-"]').first();
  await cell.waitFor({ timeout: 20000 });
  await cell.click();
  await page.getByTestId('confirm').click();
  // drag the board a little: from now on the view is the player's
  const box = await page.getByTestId('board').boundingBox();
  await page.mouse.move(box.x + 60, box.y + 60);
  await page.mouse.down();
  await page.mouse.move(box.x + 100, box.y + 90, { steps: 5 });
  await page.mouse.up();
  const before = await page.locator('g.viewport').getAttribute('transform');
  await page.waitForFunction(() => /Your turn/.test(document.querySelector('[data-testid="status"]')?.textContent || '') && document.querySelector('[data-testid^="cell-"]'), null, { timeout: 30000 });
  await page.waitForTimeout(300);
  const after = await page.locator('g.viewport').getAttribute('transform');
  check(before === after, `#39.10: the board does not jump when the turn starts (${before} -> ${after})`);
  await ctx.close();
}

// #6: the Fortune Teller with a wheel tile among the drawn ones: until the wheel tile is chosen,
// the tile box shows only that choice (no "Place tile", no turn buttons); and the "only way the
// tile fits" notices of repeated taps on the tile do not pile up. The game is played through the
// API (a hot-seat game, seed 2, fortune tellers on tents when offered) up to the first turn with
// a wheel tile to choose, then opened in the browser with the seats' tokens.
export async function fortuneWheelChecks(browser, url, errors, check, artifacts) {
  console.log('v3 (#39): the Fortune Teller with a wheel tile (1280x800)');
  const call = async (method, path, body) => {
    const r = await fetch(new URL(path, url), { method, headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
    return { status: r.status, body: await r.json() };
  };
  const created = await call('POST', '/api/games', { players: [{ name: 'Ann', type: 'human' }, { name: 'Ben', type: 'human' }], tileset: 'wheel-of-fortune', expansions: ['fortune-teller'], seed: 2 });
  const id = created.body.id;
  const tokens = created.body.seats.map((s) => s.token);
  let found = false;
  for (let step = 0; step < 400 && !found; ++step) {
    const v = (await call('GET', `/api/games/${id}`)).body;
    if (v.status !== 'playing') break;
    const p = v.current_player;
    const legal = (await call('GET', `/api/games/${id}/legal`)).body;
    if (v.phase === 'plague') {
      const f = legal.plague[0];
      await call('POST', `/api/games/${id}/move`, { token: tokens[p], kind: 'plague', x: f.x, y: f.y, at: f.at });
      continue;
    }
    if (legal.choices?.length) { found = true; break; }
    let pick = legal.placements[step % legal.placements.length];
    let meeple;
    for (const pl of legal.placements) for (const m of pl.followers) if (m.kind === 'tent' && !meeple) { pick = pl; meeple = m.at; }
    const mv = { token: tokens[p], x: pick.x, y: pick.y, rotation: pick.rotation, choice: pick.choice ?? 0 };
    if (meeple) mv.follower = meeple;
    else if (!pick.plain) mv.follower = pick.followers[0].at;
    const r = await call('POST', `/api/games/${id}/move`, mv);
    if (r.status !== 200) { errors.push(`fortune/wheel setup: ${JSON.stringify(r.body)}`); break; }
  }
  check(found, '#39.6: a game with a wheel tile among the Fortune Teller\'s draws was reached through the API');
  if (!found) return;
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.getByTestId('create-game').waitFor();  // the lobby drawn (it would be drawn over the game page)
  await page.evaluate(([gid, t]) => localStorage.setItem(`carc.tokens.${gid}`, JSON.stringify(Object.fromEntries(t.map((x, i) => [i, x])))), [id, tokens]);
  await page.goto(`${url}#/game/${id}`);
  const wheelChoice = (await call('GET', `/api/games/${id}/legal`)).body.choices[0].choice;
  await page.getByTestId('status').waitFor({ timeout: 30000 });
  const chooser = page.getByTestId(`choose-${wheelChoice}`);  // the wheel tile among the drawn ones
  if (!(await chooser.waitFor({ timeout: 30000 }).then(() => true, () => false))) {
    await page.screenshot({ path: `${artifacts}/desktop-fortune-wheel-failed.png` });
    check(false, `#39.6: the drawn tiles are offered to choose from (status: ${await page.getByTestId('status').innerText()})`);
    await ctx.close();
    return;
  }
  await chooser.click();
  await page.getByTestId('choose-wheel-tile').first().waitFor({ timeout: 15000 }).catch(() => {});
  await page.screenshot({ path: `${artifacts}/desktop-fortune-wheel-choice.png` });
  const box = await page.evaluate(() => {
    const drawn = document.querySelector('.drawn');
    return {
      choose: !!drawn?.querySelector('[data-testid="choose-wheel-tile"]'),
      confirm: !!document.querySelector('[data-testid="confirm"]'),
      rotate: !!drawn?.querySelector('[data-testid="rotate"], [data-testid="rotate-left"]'),
      cancel: !!document.querySelector('[data-testid="cancel"]'),
    };
  });
  check(box.choose && !box.confirm && !box.rotate && !box.cancel,
    `#39.6: with a wheel tile to choose first, the tile box shows only that choice (choose ${box.choose}, place ${box.confirm}, turn ${box.rotate}, cancel ${box.cancel})`);
  // choose it, then tap a square where the tile fits one way only, and the tile again and again
  await page.getByTestId('choose-wheel-tile').first().click();
  await page.locator('[data-testid^="cell-"]').first().waitFor({ timeout: 10000 }).catch(() => {});
  const legal = (await call('GET', `/api/games/${id}/legal`)).body;
  if (legal.phase === 'plague' || !legal.placements.length) {
    check(true, '#39.6: (the wheel tile started the Plague: no placement to tap)');
    await ctx.close();
    return;
  }
  const byCell = new Map();
  for (const pl of legal.placements) if ((pl.choice ?? 0) === (legal.placements[0].choice ?? 0)) byCell.set(`${pl.x}_${pl.y}`, (byCell.get(`${pl.x}_${pl.y}`) ?? 0) + 1);
  const single = [...byCell.entries()].find(([, n]) => n === 1)?.[0];
  if (single) {
    await page.getByTestId(`cell-${single}`).click();
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('r');  // turn it (as a tap on the tile does): it fits one way only
      await page.waitForTimeout(200);
    }
    const notes = await page.locator('.toast').allTextContents();
    check(notes.length === 1 && /only way/.test(notes[0]), `#39.6: turning a tile that fits one way only shows one notice, not a pile (4 turns: ${notes.length}: ${notes.join(' | ')})`);
  } else {
    check(true, '#39.6: (no square where the tile fits one way only in this game)');
  }
  await ctx.close();
}

