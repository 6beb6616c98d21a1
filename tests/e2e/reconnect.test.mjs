// Reconnecting: a page reload resumes the match (same seat, same state, earlier balls back
// in the commentary), and a dropped socket reconnects by itself and resumes from its seq.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';
import { signIn, playByClicking, nextAction, shot, serveWebFromDisk, watchErrors } from './helpers.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
  await serveWebFromDisk(browser.context, server.url);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const state = (page) => page.evaluate(() => {
  const s = window.crease.screen.state;
  return { seat: s.seat, seq: s.viewSeq, commentary: document.querySelectorAll('[data-testid=commentary] li').length, scores: s.view && s.view.scores, ask: s.view && s.view.ask };
});

test('a reload and a dropped connection both resume the match', { timeout: 5 * 60 * 1000 }, async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await signIn(page, server.url, 'Alyssa');
  await page.getByTestId('play-bot').click();
  await page.waitForURL(/#\/match\//);
  const url = page.url();
  await playByClicking(page, { maxClicks: 25 });
  // Wait until we are asked again: the bot has nothing left to play, so the score is still.
  await nextAction(page);
  const before = await state(page);
  assert.ok(before.commentary > 5, 'some play happened');

  await page.reload();
  await page.getByTestId('connection').filter({ hasText: /^connected$/ }).waitFor();
  await page.waitForFunction((seq) => window.crease.screen.state.viewSeq >= seq, before.seq);
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=commentary] li').length >= n, before.commentary);
  const after = await state(page);
  assert.equal(page.url(), url, 'still on the same match');
  assert.equal(after.seat, before.seat, 'same seat after the reload');
  assert.deepEqual(after.scores, before.scores, 'same score after the reload');
  await shot(page, 'reconnect-after-reload');
  // Our turn: the header says so and the turn clock counts down from the server's deadline.
  await nextAction(page);
  assert.match(await page.getByTestId('turn').textContent(), /^Your move/);
  const clock = await page.getByTestId('clock').textContent();
  assert.match(clock, /^clock [01]:\d\d$/, `turn clock shown: ${clock}`);
  assert.ok(await playByClicking(page, { maxClicks: 10 }) > 0, 'play continues after the reload');

  // Drop the socket: the client shows it, reconnects by itself and resumes from its seq.
  const beforeDrop = await state(page);
  assert.equal(await page.getByRole('button', { name: 'test reconnect' }).count(), 0, 'no debugging control in the header');
  await page.evaluate(() => window.crease.screen.connection.dropForTest());
  await page.getByTestId('connection').filter({ hasText: /reconnecting|connecting/ }).waitFor({ timeout: 5000 });
  await shot(page, 'reconnect-dropped');
  await page.getByTestId('connection').filter({ hasText: /^connected$/ }).waitFor({ timeout: 15000 });
  const afterDrop = await state(page);
  assert.ok(afterDrop.seq >= beforeDrop.seq);
  const lines = await page.locator('[data-testid=commentary] li').allTextContents();
  assert.ok(lines.length >= beforeDrop.commentary, 'no commentary lost');
  assert.ok(await playByClicking(page, { maxClicks: 10 }) > 0, 'play continues after the reconnect');
  await shot(page, 'reconnect-resumed');
  assert.deepEqual(errors, [], 'no client errors');
});
