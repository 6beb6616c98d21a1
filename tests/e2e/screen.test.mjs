// The match screen on a phone (390x844) and a desktop (1280x800), for each game: nothing
// wider than the screen; the score, the question with its controls and the last ball (its
// outcome and dice) in the first screenful without scrolling; the ball banner says what the
// log says the ball was; the tab's title and icon say when it is your move. Then every other
// page (replay, finished match, lobby, live, profile, leaderboards) at the same size.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';
import { shot, serveWebFromDisk, watchErrors, signIn } from './helpers.mjs';
import { join } from 'node:path';
import { SHOTS } from './helpers.mjs';

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

const SIZES = [{ width: 390, height: 844, name: 'phone' }, { width: 1280, height: 800, name: 'desktop' }];

const GAMES = {
  ctg: { setup: async () => {} },
  wicketz: { setup: async (page) => page.getByTestId('opt-overs').fill('2') },
  champions: { setup: async (page) => page.getByTestId('opt-players').fill('2') },
};

/** What the log's ball-ending event says, as a test the banner's text must pass. */
function expectedBanner(game, event) {
  const runsText = (n) => (n === 1 ? '1 run' : `${n} runs`);
  if (game === 'ctg') {
    const b = event.ball;
    if (b.wicket) return { kind: 'out', test: (t) => t.startsWith('OUT!') };
    if (b.boundary === 6) return { kind: 'six', test: (t) => t === 'SIX!' };
    if (b.boundary === 4) return { kind: 'four', test: (t) => t === 'FOUR!' };
    if (b.runs) return { kind: 'runs', test: (t) => t.endsWith(runsText(b.runs)) };
    return { kind: 'dot', test: (t) => t === 'Dot ball' || t === 'Dropped! no run' };
  }
  if (game === 'wicketz') {
    const b = event.ball;
    const runs = b.bat_runs + b.byes;
    if (b.dismissal) return { kind: 'out', test: (t) => t.startsWith('OUT!') };
    if (b.reading && b.reading.kind === 'six') return { kind: 'six', test: (t) => t === 'SIX!' };
    if (b.reading && b.reading.kind === 'four') return { kind: 'four', test: (t) => t === 'FOUR!' };
    if (runs) return { kind: 'runs', test: (t) => t.endsWith(runsText(runs)) };
    return { kind: 'dot', test: (t) => t === 'No run' || t === 'Dropped! no run' };
  }
  const r = event.result;
  return { kind: 'over', test: (t) => t.includes(`: ${runsText(r.runs)}`) && (r.wickets ? t.includes(`${r.wickets} wicket`) : !t.includes('wicket')) };
}

/** The page's geometry: overflow to the side, and where the key parts sit. */
function measure(page) {
  return page.evaluate(() => {
    window.scrollTo(0, 0);
    const box = (selector) => {
      const el = document.querySelector(selector);
      if (!el || el.hidden || el.offsetParent === null) return null;
      const r = el.getBoundingClientRect();
      return { top: Math.round(r.top), bottom: Math.round(r.bottom), right: Math.round(r.right) };
    };
    // Elements that stick out of the screen and are not inside a scrolling box.
    const sticking = [];
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= window.innerWidth + 1) continue;
      let clipped = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll' || o === 'hidden') { clipped = true; break; }
      }
      if (!clipped) sticking.push(`${el.tagName.toLowerCase()}.${String(el.className && el.className.baseVal !== undefined ? el.className.baseVal : el.className).split(' ')[0]} right=${Math.round(r.right)}`);
    }
    return {
      innerWidth: window.innerWidth,
      innerHeight: window.innerHeight,
      scrollWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
      sticking: sticking.slice(0, 8),
      score: box('[data-testid=scorebar]'),
      decision: box('[data-testid=decision-panel]'),
      action: box('[data-testid=decision] [data-action]:not([disabled])'),
      banner: box('[data-testid=ball-banner]'),
      bannerDice: box('[data-testid=ball-dice]'),
      dice: box('[data-testid=dice-panel]'),
      lastAction: Math.max(0, ...[...document.querySelectorAll('[data-testid=decision] [data-action]')].map((e) => Math.round(e.getBoundingClientRect().bottom))),
      asked: (() => { const v = window.crease.screen && window.crease.screen.state && window.crease.screen.state.view; return v && v.ask ? v.ask.ask || v.ask.decision : null; })(),
    };
  });
}

function assertFits(m, what) {
  assert.ok(m.scrollWidth <= m.innerWidth, `${what}: ${m.scrollWidth} px wide on a ${m.innerWidth} px screen (${m.sticking.join(', ')})`);
}

async function readLog(page, matchId) {
  return page.evaluate(async (id) => {
    const player = JSON.parse(localStorage.getItem('crease.player'));
    const response = await fetch(`/v1/matches/${id}/log`, { headers: { Authorization: `Bearer ${player.token}` } });
    return response.json();
  }, matchId);
}

/**
 * Clicks random actions until a ball (an over in Champions) after `afterSeq` has ended and
 * a question waits for us.
 */
async function playToABall(page, afterSeq = -1, seen = {}) {
  const action = page.locator('[data-testid=decision] [data-action]:not([disabled])');
  for (let clicks = 0; clicks < 400; clicks += 1) {
    await action.first().waitFor({ timeout: 30000 });
    const banner = await page.getByTestId('ball-banner').isVisible()
      && Number(await page.getByTestId('ball-banner').getAttribute('data-seq')) > afterSeq;
    const settled = await page.evaluate(() => {
      const s = window.crease.screen.state;
      return !s.busy && !s.awaitingUpdate && s.pendingSeats.includes(s.seat);
    });
    if (settled) {
      // Every question on the way: the page no wider than the screen, the question and all
      // of its controls in the first screenful.
      const m = await measure(page);
      assertFits(m, `asked ${m.asked}`);
      assert.ok(m.decision.bottom <= m.innerHeight && m.lastAction <= m.innerHeight,
        `asked ${m.asked}: the question ends at ${m.decision.bottom} px, its last control at ${m.lastAction} px, below the first ${m.innerHeight} px`);
      seen[m.asked] = (seen[m.asked] || 0) + 1;
    }
    if (banner && settled) return clicks;
    // CTG: bowl first when we win the toss, so the fielding side's questions (bowler, field,
    // bowl card) are checked too.
    const bowl = page.locator('[data-testid=decision] button:not([disabled])', { hasText: /^Bowl$/ });
    if (await bowl.count()) {
      await bowl.first().click().catch(() => {});
      continue;
    }
    const count = await action.count();
    if (count === 0) continue;
    try {
      await action.nth(Math.floor(Math.random() * count)).click({ timeout: 2000 });
    } catch {
      /* the view changed under us */
    }
  }
  throw new Error('no ball ended within 400 clicks');
}

for (const size of SIZES) {
  test(`${size.name} ${size.width}x${size.height}: each game's match screen, then every page`, { timeout: 8 * 60 * 1000 }, async () => {
    const browser = await launch({ viewport: { width: size.width, height: size.height } });
    await serveWebFromDisk(browser.context, server.url);
    try {
      const page = await browser.context.newPage();
      const errors = watchErrors(page);
      await signIn(page, server.url, `Mithali ${size.name}`);
      const finished = [];
      for (const [game, { setup }] of Object.entries(GAMES)) {
        await page.goto(`${server.url}/#/`);
        await page.getByTestId(`game-${game}`).click();
        await setup(page);
        await page.getByTestId('play-bot').click();
        await page.waitForURL(/#\/match\//);
        const matchId = page.url().split('/').pop();
        // Three balls, each checked with whatever question comes next (a random one).
        let seq = -1;
        const seen = {};
        let withDice = 0;
        for (let ballNo = 1; ballNo <= 3; ballNo += 1) {
          await playToABall(page, seq, seen);

          await page.waitForTimeout(700); // the banner's entrance animation, for the screenshot
          const m = await measure(page);
          const asked = await page.evaluate(() => { const v = window.crease.screen.state.view; return v && v.ask && (v.ask.ask || v.ask.decision); });
          await page.screenshot({ path: join(SHOTS, `screen-${game}-${size.width}x${size.height}-ball${ballNo}.png`) });
          if (ballNo === 1) await shot(page, `screen-${game}-${size.width}x${size.height}-full`);
          assertFits(m, `${game} match (asked ${asked})`);
          // A CTG ball may roll no die (a quick single taken): its banner then has none.
          for (const part of ['score', 'decision', 'action', 'banner', 'bannerDice']) {
            if (part === 'bannerDice' && !m[part]) continue;
            assert.ok(m[part], `${game}: the ${part} is on screen`);
            assert.ok(m[part].bottom <= m.innerHeight, `${game} (asked ${asked}): the ${part} ends at ${m[part].bottom} px, below the first ${m.innerHeight} px`);
          }
          if (m.bannerDice) withDice += 1;
          if (ballNo === 1) {
            // The banner's entrance animation, and none for a reader who asked for less motion.
            const animation = () => page.evaluate(() => getComputedStyle(document.querySelector('[data-testid=ball-banner]')).animationName);
            assert.equal(await animation(), 'ball-in');
            await page.emulateMedia({ reducedMotion: 'reduce' });
            assert.equal(await animation(), 'none', 'no animation under prefers-reduced-motion');
            await page.emulateMedia({ reducedMotion: 'no-preference' });
          }
          if (size.name === 'desktop' && m.dice) assert.ok(m.dice.bottom <= m.innerHeight, `${game} (asked ${asked}): the dice panel ends at ${m.dice.bottom} px, below the fold`);

          // The banner tells the ball the log records.
          seq = Number(await page.getByTestId('ball-banner').getAttribute('data-seq'));
          const text = (await page.getByTestId('ball-text').textContent()).trim();
          const log = await readLog(page, matchId);
          const entry = log.entries.find((e) => e.seq === seq);
          assert.ok(entry, `the banner's ball (seq ${seq}) is in the log`);
          const expected = expectedBanner(game, entry.payload);
          assert.ok(expected.test(text), `${game}: banner "${text}" for ${JSON.stringify(entry.payload).slice(0, 300)}`);
          const ends = { ctg: 'ball_ended', wicketz: 'ball_completed', champions: 'over_resolved' }[game];
          const last = log.entries.filter((e) => e.payload && e.payload.type === ends).pop();
          assert.equal(last.seq, seq, 'the banner shows the latest ball');
        }

        assert.ok(withDice >= 1, `${game}: a banner showed the dice of its ball`);
        if (game === 'ctg') {
          // Through the first innings to the fielding side's questions, each checked too.
          let seqNow = seq;
          for (let balls = 0; balls < 80 && !['choose_bowler', 'set_field', 'bowl'].every((k) => seen[k]); balls += 1) {
            await playToABall(page, seqNow, seen);
            seqNow = Number(await page.getByTestId('ball-banner').getAttribute('data-seq'));
          }
          for (const kind of ['choose_bowler', 'set_field', 'bowl']) assert.ok(seen[kind], `CTG asked ${kind} and it was checked`);
          await page.screenshot({ path: join(SHOTS, `screen-ctg-${size.width}x${size.height}-fielding.png`) });
        }
        console.log(`${size.name} ${game}: questions checked ${JSON.stringify(seen)}`);

        // A decision waits for us: the tab says so.
        const tab = await page.evaluate(() => ({ title: document.title, icon: document.querySelector('link[rel=icon]').getAttribute('href') }));
        assert.match(tab.title, /^● Your move/, 'the title says it is your move');
        assert.match(tab.icon, /^data:image\/svg\+xml/, 'the favicon has its "your move" dot');

        // Forfeit, so the match is finished: its page and its replay.
        await page.evaluate(async (id) => {
          const player = JSON.parse(localStorage.getItem('crease.player'));
          await fetch(`/v1/matches/${id}/leave`, { method: 'POST', headers: { Authorization: `Bearer ${player.token}`, 'Content-Type': 'application/json' }, body: '{}' });
        }, matchId);
        await page.getByTestId('final-result').waitFor({ timeout: 30000 });
        assert.doesNotMatch(await page.title(), /Your move/, 'no "your move" once the match is over');
        finished.push(matchId);
      }

      const pages = [
        ['lobby', '#/', '[data-testid=play-bot]'],
        ['live', '#/live', '[data-testid=live-list], .live'],
        ['leaderboards', '#/leaderboards/ctg', '[data-testid=leaderboard]'],
        ['profile', null, '[data-testid=profile-ratings], [data-testid=profile-matches]'],
        ...finished.map((id, i) => [`replay-${Object.keys(GAMES)[i]}`, `#/replay/${id}`, '[data-testid=replay-position]']),
        ...finished.map((id, i) => [`finished-${Object.keys(GAMES)[i]}`, `#/match/${id}`, '[data-testid=final-result]']),
        // The design screens fed with captured views (no server match): they must still play.
        ...Object.keys(GAMES).map((game) => [`mock-${game}`, `#/mock/${game}`, '[data-testid=decision] [data-action]']),
      ];
      for (const [name, hash, ready] of pages) {
        if (hash) await page.goto(`${server.url}/${hash}`);
        else await page.getByTestId('player-name').click();
        await page.locator(ready).first().waitFor({ timeout: 15000 });
        await page.waitForTimeout(300);
        const m = await measure(page);
        await shot(page, `screen-page-${name}-${size.width}x${size.height}`);
        assertFits(m, name);
        if (name.startsWith('finished-')) {
          assert.ok(await page.getByTestId('to-replay').first().isVisible(), 'a finished match links to its replay');
          assert.doesNotMatch(await page.getByTestId('connection').textContent(), /reconnecting/);
        }
      }
      assert.deepEqual(errors, [], 'no page errors');
    } finally {
      await browser.close();
    }
  });
}
