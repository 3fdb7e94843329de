// End-to-end test in a real headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core): starts `carcassonne serve` on a free loopback port with a temporary
// database, opens the lobby, starts a game against the computer, places tiles and followers
// by clicking, checks that scores change, and saves a mid-game screenshot to
// web/test-artifacts/. Run: npm --prefix web test   (CARC_BIN=path/to/carcassonne to choose the binary)
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { hintChecks } from './hint-checks.mjs';
import { playerChecks } from './player-checks.mjs';
import { boardJumpCheck, fortuneWheelChecks, v3Checks } from './v3-checks.mjs';
import { tableChecks } from './table-checks.mjs';
import { budgetChecks } from './budget-checks.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const webDir = resolve(here, '..');
const repo = resolve(webDir, '..');
const bin = process.env.CARC_BIN ? resolve(process.env.CARC_BIN) : join(repo, 'build', 'carcassonne');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const artifacts = join(webDir, 'test-artifacts');
const dist = join(webDir, 'dist');

let failures = 0;
let passes = 0;
function check(cond, what) {
  if (cond) {
    passes++;
    console.log(`  ok   ${what}`);
  } else {
    failures++;
    console.log(`  FAIL ${what}`);
  }
}

function startServer(dbPath) {
  return new Promise((resolveStart, reject) => {
    // every browser of the tests is one client address (127.0.0.1): the per-client quotas on games
    // are raised so the many games of the suite fit (the quotas are the server tests' subject)
    const proc = spawn(bin, ['serve', '--port', '0', '--host', '127.0.0.1', '--db', dbPath, '--web', dist, '--ai-delay', '150',
      '--games-per-client', '500', '--ai-games-per-client', '200'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 15000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) {
        clearTimeout(timer);
        resolveStart({ proc, url: `http://127.0.0.1:${m[1]}/` });
      }
    });
    proc.stderr.on('data', (d) => process.stderr.write(`[server] ${d}`));
    proc.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

async function scores(page) {
  return page.$$eval('[data-testid^="score-"]', (els) => els.map((e) => Number(e.textContent)));
}

// Fruit-Bearing Trees, by clicking: a hot-seat game opened from a record file (seed 10 draws
// the tree tile FB03 first; the cherry stack's top token is worth 4). Ann puts the cherry
// stack on the new tree, places a follower, harvests the tree; later she sells the cherry.
// The test asks the API only where a fruit action is offered; everything is done by clicks.
const FRUIT_RECORD = {
  format: 'carcassonne-record/1',
  setup: {
    players: ['Ann', 'Ben'], tileset: 'base', expansions: ['fruit-trees'], seed: 10, draws: 'random',
    fruit_stacks: { apple: [5, 4, 3, 2], apricot: [5, 4, 3, 2], cherry: [4, 5, 3, 2], elder: [5, 4, 3, 2], plum: [5, 4, 3, 2], quince: [5, 4, 3, 2] },
  },
  turns: [],
};

async function fruitGame(browser, url, errors) {
  console.log('fruit-bearing trees: stack, harvest and sale by clicking');
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url);
  await page.getByTestId('play-vs-ai').waitFor();
  await page.locator('input[type=file]').setInputFiles({ name: 'fruit.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(FRUIT_RECORD)) });
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await page.waitForURL(/#\/game\//);
  const id = page.url().match(/#\/game\/([a-z0-9]+)/)[1];
  await page.getByTestId('fruit-panel').waitFor();
  const api = (path) => page.evaluate((p) => fetch(p).then((r) => r.json()), path);
  const view = () => api(`/api/games/${id}`);
  const legalMoves = () => api(`/api/games/${id}/legal`);
  // waits until the page offers the turn `turn` (legal squares shown)
  const waitTurn = async (turn) => {
    await page.waitForFunction((t) => new RegExp(`turn ${t}$`).test(document.querySelector('[data-testid="tiles-left"]')?.textContent || ''), turn);
    await page.locator('[data-testid^="cell-"]').first().waitFor();
  };
  // clicks the square of a placement and turns the tile until it has the placement's rotation
  const placeAt = async (pl) => {
    await page.locator('.zoom-buttons button').nth(2).click();  // fit: every square on screen
    await page.getByTestId(`cell-${pl.x}_${pl.y}`).click();
    await page.getByTestId('pending-tile').waitFor();
    for (let i = 0; i < 4; i++) {
      const href = await page.getByTestId('pending-tile').getAttribute('href');
      if (href.endsWith(`-${pl.rotation}`)) return true;
      await page.getByTestId('rotate').click();
    }
    return false;
  };
  const confirmMove = async () => {
    await page.getByTestId('confirm').click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="pending-tile"]'));
  };

  // Ann: the tree tile, the cherry stack, a follower, the harvest
  await waitTurn(1);
  let v = await view();
  let legal = await legalMoves();
  check(/^FB/.test(v.tile) && v.fruit && v.fruit.trees.length === 0, `the game opens with a tree tile to place (${v.tile})`);
  const tileBox = await page.locator('.turnbar').innerText();
  check(!/PROVISIONAL|FB\d\d|\(quince\)/.test(tileBox) && /a fruit tree/.test(tileBox), `#5: the tile box describes the tree tile in words, not the engine's note (${tileBox.replace(/\s+/g, ' ').slice(0, 90)})`);
  const treePl = legal.placements.find((p) => p.fruit_types && p.followers.length && p.fruit?.harvest.some((t) => t.new));
  check(!!treePl, 'the legal moves offer a harvest of the new tree');
  // issue #36: each stack's harvests are listed with the stack (cherry is not the default stack)
  check(treePl.fruit_types[0] !== 'cherry' && treePl.fruit.harvest.some((h) => h.new && h.type === 'cherry' && h.fruit_type === 'cherry'),
    `the legal moves list the new cherry tree's harvest with the cherry stack (${treePl.fruit.harvest.map((h) => `${h.fruit_type}:${h.type}`).join(' ')})`);
  check(await placeAt(treePl), `the tree tile is on (${treePl.x}, ${treePl.y}) turned ${treePl.rotation}`);
  await page.getByTestId('fruit-stack').selectOption('cherry');
  check(await page.getByTestId('pending-stack').getAttribute('data-testid') === 'pending-stack' &&
    (await page.getByTestId('pending-stack').locator('title').textContent()).startsWith('cherry'), 'the chosen cherry stack is drawn on the new tree');
  check(await page.getByTestId('fruit-needs-follower').count() === 1, 'without a follower the panel says a follower is needed for fruit');
  await page.getByTestId(`spot-${treePl.followers[0].at}`).click({ force: true });
  await page.getByTestId('fruit-action').waitFor();
  check(await page.getByTestId('fruit-none').isChecked(), 'the fruit action panel appears, "no fruit action" chosen first');
  check(/fruit action/.test(await page.getByTestId('status').textContent()), 'the status asks for a fruit action');
  const harvestLabel = await page.getByTestId('fruit-action').textContent();
  check(/Harvest the new\s+cherry tree \(4 left\)/.test(harvestLabel), `the panel offers to harvest the new cherry tree (${harvestLabel.slice(0, 80)}…)`);
  // exactly the options listed for the cherry stack: its new tree and the trees already in range (none yet)
  const shown = await page.locator('[data-testid^="fruit-harvest-"]').evaluateAll((xs) => xs.map((x) => x.getAttribute('data-testid')));
  const listed = treePl.fruit.harvest.filter((h) => h.fruit_type === 'cherry').map((h) => `fruit-harvest-${h.type}`);
  check(JSON.stringify(shown) === JSON.stringify(listed), `the panel shows exactly the harvests listed for the cherry stack (${shown.join(', ')})`);
  check(await page.locator('.harvest-spot').count() === listed.length, 'the board rings exactly those trees');
  await page.getByTestId('fruit-harvest-cherry').check();
  check(await page.locator('.harvest-spot.chosen').count() === 1, 'the tree to harvest is ringed on the board');
  await page.screenshot({ path: join(artifacts, 'fruit-choice.png') });
  const before = await scores(page);
  await confirmMove();
  await page.waitForFunction(() => document.querySelector('[data-testid="fruit-tree-cherry"]')?.getAttribute('data-left') === '3');
  const afterHarvest = await scores(page);
  check(afterHarvest[0] === before[0] + 4, `harvesting scores the cherry token's 4 (${before[0]} -> ${afterHarvest[0]})`);
  check(await page.getByTestId('fruit-tree-cherry').getAttribute('data-left') === '3', 'the board shows 3 tokens left on the cherry tree');
  check(await page.getByTestId('fruit-held-0').getAttribute('data-count') === '1' && /×1/.test(await page.getByTestId('fruit-held-0').textContent()),
    "Ann's row shows the cherry token she holds");
  check(/Ann harvests a cherry worth 4/.test(await page.getByTestId('log').textContent()), 'the log says "Ann harvests a cherry worth 4"');
  check(/cherry\s*3 left/.test(await page.getByTestId('fruit-trees').textContent()), 'the panel lists the cherry tree with 3 left');
  await page.screenshot({ path: join(artifacts, 'fruit-game.png') });

  // then plain moves until Ann may sell her cherry
  let soldAt = 0;
  for (let turn = 2; turn <= 16 && !soldAt; turn++) {
    await waitTurn(turn);
    v = await view();
    legal = await legalMoves();
    const sale = v.current_player === 0 && legal.placements.find((p) => p.followers.length && p.fruit?.sell.includes('cherry'));
    if (!sale) {
      const pl = legal.placements.find((p) => p.plain);
      await placeAt(pl);
      await confirmMove();
      continue;
    }
    await placeAt(sale);
    await page.getByTestId(`spot-${sale.followers[0].at}`).click({ force: true });
    await page.getByTestId('fruit-sell-cherry').check();
    check(await page.getByTestId('fruit-sell').isChecked(), 'ticking the cherry chooses the sale');
    check(/score 3 for cherry/.test(await page.getByTestId('fruit-outcome').textContent()), 'the panel shows the sale is worth 3');
    const s0 = (await scores(page))[0];
    await confirmMove();
    await page.waitForFunction(() => /Ann sells 1 fruit for 3/.test(document.querySelector('[data-testid="log"]')?.textContent || ''));
    const s1 = (await scores(page))[0];
    check(s1 >= s0 + 3, `selling one cherry scores 3 (${s0} -> ${s1})`);
    check(await page.getByTestId('fruit-held-0').count() === 0, 'Ann holds no token after the sale');
    check(await page.getByTestId('fruit-tree-cherry').getAttribute('data-left') === '3', 'the cherry tree still shows 3 tokens');
    soldAt = turn;
  }
  check(soldAt > 0, `Ann sold her cherry by clicking (turn ${soldAt})`);
  check(/Ann sells 1 fruit for 3/.test(await page.getByTestId('log').textContent()), 'the log says "Ann sells 1 fruit for 3"');
  await page.screenshot({ path: join(artifacts, 'fruit-game-sale.png') });
  await page.close();
}

// The Wheel of Fortune, by clicking: a hot-seat game opened from a record file (seed 1625: turn 1
// draws W, turn 2 U@2 moves the pig to the Famine, turn 3 U@2 to the Inquisition, turn 4 V@1
// to the Plague on Ben's turn). Ann puts her first follower on the Plague's crown
// space by clicking it on the wheel; both then put farmers on the land (farmers stay); on
// turn 4 the Plague asks Ben, then Ann (not the active player) to take a follower back, each
// by clicking a ringed follower; then Ann's crown follower scores 6 (alone on a two-space
// segment). The test asks the API only which placement to click.
const WHEEL_RECORD = {
  format: 'carcassonne-record/1',
  setup: { players: ['Ann', 'Ben'], tileset: 'wheel-of-fortune', expansions: [], seed: 1625, draws: 'random' },
  turns: [],
};

async function wheelGame(browser, url, errors) {
  console.log('wheel of fortune: crown space, the pig, the Plague by clicking');
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url);
  await page.getByTestId('play-vs-ai').waitFor();
  check(await page.getByTestId('tileset').locator('option[value="wheel-of-fortune"]').count() === 1, 'the lobby offers the Wheel of Fortune tile set');
  await page.locator('input[type=file]').setInputFiles({ name: 'wheel.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(WHEEL_RECORD)) });
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await page.waitForURL(/#\/game\//);
  const id = page.url().match(/#\/game\/([a-z0-9]+)/)[1];
  await page.getByTestId('wheel').waitFor();
  const api = (path) => page.evaluate((p) => fetch(p).then((r) => r.json()), path);
  const view = () => api(`/api/games/${id}`);
  const legalMoves = () => api(`/api/games/${id}/legal`);
  const waitTurn = async (turn) => {
    await page.waitForFunction((t) => new RegExp(`turn ${t}$`).test(document.querySelector('[data-testid="tiles-left"]')?.textContent || ''), turn);
    await page.locator('[data-testid^="cell-"]').first().waitFor();
  };
  const placeAt = async (pl) => {
    await page.locator('.zoom-buttons button').nth(2).click();
    await page.getByTestId(`cell-${pl.x}_${pl.y}`).click();
    await page.getByTestId('pending-tile').waitFor();
    for (let i = 0; i < 4; i++) {
      const href = await page.getByTestId('pending-tile').getAttribute('href');
      if (href.endsWith(`-${pl.rotation}`)) return true;
      await page.getByTestId('rotate').click();
    }
    return false;
  };
  const confirmMove = async () => {
    await page.getByTestId('confirm').click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="pending-tile"]'));
  };
  const supplyOf = async (i) => parseInt(await page.getByTestId(`player-${i}`).locator('.followers').textContent());
  const pigAt = () => page.getByTestId('pig').getAttribute('data-segment');
  const logText = async () => page.getByTestId('log').textContent();
  // a farmer (they stay on the land), else any follower on the tile
  const landMove = async (turn) => {
    await waitTurn(turn);
    const legal = await legalMoves();
    const pl = legal.placements[0];
    const m = pl.followers.find((x) => x.kind === 'field') ?? pl.followers[0];
    check(await placeAt(pl), `turn ${turn}: the tile is on (${pl.x}, ${pl.y}) turned ${pl.rotation}`);
    await page.getByTestId(`spot-${m.at}`).click({ force: true });
    await confirmMove();
    return m;
  };

  // the board: 16 cells as one board, the wheel with six segments, nine free crown spaces, the pig on Fortuna
  await waitTurn(1);
  check(await page.locator('use.placed').count() === 16, 'the wheel board is drawn: 16 cells');
  check(await page.locator('.wheel-seg').count() === 6, 'the wheel has 6 segments');
  check(await page.locator('[data-testid^="crown-crown-"]').count() === 9 && await page.locator('.crown.taken').count() === 0, 'the wheel shows 9 free crown spaces');
  check(await pigAt() === 'fortuna', 'the pig starts on Fortuna');
  check(/The pig is on\s*Fortuna/.test(await page.getByTestId('wheel-pig').textContent()), 'the wheel panel says the pig is on Fortuna');

  // turn 1, Ann: her follower on the Plague's crown space, by clicking it on the wheel
  let legal = await legalMoves();
  const pl1 = legal.placements[0];
  check(pl1.crowns.includes('crown:plague:0'), 'the legal moves offer the crown spaces');
  check(await placeAt(pl1), `turn 1: the tile is on (${pl1.x}, ${pl1.y})`);
  check(await page.locator('[data-testid^="spot-crown:"]').count() === 9, 'all 9 free crown spaces are ringed as follower spots');
  await page.getByTestId('spot-crown:plague:0').click({ force: true });
  check(/crown space of the Plague/.test(await page.locator('.drawn .choice').textContent()), 'the tile box says the follower goes on a crown space of the Plague');
  const supply0 = await supplyOf(0);
  // #11: the "the pig: ..." text over the board never covers the pig (sampled while it shows)
  await page.evaluate(() => {
    window.__pigCovered = 0;
    window.__pigTexts = 0;
    const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    new MutationObserver((muts) => {
      for (const m of muts) for (const n of m.addedNodes) {
        if (!(n instanceof Element) || !n.classList.contains('float-wheel')) continue;
        window.__pigTexts++;
        const t0 = performance.now();
        const poll = () => {
          if (!n.isConnected || performance.now() - t0 > 2400) return;
          if (hit(n.getBoundingClientRect(), document.querySelector('.pig').getBoundingClientRect())) window.__pigCovered++;
          requestAnimationFrame(poll);
        };
        poll();
      }
    }).observe(document.querySelector('[data-testid="board"]'), { childList: true, subtree: true });
  });
  await confirmMove();
  await page.waitForFunction(() => document.querySelector('[data-testid="crown-crown-plague-0"]')?.getAttribute('data-player') === '0');
  check(true, "Ann's follower stands on the Plague's crown space (drawn in her colour on the wheel)");
  check(await supplyOf(0) === supply0 - 1, `the crown follower comes from Ann's supply (${supply0} -> ${await supplyOf(0)})`);
  check(await page.getByTestId('crowns-held-0').getAttribute('data-count') === '1', "Ann's scoreboard row shows her follower on the wheel");
  let v = await view();
  check(v.wheel.segments[5].crowns[0].player === 0 && v.followers.length === 0, 'the server has her on crown:plague:0, nobody on the land');

  // turn 2, Ben: U@2 turns the wheel to the Famine; he puts a farmer on the land
  await waitTurn(2);
  await page.waitForFunction(() => document.querySelector('[data-testid="pig"]')?.getAttribute('data-segment') === 'famine');
  check(true, 'the pig turned to the Famine (U@2 drawn)');
  check(/The pig moves 2 to the Famine/.test(await logText()), 'the log says "The pig moves 2 to the Famine"');
  check(!/drawn by|\(tile |@\d/.test(await logText()) && !/drawn by|\(tile |@\d/.test(await page.locator('.side').innerText()),
    '#5: the wheel log and panel name no tile ids ("tile V@2 drawn by ...")');
  await landMove(2);
  // turn 3, Ann: U@2 to the Inquisition; a follower on the land
  await waitTurn(3);
  check(await pigAt() === 'inquisition', 'the pig turned on to the Inquisition (U@2)');
  await page.waitForTimeout(2500);  // the pig's turn and the floating texts settle
  const pigTexts = await page.evaluate(() => [window.__pigTexts, window.__pigCovered]);
  check(pigTexts[0] >= 1 && pigTexts[1] === 0, `#11: the pig's move is written beside the wheel, never over the pig (${pigTexts[0]} texts, ${pigTexts[1]} frames over it)`);
  await page.locator('.zoom-buttons button').nth(2).click();
  const numberPx = await page.evaluate(() => Math.max(0, ...[...document.querySelectorAll('.wheel-number')].map((t) => t.getBoundingClientRect().height)));
  check(numberPx >= 12, `#11: the pig numbers on tiles are readable (${numberPx.toFixed(1)} px tall at the fitted zoom)`);
  await page.screenshot({ path: join(artifacts, 'wheel-game.png') });
  await landMove(3);

  // turn 4, Ben's tile turns the wheel to the Plague: Ben, then Ann take back a follower
  await page.waitForFunction(() => /The Plague/.test(document.querySelector('[data-testid="status"]')?.textContent || ''));
  v = await view();
  check(v.phase === 'plague' && v.turn_player === 1 && v.current_player === 1, `the Plague: Ben (the active player) decides first (phase ${v.phase}, player ${v.current_player})`);
  check(await pigAt() === 'plague', 'the pig is on the Plague');
  check(/Ben: The Plague: take back one of your followers/.test(await page.getByTestId('status').textContent()), 'the status says why: "The Plague: take back one of your followers"');
  check(await page.getByTestId('plague-hint').count() === 1, 'the wheel panel explains the Plague');
  check(await page.locator('[data-testid^="cell-"]').count() === 0, 'no tile can be placed during the Plague');
  const benRings = page.locator('.plague-spot[data-player="1"]');
  check(await benRings.count() >= 1, `Ben's followers on the land are ringed (${await benRings.count()})`);
  const ringPx = (await benRings.first().locator('.plague-ring').boundingBox()).width;
  check(ringPx >= 40, `#2: the Plague's rings are large enough to see and tap (${Math.round(ringPx)} px across)`);
  await page.waitForTimeout(2500);  // the pig's turn and the floating texts settle
  await page.screenshot({ path: join(artifacts, 'wheel-plague.png') });
  const scoresBefore = await scores(page);
  const benSupply = await supplyOf(1);
  await benRings.first().click({ force: true });
  await page.waitForFunction(() => document.querySelector('.plague-spot[data-player="0"]'));
  check(await supplyOf(1) === benSupply + 1, `Ben's follower is back in his supply (${benSupply} -> ${await supplyOf(1)})`);
  v = await view();
  check(v.phase === 'plague' && v.current_player === 0 && v.turn_player === 1, 'then Ann decides, though it is Ben\'s turn');
  check(/Ann: The Plague: take back one of your followers/.test(await page.getByTestId('status').textContent()), 'the status asks Ann now');
  const annFollowers = v.followers.filter((f) => f.player === 0).length;
  await page.locator('.plague-spot[data-player="0"]').first().click({ force: true });
  // the Plague is over: the crown spaces of the Plague are scored, Ben places his tile
  await page.waitForFunction(() => /Ben, your turn/.test(document.querySelector('[data-testid="status"]')?.textContent || ''));
  v = await view();
  check(v.phase === 'place' && v.followers.filter((f) => f.player === 0).length === annFollowers - 1, "Ann's follower left the land");
  const scoresAfter = await scores(page);
  check(scoresAfter[0] === scoresBefore[0] + 6, `Ann's crown follower scores 6, alone on the Plague's two spaces (${scoresBefore[0]} -> ${scoresAfter[0]})`);
  check(await page.getByTestId('crown-crown-plague-0').getAttribute('data-player') === '-1', 'the crown space is free again');
  const log = await logText();
  check(/The pig moves 1 to the Plague/.test(log), 'the log says "The pig moves 1 to the Plague"');
  // where, in words from the start (not coordinates): "Ben takes back a knight in the city 1 east of the start for the Plague"
  const plagueLine = (who) => new RegExp(`${who} takes back an? [a-z ]+ (on the start square|\\d+ (north|south|east|west)[a-z0-9 ]* of the start) for the Plague`);
  check(plagueLine('Ben').test(log) && plagueLine('Ann').test(log) && !/\(-?\d+,-?\d+\)/.test(log), 'the log tells both Plague take-backs in words');
  check(/Ann scores 6 for a crown space of the Plague/.test(log), 'the log says "Ann scores 6 for a crown space of the Plague"');
  await page.waitForTimeout(2500);  // the pig's turn and the floating texts settle
  await page.screenshot({ path: join(artifacts, 'wheel-after-plague.png') });
  // and Ben places his tile
  await landMove(4);
  await waitTurn(5);
  check((await view()).turn === 4, 'Ben placed his tile after the Plague');

  // the replay names the crown space and the Plague's take-backs
  await page.goto(`${url}#/replay/${id}`);
  await page.getByTestId('replay-next').waitFor();
  await page.getByTestId('wheel').waitFor();
  await page.getByTestId('replay-next').click();
  await page.waitForFunction(() => /with a follower on a crown space of the Plague/.test(document.querySelector('[data-testid="replay-move"]')?.textContent || ''));
  check(true, 'the replay shows turn 1: "with a follower on a crown space of the Plague"');
  for (let i = 0; i < 3; i++) await page.getByTestId('replay-next').click();
  await page.waitForFunction(() => /the Plague took back/.test(document.querySelector('[data-testid="replay-move"]')?.textContent || ''));
  const replayLog = await page.locator('.log').textContent();
  check(/The pig moves 1 to the Plague/.test(replayLog) && /Ann scores 6 for a crown space of the Plague/.test(replayLog), 'the replay log tells the pig and the crown scoring');

  // a new game from the lobby form: the Wheel of Fortune against the computer
  await page.goto(url);
  await page.getByTestId('tileset').selectOption('wheel-of-fortune');
  await page.getByTestId('create-game').click();
  await page.waitForURL(/#\/game\//);
  await page.getByTestId('wheel').waitFor();
  const gid = page.url().match(/#\/game\/([a-z0-9]+)/)[1];
  const g = await api(`/api/games/${gid}`);
  check(g.tileset === 'wheel-of-fortune' && g.board.length === 16 && g.players[1].type === 'ai', 'the lobby form starts a Wheel of Fortune game against the computer');
  await page.locator('[data-testid^="cell-"]').first().waitFor();
  await page.locator('[data-testid^="cell-"]').first().click();
  await page.getByTestId('confirm').click();
  await page.waitForFunction(() => /turn [3-9]$|turn \d\d$/.test(document.querySelector('[data-testid="tiles-left"]')?.textContent || ''), null, { timeout: 30000 });
  check(true, 'the computer answered on the wheel board');
  await page.close();
}

async function main() {
  if (!existsSync(bin)) throw new Error(`no server binary at ${bin} (build it, or set CARC_BIN)`);
  if (!existsSync(join(dist, 'index.html'))) throw new Error('web/dist is missing: run npm --prefix web run build');
  mkdirSync(artifacts, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'carc-e2e-'));
  const { proc, url } = await startServer(join(tmp, 'e2e.sqlite'));
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  try {
    const errors = [];
    // E2E_ONLY=wheel|fruit runs one expansion's part only (quicker while working on it)
    const only = process.env.E2E_ONLY;
    if (only) {
      if (only === 'fruit') await fruitGame(browser, url, errors);
      else if (only === 'wheel') await wheelGame(browser, url, errors);
      else if (only === 'players') await playerChecks(browser, url, errors, { check, artifacts, bin, repo });
      else if (only === 'hints') await hintChecks(browser, url, errors, { check, artifacts });
      else if (only === 'v3') await v3Checks(browser, url, errors, { check, artifacts, bin });
      else if (only === 'table') await tableChecks(browser, url, errors, { check, artifacts });
      else if (only === 'fortune') { await fortuneWheelChecks(browser, url, errors, check, artifacts); await boardJumpCheck(browser, url, errors, check); }
      else if (only === 'budget') await budgetChecks(browser, url, errors, { check });
      else throw new Error(`E2E_ONLY: unknown part '${only}' (fruit, wheel, players, hints, v3, table, budget)`);
      check(errors.length === 0, `no errors in the page${errors.length ? ': ' + errors.join(' | ') : ''}`);
      console.log(`${passes} passed, ${failures} failed`);
      process.exitCode = failures ? 1 : 0;
      return;
    }
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });

    console.log('lobby');
    await page.goto(url);
    await page.getByTestId('play-vs-ai').waitFor();
    check(await page.title() === 'Carcassonne', 'the lobby page opens');

    console.log('game against the computer');
    await page.getByTestId('play-vs-ai').click();
    await page.waitForURL(/#\/game\//);
    await page.locator('use.placed').first().waitFor();
    check((await page.locator('use.placed').count()) >= 1, 'the start tile is drawn on the board');

    let offscreen = 0;
    let myMoves = 0, followersPlaced = 0, sawThinking = false, rotated = false, undone = false;
    let firstScores = await scores(page);
    let scoreChanged = false;
    const deadline = Date.now() + 150000;
    while (myMoves < 40 && Date.now() < deadline) {
      const status = page.getByTestId('status');
      // wait for our turn (the computer moves in between, with a visible "thinking" state)
      const text = await status.textContent();
      if (/thinking/.test(text || '')) sawThinking = true;
      if (/Game over/.test(text || '')) break;
      try {
        await page.locator('[data-testid^="cell-"]').first().waitFor({ timeout: 3000 });
      } catch {
        continue;
      }
      // a highlighted square that is on screen (the board keeps them in view)
      const id = await page.evaluate(() => {
        const box = document.querySelector('[data-testid="board"]').getBoundingClientRect();
        for (const c of document.querySelectorAll('[data-testid^="cell-"]')) {
          const r = c.getBoundingClientRect();
          if (r.left >= box.left && r.top >= box.top && r.right <= box.right && r.bottom <= box.bottom) return c.getAttribute('data-testid');
        }
        return null;
      });
      if (id === null) offscreen++;
      if (!id) await page.locator('.zoom-buttons button').nth(2).click();
      await page.getByTestId(id || (await page.locator('[data-testid^="cell-"]').first().getAttribute('data-testid'))).click();
      await page.getByTestId('pending-tile').waitFor();
      if (!rotated) {
        // rotating keeps the tile on its square (it may be the only fitting rotation)
        await page.getByTestId('rotate').click();
        rotated = (await page.getByTestId('pending-tile').count()) === 1;
      }
      // a follower: prefer a city, then a road, a monastery, a field
      const supplyBefore = await page.getByTestId('player-0').locator('.followers').textContent();
      const scoreBefore = (await scores(page))[0];
      let placedFollower = false;
      for (const kind of ['city', 'road', 'monastery', 'field']) {
        const spot = page.locator(`[data-testid^="spot-"][data-kind="${kind}"]`).first();
        if (await spot.count()) {
          await spot.click({ force: true });
          placedFollower = true;
          break;
        }
      }
      await page.getByTestId('confirm').click();
      myMoves++;
      if (process.env.E2E_DEBUG) console.log('   move', myMoves, placedFollower, await page.locator('.toast').allTextContents(), await page.getByTestId('status').textContent());
      // the turn has passed to the computer (or the game is over)
      await page.waitForFunction(() => !document.querySelector('[data-testid="pending-tile"]'));
      if (placedFollower) {
        followersPlaced++;
        if (followersPlaced === 1) {
          const supplyAfter = await page.getByTestId('player-0').locator('.followers').textContent();
          // (a follower on a feature the tile completes comes back at once, with points)
          const scoredNow = (await scores(page))[0] > scoreBefore;
          check(parseInt(supplyAfter) === parseInt(supplyBefore) - 1 || parseInt(supplyAfter) < 7 || scoredNow,
            `placing a follower by clicking uses one up (${supplyBefore} -> ${supplyAfter}${scoredNow ? ', scored and came back' : ''})`);
        }
      }
      if (myMoves === 2 && !undone) {
        // undo takes back our move (and the computer's reply): it is our turn again
        const undo = page.getByTestId('undo');
        if (await undo.isEnabled()) {
          const turnBefore = await page.getByTestId('tiles-left').textContent();
          await undo.click();
          try {
            await page.locator('[data-testid^="cell-"]').first().waitFor({ timeout: 20000 });
          } catch (e) {
            await page.screenshot({ path: join(artifacts, 'undo-failure.png') });
            console.log('  status after undo:', await page.getByTestId('status').textContent(), await page.locator('.toast').allTextContents());
            throw e;
          }
          const turnAfter = await page.getByTestId('tiles-left').textContent();
          check(turnAfter !== turnBefore, `undo takes the move back (${turnBefore} -> ${turnAfter})`);
          undone = true;
          myMoves--;
        }
      }
      const now = await scores(page);
      if (now.some((s, i) => s !== firstScores[i])) scoreChanged = true;
      if (myMoves === 6) await page.screenshot({ path: join(artifacts, 'midgame.png') });
      if (scoreChanged && myMoves >= 8) break;
    }
    const final = await scores(page);
    console.log(`  (played ${myMoves} turns by clicking, ${followersPlaced} followers, scores ${final.join(':')})`);
    check(myMoves >= 6, 'placed tiles by clicking on highlighted squares');
    check(offscreen === 0, `the legal squares were always on screen (${offscreen} times not)`);
    check(followersPlaced >= 1, 'placed followers by clicking on the tile');
    check(rotated, 'rotated the tile being placed');
    check(sawThinking || myMoves >= 6, 'the computer answered (thinking state shown)');
    check(scoreChanged, `the scoreboard changed (${firstScores.join(':')} -> ${final.join(':')})`);
    const logText = await page.getByTestId('log').textContent();
    check(!scoreChanged || /scores? \d+/.test(logText || ''), `the log tells scoring in words (${(logText || '').slice(0, 80)})`);
    check(existsSync(join(artifacts, 'midgame.png')), 'a mid-game screenshot is saved in web/test-artifacts/midgame.png');

    console.log('persistence across a reload');
    const before = await page.locator('use.placed').count();
    await page.reload();
    await page.getByTestId('board').waitFor();
    await page.waitForFunction((n) => document.querySelectorAll('use.placed').length >= n, before);
    check((await page.locator('use.placed').count()) >= before, 'the board is the same after reloading the page');

    console.log('replay');
    const id = page.url().match(/#\/game\/([a-z0-9]+)/)[1];
    await page.goto(`${url}#/replay/${id}`);
    await page.getByTestId('replay-next').waitFor();
    const tiles0 = await page.locator('use.placed').count();
    await page.getByTestId('replay-next').click();
    await page.waitForFunction((n) => document.querySelectorAll('use.placed').length === n + 1, tiles0);
    check(true, 'replay steps forward move by move');

    console.log('two browsers: a friend joins by link');
    await page.goto(url);
    await page.getByLabel('Player 2 kind').selectOption('remote');
    await page.getByLabel('Player 2 name').fill('Ben');
    await page.getByTestId('create-game').click();
    await page.waitForURL(/#\/game\//);
    const invite = page.locator('.invites input');
    await invite.waitFor();
    const link = await invite.inputValue();
    check(/#\/game\/[a-z0-9]+\/[0-9a-f]{32}$/.test(link), 'the game page shows a join link for the friend');
    const ctx2 = await browser.newContext({ viewport: { width: 1100, height: 750 } });
    const friend = await ctx2.newPage();
    friend.on('pageerror', (e) => errors.push(String(e)));
    await friend.goto(link);
    await friend.waitForURL(/#\/game\/[a-z0-9]+$/);
    await friend.getByTestId('status').waitFor();
    const friendStatus = await friend.getByTestId('status').textContent();
    check(/Waiting for Player 1/.test(friendStatus) && !/\bYou\b/.test(friendStatus), `#4: the friend joined and waits for the host, named "Player 1", not "You" (${friendStatus})`);
    check(!/\bYou('s)?\b/.test(await friend.locator('.turnbar, .side').first().innerText()), "#4: nothing on the friend's screen calls the host \"You\"");
    check(await page.getByTestId('undo').isDisabled(), 'undo is off in a game with another human');
    const playOnce = async (p) => {
      const cell = p.locator('[data-testid^="cell-"]').first();
      await cell.waitFor({ timeout: 10000 });
      await cell.click();
      await p.getByTestId('confirm').click();
      await p.waitForFunction(() => !document.querySelector('[data-testid="pending-tile"]'));
    };
    await playOnce(page);
    await friend.waitForFunction(() => document.querySelectorAll('use.placed').length === 2, null, { timeout: 10000 });
    check(true, "the friend's board shows the first player's tile at once (server-sent events)");
    await playOnce(friend);
    await page.waitForFunction(() => document.querySelectorAll('use.placed').length === 3, null, { timeout: 10000 });
    let ourTurn = true;
    try {
      await page.waitForFunction(() => /Your turn/.test(document.querySelector('[data-testid="status"]')?.textContent || ''), null, { timeout: 10000 });
    } catch {
      ourTurn = false;
    }
    check(ourTurn, "the friend's move arrives and it is our turn again");
    await ctx2.close();

    await fruitGame(browser, url, errors);
    await wheelGame(browser, url, errors);
    await playerChecks(browser, url, errors, { check, artifacts, bin, repo });
    await hintChecks(browser, url, errors, { check, artifacts });
    await v3Checks(browser, url, errors, { check, artifacts, bin });
    await tableChecks(browser, url, errors, { check, artifacts });
    await budgetChecks(browser, url, errors, { check });

    check(errors.length === 0, `no errors in the page${errors.length ? ': ' + errors.join(' | ') : ''}`);
  } finally {
    await browser.close();
    proc.kill('SIGTERM');
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`${passes} passed, ${failures} failed`);
  if (failures) process.exit(1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
