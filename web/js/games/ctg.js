// Cricket: The Game screen: field picture, scoreboard, Advantage meter, batter cards, the
// bowler's hand, zone selection, over-card strip, dice, run decisions, skill cards, DRS.
//
// `model(view)` is the one place that knows the engine's view field names; the board and
// the decision controls read only the model. The decision panel is chosen by the view's
// phase (what the game waits for), and every control sends one engine `Command` (tag
// "type"). A phase this file does not know falls back to the generic form.

import { h, label, pick, summary } from '../dom.js';
import { stat, rolledDie, panel } from '../ui.js';
import { fieldPicture, readField, ZONE_SHOTS, fieldProblems, maskFromSpots } from './field.js';
import { CTG_DATA } from './ctg-data.js';
import { count } from '../words.js';

const ADVANTAGE = [-1, 0, 1, 2, 3];
const NONE = 255;

// ---------------------------------------------------------------- model

function arr(x) {
  return Array.isArray(x) ? x : [];
}

const bits = (mask) => [...Array(16).keys()].filter((i) => Number(mask) & (1 << i));

/**
 * A normalised CTG view (engine `rules::ctg::view::View`): every name the screen uses.
 * Players are squad indices 0..11; `scores` and `confidence` are by seat.
 */
export function model(view, seat) {
  const squads = arr(view.squads);
  const batting = Number(view.batting ?? 0);
  const fielding = 1 - batting;
  const scores = arr(view.scores);
  const format = String(view.format || 't10').toLowerCase();
  const player = (side, index) => {
    if (index === undefined || index === null || index === NONE) return null;
    const card = arr(squads[side] && squads[side].players)[index];
    return card ? { ...card, index } : { name: `#${index}`, index };
  };
  const batter = (index) => {
    const p = player(batting, index);
    if (!p) return null;
    return { ...p, confidence: arr(arr(view.confidence)[batting])[index] ?? p.confidence, attitude: arr(view.attitudes)[index] };
  };
  const bowler = player(fielding, view.bowler);
  const ask = view.ask || null;
  const bowlType = String((ask && ask.bowl_type) || (bowler && bowler.bowling) || '').toLowerCase();
  const ball = view.ball || {};
  const cards = arr(view.over_cards);
  const overCards = [0, 1, 2, 3, 4, 5].map((slot) => cards.find((c) => c.slot === slot) || null);
  for (const c of cards) if (c.slot > 5) overCards.push(c);
  return {
    view,
    seat,
    ask,
    askKind: ask ? ask.ask : null,
    format,
    areas: format === 't20' ? 4 : 3,
    overs: format === 't20' ? 20 : 10,
    phase: view.phase,
    squads,
    batting,
    fielding,
    side: seat === null || seat === undefined || ['not_started', 'select_squad', 'toss'].includes(view.phase) ? null : Number(seat) === batting ? 'batting' : 'fielding',
    // The engine counts innings from 0; people count from 1.
    innings: Number(view.innings || 0) + 1,
    started: !['not_started', 'select_squad', 'toss'].includes(view.phase),
    score: scores[batting] || {},
    otherScore: scores[fielding] || {},
    target: view.target,
    pitch: view.pitch ? label(view.pitch) : null,
    striker: batter(view.striker),
    nonStriker: batter(view.non_striker),
    bowler,
    bowlType,
    advantage: ball.advantage ?? null,
    field: readField(view.field),
    fieldRules: view.field_rules || {},
    overCards,
    slot: cards.length,
    ball,
    skills: view.skills_used || {},
    drsUsed: view.drs_used,
    powerPlayNow: view.power_play_now,
    hand: CTG_DATA.bowling_decks[bowlType] || [],
    oversBowled: view.overs_bowled,
    winner: view.winner,
    player,
  };
}

// ---------------------------------------------------------------- board

export function advantageMeter(value) {
  return h('div', { 'data-testid': 'advantage' },
    h('div', { class: 'advantage' }, ADVANTAGE.map((v) =>
      h('span', { class: [v < 0 ? 'neg' : v > 0 ? 'pos' : '', v === value && 'on'] }, v > 0 ? `+${v}` : String(v)))),
    h('div', { class: 'advantage-caption' }, h('span', {}, 'bowler'),
      h('span', {}, value === null || value === undefined ? 'set at the reveal' : `Advantage ${value > 0 ? '+' : ''}${value}`),
      h('span', {}, 'batter')));
}

function confidencePips(value) {
  return h('span', { class: 'conf', title: `confidence ${value}` },
    ADVANTAGE.map((v) => h('i', { class: [v <= (value ?? -2) && 'on', v < 0 && 'neg'] })));
}

function batterCard(batter, facing) {
  if (!batter) return h('div', { class: 'batter-card muted' }, facing ? 'Striker: not in yet' : 'Non-striker: not in yet');
  const attitude = String(batter.attitude || '').toLowerCase();
  return h('div', { class: ['batter-card', facing && 'facing'], 'data-testid': facing ? 'striker' : 'non-striker' },
    h('div', { class: 'name' }, batter.name, facing ? ' *' : ''),
    h('div', { class: 'line' },
      batter.runs !== undefined ? h('span', {}, `${batter.runs} (${batter.balls ?? 0})`) : null,
      attitude ? h('span', { class: ['pill', attitude.startsWith('a') ? 'a' : 'd'] }, label(attitude)) : null,
      batter.role === 'batter' ? h('span', { class: 'pill', title: 'Advantage never below 0' }, 'specialist') : h('span', { class: 'pill' }, label(batter.role || '')),
    ),
    h('div', { class: 'line' }, h('span', { class: 'muted' }, 'Confidence'), confidencePips(batter.confidence), h('strong', {}, String(batter.confidence ?? '-'))),
  );
}

function oversText(balls) {
  if (balls === undefined || balls === null) return '0.0';
  return `${Math.floor(balls / 6)}.${balls % 6}`;
}

function overStrip(m) {
  return h('div', { class: 'over-strip', 'data-testid': 'over-strip' }, m.overCards.map((card, i) =>
    h('div', { class: ['over-card', card && 'up', i === m.slot && 'current'], title: card ? `${card.express}: ${label(card.effect)}` : 'face down' },
      card ? [h('span', { class: 'xv' }, String(card.express ?? '')), h('span', {}, label(card.effect || ''))] : '?')));
}

function ballPanel(m) {
  const b = m.ball || {};
  const dice = [];
  const pair = (name, value) => {
    if (Array.isArray(value)) dice.push(rolledDie(name, value[0], value[1]));
  };
  pair('Bowler', b.bowl);
  pair('Batter', b.bat);
  if (b.distance) dice.push(rolledDie('Distance', b.distance, m.format === 't20' ? 8 : 6));
  if (b.bounce_face) {
    const attitude = b.shot && b.shot.attitude;
    const die = attitude === 'aggressive' ? CTG_DATA.bounce_dice.red : CTG_DATA.bounce_dice.green;
    dice.push(rolledDie(`Bounce (${attitude === 'aggressive' ? 'red' : 'green'} die)`, die ? die[b.bounce_face - 1] : b.bounce_face));
  }
  const facts = [];
  if (b.card !== null && b.card !== undefined) {
    const card = m.hand[b.card];
    facts.push(`Bowl card: ${card ? card.name : '#' + (b.card + 1)}${b.shot ? '' : ' (sealed)'}`);
  } else if (b.card_sealed) facts.push('Bowl card sealed');
  if (b.shot) facts.push(`zone ${b.shot.zone} (${ZONE_SHOTS[b.shot.zone] ? ZONE_SHOTS[b.shot.zone].map(label).join(' / ') : ''}), ${label(b.shot.attitude)}`);
  else if (b.shot_sealed) facts.push('Zone sealed');
  if (b.express_value !== undefined) facts.push(`express ball: decided by the over card's ${b.express_value}`);
  if (b.effect) facts.push(`over card: ${label(b.effect)}`);
  if (b.no_ball) facts.push('NO BALL');
  if (b.free_hit) facts.push('FREE HIT');
  if (b.appeal) facts.push(`appeal: ${label(b.appeal)}`);
  return h('div', { 'data-testid': 'last-ball' },
    h('div', { class: 'dice-row' }, dice.length ? dice : h('span', { class: 'muted' }, b.express_value !== undefined ? 'No dice: an express ball.' : 'No dice rolled yet this ball.')),
    facts.length ? h('p', {}, facts.join(' · ')) : null);
}

function skillsPanel(m) {
  const used = m.skills || {};
  const skill = (key, name, per) => {
    const u = Number(used[key] || 0);
    return h('span', { class: ['skill', u > 0 && 'used'], title: `${name}: once per ${per}${u ? ' (used)' : ''}` }, name);
  };
  return h('div', { class: 'skills', 'data-testid': 'skills' },
    skill('reroll_to_hit', 'Re-roll To Hit', 'innings'),
    skill('reroll_distance', 'Re-roll Distance', 'innings'),
    skill('reroll_bounce', 'Re-roll Bounce', 'innings'),
    skill('add_one', 'Add 1 to Advantage', 'over'),
    skill('roll_d8', 'Roll D8', 'over'),
    h('span', { class: ['skill', m.drsUsed && 'used'], title: 'DRS: once per innings' }, 'DRS'));
}

function board(view, ctx) {
  const m = model(view, ctx.spectate ? null : ctx.seat);
  const figures = tally(ctx).innings;
  const batters = figures.length ? figures[figures.length - 1].batters : {};
  for (const b of [m.striker, m.nonStriker]) {
    if (b && batters[b.index]) Object.assign(b, { runs: batters[b.index].runs, balls: batters[b.index].balls });
  }
  const plan = ctx.ui.fieldPlan;
  const placing = Boolean(plan) && m.askKind === 'set_field';
  const chosenZone = ctx.ui.zone ?? (m.ball && m.ball.shot ? m.ball.shot.zone : undefined);
  const score = m.score;
  const runs = score.runs ?? 0;
  const teamName = (side) => (m.squads[side] && m.squads[side].name) || ctx.seatName(side);
  const scoreboard = h('div', { class: 'panel', 'data-testid': 'scoreboard' },
    h('h3', {}, m.started ? `Innings ${m.innings} · ${teamName(m.batting)} batting${m.side ? ` · you are ${m.side}` : ''}` : 'Before the first ball: squads and toss'),
    h('div', { class: 'scoreline', 'data-testid': 'score' }, `${runs}/${score.wickets ?? 0}`, h('small', {}, ` after ${oversText(score.balls)} of ${m.overs} overs`)),
    h('div', { class: 'stat-row' },
      stat('Overs', `${oversText(score.balls)}/${m.overs}`, 'overs'),
      m.innings === 2 && m.target ? stat('Target', m.target, 'target') : null,
      m.innings === 2 && m.target ? stat('Need', Math.max(0, m.target - runs), 'need') : null,
      m.innings === 2 ? stat(`${teamName(m.fielding)}`, `${m.otherScore.runs ?? 0}/${m.otherScore.wickets ?? 0}`) : null,
      score.extras ? stat('Extras', score.extras) : null,
      m.powerPlayNow ? stat('Power Play', 'ON', 'power-play') : null,
      m.ball.free_hit ? stat('Free hit', 'YES') : null,
      stat('Pitch', m.pitch || '-'),
    ),
  );
  const bowlerLine = m.bowler
    ? h('p', {}, 'Bowling: ', h('strong', {}, m.bowler.name), m.bowlType ? ` (${label(m.bowlType)})` : '')
    : h('p', { class: 'muted' }, 'No bowler chosen yet.');
  const handPanel = m.side === 'fielding' && m.hand.length
    ? panel("Bowler's hand", h('div', { class: 'hand' }, m.hand.map((card, i) =>
      h('div', { class: ['bowl-card', m.ball && m.ball.shot && m.ball.card === i && 'played'] },
        h('strong', {}, card.name), h('small', {}, `weak to ${arr(card.shots).map(label).join(', ')}`)))))
    : null;

  return h('div', { class: 'ctg-top' },
    h('div', { class: 'panel' },
      h('h3', {}, placing ? 'Place your fielders: click an area to add or remove one' : 'The field'),
      fieldPicture({ areas: m.areas, fielders: placing ? plan : m.field, onToggle: placing ? ctx.ui.onToggleFielder : undefined, chosenZone }),
      placing ? h('p', { class: 'placing-status', 'data-testid': 'placing-status' }, ctx.ui.placingStatus || '') : null,
      h('p', { class: 'muted' }, 'Red outline: catch needs one less. Dashed ring: the infield (areas 1-2).'),
    ),
    h('div', { class: 'board' },
      scoreboard,
      panel('Advantage', advantageMeter(m.advantage)),
      panel('At the crease', [h('div', { class: 'batters' }, batterCard(m.striker, true), batterCard(m.nonStriker, false)), bowlerLine]),
      panel('This over', overStrip(m)),
      handPanel,
      panel("Batting side's skill cards and DRS", skillsPanel(m)),
      scorecardPanel(m, ctx),
    ),
  );
}

// ---------------------------------------------------------------- the top of the screen

/** A team's name ("Harbour Gulls"): the squads are in the view once they are picked. */
function teamName(view, seat) {
  const squad = arr(view && view.squads)[seat];
  return squad && squad.name ? squad.name : null;
}

/** The score in one line: "Harbour Gulls 34/2 (4.3 of 10 ov) · need 40 off 33". */
function headline(view, ctx) {
  const m = model(view, ctx.spectate ? null : ctx.seat);
  if (!m.started) return h('div', { class: 'headline' }, h('strong', {}, 'Before the first ball'), h('span', { class: 'muted' }, ' squads and toss'));
  const score = m.score;
  const runs = score.runs ?? 0;
  const name = teamName(view, m.batting) || ctx.seatName(m.batting);
  const ballsLeft = m.overs * 6 - (score.balls ?? 0);
  const chase = m.innings === 2 && m.target
    ? `need ${count(Math.max(0, m.target - runs), 'run')} off ${count(ballsLeft, 'ball')}`
    : null;
  return h('div', { class: 'headline' },
    h('span', { class: 'headline-team' }, name, m.side ? h('small', { class: 'muted' }, m.side === 'batting' ? ' (you bat)' : ' (you bowl)') : null),
    h('strong', { class: 'headline-score', 'data-testid': 'headline-score' }, `${runs}/${score.wickets ?? 0}`),
    h('span', { class: 'muted' }, `${oversText(score.balls)} of ${m.overs} ov`),
    chase ? h('span', { class: 'headline-chase' }, chase) : null,
    m.ball && m.ball.free_hit ? h('span', { class: 'pill a' }, 'free hit') : null,
    m.powerPlayNow ? h('span', { class: 'pill d' }, 'power play') : null);
}

/** This ball's dice and cards as they stand, beside the question. */
function dicePanel(view, ctx) {
  const m = model(view, ctx.spectate ? null : ctx.seat);
  if (!m.started) return null;
  return h('section', { class: 'panel compact' }, h('h3', {}, 'This ball'), ballPanel(m),
    m.advantage !== null && m.advantage !== undefined ? h('p', { class: 'small' }, `Advantage ${m.advantage > 0 ? '+' : ''}${m.advantage}`) : null);
}

const CATCH_ROLLS = new Set(['catch', 'slip_catch']);

/**
 * The ball banner: what a ball was (OUT, FOUR, SIX, runs, a dropped catch, a no-ball) and
 * the dice that decided it, from the events of the ball (`events` ends with `ball_ended`).
 */
const ball = {
  ends: (event) => event.type === 'ball_ended',
  outcome(end, events, ctx = {}) {
    const b = end.ball || {};
    // The over's deck is the bowler's, who bowls the whole over: the view at the ball's end.
    const state = ctx.story || ctx.view;
    const deck = state ? CTG_DATA.over_decks[model(state, null).bowlType] : null;
    const dice = [];
    let bat = null;
    let reveal = null;
    let dropped = false;
    let reviewed = null;
    for (const e of events) {
      switch (e.type) {
        case 'revealed': reveal = e; break;
        case 'delivered':
          dice.push({ name: 'Bowler', value: e.bowl, sides: e.bowl_sides, kind: 'bowling' });
          bat = { name: 'Batter', value: e.bat, sides: e.bat_sides, kind: 'batting' };
          dice.push(bat);
          break;
        case 'to_hit_rerolled': if (bat) bat.value = e.bat; break;
        case 'roll':
          dice.push({ name: label(e.roll_for), value: e.face, sides: e.sides });
          if (CATCH_ROLLS.has(e.roll_for)) dropped = true;
          break;
        case 'distance': dice.push({ name: 'Distance', value: e.distance }); break;
        case 'bounce': dice.push({ name: 'Bounce', value: e.face }); break;
        case 'reviewed': reviewed = e; break;
        case 'over_card_revealed':
          // An express ball is decided by the over card's number, not by dice.
          if (b.express) dice.push({ name: 'Over card', value: deck ? deck.express_values[e.card] : `#${e.card}` });
          break;
        default:
      }
    }
    const runs = b.runs || 0;
    const extras = b.extras || 0;
    const bits = [];
    let kind;
    let text;
    if (b.wicket) {
      kind = 'out';
      text = `OUT! ${label(b.wicket)}`;
      if (runs) bits.push(`${count(runs, 'run')} before it`);
    } else if (b.boundary === 6) {
      kind = 'six';
      text = 'SIX!';
    } else if (b.boundary === 4) {
      kind = 'four';
      text = 'FOUR!';
    } else if (dropped) {
      kind = 'dropped';
      text = `Dropped! ${runs ? count(runs, 'run') : 'no run'}`;
    } else {
      kind = runs ? 'runs' : 'dot';
      text = runs ? count(runs, 'run') : 'Dot ball';
    }
    if (extras) {
      bits.push(`no-ball: ${count(extras, 'extra')}`);
      if (kind === 'dot' || kind === 'runs') kind = 'extras';
    }
    if (b.express) bits.push('express ball (over card)');
    if (reviewed) bits.push(`DRS ${reviewed.face}: ${reviewed.overturned ? 'overturned' : 'decision stands'}`);
    if (reveal) bits.push(`zone ${reveal.shot.zone} (${label(reveal.shot.attitude).toLowerCase()}), Advantage ${reveal.advantage > 0 ? '+' : ''}${reveal.advantage}`);
    return { kind, text, detail: bits.join(' · '), dice, label: 'Last ball' };
  },
};

// ---------------------------------------------------------------- decisions

const ATTITUDES = ['aggressive', 'defensive'];

function actionButton(ctx, text, command, { primary = false, action = 'choose', title } = {}) {
  return h('button', { class: primary && 'primary', 'data-action': action, title, disabled: ctx.busy, onclick: () => ctx.send(command) }, text);
}

function attitudeToggle(ctx, key, initial) {
  if (!ctx.ui[key]) ctx.ui[key] = initial || 'defensive';
  return h('div', { class: 'buttons' }, ATTITUDES.map((a) =>
    h('button', { class: ctx.ui[key] === a && 'selected', 'data-testid': `${key}-${a}`, onclick: () => { ctx.ui[key] = a; ctx.redraw(); } }, label(a))));
}

function squadDecision(m, ask, ctx) {
  const me = Number(ctx.seat);
  const players = arr(m.squads[me] && m.squads[me].players);
  const droppable = bits(ask.droppable);
  if (ctx.ui.drop === undefined || !droppable.includes(ctx.ui.drop)) ctx.ui.drop = droppable[droppable.length - 1];
  const drop = ctx.ui.drop;
  const order = players.map((_, i) => i).filter((i) => i !== drop).slice(0, 11);
  const nameOf = (i) => (players[i] ? players[i].name : `#${i}`);
  return h('div', {},
    h('p', {}, 'Pick your eleven: drop one pace or spin bowler. The batting order is the squad order.'),
    h('div', { class: 'buttons' }, droppable.map((i) =>
      h('button', { class: drop === i && 'selected', onclick: () => { ctx.ui.drop = i; ctx.redraw(); } }, `Drop ${nameOf(i)} (${label(ask.roles[i])})`))),
    h('ol', { class: 'order' }, order.map((i) => h('li', {}, `${nameOf(i)} · ${label(ask.roles[i])} · confidence ${ask.confidence[i]}`))),
    actionButton(ctx, 'Confirm the eleven', { type: 'select_squad', drop, batting_order: order }, { primary: true }));
}

function bowlerDecision(m, ask, ctx) {
  const players = arr(m.squads[Number(ctx.seat)] && m.squads[Number(ctx.seat)].players);
  const legal = bits(ask.legal);
  return h('div', {},
    h('p', {}, `Choose the bowler for over ${(m.view.overs_completed ?? 0) + 1}: not last over's bowler, at most ${m.format === 't20' ? 3 : 2} overs each.`),
    h('div', { class: 'buttons' }, legal.map((i, n) =>
      actionButton(ctx, `${players[i] ? players[i].name : '#' + i} (${label(ask.types[i] || '')}, ${ask.overs_bowled[i]} ov)`, { type: 'choose_bowler', bowler: i }, { primary: n === 0 }))));
}

function inOrder(ask) {
  const available = bits(ask.available);
  const ordered = arr(ask.order).filter((i) => available.includes(i));
  return ordered.length ? [...new Set(ordered)] : available;
}

function openersDecision(m, ask, ctx) {
  const players = arr(m.squads[m.batting] && m.squads[m.batting].players);
  const list = inOrder(ask);
  if (!list.includes(ctx.ui.striker)) ctx.ui.striker = list[0];
  if (!list.includes(ctx.ui.nonStriker) || ctx.ui.nonStriker === ctx.ui.striker) ctx.ui.nonStriker = list.find((i) => i !== ctx.ui.striker);
  const choose = (key) => h('select', { 'data-testid': `select-${key}`, onchange: (e) => { ctx.ui[key] = Number(e.target.value); ctx.redraw(); } },
    list.map((i) => h('option', { value: String(i), selected: i === ctx.ui[key] }, players[i] ? players[i].name : `#${i}`)));
  return h('div', {},
    h('p', {}, 'Send in your openers and pick their attitudes.'),
    h('label', { class: 'opt' }, h('span', {}, 'Striker'), choose('striker')),
    attitudeToggle(ctx, 'strikerAttitude', 'defensive'),
    h('label', { class: 'opt' }, h('span', {}, 'Non-striker'), choose('nonStriker')),
    attitudeToggle(ctx, 'nonStrikerAttitude', 'defensive'),
    actionButton(ctx, 'Walk out', { type: 'openers', striker: ctx.ui.striker, non_striker: ctx.ui.nonStriker, striker_attitude: ctx.ui.strikerAttitude, non_striker_attitude: ctx.ui.nonStrikerAttitude }, { primary: true }));
}

function nextBatterDecision(m, ask, ctx) {
  const players = arr(m.squads[m.batting] && m.squads[m.batting].players);
  return h('div', {},
    h('p', {}, 'Who comes in next, and with which attitude?'),
    attitudeToggle(ctx, 'nextAttitude', 'defensive'),
    h('div', { class: 'buttons' }, inOrder(ask).map((i, n) =>
      h('button', { class: n === 0 && 'primary', 'data-action': 'choose', disabled: ctx.busy,
        onclick: () => ctx.send({ type: 'next_batter', batter: i, attitude: ctx.ui.nextAttitude }) }, players[i] ? players[i].name : `#${i}`))));
}

function defaultField() {
  // Legal in every over: two per zone in the infield of zones 1-5, less one; no outfield, no slips.
  const spots = [];
  for (let zone = 1; zone <= 5; zone += 1) for (let area = 1; area <= 2; area += 1) spots.push({ zone, area });
  return spots.slice(0, 9);
}

function fieldDecision(m, ask, ctx) {
  const current = readField(ask.current);
  const key = `${m.innings}:${m.score.balls}:${m.score.wickets}:${m.score.runs}:${ask.current}`;
  if (ctx.ui.fieldKey !== key || !ctx.ui.fieldPlan) {
    ctx.ui.fieldKey = key;
    ctx.ui.fieldPlan = current.length === 9 ? current : defaultField();
  }
  const rules = ask.rules || {};
  const limit = rules.outfield_limit ?? 5;
  const check = { outfieldLimit: limit, slipsAllowed: rules.slips_allowed !== false, oneZoneOfThree: m.format === 't20' };
  const problems = fieldProblems(ctx.ui.fieldPlan, check);
  ctx.ui.placingStatus = problems.length ? `Not legal yet: ${problems.join('; ')}` : `Legal: 9 fielders, ${ctx.ui.fieldPlan.filter((sp) => sp.area > 2).length} of at most ${limit} in the outfield.`;
  ctx.ui.onToggleFielder = (zone, area) => {
    const plan = ctx.ui.fieldPlan;
    const at = plan.findIndex((sp) => sp.zone === zone && sp.area === area);
    if (at >= 0) plan.splice(at, 1);
    else plan.push({ zone, area });
    ctx.redraw();
  };
  return h('div', {},
    h('p', {}, `Set the field for the next ball: at most ${limit} in the outfield, 2 per zone${m.format === 't20' ? ' (one zone may hold 3)' : ''}, ${rules.slips_allowed ? 'up to 2 slips' : 'no slips (not a pace bowler)'}. Click areas on the field to add or remove fielders.`),
    h('p', { class: problems.length ? 'error' : 'muted', 'data-testid': 'field-status' }, ctx.ui.placingStatus),
    h('div', { class: 'buttons' },
      h('button', { class: 'primary', 'data-action': 'set-field', disabled: ctx.busy,
        onclick: () => ctx.send({ type: 'set_field', field: maskFromSpots(ctx.ui.fieldPlan) }) }, 'Confirm field'),
      h('button', { onclick: () => { ctx.ui.fieldPlan = current.length === 9 ? readField(ask.current) : defaultField(); ctx.redraw(); } }, 'Reset')));
}

function zonesOf(mask) {
  return [0, 1, 2, 3, 4, 5].filter((z) => Number(mask) & (1 << z));
}

function bowlDecision(m, ask, ctx) {
  const deck = CTG_DATA.bowling_decks[ask.bowl_type] || [];
  return h('div', {},
    h('p', {}, 'Choose a bowl card, face down: the batter sees it only after choosing a zone. A card is weak to the zones of its shots.'),
    h('div', { class: 'hand', 'data-testid': 'hand' }, [...Array(ask.cards).keys()].map((i) =>
      h('button', { class: 'bowl-card', 'data-action': 'bowl', 'data-testid': `bowl-${i}`, disabled: ctx.busy, onclick: () => ctx.send({ type: 'bowl', card: i }) },
        h('strong', {}, deck[i] ? deck[i].name : `Card ${i + 1}`),
        h('small', {}, deck[i] ? `weak to ${arr(deck[i].shots).map(label).join(', ')}` : ''),
        h('small', {}, `zones ${zonesOf(ask.zones[i]).join(', ')}`)))));
}

function shotDecision(m, ask, ctx) {
  if (!ctx.ui.shotAttitude) ctx.ui.shotAttitude = ask.attitude;
  return h('div', {},
    h('p', {}, `Choose a zone for ${m.striker ? m.striker.name : 'the striker'} (confidence ${ask.confidence}${ask.specialist ? ', specialist' : ''}), and the attitude. The bowler's card is hidden until both are in.`),
    attitudeToggle(ctx, 'shotAttitude', ask.attitude),
    h('div', { class: 'zones', 'data-testid': 'zones' }, [1, 2, 3, 4, 5].map((zone) =>
      h('button', { class: 'zone-btn', 'data-action': 'shot', 'data-testid': `zone-${zone}`, disabled: ctx.busy,
        onclick: () => { const attitude = ctx.ui.shotAttitude; ctx.ui.shotAttitude = null; ctx.send({ type: 'shot', zone, attitude }); } },
      h('strong', {}, String(zone)), h('span', {}, ZONE_SHOTS[zone].map(label).join(' / '))))));
}

function yesNo(ctx, question, yes, no, primaryYes = false) {
  return h('div', {}, h('p', {}, question), h('div', { class: 'buttons' },
    actionButton(ctx, yes[0], yes[1], { primary: primaryYes }), actionButton(ctx, no[0], no[1], { primary: !primaryYes })));
}

function skillsDecision(m, ask, ctx) {
  const pickSkills = (addOne, rollD8) => ctx.send({ type: 'skills', add_one: addOne, roll_d8: rollD8 });
  return h('div', {},
    h('p', {}, `Cards revealed: Advantage ${ask.advantage > 0 ? '+' : ''}${ask.advantage}. Play a skill card?`),
    h('div', { class: 'buttons' },
      h('button', { class: 'primary', 'data-action': 'skills', disabled: ctx.busy, onclick: () => pickSkills(false, false) }, 'No skill card'),
      ask.add_one ? h('button', { 'data-action': 'skill-add-one', disabled: ctx.busy, onclick: () => pickSkills(true, false) }, 'Add 1 to Advantage') : null,
      ask.roll_d8 ? h('button', { 'data-action': 'skill-d8', disabled: ctx.busy, onclick: () => pickSkills(false, true) }, 'Roll a D8') : null,
      ask.add_one && ask.roll_d8 ? h('button', { 'data-action': 'skill-both', disabled: ctx.busy, onclick: () => pickSkills(true, true) }, 'Both') : null));
}

function missDecision(m, ask, ctx) {
  const all = [['bowled', 1, 'Bowled chance'], ['slips', 2, `Slip catch (D6 per slip, ${ask.slips} slip${ask.slips === 1 ? '' : 's'})`], ['howzat', 4, 'Howzat! (LBW on 5+)']];
  const options = all.filter(([, bit]) => ask.options & bit);
  return h('div', {}, h('p', {}, 'The batter missed by a lot. Pick one way to try for the wicket.'),
    h('div', { class: 'buttons' }, options.map(([name, , text], i) => actionButton(ctx, text, { type: 'miss', option: name }, { primary: i === 0 }))));
}

function distanceDecision(m, ask, ctx) {
  return h('div', {}, h('p', {}, `Struck into zone ${ask.zone}! Distance die: ${ask.distance} (of ${ask.max}).`),
    h('div', { class: 'buttons' },
      actionButton(ctx, 'Keep it', { type: 'distance', choice: 'accept' }, { primary: true }),
      ask.add_one ? actionButton(ctx, 'Add 1 (pace, strike by 3+)', { type: 'distance', choice: 'add_one' }) : null,
      ask.reroll ? actionButton(ctx, 'Re-roll Distance card', { type: 'distance', choice: 'reroll' }) : null));
}

function decision(view, ctx) {
  const m = model(view, ctx.seat);
  const ask = m.ask;
  if (!ask || ask.ask !== 'set_field') {
    ctx.ui.fieldPlan = null;
    ctx.ui.onToggleFielder = null;
  }
  if (!ask) {
    if (m.ball.card_sealed || m.ball.shot_sealed) return h('p', { class: 'muted' }, 'Your choice is sealed. Waiting for the other side…');
    return h('p', { class: 'muted' }, `Waiting (${label(m.phase || '')}).`);
  }
  switch (ask.ask) {
    case 'select_squad': return squadDecision(m, ask, ctx);
    case 'toss': return yesNo(ctx, 'You won the toss! Bat or bowl first?', ['Bat', { type: 'toss', choice: 'bat' }], ['Bowl', { type: 'toss', choice: 'bowl' }], true);
    case 'choose_bowler': return bowlerDecision(m, ask, ctx);
    case 'openers': return openersDecision(m, ask, ctx);
    case 'next_batter': return nextBatterDecision(m, ask, ctx);
    case 'power_play': return yesNo(ctx, `Call the Power Play for over ${ask.over}? (at most 2 fielders in the outfield; once per innings)`, ['Call it', { type: 'power_play', call: true }], ['Not now', { type: 'power_play', call: false }]);
    case 'set_field': return fieldDecision(m, ask, ctx);
    case 'bowl': return bowlDecision(m, ask, ctx);
    case 'shot': return shotDecision(m, ask, ctx);
    case 'skills': return skillsDecision(m, ask, ctx);
    case 'quick_single': return yesNo(ctx, 'Quick Single! Take one run now, or play the ball out?', ['Take the single', { type: 'quick_single', take: true }], ['Play it out', { type: 'quick_single', take: false }], true);
    case 'reroll_to_hit': return yesNo(ctx, `Dice: bowler ${ask.bowl} (D${ask.bowl_sides}), batter ${ask.bat} (D${ask.bat_sides}), Advantage ${ask.advantage}. Play Re-roll To Hit?`, ['Re-roll', { type: 'reroll', reroll: true }], ['Keep it', { type: 'reroll', reroll: false }]);
    case 'reroll_bounce': return yesNo(ctx, `Bounce: ${ask.areas} area${ask.areas === 1 ? '' : 's'}, ${ask.red ? 'in the air (red)' : 'along the ground (green)'}. Play Re-roll Bounce?`, ['Re-roll', { type: 'reroll', reroll: true }], ['Keep it', { type: 'reroll', reroll: false }]);
    case 'miss': return missDecision(m, ask, ctx);
    case 'distance': return distanceDecision(m, ask, ctx);
    case 'run': return yesNo(ctx, `The ball is in play. Take ${ask.safe} safe run${ask.safe === 1 ? '' : 's'}, or try for ${ask.attempt} (run out on ${ask.run_out_min}+)?`,
      [`Try for ${ask.attempt}`, { type: 'run', attempt: true }], [`Take ${ask.safe}`, { type: 'run', attempt: false }]);
    case 'review': return yesNo(ctx, `Out, ${label(ask.dismissal)}! Use your DRS review (D6 4+ overturns it)?`, ['Review', { type: 'review', review: true }], ['Walk', { type: 'review', review: false }]);
    default: return null;
  }
}

// ---------------------------------------------------------------- scorecard

/**
 * Batting and bowling figures, tallied from the events because the view carries only the
 * totals. Runs go to the striker of the ball; the ends are taken from the view whenever one
 * arrives, so a missed event cannot leave the tally on the wrong batter for long.
 */
function tally(ctx) {
  if (!ctx.ui.tally) ctx.ui.tally = { innings: [], striker: null, nonStriker: null, bowler: null };
  return ctx.ui.tally;
}

function currentInnings(t) {
  if (!t.innings.length) t.innings.push({ batting: null, batters: {}, bowlers: {} });
  return t.innings[t.innings.length - 1];
}

function tallyEvent(t, event) {
  const inn = currentInnings(t);
  switch (event.type) {
    case 'innings_started':
      if (event.innings > 0 || inn.batting !== null) t.innings.push({ batting: event.batting, batters: {}, bowlers: {} });
      else inn.batting = event.batting;
      t.striker = null;
      t.nonStriker = null;
      t.bowler = null;
      break;
    case 'batter_in': {
      const row = (currentInnings(t).batters[event.batter] ||= { runs: 0, balls: 0, fours: 0, sixes: 0, out: null });
      row.in = true;
      if (t.striker === null) t.striker = event.batter;
      else t.nonStriker = event.batter;
      break;
    }
    case 'bowler_chosen':
      t.bowler = event.bowler;
      break;
    case 'ball_ended': {
      const b = event.ball;
      const cur = currentInnings(t);
      if (t.striker !== null) {
        const row = (cur.batters[t.striker] ||= { runs: 0, balls: 0, fours: 0, sixes: 0, out: null });
        row.runs += b.runs;
        row.balls += 1;
        if (b.boundary === 4) row.fours += 1;
        if (b.boundary === 6) row.sixes += 1;
      }
      if (t.bowler !== null) {
        const bowl = (cur.bowlers[t.bowler] ||= { balls: 0, runs: 0, wickets: 0 });
        if (b.legal) bowl.balls += 1;
        bowl.runs += b.runs + (b.extras || 0);
        if (b.wicket && b.wicket !== 'run_out') bowl.wickets += 1;
      }
      if (b.swap) [t.striker, t.nonStriker] = [t.nonStriker, t.striker];
      if (b.wicket) {
        const out = cur.batters[t.striker];
        if (out) out.out = b.wicket;
        t.striker = null;
      }
      break;
    }
    case 'over_ended':
      [t.striker, t.nonStriker] = [t.nonStriker, t.striker];
      break;
    default:
  }
}

function scorecardPanel(m, ctx) {
  const t = tally(ctx);
  if (m.started && m.view.striker !== null && m.view.striker !== undefined) {
    t.striker = m.view.striker;
    t.nonStriker = m.view.non_striker ?? t.nonStriker;
  }
  const inn = t.innings[t.innings.length - 1];
  if (!inn || !Object.keys(inn.batters).length) return null;
  const bat = m.squads[m.batting];
  const bowlSquad = m.squads[m.fielding];
  const nameIn = (squad, i) => (squad && squad.players[i] ? squad.players[i].name : `#${i}`);
  const batRows = Object.entries(inn.batters).map(([i, r]) => h('tr', {},
    h('td', {}, nameIn(bat, i), Number(i) === m.view.striker ? ' *' : ''),
    h('td', { class: 'muted' }, r.out ? label(r.out) : Number(i) === m.view.striker || Number(i) === m.view.non_striker ? 'not out' : ''),
    h('td', {}, String(r.runs)), h('td', {}, String(r.balls)), h('td', {}, String(r.fours)), h('td', {}, String(r.sixes))));
  const bowlRows = Object.entries(inn.bowlers).map(([i, r]) => h('tr', {},
    h('td', {}, nameIn(bowlSquad, i)), h('td', {}, `${Math.floor(r.balls / 6)}.${r.balls % 6}`), h('td', {}, String(r.runs)), h('td', {}, String(r.wickets))));
  return panel('Scorecard, this innings', h('div', { 'data-testid': 'ctg-scorecard' },
    h('table', { class: 'seats' }, h('thead', {}, h('tr', {}, ['Batter', '', 'R', 'B', '4s', '6s'].map((x) => h('th', {}, x)))), h('tbody', {}, batRows)),
    bowlRows.length ? h('table', { class: 'seats' }, h('thead', {}, h('tr', {}, ['Bowler', 'O', 'R', 'W'].map((x) => h('th', {}, x)))), h('tbody', {}, bowlRows)) : null));
}

// ---------------------------------------------------------------- the story fold

const freshScore = () => ({ runs: 0, wickets: 0, balls: 0, extras: 0 });

/**
 * The match as it stands after each event, folded from the events alone (a port of the
 * engine's `rules::ctg::state::apply`, the parts a viewer sees), shaped like the engine's
 * view so `board`, `headline` and `dicePanel` draw it. From `base` it takes only what no
 * event changes: the two squads and the format.
 */
const story = {
  init(base) {
    const squads = structuredClone(arr(base.squads));
    return {
      phase: 'select_squad',
      format: base.format || 't10',
      squads,
      batting: 0,
      innings: 0,
      scores: [freshScore(), freshScore()],
      confidence: squads.map((sq) => arr(sq.players).map((p) => p.confidence ?? 0)),
      attitudes: [],
      striker: null,
      non_striker: null,
      bowler: null,
      field: 0,
      field_rules: {},
      over_cards: [],
      ball: {},
      skills_used: {},
      drs_used: false,
      power_play_now: false,
      target: null,
      pitch: null,
      winner: null,
      ask: null,
    };
  },
  apply(v, event) {
    const bowlType = () => {
      const bowler = v.bowler === null ? null : arr(v.squads[1 - v.batting] && v.squads[1 - v.batting].players)[v.bowler];
      return String((bowler && bowler.bowling) || '').toLowerCase();
    };
    // A ball's dice stay on show until the next ball starts.
    const newBall = () => {
      if (v.ballOver) {
        v.ball = {};
        v.ballOver = false;
      }
    };
    switch (event.type) {
      case 'squads_revealed': v.phase = 'toss'; break;
      case 'pitch_drawn': v.pitch = CTG_DATA.pitch_cards[event.card] || String(event.card); break;
      case 'innings_started': {
        v.phase = 'choose_bowler';
        v.innings = event.innings;
        v.batting = event.batting;
        v.confidence[event.batting] = arr(v.squads[event.batting] && v.squads[event.batting].players).map((p) => p.confidence ?? 0);
        v.attitudes = [];
        v.striker = null;
        v.non_striker = null;
        v.bowler = null;
        v.over_cards = [];
        v.field = 0;
        v.skills_used = {};
        v.drs_used = false;
        v.power_play_now = false;
        v.ball = {};
        v.ballOver = false;
        if (event.innings > 0) v.target = (v.scores[1 - event.batting].runs || 0) + 1;
        break;
      }
      case 'bowler_chosen': v.bowler = event.bowler; break;
      case 'batter_in':
        v.attitudes[event.batter] = event.attitude;
        if (v.striker === null) v.striker = event.batter;
        else v.non_striker = event.batter;
        break;
      case 'power_play': if (event.called) v.power_play_now = true; break;
      case 'over_card_revealed': {
        newBall();
        const deck = CTG_DATA.over_decks[bowlType()];
        if (deck) {
          v.over_cards.push({ slot: event.slot, express: deck.express_values[event.card], effect: deck.effects[event.card] });
          v.ball.effect = deck.effects[event.card];
          v.ball.over_card_value = deck.express_values[event.card];
        }
        break;
      }
      case 'field_set': v.field = event.field; break;
      case 'bowl_sealed': newBall(); v.phase = 'sealed'; v.ball.card_sealed = true; break;
      case 'shot_sealed': newBall(); v.phase = 'sealed'; v.ball.shot_sealed = true; break;
      case 'revealed':
        newBall();
        Object.assign(v.ball, { card: event.card, shot: event.shot, advantage: event.advantage });
        if (v.striker !== null) v.attitudes[v.striker] = event.shot.attitude;
        break;
      case 'skill_played':
        v.ball.advantage = event.advantage;
        v.skills_used[event.skill] = (v.skills_used[event.skill] || 0) + 1;
        break;
      case 'delivered':
        newBall();
        v.ball.bowl = [event.bowl, event.bowl_sides];
        v.ball.bat = [event.bat, event.bat_sides];
        break;
      case 'to_hit_rerolled':
        if (v.ball.bat) v.ball.bat = [event.bat, v.ball.bat[1]];
        v.skills_used.reroll_to_hit = (v.skills_used.reroll_to_hit || 0) + 1;
        break;
      case 'distance':
        v.ball.distance = event.distance;
        if (event.rerolled) v.skills_used.reroll_distance = (v.skills_used.reroll_distance || 0) + 1;
        break;
      case 'bounce':
        v.ball.bounce_face = event.face;
        if (event.rerolled) v.skills_used.reroll_bounce = (v.skills_used.reroll_bounce || 0) + 1;
        break;
      case 'confidence_changed':
        if (v.confidence[v.batting]) v.confidence[v.batting][event.player] = event.confidence;
        break;
      case 'appeal': v.ball.appeal = event.dismissal; break;
      case 'reviewed': v.drs_used = true; break;
      case 'ball_ended': {
        const b = event.ball || {};
        const score = v.scores[v.batting];
        score.runs += (b.runs || 0) + (b.extras || 0);
        score.extras += b.extras || 0;
        if (b.wicket) score.wickets += 1;
        if (b.legal) score.balls += 1;
        if (b.swap) [v.striker, v.non_striker] = [v.non_striker, v.striker];
        if (b.wicket) v.striker = null;
        // An express ball is decided by its over card's number; its effect does not apply.
        if (b.express) {
          delete v.ball.effect;
          v.ball.express_value = v.ball.over_card_value;
        }
        v.ball.free_hit = false;
        v.ballOver = true;
        break;
      }
      case 'over_ended':
        v.bowler = null;
        v.over_cards = [];
        v.power_play_now = false;
        v.skills_used.add_one = 0;
        v.skills_used.roll_d8 = 0;
        [v.striker, v.non_striker] = [v.non_striker, v.striker];
        break;
      case 'match_ended': v.winner = event.winner ?? null; v.phase = 'match_over'; break;
      case 'await': if (event.phase) v.phase = event.phase; break;
      default:
    }
    return v;
  },
};

// ---------------------------------------------------------------- commentary

function describe(event, ctx) {
  tallyEvent(tally(ctx), event);
  // The state as it was at this event (the story fold), never the current view.
  const view = ctx.story || {};
  const m = model(view, ctx.seat);
  const name = (side, i) => {
    const p = arr(m.squads[side] && m.squads[side].players)[i];
    return p ? p.name : `#${i}`;
  };
  // A side by its team's name and who plays it: "Harbour Gulls (you)".
  const side = (seat) => {
    const team = teamName(view, seat);
    return team ? `${team} (${ctx.seatName(seat)})` : ctx.seatName(seat);
  };
  switch (event.type) {
    case 'squad_chosen': return `${ctx.seatName(event.seat)} picked ${ctx.seatName(event.seat) === 'you' ? 'your' : 'their'} eleven.`;
    case 'squads_revealed': return 'Both elevens are revealed.';
    case 'pitch_drawn': return `Pitch card: ${CTG_DATA.pitch_cards[event.card] || event.card}.`;
    case 'toss_won': return `${ctx.seatName(event.seat)} won the toss.`;
    case 'innings_started': return `Innings ${event.innings + 1}: ${side(event.batting)} to bat.`;
    case 'bowler_chosen': return `${name(m.fielding, event.bowler)} to bowl.`;
    case 'batter_in': return `${name(m.batting, event.batter)} walks in (${label(event.attitude)}).`;
    case 'power_play': return event.called ? 'POWER PLAY called!' : null;
    case 'over_dealt': return null;
    case 'over_card_revealed': {
      const deck = CTG_DATA.over_decks[m.bowlType];
      return deck ? `Over card: ${deck.express_values[event.card]} · ${label(deck.effects[event.card])}.` : `Over card ${event.card} revealed.`;
    }
    case 'field_set': return null;
    case 'bowl_sealed': return 'Bowl card chosen (face down).';
    case 'shot_sealed': return 'Zone chosen (sealed).';
    case 'revealed': {
      const card = m.hand[event.card];
      return `Reveal: ${card ? card.name : 'card ' + event.card} against zone ${event.shot.zone} (${label(event.shot.attitude)}). Advantage ${event.advantage > 0 ? '+' : ''}${event.advantage}.`;
    }
    case 'skill_played': return `Skill card: ${label(event.skill)} (Advantage ${event.advantage}).`;
    case 'quick_single': return event.taken ? 'Quick single taken.' : 'Quick single declined.';
    case 'delivered': return `Dice: bowler ${event.bowl} (D${event.bowl_sides}), batter ${event.bat} (D${event.bat_sides}).`;
    case 'to_hit_rerolled': return `Re-roll To Hit: ${event.bat}.`;
    case 'miss_chosen': return `Bowler goes for: ${label(event.option)}.`;
    case 'roll': return `${label(event.roll_for)} roll: ${event.face} (D${event.sides}).`;
    case 'distance': return `Distance ${event.distance}${event.rerolled ? ' (re-rolled)' : ''}${event.added_one ? ' (+1)' : ''}.`;
    case 'bounce': return `Bounce die: ${event.face}${event.rerolled ? ' (re-rolled)' : ''}.`;
    case 'run_decided': return event.attempt ? 'They go for the extra run!' : 'They settle for the safe runs.';
    case 'confidence_changed': return `${name(m.batting, event.player)}'s confidence is now ${event.confidence}.`;
    case 'appeal': return `HOWZAT! ${label(event.dismissal)}?`;
    case 'reviewed': return `DRS: ${event.face}, ${event.overturned ? 'OVERTURNED, not out!' : 'decision stands.'}`;
    case 'ball_ended': {
      const b = event.ball;
      if (b.wicket) return `WICKET! ${label(b.wicket)}.${b.runs ? ` ${count(b.runs, 'run')}.` : ''}`;
      if (b.boundary) return `${b.boundary === 6 ? 'SIX!' : 'FOUR!'}`;
      const extra = b.extras ? ` +${b.extras} no-ball` : '';
      return `${b.express ? 'Express: ' : ''}${b.runs ? count(b.runs, 'run') : 'dot ball'}${extra}.`;
    }
    case 'over_ended': return 'End of the over.';
    case 'innings_ended': return `Innings ${event.innings + 1} closes at ${event.runs}/${event.wickets}.`;
    case 'match_ended': return event.winner == null ? 'Match over: a tie!' : `Match over: ${side(event.winner)} won.`;
    case 'await': return null;
    default: return summary(event);
  }
}


/** Rules in brief, for the How to play panel. */
const help = [
  'Each ball the bowler picks a bowl card face down and the batter picks a zone (1-5) and an attitude; then both are revealed.',
  'Zone on one of the card\'s shots: Advantage +3. Otherwise confidence minus the distance to the nearest shot (-1..+3).',
  'Both roll a die; the side the Advantage favours adds it to its roll. A higher batter total strikes the ball, a much lower one risks a wicket.',
  'A struck ball goes to the chosen zone; the distance and bounce dice decide where it lands, if a fielder can catch it, and how many runs.',
  'Aggressive batters use the red bounce die (in the air, catchable), defensive the green one (along the ground).',
  'The first two balls of most overs are express: the over cards\' numbers decide them.',
];

/** The lobby's fields for CTG's options. */
function optionFields({ field, select }) {
  return [
    field('format', select('format', [['t10', 'T10 (10 overs)'], ['t20', 'T20 (20 overs)']], 't10')),
    field('tie', select('tie', [['tie', 'Equal totals are a tie'], ['chaser_loses', 'Chasing side must pass the target']], 'tie')),
    field('bowled_chance_margin', select('bowled_chance_margin', [['3', 'Miss by 3+: bowled chance'], ['4', 'Miss by 4+: bowled chance']], '3')),
  ];
}

/** How the replay moves the score: a ball is a step. */
const replay = {
  step: 'ball_ended',
  apply(score, event, { openInnings, bowl }) {
    if (event.type === 'innings_started') openInnings(score, event.batting);
    if (event.type === 'ball_ended') bowl(score, event.ball.runs + event.ball.extras, event.ball.legal, Boolean(event.ball.wicket));
  },
};

/** The live list's format label: "T10". */
const describeOptions = (options) => String((options && options.format) || 't10').toUpperCase();

export default { board, decision, describe, story, help, optionFields, replay, describeOptions, headline, dicePanel, ball, teamName };
