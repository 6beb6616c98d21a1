// The shared pages in Portuguese: a Brazilian browser (locale pt-BR) at 390x844 and at
// 1280x800 goes through name entry, the lobby (an HTTP error shown from its code), a bot
// match's first question (a command the engine refuses, shown from its reason), the end panel
// after a forfeit (the result line built from the Outcome in Portuguese), the replay, the live
// list, the leaderboards, the profile, the account and the login page; on each,
// englishOnScreen finds no English (the game modules' areas included). And an English browser switches to Portuguese in the header, keeps it on a
// reload and switches back. Screenshots `i18n-<page>-<lang>-<width>`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';
import { shot, serveWebFromDisk, watchErrors, englishOnScreen } from './helpers.mjs';

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

// Areas left out of the check: none. Every game's module draws from its own catalogue now,
// so the board, the question, the commentary and the replay are read like the rest (kept as
// a list for an area that ever needs it, with its reason).
const SKIP = [];

/** englishOnScreen, with the game modules' areas left out (marked as not to be read). */
async function englishOutsideGames(page) {
  // Text under [data-no-i18n] is not read; attributes are, so they are put aside meanwhile.
  await page.evaluate((selectors) => {
    for (const area of selectors.length ? document.querySelectorAll(selectors.join(',')) : []) {
      area.setAttribute('data-no-i18n', 'game');
      for (const el of [area, ...area.querySelectorAll('[title], [aria-label], [placeholder]')]) {
        for (const attr of ['title', 'aria-label', 'placeholder']) {
          if (!el.hasAttribute(attr)) continue;
          el.setAttribute(`data-aside-${attr}`, el.getAttribute(attr));
          el.removeAttribute(attr);
        }
      }
    }
  }, SKIP);
  const found = await englishOnScreen(page);
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('[data-no-i18n=game]')) el.removeAttribute('data-no-i18n');
    for (const attr of ['title', 'aria-label', 'placeholder']) {
      for (const el of document.querySelectorAll(`[data-aside-${attr}]`)) {
        el.setAttribute(attr, el.getAttribute(`data-aside-${attr}`));
        el.removeAttribute(`data-aside-${attr}`);
      }
    }
  });
  return found;
}

/** englishOnScreen on the whole page, waiting briefly for late text (lists load after the frame). */
async function noEnglish(page, what, { scoped = false } = {}) {
  let found = [];
  for (let tries = 0; tries < 5; tries += 1) {
    found = scoped ? await englishOutsideGames(page) : await englishOnScreen(page);
    if (found.length === 0) return;
    await page.waitForTimeout(300);
  }
  assert.deepEqual(found, [], `English on the Portuguese ${what}`);
}

const pt = (await import('../../web/js/i18n/pt-BR/common.js')).default;
const ptErrors = (await import('../../web/js/i18n/pt-BR/errors.js')).default;

for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
  const w = viewport.width;
  test(`a Portuguese browser at ${w}x${viewport.height}: every shared page in Portuguese, errors from their codes`, { timeout: 4 * 60 * 1000 }, async () => {
    const browser = await launch({ viewport, locale: 'pt-BR' });
    try {
      await serveWebFromDisk(browser.context, server.url);
      const page = await browser.context.newPage();
      const errors = watchErrors(page);
      const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

      // Name entry.
      await page.goto(`${server.url}/`);
      await page.getByTestId('name-input').waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'pt-BR', '<html lang> follows the language');
      assert.equal(await page.getByTestId('name-submit').textContent(), pt.name.submit);
      assert.equal(await page.title(), pt.title);
      await noEnglish(page, 'name entry');
      await shot(page, `i18n-name-pt-BR-${w}`);
      const name = `Mariana${w}`;
      await page.getByTestId('name-input').fill(name);
      await page.getByTestId('name-submit').click();

      // Lobby; creating a match with options the engine refuses shows errors.http.bad_options.
      await page.getByTestId('play-bot').waitFor();
      assert.equal(await page.getByTestId('play-bot').textContent(), pt.lobby.playBot);
      await page.getByTestId('match-list').locator('p, table').first().waitFor();
      await noEnglish(page, 'lobby', { scoped: true });
      assert.ok(await fits(), 'the lobby fits the screen');
      await shot(page, `i18n-lobby-pt-BR-${w}`);
      // Each game's own option fields (labels, choices, hints) in Portuguese too.
      for (const game of ['wicketz', 'champions', 'ctg']) {
        await page.getByTestId(`game-${game}`).click();
        await page.locator(`[data-testid=game-${game}][aria-checked=true]`).waitFor();
        await noEnglish(page, `lobby with ${game} chosen`);
        assert.ok(await fits(), `the lobby with ${game} chosen fits the screen`);
      }
      await page.locator('details:has([data-testid=opt-raw]) summary').click();
      await page.getByTestId('opt-raw').fill('{"format": "t99"}');
      await page.getByTestId('create-open').click();
      await page.getByTestId('lobby-error').filter({ hasText: ptErrors.http.bad_options }).waitFor();
      await shot(page, `i18n-lobby-error-pt-BR-${w}`);
      await page.getByTestId('opt-raw').fill('');

      // A bot match: its first question, then a command the engine refuses (a batter dropped
      // from the squad), shown from its reason code.
      await page.getByTestId('play-bot').click();
      await page.waitForURL(/#\/match\//);
      const matchId = page.url().split('/').pop();
      await page.locator('[data-testid=decision] [data-action]:not([disabled])').first().waitFor({ timeout: 30000 });
      assert.equal(await page.getByTestId('turn').textContent(), pt.match.yourMove);
      assert.equal(await page.getByTestId('connection').textContent(), pt.conn.open);
      await noEnglish(page, 'match screen', { scoped: true });
      assert.ok(await fits(), 'the match screen fits the screen');
      await shot(page, `i18n-match-pt-BR-${w}`);
      await page.evaluate(() => window.crease.screen.send({ type: 'select_squad', drop: 0, batting_order: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }));
      await page.getByTestId('refusal').waitFor({ state: 'visible' });
      assert.equal(await page.getByTestId('refusal-message').textContent(), ptErrors.reason.ctg.drop_not_pace_or_spin);
      assert.match(await page.getByTestId('refusal').textContent(), /^Recusado \(jogada ilegal\):/);
      await noEnglish(page, 'refusal', { scoped: true });
      await shot(page, `i18n-refusal-pt-BR-${w}`);

      // The player forfeits (as a closed tab would): the end panel's result in Portuguese.
      const token = await page.evaluate(() => JSON.parse(localStorage.getItem('crease.player')).token);
      const left = await fetch(`${server.url}/v1/matches/${matchId}/leave`, {
        method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}',
      });
      assert.equal(left.status, 200, await left.text());
      await page.getByTestId('final-result').waitFor({ timeout: 15000 });
      const result = await page.getByTestId('final-result').textContent();
      assert.match(result, new RegExp(`\\(${pt.seat.you}\\) desistiu \\(${pt.result.reasons.left}\\)$`), result);
      assert.equal(await page.getByTestId('turn').textContent(), pt.match.over);
      await noEnglish(page, 'end of match', { scoped: true });
      assert.ok(await fits(), 'the end of the match fits the screen');
      await shot(page, `i18n-final-pt-BR-${w}`);

      // The replay of that match.
      await page.getByTestId('final').getByTestId('to-replay').click();
      await page.getByTestId('replay-position').filter({ hasText: /^Antes da primeira bola/ }).waitFor();
      await page.getByTestId('replay-result').waitFor();
      assert.match(await page.getByTestId('replay-result').textContent(), /desistiu \(saiu da partida\)$/);
      await noEnglish(page, 'replay', { scoped: true });
      await shot(page, `i18n-replay-pt-BR-${w}`);

      // Live, leaderboards, the profile (the finished match's result in Portuguese), account, login.
      await page.getByTestId('nav-live').click();
      await page.getByTestId('live-list').and(page.locator('[aria-busy=false]')).waitFor();
      await noEnglish(page, 'live list');
      await shot(page, `i18n-live-pt-BR-${w}`);
      await page.getByTestId('nav-leaderboards').click();
      await page.getByTestId('leaderboard').locator('p, table').first().waitFor();
      await noEnglish(page, 'leaderboards');
      await shot(page, `i18n-leaderboards-pt-BR-${w}`);
      await page.getByTestId('player-name').click();
      const row = page.locator(`[data-testid=profile-matches] tr[data-match-id="${matchId}"]`);
      await row.waitFor();
      await row.getByTestId('profile-result').filter({ hasText: /desistiu/ }).waitFor();
      await noEnglish(page, 'profile');
      assert.ok(await fits(), 'the profile fits the screen');
      await shot(page, `i18n-profile-pt-BR-${w}`);
      await page.getByTestId('nav-account').click();
      await page.getByTestId('claim-submit').waitFor();
      await noEnglish(page, 'account');
      await shot(page, `i18n-account-pt-BR-${w}`);
      await page.goto(`${server.url}/#/login`);
      await page.getByTestId('login-submit').waitFor();
      await page.getByTestId('login-username').fill('ninguem');
      await page.getByTestId('login-password').fill('errada-errada');
      await page.getByTestId('login-submit').click();
      await page.getByTestId('login-error').filter({ hasText: ptErrors.http.invalid_credentials }).waitFor();
      await noEnglish(page, 'login');
      await shot(page, `i18n-login-pt-BR-${w}`);
      assert.deepEqual(errors, [], 'no client errors');
    } finally {
      await browser.close();
    }
  });
}

test('an English browser switches to Português in the header, keeps it on a reload, and switches back', { timeout: 2 * 60 * 1000 }, async () => {
  const browser = await launch({ viewport: { width: 1280, height: 800 } });
  try {
    await serveWebFromDisk(browser.context, server.url);
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/`);
    await page.getByTestId('name-input').fill('Smriti');
    await page.getByTestId('name-submit').click();
    const heading = page.locator('.lobby h2').first();
    await heading.filter({ hasText: 'New match' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    await shot(page, 'i18n-lobby-en-1280');

    await page.getByTestId('lang').selectOption('pt-BR');
    await heading.filter({ hasText: pt.lobby.newMatch }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'pt-BR');
    assert.equal(await page.getByTestId('nav-leaderboards').textContent(), pt.nav.leaderboards);
    assert.equal(await page.evaluate(() => localStorage.getItem('crease.lang')), 'pt-BR');
    await noEnglish(page, 'lobby after the switch', { scoped: true });
    await shot(page, 'i18n-switched-pt-BR-1280');

    await page.reload();
    await heading.filter({ hasText: pt.lobby.newMatch }).waitFor();
    assert.equal(await page.getByTestId('lang').inputValue(), 'pt-BR', 'the switch shows the language kept');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'pt-BR');

    await page.getByTestId('lang').selectOption('en');
    await heading.filter({ hasText: 'New match' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    await page.reload();
    await heading.filter({ hasText: 'New match' }).waitFor();
    assert.equal(await page.getByTestId('nav-lobby').textContent(), 'Play');
    assert.deepEqual(errors, [], 'no client errors');
  } finally {
    await browser.close();
  }
});
