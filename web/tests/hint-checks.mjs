// "Suggest a move" and the lobby's levels (issue #19), in Chromium: on a phone (390x844, touch)
// the button is on screen and big enough to tap, shows a loading state, then the top moves in
// words with the chance to win and the expected score difference; "Show" puts the suggested
// tile on the board as the tile being placed, and "Place tile" plays it. On a desktop the same
// by keyboard alone; a second request at once shows the rate limit's error; a game with a friend
// has no hints unless enabled at creation; the lobby's levels show their strength (or "not yet
// calibrated"), and its "allow hints" box follows the seats. axe-core stays clean.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };
// Internal names players must not see (tile ids, raw location codes).
const INTERNAL = /\b[A-Z]{1,2}@\d\b|\bFB\d\d\b|\btile [A-Z]\b|\brot \d|follower on (N|E|S|W|[NESW][nesw]|C)\b/;

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

async function pageWith(browser, opts, errors) {
  const ctx = await browser.newContext(opts);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error' && !/status of 429/.test(m.text())) errors.push(m.text()); });
  return { ctx, page };
}

const waitMine = (page, timeout = 30000) => page.locator('[data-testid^="cell-"]').first().waitFor({ timeout });

export async function hintChecks(browser, url, errors, { check, artifacts }) {
  // ---- phone: the lobby's levels and the hints box ------------------------------------------
  console.log('hints: a phone (390x844, touch)');
  {
    const { ctx, page } = await pageWith(browser, PHONE, errors);
    await page.goto(url);
    await page.getByTestId('play-vs-ai').waitFor();
    await page.getByTestId('level-strength').waitFor();
    const options = await page.locator('[aria-label="Player 2 strength"] option').allTextContents();
    await page.getByTestId('level-strength').locator('summary').tap();
    const strengths = await page.getByTestId('level-strength').locator('li').allTextContents();
    const rated = /: (not yet measured|Elo ≈ \d+ \(± \d+\), measured over \d+ games)\./;
    check(options.length >= 3 && strengths.length === options.length && strengths.every((s) => rated.test(s)),
      `lobby: each level shows its measured strength or "not yet measured" on demand (${strengths.map((s) => s.split('.')[0]).join(' | ')})`);
    check(await page.getByTestId('allow-hints').isChecked(), 'lobby: hints are on by default against the computer');
    await page.getByLabel('Player 2 kind').selectOption('remote');
    check(!(await page.getByTestId('allow-hints').isChecked()), 'lobby: hints are off by default with a friend');
    await page.getByLabel('Player 2 kind').selectOption('ai');
    check(await page.getByTestId('allow-hints').isChecked(), 'lobby: ... and on again without one');

    await page.getByTestId('play-vs-ai').tap();
    await page.waitForURL(/#\/game\//);
    await waitMine(page);
    const btn = page.getByTestId('hint');
    const box = await btn.boundingBox();
    check(box && box.x >= 0 && box.x + box.width <= 390 && box.height >= 44, `phone: "Suggest a move" is on screen and at least 44 px tall (${box ? Math.round(box.height) : 'none'})`);
    // a slow answer shows the loading state
    let release;
    const held = new Promise((r) => { release = r; });
    await page.route('**/hint', async (route) => { await held; await route.continue(); });
    await btn.tap();
    await page.getByTestId('hint-result').filter({ hasText: 'Thinking about your move' }).waitFor({ timeout: 5000 });
    check(await btn.isDisabled() && (await btn.getAttribute('aria-busy')) === 'true', 'phone: while the hint loads, the button is busy and says so');
    const answer = page.waitForResponse((r) => r.url().endsWith('/hint'));
    release();
    const hint = await (await answer).json();
    await page.getByTestId('hint-list').waitFor({ timeout: 20000 });
    await page.unroute('**/hint');
    const items = await page.locator('[data-testid^="hint-move-"]').allTextContents();
    check(items.length >= 1 && items.length <= 3, `phone: the hint lists the top moves (${items.length})`);
    check(items.every((t) => /\d+% to win, final margin [+−]\d+\.\d points/.test(t)), `phone: each with the chance to win and the score difference (${items[0]})`);
    check(items.every((t) => !INTERNAL.test(t)), `phone: in words, no internal names (${items.join(' | ')})`);
    const hintAxe = await axe(page);
    check(hintAxe.length === 0, `axe: no serious or critical violations with a hint shown (phone)${hintAxe.length ? ': ' + JSON.stringify(hintAxe) : ''}`);
    await page.screenshot({ path: join(artifacts, 'phone-hint.png') });
    await page.getByTestId('hint-show-0').tap();
    await page.getByTestId('pending-tile').waitFor({ timeout: 5000 });
    check(await page.getByTestId('confirm').isEnabled(), 'phone: "Show" puts the suggested tile on the board, ready to place');
    const before = await page.evaluate(() => document.querySelectorAll('use.placed').length);
    await page.getByTestId('confirm').tap();
    await page.waitForFunction((n) => document.querySelectorAll('use.placed').length > n, before, { timeout: 10000 });
    const game = await page.evaluate(async () => (await fetch(`/api/games/${location.hash.split('/')[2]}`)).json());
    const mv = hint.moves[0].move;
    const placed = game.board.some((t) => t.x === mv.x && t.y === mv.y);
    const follower = !mv.follower || game.followers.some((f) => f.x === mv.x && f.y === mv.y && f.at === mv.follower) ||
      game.events.some((e) => e.turn === 1 && e.player === 0);  // or it scored at once
    check(placed && follower, `phone: "Place tile" plays exactly the suggested move (${JSON.stringify(mv)})`);
    await ctx.close();
  }

  // ---- desktop: by keyboard, the rate limit's error, a game with a friend -----------------
  console.log('hints: a desktop (1280x800, keyboard)');
  {
    const { ctx, page } = await pageWith(browser, DESKTOP, errors);
    // a calibrated level (the server's answer changed on its way) shows its rating and interval
    await page.route('**/api/players', async (route) => {
      try {
        const r = await route.fetch();
        const j = await r.json();
        j.level_details[0] = { ...j.level_details[0], elo: 1510.4, elo_low: 1475, elo_high: 1545, games: 400 };
        await route.fulfill({ response: r, json: j });
      } catch {
        /* the page went on (unroute, navigation) while this answer was on its way: nothing to change */
      }
    });
    await page.goto(url);
    await page.getByTestId('level-strength').waitFor();
    const first = await page.getByTestId('level-strength').locator('li', { hasText: 'Elo ≈ 1510' }).textContent();
    check(/: Elo ≈ 1510 \(± 35\), measured over 400 games\./.test(first), `lobby: a calibrated level shows "Elo ≈ N (± M)" (${first})`);
    await page.unroute('**/api/players');
    await page.goto(url);
    await page.getByTestId('play-hot-seat').waitFor();
    await page.getByTestId('play-hot-seat').click();
    await page.waitForURL(/#\/game\//);
    await waitMine(page);
    await page.getByTestId('hint').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('hint-list').waitFor({ timeout: 20000 });
    check(true, 'desktop: Enter on the focused "Suggest a move" asks for a hint (hot-seat: hints on)');
    await page.getByTestId('hint-show-0').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('pending-tile').waitFor({ timeout: 5000 });
    check(true, 'desktop: Enter on "Show" puts the suggested tile on the board');
    // at once again: the server's rate limit, shown as an error in the box
    await page.getByTestId('hint').click();
    await page.getByTestId('hint-error').waitFor({ timeout: 10000 });
    const err = await page.getByTestId('hint-error').textContent();
    check(/one hint per player every/.test(err), `desktop: a refused hint says why (${err})`);
    await page.getByTestId('confirm').click();

    // a game with a friend, created without hints: the box says they are off, no button
    await page.goto(url);
    await page.getByTestId('create-game').waitFor();
    await page.getByLabel('Player 2 kind').selectOption('remote');
    await page.getByTestId('create-game').click();
    await page.waitForURL(/#\/game\//);
    await waitMine(page);
    check(await page.getByTestId('hint-off').isVisible() && (await page.getByTestId('hint').count()) === 0,
      'desktop: a game with a friend and no hints shows "Hints are off", no button');
    const offAxe = await axe(page);
    check(offAxe.length === 0, `axe: no serious or critical violations with hints off (desktop)${offAxe.length ? ': ' + JSON.stringify(offAxe) : ''}`);
    await page.goto(url);
    await page.locator('.games-table').waitFor();
    check((await page.locator('.games-table td', { hasText: '· hints' }).count()) >= 1, 'lobby: the games list says which games allow hints');
    await ctx.close();
  }
}
