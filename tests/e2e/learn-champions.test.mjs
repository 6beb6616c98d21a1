// Learning Cricket Champions in the app (issue 27), in Chromium:
// (a) the rules reference shows every value of data/champions/ruleset.json (read from disk
//     here): each Xp card's name, cost, colour and power, the faces of both dice, the run
//     sets, the championship cards' points, in English and in Portuguese;
// (b) the tutorial (2 players, you and the easy bot, a fixed seed) played to its end by
//     clicking, in English at 1280x800 and in Portuguese (browser locale pt-BR) at 390x844:
//     the coach explains each kind of decision once (and every kind that came up), every
//     decision has its help line with a Rules link, the coach says why an over ended, the end
//     has the coach's closing words and "play a real match" (which opens the Champions lobby);
//     in Portuguese no English is left in the Champions parts at any decision;
// (c) the reference opened from a decision's help link shows the named section in a dialog.
// Screenshots `learn-champions-*` (both languages at both sizes).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, REPO } from './server.mjs';
import { launch } from './browser.mjs';
import { signIn, nextAction, shot, serveWebFromDisk, watchErrors, englishOnScreen } from './helpers.mjs';

const RULESET = JSON.parse(readFileSync(join(REPO, 'data/champions/ruleset.json'), 'utf8'));
const EN = (await import(join(REPO, 'web/js/i18n/en/champions.js'))).default;
const PT = (await import(join(REPO, 'web/js/i18n/pt-BR/champions.js'))).default;

const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/** englishOnScreen over the WHOLE Portuguese page (header, shared match screen, seat names, ours). */
const championsEnglish = (page) => englishOnScreen(page);

/** Keys the page asked for that no catalogue has (in English too). */
const missingKeys = (page) => page.evaluate(async () => [...(await import('/js/i18n.js')).missingKeys]);

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

async function browserFor(size, locale) {
  const browser = await launch({ viewport: SIZES[size], locale });
  await serveWebFromDisk(browser.context, server.url);
  return browser;
}

test('(a) the reference shows every ruleset value: cards, dice faces, run sets, championships', { timeout: 120000 }, async () => {
  for (const [locale, size, cat] of [['en-US', 'desktop', EN], ['pt-BR', 'phone', PT], ['en-US', 'phone', EN], ['pt-BR', 'desktop', PT]]) {
    const browser = await browserFor(size, locale);
    try {
      const page = await browser.context.newPage();
      const errors = watchErrors(page);
      await page.goto(`${server.url}/#/rules/champions`);
      await page.getByTestId('rules-cards').waitFor();
      const en = locale === 'en-US';
      // Every Xp card, in the ruleset's order: name, cost, colour and power.
      const rows = page.locator('[data-testid=champions-cards-table] tbody tr');
      assert.equal(await rows.count(), RULESET.xp_cards.length, 'a row per Xp card');
      for (const [i, card] of RULESET.xp_cards.entries()) {
        const row = rows.nth(i);
        assert.equal(await row.getAttribute('data-card'), card.id);
        const cell = async (field) => (await row.locator(`[data-field=${field}]`).textContent()).trim();
        assert.equal(await cell('name'), en ? card.name : cat.cards[card.id], `${card.id} name`);
        assert.equal(await cell('cost'), `${card.cost} Xp`, `${card.id} cost`);
        assert.equal(await cell('colour'), cat.colour[card.colour], `${card.id} colour`);
        const effect = await cell('effect');
        if (en) assert.equal(effect, card.text, `${card.id} power is the ruleset's text`);
        // In Portuguese the power is written from the hook: each of its numbers and faces.
        for (const [key, value] of Object.entries(card.hook)) {
          if (key === 'kind' || en) continue;
          const shown = typeof value === 'number' ? String(value) : cat.face.name[value];
          assert.ok(effect.includes(shown), `${card.id} power "${effect}" shows its ${key} ${shown}`);
        }
      }
      // The dice, face by face, as the match draws them.
      for (const kind of ['batting', 'bowling']) {
        const dice = page.locator(`[data-testid=die-faces-${kind}] .die`);
        const faces = await dice.evaluateAll((els) => els.map((el) => [el.dataset.face, el.textContent.trim()]));
        assert.deepEqual(faces.map(([f]) => f), RULESET[`${kind}_die`], `the ${kind} die's faces`);
        assert.deepEqual(faces.map(([, text]) => text), RULESET[`${kind}_die`].map((f) => cat.face.short[f]), `the ${kind} die as shown`);
        for (const face of new Set(RULESET[`${kind}_die`])) {
          const sides = await page.locator(`[data-die=${kind}] tr[data-face=${face}] [data-field=sides]`).textContent();
          assert.equal(Number(sides), RULESET[`${kind}_die`].filter((f) => f === face).length, `${kind} ${face} sides`);
        }
      }
      // Runs per set, and the championship cards' points.
      for (const set of RULESET.run_sets) {
        const row = page.locator(`[data-testid=champions-run-sets] tr[data-set=${set.face}]`);
        assert.equal((await row.locator('[data-field=size]').textContent()).trim(), String(set.size), `set of ${set.face}`);
        assert.equal((await row.locator('[data-field=runs]').textContent()).trim(), String(set.runs), `runs of ${set.face}`);
        const meaning = await page.locator(`[data-die=batting] tr[data-face=${set.face}] [data-field=means]`).textContent();
        assert.ok(meaning.includes(String(set.runs)), `the ${set.face} face says it scores ${set.runs}`);
      }
      for (const c of RULESET.championship_cards) {
        const row = page.locator(`[data-testid=champions-championships-table] tr[data-championship=${c.id}]`);
        assert.equal((await row.locator('[data-field=name]').textContent()).trim(), en ? c.name : cat.championships[c.id]);
        assert.equal((await row.locator('[data-field=points]').textContent()).trim(), `+${c.points}`);
        for (const [key, value] of Object.entries(c.award)) {
          if (key !== 'kind') assert.ok((await row.locator('[data-field=award]').textContent()).includes(String(value)), `${c.id} shows its ${key}`);
        }
      }
      // Numbers of the rules in the prose: rounds, rolls, elimination, Xp per point.
      const text = await page.getByTestId('reference').textContent();
      for (const n of [RULESET.rounds, RULESET.rolls_per_turn, RULESET.elimination_wickets, RULESET.xp_per_point, RULESET.start_xp, RULESET.market_size]) {
        assert.ok(text.includes(String(n)), `the reference states ${n}`);
      }
      if (!en) assert.deepEqual(await championsEnglish(page), [], 'no English on the Portuguese reference');
      assert.deepEqual(await missingKeys(page), [], 'every key of the reference exists');
      await shot(page, `learn-champions-rules-${en ? 'en' : 'pt'}-${size}`);
      assert.deepEqual(errors, [], 'no client errors');
    } finally {
      await browser.close();
    }
  }
});

/** The coach's key for a decision, as web/js/learn/champions.js names it. */
function kindOf(ask) {
  if (ask.ask === 'buy') return 'buy';
  const role = ask.role === 'bowling' ? 'bowling' : 'batting';
  if (ask.first_roll) return `first-${role}`;
  if ((ask.powers || []).length) return 'powers';
  if (ask.rolls_left === 0) return 'stop';
  return `reroll-${role}`;
}

async function playTutorial({ locale, size, tag }) {
  const browser = await browserFor(size, locale);
  const pt = locale === 'pt-BR';
  try {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await signIn(page, server.url, pt ? 'Marta' : 'Renuka');
    await page.goto(`${server.url}/#/learn/champions`);
    await page.getByTestId('learn-page').waitFor();
    await page.locator('.tutorial-intro p').nth(2).waitFor();
    if (pt) assert.deepEqual(await championsEnglish(page), [], 'the Learn page in Portuguese');
    await shot(page, `learn-champions-start-${tag}`);
    await page.getByTestId('start-tutorial').click();
    await page.waitForURL(/#\/learn\/champions\/[^/]+$/);
    await page.getByTestId('champions-scoreboard').waitFor();

    const coachKeys = []; // the coach's ask keys in the order they came up
    const kinds = new Set();
    const shots = new Set();
    let reference = false;
    let rerolled = new Set();
    let bought = 0;
    let balls = 0;
    for (let step = 0; step < 400; step += 1) {
      const actions = await nextAction(page, 30000);
      if (!actions) break;
      const ask = await page.evaluate(() => window.crease.screen.state.view && window.crease.screen.state.view.ask);
      if (!ask) continue;
      const kind = kindOf(ask);
      kinds.add(kind);
      // The coach on a new kind of decision explains it; a kind already explained never again.
      const coach = page.locator('[data-testid=coach-ask]');
      await coach.first().waitFor({ timeout: 5000 }).catch(() => {});
      const shown = (await coach.count()) ? await coach.getAttribute('data-key') : null;
      if (shown && shown !== coachKeys.at(-1)) coachKeys.push(shown);
      if (!shots.has(kind)) assert.equal(shown, kind, `the coach explains "${kind}" the first time it comes up`);
      // Every decision has its help line and a Rules link.
      const help = page.getByTestId('decision-help');
      await help.locator('[data-testid=reference-link]').waitFor();
      assert.ok((await help.getByTestId('decision-help-text').textContent()).trim().length > 20, 'a help line');
      if (pt) assert.deepEqual(await championsEnglish(page), [], `no English left at decision ${kind} (step ${step})`);
      if (!shots.has(kind)) {
        shots.add(kind);
        await shot(page, `learn-champions-${kind}-${tag}`);
      }
      // (c) The reference from the help link: the dialog opens at the named section.
      if (!reference && (kind === 'reroll-batting' || kind === 'buy')) {
        reference = kind !== 'reroll-batting';
        const link = help.getByTestId('reference-link');
        const section = await link.getAttribute('data-section');
        assert.ok(section, 'the link names a section');
        await link.click();
        const dialog = page.getByTestId('reference-dialog');
        const target = dialog.getByTestId(`rules-${section}`);
        await target.waitFor();
        await page.waitForFunction((id) => {
          const d = document.querySelector('[data-testid=reference-dialog]');
          const s = d && d.querySelector(`[data-testid="rules-${id}"]`);
          if (!s) return false;
          const a = d.getBoundingClientRect();
          const b = s.getBoundingClientRect();
          return b.top >= a.top - 1 && b.top < a.bottom - 40;
        }, section);
        assert.ok((await target.locator('h3').textContent()).trim().length > 3, 'the section has its title');
        if (pt) assert.deepEqual(await championsEnglish(page), [], 'no English in the reference dialog');
        await shot(page, `learn-champions-reference-${section}-${tag}`);
        await dialog.getByTestId('close-reference').click();
        await dialog.waitFor({ state: 'detached' });
      }
      // Choices: roll; re-roll the first die once per role; buy one card; else stop or pass.
      let action;
      if (kind.startsWith('first-')) action = 'roll';
      else if (kind.startsWith('reroll-') && !rerolled.has(kind)) {
        rerolled.add(kind);
        await page.locator('[data-testid=my-dice] button.die').first().click();
        action = 'reroll';
      } else if (kind === 'buy') action = ask.affordable.length && bought < 1 ? 'buy' : 'pass';
      else action = 'stop';
      if (action === 'buy') bought += 1;
      const button = page.locator(`[data-testid=decision] [data-action=${action}]:not([disabled])`).first();
      await button.click();
      if (await page.getByTestId('coach-ball').count()) balls += 1;
    }
    await page.getByTestId('result').waitFor();
    // The coach explained each kind once, and every kind that came up.
    assert.deepEqual([...new Set(coachKeys)], coachKeys, `each explanation once: ${coachKeys.join(', ')}`);
    for (const kind of kinds) assert.ok(coachKeys.includes(kind), `the coach explained ${kind}`);
    assert.ok(kinds.has('first-batting') && kinds.has('first-bowling') && kinds.has('buy'), `the tutorial asked to bat, bowl and buy: ${[...kinds]}`);
    assert.ok(balls > 0, 'the coach said why an over ended');
    assert.ok(reference, 'the reference was opened from a decision');
    const end = page.getByTestId('coach-end');
    await end.waitFor();
    assert.ok((await end.textContent()).length > 30, 'the closing words');
    const real = page.getByTestId('final').getByTestId('play-real-match');
    await real.waitFor();
    if (pt) {
      assert.deepEqual(await championsEnglish(page), [], 'no English on the end screen');
      // Our own board's headings are Portuguese.
      const heads = await page.locator('[data-testid=champions-scoreboard] th').allTextContents();
      assert.deepEqual(heads, Object.values(PT.board.col), 'the Champions scoreboard in Portuguese');
    }
    await shot(page, `learn-champions-end-${tag}`);
    assert.deepEqual(await missingKeys(page), [], 'every key the tutorial asked for exists');
    await real.click();
    await page.waitForURL(/#\/play\/champions$/);
    assert.deepEqual(errors, [], 'no client errors');
    return { coachKeys, kinds: [...kinds] };
  } finally {
    await browser.close();
  }
}

test('(b, c) the tutorial in English at 1280x800, by clicking, with the reference from a decision', { timeout: 10 * 60 * 1000 }, async () => {
  const { coachKeys } = await playTutorial({ locale: 'en-US', size: 'desktop', tag: 'en-desktop' });
  console.log(`coach (en): ${coachKeys.join(', ')}`);
});

test('(b, c) the tutorial in Portuguese (pt-BR) at 390x844, by clicking, no English on the page', { timeout: 10 * 60 * 1000 }, async () => {
  const { coachKeys } = await playTutorial({ locale: 'pt-BR', size: 'phone', tag: 'pt-phone' });
  console.log(`coach (pt-BR): ${coachKeys.join(', ')}`);
});

// The other two sizes, for their screenshots and the same checks.
test('(b) the tutorial in English at 390x844 and in Portuguese at 1280x800', { timeout: 10 * 60 * 1000 }, async () => {
  await playTutorial({ locale: 'en-US', size: 'phone', tag: 'en-phone' });
  await playTutorial({ locale: 'pt-BR', size: 'desktop', tag: 'pt-desktop' });
});
