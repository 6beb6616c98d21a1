// Adjourning a match by agreement, in two browsers: two people play a CTG T10 of one over a
// side a few balls, the first offers to adjourn and takes it back, offers again, the second
// sees the banner (never over the ball or the question) and accepts; both see the adjourned
// panel and no clock. The second's page closes (a short disconnect grace would forfeit them
// in a running match), the first reloads: still adjourned, no clock, and the lobby's and live
// lists show the "adjourned" badge. The second comes back: the match resumes by itself and
// play continues. An offer declined, and one refused as too soon, end it. What the pages
// showed (banner, panel, commentary lines, in order) is what `GET /v1/matches/{id}/log`
// holds (`kind: "adjournment"`). Once in English (1280x800 and 390x844), once in Portuguese
// at 390x844 with no English on screen. Screenshots `adjourn-*` (first screenful).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';
import { signIn, serveWebFromDisk, watchErrors, englishOnScreen, SHOTS } from './helpers.mjs';

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

const ACTIONS = '[data-testid=decision] [data-action]:not([disabled])';
/** The first screenful, as a player opening the page sees it (the random clicks may have
 * scrolled to the board). */
async function screenful(page, name, { top = true } = {}) {
  if (top) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** At the top of the page, the strip and the question's first control are in the first screenful. */
async function inFirstScreenful(page, what) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const boxes = await page.evaluate(() => {
    const rect = (el) => (el && el.getClientRects().length ? el.getBoundingClientRect().toJSON() : null);
    return {
      height: innerHeight,
      strip: rect(document.querySelector('[data-testid=adjourn-slot]')),
      control: rect(document.querySelector('[data-testid=decision] [data-action]')),
      decision: rect(document.querySelector('[data-testid=decision-panel]')),
    };
  });
  assert.ok(boxes.strip && boxes.strip.bottom <= boxes.height, `${what}: the strip ends in the first screenful ${JSON.stringify(boxes)}`);
  const first = boxes.control || boxes.decision;
  assert.ok(first && first.top < boxes.height, `${what}: the question starts in the first screenful ${JSON.stringify(boxes)}`);
  return boxes;
}
const rand = () => Math.random().toString(36).slice(2, 7);

const WORDS = {
  en: {
    theirOffer: (name) => new RegExp(`^${name} offers to adjourn the match`),
    theirOfferAt: (name) => new RegExp(`^${name} offers to adjourn the match \\(resume at .+\\)\\.$`),
    sent: /^Offer to adjourn sent/,
    adjourned: 'Adjourned',
    resumesAt: /^The match resumes when both players are back, or at .+\.$/,
    resumes: /^The match resumes when both players are back\.$/,
    expires: /^If it has not resumed by .+, it ends with no result \(no rating change\)\.$/,
    paused: 'Play is paused while the match is adjourned.',
    tooSoon: 'Your offer to adjourn was declined a moment ago: play a few balls first.',
    badge: /^Adjourned/,
    line: {
      offered: [/^You offered to adjourn the match/, (n) => new RegExp(`^${n} offered to adjourn the match`)],
      withdrawn: [/^You withdrew your offer to adjourn\.$/, (n) => new RegExp(`^${n} withdrew the offer to adjourn\\.$`)],
      agreed: [/^You agreed: the match is adjourned\.$/, (n) => new RegExp(`^${n} agreed: the match is adjourned\\.$`)],
      declined: [/^You declined to adjourn\.$/, (n) => new RegExp(`^${n} declined to adjourn\\.$`)],
      resumed: [/^The match resumed\.$/, () => /^The match resumed\.$/],
    },
  },
  'pt-BR': {
    theirOffer: (name) => new RegExp(`^${name} propõe adiar a partida`),
    theirOfferAt: (name) => new RegExp(`^${name} propõe adiar a partida \\(retomada em .+\\)\\.$`),
    sent: /^Proposta de adiamento enviada/,
    adjourned: 'Partida adiada',
    resumesAt: /^A partida será retomada quando os dois jogadores voltarem, ou em .+\.$/,
    resumes: /^A partida será retomada quando os dois jogadores voltarem\.$/,
    expires: /^Se não for retomada até .+, ela termina sem resultado \(sem mudança na pontuação\)\.$/,
    paused: 'O jogo fica parado enquanto a partida estiver adiada.',
    tooSoon: 'A sua proposta de adiamento foi recusada há pouco: jogue mais algumas bolas antes.',
    badge: /^Adiada/,
    line: {
      offered: [/^Você propôs adiar a partida/, (n) => new RegExp(`^${n} propôs adiar a partida`)],
      withdrawn: [/^Você retirou a sua proposta de adiamento\.$/, (n) => new RegExp(`^${n} retirou a proposta de adiamento\\.$`)],
      agreed: [/^Você aceitou: a partida está adiada\.$/, (n) => new RegExp(`^${n} aceitou: a partida está adiada\\.$`)],
      declined: [/^Você recusou o adiamento\.$/, (n) => new RegExp(`^${n} recusou o adiamento\\.$`)],
      resumed: [/^A partida foi retomada\.$/, () => /^A partida foi retomada\.$/],
    },
  },
};

async function getJson(path, token) {
  const response = await fetch(`${server.url}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  assert.ok(response.ok, `GET ${path}: ${response.status}`);
  return response.json();
}

const tokenOf = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('crease.player')).token);
const playerOf = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('crease.player')));

async function ballsEnded(matchId, token) {
  const log = await getJson(`/v1/matches/${matchId}/log`, token);
  return log.entries.filter((e) => e.kind === 'event' && e.payload && e.payload.type === 'ball_ended').length;
}

/** Both pages answer whatever they are asked, by random clicks, until `balls` more balls ended. */
async function playBalls(pages, matchId, token, balls, timeout = 180000) {
  const start = await ballsEnded(matchId, token);
  const deadline = Date.now() + timeout;
  let lastCheck = 0;
  while (Date.now() < deadline) {
    for (const page of pages) {
      const settled = await page.evaluate(() => {
        const s = window.crease.screen && window.crease.screen.state;
        return Boolean(s && s.view && !s.busy && !s.awaitingUpdate && s.pendingSeats.includes(s.seat) && !s.over);
      });
      if (!settled) continue;
      const actions = page.locator(ACTIONS);
      const count = await actions.count();
      if (!count) continue;
      await actions.nth(Math.floor(Math.random() * count)).click({ timeout: 2000 }).catch(() => {});
    }
    if (Date.now() - lastCheck > 700) {
      lastCheck = Date.now();
      if ((await ballsEnded(matchId, token)) >= start + balls) return;
    }
    await pages[0].waitForTimeout(60);
  }
  throw new Error(`fewer than ${balls} balls ended in ${timeout / 1000} s`);
}

/** Lets the pages settle: no command of ours in flight. */
async function settle(pages) {
  for (const page of pages) {
    await page.waitForFunction(() => {
      const s = window.crease.screen && window.crease.screen.state;
      return s && !s.busy && !s.awaitingUpdate;
    });
  }
  await pages[0].waitForTimeout(500);
}

/** The commentary's adjournment lines, oldest first: [{action, text}]. */
async function adjournLines(page) {
  const lines = await page.locator('[data-testid=adjourn-line]').evaluateAll((els) => els.map((el) => ({ action: el.dataset.action, text: el.textContent.trim() })));
  return lines.reverse();
}

/** The log's adjournment entries, in order. */
async function loggedAdjournments(matchId, token) {
  const log = await getJson(`/v1/matches/${matchId}/log`, token);
  return log.entries.filter((e) => e.kind === 'adjournment');
}

/**
 * The banner or panel never covers the ball or the question: it does not overlap them, and
 * the point at the middle of the ball banner and of every control of the question is that
 * control's own (nothing drawn over it).
 */
async function notCovering(page, what) {
  const result = await page.evaluate(() => {
    const strip = document.querySelector('[data-testid=adjourn-slot]');
    const box = strip.getBoundingClientRect();
    const overlaps = (r) => !(r.bottom <= box.top || r.top >= box.bottom || r.right <= box.left || r.left >= box.right);
    const targets = [
      ...document.querySelectorAll('[data-testid=ball-banner]:not([hidden]), [data-testid=decision-panel], [data-testid=decision] [data-action]'),
    ].filter((el) => el.getClientRects().length);
    const covered = [];
    for (const el of targets) {
      const r = el.getBoundingClientRect();
      if (overlaps(r)) covered.push(`${el.dataset.testid || el.textContent.trim().slice(0, 20)} overlaps the strip`);
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (y < 0 || y > innerHeight) continue;
      const top = document.elementFromPoint(x, y);
      if (top && !el.contains(top) && !top.contains(el)) covered.push(`${el.dataset.testid || el.textContent.trim().slice(0, 20)} is under ${top.className}`);
    }
    return { covered, strip: { top: box.top, bottom: box.bottom }, targets: targets.length };
  });
  assert.ok(result.targets > 0, `${what}: something to check under the strip`);
  assert.deepEqual(result.covered, [], `${what}: ${JSON.stringify(result.strip)}`);
}

async function noEnglish(pages, what) {
  for (const page of pages) assert.deepEqual(await englishOnScreen(page), [], `English on screen: ${what}`);
}

for (const run of [
  { lang: 'en', locale: 'en-US', a: { width: 1280, height: 800 }, b: { width: 390, height: 844 }, resumeAt: true },
  { lang: 'pt-BR', locale: 'pt-BR', a: { width: 390, height: 844 }, b: { width: 390, height: 844 }, resumeAt: false },
]) {
  test(`adjourn by agreement and resume (${run.lang}; A ${run.a.width}x${run.a.height}, B ${run.b.width}x${run.b.height})`, { timeout: 10 * 60 * 1000 }, async () => {
    const W = WORDS[run.lang];
    const tag = `adjourn-${run.lang}`;
    const alice = await launch({ viewport: run.a, locale: run.locale });
    const bob = await launch({ viewport: run.b, locale: run.locale });
    try {
      await serveWebFromDisk(alice.context, server.url);
      await serveWebFromDisk(bob.context, server.url);
      const nameA = `AdjA-${rand()}`;
      const nameB = `AdjB-${rand()}`;
      const a = await alice.context.newPage();
      let b = await bob.context.newPage();
      const errors = [watchErrors(a), watchErrors(b)];
      await signIn(a, server.url, nameA);
      await signIn(b, server.url, nameB);
      const tokenA = await tokenOf(a);

      // A CTG T10 of one over a side, open for B; a 5 s disconnect grace would forfeit an
      // absent player of a running match.
      await a.getByTestId('game-ctg').click();
      await a.getByTestId('opt-format').selectOption('t10');
      await a.getByTestId('opt-overs').fill('1');
      await a.getByTestId('opt-grace').fill('5');
      await a.getByTestId('create-open').click();
      await a.waitForURL(/#\/match\//);
      const matchId = a.url().split('/').pop();
      await b.goto(`${server.url}/#/match/${matchId}`);
      await b.getByTestId('join-match').click();
      for (const page of [a, b]) await page.locator(ACTIONS).first().waitFor({ timeout: 20000 });
      const info = await getJson(`/v1/matches/${matchId}`);
      assert.equal(info.options.overs, 1, JSON.stringify(info.options));
      assert.equal(info.adjourned_at, undefined, 'a new match is not adjourned');
      const seatA = await a.evaluate(() => window.crease.screen.state.seat);
      const seatB = await b.evaluate(() => window.crease.screen.state.seat);
      assert.deepEqual([seatA, seatB].sort(), [0, 1]);

      // A few balls.
      await playBalls([a, b], matchId, tokenA, 2);
      await settle([a, b]);
      await screenful(b, `${tag}-b-playing`);

      // What each page showed, in order, to compare with the log at the end.
      const shown = [];

      // A offers and takes it back.
      await a.getByTestId('adjourn-open').click();
      await a.getByTestId('adjourn-form').waitFor();
      if (run.lang === 'pt-BR') await noEnglish([a], 'the offer form');
      // The form opens where Adjourn… was, below the question: in view, nothing above it moved.
      await a.getByTestId('adjourn-form').scrollIntoViewIfNeeded();
      await screenful(a, `${tag}-a-form`, { top: false });
      await a.getByTestId('adjourn-offer').click();
      await a.locator('[data-testid=adjourn-banner][data-state=offered-mine]').waitFor();
      await b.locator('[data-testid=adjourn-banner][data-state=offered-theirs]').waitFor();
      shown.push('offered');
      await a.getByTestId('adjourn-withdraw').click();
      for (const page of [a, b]) await page.getByTestId('adjourn-slot').waitFor({ state: 'hidden' });
      shown.push('withdrawn');

      // A offers again (in English with an agreed time: tomorrow at this hour), B accepts.
      await a.getByTestId('adjourn-open').click();
      if (run.resumeAt) {
        const local = await a.evaluate(() => {
          const d = new Date(Date.now() + 86400000);
          const p = (n) => String(n).padStart(2, '0');
          return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
        });
        await a.getByTestId('adjourn-resume-at').fill(local);
      }
      await a.getByTestId('adjourn-offer').click();
      const mine = a.locator('[data-testid=adjourn-banner][data-state=offered-mine]');
      await mine.waitFor();
      assert.match((await mine.getByTestId('adjourn-text').textContent()).trim(), W.sent);
      const theirs = b.locator('[data-testid=adjourn-banner][data-state=offered-theirs]');
      await theirs.waitFor();
      shown.push('offered');
      const offerText = (await theirs.getByTestId('adjourn-text').textContent()).trim();
      assert.match(offerText, run.resumeAt ? W.theirOfferAt(nameA) : W.theirOffer(nameA));
      await b.getByTestId('adjourn-accept').waitFor();
      await b.getByTestId('adjourn-decline').waitFor();
      // The banner is in the page's flow: it covers neither the ball nor the question.
      await notCovering(b, 'B\'s offer banner');
      await notCovering(a, 'A\'s sent banner');
      const boxes = await inFirstScreenful(b, 'B\'s offer banner');
      console.log(`${run.lang}: B's offer banner ${Math.round(boxes.strip.top)}-${Math.round(boxes.strip.bottom)} px, the question's first control from ${Math.round((boxes.control || boxes.decision).top)} px of ${boxes.height}`);
      await notCovering(b, 'B\'s offer banner at the top of the page');
      await inFirstScreenful(a, 'A\'s sent banner');
      if (run.lang === 'pt-BR') await noEnglish([a, b], 'the offer');
      await screenful(b, `${tag}-b-offer`);
      await screenful(a, `${tag}-a-offer-sent`);
      // A spectator (English run) sees the offer, with nothing to answer.
      if (run.lang === 'en') {
        const watcher = await alice.context.newPage();
        errors.push(watchErrors(watcher));
        await watcher.goto(`${server.url}/#/watch/${matchId}`);
        const banner = watcher.locator('[data-testid=adjourn-banner][data-state=offered-watch]');
        await banner.waitFor();
        assert.match((await banner.getByTestId('adjourn-text').textContent()).trim(), W.theirOfferAt(nameA));
        assert.equal(await watcher.getByTestId('adjourn-accept').count(), 0, 'a spectator cannot accept');
        assert.equal(await watcher.getByTestId('adjourn-open').count(), 0, 'a spectator cannot offer');
        await watcher.close();
      }
      // The agreed time went to the server as UTC, in the future.
      const offered = (await loggedAdjournments(matchId, tokenA)).at(-1);
      assert.equal(offered.payload.action, 'offered');
      if (run.resumeAt) assert.ok(Date.parse(offered.payload.resume_at) > Date.now(), `resume_at ${offered.payload.resume_at}`);

      await b.getByTestId('adjourn-accept').click();
      for (const page of [a, b]) {
        const panel = page.getByTestId('adjourn-panel');
        await panel.waitFor();
        assert.equal((await page.getByTestId('turn').textContent()).trim(), W.adjourned);
        assert.equal((await page.getByTestId('clock').textContent()).trim(), '', 'no clock while adjourned');
        assert.match((await panel.getByTestId('adjourn-resumes').textContent()).trim(), run.resumeAt ? W.resumesAt : W.resumes);
        assert.match((await panel.getByTestId('adjourn-expires').textContent()).trim(), W.expires);
        assert.equal(await page.getByTestId('adjourn-link').inputValue(), `${server.url}/#/match/${matchId}`);
        assert.equal((await page.getByTestId('adjourn-paused').textContent()).trim(), W.paused);
        assert.equal(await page.locator(ACTIONS).count(), 0, 'no move offered while adjourned');
      }
      shown.push('agreed');
      await notCovering(b, 'B\'s adjourned panel');
      if (run.lang === 'pt-BR') await noEnglish([a, b], 'the adjourned panel');
      await screenful(a, `${tag}-a-adjourned`);
      await screenful(b, `${tag}-b-adjourned`);
      const adjournedInfo = await getJson(`/v1/matches/${matchId}`);
      assert.equal(adjournedInfo.status, 'live');
      assert.ok(adjournedInfo.adjourned_at, `adjourned_at in GET /v1/matches/{id}: ${JSON.stringify(adjournedInfo)}`);
      assert.equal(Boolean(adjournedInfo.resume_at), run.resumeAt, 'resume_at only when agreed');

      // B goes away; A looks at the lists and reloads the match: still adjourned.
      await b.close();
      await a.goto(`${server.url}/#/`);
      await a.getByTestId('tab-live').click();
      const row = a.locator(`tr[data-match-id="${matchId}"]`);
      await row.waitFor({ timeout: 10000 });
      assert.match((await row.getByTestId('adjourned-badge').textContent()).trim(), W.badge);
      if (run.lang === 'pt-BR') await noEnglish([a], 'the lobby\'s live list');
      await row.scrollIntoViewIfNeeded();
      await screenful(a, `${tag}-a-lobby-badge`, { top: false });
      await a.goto(`${server.url}/#/live`);
      const entry = a.locator(`[data-testid=live-match][data-match-id="${matchId}"]`);
      await entry.waitFor({ timeout: 10000 });
      assert.match((await entry.getByTestId('adjourned-badge').textContent()).trim(), W.badge);
      if (run.lang === 'pt-BR') await noEnglish([a], 'the live list');
      await screenful(a, `${tag}-a-live-badge`);
      const listed = (await getJson('/v1/matches?status=live')).matches.find((m) => m.match_id === matchId);
      assert.ok(listed && listed.adjourned_at, 'the live list says adjourned_at');
      // The profile lists the match with the badge when its recent matches hold it.
      const me = await playerOf(a);
      const profile = await getJson(`/v1/players/${me.player_id}`);
      const recent = (profile.recent_matches || []).find((m) => m.match_id === matchId);
      if (recent) {
        assert.ok(recent.adjourned_at, 'the profile\'s match says adjourned_at');
        await a.goto(`${server.url}/#/players/${me.player_id}`);
        const badge = a.locator(`[data-testid=profile-matches] tr[data-match-id="${matchId}"] [data-testid=adjourned-badge]`);
        await badge.waitFor();
        assert.match((await badge.textContent()).trim(), W.badge);
        if (run.lang === 'pt-BR') await noEnglish([a], 'the profile');
        await badge.scrollIntoViewIfNeeded();
        await screenful(a, `${tag}-a-profile-badge`, { top: false });
      } else {
        console.log('the profile lists no live match: its badge is not checked');
      }

      await a.goto(`${server.url}/#/match/${matchId}`);
      await a.reload();
      await a.getByTestId('adjourn-panel').waitFor();
      await a.waitForTimeout(7000); // longer than the disconnect grace B would have had
      assert.equal((await a.getByTestId('clock').textContent()).trim(), '', 'no clock after a reload');
      assert.equal((await a.getByTestId('turn').textContent()).trim(), W.adjourned);
      assert.equal((await getJson(`/v1/matches/${matchId}`)).status, 'live', 'nobody forfeited for being away');
      await a.getByTestId('adjourn-line').first().waitFor();
      if (run.lang === 'pt-BR') await noEnglish([a], 'the reloaded adjourned match');
      await screenful(a, `${tag}-a-reloaded`);

      // B comes back: the match resumes by itself and play continues.
      b = await bob.context.newPage();
      errors.push(watchErrors(b));
      await b.goto(`${server.url}/#/match/${matchId}`);
      for (const page of [a, b]) {
        await page.getByTestId('adjourn-panel').waitFor({ state: 'detached', timeout: 20000 });
        await page.locator('[data-testid=adjourn-line][data-action=resumed]').waitFor();
        assert.notEqual((await page.getByTestId('turn').textContent()).trim(), W.adjourned);
      }
      shown.push('resumed');
      const resumedInfo = await getJson(`/v1/matches/${matchId}`);
      assert.equal(resumedInfo.adjourned_at, undefined, 'adjourned_at goes with the resume');
      await playBalls([a, b], matchId, tokenA, 1);
      await settle([a, b]);
      await clockRuns([a, b]);
      await screenful(b, `${tag}-b-resumed`);

      // B offers, A declines; B offers again at once: refused as too soon.
      await b.getByTestId('adjourn-open').click();
      await b.getByTestId('adjourn-offer').click();
      await a.getByTestId('adjourn-decline').click();
      for (const page of [a, b]) await page.locator('[data-testid=adjourn-line][data-action=declined]').waitFor();
      shown.push('offered', 'declined');
      await b.getByTestId('adjourn-open').click();
      await b.getByTestId('adjourn-offer').click();
      await b.getByTestId('refusal-message').filter({ hasText: W.tooSoon }).waitFor();
      await b.getByTestId('adjourn-form').waitFor({ state: 'detached' });
      if (run.lang === 'pt-BR') await noEnglish([b], 'the refusal');
      await screenful(b, `${tag}-b-too-soon`);

      // The log holds the adjournments in the order the pages showed them, and each page's
      // commentary tells them in that order, from either side.
      const logged = await loggedAdjournments(matchId, tokenA);
      assert.deepEqual(logged.map((e) => e.payload.action), shown, 'the log\'s adjournments');
      const bySeat = { offered: [seatA, seatA, seatB], withdrawn: [seatA], agreed: [seatB], declined: [seatA] };
      const seen = {};
      for (const e of logged) {
        if (e.payload.action === 'resumed') {
          assert.equal(e.payload.seat, undefined, 'resumed has no seat');
          continue;
        }
        const i = (seen[e.payload.action] = (seen[e.payload.action] ?? -1) + 1);
        assert.equal(e.payload.seat, bySeat[e.payload.action][i], `seat of ${e.payload.action} #${i + 1}`);
      }
      for (const [page, mySeat, other] of [[a, seatA, nameB], [b, seatB, nameA]]) {
        const lines = await adjournLines(page);
        assert.deepEqual(lines.map((l) => l.action), shown, `the commentary's adjournments on ${mySeat === seatA ? 'A' : 'B'}`);
        for (const [i, line] of lines.entries()) {
          const [you, them] = W.line[line.action];
          const seat = logged[i].payload.seat;
          assert.match(line.text, seat === mySeat ? you : them(other), `line ${i + 1}`);
        }
      }
      for (const [i, errs] of errors.entries()) assert.deepEqual(errs, [], `no page errors in page ${i}`);
    } finally {
      await alice.close();
      await bob.close();
    }
  });
}

test('against the bot: the bot accepts at once, and the match resumes when the player is back', { timeout: 3 * 60 * 1000 }, async () => {
  const browser = await launch({ viewport: { width: 390, height: 844 } });
  try {
    await serveWebFromDisk(browser.context, server.url);
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server.url, `AdjBot-${rand()}`);
    await page.getByTestId('game-ctg').click();
    await page.getByTestId('opt-format').selectOption('t10');
    await page.getByTestId('opt-overs').fill('1');
    await page.getByTestId('play-bot').click();
    await page.waitForURL(/#\/match\//);
    const matchId = page.url().split('/').pop();
    await page.locator(ACTIONS).first().waitFor({ timeout: 20000 });
    const token = await tokenOf(page);
    const seat = await page.evaluate(() => window.crease.screen.state.seat);
    await page.getByTestId('adjourn-open').click();
    await page.getByTestId('adjourn-offer').click();
    // No question to the bot: offered and agreed in one go.
    const panel = page.getByTestId('adjourn-panel');
    await panel.waitFor();
    assert.equal((await panel.getByTestId('adjourn-resumes').textContent()).trim(), 'The match resumes when you come back to it.');
    assert.equal((await page.getByTestId('clock').textContent()).trim(), '');
    const logged = await loggedAdjournments(matchId, token);
    assert.deepEqual(logged.map((e) => e.payload.action), ['offered', 'agreed']);
    assert.equal(logged[0].payload.seat, seat);
    assert.notEqual(logged[1].payload.seat, seat, 'the bot agreed');
    // The socket's one frame says the last step (agreed); the page reads the offer from the log.
    await page.locator('[data-testid=adjourn-line][data-action=offered]').waitFor();
    assert.deepEqual((await adjournLines(page)).map((l) => l.text), ['You offered to adjourn the match.', 'The bot agreed: the match is adjourned.']);
    await screenful(page, 'adjourn-bot-adjourned');
    // The player comes back (a reload): play resumes, a move is asked again.
    await page.reload();
    await page.locator('[data-testid=adjourn-line][data-action=resumed]').waitFor({ timeout: 15000 });
    await page.getByTestId('adjourn-panel').waitFor({ state: 'detached' });
    await page.locator(ACTIONS).first().waitFor({ timeout: 20000 });
    assert.deepEqual((await loggedAdjournments(matchId, token)).map((e) => e.payload.action), ['offered', 'agreed', 'resumed']);
    assert.deepEqual((await adjournLines(page)).map((l) => l.action), ['offered', 'agreed', 'resumed']);
    assert.deepEqual(errors, [], 'no page errors');
  } finally {
    await browser.close();
  }
});

/** After the resume a clock runs again for whoever is asked (the turn clock is back): some
 * page's own seat is asked and shows a deadline. (A page whose seat is not asked has no clock
 * of its own, so both pages are looked at.) */
async function clockRuns(pages) {
  const deadline = Date.now() + 10000;
  for (;;) {
    const clocks = await Promise.all(pages.map((page) => page.evaluate(() => {
      const s = window.crease.screen.state;
      return { asked: s.seat !== null && s.pendingSeats.includes(s.seat), deadline: s.deadline };
    })));
    if (clocks.some((clock) => clock.asked && clock.deadline !== null)) return;
    if (Date.now() > deadline) throw new Error(`no clock runs for the seat asked: ${JSON.stringify(clocks)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
