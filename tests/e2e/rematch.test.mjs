// A rematch between people: after a match between two players (one forfeits), the first
// offers a rematch from the finished match's page and lands in the new match's waiting
// room; the other's finished page shows "Accept rematch" by itself (it looks for the offer
// in the open matches), accepting joins, and both are asked their first question. A
// spectator of the finished match is offered nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';
import { shot, serveWebFromDisk, watchErrors } from './helpers.mjs';

let server;
const browsers = [];

before(async () => {
  server = await startServer();
  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
    const browser = await launch({ viewport });
    await serveWebFromDisk(browser.context, server.url);
    browsers.push(browser);
  }
});

after(async () => {
  for (const browser of browsers) await browser.close();
  await server?.stop();
});

async function call(method, path, token, body) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json();
  assert.ok(response.ok, `${method} ${path}: ${JSON.stringify(data)}`);
  return data;
}

/** A page logged in as `player` (its token as the page keeps it). */
async function pageAs(browser, player) {
  await browser.context.addInitScript((saved) => localStorage.setItem('crease.player', saved), JSON.stringify(player));
  const page = await browser.context.newPage();
  return page;
}

test('a rematch offered after a match between people is accepted by the other side', { timeout: 3 * 60 * 1000 }, async () => {
  const host = await call('POST', '/v1/players', null, { name: 'Alyssa' });
  const guest = await call('POST', '/v1/players', null, { name: 'Beth' });
  const match = await call('POST', '/v1/matches', host.token, { game: 'ctg', options: { format: 't10' }, turn_clock_secs: 120 });
  await call('POST', `/v1/matches/${match.match_id}/join`, guest.token, {});
  await call('POST', `/v1/matches/${match.match_id}/leave`, guest.token, {});
  for (let tries = 0; tries < 100; tries += 1) {
    if ((await call('GET', `/v1/matches/${match.match_id}`)).status === 'finished') break;
    await new Promise((r) => setTimeout(r, 100));
  }

  const a = await pageAs(browsers[0], host);
  const b = await pageAs(browsers[1], guest);
  const errors = [watchErrors(a), watchErrors(b)];
  for (const page of [a, b]) await page.goto(`${server.url}/#/match/${match.match_id}`);
  await b.getByTestId('final-result').waitFor();
  assert.equal(await b.getByTestId('accept-rematch').count(), 0, 'no offer yet');

  await a.getByTestId('final').getByTestId('rematch').filter({ hasText: 'Offer a rematch' }).click();
  await a.waitForURL((url) => !url.hash.includes(match.match_id));
  await a.getByTestId('waiting-room').waitFor();
  const rematchId = a.url().split('/').pop();
  const info = await call('GET', `/v1/matches/${rematchId}`);
  assert.equal(info.status, 'open');
  assert.deepEqual(info.options, (await call('GET', `/v1/matches/${match.match_id}`)).options, 'the same options');
  assert.equal(info.turn_clock_ms, 120000, 'the same clock');

  const offer = b.getByTestId('final').getByTestId('rematch-offer');
  await offer.waitFor({ timeout: 15000 });
  // The server may have given the host a suffix ("Alyssa #2") if an earlier test took the name.
  const offered = await offer.textContent();
  assert.ok(offered.includes(`${host.name} offers a rematch`), offered);
  await shot(b, 'rematch-offer');
  await offer.getByTestId('accept-rematch').click();
  await b.waitForURL((url) => url.hash === `#/match/${rematchId}`);
  for (const page of [a, b]) {
    await page.locator('[data-testid=decision] [data-action]:not([disabled])').first().waitFor({ timeout: 20000 });
  }
  assert.equal((await call('GET', `/v1/matches/${rematchId}`)).status, 'live', 'the rematch started');
  await shot(a, 'rematch-started');

  // Someone who only watched is offered nothing.
  const watcher = await browsers[1].context.newPage();
  await watcher.goto(`${server.url}/#/watch/${match.match_id}`);
  await watcher.getByTestId('result').waitFor();
  await watcher.waitForTimeout(3500);
  assert.equal(await watcher.getByTestId('accept-rematch').count(), 0);
  assert.deepEqual(errors.flat(), []);
});
