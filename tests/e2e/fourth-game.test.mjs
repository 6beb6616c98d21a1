// A fourth game in the browser, with no change to the client: `crease` plus Hand Cricket
// (examples/hand_cricket, its rules, extras and browser module in its own folder) serves
// a catalogue of four games. The lobby lists it with its options, its module (served from
// the game's folder) draws the match against the bot, the sealed choice is hidden, the end
// panel shows its scorecard, and the replay and the leaderboard tabs know it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, exampleBinary } from './server.mjs';
import { launch } from './browser.mjs';
import { signIn, shot, watchErrors, playByClicking } from './helpers.mjs';

let server;
let browser;

before(async () => {
  server = await startServer({ bin: exampleBinary() });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('Hand Cricket is listed, played against the bot, scored and replayed', { timeout: 3 * 60 * 1000 }, async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await signIn(page, server.url, 'Priya');

  // Listed from the catalogue, after the three built-in games, with its own option fields
  // and the bot levels it has: a `hard` chosen for CTG falls back to `normal` here.
  const hard = page.locator('[data-testid="bot-level"] option[value="hard"]');
  await page.getByTestId('game-ctg').click();
  await page.getByTestId('bot-level').selectOption('hard');
  await page.getByTestId('game-hand_cricket').click();
  assert.equal(await hard.isDisabled(), true, 'Hand Cricket has no hard bot');
  assert.equal(await page.getByTestId('bot-level').inputValue(), 'normal');
  await page.getByTestId('opt-overs').fill('1');
  await page.getByTestId('opt-wickets').fill('1');
  await shot(page, 'fourth-game-lobby');
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/v1/matches')),
    page.getByTestId('play-bot').click(),
  ]);
  assert.equal(request.postDataJSON().game, 'hand_cricket');
  assert.deepEqual(request.postDataJSON().options, { overs: 1, wickets: 1 });
  await page.waitForURL(/#\/match\//);
  const matchId = page.url().split('/').pop();

  // The game's own board, drawn by the module the server served from the game's folder.
  await page.getByTestId('hand-board').waitFor({ timeout: 15000 });
  await page.getByTestId('show-4').waitFor({ timeout: 15000 });
  await shot(page, 'fourth-game-match');
  const clicks = await playByClicking(page, { maxClicks: 40 });
  assert.ok(clicks >= 1, 'at least one ball was played');
  await page.getByTestId('result').waitFor({ timeout: 30000 });
  await page.getByTestId('final').locator('table').first().waitFor({ timeout: 15000 });
  await shot(page, 'fourth-game-final');

  // What the seat saw: the bot's fingers never before the ball was revealed.
  const log = await (await fetch(`${server.url}/v1/matches/${matchId}/log`)).json();
  const bowled = log.entries.filter((e) => e.payload.type === 'bowled');
  assert.ok(bowled.length >= 1);
  const card = await (await fetch(`${server.url}/v1/matches/${matchId}/scorecard`)).json();
  const total = card.card.innings.reduce((runs, innings) => runs + innings.total, 0);
  const logged = bowled.reduce((runs, e) => runs + e.payload.ball.runs, 0);
  assert.equal(total, logged, 'the scorecard adds up the balls of the log');

  // The replay steps ball by ball with the module's fold, ending on the scorecard's total.
  await page.goto(`${server.url}/#/replay/${matchId}`);
  const position = page.getByTestId('replay-position');
  await position.filter({ hasText: `(${bowled.length} in all)` }).waitFor({ timeout: 15000 });
  await page.keyboard.press('End');
  await position.filter({ hasText: `Ball ${bowled.length} of ${bowled.length}` }).waitFor();
  const innings = await page.locator('[data-testid^=innings-total-]').count();
  assert.equal(innings, card.card.innings.length);
  for (let number = 1; number <= innings; number += 1) {
    const replayed = await page.getByTestId(`replay-total-${number}`).textContent();
    const scorecard = await page.getByTestId(`innings-total-${number}`).textContent();
    assert.equal(replayed, scorecard, `innings ${number}: the replay's score is the scorecard's`);
  }
  await shot(page, 'fourth-game-replay');

  // The leaderboard tabs come from the catalogue too.
  await page.goto(`${server.url}/#/leaderboards/hand_cricket`);
  await page.locator('[role=tab]', { hasText: 'Hand Cricket' }).waitFor({ timeout: 15000 });
  assert.deepEqual(errors, []);
});
