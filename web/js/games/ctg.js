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

const ADVANTAGE = [-1, 0, 1, 2, 3];
const NONE = 255;

// ---------------------------------------------------------------- model

function arr(x) {
  return Array.isArray(x) ? x : [];
}

/** A normalised CTG view: every name the screen uses, whatever the engine called it. */
export function model(view, seat) {
  const squads = arr(pick(view, 'squads', 'teams'));
  const batting = Number(pick(view, 'batting', 'batting_seat') ?? 0);
  const fielding = 1 - batting;
  const innings = Number(pick(view, 'innings') ?? 1);
  const scores = pick(view, 'score', 'scores');
  const scoreOf = (side) => (Array.isArray(scores) ? scores[side] : side === batting ? scores : null) || {};
  const format = String(pick(view, 'format') || 't10').toLowerCase();
  const player = (side, index) => {
    if (index === undefined || index === null || index === NONE) return null;
    const squad = squads[side];
    const card = squad && arr(squad.players)[index];
    return card ? { ...card, index } : { name: `#${index}`, index };
  };
  const confidence = pick(view, 'confidence');
  const confOf = (side, index) => {
    if (Array.isArray(confidence) && Array.isArray(confidence[side])) return confidence[side][index];
    const p = player(side, index);
    return p ? p.confidence : null;
  };
  const attitudes = pick(view, 'attitude', 'attitudes');
  const batterStats = pick(view, 'batter_stats', 'batting_card', 'scorecard');
  const batter = (index) => {
    const p = player(batting, index);
    if (!p) return null;
    const statsRow = Array.isArray(batterStats) ? batterStats[index] : null;
    return {
      ...p,
      confidence: confOf(batting, index),
      attitude: Array.isArray(attitudes) ? attitudes[index] : p.attitude,
      runs: statsRow ? pick(statsRow, 'runs') : undefined,
      balls: statsRow ? pick(statsRow, 'balls') : undefined,
    };
  };
  const bowlerIndex = pick(view, 'bowler');
  const bowler = typeof bowlerIndex === 'object' && bowlerIndex !== null ? bowlerIndex : player(fielding, bowlerIndex);
  const bowlType = String(pick(view, 'bowl_type', 'bowling_type') || (bowler && (bowler.bowling || bowler.bowl_type)) || '').toLowerCase();
  const target = pick(view, 'target') ?? (innings === 2 ? (scoreOf(fielding).runs ?? 0) + 1 : null);
  const phase = pick(view, 'phase', 'awaiting');
  return {
    view,
    seat,
    format,
    areas: format === 't20' ? 4 : 3,
    overs: format === 't20' ? 20 : 10,
    phase: typeof phase === 'string' ? phase : phase && Object.keys(phase)[0],
    squads,
    batting,
    fielding,
    side: seat === null || seat === undefined ? null : Number(seat) === batting ? 'batting' : 'fielding',
    innings,
    score: scoreOf(batting),
    otherScore: scoreOf(fielding),
    target,
    pitch: pitchName(pick(view, 'pitch')),
    striker: batter(pick(view, 'striker')),
    nonStriker: batter(pick(view, 'non_striker')),
    bowler,
    bowlType,
    advantage: pick(view, 'advantage'),
    field: readField(pick(view, 'field', 'fielders')),
    overCards: overCards(view, bowlType),
    slot: pick(view, 'slot', 'ball_in_over'),
    ball: pick(view, 'ball', 'last_ball', 'delivery') || null,
    skills: pick(view, 'skills', 'skills_used'),
    drsUsed: pick(view, 'drs_used'),
    hand: hand(view, bowlType),
    eligibleBowlers: pick(view, 'eligible_bowlers', 'bowlers'),
    availableBatters: pick(view, 'available_batters', 'next_batters'),
    fieldRules: pick(view, 'field_rules', 'restrictions') || {},
    outfieldLimit: pick(pick(view, 'field_rules') || {}, 'outfield_limit'),
    runChoice: pick(view, 'run_choice', 'runs_choice'),
    missOptions: pick(view, 'miss_options'),
    appeal: pick(view, 'appeal', 'dismissal'),
    batted: Number(pick(view, 'batted') ?? 0),
    out: Number(pick(view, 'out') ?? 0),
    oversBowled: pick(view, 'overs_bowled'),
    lastBowler: pick(view, 'last_bowler'),
    outcome: pick(view, 'outcome', 'winner'),
  };
}

function pitchName(pitch) {
  if (pitch === null || pitch === undefined) return null;
  if (typeof pitch === 'number') return CTG_DATA.pitch_cards[pitch] || `card ${pitch}`;
  return typeof pitch === 'string' ? label(pitch) : pick(pitch, 'name') || summary(pitch);
}

/** Over cards as [{express, effect} | null (face down)] from names or deck indices. */
function overCards(view, bowlType) {
  const raw = pick(view, 'over_cards', 'revealed', 'over');
  if (!Array.isArray(raw)) return [];
  const deck = CTG_DATA.over_decks[bowlType];
  const cards = raw.map((c) => {
    if (c === null || c === undefined) return null;
    if (typeof c === 'number') return deck ? { express: deck.express_values[c], effect: deck.effects[c] } : { express: '?', effect: `card ${c}` };
    return { express: pick(c, 'express', 'express_value'), effect: pick(c, 'effect') };
  });
  while (cards.length < 6) cards.push(null);
  return cards;
}

/** The bowler's deck: [{name, shots}] from the view or, by type, from the ruleset copy. */
function hand(view, bowlType) {
  const raw = pick(view, 'hand', 'bowling_deck', 'deck');
  if (Array.isArray(raw) && raw.length && typeof raw[0] === 'object') return raw;
  return CTG_DATA.bowling_decks[bowlType] || [];
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
  const b = m.ball;
  if (!b || typeof b !== 'object') return h('p', { class: 'muted' }, 'No delivery yet.');
  const dice = [];
  const push = (name, value, sides) => {
    if (value !== undefined && value !== null && value !== 0) dice.push(rolledDie(name, value, sides));
  };
  push('Bowler', b.bowl, b.bowl_sides);
  push('Batter', b.bat, b.bat_sides);
  push('Distance', b.distance);
  const bounceFace = b.bounce;
  if (bounceFace) {
    const attitude = b.shot && b.shot.attitude;
    const die = attitude === 'aggressive' ? CTG_DATA.bounce_dice.red : CTG_DATA.bounce_dice.green;
    push('Bounce', die ? die[bounceFace - 1] : bounceFace);
  }
  const bits = [];
  if (b.revealed && b.card !== undefined) {
    const card = m.hand[b.card];
    bits.push(`Bowl card: ${card ? card.name : '#' + b.card}`);
  }
  if (b.shot) bits.push(`zone ${b.shot.zone} (${ZONE_SHOTS[b.shot.zone]?.map(label).join(' / ') ?? ''}), ${label(b.shot.attitude)}`);
  if (b.effect) bits.push(`over card: ${label(b.effect)}`);
  if (b.no_ball) bits.push('NO BALL');
  if (b.appeal) bits.push(`appeal: ${label(b.appeal)}`);
  return h('div', { 'data-testid': 'last-ball' },
    h('div', { class: 'dice-row' }, dice.length ? dice : h('span', { class: 'muted' }, 'No dice rolled yet this ball.')),
    bits.length ? h('p', {}, bits.join(' · ')) : null);
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
  const plan = ctx.ui.fieldPlan;
  const placing = Boolean(plan) && m.phase === 'set_field' && m.side === 'fielding';
  const chosenZone = ctx.ui.zone ?? (m.ball && m.ball.shot ? m.ball.shot.zone : undefined);
  const score = m.score;
  const runs = score.runs ?? 0;
  const teamName = (side) => (m.squads[side] && m.squads[side].name) || `Seat ${side}`;
  const scoreboard = h('div', { class: 'panel', 'data-testid': 'scoreboard' },
    h('h3', {}, `Innings ${m.innings || 1} · ${teamName(m.batting)} batting${m.side ? ` · you are ${m.side}` : ''}`),
    h('div', { class: 'scoreline', 'data-testid': 'score' }, `${runs}/${score.wickets ?? 0}`, h('small', {}, ` after ${oversText(score.balls)} of ${m.overs} overs`)),
    h('div', { class: 'stat-row' },
      stat('Overs', `${oversText(score.balls)}/${m.overs}`, 'overs'),
      m.innings === 2 && m.target ? stat('Target', m.target, 'target') : null,
      m.innings === 2 && m.target ? stat('Need', Math.max(0, m.target - runs), 'need') : null,
      m.innings === 2 ? stat(`${teamName(m.fielding)}`, `${m.otherScore.runs ?? 0}/${m.otherScore.wickets ?? 0}`) : null,
      score.extras ? stat('Extras', score.extras) : null,
      stat('Pitch', m.pitch || '-'),
    ),
  );
  const bowlerLine = m.bowler
    ? h('p', {}, 'Bowling: ', h('strong', {}, m.bowler.name), m.bowlType ? ` (${label(m.bowlType)})` : '')
    : h('p', { class: 'muted' }, 'No bowler chosen yet.');
  const handPanel = m.side === 'fielding' && m.hand.length
    ? panel("Bowler's hand", h('div', { class: 'hand' }, m.hand.map((card, i) =>
      h('div', { class: ['bowl-card', m.ball && m.ball.revealed && m.ball.card === i && 'played'] },
        h('strong', {}, card.name), h('small', {}, `weak to ${arr(card.shots).map(label).join(', ')}`)))))
    : null;

  return h('div', { class: 'ctg-top' },
    h('div', { class: 'panel' },
      h('h3', {}, placing ? 'Place your fielders: click an area to add or remove one' : 'The field'),
      fieldPicture({ areas: m.areas, fielders: plan && m.phase === 'set_field' ? plan : m.field, onToggle: placing ? ctx.ui.onToggleFielder : undefined, chosenZone }),
      placing ? h('p', { class: 'placing-status', 'data-testid': 'placing-status' }, ctx.ui.placingStatus || '') : null,
      h('p', { class: 'muted' }, 'Red outline: catch needs one less. Dashed ring: the infield (areas 1-2).'),
    ),
    h('div', { class: 'board' },
      scoreboard,
      panel('Advantage', advantageMeter(m.advantage)),
      panel('At the crease', [h('div', { class: 'batters' }, batterCard(m.striker, true), batterCard(m.nonStriker, false)), bowlerLine]),
      panel('This over', overStrip(m)),
      panel('This ball', ballPanel(m)),
      handPanel,
      panel('Skill cards and DRS', skillsPanel(m)),
    ),
  );
}

// ---------------------------------------------------------------- decisions

const ATTITUDES = ['aggressive', 'defensive'];

function actionButton(ctx, text, command, { primary = false, action = 'choose', title } = {}) {
  return h('button', { class: primary && 'primary', 'data-action': action, title, disabled: ctx.busy, onclick: () => ctx.send(command) }, text);
}

function attitudeToggle(ctx, key, initial) {
  if (!ctx.ui[key]) ctx.ui[key] = initial || 'defensive';
  return h('div', { class: 'buttons' }, ATTITUDES.map((a) =>
    h('button', { class: ['pill-btn', ctx.ui[key] === a && 'selected'], 'data-testid': `${key}-${a}`, onclick: () => { ctx.ui[key] = a; ctx.redraw(); } }, label(a))));
}

function squadDecision(m, ctx) {
  const me = Number(ctx.seat);
  const squad = m.squads[me];
  const players = squad ? arr(squad.players) : [];
  const droppable = players.map((p, i) => ({ ...p, i })).filter((p) => p.role === 'pace' || p.role === 'spin');
  if (ctx.ui.drop === undefined && droppable.length) ctx.ui.drop = droppable[droppable.length - 1].i;
  const drop = ctx.ui.drop ?? 11;
  const order = players.map((_, i) => i).filter((i) => i !== drop).slice(0, 11);
  return h('div', {},
    h('p', {}, 'Pick your eleven: drop one pace or spin bowler. The batting order is the squad order.'),
    h('div', { class: 'buttons' }, droppable.map((p) =>
      h('button', { class: drop === p.i && 'selected', onclick: () => { ctx.ui.drop = p.i; ctx.redraw(); } }, `Drop ${p.name} (${label(p.role)})`))),
    h('ol', { class: 'order' }, order.map((i) => h('li', {}, players[i] ? `${players[i].name} · ${label(players[i].role)} · conf ${players[i].confidence}` : `#${i}`))),
    actionButton(ctx, 'Confirm the eleven', { type: 'select_squad', drop, batting_order: order }, { primary: true }));
}

function bowlerDecision(m, ctx) {
  const me = m.fielding;
  const players = arr(m.squads[me] && m.squads[me].players);
  const max = m.format === 't20' ? 3 : 2;
  const bowled = Array.isArray(m.oversBowled) ? m.oversBowled[me] || [] : [];
  let eligible = Array.isArray(m.eligibleBowlers) ? m.eligibleBowlers.map(Number) : null;
  if (!eligible) {
    eligible = players.map((p, i) => ({ p, i }))
      .filter(({ p, i }) => p.bowling !== 'none' && (bowled[i] ?? 0) < max && i !== m.lastBowler)
      .map(({ i }) => i);
  }
  return h('div', {},
    h('p', {}, `Choose the bowler for over ${Math.floor((m.score.balls ?? 0) / 6) + 1} (not last over's bowler, at most ${max} overs each).`),
    h('div', { class: 'buttons' }, eligible.map((i, n) => {
      const p = players[i] || { name: `#${i}` };
      return actionButton(ctx, `${p.name} (${label(p.bowling || '')}, ${bowled[i] ?? 0} ov)`, { type: 'choose_bowler', bowler: i }, { primary: n === 0 });
    })));
}

function waitingBatters(m) {
  const players = arr(m.squads[m.batting] && m.squads[m.batting].players);
  if (Array.isArray(m.availableBatters)) return m.availableBatters.map(Number);
  return players.map((_, i) => i).filter((i) => !(m.batted & (1 << i)) && !(m.out & (1 << i)));
}

function openersDecision(m, ctx) {
  const players = arr(m.squads[m.batting] && m.squads[m.batting].players);
  const avail = waitingBatters(m);
  const order = Array.isArray(pick(m.view, 'batting_order')) ? pick(m.view, 'batting_order')[m.batting] : null;
  const list = Array.isArray(order) ? order.filter((i) => avail.includes(i)) : avail;
  const striker = ctx.ui.striker ?? list[0];
  const nonStriker = ctx.ui.nonStriker ?? list.find((i) => i !== striker);
  const choose = (key) => h('select', { onchange: (e) => { ctx.ui[key] = Number(e.target.value); ctx.redraw(); } },
    list.map((i) => h('option', { value: String(i), selected: i === (key === 'striker' ? striker : nonStriker) }, players[i] ? players[i].name : `#${i}`)));
  return h('div', {},
    h('p', {}, 'Send in your openers.'),
    h('label', { class: 'opt' }, h('span', {}, 'Striker'), choose('striker')),
    attitudeToggle(ctx, 'strikerAttitude', 'defensive'),
    h('label', { class: 'opt' }, h('span', {}, 'Non-striker'), choose('nonStriker')),
    attitudeToggle(ctx, 'nonStrikerAttitude', 'defensive'),
    actionButton(ctx, 'Walk out', { type: 'openers', striker, non_striker: nonStriker, striker_attitude: ctx.ui.strikerAttitude, non_striker_attitude: ctx.ui.nonStrikerAttitude }, { primary: true }));
}

function nextBatterDecision(m, ctx) {
  const players = arr(m.squads[m.batting] && m.squads[m.batting].players);
  const avail = waitingBatters(m);
  return h('div', {},
    h('p', {}, 'A wicket! Who comes in next?'),
    attitudeToggle(ctx, 'nextAttitude', 'defensive'),
    h('div', { class: 'buttons' }, avail.map((i, n) =>
      h('button', { class: n === 0 && 'primary', 'data-action': 'choose', disabled: ctx.busy,
        onclick: () => ctx.send({ type: 'next_batter', batter: i, attitude: ctx.ui.nextAttitude }) }, players[i] ? players[i].name : `#${i}`))));
}

function defaultField(areas) {
  // Legal for every over: two per zone in the infield of zones 1-5, less one: no outfield, no slips.
  const spots = [];
  for (let zone = 1; zone <= 5; zone += 1) for (let area = 1; area <= 2; area += 1) spots.push({ zone, area });
  return spots.slice(0, 9);
}

function fieldDecision(m, ctx) {
  const key = `${m.innings}:${m.score.balls}:${m.score.wickets}:${m.score.runs}`;
  if (ctx.ui.fieldKey !== key || !ctx.ui.fieldPlan) {
    ctx.ui.fieldKey = key;
    ctx.ui.fieldPlan = m.field.length ? [...m.field] : defaultField(m.areas);
  }
  const over = Math.floor((m.score.balls ?? 0) / 6) + 1;
  const restricted = over <= (m.format === 't20' ? 6 : 2) || pick(m.view, 'power_play_now');
  const limit = m.outfieldLimit ?? (restricted ? 2 : 5);
  const rules = { outfieldLimit: limit, slipsAllowed: m.bowlType ? m.bowlType === 'pace' : true, oneZoneOfThree: m.format === 't20' };
  const problems = fieldProblems(ctx.ui.fieldPlan, rules);
  ctx.ui.placingStatus = problems.length ? `Not legal yet: ${problems.join('; ')}` : `Legal: 9 fielders, ${ctx.ui.fieldPlan.filter((s) => s.area > 2).length}/${limit} in the outfield.`;
  ctx.ui.onToggleFielder = (zone, area) => {
    const plan = ctx.ui.fieldPlan;
    const at = plan.findIndex((s) => s.zone === zone && s.area === area);
    if (at >= 0) plan.splice(at, 1);
    else plan.push({ zone, area });
    ctx.redraw();
  };
  return h('div', {},
    h('p', {}, `Set the field for the next ball: at most ${limit} in the outfield, 2 per zone, slips only for pace. Click areas on the field.`),
    h('p', { class: problems.length ? 'error' : 'muted' }, ctx.ui.placingStatus),
    h('div', { class: 'buttons' },
      h('button', { class: 'primary', 'data-action': 'set-field', disabled: ctx.busy,
        onclick: () => ctx.send({ type: 'set_field', field: maskFromSpots(ctx.ui.fieldPlan) }) }, m.field.length ? 'Confirm field' : 'Set field'),
      h('button', { onclick: () => { ctx.ui.fieldPlan = m.field.length ? [...m.field] : defaultField(m.areas); ctx.redraw(); } }, 'Reset')));
}

function sealedDecision(m, ctx) {
  const sealedMine = pick(m.view, 'my_sealed', 'sealed_mine', 'sealed');
  if (sealedMine === true) return h('p', {}, 'Your choice is sealed. Waiting for the other side…');
  if (m.side === 'fielding') {
    return h('div', {},
      h('p', {}, `Choose a bowl card face down. The batter cannot see it until both are in.`),
      h('div', { class: 'hand' }, m.hand.map((card, i) =>
        h('button', { class: 'bowl-card', 'data-action': 'bowl', 'data-testid': `bowl-${i}`, disabled: ctx.busy, onclick: () => ctx.send({ type: 'bowl', card: i }) },
          h('strong', {}, card.name), h('small', {}, `weak to ${arr(card.shots).map(label).join(', ')}`)))));
  }
  const attitude = ctx.ui.shotAttitude || String((m.striker && m.striker.attitude) || 'defensive').toLowerCase();
  ctx.ui.shotAttitude = attitude;
  return h('div', {},
    h('p', {}, `Choose a zone for ${m.striker ? m.striker.name : 'the striker'} (and the attitude).`),
    attitudeToggle(ctx, 'shotAttitude', attitude),
    h('div', { class: 'zones', 'data-testid': 'zones' }, [1, 2, 3, 4, 5].map((zone) =>
      h('button', { class: 'zone-btn', 'data-action': 'shot', 'data-testid': `zone-${zone}`, disabled: ctx.busy,
        onmouseenter: () => { ctx.ui.zone = zone; },
        onclick: () => ctx.send({ type: 'shot', zone, attitude: ctx.ui.shotAttitude }) },
      h('strong', {}, String(zone)), h('span', {}, ZONE_SHOTS[zone].map(label).join(' / '))))));
}

function yesNo(ctx, question, yes, no, primaryYes = false) {
  return h('div', {}, h('p', {}, question), h('div', { class: 'buttons' },
    actionButton(ctx, yes[0], yes[1], { primary: primaryYes }), actionButton(ctx, no[0], no[1], { primary: !primaryYes })));
}

function skillsDecision(m, ctx) {
  const used = m.skills || {};
  if (ctx.ui.addOne === undefined) { ctx.ui.addOne = false; ctx.ui.rollD8 = false; }
  const toggle = (key, text, disabled) => h('label', {}, h('input', { type: 'checkbox', checked: ctx.ui[key], disabled, onchange: (e) => { ctx.ui[key] = e.target.checked; } }), ` ${text}`);
  return h('div', {},
    h('p', {}, `Bowl card revealed. Advantage ${m.advantage ?? '?'}. Play skill cards?`),
    toggle('addOne', 'Add 1 to Advantage (once per over)', Number(used.add_one) > 0),
    h('br'),
    toggle('rollD8', 'Roll a D8 for this bowl (Advantage below 2)', Number(used.roll_d8) > 0 || (m.advantage ?? 0) >= 2),
    h('div', { class: 'buttons' },
      h('button', { class: 'primary', 'data-action': 'skills', disabled: ctx.busy, onclick: () => {
        const command = { type: 'skills', add_one: Boolean(ctx.ui.addOne), roll_d8: Boolean(ctx.ui.rollD8) };
        ctx.ui.addOne = undefined;
        ctx.send(command);
      } }, 'Continue')));
}

function missDecision(m, ctx) {
  const options = Array.isArray(m.missOptions) ? m.missOptions : ['bowled', 'slips', 'howzat'];
  const text = { bowled: 'Bowled chance', slips: 'Slip catch (D6 per slip)', howzat: 'Howzat! (LBW on 5+)' };
  return h('div', {}, h('p', {}, 'The batter missed by a lot. Pick one way to try for the wicket.'),
    h('div', { class: 'buttons' }, options.map((o, i) => actionButton(ctx, text[o] || label(o), { type: 'miss', option: o }, { primary: i === 0 }))));
}

function distanceDecision(m, ctx) {
  const d = m.ball && m.ball.distance;
  const addOne = m.bowlType === 'pace';
  return h('div', {}, h('p', {}, `Distance die: ${d ?? '?'}. Keep it${addOne ? ', add 1 (pace, strike by 3+)' : ''} or play Re-roll Distance?`),
    h('div', { class: 'buttons' },
      actionButton(ctx, 'Keep', { type: 'distance', choice: 'accept' }, { primary: true }),
      addOne ? actionButton(ctx, 'Add 1', { type: 'distance', choice: 'add_one' }) : null,
      Number((m.skills || {}).reroll_distance) > 0 ? null : actionButton(ctx, 'Re-roll distance', { type: 'distance', choice: 'reroll' })));
}

function runDecision(m, ctx) {
  const choice = m.runChoice || {};
  const safe = pick(choice, 'safe');
  const attempt = pick(choice, 'attempt');
  return yesNo(ctx, `The ball is in play. Take ${safe ?? 'the safe'} run${safe === 1 ? '' : 's'}, or try for ${attempt ?? 'one more'} (risk of a run out)?`,
    [`Try for ${attempt ?? 'the extra run'}`, { type: 'run', attempt: true }], [`Take ${safe ?? 'the safe runs'}`, { type: 'run', attempt: false }]);
}

function decision(view, ctx) {
  const m = model(view, ctx.seat);
  if (m.phase !== 'set_field' || m.side !== 'fielding') {
    ctx.ui.fieldPlan = null;
    ctx.ui.onToggleFielder = null;
  }
  if (m.phase !== 'sealed') ctx.ui.zone = undefined;
  if (!ctx.pendingMine) return h('p', { class: 'muted' }, `Waiting: ${label(m.phase || 'the other side')}.`);
  switch (m.phase) {
    case 'select_squad': return squadDecision(m, ctx);
    case 'toss': return yesNo(ctx, 'You won the toss! Bat or bowl first?', ['Bat', { type: 'toss', choice: 'bat' }], ['Bowl', { type: 'toss', choice: 'bowl' }], true);
    case 'choose_bowler': return bowlerDecision(m, ctx);
    case 'openers': return openersDecision(m, ctx);
    case 'next_batter': return nextBatterDecision(m, ctx);
    case 'power_play': return yesNo(ctx, 'Call the Power Play for this over? (at most 2 fielders in the outfield; once per innings)', ['Call it', { type: 'power_play', call: true }], ['Not now', { type: 'power_play', call: false }]);
    case 'set_field': return fieldDecision(m, ctx);
    case 'sealed': return sealedDecision(m, ctx);
    case 'skills': return skillsDecision(m, ctx);
    case 'quick_single': return yesNo(ctx, 'Quick Single! Take one run now, or play the ball out?', ['Take the single', { type: 'quick_single', take: true }], ['Play it out', { type: 'quick_single', take: false }], true);
    case 'reroll_to_hit': return yesNo(ctx, `To-hit roll: ${m.ball?.bat ?? '?'} against ${m.ball?.bowl ?? '?'}. Play Re-roll To Hit?`, ['Re-roll', { type: 'reroll', reroll: true }], ['Keep it', { type: 'reroll', reroll: false }]);
    case 'reroll_bounce': return yesNo(ctx, 'Play Re-roll Bounce?', ['Re-roll', { type: 'reroll', reroll: true }], ['Keep it', { type: 'reroll', reroll: false }]);
    case 'miss': return missDecision(m, ctx);
    case 'distance': return distanceDecision(m, ctx);
    case 'run': return runDecision(m, ctx);
    case 'review': return yesNo(ctx, `Out, ${label(m.ball?.appeal || m.appeal || '')}! Use your DRS review (D6 4+ overturns)?`, ['Review', { type: 'review', review: true }], ['Walk', { type: 'review', review: false }]);
    default: return null;
  }
}

// ---------------------------------------------------------------- commentary

function describe(event, ctx) {
  const view = ctx.view || {};
  const m = model(view, ctx.seat);
  const name = (side, i) => {
    const p = arr(m.squads[side] && m.squads[side].players)[i];
    return p ? p.name : `#${i}`;
  };
  switch (event.type) {
    case 'squad_chosen': return `${ctx.seatName(event.seat)} picked their eleven.`;
    case 'squads_revealed': return 'Both elevens are revealed.';
    case 'pitch_drawn': return `Pitch card: ${pitchName(event.card)}.`;
    case 'toss_won': return `${ctx.seatName(event.seat)} won the toss.`;
    case 'innings_started': return `Innings ${event.innings}: ${ctx.seatName(event.batting)} to bat.`;
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
      if (b.wicket) return `WICKET! ${label(b.wicket)}.${b.runs ? ` ${b.runs} run${b.runs === 1 ? '' : 's'}.` : ''}`;
      if (b.boundary) return `${b.boundary === 6 ? 'SIX!' : 'FOUR!'}`;
      const extra = b.extras ? ` +${b.extras} no-ball` : '';
      return `${b.express ? 'Express: ' : ''}${b.runs ? `${b.runs} run${b.runs === 1 ? '' : 's'}` : 'dot ball'}${extra}.`;
    }
    case 'over_ended': return 'End of the over.';
    case 'innings_ended': return `Innings ${event.innings} closes at ${event.runs}/${event.wickets}.`;
    case 'match_ended': return event.winner === null ? 'Match over: a tie!' : `Match over: ${ctx.seatName(event.winner)} won.`;
    case 'await': return null;
    default: return summary(event);
  }
}

export default { board, decision, describe };
