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
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

    await ctx.close();
  }

}
