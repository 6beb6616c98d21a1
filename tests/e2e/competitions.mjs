// Shared steps of the competitions tests (competitions-*.test.mjs): the API as the tests read
// it, pages logged in as a player, a competition created from the page, each player's fixtures
// played from the page to the end, and the table or bracket read back from the screen.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { playByClicking } from './helpers.mjs';

/** A name no other test uses (every e2e file shares one server in CI). */
export const unique = (prefix) => `${prefix}-${randomBytes(3).toString('hex')}`;

/** `{status, data}` of one API call. */
export async function request(server, method, path, token, body) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { raw: text };
  }
  return { status: response.status, data };
}

/** An API call that must succeed. */
export async function call(server, method, path, token, body) {
  const { status, data } = await request(server, method, path, token, body);
  assert.ok(status >= 200 && status < 300, `${method} ${path}: ${status} ${JSON.stringify(data)}`);
  return data;
}

export const getCompetition = (server, id) => call(server, 'GET', `/v1/competitions/${id}`);

/** A guest player made through the API: {player_id, token, name}. */
export async function newPlayer(server, prefix) {
  const name = unique(prefix);
  const player = await call(server, 'POST', '/v1/players', null, { name });
  return { ...player, name: player.name || name };
}

/** A page of `browser` that is logged in as `player` (the token kept as the page keeps it). */
export async function pageAs(browser, player) {
  await browser.context.addInitScript((saved) => localStorage.setItem('crease.player', saved), JSON.stringify(player));
  return browser.context.newPage();
}

/** Polls until `check()` returns a truthy value (returned), or fails after `timeout` ms. */
export async function until(check, { timeout = 60000, every = 500, what = 'the condition' } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = await check();
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/**
 * Fills the create form of #/competitions and submits it: CTG T10 with `overs` a side.
 * Returns the new competition's id (from the address the page moved to).
 */
export async function createFromPage(page, server, { name, format, overs = 1, tie = null, doubleRound = false, roundHours = null }) {
  await page.goto(`${server.url}/#/competitions`);
  await page.getByTestId('comp-create').waitFor();
  await page.getByTestId('comp-name').fill(name);
  await page.getByTestId('comp-game').selectOption('ctg');
  await page.getByTestId('opt-format').selectOption('t10');
  await page.getByTestId('opt-overs').fill(String(overs));
  if (tie) await page.getByTestId('opt-tie').selectOption(tie);
  await page.getByTestId(`comp-kind-${format}`).check();
  if (doubleRound) await page.getByTestId('comp-double').check();
  if (roundHours) await page.getByTestId('comp-round-hours').fill(String(roundHours));
  await page.getByTestId('comp-create-submit').click();
  await page.waitForURL(/#\/competitions\/[^/]+$/);
  const id = decodeURIComponent(page.url().split('/').pop());
  await page.getByTestId('comp-name').waitFor();
  return id;
}

/** The fixtures a player plays in, in round order. */
export function fixturesOf(competition, playerId) {
  return (competition.fixtures || [])
    .filter((f) => f.home === playerId || f.away === playerId)
    .sort((a, b) => a.round - b.round || a.slot - b.slot);
}

/**
 * Plays every fixture of `me` from the competition's page, in round order: Ready to play (a
 * bot is always ready, so its match starts at once; against a person the page waits and opens
 * the match when the other side is ready too), the match played by clicking to its end, then
 * back to the competition by the match screen's "Part of <name>" link.
 * `beforeReady(fixture)` and `afterReady(fixture, row)` run around the click on a fixture
 * against a person (the test orders the two sides with them). Returns the match ids played.
 */
export async function playMyFixtures(page, server, { competitionId, competitionName, me, beforeReady, afterReady, onMatchEnd, log = () => {} }) {
  const played = [];
  const compUrl = `${server.url}/#/competitions/${competitionId}`;
  const waitUntil = Date.now() + 10 * 60 * 1000;
  for (let guard = 0; guard < 20;) {
    const comp = await getCompetition(server, competitionId);
    const pending = fixturesOf(comp, me.player_id).filter((f) => f.status !== 'finished' && f.status !== 'bye');
    if (pending.length === 0 || comp.status === 'finished') return played;
    const fixture = pending[0];
    const other = fixture.home === me.player_id ? fixture.away : fixture.home;
    if (!other) {
      // A knockout fixture whose other side is still being decided: wait for it.
      assert.ok(Date.now() < waitUntil, `fixture ${fixture.fixture_id} never got its other side`);
      await new Promise((r) => setTimeout(r, 1000));
      continue;
    }
    guard += 1;
    if (!page.url().endsWith(`#/competitions/${competitionId}`)) await page.goto(compUrl);
    const row = page.locator(`[data-testid=my-fixture][data-fixture-id="${fixture.fixture_id}"]`);
    await row.waitFor({ timeout: 20000 });
    const human = !(comp.entries.find((e) => e.player_id === other) || {}).bot;
    if (fixture.status === 'live' && fixture.match_id) {
      await row.getByTestId('fixture-play').click();
    } else {
      if (human && beforeReady) await beforeReady(fixture);
      log(`${me.name}: ready for fixture ${fixture.fixture_id} (round ${fixture.round}) against ${human ? 'a person' : 'a bot'}`);
      await row.getByTestId('fixture-ready').click();
      if (human && afterReady) await afterReady(fixture, row);
    }
    await page.waitForURL(/#\/match\/[^/]+$/, { timeout: 5 * 60 * 1000 });
    const matchId = page.url().split('/').pop();
    const now = await getCompetition(server, competitionId);
    const started = now.fixtures.find((f) => f.fixture_id === fixture.fixture_id);
    assert.equal(started.match_id, matchId, 'the page opened the match of the fixture');
    const clicks = await playByClicking(page, { timeout: 120000 });
    await page.getByTestId('result').waitFor({ timeout: 120000 });
    log(`${me.name}: fixture ${fixture.fixture_id} played (${clicks} clicks), match ${matchId}`);
    if (!played.includes(matchId)) played.push(matchId);
    // The match screen links back to its competition.
    const link = page.getByTestId('part-of-link');
    await link.waitFor({ timeout: 15000 });
    assert.equal((await link.textContent()).trim(), competitionName, 'the match screen names its competition');
    if (onMatchEnd) await onMatchEnd(matchId, played.length);
    await link.click();
    await page.waitForURL((url) => url.hash === `#/competitions/${competitionId}`);
    // The fixture is finished in the server's answer before the next one is picked.
    await until(async () => {
      const c = await getCompetition(server, competitionId);
      return c.fixtures.find((f) => f.fixture_id === fixture.fixture_id).status === 'finished';
    }, { timeout: 30000, what: `fixture ${fixture.fixture_id} to be finished` });
  }
  throw new Error('more fixtures than a competition of this size has');
}

/** The league table as the page shows it: one object per row, each cell's text. */
export async function readStandings(page) {
  return page.locator('[data-testid=standing-row]').evaluateAll((rows) => rows.map((row) => {
    const cell = (col) => {
      const el = row.querySelector(`[data-col="${col}"]`);
      return el ? el.textContent.replace(/\s+/g, ' ').trim() : null;
    };
    return {
      player_id: row.dataset.playerId,
      position: cell('position'),
      name: cell('name'),
      played: cell('played'),
      won: cell('won'),
      lost: cell('lost'),
      tied: cell('tied'),
      no_result: cell('no_result'),
      points: cell('points'),
      nrr: cell('net_run_rate'),
      nrrValue: row.querySelector('[data-col="net_run_rate"]')?.dataset.value ?? null,
      for: cell('for'),
      against: cell('against'),
      forVisible: (() => { const el = row.querySelector('[data-col="for"]'); return Boolean(el && el.getClientRects().length); })(),
    };
  }));
}

/** A net run rate written as a table in `lang` writes it: "+0.843" / "+0,843". */
export function nrrText(value, lang) {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: 3, maximumFractionDigits: 3, signDisplay: 'exceptZero' }).format(value);
}

/**
 * [`assertTableIsTheServers`] once the page and the server agree: the fixtures between two
 * bots are played the moment a league starts, so a single read of each can straddle a
 * result (CI met one). Retries for `timeoutMs`, then fails with the last difference.
 */
export async function assertTableSettlesToTheServers(page, server, id, lang, timeoutMs = 20000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const comp = await getCompetition(server, id);
    try {
      return await assertTableIsTheServers(page, comp.standings, lang);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** Asserts the table on the page is the server's standings, row by row and cell by cell. */
export async function assertTableIsTheServers(page, standings, lang) {
  const shown = await readStandings(page);
  assert.equal(shown.length, standings.length, 'one row per entry');
  standings.forEach((row, i) => {
    const cells = shown[i];
    const where = `row ${i + 1} (${row.name})`;
    assert.equal(cells.player_id, row.player_id, `${where}: the same player in the same place`);
    assert.equal(cells.position, String(row.position), `${where}: position`);
    assert.ok(cells.name.endsWith(row.name), `${where}: name "${cells.name}"`);
    for (const key of ['played', 'won', 'lost', 'tied', 'no_result', 'points']) {
      assert.equal(cells[key], String(row[key]), `${where}: ${key}`);
    }
    assert.equal(Number(cells.nrrValue), row.net_run_rate, `${where}: net run rate value`);
    assert.equal(cells.nrr, nrrText(row.net_run_rate, lang), `${where}: net run rate as written`);
    assert.equal(cells.for, `${row.runs_for}/${row.overs_faced}`, `${where}: runs and overs for`);
    assert.equal(cells.against, `${row.runs_against}/${row.overs_bowled}`, `${where}: runs and overs against`);
  });
  return shown;
}

/** The page is no wider than its screen (nothing overflows sideways on a phone). */
export async function assertNoSidewaysScroll(page, what) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `${what}: the page is ${scroll}px wide on a ${width}px screen`);
}
