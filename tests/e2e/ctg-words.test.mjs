// The CTG screen's words in Node, no browser: every value the engine can send (attitudes,
// roles, dismissals, over-card effects, rolls, skills, phases; read from the Rust source) has
// its words in both languages; the ball banner, the commentary and the live list's format
// label read in English and in Portuguese with the Portuguese rulebook's terms; the `overs`
// option (a match shorter than its format) reaches the model and the story.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './server.mjs';

const i18n = await import(join(REPO, 'web/js/i18n.js'));
const { default: ctg, model } = await import(join(REPO, 'web/js/games/ctg.js'));
const { fieldProblems } = await import(join(REPO, 'web/js/games/field.js'));
const { createStory } = await import(join(REPO, 'web/js/story.js'));

after(() => i18n.setLang('en'));

/** The variants of `pub enum <name>` in a Rust file, in serde's snake_case. */
function variants(file, name) {
  const source = readFileSync(join(REPO, file), 'utf8');
  const start = source.indexOf(`pub enum ${name} {`);
  assert.ok(start >= 0, `${file} has no enum ${name}`);
  const body = source.slice(start, source.indexOf('\n}\n', start));
  return [...body.matchAll(/^\s{4}([A-Z][A-Za-z0-9]*)\b/gm)].map((m) => m[1].replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase());
}

/** The fields of `pub struct <name>` (snake_case already). */
function fields(file, name) {
  const source = readFileSync(join(REPO, file), 'utf8');
  const start = source.indexOf(`pub struct ${name} {`);
  const body = source.slice(start, source.indexOf('\n}\n', start));
  return [...body.matchAll(/pub (\w+):/g)].map((m) => m[1]);
}

test('every engine value the CTG screen names has words in English and Portuguese', () => {
  const groups = {
    attitude: variants('src/rules/ctg/types.rs', 'Attitude'),
    attitudeLower: variants('src/rules/ctg/types.rs', 'Attitude'),
    bowling: variants('src/rules/ctg/types.rs', 'BowlType'),
    role: variants('src/rules/ctg/types.rs', 'Role'),
    missOption: variants('src/rules/ctg/types.rs', 'MissOption'),
    dismissal: variants('src/rules/ctg/types.rs', 'Dismissal'),
    effect: variants('src/rules/ctg/types.rs', 'Effect'),
    rollFor: variants('src/rules/ctg/event.rs', 'RollFor'),
    skill: fields('src/rules/ctg/state.rs', 'SkillsUsed'),
    phase: variants('src/rules/ctg/phase.rs', 'Phase'),
  };
  const en = i18n.catalogue('en');
  const pt = i18n.catalogue('pt-BR');
  const missing = [];
  for (const [group, values] of Object.entries(groups)) {
    assert.ok(values.length >= 2, `read the ${group} values from the Rust source: ${values}`);
    for (const value of values) {
      for (const [code, cat] of [['en', en], ['pt-BR', pt]]) if (!cat.has(`ctg.${group}.${value}`)) missing.push(`${code}: ctg.${group}.${value}`);
    }
  }
  // Every shot on the board (web/js/games/field.js ZONE_SHOTS, the engine's ten plus Bye).
  for (const shot of ['bye', 'leg_glance', 'hook', 'pull', 'big_shot', 'on_drive', 'straight_drive', 'off_drive', 'cover_drive', 'square_cut', 'late_cut']) {
    for (const [code, cat] of [['en', en], ['pt-BR', pt]]) if (!cat.has(`ctg.shot.${shot}`)) missing.push(`${code}: ctg.shot.${shot}`);
  }
  assert.deepEqual(missing, []);
});

const end = (ball) => ({ type: 'ball_ended', ball: { runs: 0, extras: 0, legal: true, boundary: 0, wicket: null, swap: false, express: false, ...ball } });

test('the ball banner in Portuguese uses the rulebook\'s words: QUATRO, SEIS, FORA, corridas, bola pontilhada', () => {
  i18n.setLang('pt-BR');
  const dice = [{ type: 'delivered', bowl: 2, bowl_sides: 6, bat: 5, bat_sides: 8 }, { type: 'distance', rolled: 4, distance: 4 }];
  const four = ctg.ball.outcome(end({ runs: 4, boundary: 4 }), dice);
  assert.equal(four.text, 'QUATRO!');
  assert.deepEqual(four.dice.map((d) => d.name), ['Arremessador', 'Batedor', 'Distância']);
  assert.equal(four.label, 'Última bola');
  assert.equal(ctg.ball.outcome(end({ runs: 6, boundary: 6 }), []).text, 'SEIS!');
  assert.equal(ctg.ball.outcome(end({ wicket: 'caught' }), []).text, 'FORA! Pego');
  assert.equal(ctg.ball.outcome(end({ wicket: 'clean_bowled' }), []).text, 'FORA! Clean Bowled');
  assert.equal(ctg.ball.outcome(end({ runs: 1 }), []).text, '1 corrida');
  assert.equal(ctg.ball.outcome(end({ runs: 3 }), []).text, '3 corridas');
  assert.equal(ctg.ball.outcome(end({}), []).text, 'Bola pontilhada');
  assert.equal(ctg.ball.outcome(end({ runs: 2 }), [{ type: 'roll', roll_for: 'catch', face: 2, sides: 6 }]).text, 'Pegada perdida! 2 corridas');
  const noBall = ctg.ball.outcome(end({ extras: 1, legal: false }), [{ type: 'revealed', card: 0, shot: { zone: 2, attitude: 'aggressive' }, advantage: 2 }]);
  assert.equal(noBall.detail, 'no-ball: 1 extra · Zona 2 (agressivo), Vantagem +2');
  i18n.setLang('en');
  assert.equal(ctg.ball.outcome(end({ runs: 4, boundary: 4 }), dice).text, 'FOUR!');
  assert.equal(ctg.ball.outcome(end({ wicket: 'run_out', runs: 1 }), []).detail, '1 run before it');
});

test('the commentary in both languages, one message per sentence', () => {
  const card = (name, bowling) => ({ name, bowling, role: 'bowler', confidence: 1 });
  const squad = (team, bowling) => ({ name: team, players: Array.from({ length: 12 }, (_, i) => card(`${team} ${i}`, bowling[i] || 'medium')) });
  const base = { format: 't10', overs: 2, squads: [squad('Gulls', { 3: 'pace' }), squad('Hawks', { 5: 'spin' })] };
  const tellAll = (lang, seatName) => {
    i18n.setLang(lang);
    const story = createStory(ctg, { base, seatName });
    const tell = (event) => story.tell(event);
    return [
      tell({ type: 'squad_chosen', seat: 0 }),
      tell({ type: 'squad_chosen', seat: 1 }),
      tell({ type: 'innings_started', innings: 0, batting: 1 }),
      tell({ type: 'bowler_chosen', bowler: 3 }),
      tell({ type: 'batter_in', batter: 0, attitude: 'defensive' }),
      tell({ type: 'over_card_revealed', slot: 0, card: 10 }),
      tell({ type: 'revealed', card: 1, shot: { zone: 2, attitude: 'aggressive' }, advantage: 1 }),
      tell({ type: 'distance', rolled: 3, distance: 4, rerolled: true, added_one: true }),
      tell({ type: 'ball_ended', ball: { runs: 2, extras: 1, legal: false, boundary: 0 } }),
      tell({ type: 'ball_ended', ball: { runs: 1, extras: 0, legal: true, wicket: 'run_out' } }),
      tell({ type: 'innings_ended', innings: 0, runs: 1234, wickets: 3 }),
      tell({ type: 'match_ended', winner: 1 }),
      story,
    ];
  };
  const en = tellAll('en', (s) => (s === 0 ? 'you' : 'the bot'));
  assert.deepEqual(en.slice(0, -1), [
    'You picked your eleven.',
    'The bot picked their eleven.',
    'Innings 1: Hawks (the bot) to bat.',
    'Gulls 3 to bowl.',
    'Hawks 0 walks in (Defensive).',
    'Over card: 5 · Boundary.',
    'Reveal: In Swing against zone 2 (Aggressive). Advantage +1.',
    'Distance 4 (re-rolled) (+1).',
    '2 runs +1 no-ball.',
    'WICKET! Run out. 1 run.',
    'Innings 1 closes at 1,234/3.',
    'Match over: Hawks (the bot) won.',
  ]);
  assert.equal(en.at(-1).state.overs, 2, 'the story keeps the overs per innings');
  const pt = tellAll('pt-BR', (s) => (s === 0 ? 'você' : 'o robô'));
  assert.deepEqual(pt.slice(0, -1), [
    'Você escolheu sua equipe de 11.',
    'O robô escolheu a equipe de 11.',
    'Entrada 1: Hawks (o robô) no Ataque.',
    'Gulls 3 vai arremessar.',
    'Hawks 0 entra (Defensivo).',
    'Carta de Over: 5 · Boundary.',
    'Revelação: In Swing contra a Zona 2 (Agressivo). Vantagem +1.',
    'Distância 4 (rolada de novo) (+1).',
    '2 corridas +1 no-ball.',
    'WICKET! Run out. 1 corrida.',
    'A Entrada 1 termina em 1.234/3.',
    'Fim de partida: Hawks (o robô) venceu.',
  ]);
  i18n.setLang('en');
});

test('the overs option: a shorter match in the model, the live list and the lobby', () => {
  assert.equal(model({ format: 't10', overs: 2 }, 0).overs, 2);
  assert.equal(model({ format: 't20', overs: 7 }, 0).overs, 7);
  assert.equal(model({ format: 't10' }, 0).overs, 10, 'an old view without overs: the format\'s');
  assert.equal(model({ format: 't20' }, 0).overs, 20);
  i18n.setLang('en');
  assert.equal(ctg.describeOptions({ format: 't10', overs: 2 }), 'T10, 2 overs');
  assert.equal(ctg.describeOptions({ format: 't20', overs: 1 }), 'T20, 1 over');
  assert.equal(ctg.describeOptions({ format: 't10', overs: 10 }), 'T10', 'the whole format says no more');
  assert.equal(ctg.describeOptions({ format: 't20', overs: null }), 'T20');
  assert.equal(ctg.describeOptions({}), 'T10');
  i18n.setLang('pt-BR');
  assert.equal(ctg.describeOptions({ format: 't10', overs: 2 }), 'T10, 2 Overs');
  assert.match(ctg.help[0], /Arremessador/, 'the how-to-play lines are read in the language on screen');
  i18n.setLang('en');
  assert.match(ctg.help[0], /bowler/);
});

test('the field checks speak the page\'s language', () => {
  const infield8 = [];
  for (let zone = 1; zone <= 4; zone += 1) for (let area = 1; area <= 2; area += 1) infield8.push({ zone, area });
  i18n.setLang('pt-BR');
  assert.deepEqual(fieldProblems(infield8), ['8 de 9 Defensores posicionados']);
  i18n.setLang('en');
  assert.deepEqual(fieldProblems(infield8), ['8 of 9 fielders placed']);
});
