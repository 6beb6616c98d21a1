// The replay viewer: a finished match (played to the end by `crease bot` against the
// server's bot) is stepped through ball by ball with the keyboard; at the last ball the
// running score the page folds from the log equals the server's scorecard, and the address
// of a ball opens the replay at that ball.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startServer, binary } from './server.mjs';
import { launch } from './browser.mjs';
import { shot, serveWebFromDisk, watchErrors } from './helpers.mjs';

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

/** Plays one whole match with the bot CLI; returns its id. */
async function finishedMatch(game, options) {
  const { stdout } = await promisify(execFile)(binary(), [
    'bot', '--server', server.url, '--game', game, '--options', JSON.stringify(options), '--vs-bot',
  ], { timeout: 5 * 60 * 1000 });
  const report = JSON.parse(stdout.trim().split('\n').pop());
  assert.ok(report.match_id, stdout);
  return report.match_id;
}

for (const [game, options] of [['wicketz', { overs: 2 }], ['ctg', { format: 't10' }]]) {
  test(`a finished ${game} match replays to its last ball, where the score is the scorecard's`, { timeout: 6 * 60 * 1000 }, async () => {
    const matchId = await finishedMatch(game, options);
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/#/replay/${matchId}`);
    const position = page.getByTestId('replay-position');
    await position.filter({ hasText: /^Before the first ball/ }).waitFor();
    const balls = Number((await position.textContent()).match(/\((\d+) in all\)/)[1]);
    assert.ok(balls > 6, `a whole match has balls: ${balls}`);

    // Step with the keyboard alone.
    await page.keyboard.press('ArrowRight');
    await position.filter({ hasText: `Ball 1 of ${balls}` }).waitFor();
    assert.ok((await page.getByTestId('replay-commentary').locator('li').count()) > 0, 'the ball has commentary');
    await page.keyboard.press('End');
    await position.filter({ hasText: `Ball ${balls} of ${balls}` }).waitFor();
    await shot(page, `replay-${game}-last-ball`);

    const cards = page.locator('[data-testid^=innings-total-]');
    const innings = await cards.count();
    assert.ok(innings >= 2, 'both sides batted');
    for (let number = 1; number <= innings; number += 1) {
      const replayed = await page.getByTestId(`replay-total-${number}`).textContent();
      const scorecard = await page.getByTestId(`innings-total-${number}`).textContent();
      assert.equal(replayed, scorecard, `innings ${number}: the replay's score is the scorecard's`);
    }

    // The address names the ball on screen: opened elsewhere, it shows the same ball.
    await page.keyboard.press('ArrowLeft');
    await position.filter({ hasText: `Ball ${balls - 1} of ${balls}` }).waitFor();
    assert.ok(page.url().endsWith(`#/replay/${matchId}/${balls - 1}`), page.url());
    const shared = await browser.context.newPage();
    await shared.goto(page.url());
    await shared.getByTestId('replay-position').filter({ hasText: `Ball ${balls - 1} of ${balls}` }).waitFor();
    await shared.close();
    assert.deepEqual(errors, [], 'no client errors');
  });
}

test('the Wicketz replay shows, ball by ball, the card the log says each ball was read from', { timeout: 6 * 60 * 1000 }, async () => {
  const matchId = await finishedMatch('wicketz', { overs: 2 });
  const get = async (path) => {
    const answer = await fetch(`${server.url}${path}`);
    assert.equal(answer.status, 200, path);
    return answer.json();
  };
  const log = await get(`/v1/matches/${matchId}/log`);
  const { data } = await get('/v1/games/wicketz/rules');
  const strokes = data.ruleset.strokes.map((s) => s.stroke);
  const cards = new Map(data.cards.cards.map((card) => [card.id, card]));
  const events = log.entries.filter((entry) => entry.kind === 'event').map((entry) => entry.payload);
  const balls = [];
  // The cards out of the box by each ball (a 2-over match never deals the whole deck), and
  // this over's, which are out of the box until the over ends.
  let dealt = 0;
  let thisOver = 0;
  const deck = data.cards.cards.length;
  for (const event of events) {
    if (event.type === 'card_dealt' || event.type === 'wild_card_drawn') {
      dealt += 1;
      thisOver += 1;
    }
    if (event.type === 'over_completed' || event.type === 'innings_closed') thisOver = 0;
    if (event.type === 'ball_completed') balls.push({ ...event.ball, toCome: deck - dealt, inBox: deck - thisOver });
  }
  // The last ball's step shows the table after everything that followed it (the over's end).
  balls[balls.length - 1].inBox = deck - thisOver;
  assert.ok(balls.some((ball) => ball.card), 'cards were dealt');

  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/#/replay/${matchId}`);
  const position = page.getByTestId('replay-position');
  await position.filter({ hasText: /^Before the first ball/ }).waitFor();
  assert.match(await position.textContent(), new RegExp(`\\(${balls.length} in all\\)`));
  let withRow = 0;
  for (const [index, ball] of balls.entries()) {
    await page.keyboard.press('ArrowRight');
    await position.filter({ hasText: `Ball ${index + 1} of ${balls.length}` }).waitFor();
    const shown = await page.getByTestId('result-card').textContent();
    const toCome = await page.getByTestId('to-come').locator('.stat-value').textContent();
    assert.equal(Number(toCome), ball.toCome, `ball ${index + 1}: cards not yet dealt this cycle`);
    const inBox = await page.getByTestId('scoreboard').locator('.stat', { hasText: 'Cards left' }).locator('.stat-value').textContent();
    assert.equal(Number(inBox), ball.inBox, `ball ${index + 1}: cards left in the dispenser`);
    if (!ball.card) {
      assert.doesNotMatch(shown, /Card \d+/, `ball ${index + 1} (no card): ${shown}`);
      continue;
    }
    assert.match(shown, new RegExp(`Card ${ball.card}\\b`), `ball ${index + 1}: ${shown}`);
    const row = ball.stroke ? cards.get(ball.card).rows[strokes.indexOf(ball.stroke)] : null;
    if (row) {
      assert.ok(shown.includes(`Row: ${row[0]}`), `ball ${index + 1}, ${ball.stroke} on card ${ball.card}: row ${row[0]} not in ${shown}`);
      withRow += 1;
    }
    if (index === 3) {
      await shot(page, 'replay-wicketz-result-card');
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByTestId('result-card').scrollIntoViewIfNeeded();
      await shot(page, 'replay-wicketz-result-card-phone');
      await page.setViewportSize({ width: 1400, height: 1000 });
    }
  }
  assert.ok(withRow > 0, 'some ball shows its card row');
  // The scorecard names a catch's or a run out's zone as the field does (J0), not as a struct.
  assert.doesNotMatch(await page.locator('body').textContent(), /letter:|ring:/);
  assert.deepEqual(errors, [], 'no client errors');
});
