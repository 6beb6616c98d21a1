// Cricket: The Game's learn module (web/js/learn/ctg.js) in Chromium: the rules reference
// held to the engine's data file, the tutorial played to its end in English (1280x800) and in
// Portuguese (pt-BR, 390x844) with the coach, and the reference opened from a decision.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, REPO } from './server.mjs';
import { launch } from './browser.mjs';
import { signIn, nextAction, shot, serveWebFromDisk, watchErrors, englishOnScreen } from './helpers.mjs';
import en from '../../web/js/i18n/en/ctgLearn.js';

const RULESET = JSON.parse(readFileSync(join(REPO, 'data', 'ctg', 'ruleset.json'), 'utf8'));
const SQUADS = JSON.parse(readFileSync(join(REPO, 'data', 'ctg', 'squads.json'), 'utf8'));
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let server;
// The rule values the engine holds in code, as the rules endpoint serves them (`data.engine`).
let ENGINE;

before(async () => {
  server = await startServer();
  const answer = await (await fetch(`${server.url}/v1/games/ctg/rules`)).json();
  ENGINE = answer.data.engine;
  assert.ok(ENGINE && ENGINE.formats && ENGINE.formats.t10, 'the rules endpoint serves data.engine');
});

after(async () => {
  await server?.stop();
});

async function browserFor(viewport, locale = 'en-US') {
  const browser = await launch({ viewport, locale });
  await serveWebFromDisk(browser.context, server.url);
  return browser;
}

const at = (object, path) => path.split('.').reduce((v, part) => (v === undefined || v === null ? undefined : v[part]), object);
const signed = (n) => (n > 0 ? `+${n}` : String(n));

/**
 * What the English reference must show for the value at `path` of ruleset.json (or of
 * squads.json for `squads.*`, of the rules endpoint's `data.engine` for `engine.*`): numbers
 * as they are (plus `plus` where the page shows a value after it), a format's switch as
 * yes / no, shot and effect codes by their English names.
 */
function expected(path, ruleset = RULESET, plus = 0, engine = ENGINE) {
  if (path.startsWith('squads.')) return String(at(SQUADS.squads, path.slice('squads.'.length)));
  if (path.startsWith('engine.')) {
    const raw = at(engine, path.slice('engine.'.length));
    if (typeof raw === 'boolean') return raw ? en.sequence.yes : en.sequence.no;
    return typeof raw === 'number' ? String(raw + plus) : undefined;
  }
  const raw = at(ruleset, path);
  if (raw === undefined) return undefined;
  if (/^bowling_decks\.\w+\.\d+\.shots\.\d+$/.test(path)) return en.shots[raw];
  if (/^over_decks\.\w+\.effects\.\d+$/.test(path)) return en.effects[raw].name;
  if (/^pitch_cards\.\d+\.name$/.test(path)) return en.pitch[String(raw).toLowerCase()].name;
  if (path.startsWith('patience_confidence.')) return signed(raw);
  return String(raw);
}

/** Every `[data-rule]` value the reference shows, with its path. */
async function shownValues(page) {
  return page.$$eval('[data-testid=reference] [data-rule]', (els) => els.map((el) => ({
    path: el.dataset.rule, text: el.textContent.trim(), svg: el instanceof SVGElement, plus: Number(el.dataset.rulePlus || 0),
  })));
}

/**
 * The values the page shows that differ from `ruleset` (read from disk) or from the engine's
 * values (the rules endpoint's `data.engine`): [] when it agrees.
 */
function mismatches(shown, ruleset = RULESET) {
  const wrong = [];
  for (const { path, text, svg, plus } of shown) {
    if (path === 'red_outlines') continue; // checked through the picture below
    const want = expected(path, ruleset, plus);
    const got = svg ? text.replace(/\+$/, '') : text;
    if (want === undefined || got !== want) wrong.push(`${path}: page "${text}", data "${want}"`);
  }
  return wrong;
}

function requiredPaths() {
  const paths = [];
  for (const type of Object.keys(RULESET.bowling_decks).filter((k) => !k.startsWith("_"))) {
    RULESET.bowling_decks[type].forEach((card, i) => {
      paths.push(`bowling_decks.${type}.${i}.name`);
      card.shots.forEach((_, j) => paths.push(`bowling_decks.${type}.${i}.shots.${j}`));
    });
  }
  for (const type of Object.keys(RULESET.over_decks).filter((k) => !k.startsWith("_"))) {
    RULESET.over_decks[type].effects.forEach((_, i) => paths.push(`over_decks.${type}.effects.${i}`, `over_decks.${type}.express_values.${i}`));
  }
  for (const die of ['red', 'green']) RULESET.bounce_dice[die].forEach((_, i) => paths.push(`bounce_dice.${die}.${i}`));
  for (const type of Object.keys(RULESET.express_seven_tables)) {
    if (type.startsWith('_')) continue;
    RULESET.express_seven_tables[type].forEach((_, i) => paths.push(`express_seven_tables.${type}.${i}`));
  }
  RULESET.catch_values.forEach((_, i) => paths.push(`catch_values.${i}`));
  for (const a of ['aggressive', 'defensive']) paths.push(`bowled_chance.bowled_paragraph.${a}.sides`, `bowled_chance.bowled_paragraph.${a}.min`);
  for (const key of Object.keys(RULESET.skills)) paths.push(`skills.${key}`);
  paths.push('drs_overturn_min', 'patience_confidence.aggressive', 'patience_confidence.defensive', 'express_run_out_min', 'slip_catch_min');
  // Every value the engine holds in code: each format's, and the rolls and limits.
  const engineLeaves = (value, prefix) => (value && typeof value === 'object'
    ? Object.entries(value).flatMap(([key, v]) => engineLeaves(v, `${prefix}.${key}`)) : [prefix]);
  paths.push(...engineLeaves(ENGINE, 'engine'));
  RULESET.pitch_cards.forEach((_, i) => paths.push(`pitch_cards.${i}.name`));
  return paths;
}

/** Screenshots of the screen as a reader scrolls to the pictures and the tables. */
async function sectionShots(page, tag) {
  for (const [id, what] of [['rules-sequence', 'sequence'], ['rules-decisions', 'decisions'], ['rules-scoring', 'scoring'], ['rules-field', 'field'], ['ctg-advantage-picture', 'advantage'], ['ctg-dice-picture', 'dice'], ['ctg-bowl-deck-pace', 'cards'], ['ctg-effects-table', 'effects'], ['ctg-format-table', 'formats']]) {
    await page.getByTestId(id).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: join(REPO, 'test-artifacts', 'screenshots', `learn-ctg-${what}-${tag}.png`) });
  }
}

async function openReference(page) {
  await page.goto(`${server.url}/#/rules/ctg`);
  await page.getByTestId('rules-page').waitFor();
  await page.locator('[data-testid=reference] [data-rule]').first().waitFor();
}

test('the CTG reference shows the ruleset\'s values, and a changed value is caught', { timeout: 120000 }, async () => {
  const browser = await browserFor(DESKTOP);
  try {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await openReference(page);
    for (const id of ['sequence', 'decisions', 'dice', 'field', 'advantage', 'cards', 'scoring', 'end']) {
      assert.equal(await page.getByTestId(`rules-${id}`).count(), 1, `section ${id}`);
    }
    const shown = await shownValues(page);
    const paths = new Set(shown.map((s) => s.path));
    const missing = requiredPaths().filter((p) => !paths.has(p));
    assert.deepEqual(missing, [], 'every card, die face, table value and limit of the ruleset and of the engine is on the page');
    assert.deepEqual(mismatches(shown), [], 'the page agrees with data/ctg/ruleset.json and the engine\'s data.engine');
    assert.ok(shown.filter((s) => s.path.startsWith('engine.')).length >= 30, 'the engine\'s values are marked where the text names them');
    // The format table as a reader sees it, column by column from data.engine.
    const formats = Object.keys(ENGINE.formats);
    const formatRows = await page.$$eval('[data-testid=ctg-format-table] tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent.trim())));
    assert.deepEqual(formatRows[0].slice(1), formats.map((f) => f.toUpperCase()));
    assert.deepEqual(formatRows[1].slice(1), formats.map((f) => String(ENGINE.formats[f].overs)), 'overs per innings');
    assert.deepEqual(formatRows[2].slice(1), formats.map((f) => `D${ENGINE.formats[f].distance_sides}`), 'distance die');
    assert.ok(formatRows.some((r) => r[0] === `Overs with at most ${ENGINE.restricted_outfield_limit} fielders in the outfield`
      && r.slice(1).join('|') === formats.map((f) => `overs 1-${ENGINE.formats[f].restricted_overs}`).join('|')), formatRows.map((r) => r.join(' | ')).join('\n'));
    const t10 = ENGINE.formats.t10;
    assert.ok(formatRows.some((r) => r[1] === `yes: once, in overs ${t10.restricted_overs + 1}-${t10.overs}`), 'the T10 Power Play overs');
    // The distance table (areas and their catch numbers) as a reader sees it.
    const areaRows = await page.$$eval('[data-testid=ctg-areas-table] tbody tr', (rows) => rows.map((r) => [...r.cells].map((c) => c.textContent.trim())));
    assert.deepEqual(areaRows.map((r) => [r[0], r[1], r[3]]), RULESET.catch_values.map((v, i) => [String(i + 1), `${2 * i + 1}-${2 * i + 2}`, `${v}+`]));
    // Every over card's effect, deck by deck, in the order of the file.
    for (const type of Object.keys(RULESET.over_decks).filter((k) => !k.startsWith("_"))) {
      const rows = await page.$$eval(`[data-testid=ctg-over-deck-${type}] tbody tr`, (trs) => trs.map((r) => [r.cells[1].textContent.trim(), r.cells[2].textContent.trim()]));
      assert.deepEqual(rows, RULESET.over_decks[type].effects.map((e, i) => [String(RULESET.over_decks[type].express_values[i]), en.effects[e].name]), `${type} over deck`);
    }
    // The field picture: one catch number per area, red outlines one less.
    const picture = await page.$$eval('[data-testid=ctg-field-picture] text[data-rule]', (els) => els.map((el) => [el.dataset.rule, el.textContent]));
    const redOnes = picture.filter(([p]) => p === 'red_outlines');
    assert.equal(redOnes.length, RULESET.red_outlines.length, 'each red outline is drawn');
    for (const [, text] of redOnes) assert.ok(RULESET.red_outlines.some((o) => text === `${RULESET.catch_values[o.area - 1] - 1}+`), text);
    assert.equal(await page.locator('[data-testid=ctg-advantage-picture] .ctgl-step').count(), 5, 'the Advantage scale -1..+3');
    await shot(page, 'learn-ctg-reference-en-1280');
    await sectionShots(page, 'en-1280');

    // The proof that this test fails when the page shows a value the file does not have: the
    // same page with the rules answer changed on its way (two values), compared with the file.
    const bad = await browser.context.newPage();
    await bad.route((url) => url.pathname === '/v1/games/ctg/rules', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      body.data.ruleset.over_decks.pace.effects[0] = 'great_shot';
      body.data.ruleset.catch_values[2] = 4;
      body.data.engine.howzat_min = 3;
      body.data.engine.formats.t20.distance_sides = 10;
      await route.fulfill({ response, json: body });
    });
    await openReference(bad);
    const wrong = mismatches(await shownValues(bad));
    assert.ok(wrong.some((w) => w.startsWith('engine.howzat_min:')), wrong.join('\n'));
    assert.ok(wrong.some((w) => w.startsWith('engine.formats.t20.distance_sides:')), wrong.join('\n'));
    assert.ok(wrong.some((w) => w.startsWith('over_decks.pace.effects.0:')), wrong.join('\n'));
    assert.ok(wrong.some((w) => w.startsWith('catch_values.2:')), wrong.join('\n'));
    assert.throws(() => assert.deepEqual(wrong, []), 'the comparison fails on a changed value');
    await bad.close();
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

/** englishOnScreen over the WHOLE Portuguese page (board, header, shared words, learn parts). */
async function englishInLearnParts(page) {
  return englishOnScreen(page);
}

const askOf = (page) => page.evaluate(() => window.crease.screen?.state?.view?.ask?.ask ?? null);

/**
 * Plays the tutorial from the Learn page to its end by clicking (always the first offered
 * action, so the seeded match is the same each run), and checks the coach on the way.
 */
async function playTutorial(page, { name, tag, portuguese }) {
  await signIn(page, server.url, name);
  await page.goto(`${server.url}/#/learn`);
  await page.getByTestId('learn-ctg').click();
  await page.getByTestId('learn-page').waitFor();
  // The intro says "Loading…" (a muted paragraph) until the learn module arrives.
  await page.locator('.tutorial-intro p:not(.muted)').first().waitFor();
  assert.ok((await page.locator('.tutorial-intro p').count()) >= 2, 'the intro has its paragraphs');
  if (portuguese) assert.deepEqual(await englishInLearnParts(page), [], 'the Learn page intro is Portuguese');
  await shot(page, `learn-ctg-start-${tag}`);
  await page.getByTestId('start-tutorial').click();
  await page.waitForURL(/#\/learn\/ctg\/[^/]+$/);
  await page.getByTestId('scoreboard').waitFor();

  const firstSeen = new Set();
  const coachKeys = []; // the coach-ask key each time it changes
  const ballTexts = new Set();
  const shotsTaken = new Set();
  let checkedPt = 0;
  let clicks = 0;
  while (clicks < 600) {
    const actions = await nextAction(page, 60000);
    if (!actions) break;
    if ((await actions.count()) === 0) continue;
    const ask = await askOf(page);
    if (ask && !firstSeen.has(ask)) {
      firstSeen.add(ask);
      // A new kind of decision: the coach explains it and the help line is there.
      await page.locator(`[data-testid=coach-ask][data-key="${ask}"]`).waitFor({ timeout: 10000 });
      await page.getByTestId('decision-help').waitFor({ state: 'visible', timeout: 10000 });
      assert.ok((await page.getByTestId('decision-help-text').textContent()).length > 20, `help for ${ask}`);
      assert.equal(await page.locator('[data-testid=decision-help] [data-testid=reference-link]').count(), 1, `rules link for ${ask}`);
      if (portuguese && checkedPt < 40) {
        checkedPt += 1;
        assert.deepEqual(await englishInLearnParts(page), [], `Portuguese coach and help at ${ask}`);
      }
      if (['set_field', 'shot', 'bowl', 'select_squad'].includes(ask) && !shotsTaken.has(ask)) {
        shotsTaken.add(ask);
        await shot(page, `learn-ctg-${ask}-${tag}`);
      }
    }
    const key = await page.locator('[data-testid=coach-ask]').getAttribute('data-key', { timeout: 200 }).catch(() => null);
    if (key && coachKeys[coachKeys.length - 1] !== key) coachKeys.push(key);
    const ball = await page.locator('[data-testid=coach-ball]').textContent({ timeout: 200 }).catch(() => null);
    if (ball && !ballTexts.has(ball)) {
      ballTexts.add(ball);
      if (portuguese && ballTexts.size <= 12) assert.deepEqual(await englishInLearnParts(page), [], `Portuguese coach after a ball: ${ball}`);
      if (ballTexts.size === 3) await shot(page, `learn-ctg-coach-ball-${tag}`);
    }
    try {
      await actions.first().click({ timeout: 2000 });
      clicks += 1;
    } catch {
      // the view changed under us; look again
    }
  }
  await page.getByTestId('result').waitFor();
  // Each kind of decision had its coach once: a key never comes back after another replaced it.
  assert.equal(new Set(coachKeys).size, coachKeys.length, `coach keys shown once each: ${coachKeys.join(', ')}`);
  for (const ask of firstSeen) assert.ok(coachKeys.includes(ask), `the coach explained ${ask}`);
  for (const ask of ['set_field', 'bowl', 'shot']) assert.ok(firstSeen.has(ask), `the tutorial asked ${ask}`);
  assert.ok(ballTexts.size >= 5, `the coach explained the balls (${ballTexts.size})`);
  // What the coach said, for a person to read after the run.
  writeFileSync(join(REPO, 'test-artifacts', `learn-ctg-coach-${tag}.txt`), [...ballTexts].join('\n') + '\n');
  await page.getByTestId('coach-end').waitFor();
  if (portuguese) assert.deepEqual(await englishInLearnParts(page), [], 'the closing words are Portuguese');
  await shot(page, `learn-ctg-end-${tag}`);
  const view = await page.evaluate(() => window.crease.screen.state.view);
  assert.equal(view.overs, 2, 'the tutorial is 2 overs per innings');
  await page.getByTestId('play-real-match').first().click();
  await page.waitForURL(/#\/play\/ctg$/);
  await page.locator('[data-testid=game-ctg][aria-checked=true]').waitFor();
  return { clicks, kinds: [...firstSeen], balls: ballTexts.size };
}

test('the CTG tutorial played to its end in English at 1280x800', { timeout: 15 * 60 * 1000 }, async () => {
  const browser = await browserFor(DESKTOP);
  try {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    const run = await playTutorial(page, { name: 'Tutee', tag: 'en-1280' });
    assert.ok(run.clicks > 10, `decisions: ${run.clicks}`);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

test('the CTG tutorial played to its end in Portuguese at 390x844', { timeout: 15 * 60 * 1000 }, async () => {
  const browser = await browserFor(PHONE, 'pt-BR');
  try {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    const run = await playTutorial(page, { name: 'Aluna', tag: 'pt-390', portuguese: true });
    assert.ok(run.clicks > 10, `decisions: ${run.clicks}`);
    // The reference in Portuguese, on the phone.
    await openReference(page);
    assert.deepEqual(await englishInLearnParts(page), [], 'the Portuguese reference');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 1, `the phone page does not scroll sideways (${overflow}px)`);
    await shot(page, 'learn-ctg-reference-pt-390');
    await sectionShots(page, 'pt-390');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

/** Plays by clicking until the asked decision is one of `kinds`. */
async function playUntil(page, kinds) {
  for (let i = 0; i < 200; i += 1) {
    const actions = await nextAction(page, 60000);
    assert.ok(actions, 'the match ended before the decision');
    const ask = await askOf(page);
    if (kinds.includes(ask)) return ask;
    await actions.first().click({ timeout: 2000 }).catch(() => {});
  }
  throw new Error(`no ${kinds.join('/')} decision`);
}

for (const [label, viewport, locale, name] of [['English 1280x800', DESKTOP, 'en-US', 'Reader'], ['Portuguese 390x844', PHONE, 'pt-BR', 'Leitora']]) {
  test(`the reference opens from a decision at its section (${label})`, { timeout: 5 * 60 * 1000 }, async () => {
    const browser = await browserFor(viewport, locale);
    try {
      const page = await browser.context.newPage();
      const errors = watchErrors(page);
      await signIn(page, server.url, name);
      await page.goto(`${server.url}/#/learn/ctg`);
      await page.getByTestId('start-tutorial').click();
      await page.waitForURL(/#\/learn\/ctg\/[^/]+$/);
      const tag = `${locale === 'pt-BR' ? 'pt' : 'en'}-${viewport.width}`;
      for (const kinds of [['shot', 'bowl'], ['set_field']]) {
        const ask = await playUntil(page, kinds);
        const link = page.locator('[data-testid=decision-help] [data-testid=reference-link]');
        await link.waitFor();
        const section = await link.getAttribute('data-section');
        assert.ok(section, `the help line of ${ask} names a section`);
        await link.click();
        const dialog = page.getByTestId('reference-dialog');
        await dialog.waitFor();
        const target = dialog.getByTestId(`rules-${section}`);
        await target.waitFor();
        // The section is scrolled into the dialog's view.
        await page.waitForFunction((id) => {
          const d = document.querySelector('[data-testid=reference-dialog]');
          const s = d && d.querySelector(`[data-testid="rules-${id}"]`);
          if (!s) return false;
          const a = d.getBoundingClientRect();
          const b = s.getBoundingClientRect();
          return b.top >= a.top - 1 && b.top < a.bottom - 40;
        }, section, { timeout: 5000 });
        if (locale === 'pt-BR') assert.deepEqual(await englishInLearnParts(page), [], 'the Portuguese reference dialog');
        await page.screenshot({ path: join(REPO, 'test-artifacts', 'screenshots', `learn-ctg-dialog-${section}-${tag}.png`) });
        // A link between sections scrolls the dialog and keeps the match on the page.
        const url = page.url();
        await dialog.locator('[data-testid=rules-decisions] [data-section-link=scoring]').first().click();
        await page.waitForFunction(() => {
          const d = document.querySelector('[data-testid=reference-dialog]');
          const s = d && d.querySelector('[data-testid="rules-scoring"]');
          return s && Math.abs(s.getBoundingClientRect().top - d.getBoundingClientRect().top) < 120;
        }, null, { timeout: 5000 });
        assert.equal(page.url(), url, 'still on the match');
        assert.ok(await dialog.isVisible(), 'the dialog stays open');
        await page.getByTestId('close-reference').click();
        await dialog.waitFor({ state: 'detached' });
        // Play goes on: the decision is still there and takes a click.
        const before = await page.evaluate(() => JSON.stringify(window.crease.screen.state.view.ask));
        const actions = await nextAction(page);
        await actions.first().click();
        await page.waitForFunction((b) => JSON.stringify(window.crease.screen.state.view.ask) !== b, before, { timeout: 20000 });
      }
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
}

test('the CTG reference reads at 390x844 and 1280x800 in both languages', { timeout: 5 * 60 * 1000 }, async () => {
  for (const [viewport, locale] of [[PHONE, 'en-US'], [DESKTOP, 'pt-BR'], [PHONE, 'pt-BR']]) {
    const browser = await browserFor(viewport, locale);
    try {
      const page = await browser.context.newPage();
      const errors = watchErrors(page);
      await openReference(page);
      const tag = `${locale === 'pt-BR' ? 'pt' : 'en'}-${viewport.width}`;
      if (locale === 'pt-BR') {
        assert.deepEqual(await englishInLearnParts(page), [], 'the Portuguese reference');
        // The check does look inside the reference: an English line there is caught.
        await page.evaluate(() => document.querySelector('[data-testid=rules-cards]').append(Object.assign(document.createElement('p'), { id: 'planted', textContent: 'The batter is out when the bowler wins.' })));
        const planted = await englishInLearnParts(page);
        assert.ok(planted.some((line) => line.includes('The batter is out')), planted.join('\n'));
        await page.evaluate(() => document.getElementById('planted').remove());
      }
      // Nothing is wider than the screen: wide tables scroll inside their own box.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 1, `the page does not scroll sideways (${overflow}px)`);
      await shot(page, `learn-ctg-reference-${tag}`);
      await sectionShots(page, tag);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  }
});

// Every ask the engine can send (src/rules/ctg/view.rs `Ask`), shaped as the view carries
// them, for the decisions the seeded tutorial may never reach (a DRS review, a Power Play…).
const ASKS = [
  { ask: 'select_squad', roles: Array(12).fill('batter'), confidence: Array(12).fill(2), droppable: 0b110000000000 },
  { ask: 'toss' },
  { ask: 'choose_bowler', legal: 0b111110000, types: Array(12).fill('medium'), overs_bowled: Array(12).fill(0) },
  { ask: 'openers', available: 0x7ff, order: [...Array(11).keys()] },
  { ask: 'next_batter', available: 0x7fc, order: [...Array(11).keys()] },
  { ask: 'power_play', over: 3 },
  { ask: 'set_field', rules: { format: 't10', outfield_limit: 5, slips_allowed: true }, current: 0, bowl_type: 'pace' },
  { ask: 'bowl', cards: 5, zones: [48, 10, 12, 20, 34, 0, 0, 0], bowl_type: 'pace' },
  { ask: 'shot', cards: 5, zones: [48, 10, 12, 20, 34, 0, 0, 0], confidence: 2, specialist: true, attitude: 'defensive', field: 0 },
  { ask: 'skills', add_one: true, roll_d8: true, advantage: 1 },
  { ask: 'quick_single' },
  { ask: 'reroll_to_hit', bowl: 4, bowl_sides: 6, bat: 2, bat_sides: 6, advantage: 0, bowled_chance_margin: 3 },
  { ask: 'miss', options: 7, slips: 2, attitude: 'aggressive', bowled_sides: 6, bowled_min: 6 },
  { ask: 'distance', distance: 3, add_one: true, reroll: true, max: 6, zone: 2, field: 0 },
  { ask: 'reroll_bounce', areas: 0, red: false, distance: 3, zone: 2, field: 0 },
  { ask: 'run', safe: 1, attempt: 2, run_out_min: 6 },
  { ask: 'review', dismissal: 'lbw' },
];

for (const locale of ['en-US', 'pt-BR']) {
  test(`every CTG decision has its help, coach and section; the coach explains express, clean bowled and caught balls (${locale})`, { timeout: 120000 }, async () => {
    const browser = await browserFor(DESKTOP, locale);
    try {
      const page = await browser.context.newPage();
      const errors = watchErrors(page);
      await openReference(page);
      const sectionIds = await page.$$eval('[data-testid=reference] [data-section]', (els) => els.map((el) => el.dataset.section));
      const said = await page.evaluate(async (asks) => {
        const learn = (await import('/js/learn/ctg.js')).default;
        const view = (ask) => ({ ask, squads: [], batting: 0, bowler: null, over_cards: [] });
        const out = asks.map((ask) => ({ kind: ask.ask, help: learn.help(view(ask), {}), coach: learn.tutorial.ask(view(ask), {}) }));
        // A pace bowler bowling (squad 1 player 8 of the shipped squads is a pace bowler).
        const { api } = await import('/js/api.js');
        const data = (await api.gameRules('ctg')).data;
        const pace = data.squads.squads[1].players.findIndex((p) => p.bowling === 'pace');
        const ctx = { view: { squads: data.squads.squads, batting: 0, bowler: pace, over_cards: [] } };
        const end = (ball) => ({ type: 'ball_ended', ball: { runs: 0, extras: 0, legal: true, boundary: 0, wicket: null, swap: false, express: false, ...ball } });
        const express = data.ruleset.over_decks.pace.express_values.indexOf(3);
        const balls = {
          express: learn.tutorial.ball({}, [{ type: 'over_card_revealed', slot: 0, card: express }, end({ runs: 2, express: true })], ctx),
          clean: learn.tutorial.ball({}, [{ type: 'revealed', card: 0, shot: { zone: 3, attitude: 'defensive' }, advantage: 1 },
            { type: 'over_card_revealed', slot: 2, card: data.ruleset.over_decks.pace.effects.indexOf('play_on') },
            { type: 'delivered', bowl: 6, bowl_sides: 6, bat: 1, bat_sides: 6 }, end({ wicket: 'clean_bowled' })], ctx),
          caught: learn.tutorial.ball({}, [{ type: 'revealed', card: 0, shot: { zone: 2, attitude: 'aggressive' }, advantage: 3 },
            { type: 'delivered', bowl: 2, bowl_sides: 6, bat: 4, bat_sides: 6 }, { type: 'distance', rolled: 3, distance: 3, rerolled: false, added_one: false },
            { type: 'bounce', face: 1, rerolled: false }, { type: 'roll', roll_for: 'catch', face: 6, sides: 6 }, end({ wicket: 'caught' })], ctx),
        };
        return { out, balls, expressValue: data.ruleset.over_decks.pace.express_values[express] };
      }, ASKS);
      for (const { kind, help, coach } of said.out) {
        assert.ok(help && help.text.length > 20, `help for ${kind}`);
        assert.ok(sectionIds.includes(help.section), `${kind} points to a section of the reference: ${help.section}`);
        assert.ok(coach && coach.key === kind && coach.text.length > 20, `coach for ${kind}`);
        for (const text of [help.text, coach.text]) assert.doesNotMatch(text, /\{\w+\}|ctgLearn\.|undefined|NaN/, `${kind}: ${text}`);
        if (kind === 'power_play') {
          // The Power Play's limit is the engine's, in the help line and the coach alike.
          for (const text of [help.text, coach.text]) {
            assert.ok(text.includes(String(ENGINE.restricted_outfield_limit)) && !text.includes('?'), `power_play: ${text}`);
          }
        }
      }
      for (const [what, text] of Object.entries(said.balls)) {
        assert.ok(text && text.length > 20, `a ${what} ball is explained`);
        assert.doesNotMatch(text, /\{\w+\}|ctgLearn\.|undefined|NaN|\?/, `${what}: ${text}`);
      }
      writeFileSync(join(REPO, 'test-artifacts', `learn-ctg-help-${locale}.txt`),
        [...said.out.map((o) => `${o.kind} [${o.help.section}]: ${o.help.text}\n  coach: ${o.coach.text}`), ...Object.entries(said.balls).map(([w, t]) => `ball ${w}: ${t}`)].join('\n') + '\n');
      assert.ok(said.balls.express.includes(String(said.expressValue)), said.balls.express);
      assert.match(said.balls.clean, locale === 'pt-BR' ? /Clean Bowled/ : /clean bowled/, said.balls.clean);
      assert.match(said.balls.caught, locale === 'pt-BR' ? /PEGO/ : /CAUGHT/, said.balls.caught);
      assert.match(said.balls.caught, /1R/, 'the bounce face is named as the screen labels it');
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
}

test('every literal key js/learn/ctg.js asks for is in both catalogues', async () => {
  const source = readFileSync(join(REPO, 'web', 'js', 'learn', 'ctg.js'), 'utf8');
  const pt = (await import('../../web/js/i18n/pt-BR/ctgLearn.js')).default;
  const keys = [...source.matchAll(/\bkr?\('([\w.]+)'/g)].map((m) => m[1]);
  assert.ok(keys.length > 100, `keys found: ${keys.length}`);
  for (const key of keys) {
    assert.notEqual(at(en, key), undefined, `en ctgLearn.${key}`);
    assert.notEqual(at(pt, key), undefined, `pt-BR ctgLearn.${key}`);
  }
});
