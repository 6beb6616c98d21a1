// The CTG match screen in Portuguese and in English: a short T10 (2 overs per innings, the
// `overs` option) against the bot, created from the lobby and played to its end by clicking.
// In a Portuguese browser (390x844), at every decision no English is left in the CTG parts
// of the page (the headline, the board, the question, the ball banner, this ball's dice, the
// commentary), and the banner tells the ball the match log records (QUATRO, SEIS, FORA,
// corridas), ball by ball. Then the same in an English browser at 1280x800.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';
import { join } from 'node:path';
import { signIn, playByClicking, shot, serveWebFromDisk, watchErrors, englishOnScreen, SHOTS } from './helpers.mjs';

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

/** The first screenful, what a player sees without scrolling. */
const screenful = (page, name) => page.screenshot({ path: join(SHOTS, `${name}.png`) });

/** englishOnScreen over the WHOLE page (header, shared match screen, seat names, CTG parts). */
async function englishOnPage(page) {
  return englishOnScreen(page);
}

const readJson = (page, path) => page.evaluate(async (url) => {
  const player = JSON.parse(localStorage.getItem('crease.player'));
  const response = await fetch(url, { headers: { Authorization: `Bearer ${player.token}` } });
  return response.json();
}, path);

/** What the log's `ball_ended` says, as a test the banner's text must pass, per language. */
function expectedBanner(lang, b) {
  const words = lang === 'pt-BR'
    ? { out: 'FORA!', six: 'SEIS!', four: 'QUATRO!', runs: (n) => `${n} ${n === 1 ? 'corrida' : 'corridas'}`, dot: ['Bola pontilhada', 'Pegada perdida! nenhuma corrida'] }
    : { out: 'OUT!', six: 'SIX!', four: 'FOUR!', runs: (n) => `${n} ${n === 1 ? 'run' : 'runs'}`, dot: ['Dot ball', 'Dropped! no run'] };
  if (b.wicket) return { kind: 'out', test: (t) => t.startsWith(`${words.out} `) };
  if (b.boundary === 6) return { kind: 'six', test: (t) => t === words.six };
  if (b.boundary === 4) return { kind: 'four', test: (t) => t === words.four };
  if (b.runs) return { kind: 'runs', test: (t) => t.endsWith(words.runs(b.runs)) };
  return { kind: 'dot', test: (t) => words.dot.includes(t) };
}

/** Plays the whole match; at every decision, checks the words and the banner. */
async function playAndCheck(page, { lang, width, matchId }) {
  const checked = new Set();
  const asks = new Set();
  const kinds = {};
  let decisions = 0;
  const clicks = await playByClicking(page, {
    timeout: 60000,
    async choose(p, actions, count) {
      const state = await p.evaluate(() => {
        const s = window.crease.screen.state;
        return { ask: s.view && s.view.ask ? s.view.ask.ask : null, settled: !s.busy && !s.awaitingUpdate && s.pendingSeats.includes(s.seat) };
      });
      if (!state.settled) return Math.floor(Math.random() * count);
      decisions += 1;
      if (lang === 'pt-BR') {
        assert.deepEqual(await englishOnPage(p), [], `English on the page (asked ${state.ask})`);
      } else {
        const missing = await p.evaluate(async () => [...(await import('/js/i18n.js')).missingKeys]);
        assert.deepEqual(missing, [], `no missing keys (asked ${state.ask})`);
      }
      if (state.ask && !asks.has(state.ask)) {
        asks.add(state.ask);
        await screenful(p, `ctg-i18n-${lang}-${width}-${state.ask}`);
      }
      // The banner tells the ball the log records, and the latest one.
      const banner = p.getByTestId('ball-banner');
      if (await banner.isVisible()) {
        const seq = Number(await banner.getAttribute('data-seq'));
        const text = (await p.getByTestId('ball-text').textContent()).trim();
        const log = await readJson(p, `/v1/matches/${matchId}/log`);
        const entry = log.entries.find((e) => e.seq === seq);
        assert.ok(entry && entry.payload.type === 'ball_ended', `the banner's ball (seq ${seq}) is a ball_ended in the log`);
        const expected = expectedBanner(lang, entry.payload.ball);
        assert.ok(expected.test(text), `${lang}: banner "${text}" for ${JSON.stringify(entry.payload.ball)}`);
        const last = log.entries.filter((e) => e.payload && e.payload.type === 'ball_ended').pop();
        assert.equal(last.seq, seq, 'the banner shows the latest ball');
        if (!checked.has(seq)) {
          checked.add(seq);
          kinds[expected.kind] = (kinds[expected.kind] || 0) + 1;
          if (expected.kind === 'out' || expected.kind === 'four' || expected.kind === 'six') {
            if (!kinds[`shot-${expected.kind}`]) {
              kinds[`shot-${expected.kind}`] = 1;
              await screenful(p, `ctg-i18n-${lang}-${width}-banner-${expected.kind}`);
              if (expected.kind === 'out') await shot(p, `ctg-i18n-${lang}-${width}-full`);
            }
          }
        }
      }
      return Math.floor(Math.random() * count);
    },
  });
  return { clicks, decisions, balls: checked.size, kinds, asks: [...asks] };
}

async function createShortMatch(page) {
  await page.getByTestId('game-ctg').click();
  await page.getByTestId('opt-format').selectOption('t10');
  await page.getByTestId('opt-overs').fill('2');
  await page.getByTestId('play-bot').click();
  await page.waitForURL(/#\/match\//);
  const matchId = page.url().split('/').pop();
  await page.getByTestId('scorebar').waitFor();
  const info = await readJson(page, `/v1/matches/${matchId}`);
  assert.equal(info.options.overs, 2, `the match has 2 overs per innings: ${JSON.stringify(info.options)}`);
  assert.equal(info.options.format, 't10');
  return matchId;
}

for (const { lang, locale, viewport, name } of [
  { lang: 'pt-BR', locale: 'pt-BR', viewport: { width: 390, height: 844 }, name: 'Marta' },
  { lang: 'en', locale: 'en-US', viewport: { width: 1280, height: 800 }, name: 'Shafali' },
]) {
  test(`CTG T10 of 2 overs against the bot in ${lang} at ${viewport.width}x${viewport.height}, played to the end`, { timeout: 15 * 60 * 1000 }, async () => {
    const browser = await launch({ viewport, locale });
    await serveWebFromDisk(browser.context, server.url);
    try {
      const page = await browser.context.newPage();
      const errors = watchErrors(page);
      await signIn(page, server.url, name);
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang, 'the page follows the browser\'s language');
      await shot(page, `ctg-i18n-${lang}-${viewport.width}-lobby`);
      const matchId = await createShortMatch(page);

      const result = await playAndCheck(page, { lang, width: viewport.width, matchId });
      console.log(`${lang} ${viewport.width}: ${JSON.stringify(result)}`);
      assert.ok(result.decisions >= 10, `decisions checked: ${result.decisions}`);
      assert.ok(result.balls >= 4, `balls compared with the log: ${result.balls}`);
      for (const ask of ['select_squad', 'shot', 'bowl', 'choose_bowler', 'set_field']) {
        assert.ok(result.asks.includes(ask), `asked ${ask} on the way (${result.asks})`);
      }

      // The end: the headline counts 2 overs, the whole innings was at most 12 legal balls.
      await page.getByTestId('result').waitFor();
      const overs = (await page.getByTestId('headline-overs').textContent()).trim();
      assert.match(overs, lang === 'pt-BR' ? /^\d\.\d de 2 ov$/ : /^\d\.\d of 2 ov$/, overs);
      const scorecard = await readJson(page, `/v1/matches/${matchId}/log`);
      const legal = scorecard.entries.filter((e) => e.payload.type === 'ball_ended' && e.payload.ball.legal).length;
      assert.ok(legal <= 24, `two innings of at most 2 overs: ${legal} legal balls`);
      if (lang === 'pt-BR') {
        assert.deepEqual(await englishOnPage(page), [], 'English on the page at the end');
        assert.match(await page.getByTestId('commentary').textContent(), /Fim de partida|Entrada 2/);
      }
      if (lang === 'en') {
        // Switched to Portuguese from the header, the finished match's CTG parts redraw in it.
        await page.getByTestId('lang').selectOption('pt-BR');
        await page.getByTestId('headline-overs').filter({ hasText: / de 2 ov$/ }).waitFor();
        await page.getByTestId('commentary').filter({ hasText: /Fim de partida/ }).waitFor();
        assert.deepEqual(await englishOnPage(page), [], 'English on the page after switching to Portuguese');
        await screenful(page, `ctg-i18n-${lang}-${viewport.width}-switched-pt-BR`);
        await page.getByTestId('lang').selectOption('en');
        await page.getByTestId('headline-overs').filter({ hasText: / of 2 ov$/ }).waitFor();
      }
      await screenful(page, `ctg-i18n-${lang}-${viewport.width}-end`);
      await shot(page, `ctg-i18n-${lang}-${viewport.width}-end-full`);
      assert.deepEqual(errors, [], 'no client errors');
    } finally {
      await browser.close();
    }
  });
}
