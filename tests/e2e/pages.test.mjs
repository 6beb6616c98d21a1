// The leaderboard and profile pages: after a rated match between two people (one forfeits),
// the ladder of that game and format ranks the winner first, links to the profiles, and a
// profile shows the rating, career figures and the match with its replay link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
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

async function call(method, path, token, body) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json();
  assert.ok(response.ok, `${method} ${path}: ${JSON.stringify(data)}`);
  return data;
}

/** Two new players and a finished rated CTG T20 match between them: `loser` forfeits. */
async function ratedMatch() {
  const suffix = Date.now().toString(36);
  const winner = await call('POST', '/v1/players', null, { name: `Winner ${suffix}` });
  const loser = await call('POST', '/v1/players', null, { name: `Loser ${suffix}` });
  const match = await call('POST', '/v1/matches', loser.token, { game: 'ctg', options: { format: 't20' } });
  await call('POST', `/v1/matches/${match.match_id}/join`, winner.token, {});
  await call('POST', `/v1/matches/${match.match_id}/leave`, loser.token, {});
  for (let tries = 0; tries < 100; tries += 1) {
    const info = await call('GET', `/v1/matches/${match.match_id}`);
    if (info.status === 'finished') return { winner, loser, matchId: match.match_id };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the forfeited match did not finish');
}

test('the leaderboard ranks a rated match and links to profiles with ratings, career and replays', { timeout: 2 * 60 * 1000 }, async () => {
  const { winner, loser, matchId } = await ratedMatch();
  const page = await browser.context.newPage();
  const errors = watchErrors(page);

  await page.goto(`${server.url}/#/leaderboards/wicketz`);
  await page.getByTestId('board-game-ctg').click();
  // The tab mounts a new page whose first load fills the format box with the default pool:
  // wait for that load (its heading names the game and the pool), or the box typed into may
  // be the old page's, or be overwritten after the typing.
  await page.getByRole('heading', { name: /^Leaderboard: Cricket: The Game, / }).waitFor();
  // The format is a list of the game's rating pools, not a text box.
  await page.getByTestId('board-format').selectOption('t20');
  await page.waitForURL(/#\/leaderboards\/ctg\/t20$/);
  const rows = page.locator('[data-testid=leaderboard] tbody tr');
  await rows.first().waitFor();
  const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.playerId));
  assert.ok(ids.indexOf(winner.player_id) >= 0 && ids.indexOf(winner.player_id) < ids.indexOf(loser.player_id), 'the winner ranks above the loser');
  await shot(page, 'leaderboard-ctg-t20');

  await page.locator(`tr[data-player-id="${winner.player_id}"] a`).click();
  await page.getByTestId('profile-name').filter({ hasText: winner.name }).waitFor();
  const ratingRow = page.getByTestId('profile-ratings').locator('tbody tr').first();
  assert.match(await ratingRow.textContent(), /t20/);
  const rating = Number(await ratingRow.locator('td').nth(2).textContent());
  assert.ok(rating > 1500, `a win raises the rating above the start: ${rating}`);
  assert.equal(await page.getByTestId('career-ctg').locator('[data-figure=matches]').textContent(), '1', 'one finished CTG match in the career');
  const match = page.locator(`[data-testid=profile-matches] tr[data-match-id="${matchId}"]`);
  assert.match(await match.textContent(), /1st/);
  await shot(page, 'profile');
  await match.getByTestId('profile-replay').click();
  await page.waitForURL(new RegExp(`#/replay/${matchId}`));
  await page.getByTestId('replay-result').waitFor();
  assert.deepEqual(errors, [], 'no client errors');
});
