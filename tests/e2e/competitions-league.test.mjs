// A four-player league from the browser: the organiser (English, 1280x800) creates a CTG T10
// league of 1 over a side from #/competitions, a friend (Portuguese, 390x844) opens the invite
// link and joins, the organiser adds two bots with "Add bots" and starts it. Each person plays
// every fixture of theirs from the competition's page (Ready to play; against the other person
// "Waiting for <name>" until both are ready, then both pages open the match), to the end by
// clicking, and comes back by the match screen's "Part of <league>" link. The server plays
// the bots' fixture itself. The league ends `finished` with a champion at the top of the table,
// and the table on the page equals GET /v1/competitions/{id}'s standings, cell by cell, in both
// languages; the friend's profile lists the league. Screenshots `competitions-league-*` at
// 390x844 and 1280x800 in English and Portuguese.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';
import { shot, serveWebFromDisk, watchErrors, englishOnScreen } from './helpers.mjs';
import {
  unique, call, request, getCompetition, newPlayer, pageAs, until, createFromPage, playMyFixtures,
  assertTableIsTheServers, assertTableSettlesToTheServers, assertNoSidewaysScroll,
} from './competitions.mjs';

let server;
const browsers = {};

before(async () => {
  server = await startServer();
  browsers.host = await launch({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  browsers.guest = await launch({ viewport: { width: 390, height: 844 }, locale: 'pt-BR' });
  for (const browser of Object.values(browsers)) await serveWebFromDisk(browser.context, server.url);
});

after(async () => {
  for (const browser of Object.values(browsers)) await browser.close();
  await server?.stop();
});

const log = (line) => console.log(`# ${new Date().toISOString().slice(11, 19)} ${line}`);

test('a league of two people and two bots, created, joined, played to the end and its table checked', { timeout: 25 * 60 * 1000 }, async () => {
  const host = await newPlayer(server, 'Lg1');
  const guest = await newPlayer(server, 'Lg2');
  const name = unique('Lg-Friday');
  const a = await pageAs(browsers.host, host);
  const b = await pageAs(browsers.guest, guest);
  const errors = [watchErrors(a), watchErrors(b)];

  // The organiser creates it from the list page's form.
  const id = await createFromPage(a, server, { name, format: 'league', overs: 1 });
  let comp = await getCompetition(server, id);
  assert.equal(comp.name, name);
  assert.equal(comp.game, 'ctg');
  assert.equal(comp.format, 'league');
  assert.equal(comp.double_round, false);
  assert.equal(comp.status, 'open');
  assert.equal(comp.options.format, 't10');
  assert.equal(comp.options.overs, 1, `the options the form sent: ${JSON.stringify(comp.options)}`);
  assert.deepEqual(comp.entries.map((e) => e.player_id), [host.player_id], 'the organiser is entered');
  assert.equal(await a.getByTestId('comp-status').getAttribute('data-status'), 'open');
  assert.equal(await a.getByTestId('comp-start').isDisabled(), true, 'one entry cannot start a league');
  assert.match(await a.getByTestId('comp-need').textContent(), /at least 3 entries/);
  await shot(a, 'competitions-league-open-en-1280');

  // The friend opens the invite link (the page's own address) and joins.
  const invite = await a.getByTestId('comp-invite-link').inputValue();
  assert.equal(invite, `${server.url}/#/competitions/${id}`);
  await b.goto(invite);
  await b.getByTestId('comp-join').click();
  await b.getByTestId('comp-leave').waitFor();
  comp = await getCompetition(server, id);
  assert.deepEqual(comp.entries.map((e) => e.player_id).sort(), [host.player_id, guest.player_id].sort());
  assert.deepEqual(await englishOnScreen(b), [], 'no English on the Portuguese page');
  assert.equal(await b.getByTestId('comp-start').count(), 0, 'only the organiser may start');
  assert.equal(await b.getByTestId('comp-add-bots').count(), 0, 'only the organiser may add bots');
  await shot(b, 'competitions-league-joined-pt-390');
  await assertNoSidewaysScroll(b, 'the open league on a phone');

  // Two bots, by the organiser's "Add bots"; then the league starts.
  await a.getByTestId('comp-bot-count').fill('2');
  await a.getByTestId('comp-add-bots').click();
  await a.locator('[data-testid=comp-entry]').nth(3).waitFor({ timeout: 15000 });
  comp = await getCompetition(server, id);
  assert.equal(comp.entries.length, 4);
  assert.equal(comp.entries.filter((e) => e.bot).length, 2, 'two bot entries');
  const pageEntries = await a.locator('[data-testid=comp-entry]').evaluateAll((rows) => rows.map((r) => r.dataset.playerId));
  assert.deepEqual(pageEntries.sort(), comp.entries.map((e) => e.player_id).sort(), 'the page lists the server\'s entries');
  // The friend's page sees the new entries by its own refresh.
  await b.locator('[data-testid=comp-entry]').nth(3).waitFor({ timeout: 15000 });

  await a.getByTestId('comp-start').click();
  await a.locator('[data-testid=comp-status][data-status=running]').waitFor({ timeout: 15000 }).catch(async (err) => {
    await shot(a, 'competitions-league-start-failed');
    throw new Error(`${err.message}; the page says "${await a.getByTestId('comp-error').textContent()}", the server ${JSON.stringify((await getCompetition(server, id)).status)}`);
  });
  comp = await getCompetition(server, id);
  assert.equal(comp.status, 'running');
  assert.equal(comp.rounds, 3, 'four entries play three rounds');
  assert.equal(comp.fixtures.length, 6, 'everyone plays everyone once');
  const pairs = new Set(comp.fixtures.map((f) => [f.home, f.away].sort().join(' ')));
  assert.equal(pairs.size, 6, 'no pair plays twice');
  assert.equal(comp.standings.length, 4, 'the table lists every entry once started');
  await assertTableSettlesToTheServers(a, server, id, 'en');
  assert.equal(await a.locator('[data-testid=comp-fixtures] [data-testid=fixture]').count(), 6, 'the page lists the six fixtures');
  assert.equal(await a.locator('[data-testid=my-fixture]').count(), 3, 'three fixtures of mine');
  await shot(a, 'competitions-league-started-en-1280');

  // The two people meet once: the organiser says ready first and waits for the friend.
  const humanFixture = comp.fixtures.find((f) => [f.home, f.away].sort().join(' ') === [host.player_id, guest.player_id].sort().join(' '));
  assert.ok(humanFixture, 'a fixture between the two people');
  let hostWaiting;
  const hostIsWaiting = new Promise((resolve) => { hostWaiting = resolve; });
  let sawWaiting = null;
  const played = await Promise.all([
    (async () => {
      const ids = await playMyFixtures(a, server, { competitionId: id, competitionName: name, log, me: host,
        onMatchEnd: (matchId, n) => (n === 1 ? shot(a, 'competitions-league-match-end-en-1280') : null),
        afterReady: async (fixture, row) => {
        const waiting = row.getByTestId('fixture-waiting');
        await waiting.waitFor({ timeout: 10000 });
        sawWaiting = (await waiting.textContent()).trim();
        await shot(a, 'competitions-league-waiting-en-1280');
        hostWaiting();
      } });
      return ids;
    })(),
    playMyFixtures(b, server, { competitionId: id, competitionName: name, log, me: guest, beforeReady: () => hostIsWaiting,
      onMatchEnd: async (matchId, n) => {
        if (n !== 1) return;
        assert.deepEqual(await englishOnScreen(b), [], 'no English on the end of a fixture\'s match');
        await shot(b, 'competitions-league-match-end-pt-390');
      } }),
  ]);
  assert.equal(sawWaiting, `Waiting for ${guest.name}…`, 'the organiser waited for the friend by name');
  assert.equal(played[0].length, 3, 'the organiser played three matches');
  assert.equal(played[1].length, 3, 'the friend played three matches');
  assert.equal(played[0].filter((m) => played[1].includes(m)).length, 1, 'one match between the two people');

  // The bots' own fixture is the server's to play; then the league is over.
  comp = await until(async () => {
    const c = await getCompetition(server, id);
    return c.status === 'finished' ? c : null;
  }, { timeout: 5 * 60 * 1000, every: 2000, what: 'the league to finish' });
  log(`finished: ${JSON.stringify(comp.standings.map((s) => [s.position, s.name, s.points, s.net_run_rate]))}`);
  assert.ok(comp.fixtures.every((f) => f.status === 'finished' && f.match_id), 'every fixture has its match, played');
  assert.ok(comp.champion, 'a champion');
  assert.equal(comp.champion, comp.standings[0].player_id, 'the champion tops the table');
  assert.equal(comp.standings.reduce((sum, s) => sum + s.played, 0), 12, 'six matches, two sides each');
  for (const s of comp.standings) {
    assert.equal(s.played, 3, `${s.name} played three`);
    assert.equal(s.won + s.lost + s.tied + s.no_result, s.played, `${s.name}: results add up`);
    assert.equal(s.points, 2 * s.won + s.tied + s.no_result, `${s.name}: 2 a win, 1 a tie or no result`);
  }

  // Both pages show the end by their own refresh, and the table is the server's.
  for (const [page, lang] of [[a, 'en'], [b, 'pt-BR']]) {
    await page.goto(`${server.url}/#/competitions/${id}`);
    await page.locator('[data-testid=comp-status][data-status=finished]').waitFor({ timeout: 15000 });
    const champion = await page.getByTestId('comp-champion');
    assert.equal(await champion.getAttribute('data-player-id'), comp.champion);
    const championName = comp.entries.find((e) => e.player_id === comp.champion).name;
    assert.ok((await champion.textContent()).includes(championName), 'the champion by name');
    const shown = await assertTableIsTheServers(page, comp.standings, lang);
    if (lang === 'pt-BR') {
      assert.ok(shown.every((row) => !row.forVisible), 'a phone hides the runs and overs columns');
      assert.deepEqual(await englishOnScreen(page), [], 'no English on the finished league in Portuguese');
    } else {
      assert.ok(shown.every((row) => row.forVisible), 'a desktop shows the runs and overs columns');
    }
    // Every finished fixture names its winner, or says there was none, and links its replay.
    assert.equal(await page.locator('[data-testid=comp-fixtures] [data-testid=fixture-replay]').count(), 6);
    await assertNoSidewaysScroll(page, `the finished league (${lang})`);
  }
  await shot(a, 'competitions-league-finished-en-1280');
  await shot(b, 'competitions-league-finished-pt-390');

  // The same page at the other two sizes and languages, for the eye.
  for (const [browser, viewport, tag] of [[browsers.host, { width: 390, height: 844 }, 'en-390'], [browsers.guest, { width: 1280, height: 800 }, 'pt-1280']]) {
    const page = await browser.context.newPage();
    await page.setViewportSize(viewport);
    await page.goto(`${server.url}/#/competitions/${id}`);
    await page.locator('[data-testid=comp-status][data-status=finished]').waitFor({ timeout: 15000 });
    await assertTableIsTheServers(page, comp.standings, tag.startsWith('pt') ? 'pt-BR' : 'en');
    if (tag.startsWith('pt')) assert.deepEqual(await englishOnScreen(page), []);
    await assertNoSidewaysScroll(page, `the finished league (${tag})`);
    await shot(page, `competitions-league-finished-${tag}`);
    await page.goto(`${server.url}/#/competitions`);
    await page.locator(`[data-testid=comp-group-finished] [data-competition-id="${id}"]`).waitFor({ timeout: 15000 });
    await assertNoSidewaysScroll(page, `the list (${tag})`);
    await shot(page, `competitions-list-${tag}`);
    await page.close();
  }

  // A spectator of the bots' own fixture (from its Replay's match) is told it belongs to the league.
  const botsFixture = comp.fixtures.find((f) => [f.home, f.away].every((p) => comp.entries.find((e) => e.player_id === p).bot));
  await b.goto(`${server.url}/#/watch/${botsFixture.match_id}`);
  await b.getByTestId('part-of-link').waitFor({ timeout: 15000 });
  assert.equal((await b.getByTestId('part-of-link').textContent()).trim(), name);
  assert.equal(await b.getByTestId('part-of-link').getAttribute('href'), `#/competitions/${id}`);

  // The friend's profile lists the league; the list filters to "mine".
  await b.goto(`${server.url}/#/players/${guest.player_id}`);
  await b.locator(`[data-testid=profile-competitions] [data-competition-id="${id}"]`).waitFor({ timeout: 15000 });
  assert.deepEqual(await englishOnScreen(b), [], 'no English on the profile');
  await shot(b, 'competitions-profile-pt-390');
  await b.goto(`${server.url}/#/competitions`);
  await b.getByTestId('comp-only-mine').check();
  await b.locator(`[data-testid=comp-group-finished] [data-competition-id="${id}"]`).waitFor();
  const listed = await b.locator('[data-testid=comp-item]').evaluateAll((items) => items.map((i) => i.dataset.competitionId));
  const all = (await call(server, 'GET', '/v1/competitions')).competitions;
  const mine = all.filter((c) => c.entries.some((e) => e.player_id === guest.player_id)).map((c) => c.competition_id);
  assert.deepEqual(listed.sort(), mine.sort(), '"only mine" lists exactly the competitions the friend is in');
  await shot(b, 'competitions-list-mine-pt-390');

  // A finished league takes no more entries.
  const late = await newPlayer(server, 'Lg3');
  const refused = await request(server, 'POST', `/v1/competitions/${id}/join`, late.token, {});
  assert.equal(refused.status, 409);
  assert.equal(refused.data.error.code, 'competition_not_open');

  assert.deepEqual(errors.flat(), [], 'no page errors');
});
