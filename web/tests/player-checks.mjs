// The web client as players expect it (issue #18), in Chromium at a phone's 390x844 (touch)
// and a desktop's 1280x800: one check (or more) per numbered case of the issue, the phone
// layout (tap to place, tap to turn, confirm without scrolling, no sideways scrolling), the
// score breakdown and track, the rules help, "what just happened", copy link, keyboard play,
// reduced motion, and axe-core (no serious or critical violations on the lobby and the game).
// Screenshots of both sizes go to web/test-artifacts/.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };

// Emoji and media symbols that need an emoji font (#10): misc technical (⏮ ⏯ ⏎ ⤢ are here or in
// arrows), misc symbols and dingbats (♛ ✓), arrows-B, and the emoji planes.
const SYMBOLS = /[\u2300-\u23FF\u2600-\u27BF\u2900-\u297F\u2B00-\u2BFF\u{1F000}-\u{1FAFF}]/u;

// Internal data that must not reach players (#5): tile ids like "R@2" or "FB03", the engine's
// tile notes, raw location codes.
const INTERNAL = /PROVISIONAL|\b[A-Z]{1,2}@\d\b|\bFB\d\d\b|\btile [A-Z]\b|follower on (N|E|S|W|[NESW][nesw]|C)\b|drawn by/;

// A record produced by the engine's own random self-play (`carcassonne simulate`), whole.
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

// The record with other player names and only its first `turns` turns (the seed, beyond
// JavaScript's exact integers, is kept as text).
function editRecord(text, players, turns) {
  const seed = text.match(/"seed"\s*:\s*(\d+)/)[1];
  const rec = JSON.parse(text.replace(/"seed"\s*:\s*\d+/, '"seed":"__SEED__"'));
  rec.setup.players = players;
  if (turns !== undefined) rec.turns = rec.turns.slice(0, turns);
  return JSON.stringify(rec).replace('"__SEED__"', seed);
}

// Elements that stick out of the viewport sideways (the board's SVG and scroll boxes excepted).
async function overflowing(page) {
  return page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const out = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (el.closest('svg') || el.closest('.overlay')) continue;
      let clipped = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const ox = getComputedStyle(p).overflowX;
        if (ox === 'auto' || ox === 'scroll' || ox === 'hidden') { clipped = true; break; }
      }
      if (clipped) continue;
      const r = el.getBoundingClientRect();
      if (r.width && (r.right > w + 1 || r.left < -1)) out.push(`${el.tagName.toLowerCase()}.${el.className}`);
    }
    return { out: out.slice(0, 5), scrollX: document.documentElement.scrollWidth > w };
  });
}

async function axe(page) {
  // Evaluated through the DevTools protocol, not added as an inline <script>: the server's
  // Content-Security-Policy (script-src 'self') blocks inline scripts, as it should.
  await page.evaluate(readFileSync(AXE, 'utf8'));
  const res = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, n: v.nodes.length, target: v.nodes[0]?.target?.join(' ') }));
  });
  return res.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

function luminance(rgb) {
  const [r, g, b] = rgb.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a, b) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

async function pageWith(browser, opts, errors) {
  const ctx = await browser.newContext(opts);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  return { ctx, page };
}

// A point of the tile being placed with no follower circle on it (relative to the tile).
function freePoint(page) {
  return page.evaluate(() => {
    const r = document.querySelector('[data-testid="pending-tile"]').getBoundingClientRect();
    for (const [fx, fy] of [[0.5, 0.5], [0.2, 0.5], [0.5, 0.2], [0.8, 0.5], [0.5, 0.8], [0.1, 0.1], [0.9, 0.9], [0.1, 0.9], [0.9, 0.1]]) {
      const e = document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height);
      if (e?.getAttribute('data-testid') === 'pending-tile') return { x: fx * r.width, y: fy * r.height };
    }
    return { x: r.width / 2, y: r.height / 2 };
  });
}

const waitMine = (page, timeout = 30000) => page.locator('[data-testid^="cell-"]').first().waitFor({ timeout });

export async function playerChecks(browser, url, errors, { check, artifacts, bin }) {
  // ---- phone: lobby ------------------------------------------------------------------------
  console.log('players: a phone (390x844, touch)');
  {
    const { ctx, page } = await pageWith(browser, PHONE, errors);
    await page.goto(url);
    await page.getByTestId('play-vs-ai').waitFor();
    await page.getByLabel('Player 2 kind').selectOption('ai');
    let o = await overflowing(page);
    check(!o.scrollX && o.out.length === 0, `#1 phone lobby: nothing sticks out sideways${o.out.length ? ` (${o.out.join(', ')})` : ''}`);
    const strength = await page.getByLabel('Player 2 strength').boundingBox();
    const remove = await page.getByRole('button', { name: 'Remove player 2' }).boundingBox();
    check(strength && remove && strength.x + strength.width <= 390 && remove.x + remove.width <= 390, '#1 phone lobby: the strength selector and the remove button are on screen');
    const lobbyAxe = await axe(page);
    check(lobbyAxe.length === 0, `axe: no serious or critical violations in the lobby (phone)${lobbyAxe.length ? ': ' + JSON.stringify(lobbyAxe) : ''}`);
    await page.screenshot({ path: join(artifacts, 'phone-lobby.png'), fullPage: true });

    // ---- phone: a game against the computer, by tapping ----------------------------------
    await page.getByTestId('play-vs-ai').tap();
    await page.waitForURL(/#\/game\//);
    await waitMine(page);
    const board = await page.getByTestId('board').boundingBox();
    const start = await page.locator('use.placed').first().boundingBox();
    check(start && start.x >= board.x && start.y >= board.y && start.x + start.width <= board.x + board.width && start.y + start.height <= board.y + board.height,
      '#1 phone: the start tile is wholly on screen');
    const dl = await page.getByTestId('download-record').boundingBox();
    check(dl && dl.x >= 0 && dl.x + dl.width <= 390, '#1 phone: "Download record" is on screen (an icon with a tooltip)');
    let tappedTurns = 0, confirmOnScreen = true, neverScrolled = true, turnedByTap = false, followerByTap = false;
    for (let turn = 0; turn < 5; turn++) {
      await waitMine(page);
      await page.getByTestId('zoom-fit').tap();
      // a square inside the board's box
      const id = await page.evaluate(() => {
        const box = document.querySelector('[data-testid="board"]').getBoundingClientRect();
        for (const c of document.querySelectorAll('[data-testid^="cell-"]')) {
          const r = c.getBoundingClientRect();
          if (r.left >= box.left && r.top >= box.top && r.right <= box.right && r.bottom <= box.bottom) return c.getAttribute('data-testid');
        }
        return document.querySelector('[data-testid^="cell-"]').getAttribute('data-testid');
      });
      await page.getByTestId(id).tap();
      await page.getByTestId('pending-tile').waitFor();
      if (!turnedByTap) {
        const before = await page.getByTestId('pending-tile').getAttribute('href');
        await page.getByTestId('pending-tile').tap({ force: true, position: await freePoint(page) });
        await page.waitForTimeout(100);
        const after = await page.getByTestId('pending-tile').getAttribute('href');
        const only = await page.locator('.toast', { hasText: 'only way' }).count();
        turnedByTap = before !== after || only > 0;
      }
      const spot = page.locator('[data-testid^="spot-"]').first();
      if (await spot.count()) {
        await spot.tap({ force: true });
        followerByTap ||= (await page.locator('.spot.chosen').count()) === 1;
      }
      const c = await page.getByTestId('confirm').boundingBox();
      confirmOnScreen &&= !!c && c.y >= 0 && c.y + c.height <= 844;
      neverScrolled &&= (await page.evaluate(() => window.scrollY)) === 0;
      if (turn === 2) await page.screenshot({ path: join(artifacts, 'phone-game-choosing.png') });
      await page.getByTestId('confirm').tap();
      await page.waitForFunction(() => !document.querySelector('[data-testid="pending-tile"]'));
      tappedTurns++;
    }
    check(tappedTurns === 5, `#1 phone: ${tappedTurns} turns played by tapping a square, then "Place tile"`);
    check(confirmOnScreen && neverScrolled, '#1 phone: "Place tile" was on screen every time, with no scrolling between choosing the place and confirming');
    check(turnedByTap, '#1 phone: tapping the tile turns it');
    check(followerByTap, '#1 phone: tapping a circle puts a follower there');
    // two fingers spread apart on the board zoom in (touch events through the DevTools protocol)
    await waitMine(page);
    const tileW = async () => (await page.locator('use.placed').first().boundingBox()).width;
    const w0 = await tileW();
    const cdp = await ctx.newCDPSession(page);
    const b = await page.getByTestId('board').boundingBox();
    const cx = b.x + b.width / 2, cy = b.y + b.height / 2;
    const touch = (type, d) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x: cx - d, y: cy, id: 1 }, { x: cx + d, y: cy, id: 2 }] });
    await touch('touchStart', 30);
    for (const d of [45, 60, 75, 90]) await touch('touchMove', d);
    await touch('touchEnd', 0);
    const w1 = await tileW();
    check(w1 > w0 * 1.8, `phone: pinching zooms the board (tiles ${Math.round(w0)} -> ${Math.round(w1)} px)`);
    await page.getByTestId('zoom-fit').tap();
    o = await overflowing(page);
    check(!o.scrollX && o.out.length === 0, `#1 phone game: nothing sticks out sideways${o.out.length ? ` (${o.out.join(', ')})` : ''}`);
    check(await page.getByTestId('scores-strip').isVisible(), 'phone: the scores are shown under the board');
    await waitMine(page);
    const gameAxe = await axe(page);
    check(gameAxe.length === 0, `axe: no serious or critical violations on the game screen (phone)${gameAxe.length ? ': ' + JSON.stringify(gameAxe) : ''}`);
    await page.screenshot({ path: join(artifacts, 'phone-game.png') });
    await page.screenshot({ path: join(artifacts, 'phone-game-full.png'), fullPage: true });

    // ---- phone: the end of a full game (a record reopened 8 tiles before the end) --------
    const rec = editRecord(simulatedRecord(bin, 11), ['Player 1', 'Computer'], 63);
    await page.goto(url);
    await page.locator('input[type=file]').setInputFiles({ name: 'late.json', mimeType: 'application/json', buffer: Buffer.from(rec) });
    await page.getByTestId('upload-open').tap();
    await page.waitForURL(/#\/game\//);
    let endTurns = 0, endOk = true, endWide = [], endCellPx = Infinity;
    for (let i = 0; i < 12; i++) {
      try {
        await waitMine(page, 30000);
      } catch {
        break;  // the game is over
      }
      const cell = await page.evaluate(() => {
        const box = document.querySelector('[data-testid="board"]').getBoundingClientRect();
        for (const c of document.querySelectorAll('[data-testid^="cell-"]')) {
          const r = c.getBoundingClientRect();
          if (r.left >= box.left && r.top >= box.top && r.right <= box.right && r.bottom <= box.bottom) return { id: c.getAttribute('data-testid'), w: r.width };
        }
        return null;
      }).then((c) => {
        // measured in the same moment as found (the squares may be drawn again right after)
        if (c) endCellPx = Math.min(endCellPx, c.w);
        return c?.id ?? null;
      });
      endOk &&= cell !== null;
      await page.getByTestId(cell ?? (await page.locator('[data-testid^="cell-"]').first().getAttribute('data-testid'))).tap({ force: true });
      await page.getByTestId('pending-tile').waitFor();
      const c = await page.getByTestId('confirm').boundingBox();
      endOk &&= !!c && c.y + c.height <= 844 && (await page.evaluate(() => window.scrollY)) === 0;
      const ov = await overflowing(page);
      if (ov.scrollX || ov.out.length) endWide = ov.out;
      await page.getByTestId('confirm').tap();
      await page.waitForFunction(() => !document.querySelector('[data-testid="pending-tile"]'));
      endTurns++;
    }
    await page.getByTestId('final-scoring').waitFor({ timeout: 30000 });
    check(endTurns >= 3 && endOk, `#1 phone: the last ${endTurns} turns of a game were played by tapping a square on screen, "Place tile" in view without scrolling`);
    // (#39: the fitted board fills the width, so a wide board has smaller squares; pinch to zoom)
    check(endCellPx >= 20, `#1 phone: late in the game the squares to tap are still ${Math.round(endCellPx)} px (at least 20)`);
    check(endWide.length === 0, `#1 phone: nothing stuck out sideways at the end of the game${endWide.length ? ` (${endWide.join(', ')})` : ''}`);
    await page.getByTestId('winner').waitFor({ timeout: 60000 });
    const card = await page.locator('.final-card').boundingBox();
    const close = await page.getByTestId('final-close').boundingBox();
    check(card.x >= 0 && card.x + card.width <= 390 && close && close.y + close.height <= 844, '#1 phone: the final scoring fits the screen, "Close" in reach');
    await page.screenshot({ path: join(artifacts, 'phone-final.png') });
    await page.getByTestId('final-close').tap();
    await page.screenshot({ path: join(artifacts, 'phone-game-over.png') });
    await ctx.close();
  }

  // ---- desktop -----------------------------------------------------------------------------
  console.log('players: a desktop (1280x800)');
  const { ctx, page } = await pageWith(browser, DESKTOP, errors);
  await page.goto(url);
  await page.getByTestId('play-vs-ai').waitFor();
  const lobbyAxe = await axe(page);
  check(lobbyAxe.length === 0, `axe: no serious or critical violations in the lobby (desktop)${lobbyAxe.length ? ': ' + JSON.stringify(lobbyAxe) : ''}`);
  await page.screenshot({ path: join(artifacts, 'desktop-lobby.png') });
  // a hot-seat game from a record with no turns yet: the same tiles come every run
  const finished = simulatedRecord(bin, 7);
  const upload = async (text, mode, name) => {
    await page.goto(url);
    await page.locator('input[type=file]').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.getByTestId('upload-mode').selectOption(mode);
    await page.getByTestId('upload-open').click();
  };
  await upload(editRecord(finished, ['Ann', 'Ben'], 0), 'continue', 'new.json');
  await page.waitForURL(/#\/game\//);
  await waitMine(page);

  // #3: a double click on a square puts the tile there and nothing more
  const firstCell = page.locator('[data-testid^="cell-"]').first();
  await firstCell.dblclick();
  await page.getByTestId('pending-tile').waitFor();
  check(await page.locator('.spot.chosen').count() === 0, '#3: a double click on a square places no follower');
  const href = await page.getByTestId('pending-tile').getAttribute('href');
  // where the first click turns the tile, follower circles may appear under the second click
  await page.getByTestId('pending-tile').dblclick({ force: true, position: await freePoint(page) });
  check(await page.locator('.spot.chosen').count() === 0, `#3: a double click on the tile turns it without placing a follower (${href} -> ${await page.getByTestId('pending-tile').getAttribute('href')})`);

  // keyboard play: Escape, arrows, R, F, Enter
  await page.keyboard.press('Escape');
  check(await page.getByTestId('pending-tile').count() === 0, 'keyboard: Escape takes the tile back');
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('ArrowRight');
  await page.getByTestId('pending-tile').waitFor();
  check(true, 'keyboard: an arrow key puts the tile on a highlighted square');
  const r0 = await page.getByTestId('pending-tile').getAttribute('href');
  await page.keyboard.press('r');
  const r1 = await page.getByTestId('pending-tile').getAttribute('href');
  check(r0 !== r1 || await page.locator('.toast', { hasText: 'only way' }).count() > 0, `keyboard: R turns the tile (${r0} -> ${r1})`);
  // the turn buttons work from the keyboard and keep the focus
  await page.getByTestId('rotate').focus();
  await page.keyboard.press('Enter');
  check(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')) === 'rotate', 'keyboard: the turn button keeps the focus after turning the tile');
  await page.evaluate(() => document.activeElement?.blur());  // Enter on a button presses it; on the page it places the tile
  await page.keyboard.press('f');
  const spots = await page.locator('[data-testid^="spot-"]').count();
  check(spots === 0 || await page.locator('.spot.chosen').count() === 1, 'keyboard: F chooses a follower spot');
  await page.evaluate(() => {
    window.__flashed = false;
    new MutationObserver(() => { if (document.querySelector('[data-testid="flash"]')) window.__flashed = true; })
      .observe(document.querySelector('[data-testid="board"]'), { childList: true, subtree: true });
  });
  const turnText = await page.getByTestId('tiles-left').textContent();
  await page.keyboard.press('Enter');
  await page.waitForFunction((t) => document.querySelector('[data-testid="tiles-left"]')?.textContent !== t, turnText);
  check(true, 'keyboard: Enter places the tile');

  // play on, by clicks, until something has scored; check the breakdown, the track, the moves
  let scored = false;
  for (let i = 0; i < 40 && !scored; i++) {
    await waitMine(page);
    await page.getByTestId('zoom-fit').click();
    await page.locator('[data-testid^="cell-"]').first().click();
    await page.getByTestId('pending-tile').waitFor();
    for (const kind of ['road', 'city', 'monastery']) {
      const s = page.locator(`[data-testid^="spot-"][data-kind="${kind}"]`).first();
      if (await s.count()) { await s.click({ force: true }); break; }
    }
    await page.getByTestId('confirm').click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="pending-tile"]'));
    await waitMine(page);
    scored = (await page.evaluate(() => [...document.querySelectorAll('[data-testid^="score-"]')].some((e) => Number(e.textContent) > 0)));
  }
  check(scored, 'points were scored in the first turns');
  check(await page.evaluate(() => window.__flashed), 'what just happened: the scored tile flashed on the board');
  const sums = await page.evaluate(() => {
    const t = document.querySelector('.side [data-testid="breakdown"]');
    return [...t.querySelectorAll('td.total')].map((td) => {
      const p = td.getAttribute('data-player');
      return { parts: [...t.querySelectorAll(`td[data-cat][data-player="${p}"]`)].reduce((a, x) => a + Number(x.textContent), 0), total: Number(td.textContent) };
    });
  });
  const scoresNow = await page.$$eval('[data-testid^="score-"]', (els) => els.map((e) => Number(e.textContent)));
  check(sums.length === 2 && sums.every((s, i) => s.parts === s.total && s.total === scoresNow[i]), `the points by kind add up to each score (${JSON.stringify(sums)})`);
  check(await page.locator('.side [data-testid="breakdown"] th[data-cat]').allTextContents().then((t) => ['Roads', 'Cities', 'Monasteries', 'Fields'].every((c) => t.includes(c))), 'the breakdown has roads, cities, monasteries and fields');
  const track = await page.locator('[data-testid="points-track"] circle[data-player]').evaluateAll((cs) => cs.map((c) => Number(c.getAttribute('data-score'))));
  check(track.length === 2 && track.every((s, i) => s === scoresNow[i]), `the score track shows both markers at the scores (${track.join(', ')})`);
  const moves = await page.getByTestId('moves').innerText();
  check(/Ann placed a tile with/.test(moves) && /Ben placed a tile with/.test(moves), 'what just happened: the recent moves are told in words, both players');
  check(await page.locator('.player-last').count() + await page.locator('.last-move').count() >= 2, "what just happened: each player's last tile is outlined in their colour");
  const side = await page.locator('.side').innerText() + await page.locator('.turnbar').innerText();
  check(!INTERNAL.test(side), `#5: no internal data in the side panel${INTERNAL.test(side) ? ': ' + side.match(INTERNAL)[0] : ''}`);
  check(!SYMBOLS.test(await page.locator('body').innerText()), '#10: no emoji or media symbols in the text (icons are SVG)');
  check(await page.locator('button:has(svg.icon)').evaluateAll((bs) => bs.every((b) => (b.getAttribute('aria-label') || b.textContent.trim()) && (b.title || b.textContent.trim()))), '#10: every icon button has a name and a tooltip');

  // #6: the top-bar buttons stay readable on hover
  const link = page.getByTestId('download-record');
  await link.hover();
  const [fg, bg] = await link.evaluate((e) => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]);
  const topbarBg = await page.locator('.topbar').evaluate((e) => getComputedStyle(e).backgroundColor);
  const under = /rgba\(0, 0, 0, 0\)|transparent/.test(bg) ? topbarBg : bg;
  check(contrast(fg, under) >= 4.5, `#6: a hovered top-bar button is readable (contrast ${contrast(fg, under).toFixed(1)}:1)`);

  // the rules help: from the top bar and from the situation
  await page.getByTestId('help-open').click();
  await page.getByTestId('help').waitFor();
  const helpText = await page.getByTestId('help').innerText();
  check(/2 points per tile and 2 per pennant/.test(helpText) && /9 points/.test(helpText) && /3 points for every completed city/.test(helpText), 'rules help: what roads, cities, monasteries and fields score');
  await page.keyboard.press('Escape');
  check(await page.getByTestId('help').count() === 0, 'rules help: Escape closes it');
  await page.locator('.side .help-btn[data-help="roads"]').click();
  check(await page.locator('.help-section.current').getAttribute('data-section') === 'roads', 'rules help: the "?" by the points opens at what each feature scores');
  await page.getByTestId('help-close').click();

  // reduced motion: placements animate only for players who did not ask for less motion (the
  // animation of each tile put on the board is recorded as it appears)
  await page.evaluate(() => {
    window.__anims = [];
    new MutationObserver((muts) => {
      for (const m of muts) for (const n of m.addedNodes)
        if (n instanceof Element && n.classList.contains('just-placed')) window.__anims.push(getComputedStyle(n).animationName);
    }).observe(document.querySelector('[data-testid="board"]'), { childList: true, subtree: true });
  });
  const playPlain = async () => {
    await waitMine(page);
    await page.evaluate(() => { window.__anims = []; });
    await page.locator('[data-testid^="cell-"]').first().click();
    await page.getByTestId('confirm').click();
    await page.waitForFunction(() => window.__anims.length >= 1);
    return page.evaluate(() => window.__anims[0]);
  };
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  const anim = await playPlain();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const still = await playPlain();
  check(anim === 'tiledrop' && still === 'none', `animations: a placed tile drops in (${anim}), and not with prefers-reduced-motion (${still})`);
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await waitMine(page);

  const gameAxe = await axe(page);
  check(gameAxe.length === 0, `axe: no serious or critical violations on the game screen (desktop)${gameAxe.length ? ': ' + JSON.stringify(gameAxe) : ''}`);
  await page.screenshot({ path: join(artifacts, 'desktop-game.png') });

  // #2 readability: followers stay readable when zoomed out
  // zoomed out to tiles of about 50 px (the issue saw 12 px followers on 50-70 px tiles)
  const tilePx = async () => (await page.locator('use.placed').first().boundingBox()).width;
  // the zoom the view settles at (a new turn may refit the board), then zoom in or out to 40-60 px tiles
  const settled = async () => {
    let a = await tilePx();
    for (let i = 0; i < 20; i++) {
      await page.waitForTimeout(150);
      const b = await tilePx();
      if (Math.abs(a - b) < 0.5) return b;
      a = b;
    }
    return a;
  };
  for (let i = 0; i < 12; i++) {
    const px = await settled();
    if (px > 60) await page.getByTestId('zoom-out').click();
    else if (px < 40) await page.getByTestId('zoom-in').click();
    else break;
  }
  await settled();
  const m = await page.locator('[data-follower]').evaluateAll((els) => Math.min(...els.map((e) => Math.max(e.getBoundingClientRect().width, e.getBoundingClientRect().height))));
  check(Number.isFinite(m) && m >= 18, `#2: on ${Math.round(await tilePx())} px tiles a follower is ${Math.round(m)} px (at least 18)`);
  const pennantFill = await page.evaluate(() => document.querySelector('.pennant')?.getAttribute('fill') ?? 'none');
  check(!['#1e88e5', '#1565c0'].includes(pennantFill), `#2: pennants are not in a player's colour (${pennantFill})`);
  // the table under the tiles is not beige like the cities: its hue is far from tan's (about 35 degrees)
  const bgFill = await page.evaluate(() => document.querySelector('pattern#grass rect')?.getAttribute('fill') ?? '');
  const hue = (hex) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
    const mx = Math.max(r, g, b), mn = Math.min(r, g, b), d = mx - mn;
    if (!d) return -1;
    const hh = mx === r ? ((g - b) / d) % 6 : mx === g ? (b - r) / d + 2 : (r - g) / d + 4;
    return (hh * 60 + 360) % 360;
  };
  const bgHue = hue(bgFill);
  check(bgHue >= 150 && bgHue <= 260, `#2: the board's background (${bgFill}, hue ${Math.round(bgHue)}) stands apart from tan cities`);
  await page.getByTestId('zoom-fit').click();

  // #9: hot-seat names the player, not "you"
  await page.goto(url);
  await page.getByTestId('play-hot-seat').click();
  await page.waitForURL(/#\/game\//);
  await waitMine(page);
  check(/Ann's tile/.test(await page.locator('.drawn-title').textContent()), `#9 hot-seat: the tile box says "Ann's tile" (${await page.locator('.drawn-title').textContent()})`);
  const labels = await page.locator('[data-testid^="seat-label-"]').allTextContents();
  check(labels.every((l) => !/^you$/.test(l)), `#9 hot-seat: no seat is labelled "you" (${labels.join(' | ')})`);

  // #4 and copy link: a friend's seat, the host's default name, the link on the clipboard
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url.replace(/\/$/, '') });
  await page.goto(url);
  await page.getByLabel('Player 2 kind').selectOption('remote');
  check(await page.getByLabel('Player 1 name').inputValue() !== 'You' && await page.getByLabel('Player 2 name').inputValue() === 'Friend', '#4: the host is not called "You" by default; the friend\'s seat is "Friend"');
  await page.getByTestId('create-game').click();
  await page.waitForURL(/#\/game\//);
  await page.getByTestId('copy-link-1').click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  check(copied === await page.locator('.invites input').inputValue() && /#\/game\/[a-z0-9]+\/[0-9a-f]{32}$/.test(copied), 'copy link: the join link is on the clipboard');

  // #7 final scoring of a finished game: "Show all" goes away, one winner line
  await upload(editRecord(finished, ['Ann', 'Ben']), 'continue', 'finished.json');
  await page.waitForURL(/#\/game\//);
  await page.getByTestId('show-final').click();
  await page.getByTestId('final-skip').click();
  check(await page.getByTestId('winner').count() === 1 && await page.getByTestId('final-skip').count() === 0, '#7: "Show all" shows everything once and goes away');
  await page.getByTestId('final-close').click();
  await page.getByTestId('show-final').click();
  await page.getByTestId('winner').waitFor({ timeout: 60000 });
  await page.waitForTimeout(300);
  check(await page.getByTestId('winner').count() === 1 && await page.getByTestId('final-skip').count() === 0, '#7: after the animation "Show all" is gone and there is one winner line');
  const fb = await page.locator('[data-testid="final-scoring"] [data-testid="breakdown"] td.total').allTextContents();
  const finalScores = await page.$$eval('[data-testid^="score-"]', (els) => els.map((e) => e.textContent));
  check(fb.length === 2 && fb.every((t, i) => t === finalScores[i]), `the final scoring shows the points by kind and each total (${fb.join(', ')})`);
  await page.screenshot({ path: join(artifacts, 'desktop-final.png') });
  await page.getByTestId('final-close').click();

  // #8 a reopened game against the computer: the computer keeps its seat, the board is fitted
  await upload(editRecord(finished, ['Player 1', 'Computer'], 20), 'continue', 'vs-computer.json');
  await page.waitForURL(/#\/game\//);
  await waitMine(page);
  check(/^Computer \(/.test(await page.getByTestId('seat-label-1').textContent()), '#8: the reopened game keeps the computer in its seat');
  const fitted = await page.evaluate(() => {
    const b = document.querySelector('[data-testid="board"]').getBoundingClientRect();
    return [...document.querySelectorAll('use.placed')].every((u) => { const r = u.getBoundingClientRect(); return r.left >= b.left - 1 && r.top >= b.top - 1 && r.right <= b.right + 1 && r.bottom <= b.bottom + 1; });
  });
  check(fitted, '#8: the reopened board is fitted: every tile on screen');
  await page.locator('[data-testid^="cell-"]').first().click();
  await page.getByTestId('confirm').click();
  await page.waitForFunction(() => /turn 23$/.test(document.querySelector('[data-testid="tiles-left"]')?.textContent || ''), null, { timeout: 30000 });
  check(true, '#8: the computer answers in the reopened game');
  await upload(editRecord(finished, ['Ann', 'Ben']), 'view', 'view.json');
  await page.waitForURL(/#\/replay\//);
  await page.getByTestId('replay-next').waitFor();
  await page.waitForFunction(() => /Turn (\d+) of \1$/.test(document.querySelector('.side .status')?.textContent || ''));
  check(true, '#8: "only view it" opens the record at its end');
  const replayMove = await page.getByTestId('replay-move').textContent();
  check(!INTERNAL.test(replayMove) && /placed a tile with/.test(replayMove), `#5: the replay tells the move in words (${replayMove})`);
  await ctx.close();
}
