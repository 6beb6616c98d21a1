// A knockout of three entries from the browser: the organiser (English, 1280x800) creates a
// CTG T10 knockout of 1 over a side (a tie goes against the chasing side, so every match has a
// winner; 48 hours a round, so each fixture says by when it is to be played), a friend
// (Portuguese, 390x844) with no account opens the invite link, picks a name, is back on it and
// joins, the organiser adds one bot and starts it. Three entries make a bracket of four: the top seed has a bye in round 1,
// which the bracket shows (GET /v1/competitions/{id}: `away: null, status: "bye"`, the home its
// winner); the final's unknown side reads "to be decided" with no Ready button, and the server
// refuses to start it (409 fixture_not_playable). The rounds are columns on a desktop and
// stacked on a phone. The people play their fixtures from the page to the end; the winner of
// the final is the champion, and every fixture's winner is marked in the bracket as the
// server says. Screenshots `competitions-knockout-*` at both sizes in both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';
import { shot, serveWebFromDisk, watchErrors, englishOnScreen } from './helpers.mjs';
import {
  unique, request, getCompetition, newPlayer, pageAs, until, createFromPage, playMyFixtures, assertNoSidewaysScroll,
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

/** The bracket as the page draws it: per fixture, its round, status and sides. */
function readBracket(page) {
  return page.locator('[data-testid=bracket-match]').evaluateAll((boxes) => boxes.map((box) => {
    const side = (which) => {
      const el = box.querySelector(`[data-testid=bracket-${which}]`);
      return { player_id: el.dataset.playerId || null, text: el.textContent.replace(/\s+/g, ' ').trim(), winner: el.classList.contains('winner'), bye: el.classList.contains('bye') };
    };
    return {
      fixture_id: Number(box.dataset.fixtureId),
      round: Number(box.closest('[data-testid=bracket-round]').dataset.round),
      status: box.dataset.status,
      home: side('home'),
      away: side('away'),
      byeShown: Boolean(box.querySelector('[data-testid=bracket-bye]')),
      text: box.textContent.replace(/\s+/g, ' ').trim(),
    };
  }));
}

/** The bracket on the page is the server's: the same fixtures in the same rounds, sides and winners. */
async function assertBracketIsTheServers(page, comp, { tbd }) {
  const shown = await readBracket(page);
  assert.equal(shown.length, comp.fixtures.length, 'one box per fixture');
  assert.equal(await page.locator('[data-testid=bracket-round]').count(), comp.rounds, 'one column per round');
  for (const f of comp.fixtures) {
    const box = shown.find((x) => x.fixture_id === f.fixture_id);
    assert.ok(box, `fixture ${f.fixture_id} is in the bracket`);
    assert.equal(box.round, f.round, `fixture ${f.fixture_id}: its round`);
    assert.equal(box.status, f.status, `fixture ${f.fixture_id}: its status`);
    for (const which of ['home', 'away']) {
      const id = f[which] ?? null; // absent or null: not known yet, or the bye
      assert.equal(box[which].player_id, id, `fixture ${f.fixture_id}: the ${which} side`);
      if (id) {
        const name = comp.entries.find((e) => e.player_id === id).name;
        assert.ok(box[which].text.includes(name), `fixture ${f.fixture_id}: ${which} named ${name}: "${box[which].text}"`);
      } else if (f.status === 'bye') {
        assert.ok(box[which].bye, `fixture ${f.fixture_id}: the ${which} side is the bye`);
      } else {
        assert.equal(box[which].text, tbd, `fixture ${f.fixture_id}: the ${which} side is not known yet`);
      }
      assert.equal(box[which].winner, Boolean(id && f.winner === id), `fixture ${f.fixture_id}: ${which} marked as winner only if the server says so`);
    }
    assert.equal(box.byeShown, f.status === 'bye', `fixture ${f.fixture_id}: says "bye" only for a bye`);
    if (f.status === 'bye') {
      // The empty side's word ("bye", "folga") once in the box: not again below it.
      const word = (f.home ? box.away : box.home).text;
      assert.equal(box.text.toLowerCase().split(word.toLowerCase()).length - 1, 1, `fixture ${f.fixture_id}: "${word}" once, on the empty side: "${box.text}"`);
    }
  }
  return shown;
}

test('a knockout of three entries: the bye in the bracket, played to a champion', { timeout: 25 * 60 * 1000 }, async () => {
  const host = await newPlayer(server, 'Ko1');
  const name = unique('Ko-Cup');
  const a = await pageAs(browsers.host, host);
  const b = await browsers.guest.context.newPage();
  const errors = [watchErrors(a), watchErrors(b)];

  const id = await createFromPage(a, server, { name, format: 'knockout', overs: 1, tie: 'chaser_loses', roundHours: 48 });
  let comp = await getCompetition(server, id);
  assert.equal(comp.format, 'knockout');
  assert.equal(comp.options.overs, 1);
  assert.equal(comp.options.tie, 'chaser_loses', `the options the form sent: ${JSON.stringify(comp.options)}`);
  assert.equal(comp.round_hours, 48, 'the hours per round the form sent');
  assert.equal(await a.getByTestId('comp-start').isDisabled(), true, 'one entry cannot start a knockout');

  // The friend has no account yet: the list is open to anyone (the form asks for a name
  // first), and the invite link asks for a name, then comes back to it.
  await b.goto(`${server.url}/#/competitions`);
  await b.locator(`[data-testid=comp-group-open] [data-competition-id="${id}"]`).waitFor({ timeout: 15000 });
  await b.getByTestId('comp-sign-in').waitFor();
  assert.equal(await b.getByTestId('comp-create-submit').count(), 0, 'no create form without an account');
  assert.deepEqual(await englishOnScreen(b), [], 'no English on the list in Portuguese');
  const invite = await a.getByTestId('comp-invite-link').inputValue();
  await b.goto(invite);
  await b.getByTestId('comp-pick-name').click();
  await b.getByTestId('name-input').fill(unique('Ko2'));
  await b.getByTestId('name-submit').click();
  await b.getByTestId('comp-join').waitFor();
  assert.equal(b.url(), invite, 'back on the invite link after picking a name');
  const guest = await b.evaluate(() => JSON.parse(localStorage.getItem('crease.player')));
  await b.getByTestId('comp-join').click();
  await b.getByTestId('comp-leave').waitFor();
  // Leaving and joining again, from the list this time, works while it is open (the
  // organiser cannot leave: no button, and the server refuses).
  assert.equal(await a.getByTestId('comp-leave').count(), 0, 'the organiser has no Leave');
  const creatorLeaves = await request(server, 'POST', `/v1/competitions/${id}/leave`, host.token, {});
  assert.equal(creatorLeaves.status, 409, JSON.stringify(creatorLeaves.data));
  await b.getByTestId('comp-leave').click();
  await b.getByTestId('comp-join').waitFor();
  assert.equal((await getCompetition(server, id)).entries.length, 1, 'left');
  await b.goto(`${server.url}/#/competitions`);
  await b.locator(`[data-testid=comp-group-open] [data-competition-id="${id}"] [data-testid=comp-list-join]`).click();
  await b.waitForURL((url) => url.hash === `#/competitions/${id}`);
  await b.getByTestId('comp-leave').waitFor();
  assert.equal((await getCompetition(server, id)).entries.length, 2, 'joined again from the list');
  const again = await request(server, 'POST', `/v1/competitions/${id}/join`, guest.token, {});
  assert.equal(again.status, 409);
  assert.equal(again.data.error.code, 'already_entered');

  await a.getByTestId('comp-bot-count').fill('1');
  await a.getByTestId('comp-add-bots').click();
  await a.locator('[data-testid=comp-entry]').nth(2).waitFor({ timeout: 15000 });
  await a.getByTestId('comp-start').click();
  await a.locator('[data-testid=comp-status][data-status=running]').waitFor({ timeout: 15000 });

  comp = await getCompetition(server, id);
  assert.equal(comp.entries.length, 3);
  assert.equal(comp.rounds, 2, 'three entries: a bracket of four, two rounds');
  const round1 = comp.fixtures.filter((f) => f.round === 1);
  const final = comp.fixtures.filter((f) => f.round === 2);
  assert.equal(round1.length, 2);
  assert.equal(final.length, 1, 'one final');
  const bye = round1.find((f) => f.status === 'bye');
  assert.ok(bye, `a bye in round 1: ${JSON.stringify(round1)}`);
  assert.equal(bye.away ?? null, null, 'a bye has no away side (null or absent)');
  assert.equal(bye.winner, bye.home, 'the bye goes through');
  const topSeed = comp.entries.find((e) => e.seed === 1);
  assert.equal(bye.home, topSeed.player_id, 'the bye is the top seed\'s');
  log(`bracket: ${JSON.stringify(comp.fixtures.map((f) => [f.round, f.home && comp.entries.find((e) => e.player_id === f.home).name, f.away && comp.entries.find((e) => e.player_id === f.away).name, f.status]))}`);

  // The bracket on both pages, and the bye in it.
  for (const [page, tbd] of [[a, 'to be decided'], [b, 'a definir']]) {
    await page.locator('[data-testid=comp-status][data-status=running]').waitFor({ timeout: 15000 });
    await page.locator('[data-testid=bracket-match]').nth(2).waitFor();
    const shown = await assertBracketIsTheServers(page, comp, { tbd });
    const byeBox = shown.find((x) => x.fixture_id === bye.fixture_id);
    assert.ok(byeBox.away.bye && byeBox.byeShown, 'the bye is drawn as a bye');
    await assertNoSidewaysScroll(page, 'the bracket');
  }
  assert.deepEqual(await englishOnScreen(b), [], 'no English on the Portuguese bracket');
  // Rounds as columns on a desktop, stacked on a phone.
  const boxes = async (page) => page.locator('[data-testid=bracket-round]').evaluateAll((cols) => cols.map((c) => c.getBoundingClientRect().toJSON()));
  const [d1, d2] = await boxes(a);
  assert.ok(d2.left >= d1.right, `desktop: the final's column is right of round 1 (${d1.right} / ${d2.left})`);
  const [p1, p2] = await boxes(b);
  assert.ok(p2.top >= p1.bottom && Math.abs(p2.left - p1.left) < 2, 'phone: the final is under round 1');
  await shot(a, 'competitions-knockout-started-en-1280');
  await shot(b, 'competitions-knockout-started-pt-390');

  // A round against the clock: the friend's round-1 fixture says by when to play it.
  const friendsFirst = comp.fixtures.find((f) => f.round === 1 && (f.home === guest.player_id || f.away === guest.player_id));
  if (friendsFirst.status !== 'bye') {
    assert.ok(friendsFirst.deadline, `a deadline on the fixture: ${JSON.stringify(friendsFirst)}`);
    const shown = await b.locator(`[data-testid=my-fixture][data-fixture-id="${friendsFirst.fixture_id}"] [data-testid=fixture-deadline]`).textContent();
    assert.ok(shown.startsWith('Jogar até '), `"${shown}"`);
  } else {
    log('the friend has the bye: no round-1 deadline to show');
  }

  // The final's unknown side: no Ready button on the page, and the server will not start it.
  const finalFixture = final[0];
  const knownInFinal = finalFixture.home || finalFixture.away;
  const humanInFinal = [host, guest].find((p) => p.player_id === knownInFinal);
  if (humanInFinal && finalFixture.status === 'waiting' && !(finalFixture.home && finalFixture.away)) {
    const page = humanInFinal === host ? a : b;
    const row = page.locator(`[data-testid=my-fixture][data-fixture-id="${finalFixture.fixture_id}"]`);
    await row.waitFor();
    assert.equal(await row.getByTestId('fixture-ready').count(), 0, 'no Ready button before the other side is known');
    const refused = await request(server, 'POST', `/v1/competitions/${id}/fixtures/${finalFixture.fixture_id}/ready`, humanInFinal.token, {});
    assert.equal(refused.status, 409, JSON.stringify(refused.data));
    assert.equal(refused.data.error.code, 'fixture_not_playable');
  } else {
    log(`the bye went to the bot (${knownInFinal}): the final's refusal is not tried`);
  }

  let hostWaiting;
  const hostIsWaiting = new Promise((resolve) => { hostWaiting = resolve; });
  await Promise.all([
    playMyFixtures(a, server, { competitionId: id, competitionName: name, log, me: host, afterReady: async (fixture, row) => {
      await row.getByTestId('fixture-waiting').waitFor({ timeout: 10000 });
      hostWaiting();
    } }),
    playMyFixtures(b, server, { competitionId: id, competitionName: name, log, me: guest, beforeReady: () => hostIsWaiting }),
  ]);

  comp = await until(async () => {
    const c = await getCompetition(server, id);
    return c.status === 'finished' ? c : null;
  }, { timeout: 5 * 60 * 1000, every: 2000, what: 'the knockout to finish' });
  const played = comp.fixtures.find((f) => f.round === 2);
  assert.equal(played.status, 'finished');
  assert.ok(played.winner, 'the final has a winner');
  assert.equal(comp.champion, played.winner, 'the champion won the final');
  const real = comp.fixtures.find((f) => f.round === 1 && f.status !== 'bye');
  assert.ok([played.home, played.away].includes(real.winner), 'the round-1 winner is in the final');
  assert.ok([played.home, played.away].includes(bye.home), 'the bye holder is in the final');

  for (const [page, tbd, lang] of [[a, 'to be decided', 'en'], [b, 'a definir', 'pt-BR']]) {
    await page.goto(`${server.url}/#/competitions/${id}`);
    await page.locator('[data-testid=comp-status][data-status=finished]').waitFor({ timeout: 15000 });
    await assertBracketIsTheServers(page, comp, { tbd });
    assert.equal(await page.getByTestId('comp-champion').getAttribute('data-player-id'), comp.champion);
    if (lang === 'pt-BR') assert.deepEqual(await englishOnScreen(page), [], 'no English on the finished knockout');
    await assertNoSidewaysScroll(page, `the finished knockout (${lang})`);
  }
  await shot(a, 'competitions-knockout-finished-en-1280');
  await shot(b, 'competitions-knockout-finished-pt-390');
  for (const [browser, viewport, tag] of [[browsers.host, { width: 390, height: 844 }, 'en-390'], [browsers.guest, { width: 1280, height: 800 }, 'pt-1280']]) {
    const page = await browser.context.newPage();
    await page.setViewportSize(viewport);
    await page.goto(`${server.url}/#/competitions/${id}`);
    await page.locator('[data-testid=comp-status][data-status=finished]').waitFor({ timeout: 15000 });
    await assertBracketIsTheServers(page, comp, { tbd: tag.startsWith('pt') ? 'a definir' : 'to be decided' });
    if (tag.startsWith('pt')) assert.deepEqual(await englishOnScreen(page), []);
    await assertNoSidewaysScroll(page, `the finished knockout (${tag})`);
    await shot(page, `competitions-knockout-finished-${tag}`);
    await page.close();
  }
  assert.deepEqual(errors.flat(), [], 'no page errors');
});
