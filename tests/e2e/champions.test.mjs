// A three-seat Cricket Champions match (you and two server bots), played by clicking,
// including re-roll selection by clicking dice.
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

test('a Champions match with 3 seats: you and two bots', { timeout: 10 * 60 * 1000 }, async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await signIn(page, server.url, 'Meg');
  await page.getByTestId('game-champions').click();
  await page.getByTestId('opt-players').fill('3');
  await shot(page, 'lobby-champions');
  await page.getByTestId('play-bot').click();
  await page.waitForURL(/#\/match\//);
  const matchId = page.url().split('/').pop();
  await page.getByTestId('champions-scoreboard').waitFor();
  assert.equal(await page.locator('[data-testid=champions-scoreboard] tbody tr').count(), 3, 'a row per seat');

  let rerolledByClicking = 0;
  let bought = 0;
  const shots = new Set();
  await playByClicking(page, {
    timeout: 60000,
    async choose(p, actions, count) {
      const ask = await p.evaluate(() => window.crease.screen.state.view.ask);
      const kind = ask && (ask.ask === 'dice' ? (ask.first_roll ? 'dice-first' : 'dice-reroll') : ask.ask);
      if (kind && !shots.has(kind)) {
        shots.add(kind);
        await shot(p, `champions-${kind}`);
      }
      if (ask && ask.ask === 'dice' && !ask.first_roll && ask.rolls_left > 0 && rerolledByClicking < 3) {
        // Choose dice 1 and 3 for the re-roll by clicking them, then press Re-roll.
        const dice = p.locator('[data-testid=my-dice] button.die');
        await dice.nth(0).click();
        await dice.nth(2).click();
        const label = await p.locator('[data-action=reroll]').textContent();
        assert.match(label, /Re-roll 2 dice/);
        rerolledByClicking += 1;
        return indexOf(actions, count, 'reroll');
      }
      if (ask && ask.ask === 'buy' && ask.affordable.length && bought < 2) {
        bought += 1;
        return indexOf(actions, count, 'buy');
      }
      const stop = await indexOf(actions, count, 'stop');
      const pass = await indexOf(actions, count, 'pass');
      if (ask && ask.ask === 'buy' && pass >= 0) return pass;
      return stop >= 0 && Math.random() < 0.5 ? stop : Math.floor(Math.random() * count);
    },
  });
  await page.getByTestId('result').waitFor();
  await shot(page, 'champions-result');
  assert.ok(rerolledByClicking > 0, 'dice were chosen for a re-roll by clicking');
  const view = await page.evaluate(() => window.crease.screen.state.view);
  assert.ok(view.outcome, 'the match has an outcome');
  assert.equal(view.players.length, 3);
  assert.ok(view.round <= view.rules.rounds, 'no more rounds than the rules allow');
  const info = await (await fetch(`${server.url}/v1/matches/${matchId}`)).json();
  assert.equal(info.status, 'finished');
  assert.deepEqual(errors, [], 'no client errors');
});

async function indexOf(actions, count, action) {
  for (let i = 0; i < count; i += 1) {
    if ((await actions.nth(i).getAttribute('data-action')) === action) return i;
  }
  return -1;
}
