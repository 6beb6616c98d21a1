// Two people in two browsers: one creates an open match and the other joins it from the
// lobby list; then both use matchmaking and are paired into the same match.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';
import { signIn, shot, serveWebFromDisk, watchErrors } from './helpers.mjs';

let server;
let alice;
let bob;

before(async () => {
  server = await startServer();
  alice = await launch();
  bob = await launch();
  await serveWebFromDisk(alice.context, server.url);
  await serveWebFromDisk(bob.context, server.url);
});

after(async () => {
  await alice?.close();
  await bob?.close();
  await server?.stop();
});

test('an open match is joined from the lobby list, and matchmaking pairs two players', { timeout: 3 * 60 * 1000 }, async () => {
  const a = await alice.context.newPage();
  const b = await bob.context.newPage();
  const errors = [...[a, b].map(watchErrors)];
  await signIn(a, server.url, 'Alice');
  await signIn(b, server.url, 'Bob');

  await a.getByTestId('game-ctg').click();
  await a.getByTestId('create-open').click();
  await a.waitForURL(/#\/match\//);
  const matchId = a.url().split('/').pop();
  await a.getByTestId('waiting-room').waitFor();
  await shot(a, 'lobby-waiting-room');

  await b.getByTestId('tab-open').click();
  const row = b.locator(`tr[data-match-id="${matchId}"]`);
  await row.waitFor({ timeout: 10000 });
  await shot(b, 'lobby-open-matches');
  await row.getByTestId('join').click();
  await b.waitForURL(new RegExp(`#/match/${matchId}`));

  // Both seats are asked for their eleven at once (a sealed choice).
  for (const page of [a, b]) {
    await page.getByTestId('turn').filter({ hasText: 'Your move' }).waitFor({ timeout: 15000 });
    await page.getByRole('button', { name: 'Confirm the eleven' }).waitFor();
  }
  const seats = await Promise.all([a, b].map((p) => p.evaluate(() => window.crease.screen.state.seat)));
  assert.deepEqual(seats.sort(), [0, 1], 'one seat each');
  await b.getByRole('button', { name: 'Confirm the eleven' }).click();
  await a.getByTestId('turn').filter({ hasText: /Waiting for Bob/ }).or(a.getByTestId('turn').filter({ hasText: 'Your move' })).waitFor();
  await shot(a, 'lobby-joined-match');

  // Matchmaking: both ask for a Champions match with the same options and meet.
  for (const page of [a, b]) {
    await page.goto(`${server.url}/#/`);
    await page.getByTestId('game-champions').click();
    await page.getByTestId('opt-players').fill('2');
  }
  await a.getByTestId('matchmaking').click();
  await a.getByTestId('ticket').filter({ hasText: 'Waiting for an opponent' }).waitFor();
  await shot(a, 'lobby-matchmaking-waiting');
  await b.getByTestId('matchmaking').click();
  await Promise.all([a, b].map((p) => p.waitForURL(/#\/match\//, { timeout: 15000 })));
  assert.equal(a.url().split('/').pop(), b.url().split('/').pop(), 'paired into the same match');
  await a.getByTestId('champions-scoreboard').waitFor();
  assert.deepEqual(errors.flat(), [], 'no client errors');
});
