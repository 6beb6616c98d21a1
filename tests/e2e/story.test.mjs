// The story of a match is told the same everywhere: for whole matches of all three games
// (played here by clicking against the server's bots), the commentary a spectator page
// produced from its live socket equals the replay's, line for line, and so does the
// commentary of a spectator page reloaded in the middle of the match. The replay draws the
// board (CTG: the field, the batters, the score, the dice) at each ball.
//
// The CTG match is also followed by a second page of the same seat speaking protocol 1: the
// test counts the WebSocket frame bytes each seat page received and prints them per ball;
// protocol 2 (the browser's default) must be smaller.
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

/** Counts the payload bytes of every WebSocket frame the page receives. */
function countBytes(page) {
  const tally = { bytes: 0, frames: 0, sockets: 0 };
  page.on('websocket', (ws) => {
    tally.sockets += 1;
    ws.on('framereceived', (frame) => {
      tally.frames += 1;
      tally.bytes += Buffer.byteLength(typeof frame.payload === 'string' ? frame.payload : Buffer.from(frame.payload));
    });
  });
  return tally;
}

const commentary = (page) => page.evaluate(() => window.crease.screen.state.commentary.map(String));

/** A spectator page on the match, with its socket open. */
async function watcher(context, matchId, errors) {
  const page = await context.newPage();
  errors.push(watchErrors(page));
  await page.goto(`${server.url}/#/watch/${matchId}`);
  await page.waitForFunction(() => window.crease.screen?.state?.view && window.crease.screen.state.logLoaded, null, { timeout: 20000 });
  return page;
}

const GAMES = [
  // Three overs a side: a whole match, in a fraction of a full T10's time (CI's budget).
  {
    game: 'ctg',
    setup: async (page) => {
      await page.getByTestId('opt-format').selectOption('t10');
      await page.getByTestId('opt-overs').fill('3');
    },
    ballEnds: 'ball_ended',
    bytes: true,
  },
  { game: 'wicketz', setup: (page) => page.getByTestId('opt-overs').fill('2'), ballEnds: 'ball_completed' },
  { game: 'champions', setup: (page) => page.getByTestId('opt-players').fill('3'), ballEnds: 'over_resolved' },
];

for (const { game, setup, ballEnds, bytes } of GAMES) {
  test(`${game}: the live commentary, a reloaded page's and the replay's are the same, line for line`, { timeout: 25 * 60 * 1000 }, async () => {
    const errors = [];
    const page = await browser.context.newPage();
    errors.push(watchErrors(page));
    const seatBytes = countBytes(page);
    // One browser for the three matches: the first signs in, the others find the lobby.
    await page.goto(`${server.url}/`);
    await page.getByTestId('name-input').or(page.getByTestId('play-bot')).first().waitFor();
    if (await page.getByTestId('name-input').count()) await signIn(page, server.url, 'Storyteller');
    await page.getByTestId(`game-${game}`).click();
    await setup(page);
    await page.getByTestId('play-bot').click();
    await page.waitForURL(/#\/match\//);
    const matchId = page.url().split('/').pop();
    await page.locator('[data-testid=decision] [data-action]:not([disabled])').first().waitFor({ timeout: 30000 });

    // The same seat on protocol 1, in its own tab: it only follows.
    let p1 = null;
    let p1Bytes = null;
    if (bytes) {
      p1 = await browser.context.newPage();
      await p1.addInitScript(() => sessionStorage.setItem('crease.protocol', '1'));
      p1Bytes = countBytes(p1);
      await p1.goto(`${server.url}/#/match/${matchId}`);
      await p1.waitForFunction(() => window.crease.screen?.state?.view && window.crease.screen.state.logLoaded, null, { timeout: 20000 });
    }
    const live = await watcher(browser.context, matchId, errors);
    const reloaded = await watcher(browser.context, matchId, errors);
    const firstLive = await live.evaluate(() => window.crease.screen.state.commentarySeq);

    let reloadedOnce = false;
    const clicks = await playByClicking(page, {
      timeout: 60000,
      async onStep(n) {
        // Early: the player's third decision. The 2-over Wicketz match against the normal bot,
        // which now takes most decisions from hard, can end before a twelfth (CI met one).
        if (!reloadedOnce && n === 3) {
          reloadedOnce = true;
          await reloaded.reload();
          await reloaded.waitForFunction(() => window.crease.screen?.state?.logLoaded && window.crease.screen.state.view, null, { timeout: 20000 });
        }
      },
    });
    assert.ok(clicks > 0);
    assert.ok(reloadedOnce, 'the spectator page was reloaded during the match');
    for (const p of [live, reloaded, ...(p1 ? [p1] : [])]) {
      await p.waitForFunction(() => window.crease.screen.state.over, null, { timeout: 30000 });
    }
    // The finished frame closes the socket: nothing more comes.
    await page.waitForTimeout(500);

    const replay = await browser.context.newPage();
    errors.push(watchErrors(replay));
    await replay.goto(`${server.url}/#/replay/${matchId}`);
    await replay.getByTestId('replay-position').filter({ hasText: /^Before the first ball/ }).waitFor();
    const told = await replay.evaluate(() => window.crease.screen.steps.flatMap((step) => step.lines.map(String)));
    const balls = await replay.evaluate(() => window.crease.screen.steps.length - 1);

    const liveLines = await commentary(live);
    const reloadedLines = await commentary(reloaded);
    assert.ok(told.length > 30, `a whole match has a story: ${told.length} lines`);
    assert.deepEqual(liveLines, told, 'the live spectator page said what the replay says');
    assert.deepEqual(reloadedLines, told, 'a page reloaded mid-match says what the replay says');
    // The seat's pages name the seat "you", and say the same to each other on both protocols.
    const seatLines = await commentary(page);
    assert.equal(seatLines.length, told.length, 'the seat page told as many lines');
    if (p1) assert.deepEqual(await commentary(p1), seatLines, 'protocol 1 and protocol 2 tell the same story');

    const log = await (await fetch(`${server.url}/v1/matches/${matchId}/log`)).json();
    const events = log.entries.filter((e) => e.kind === 'event');
    assert.equal(balls, events.filter((e) => e.payload.type === ballEnds).length, 'a replay step per ball');
    const fromSocket = events.filter((e) => e.seq > firstLive).length;
    console.log(`${game}: ${told.length} lines; the live page got ${fromSocket} of ${events.length} events from its socket`);
    // (The bots may play the first events before the page opens: those come from the log.)
    assert.ok(fromSocket > events.length * 0.8, 'the live page watched most of the match on its socket');

    // The replay draws the match as it stood at each ball.
    if (game === 'ctg') {
      await replay.keyboard.press('ArrowRight');
      await replay.getByTestId('replay-position').filter({ hasText: `Ball 1 of ${balls}` }).waitFor();
      // The batters at the crease: both, or the non-striker alone when ball 1 took a wicket
      // (the next batter is not in until the batting side picks one).
      await replay.locator('[data-testid=replay-board] :is([data-testid=striker], [data-testid=non-striker])').first().waitFor();
      await replay.locator('[data-testid=replay-dice] [data-testid=last-ball]').waitFor();
      await replay.locator('[data-testid=replay-board] svg').first().waitFor();
      await shot(replay, 'replay-ctg-ball-1');
      await replay.keyboard.press('End');
      await replay.getByTestId('replay-position').filter({ hasText: `Ball ${balls} of ${balls}` }).waitFor();
      // The last ball's score line is the scorecard's final score of the side batting last.
      const headline = await replay.getByTestId('headline-score').textContent();
      const total = await replay.locator('[data-testid^=replay-total-]').last().textContent();
      assert.ok(total.startsWith(headline), `the board's score ${headline} is the running score ${total}`);
      await shot(replay, 'replay-ctg-last-ball');
    }
    if (game === 'champions') {
      // The fold's players at the end agree with the engine's final points: runs, and the
      // points for Xp left over (a point per `xp_per_point` Xp).
      const scene = await replay.evaluate(() => window.crease.screen.steps.at(-1).scene.state);
      assert.ok(scene.points.length >= 2, 'the final points are in');
      scene.players.forEach((p, i) => {
        assert.equal(p.runs, scene.points[i].runs, `runs of seat ${i}`);
        assert.equal(p.wickets_taken, scene.points[i].wickets, `wickets of seat ${i}`);
        assert.equal(Math.floor(p.xp / scene.rules.xp_per_point), scene.points[i].unused_xp, `Xp left of seat ${i}`);
      });
      await replay.keyboard.press('End');
      await replay.locator('[data-testid=replay-board] [data-testid=champions-scoreboard]').waitFor();
      await replay.locator('[data-testid=replay-board] [data-testid=last-over]').waitFor();
      await shot(replay, 'replay-champions-board-last-over');
    }
    if (game === 'wicketz') {
      await replay.keyboard.press('ArrowRight');
      await replay.locator('[data-testid=replay-board] svg.wz-field').waitFor();
      await replay.locator('[data-testid=replay-board] .batter-card.facing').waitFor();
      await replay.keyboard.press('End');
      await replay.getByTestId('replay-position').filter({ hasText: `Ball ${balls} of ${balls}` }).waitFor();
      const headline = await replay.getByTestId('headline-score').textContent();
      const total = await replay.locator('[data-testid^=replay-total-]').last().textContent();
      assert.ok(total.startsWith(headline), `the board's score ${headline} is the running score ${total}`);
      await shot(replay, 'replay-wicketz-board-last-ball');
    }

    if (bytes) {
      const perBall = (t) => Math.round(t.bytes / balls);
      console.log(`bytes per ball per seat over ${balls} balls: protocol 1 ${perBall(p1Bytes)} B (${p1Bytes.bytes} B, ${p1Bytes.frames} frames), protocol 2 ${perBall(seatBytes)} B (${seatBytes.bytes} B, ${seatBytes.frames} frames), ${(p1Bytes.bytes / seatBytes.bytes).toFixed(1)}x smaller`);
      assert.ok(seatBytes.bytes < p1Bytes.bytes, 'protocol 2 sends fewer bytes than protocol 1');
    }
    assert.deepEqual(errors.flat(), [], 'no page errors');
    for (const p of [page, live, reloaded, replay, ...(p1 ? [p1] : [])]) await p.close();
  });
}
