// The live matches page: a spectator with no account, on a phone-sized screen, opens it from
// the header; a match a player starts against the bot appears on it without a reload,
// under its game, with the players' names and format; opened from the keyboard, the
// spectator view (a socket without a token) follows the match as the player moves.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';
import { shot, serveWebFromDisk, signIn, watchErrors } from './helpers.mjs';

let server;
let player;
let spectator;

before(async () => {
  server = await startServer();
  player = await launch();
  spectator = await launch({ viewport: { width: 390, height: 844 } });
  await serveWebFromDisk(player.context, server.url);
  await serveWebFromDisk(spectator.context, server.url);
});

after(async () => {
  await spectator?.close();
  await player?.close();
  await server?.stop();
});

const fitsTheScreen = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

test('a spectator finds a live match on the live page and watches it update', { timeout: 3 * 60 * 1000 }, async () => {
  const watcher = await spectator.context.newPage();
  const watcherErrors = watchErrors(watcher);
  const sockets = [];
  watcher.on('websocket', (socket) => sockets.push(socket.url()));

  // The header links to the live page, for anyone: this browser has no account.
  await watcher.goto(`${server.url}/`);
  await watcher.getByTestId('nav-live').click();
  await watcher.waitForURL(/#\/live$/);
  assert.equal(await watcher.getByTestId('nav-live').getAttribute('aria-current'), 'page', 'the header marks the section');
  await watcher.getByTestId('live-list').and(watcher.locator('[aria-busy=false]')).waitFor();

  // A player starts a Wicketz match against the bot in another browser.
  const page = await player.context.newPage();
  const playerErrors = watchErrors(page);
  const name = `Mithali ${Date.now().toString(36)}`;
  await signIn(page, server.url, name);
  await page.getByTestId('game-wicketz').click();
  await page.getByTestId('opt-overs').fill('2');
  await page.getByTestId('play-bot').click();
  await page.waitForURL(/#\/match\//);
  const matchId = page.url().split('/').pop();
  const firstMove = page.locator('[data-testid=decision] [data-action]:not([disabled])');
  await firstMove.first().waitFor({ timeout: 30000 });

  // It appears on the spectator's page by the page's own refresh, under its game.
  const entry = watcher.locator(`[data-testid=live-game-wicketz] [data-testid=live-match][data-match-id="${matchId}"]`);
  await entry.waitFor({ timeout: 15000 });
  const text = await entry.textContent();
  assert.ok(text.includes(`${name} v bot`), `the entry names the players: ${text}`);
  assert.ok(text.includes('2 overs a side'), `the entry gives the format: ${text}`);
  assert.ok(await fitsTheScreen(watcher), 'the live page fits a phone screen');
  await shot(watcher, 'live-list-phone');

  // The game filter is an address of its own.
  await watcher.getByTestId('live-filter-wicketz').click();
  await watcher.waitForURL(/#\/live\/wicketz$/);
  // The list redraws for the filter after the address changes: wait for that redraw (other
  // tests may have left matches of other games live) before counting the games listed.
  await watcher
    .waitForFunction(() => document.querySelectorAll('[data-testid^=live-game-]').length === 1, null, { timeout: 15000 })
    .catch(() => {});
  await entry.waitFor();
  assert.equal(await watcher.locator('[data-testid^=live-game-]').count(), 1, 'only the chosen game is listed');
  assert.equal(await watcher.locator('[data-testid=live-game-wicketz]').count(), 1, 'and it is Wicketz');

  // Opened with the keyboard: a spectator's view of that match, over a socket with no token.
  await entry.focus();
  await watcher.keyboard.press('Enter');
  await watcher.waitForURL(new RegExp(`#/watch/${matchId}$`));
  await watcher.waitForFunction(() => window.crease.screen.state && window.crease.screen.state.view !== null, null, { timeout: 15000 });
  assert.equal(await watcher.locator('.match-header .role').textContent(), 'Spectating');
  assert.equal(await watcher.getByTestId('decision').locator('[data-action]').count(), 0, 'a spectator is offered no move');
  const matchSockets = sockets.filter((url) => url.includes(`/v1/matches/${matchId}/ws`));
  assert.ok(matchSockets.length > 0 && matchSockets.every((url) => !/[?&]token=/.test(url)), `spectating needs no token: ${matchSockets}`);

  // The player moves; the spectator's view follows without a reload.
  const seenBefore = await watcher.evaluate(() => window.crease.screen.state.viewSeq);
  await firstMove.first().click();
  await watcher.waitForFunction((seq) => window.crease.screen.state.viewSeq > seq, seenBefore, { timeout: 15000 });
  await watcher.getByTestId('commentary').locator('li').first().waitFor();
  assert.ok(await fitsTheScreen(watcher), 'the spectator view fits a phone screen');
  await shot(watcher, 'live-spectator-phone');

  // Back to the list, to pick another match.
  await watcher.getByTestId('back-to-live').click();
  await watcher.waitForURL(/#\/live$/);
  await watcher.getByTestId('live-list').and(watcher.locator('[aria-busy=false]')).waitFor();

  assert.deepEqual(watcherErrors, [], 'no client errors for the spectator');
  assert.deepEqual(playerErrors, [], 'no client errors for the player');
});
