// The client's pure logic, run in Node without a browser: the field bitmask shared with the
// engine, the placement checks, the wire normalisation, and the live list's labels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskFromSpots, spotsFromMask, fieldProblems, zoneOfShot } from '../../web/js/games/field.js';
import { wire } from '../../web/js/conn.js';
import { formatOf, playersOf, runningFor } from '../../web/js/live.js';
import ctg from '../../web/js/games/ctg.js';
import wicketz, { cardsInSet, learnCardFaces } from '../../web/js/games/wicketz.js';
import champions from '../../web/js/games/champions.js';

const spots = (...pairs) => pairs.map(([zone, area]) => ({ zone, area }));
const infield9 = spots([1, 1], [1, 2], [2, 1], [2, 2], [3, 1], [3, 2], [4, 1], [4, 2], [5, 1]);

test('the field mask uses bit zone*4 + area-1, as the engine does (src/rules/ctg/field.rs)', () => {
  assert.equal(maskFromSpots(spots([0, 1])), 1);
  assert.equal(maskFromSpots(spots([1, 1])), 1 << 4);
  assert.equal(maskFromSpots(spots([5, 4])), 1 << 23);
  const mask = maskFromSpots(infield9);
  assert.deepEqual(spotsFromMask(mask), infield9);
});

test('a legal field has no problems; each broken rule is named', () => {
  assert.deepEqual(fieldProblems(infield9, { outfieldLimit: 2 }), []);
  assert.match(fieldProblems(infield9.slice(0, 8)).join(), /8 of 9/);
  const deep = spots([1, 3], [2, 3], [3, 3], [1, 1], [2, 1], [3, 1], [4, 1], [4, 2], [5, 1]);
  assert.match(fieldProblems(deep, { outfieldLimit: 2 }).join(), /3 in the outfield \(at most 2/);
  assert.deepEqual(fieldProblems(deep, { outfieldLimit: 5 }), []);
  const slips = spots([0, 1], [1, 1], [1, 2], [2, 1], [2, 2], [3, 1], [3, 2], [4, 1], [4, 2]);
  assert.match(fieldProblems(slips, { slipsAllowed: false }).join(), /slips only/);
  assert.deepEqual(fieldProblems(slips, { slipsAllowed: true }), []);
});

test('three in one zone is legal only in T20, and only in one zone', () => {
  const three = spots([3, 1], [3, 2], [3, 3], [1, 1], [1, 2], [2, 1], [2, 2], [4, 1], [5, 1]);
  assert.match(fieldProblems(three, { oneZoneOfThree: false }).join(), /at most 2 fielders per zone/);
  assert.deepEqual(fieldProblems(three, { oneZoneOfThree: true }), []);
  const twoThrees = spots([3, 1], [3, 2], [3, 3], [4, 1], [4, 2], [4, 3], [1, 1], [2, 1], [5, 1]);
  assert.match(fieldProblems(twoThrees, { oneZoneOfThree: true }).join(), /one zone may hold 3/);
});

test('shots map to their zones (ctg.md section 2)', () => {
  assert.equal(zoneOfShot('leg_glance'), 1);
  assert.equal(zoneOfShot('big_shot'), 2);
  assert.equal(zoneOfShot('straight_drive'), 3);
  assert.equal(zoneOfShot('cover_drive'), 4);
  assert.equal(zoneOfShot('late_cut'), 5);
  assert.equal(zoneOfShot('reverse_sweep'), null);
});

test('server frames are normalised: seq from last_seq, errors keep code, message and reason', () => {
  const snapshot = wire.parse({ type: 'snapshot', last_seq: 41, view: {}, pending: [0], seat: 0 });
  assert.equal(snapshot.kind, 'snapshot');
  assert.equal(snapshot.seq, 41);
  assert.equal(wire.parse({ type: 'update', last_seq: 42, view: {} }).seq, 42);
  assert.equal(wire.parse({ type: 'event', seq: 43, event: {} }).seq, 43);
  const error = wire.parse({ type: 'error', id: 'c1', code: 'illegal_move', message: 'illegal move: no', reason: 'bad_field' });
  assert.deepEqual([error.kind, error.id, error.code, error.message, error.reason], ['error', 'c1', 'illegal_move', 'illegal move: no', 'bad_field']);
  assert.deepEqual(wire.command('c2', { type: 'toss', choice: 'bat' }), { type: 'command', id: 'c2', command: { type: 'toss', choice: 'bat' } });
  // With the last seq seen, the frame names the decision it answers (proto/README.md).
  assert.deepEqual(wire.command('c3', { type: 'toss', choice: 'bowl' }, 41), { type: 'command', id: 'c3', after: 41, command: { type: 'toss', choice: 'bowl' } });
});

test("the Champions over preview reproduces the seed's worked example (champions.md section 4)", async () => {
  const { overScore } = await import('../../web/js/games/champions.js');
  const runSets = [
    { face: 'one', size: 1, runs: 1 },
    { face: 'two', size: 2, runs: 2 },
    { face: 'four', size: 3, runs: 4 },
    { face: 'six', size: 4, runs: 6 },
  ];
  const over = {
    batting: { faces: ['one', 'two', 'four', 'two', 'defence', 'two'], bought_defence: 0 },
    bowling: { faces: ['wicket', 'wide', 'xp', 'save', 'wicket', 'dot'] },
  };
  assert.deepEqual(overScore(runSets, over), { runs: 3, defence: 1, wickets: 1, bowled: true, batted: true });
});

test('the live list names the players, the format and how long a match has run', () => {
  const match = { seats: [{ seat: 0, player_id: 'p1', name: 'Ellyse', bot: false }, { seat: 1, player_id: null, name: null, bot: true }] };
  assert.equal(playersOf(match), 'Ellyse v bot');
  assert.equal(playersOf({ seats: [{ seat: 0, player_id: 'p1', name: null, bot: false }, { seat: 1, player_id: null, bot: false }] }), 'player v open seat');
  const modules = { ctg, wicketz, champions };
  assert.equal(formatOf('ctg', { format: 't20' }, modules), 'T20');
  assert.equal(formatOf('ctg', {}, modules), 'T10', 'the engine default when options omit the format');
  assert.equal(formatOf('wicketz', { overs: 1, innings_per_side: 2 }, modules), '1 over a side, two innings each');
  assert.equal(formatOf('champions', { players: 4 }, modules), '4 players');
  assert.equal(formatOf('unknown-game', { anything: 1 }, modules), '', 'a game whose module has no label');
  const start = Date.parse('2026-01-01T10:00:00Z');
  assert.equal(runningFor('2026-01-01T10:00:00Z', start + 30 * 1000), 'just started');
  assert.equal(runningFor('2026-01-01T10:00:00Z', start + 4 * 60 * 1000), '4 min');
  assert.equal(runningFor('2026-01-01T10:00:00Z', start + 72 * 60 * 1000), '1 h 12 min');
  assert.equal(runningFor(null, start), '', 'a match without a start time says nothing rather than NaN');
});

test('a replay has a step per ball after the empty table, its score from the game module', async () => {
  const { buildSteps } = await import('../../web/js/replay.js');
  const { MODULES } = await import('../../web/js/catalog.js');
  MODULES.wicketz = wicketz;
  const ball = (bat_runs, dismissal = null) => ({ type: 'ball_completed', ball: { bat_runs, byes: 0, extras: 0, legal: true, dismissal } });
  const events = [
    { type: 'toss_won', seat: 0 },
    { type: 'innings_opened', number: 1, batting: 0 },
    ball(4),
    ball(0, { kind: 'bowled' }),
    { type: 'innings_closed', number: 1, runs: 4, wickets: 1 },
  ];
  const steps = buildSteps('wicketz', events, (event) => event.type);
  assert.equal(steps.length, 3, 'the empty table, then one step per ball');
  assert.deepEqual(steps[0].lines, []);
  assert.deepEqual(steps[0].score, {});
  assert.deepEqual(steps[1].lines, ['toss_won', 'innings_opened', 'ball_completed'], 'ball 1 with what led up to it');
  assert.equal(steps[1].score.innings[0].total, 4);
  assert.deepEqual(steps[2].lines, ['ball_completed', 'innings_closed'], 'the last ball with what followed it');
  assert.equal(steps[2].score.innings[0].wickets, 1);
  assert.equal(steps[2].score.innings[0].legal, 2);
});

test('words: plurals by Intl.PluralRules, seats by name, "Seat 1 won" named', async () => {
  const { count, nameOfSeat, namedSeats } = await import('../../web/js/words.js');
  assert.equal(count(1, 'run'), '1 run');
  assert.equal(count(0, 'run'), '0 runs');
  assert.equal(count(2, 'wicket'), '2 wickets');
  const seats = [{ seat: 0, player_id: 'p1', name: 'Ann', bot: false }, { seat: 1, player_id: null, name: null, bot: true }];
  assert.equal(nameOfSeat(seats, 0), 'Ann');
  assert.equal(nameOfSeat(seats, 0, { me: 0 }), 'you');
  assert.equal(nameOfSeat(seats, 1), 'the bot');
  assert.equal(nameOfSeat([], 2), 'player 3', 'an unknown seat counts from 1, never "seat 2"');
  assert.equal(namedSeats('Seat 1 won by 3 runs', (s) => nameOfSeat(seats, s)), 'The bot won by 3 runs');
});

test('the ball banner reads each game\'s ball-ending event: OUT, FOUR, SIX, runs, dropped, extras, with the dice', () => {
  const end = (ball) => ({ type: 'ball_ended', ball: { runs: 0, extras: 0, legal: true, boundary: 0, wicket: null, swap: false, express: false, ...ball } });
  const dice = [{ type: 'delivered', bowl: 2, bowl_sides: 6, bat: 5, bat_sides: 8 }, { type: 'distance', rolled: 4, distance: 4 }];
  assert.ok(ctg.ball.ends(end({})));
  assert.deepEqual(ctg.ball.outcome(end({ runs: 4, boundary: 4 }), dice).dice.map((d) => d.value), [2, 5, 4]);
  assert.equal(ctg.ball.outcome(end({ runs: 4, boundary: 4 }), dice).text, 'FOUR!');
  assert.equal(ctg.ball.outcome(end({ runs: 6, boundary: 6 }), []).kind, 'six');
  assert.equal(ctg.ball.outcome(end({ wicket: 'caught' }), []).text, 'OUT! Caught');
  assert.equal(ctg.ball.outcome(end({ runs: 1 }), []).text, '1 run');
  assert.equal(ctg.ball.outcome(end({ runs: 2 }), [{ type: 'roll', roll_for: 'catch', face: 2, sides: 6 }]).text, 'Dropped! 2 runs');
  const noBall = ctg.ball.outcome(end({ extras: 1, legal: false }), []);
  assert.equal(noBall.kind, 'extras');
  assert.match(noBall.detail, /no-ball: 1 extra\b/);

  const wz = (ball) => ({ type: 'ball_completed', ball: { bat_runs: 0, byes: 0, extras: 0, legal: true, dismissal: null, catch: null, reading: null, delivery: 'yorker', card: 12, stroke: 'cut', ...ball } });
  assert.equal(wicketz.ball.outcome(wz({ bat_runs: 4, reading: { kind: 'four', letter: 'C' } })).text, 'FOUR!');
  assert.equal(wicketz.ball.outcome(wz({ dismissal: { batter: 0, how: { kind: 'bowled' } } })).text, 'OUT! Bowled');
  assert.equal(wicketz.ball.outcome(wz({ bat_runs: 1, catch: { lives: 1, spins: [true] } })).text, 'Dropped! 1 run');

  const ctx = { seat: 0, seatName: (s) => (s === 0 ? 'you' : 'the bot') };
  const over = { type: 'over_resolved', batsman: 0, bowler: 1, result: { runs: 1, wickets: 2, wides: 1, saved: 0, bonus_runs: 0 } };
  const turns = [{ type: 'turn_ended', seat: 0, faces: ['one', 'xp', 'xp', 'six', 'six', 'two'] }, { type: 'turn_ended', seat: 1, faces: ['wicket', 'wicket', 'wide', 'dot', 'xp', 'save'] }];
  const told = champions.ball.outcome(over, turns, ctx);
  assert.equal(told.text, 'You: 1 run, 2 wickets');
  assert.equal(told.dice.length, 12, 'both sets of six dice');
});

test('protocol 2: merge patches (RFC 7396) and the step frame', async () => {
  const { mergePatch } = await import('../../web/js/conn.js');
  const view = { phase: 'sealed', ball: { card: 3, card_sealed: true, shot: { zone: 2 } }, scores: [{ runs: 4 }, { runs: 0 }] };
  const next = mergePatch(view, { ball: { card: null, shot: { attitude: 'defensive' } }, scores: [{ runs: 5 }, { runs: 0 }], target: 40 });
  assert.deepEqual(next, { phase: 'sealed', ball: { card_sealed: true, shot: { zone: 2, attitude: 'defensive' } }, scores: [{ runs: 5 }, { runs: 0 }], target: 40 });
  assert.equal(view.ball.card, 3, 'the held view is not modified in place');
  assert.deepEqual(mergePatch(view, {}), view, '{} changes nothing');
  assert.equal(wire.parse({ type: 'step', last_seq: 42, events: [[41, { type: 'x' }]], view: {}, pending: [1] }).kind, 'step');
});

test('the story names cards and players from the state at each event, not from the final view', async () => {
  const { createStory } = await import('../../web/js/story.js');
  const card = (name, bowling) => ({ name, bowling, role: 'bowler', confidence: 1 });
  const squad = (team, bowling) => ({ name: team, players: Array.from({ length: 12 }, (_, i) => card(`${team} ${i}`, bowling[i] || 'medium')) });
  // Gulls bowl pace with player 3; Hawks bowl spin with player 5.
  const base = { format: 't10', squads: [squad('Gulls', { 3: 'pace' }), squad('Hawks', { 5: 'spin' })] };
  const story = createStory(ctg, { base, seatName: (seat) => `P${seat}` });
  const tell = (event) => story.tell(event);
  tell({ type: 'innings_started', innings: 0, batting: 1 });
  assert.equal(tell({ type: 'bowler_chosen', bowler: 3 }), 'Gulls 3 to bowl.');
  assert.equal(tell({ type: 'batter_in', batter: 0, attitude: 'defensive' }), 'Hawks 0 walks in (Defensive).');
  // Pace's over card 10 is "boundary", express 5; spin's differs.
  assert.match(tell({ type: 'over_card_revealed', slot: 0, card: 10 }), /Over card: 5 · Boundary/);
  assert.match(tell({ type: 'revealed', card: 1, shot: { zone: 2, attitude: 'defensive' }, advantage: 1 }), /^Reveal: In Swing/);
  assert.equal(tell({ type: 'confidence_changed', player: 0, confidence: 2 }), "Hawks 0's confidence is now 2.");
  tell({ type: 'ball_ended', ball: { runs: 4, extras: 0, legal: true, boundary: 4 } });
  assert.equal(story.state.scores[1].runs, 4);
  assert.deepEqual(story.state.ball.bowl, undefined, 'no dice this ball');
  tell({ type: 'innings_started', innings: 1, batting: 0 });
  assert.equal(story.state.target, 5);
  assert.equal(tell({ type: 'bowler_chosen', bowler: 5 }), 'Hawks 5 to bowl.');
  assert.match(tell({ type: 'revealed', card: 0, shot: { zone: 1, attitude: 'aggressive' }, advantage: 0 }), /^Reveal: Top Spin/);
  assert.equal(tell({ type: 'batter_in', batter: 2, attitude: 'aggressive' }), 'Gulls 2 walks in (Aggressive).');
  // Protocol 2 leaves null members out: a tie has no winner member.
  assert.equal(tell({ type: 'match_ended' }), 'Match over: a tie!');
});

test('a Wicketz card set counts its cards: one hex digit per four cards (src/rules/wicketz/card_set.rs)', () => {
  assert.equal(cardsInSet('f'.repeat(61) + '3'), 246);
  assert.equal(cardsInSet('0'.repeat(62)), 0);
  assert.equal(cardsInSet('3300'), 4);
  assert.equal(cardsInSet(''), 0);
});

test('the Wicketz replay counts the cards still to come as the engine does (src/rules/wicketz/state.rs)', () => {
  // A deck of eight: the count needs the deck's size, which the replay reads from the card data.
  const cards = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, kind: 'plain', window: 1, rows: [] }));
  assert.equal(learnCardFaces({ cards: { cards }, ruleset: { strokes: [] } }), 8);
  let v = wicketz.story.init({}, {});
  const apply = (event) => { v = wicketz.story.apply(v, event) || v; return v.cards_to_come_count; };
  assert.equal(apply({ type: 'dispenser_shuffled', order: [] }), 8);
  assert.equal(apply({ type: 'card_dealt', card: 1 }), 7);
  assert.equal(apply({ type: 'wild_card_drawn', card: 2 }), 6, 'a wild card is out of the box too');
  assert.equal(apply({ type: 'over_completed', number: 0, runs: 0 }), 6, 'an over\'s cards go back behind the fresh ones');
  for (const card of [3, 4, 5, 6, 7]) apply({ type: 'card_dealt', card });
  assert.equal(apply({ type: 'card_dealt', card: 8 }), 2, 'every card dealt: the next comes from what is in the box');
  assert.equal(apply({ type: 'dispenser_shuffled', order: [] }), 2, 'the over\'s six stay out of the shuffle');
  assert.equal(apply({ type: 'over_completed', number: 1, runs: 0 }), 2);
  assert.equal(apply({ type: 'card_dealt', card: 1 }), 1);
  assert.equal(v.cards_in_dispenser, 7, 'the box holds the deck less this over\'s card');
});
