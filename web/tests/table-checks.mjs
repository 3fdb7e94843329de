// "The table talks" and the languages (issue #39), in two browser contexts at once: a host whose
// browser speaks German and a friend whose browser speaks Dutch (a third, English, for the
// lobby's switch and as a spectator). Run alone with E2E_ONLY=table.
//   - the language follows navigator.languages; the lobby's switch changes it and is remembered;
//     no English word on a German or Dutch game page (lobby, game, rules help, log)
//   - chat between the seats over the event stream; the rate limit's notice; spectators read it
//     only once both players allowed it
//   - the turn notification while the tab is hidden: title prefix, favicon badge, and after the
//     opt-in a browser notification and a sound; all gone when the tab is seen again
//   - a rematch from the final scoring: both players are sent to the same new game, same seats
//   - screenshots of a game on a phone and a desktop in each language (web/test-artifacts/,
//     copied to docs/screenshots/)

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 };
const DESKTOP = { viewport: { width: 1280, height: 800 } };

// Words of the client's English that never occur in its Dutch or German texts.
const ENGLISH = /\b(the|and|your|you|tile|tiles|turn|waiting|follower|followers|points|scoring|place|click|tap|left|rules|recent|moves|kind|invite|friends|resign|undo)\b/i;

async function pageIn(browser, locale, opts, errors) {
  const ctx = await browser.newContext({ ...opts, locale });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => errors.push(`[${locale}] ${e}`));
  page.on('console', (m) => { if (m.type() === 'error' && !/429|Too Many Requests/.test(m.text())) errors.push(`[${locale}] ${m.text()}`); });
  return { ctx, page };
}

// The visible text of the page, without the players' names and the game's id.
async function pageText(page) {
  return page.evaluate(() => document.body.innerText.replace(/\b(Ann|Ben|Spieler 1|Speler 1)\b/g, ''));
}

async function playOnce(page) {
  const cell = page.locator('[data-testid^="cell-"]').first();
  await cell.waitFor({ timeout: 15000 });
  await cell.click();
  await page.getByTestId('confirm').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid="pending-tile"]'));
}

// Makes the page believe its tab is hidden (or seen again): the same as switching tabs.
async function setHidden(page, hidden) {
  await page.evaluate((h) => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

export async function tableChecks(browser, url, errors, { check, artifacts }) {
  console.log('the table talks (#39): languages, chat, turn notification, rematch in two browsers');
  const host = await pageIn(browser, 'de-DE', DESKTOP, errors);
  const friend = await pageIn(browser, 'nl-NL', { viewport: { width: 1100, height: 780 } }, errors);
  const other = await pageIn(browser, 'en-US', DESKTOP, errors);
  try {
    // --- languages from the browser, and the lobby's switch -----------------------------------
    await host.page.goto(url);
    await host.page.getByTestId('create-game').waitFor();
    const hostLobby = await pageText(host.page);
    check(await host.page.evaluate(() => document.documentElement.lang) === 'de' && /Neues Spiel/.test(hostLobby) && /Gegen den Computer spielen/.test(hostLobby),
      '#39 languages: a browser speaking German gets the lobby in German');
    check(!ENGLISH.test(hostLobby), `#39 languages: no English word in the German lobby${ENGLISH.test(hostLobby) ? ` ("${hostLobby.match(ENGLISH)[0]}")` : ''}`);
    await other.page.goto(url);
    await other.page.getByTestId('lang').waitFor();
    check(/New game/.test(await pageText(other.page)), '#39 languages: a browser speaking English gets English');
    await other.page.getByTestId('lang').selectOption('nl');
    await other.page.waitForFunction(() => document.documentElement.lang === 'nl' && /Nieuw spel/.test(document.body.innerText));
    await other.page.reload();
    await other.page.getByTestId('lang').waitFor();
    check(await other.page.evaluate(() => document.documentElement.lang) === 'nl' && await other.page.getByTestId('lang').inputValue() === 'nl',
      '#39 languages: the lobby\'s switch changes the language and it is remembered after a reload');
    await other.page.getByTestId('lang').selectOption('en');
    await other.page.waitForFunction(() => document.documentElement.lang === 'en');

    // --- a friends' game: the German host invites the Dutch friend ------------------------------
    await host.page.getByLabel('Art von Spieler 2').selectOption('remote');
    await host.page.getByLabel('Name von Spieler 2').fill('Ben');
    await host.page.getByTestId('create-game').click();
    await host.page.waitForURL(/#\/game\//);
    const gameId = host.page.url().match(/#\/game\/([a-z0-9]+)/)[1];
    const invite = host.page.locator('.invites input');
    await invite.waitFor();
    const link = await invite.inputValue();
    await friend.page.goto(link);
    await friend.page.waitForURL(/#\/game\/[a-z0-9]+$/);
    await friend.page.getByTestId('status').waitFor();
    await host.page.getByTestId('chat').waitFor({ state: 'visible', timeout: 10000 });
    const hostGame = await pageText(host.page);
    const friendGame = await pageText(friend.page);
    check(/Plättchen/.test(hostGame) && !ENGLISH.test(hostGame), `#39 languages: the German game page has no English word${ENGLISH.test(hostGame) ? ` ("${hostGame.match(ENGLISH)[0]}")` : ''}`);
    check(/Wachten op/.test(friendGame) && !ENGLISH.test(friendGame), `#39 languages: the Dutch game page has no English word${ENGLISH.test(friendGame) ? ` ("${friendGame.match(ENGLISH)[0]}")` : ''}`);
    await host.page.getByTestId('help-open').click();
    const help = await host.page.getByTestId('help').innerText();
    check(/Dein Zug/.test(help) && /Gefolgsmann/.test(help) && !ENGLISH.test(help), '#39 languages: the rules help in German');
    await host.page.getByTestId('help-close').click();

    // --- the turn notification: the friend's tab is hidden while the host moves -----------------
    await friend.page.evaluate(() => {
      window.__notes = [];
      window.__sounds = 0;
      const Real = window.Notification;
      class Counting extends Real {
        constructor(title, o) { super(title, o); window.__notes.push(`${title}|${o?.body ?? ''}`); }
        static get permission() { return 'granted'; }
        static requestPermission() { return Promise.resolve('granted'); }
      }
      window.Notification = Counting;
      const RealAudio = window.AudioContext;
      window.AudioContext = class extends RealAudio { constructor() { super(); window.__sounds++; } };
    });
    await friend.page.locator('[data-testid="alerts"] summary').click();
    await friend.page.getByTestId('alert-notify').check();
    await friend.page.getByTestId('alert-sound').check();
    const soundsBefore = await friend.page.evaluate(() => window.__sounds);
    await setHidden(friend.page, true);
    const titleBefore = await friend.page.title();
    await playOnce(host.page);
    await friend.page.waitForFunction(() => document.title.startsWith('(Jouw beurt)'), null, { timeout: 10000 }).catch(() => {});
    const alerted = await friend.page.evaluate(() => ({ title: document.title, badge: document.querySelector('link[rel="icon"]')?.getAttribute('data-badge'), notes: window.__notes, sounds: window.__sounds }));
    check(alerted.title === `(Jouw beurt) ${titleBefore}` && alerted.badge === '1', `#39 notification: with the tab hidden, the friend's title and icon say it is their turn ("${alerted.title}")`);
    check(alerted.notes.length === 1 && /jouw beurt/.test(alerted.notes[0]) && alerted.sounds > soundsBefore,
      `#39 notification: after the opt-in, one browser notification in Dutch and a sound (${alerted.notes.join(' / ')})`);
    await setHidden(friend.page, false);
    const seen = await friend.page.evaluate(() => ({ title: document.title, badge: document.querySelector('link[rel="icon"]')?.getAttribute('data-badge') }));
    check(seen.title === titleBefore && seen.badge == null, '#39 notification: seen again, the title and the icon are as before');

    // --- chat over the event stream, in both directions ---------------------------------------
    await host.page.getByTestId('chat-input').fill('Hallo Ben, viel Glück!');
    await host.page.getByTestId('chat-send').click();
    await friend.page.waitForFunction(() => /viel Glück/.test(document.querySelector('[data-testid="chat-list"]')?.textContent || ''), null, { timeout: 10000 }).catch(() => {});
    check(/Hallo Ben, viel Glück!/.test(await friend.page.getByTestId('chat-list').innerText()), "#39 chat: the host's message reaches the friend at once");
    await friend.page.getByTestId('chat-input').fill('Dank je, jij ook!');
    await friend.page.getByTestId('chat-input').press('Enter');
    await host.page.waitForFunction(() => /jij ook/.test(document.querySelector('[data-testid="chat-list"]')?.textContent || ''), null, { timeout: 10000 }).catch(() => {});
    check(/Ben: Dank je, jij ook!/.test(await host.page.getByTestId('chat-list').innerText()), "#39 chat: the friend's answer reaches the host, with the friend's name");
    // the rate limit: a second message within a second is refused, said in the player's language
    await friend.page.getByTestId('chat-input').fill('nog een');
    await friend.page.getByTestId('chat-send').click();
    await friend.page.waitForFunction(() => /bericht/.test(document.querySelector('.toast')?.textContent || ''), null, { timeout: 5000 }).catch(() => {});
    const toast = await friend.page.locator('.toast').innerText().catch(() => '');
    check(/Eén bericht per seconde/.test(toast), `#39 chat: the rate limit is said in Dutch (${toast})`);
    // a spectator (the English browser) sees no chat until both players allowed it
    await other.page.goto(`${url}#/game/${gameId}`);
    await other.page.getByTestId('status').waitFor();
    check(await other.page.getByTestId('chat').isHidden(), '#39 chat: a spectator does not see the chat the players keep to themselves');
    await host.page.getByTestId('chat-spectators').check();
    await host.page.waitForTimeout(300);
    check(await other.page.getByTestId('chat').isHidden(), '#39 chat: one player allowing it is not enough');
    await friend.page.getByTestId('chat-spectators').check();
    await other.page.getByTestId('chat').waitFor({ state: 'visible', timeout: 10000 }).catch(() => {});
    const spect = await other.page.getByTestId('chat-list').innerText().catch(() => '');
    const onServer = await other.page.evaluate(async (gid) => { const v = await (await fetch(`/api/games/${gid}`)).json(); return `${v.chat_public} ${v.players.map((p) => p.chat_public).join('/')} ${v.chat?.length}`; }, gameId);
    check(/viel Glück/.test(spect) && await other.page.getByTestId('chat-input').isHidden(), `#39 chat: once both allowed it, the spectator reads the chat (without a box to write in) (${spect.replace(/\n/g, ' | ')}; the server: ${onServer})`);

    // --- rematch: the host resigns, asks for a rematch; both go to the new game ----------------
    host.page.once('dialog', (d) => void d.accept());
    await host.page.getByRole('button', { name: 'Aufgeben' }).click();
    await host.page.getByTestId('final-rematch').waitFor({ timeout: 10000 });
    check(await host.page.getByTestId('final-rematch').innerText() === 'Revanche', '#39 rematch: the final scoring offers a rematch (in German)');
    await host.page.getByTestId('final-rematch').click();
    await host.page.waitForURL((u) => /#\/game\/[a-z0-9]+$/.test(u.hash) && !u.hash.includes(gameId), { timeout: 10000 });
    const newId = host.page.url().match(/#\/game\/([a-z0-9]+)/)[1];
    await friend.page.waitForURL((u) => u.hash === `#/game/${newId}`, { timeout: 10000 }).catch(() => {});
    check(friend.page.url().endsWith(`#/game/${newId}`), `#39 rematch: the friend is sent to the same new game by the event stream (${newId})`);
    await host.page.locator('[data-testid^="cell-"]').first().waitFor({ timeout: 15000 });
    await friend.page.getByTestId('status').waitFor();
    const fs = await friend.page.getByTestId('seat-label-1').innerText();
    check(fs === 'jij' && /Wachten op/.test(await friend.page.getByTestId('status').innerText()), `#39 rematch: the friend holds the same seat in the new game ("${fs}")`);
    await playOnce(host.page);
    await friend.page.locator('[data-testid^="cell-"]').first().waitFor({ timeout: 15000 }).catch(() => {});
    await playOnce(friend.page);
    check(true, '#39 rematch: both play their seats in the new game');
  } finally {
    await host.ctx.close();
    await friend.ctx.close();
    await other.ctx.close();
  }

  // --- screenshots: a game against the computer, phone and desktop, in each language ------------
  for (const [lang, locale] of [['en', 'en-US'], ['nl', 'nl-NL'], ['de', 'de-DE']]) {
    for (const [kind, opts] of [['phone', PHONE], ['desktop', DESKTOP]]) {
      const { ctx, page } = await pageIn(browser, locale, opts, errors);
      try {
        await page.goto(url);
        await page.getByTestId('create-game').waitFor();
        if (kind === 'phone') {
          const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          check(wide <= 0, `#39 languages: the ${lang} lobby on a phone has nothing sticking out sideways (${wide} px)`);
          if (lang === 'de') await page.screenshot({ path: `${artifacts}/phone-lobby-de.png`, fullPage: false });
        }
        await page.getByTestId('play-vs-ai').click();
        await page.waitForURL(/#\/game\//);
        await playOnce(page);
        await page.locator('[data-testid^="cell-"]').first().waitFor({ timeout: 20000 });
        await page.locator('[data-testid^="cell-"]').first().click();
        await page.waitForTimeout(400);
        const text = await pageText(page);
        if (kind === 'phone') {
          const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          check(wide <= 0, `#39 languages: the ${lang} game on a phone has nothing sticking out sideways (${wide} px)`);
        }
        if (lang !== 'en') check(!ENGLISH.test(text), `#39 languages: ${kind} game in ${lang} without English words${ENGLISH.test(text) ? ` ("${text.match(ENGLISH)[0]}")` : ''}`);
        await page.screenshot({ path: `${artifacts}/${kind}-game-${lang}.png` });
      } finally {
        await ctx.close();
      }
    }
  }
  check(true, '#39 screenshots: phone and desktop in en, nl and de (web/test-artifacts/{phone,desktop}-game-{en,nl,de}.png)');
}
