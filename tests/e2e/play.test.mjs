// Playing on a phone-sized screen with the keyboard alone: sign in, start a match against
// the bot, answer a question; then the match ends (the player forfeits) and the
// end-of-match screen shows the result, the scorecard, and a rematch that starts a new
// match with the same game and options. The header has no debugging control.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';
import { shot, serveWebFromDisk, watchErrors } from './helpers.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch({ viewport: { width: 390, height: 844 } });
  await serveWebFromDisk(browser.context, server.url);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Presses Tab until the focused element matches `selector`; fails after `limit` presses. */
async function tabTo(page, selector, limit = 120) {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await page.evaluate((s) => Boolean(document.activeElement && document.activeElement.matches(s)), selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

const fitsTheScreen = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

test('keyboard only on a phone: play the bot, see the end-of-match scorecard, rematch', { timeout: 3 * 60 * 1000 }, async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/`);
  await page.getByTestId('name-input').waitFor();
  await page.keyboard.type('Smriti');
  await page.keyboard.press('Enter');
  await page.getByTestId('play-bot').waitFor();
  assert.ok(await fitsTheScreen(page), 'the lobby fits a phone screen');
  await shot(page, 'phone-lobby');

  await tabTo(page, '[data-testid=play-bot]');
  await page.keyboard.press('Enter');
  await page.waitForURL(/#\/match\//);
  const matchId = page.url().split('/').pop();
  assert.equal(await page.getByRole('button', { name: 'test reconnect' }).count(), 0, 'no debugging control in the header');

  // The first question (CTG: pick the eleven) answered from the keyboard.
  await page.locator('[data-testid=decision] [data-action]:not([disabled])').first().waitFor({ timeout: 30000 });
  const before = await page.evaluate(() => window.crease.screen.state.viewSeq);
  await tabTo(page, '[data-testid=decision] [data-action]:not([disabled])');
  await page.keyboard.press('Enter');
  await page.waitForFunction((seq) => window.crease.screen.state.viewSeq > seq, before, { timeout: 15000 });
  assert.ok(await fitsTheScreen(page), 'the match screen fits a phone screen');
  await shot(page, 'phone-match');

  // The player forfeits (through the API, as a closed tab would after its grace): the page
  // shows how the match ended and its scorecard.
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('crease.player')).token);
  const left = await fetch(`${server.url}/v1/matches/${matchId}/leave`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}',
  });
  assert.equal(left.status, 200, await left.text());
  await page.getByTestId('final-result').waitFor({ timeout: 15000 });
  const ended = await fetch(`${server.url}/v1/matches/${matchId}`).then((r) => r.json());
  const how = ended.result.summary.replace(/^\s*seat \d+\s*/i, '');
  assert.ok((await page.getByTestId('final-result').textContent()).includes(how), `the page says how it ended: ${how}`);
  await page.getByTestId('final').getByTestId('scorecard').waitFor();
  assert.ok(await fitsTheScreen(page), 'the end-of-match screen fits a phone screen');
  await shot(page, 'phone-match-over');

  await tabTo(page, '[data-testid=final] [data-testid=rematch]');
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => /#\/match\//.test(url.hash) && !url.hash.endsWith(matchId));
  const rematchId = page.url().split('/').pop();
  const [old, fresh] = await Promise.all([matchId, rematchId].map((id) => fetch(`${server.url}/v1/matches/${id}`).then((r) => r.json())));
  assert.equal(fresh.game, old.game);
  assert.deepEqual(fresh.options, old.options, 'the same options');
  assert.deepEqual(fresh.seats.map((seat) => seat.bot), old.seats.map((seat) => seat.bot), 'the same bot seats');
  assert.equal(fresh.status, 'live', 'against the bot it starts at once');
  await page.getByTestId('turn').waitFor();
  assert.deepEqual(errors, [], 'no client errors');
});
