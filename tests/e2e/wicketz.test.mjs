// A short Wicketz match (2 overs a side) against the bot, played by clicking: the over
// setup with a fielder moved on the picture, and a stroke for every delivery.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';
import { signIn, playByClicking, shot, serveWebFromDisk, watchErrors } from './helpers.mjs';

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

test('a 2-over Wicketz match against the bot, played by clicking', { timeout: 5 * 60 * 1000 }, async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await signIn(page, server.url, 'Sophie');
  await page.getByTestId('game-wicketz').click();
  await page.getByTestId('opt-overs').fill('2');
  await page.getByTestId('play-bot').click();
  await page.waitForURL(/#\/match\//);
  const matchId = page.url().split('/').pop();
  await page.getByTestId('scoreboard').waitFor();

  const seen = new Set();
  let moved = null;
  await playByClicking(page, {
    timeout: 60000,
    async choose(p, actions, count) {
      const ask = await p.evaluate(() => window.crease.screen.state.view.ask);
      const kind = ask && ask.decision;
      if (kind && !seen.has(kind)) {
        seen.add(kind);
        await shot(p, `wicketz-${kind}`);
      }
      if (kind === 'set_over' && !moved) {
        // Move one fielder on the picture: take one out, put one in at an empty ring-1 spot.
        const fielders = await p.evaluate(() => window.crease.screen.state.ui.wzField.fielders);
        const taken = new Set(fielders);
        const target = ['B1', 'C1', 'D1', 'F1', 'G1', 'K1', 'L1', 'N1', 'O1'].find((code) => !taken.has(code));
        await p.locator(`[data-pos="${fielders[0]}"]`).click();
        await p.locator(`[data-pos="${target}"]`).click();
        moved = target;
        await shot(p, 'wicketz-field-moved');
      }
      return Math.floor(Math.random() * count);
    },
  });
  await page.getByTestId('result').waitFor();
  await shot(page, 'wicketz-result');
  assert.ok(seen.has('play'), 'the batter nominated strokes');
  const info = await (await fetch(`${server.url}/v1/matches/${matchId}`)).json();
  assert.equal(info.status, 'finished');
  const view = await page.evaluate(() => window.crease.screen.state.view);
  assert.ok(view.outcome, 'the match has an outcome');
  assert.equal(view.innings.length, 2, 'both sides batted');
  if (moved) {
    const log = await (await fetch(`${server.url}/v1/matches/${matchId}/log`)).json();
    const fields = log.entries.filter((e) => e.payload && e.payload.type === 'over_started').map((e) => e.payload.field.fielders);
    assert.ok(fields.some((f) => f.includes(moved)), `an over was bowled with the fielder moved to ${moved}`);
  }
  assert.deepEqual(errors, [], 'no client errors');
});
