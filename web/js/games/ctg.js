// Cricket: The Game screen: field picture, scoreboard, Advantage meter, batter cards, the
// bowler's hand, zone selection, over-card strip, dice, run decisions, skill cards, DRS.
//
// `model(view)` is the one place that knows the engine's view field names; the board and
// the decision controls read only the model. The decision panel is chosen by the view's
// phase (what the game waits for), and every control sends one engine `Command` (tag
// "type"). A phase this file does not know falls back to the generic form.

import { h, label, summary } from '../dom.js';
import { stat, rolledDie, panel } from '../ui.js';
import { fieldPicture, readField, ZONE_SHOTS, fieldProblems, maskFromSpots } from './field.js';
import { CTG_DATA } from './ctg-data.js';
import { t, tOr, num } from '../i18n.js';

/** A pitch card's name ("Green" / "Verde"), as the rules reference names it. */
function pitchName(name) {
  return tOr(`ctg.pitchCard.${String(name).toLowerCase()}`, label(name));
}

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
    return card ? { ...card, index } : { name: t('ctg.board.playerNumber', { number: index }), index };
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
    // Overs per innings: the `overs` option (a shorter match), else the format's.
    overs: Number(view.overs) || (format === 't20' ? 20 : 10),
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
    // A pitch card's name (Green, Dusty, Dead): the card's, in the reference's words.
    pitch: view.pitch ? pitchName(view.pitch) : null,
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

// ---------------------------------------------------------------- words

/** An engine value in words (`aggressive`, `caught`, `square_cut`): `ctg.<group>.<value>`. */
export function term(group, id) {
  if (id === null || id === undefined || id === '') return '';
  return tOr(`ctg.${group}.${String(id).toLowerCase()}`, label(id));
}

/** An Advantage or confidence as people write it: "+2", "0", "-1". */
export function signed(n) {
  return Number(n) > 0 ? `+${num(n)}` : num(n);
}

/** A zone's two shots: "Pull / Big shot". */
function shotsOf(zone) {
  return (ZONE_SHOTS[zone] || []).map((s) => term('shot', s)).join(' / ');
}

/** The message of `key` with the placeholders named in `nodes` replaced by DOM nodes. */
function rich(key, params, nodes) {
  return t(key, params).split(/(\{\w+\})/).filter((part) => part !== '').map((part) => {
    const m = /^\{(\w+)\}$/.exec(part);
    return m && m[1] in nodes ? nodes[m[1]] : part;
  });
}

const runsText = (n) => t('ctg.runs', { count: Number(n) || 0 });

// ---------------------------------------------------------------- board

export function advantageMeter(value) {
  return h('div', { 'data-testid': 'advantage' },
    h('div', { class: 'advantage' }, ADVANTAGE.map((v) =>
      h('span', { class: [v < 0 ? 'neg' : v > 0 ? 'pos' : '', v === value && 'on'] }, signed(v)))),
    h('div', { class: 'advantage-caption' }, h('span', {}, t('ctg.advantage.bowler')),
      h('span', {}, value === null || value === undefined ? t('ctg.advantage.unset') : t('ctg.advantage.value', { value: signed(value) })),
      h('span', {}, t('ctg.advantage.batter'))));
}

function confidencePips(value) {
  return h('span', { class: 'conf', title: t('ctg.confidenceTitle', { value: value ?? '-' }) },
    ADVANTAGE.map((v) => h('i', { class: [v <= (value ?? -2) && 'on', v < 0 && 'neg'] })));
}

function batterCard(batter, facing) {
  if (!batter) return h('div', { class: 'batter-card muted' }, facing ? t('ctg.batter.strikerOut') : t('ctg.batter.nonStrikerOut'));
  const attitude = String(batter.attitude || '').toLowerCase();
  return h('div', { class: ['batter-card', facing && 'facing'], 'data-testid': facing ? 'striker' : 'non-striker' },
    h('div', { class: 'name' }, batter.name, facing ? ' *' : ''),
    h('div', { class: 'line' },
      batter.runs !== undefined ? h('span', {}, t('ctg.batter.figures', { runs: batter.runs, balls: batter.balls ?? 0 })) : null,
      attitude ? h('span', { class: ['pill', attitude.startsWith('a') ? 'a' : 'd'] }, term('attitude', attitude)) : null,
      batter.role === 'batter' ? h('span', { class: 'pill', title: t('ctg.batter.specialistTitle') }, t('ctg.batter.specialist')) : h('span', { class: 'pill' }, term('role', batter.role || '')),
    ),
    h('div', { class: 'line' }, h('span', { class: 'muted' }, t('ctg.batter.confidence')), confidencePips(batter.confidence), h('strong', {}, batter.confidence === undefined || batter.confidence === null ? '-' : num(batter.confidence))),
  );
}

/** Overs and balls in cricket's own notation ("4.3": four overs and three balls), never a decimal. */
function oversText(balls) {
  if (balls === undefined || balls === null) return '0.0';
  return `${Math.floor(balls / 6)}.${balls % 6}`;
}

function overStrip(m) {
  return h('div', { class: 'over-strip', 'data-testid': 'over-strip' }, m.overCards.map((card, i) =>
    h('div', { class: ['over-card', card && 'up', i === m.slot && 'current'], title: card ? t('ctg.overCard.title', { value: card.express ?? '', effect: term('effect', card.effect) }) : t('ctg.overCard.faceDown') },
      card ? [h('span', { class: 'xv' }, String(card.express ?? '')), h('span', {}, term('effect', card.effect || ''))] : '?')));
}

function ballPanel(m) {
  const b = m.ball || {};
  const dice = [];
  const pair = (name, value) => {
    if (Array.isArray(value)) dice.push(rolledDie(name, value[0], value[1]));
  };
  pair(t('ctg.dice.bowler'), b.bowl);
  pair(t('ctg.dice.batter'), b.bat);
  if (b.distance) dice.push(rolledDie(t('ctg.dice.distance'), b.distance, m.format === 't20' ? 8 : 6));
  if (b.bounce_face) {
    const attitude = b.shot && b.shot.attitude;
    const die = attitude === 'aggressive' ? CTG_DATA.bounce_dice.red : CTG_DATA.bounce_dice.green;
    dice.push(rolledDie(attitude === 'aggressive' ? t('ctg.dice.bounceRed') : t('ctg.dice.bounceGreen'), die ? die[b.bounce_face - 1] : b.bounce_face));
  }
  const facts = [];
  if (b.card !== null && b.card !== undefined) {
    const card = m.hand[b.card];
    const name = card ? card.name : t('ctg.fact.cardNumber', { number: b.card + 1 });
    facts.push(b.shot ? t('ctg.fact.card', { name }) : t('ctg.fact.cardSealedName', { name }));
  } else if (b.card_sealed) facts.push(t('ctg.fact.cardSealed'));
  if (b.shot) facts.push(t('ctg.fact.zone', { zone: b.shot.zone, shots: shotsOf(b.shot.zone), attitude: term('attitude', b.shot.attitude) }));
  else if (b.shot_sealed) facts.push(t('ctg.fact.zoneSealed'));
  if (b.express_value !== undefined) facts.push(t('ctg.fact.express', { value: b.express_value }));
  if (b.effect) facts.push(t('ctg.fact.effect', { effect: term('effect', b.effect) }));
  if (b.no_ball) facts.push(t('ctg.fact.noBall'));
  if (b.free_hit) facts.push(t('ctg.fact.freeHit'));
  if (b.appeal) facts.push(t('ctg.fact.appeal', { dismissal: term('dismissal', b.appeal) }));
  return h('div', { 'data-testid': 'last-ball' },
    h('div', { class: 'dice-row' }, dice.length ? dice : h('span', { class: 'muted' }, b.express_value !== undefined ? t('ctg.fact.noDiceExpress') : t('ctg.fact.noDice'))),
    facts.length ? h('p', {}, facts.join(' · ')) : null);
}

function skillsPanel(m) {
  const used = m.skills || {};
  const skill = (key, perOver) => {
    const u = Number(used[key] || 0);
    const name = term('skill', key);
    const title = perOver
      ? t(u ? 'ctg.skills.perOverUsed' : 'ctg.skills.perOver', { name })
      : t(u ? 'ctg.skills.perInningsUsed' : 'ctg.skills.perInnings', { name });
    return h('span', { class: ['skill', u > 0 && 'used'], title }, name);
  };
  return h('div', { class: 'skills', 'data-testid': 'skills' },
    skill('reroll_to_hit', false),
    skill('reroll_distance', false),
    skill('reroll_bounce', false),
    skill('add_one', true),
    skill('roll_d8', true),
    h('span', { class: ['skill', m.drsUsed && 'used'], title: t('ctg.skills.drsTitle') }, t('ctg.skills.drs')));
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
  const inningsTitle = { batting: 'ctg.board.inningsYouBat', fielding: 'ctg.board.inningsYouField' }[m.side] || 'ctg.board.innings';
  const scoreboard = h('div', { class: 'panel', 'data-testid': 'scoreboard' },
    h('h3', {}, m.started ? t(inningsTitle, { innings: m.innings, team: teamName(m.batting) }) : t('ctg.board.beforeStart')),
    h('div', { class: 'scoreline', 'data-testid': 'score' }, `${num(runs)}/${num(score.wickets ?? 0)}`, h('small', {}, t('ctg.board.after', { overs: oversText(score.balls), count: m.overs }))),
    h('div', { class: 'stat-row' },
      stat(t('ctg.board.overs'), `${oversText(score.balls)}/${m.overs}`, 'overs'),
      m.innings === 2 && m.target ? stat(t('ctg.board.target'), num(m.target), 'target') : null,
      m.innings === 2 && m.target ? stat(t('ctg.board.need'), num(Math.max(0, m.target - runs)), 'need') : null,
      m.innings === 2 ? stat(`${teamName(m.fielding)}`, `${num(m.otherScore.runs ?? 0)}/${num(m.otherScore.wickets ?? 0)}`) : null,
      score.extras ? stat(t('ctg.board.extras'), num(score.extras)) : null,
      m.powerPlayNow ? stat(t('ctg.board.powerPlay'), t('ctg.board.on'), 'power-play') : null,
      m.ball.free_hit ? stat(t('ctg.board.freeHit'), t('ctg.board.yes')) : null,
      stat(t('ctg.board.pitch'), m.pitch || '-'),
    ),
  );
  const bowlerLine = m.bowler
    ? h('p', {}, rich(m.bowlType ? 'ctg.board.bowling' : 'ctg.board.bowlingNoType', { type: term('bowling', m.bowlType) }, { name: h('strong', {}, m.bowler.name) }))
    : h('p', { class: 'muted' }, t('ctg.board.noBowler'));
  const handPanel = m.side === 'fielding' && m.hand.length
    ? panel(t('ctg.board.hand'), h('div', { class: 'hand' }, m.hand.map((card, i) =>
      h('div', { class: ['bowl-card', m.ball && m.ball.shot && m.ball.card === i && 'played'] },
        h('strong', {}, card.name), h('small', {}, t('ctg.board.weakTo', { shots: arr(card.shots).map((s) => term('shot', s)).join(', ') }))))))
    : null;

  return h('div', { class: 'ctg-top' },
    h('div', { class: 'panel' },
      h('h3', {}, placing ? t('ctg.board.placing') : t('ctg.board.field')),
      fieldPicture({ areas: m.areas, fielders: placing ? plan : m.field, onToggle: placing ? ctx.ui.onToggleFielder : undefined, chosenZone }),
      placing ? h('p', { class: 'placing-status', 'data-testid': 'placing-status' }, ctx.ui.placingStatus || '') : null,
      h('p', { class: 'muted' }, t('ctg.board.fieldLegend')),
    ),
    h('div', { class: 'board' },
      scoreboard,
      panel(t('ctg.board.advantage'), advantageMeter(m.advantage)),
      panel(t('ctg.board.atTheCrease'), [h('div', { class: 'batters' }, batterCard(m.striker, true), batterCard(m.nonStriker, false)), bowlerLine]),
      panel(t('ctg.board.thisOver'), overStrip(m)),
      handPanel,
      panel(t('ctg.board.skills'), skillsPanel(m)),
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
  if (!m.started) return h('div', { class: 'headline' }, h('strong', {}, t('ctg.head.beforeStart')), h('span', { class: 'muted' }, t('ctg.head.squadsAndToss')));
  const score = m.score;
  const runs = score.runs ?? 0;
  const name = teamName(view, m.batting) || ctx.seatName(m.batting);
  const ballsLeft = m.overs * 6 - (score.balls ?? 0);
  const chase = m.innings === 2 && m.target
    ? t('ctg.head.chase', { runs: runsText(Math.max(0, m.target - runs)), balls: t('ctg.balls', { count: Math.max(0, ballsLeft) }) })
    : null;
  return h('div', { class: 'headline' },
    h('span', { class: 'headline-team' }, name, m.side ? h('small', { class: 'muted' }, m.side === 'batting' ? t('ctg.head.youBat') : t('ctg.head.youBowl')) : null),
    h('strong', { class: 'headline-score', 'data-testid': 'headline-score' }, `${num(runs)}/${num(score.wickets ?? 0)}`),
    h('span', { class: 'muted', 'data-testid': 'headline-overs' }, t('ctg.head.overs', { overs: oversText(score.balls), count: m.overs })),
    chase ? h('span', { class: 'headline-chase' }, chase) : null,
    m.ball && m.ball.free_hit ? h('span', { class: 'pill a' }, t('ctg.head.freeHit')) : null,
    m.powerPlayNow ? h('span', { class: 'pill d' }, t('ctg.head.powerPlay')) : null);
}

/** This ball's dice and cards as they stand, beside the question. */
function dicePanel(view, ctx) {
  const m = model(view, ctx.spectate ? null : ctx.seat);
  if (!m.started) return null;
  return h('section', { class: 'panel compact', 'data-testid': 'ctg-dice-panel' }, h('h3', {}, t('ctg.thisBall')), ballPanel(m),
    m.advantage !== null && m.advantage !== undefined ? h('p', { class: 'small' }, t('ctg.advantage.value', { value: signed(m.advantage) })) : null);
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
          dice.push({ name: t('ctg.dice.bowler'), value: e.bowl, sides: e.bowl_sides, kind: 'bowling' });
          bat = { name: t('ctg.dice.batter'), value: e.bat, sides: e.bat_sides, kind: 'batting' };
          dice.push(bat);
          break;
        case 'to_hit_rerolled': if (bat) bat.value = e.bat; break;
        case 'roll':
          dice.push({ name: term('rollFor', e.roll_for), value: e.face, sides: e.sides });
          if (CATCH_ROLLS.has(e.roll_for)) dropped = true;
          break;
        case 'distance': dice.push({ name: t('ctg.dice.distance'), value: e.distance }); break;
        case 'bounce': dice.push({ name: t('ctg.dice.bounce'), value: e.face }); break;
        case 'reviewed': reviewed = e; break;
        case 'over_card_revealed':
          // An express ball is decided by the over card's number, not by dice.
          if (b.express) dice.push({ name: t('ctg.dice.overCard'), value: deck ? deck.express_values[e.card] : `#${e.card}` });
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
      text = t('ctg.ball.out', { how: term('dismissal', b.wicket) });
      if (runs) bits.push(t('ctg.ball.runsBefore', { count: runs }));
    } else if (b.boundary === 6) {
      kind = 'six';
      text = t('ctg.ball.six');
    } else if (b.boundary === 4) {
      kind = 'four';
      text = t('ctg.ball.four');
    } else if (dropped) {
      kind = 'dropped';
      text = runs ? t('ctg.ball.dropped', { count: runs }) : t('ctg.ball.droppedNone');
    } else {
      kind = runs ? 'runs' : 'dot';
      text = runs ? runsText(runs) : t('ctg.ball.dot');
    }
    if (extras) {
      bits.push(t('ctg.ball.noBall', { count: extras }));
      if (kind === 'dot' || kind === 'runs') kind = 'extras';
    }
    if (b.express) bits.push(t('ctg.ball.express'));
    if (reviewed) bits.push(t(reviewed.overturned ? 'ctg.ball.drsOverturned' : 'ctg.ball.drsStands', { face: reviewed.face }));
    if (reveal) bits.push(t('ctg.ball.reveal', { zone: reveal.shot.zone, attitude: term('attitudeLower', reveal.shot.attitude), advantage: signed(reveal.advantage) }));
    return { kind, text, detail: bits.join(' · '), dice, label: t('ctg.ball.label') };
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
    h('button', { class: ctx.ui[key] === a && 'selected', 'data-testid': `${key}-${a}`, onclick: () => { ctx.ui[key] = a; ctx.redraw(); } }, term('attitude', a))));
}

const playerName = (players, i) => (players[i] ? players[i].name : t('ctg.board.playerNumber', { number: i }));

function squadDecision(m, ask, ctx) {
  const me = Number(ctx.seat);
  const players = arr(m.squads[me] && m.squads[me].players);
  const droppable = bits(ask.droppable);
  if (ctx.ui.drop === undefined || !droppable.includes(ctx.ui.drop)) ctx.ui.drop = droppable[droppable.length - 1];
  const drop = ctx.ui.drop;
  const order = players.map((_, i) => i).filter((i) => i !== drop).slice(0, 11);
  const nameOf = (i) => playerName(players, i);
  return h('div', {},
    h('p', {}, t('ctg.ask.squad')),
    h('div', { class: 'buttons' }, droppable.map((i) =>
      h('button', { class: drop === i && 'selected', onclick: () => { ctx.ui.drop = i; ctx.redraw(); } }, t('ctg.ask.drop', { name: nameOf(i), role: term('role', ask.roles[i]) })))),
    h('ol', { class: 'order' }, order.map((i) => h('li', {}, t('ctg.ask.squadRow', { name: nameOf(i), role: term('role', ask.roles[i]), confidence: num(ask.confidence[i]) })))),
    actionButton(ctx, t('ctg.ask.confirmSquad'), { type: 'select_squad', drop, batting_order: order }, { primary: true }));
}

function bowlerDecision(m, ask, ctx) {
  const players = arr(m.squads[Number(ctx.seat)] && m.squads[Number(ctx.seat)].players);
  const legal = bits(ask.legal);
  return h('div', {},
    h('p', {}, t('ctg.ask.bowler', { over: (m.view.overs_completed ?? 0) + 1, count: m.format === 't20' ? 3 : 2 })),
    // Two to a row, the name over its type and overs: up to eight bowlers and the help
    // must fit a laptop's first screenful under the score and the last ball.
    h('div', { class: 'buttons two-up' }, legal.map((i, n) =>
      actionButton(ctx, [
        h('span', {}, playerName(players, i)),
        h('small', {}, t('ctg.ask.bowlerDetail', { type: term('bowling', ask.types[i] || ''), count: ask.overs_bowled[i] })),
      ], { type: 'choose_bowler', bowler: i }, { primary: n === 0 }))));
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
    list.map((i) => h('option', { value: String(i), selected: i === ctx.ui[key] }, playerName(players, i))));
  return h('div', {},
    h('p', {}, t('ctg.ask.openers')),
    h('label', { class: 'opt' }, h('span', {}, t('ctg.ask.striker')), choose('striker')),
    attitudeToggle(ctx, 'strikerAttitude', 'defensive'),
    h('label', { class: 'opt' }, h('span', {}, t('ctg.ask.nonStriker')), choose('nonStriker')),
    attitudeToggle(ctx, 'nonStrikerAttitude', 'defensive'),
    actionButton(ctx, t('ctg.ask.walkOut'), { type: 'openers', striker: ctx.ui.striker, non_striker: ctx.ui.nonStriker, striker_attitude: ctx.ui.strikerAttitude, non_striker_attitude: ctx.ui.nonStrikerAttitude }, { primary: true }));
}

function nextBatterDecision(m, ask, ctx) {
  const players = arr(m.squads[m.batting] && m.squads[m.batting].players);
  return h('div', {},
    h('p', {}, t('ctg.ask.nextBatter')),
    attitudeToggle(ctx, 'nextAttitude', 'defensive'),
    h('div', { class: 'buttons' }, inOrder(ask).map((i, n) =>
      h('button', { class: n === 0 && 'primary', 'data-action': 'choose', disabled: ctx.busy,
        onclick: () => ctx.send({ type: 'next_batter', batter: i, attitude: ctx.ui.nextAttitude }) }, playerName(players, i)))));
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
  ctx.ui.placingStatus = problems.length
    ? t('ctg.ask.notLegal', { problems: problems.join('; ') })
    : t('ctg.ask.legal', { outfield: ctx.ui.fieldPlan.filter((sp) => sp.area > 2).length, limit });
  ctx.ui.onToggleFielder = (zone, area) => {
    const plan = ctx.ui.fieldPlan;
    const at = plan.findIndex((sp) => sp.zone === zone && sp.area === area);
    if (at >= 0) plan.splice(at, 1);
    else plan.push({ zone, area });
    ctx.redraw();
  };
  return h('div', {},
    h('p', {}, t(m.format === 't20' ? 'ctg.ask.fieldT20' : 'ctg.ask.field', { limit, slips: rules.slips_allowed ? t('ctg.ask.slipsYes') : t('ctg.ask.slipsNo') })),
    h('p', { class: problems.length ? 'error' : 'muted', 'data-testid': 'field-status' }, ctx.ui.placingStatus),
    h('div', { class: 'buttons' },
      h('button', { class: 'primary', 'data-action': 'set-field', disabled: ctx.busy,
        onclick: () => ctx.send({ type: 'set_field', field: maskFromSpots(ctx.ui.fieldPlan) }) }, t('ctg.ask.confirmField')),
      h('button', { onclick: () => { ctx.ui.fieldPlan = current.length === 9 ? readField(ask.current) : defaultField(); ctx.redraw(); } }, t('ctg.ask.reset'))));
}

function zonesOf(mask) {
  return [0, 1, 2, 3, 4, 5].filter((z) => Number(mask) & (1 << z));
}

function bowlDecision(m, ask, ctx) {
  const deck = CTG_DATA.bowling_decks[ask.bowl_type] || [];
  return h('div', {},
    h('p', {}, t('ctg.ask.bowl')),
    h('div', { class: 'hand', 'data-testid': 'hand' }, [...Array(ask.cards).keys()].map((i) =>
      h('button', { class: 'bowl-card', 'data-action': 'bowl', 'data-testid': `bowl-${i}`, disabled: ctx.busy, onclick: () => ctx.send({ type: 'bowl', card: i }) },
        h('strong', {}, deck[i] ? deck[i].name : t('ctg.ask.cardNumber', { number: i + 1 })),
        h('small', {}, deck[i] ? t('ctg.ask.weakTo', { shots: arr(deck[i].shots).map((s) => term('shot', s)).join(', ') }) : ''),
        h('small', {}, t('ctg.ask.zones', { zones: zonesOf(ask.zones[i]).map((z) => num(z)).join(', ') }))))));
}

function shotDecision(m, ask, ctx) {
  if (!ctx.ui.shotAttitude) ctx.ui.shotAttitude = ask.attitude;
  return h('div', {},
    h('p', {}, t(ask.specialist ? 'ctg.ask.shotSpecialist' : 'ctg.ask.shot', { name: m.striker ? m.striker.name : t('ctg.ask.theStriker'), confidence: num(ask.confidence) })),
    attitudeToggle(ctx, 'shotAttitude', ask.attitude),
    h('div', { class: 'zones', 'data-testid': 'zones' }, [1, 2, 3, 4, 5].map((zone) =>
      h('button', { class: 'zone-btn', 'data-action': 'shot', 'data-testid': `zone-${zone}`, disabled: ctx.busy,
        'aria-label': t('ctg.ask.zoneButton', { zone, shots: shotsOf(zone) }),
        onclick: () => { const attitude = ctx.ui.shotAttitude; ctx.ui.shotAttitude = null; ctx.send({ type: 'shot', zone, attitude }); } },
      h('strong', {}, num(zone)), h('span', {}, shotsOf(zone))))));
}

function yesNo(ctx, question, yes, no, primaryYes = false) {
  return h('div', {}, h('p', {}, question), h('div', { class: 'buttons' },
    actionButton(ctx, yes[0], yes[1], { primary: primaryYes }), actionButton(ctx, no[0], no[1], { primary: !primaryYes })));
}

function skillsDecision(m, ask, ctx) {
  const pickSkills = (addOne, rollD8) => ctx.send({ type: 'skills', add_one: addOne, roll_d8: rollD8 });
  return h('div', {},
    h('p', {}, t('ctg.ask.skills', { advantage: signed(ask.advantage) })),
    h('div', { class: 'buttons' },
      h('button', { class: 'primary', 'data-action': 'skills', disabled: ctx.busy, onclick: () => pickSkills(false, false) }, t('ctg.ask.noSkill')),
      ask.add_one ? h('button', { 'data-action': 'skill-add-one', disabled: ctx.busy, onclick: () => pickSkills(true, false) }, t('ctg.ask.addOne')) : null,
      ask.roll_d8 ? h('button', { 'data-action': 'skill-d8', disabled: ctx.busy, onclick: () => pickSkills(false, true) }, t('ctg.ask.rollD8')) : null,
      ask.add_one && ask.roll_d8 ? h('button', { 'data-action': 'skill-both', disabled: ctx.busy, onclick: () => pickSkills(true, true) }, t('ctg.ask.both')) : null));
}

function missDecision(m, ask, ctx) {
  const all = [['bowled', 1, t('ctg.ask.bowledChance')], ['slips', 2, t('ctg.ask.slipCatch', { count: ask.slips ?? 0 })], ['howzat', 4, t('ctg.ask.howzat')]];
  const options = all.filter(([, bit]) => ask.options & bit);
  return h('div', {}, h('p', {}, t('ctg.ask.miss')),
    h('div', { class: 'buttons' }, options.map(([name, , text], i) => actionButton(ctx, text, { type: 'miss', option: name }, { primary: i === 0 }))));
}

function distanceDecision(m, ask, ctx) {
  return h('div', {}, h('p', {}, t('ctg.ask.distance', { zone: ask.zone, distance: ask.distance, max: ask.max })),
    h('div', { class: 'buttons' },
      actionButton(ctx, t('ctg.ask.keep'), { type: 'distance', choice: 'accept' }, { primary: true }),
      ask.add_one ? actionButton(ctx, t('ctg.ask.distanceAddOne'), { type: 'distance', choice: 'add_one' }) : null,
      ask.reroll ? actionButton(ctx, t('ctg.ask.distanceReroll'), { type: 'distance', choice: 'reroll' }) : null));
}

function decision(view, ctx) {
  const m = model(view, ctx.seat);
  const ask = m.ask;
  if (!ask || ask.ask !== 'set_field') {
    ctx.ui.fieldPlan = null;
    ctx.ui.onToggleFielder = null;
  }
  if (!ask) {
    if (m.ball.card_sealed || m.ball.shot_sealed) return h('p', { class: 'muted' }, t('ctg.ask.sealed'));
    return h('p', { class: 'muted' }, t('ctg.ask.waiting', { phase: term('phase', m.phase || '') }));
  }
  switch (ask.ask) {
    case 'select_squad': return squadDecision(m, ask, ctx);
    case 'toss': return yesNo(ctx, t('ctg.ask.toss'), [t('ctg.ask.bat'), { type: 'toss', choice: 'bat' }], [t('ctg.ask.bowlFirst'), { type: 'toss', choice: 'bowl' }], true);
    case 'choose_bowler': return bowlerDecision(m, ask, ctx);
    case 'openers': return openersDecision(m, ask, ctx);
    case 'next_batter': return nextBatterDecision(m, ask, ctx);
    case 'power_play': return yesNo(ctx, t('ctg.ask.powerPlay', { over: ask.over }), [t('ctg.ask.callIt'), { type: 'power_play', call: true }], [t('ctg.ask.notNow'), { type: 'power_play', call: false }]);
    case 'set_field': return fieldDecision(m, ask, ctx);
    case 'bowl': return bowlDecision(m, ask, ctx);
    case 'shot': return shotDecision(m, ask, ctx);
    case 'skills': return skillsDecision(m, ask, ctx);
    case 'quick_single': return yesNo(ctx, t('ctg.ask.quickSingle'), [t('ctg.ask.takeSingle'), { type: 'quick_single', take: true }], [t('ctg.ask.playOut'), { type: 'quick_single', take: false }], true);
    case 'reroll_to_hit': return yesNo(ctx, t('ctg.ask.rerollToHit', { bowl: ask.bowl, bowlSides: ask.bowl_sides, bat: ask.bat, batSides: ask.bat_sides, advantage: num(ask.advantage) }), [t('ctg.ask.reroll'), { type: 'reroll', reroll: true }], [t('ctg.ask.keep'), { type: 'reroll', reroll: false }]);
    case 'reroll_bounce': return yesNo(ctx, t(ask.red ? 'ctg.ask.bounceRed' : 'ctg.ask.bounceGreen', { count: ask.areas }), [t('ctg.ask.reroll'), { type: 'reroll', reroll: true }], [t('ctg.ask.keep'), { type: 'reroll', reroll: false }]);
    case 'miss': return missDecision(m, ask, ctx);
    case 'distance': return distanceDecision(m, ask, ctx);
    case 'run': return yesNo(ctx, t('ctg.ask.run', { count: ask.safe, attempt: ask.attempt, runOut: ask.run_out_min }),
      [t('ctg.ask.tryFor', { attempt: ask.attempt }), { type: 'run', attempt: true }], [t('ctg.ask.take', { safe: ask.safe }), { type: 'run', attempt: false }]);
    case 'review': return yesNo(ctx, t('ctg.ask.review', { dismissal: term('dismissal', ask.dismissal) }), [t('ctg.ask.reviewIt'), { type: 'review', review: true }], [t('ctg.ask.walk'), { type: 'review', review: false }]);
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
  const tl = tally(ctx);
  if (m.started && m.view.striker !== null && m.view.striker !== undefined) {
    tl.striker = m.view.striker;
    tl.nonStriker = m.view.non_striker ?? tl.nonStriker;
  }
  const inn = tl.innings[tl.innings.length - 1];
  if (!inn || !Object.keys(inn.batters).length) return null;
  const bat = m.squads[m.batting];
  const bowlSquad = m.squads[m.fielding];
  const nameIn = (squad, i) => (squad && squad.players[i] ? squad.players[i].name : t('ctg.board.playerNumber', { number: i }));
  const batRows = Object.entries(inn.batters).map(([i, r]) => h('tr', {},
    h('td', {}, nameIn(bat, i), Number(i) === m.view.striker ? ' *' : ''),
    h('td', { class: 'muted' }, r.out ? term('dismissal', r.out) : Number(i) === m.view.striker || Number(i) === m.view.non_striker ? t('ctg.board.notOut') : ''),
    h('td', {}, num(r.runs)), h('td', {}, num(r.balls)), h('td', {}, num(r.fours)), h('td', {}, num(r.sixes))));
  const bowlRows = Object.entries(inn.bowlers).map(([i, r]) => h('tr', {},
    h('td', {}, nameIn(bowlSquad, i)), h('td', {}, oversText(r.balls)), h('td', {}, num(r.runs)), h('td', {}, num(r.wickets))));
  const head = (keys) => h('thead', {}, h('tr', {}, keys.map((key) => h('th', {}, key ? t(`ctg.board.${key}`) : ''))));
  return panel(t('ctg.board.scorecard'), h('div', { 'data-testid': 'ctg-scorecard' },
    h('table', { class: 'seats' }, head(['colBatter', '', 'colRuns', 'colBalls', 'colFours', 'colSixes']), h('tbody', {}, batRows)),
    bowlRows.length ? h('table', { class: 'seats' }, head(['colBowler', 'colOvers', 'colRunsConceded', 'colWickets']), h('tbody', {}, bowlRows)) : null));
}

// ---------------------------------------------------------------- the story fold

const freshScore = () => ({ runs: 0, wickets: 0, balls: 0, extras: 0 });

/**
 * The match as it stands after each event, folded from the events alone (a port of the
 * engine's `rules::ctg::state::apply`, the parts a viewer sees), shaped like the engine's
 * view so `board`, `headline` and `dicePanel` draw it. From `base` it takes only what no
 * event changes: the two squads, the format and the overs per innings.
 */
const story = {
  init(base, options = {}) {
    const squads = structuredClone(arr(base.squads));
    return {
      phase: 'select_squad',
      format: base.format || options.format || 't10',
      // Overs per innings (the `overs` option); absent, the format's.
      overs: base.overs ?? options.overs ?? null,
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
    return p ? p.name : t('ctg.board.playerNumber', { number: i });
  };
  // A side by its team's name and who plays it: "Harbour Gulls (you)".
  const side = (seat) => {
    const team = teamName(view, seat);
    return team ? t('ctg.say.side', { team, name: ctx.seatName(seat) }) : ctx.seatName(seat);
  };
  const deckNow = () => CTG_DATA.over_decks[m.bowlType];
  switch (event.type) {
    case 'squad_chosen': {
      // The page names its own seat "you" (words.js): that seat "picked your eleven".
      const you = /^(you|você)$/i.test(String(ctx.seatName(event.seat)));
      return you ? t('ctg.say.squadYou') : t('ctg.say.squadOther', { name: ctx.seatName(event.seat) });
    }
    case 'squads_revealed': return t('ctg.say.squadsRevealed');
    case 'pitch_drawn': return t('ctg.say.pitch', { card: pitchName(CTG_DATA.pitch_cards[event.card] || String(event.card)) });
    case 'toss_won': return t('ctg.say.toss', { name: ctx.seatName(event.seat) });
    case 'innings_started': return t('ctg.say.innings', { innings: event.innings + 1, side: side(event.batting) });
    case 'bowler_chosen': return t('ctg.say.bowler', { name: name(m.fielding, event.bowler) });
    case 'batter_in': return t('ctg.say.batterIn', { name: name(m.batting, event.batter), attitude: term('attitude', event.attitude) });
    case 'power_play': return event.called ? t('ctg.say.powerPlay') : null;
    case 'over_dealt': return null;
    case 'over_card_revealed': {
      const deck = deckNow();
      return deck
        ? t('ctg.say.overCard', { value: deck.express_values[event.card], effect: term('effect', deck.effects[event.card]) })
        : t('ctg.say.overCardIndex', { card: event.card });
    }
    case 'field_set': return null;
    case 'bowl_sealed': return t('ctg.say.bowlSealed');
    case 'shot_sealed': return t('ctg.say.shotSealed');
    case 'revealed': {
      const card = m.hand[event.card];
      return t('ctg.say.reveal', {
        card: card ? card.name : t('ctg.say.revealCard', { card: event.card }),
        zone: event.shot.zone,
        attitude: term('attitude', event.shot.attitude),
        advantage: signed(event.advantage),
      });
    }
    case 'skill_played': return t('ctg.say.skill', { skill: term('skill', event.skill), advantage: num(event.advantage) });
    case 'quick_single': return event.taken ? t('ctg.say.quickSingleTaken') : t('ctg.say.quickSingleDeclined');
    case 'delivered': return t('ctg.say.delivered', { bowl: event.bowl, bowlSides: event.bowl_sides, bat: event.bat, batSides: event.bat_sides });
    case 'to_hit_rerolled': return t('ctg.say.rerolledToHit', { bat: event.bat });
    case 'miss_chosen': return t('ctg.say.missChosen', { option: term('missOption', event.option) });
    case 'roll': return t('ctg.say.roll', { roll: term('rollFor', event.roll_for), face: event.face, sides: event.sides });
    case 'distance': {
      const key = event.rerolled && event.added_one ? 'distanceRerolledAdded' : event.rerolled ? 'distanceRerolled' : event.added_one ? 'distanceAdded' : 'distance';
      return t(`ctg.say.${key}`, { distance: event.distance });
    }
    case 'bounce': return t(event.rerolled ? 'ctg.say.bounceRerolled' : 'ctg.say.bounce', { face: event.face });
    case 'run_decided': return event.attempt ? t('ctg.say.runAttempt') : t('ctg.say.runSafe');
    case 'confidence_changed': return t('ctg.say.confidence', { name: name(m.batting, event.player), confidence: event.confidence });
    case 'appeal': return t('ctg.say.appeal', { dismissal: term('dismissal', event.dismissal) });
    case 'reviewed': return t(event.overturned ? 'ctg.say.reviewOverturned' : 'ctg.say.reviewStands', { face: event.face });
    case 'ball_ended': {
      const b = event.ball;
      const how = term('dismissal', b.wicket);
      if (b.wicket) return b.runs ? t('ctg.say.wicketRuns', { how, count: b.runs }) : t('ctg.say.wicket', { how });
      if (b.boundary) return b.boundary === 6 ? t('ctg.say.six') : t('ctg.say.four');
      const express = b.express ? 'express' : '';
      const what = b.runs ? (express ? 'expressRuns' : 'runs') : express ? 'expressDot' : 'dot';
      return t(`ctg.say.${what}${b.extras ? 'NoBall' : ''}`, { count: b.runs || 0, extras: b.extras || 0 });
    }
    case 'over_ended': return t('ctg.say.overEnded');
    case 'innings_ended': return t('ctg.say.inningsEnded', { innings: event.innings + 1, runs: event.runs, wickets: event.wickets });
    case 'match_ended': return event.winner == null ? t('ctg.say.tie') : t('ctg.say.won', { side: side(event.winner) });
    case 'await': return null;
    default: return summary(event);
  }
}

/** Rules in brief, for the How to play panel (read at draw time: the language may change). */
const HELP_KEYS = ['sealed', 'advantage', 'dice', 'struck', 'bounce', 'express'];

/** The lobby's fields for CTG's options. */
function optionFields({ field, select, number }) {
  // `field(name, control, hint, text)`: `text` is the field's label in the page's language
  // (a lobby that does not read it yet shows its own label of `name`).
  const format = select('format', [['t10', t('ctg.options.t10')], ['t20', t('ctg.options.t20')]], 't10');
  const overs = number
    ? number('overs', '', 1, 10)
    : h('input', { type: 'number', name: 'overs', min: 1, max: 10, 'data-testid': 'opt-overs' });
  // Empty is the whole format. The lobby reads a number field as Number(value), which would
  // send 0 for an empty field: read empty as undefined instead, so the option goes as null
  // (JSON has no NaN) and the server plays the format's overs.
  const native = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(overs), 'value');
  if (native && native.get) {
    Object.defineProperty(overs, 'value', {
      configurable: true,
      get() {
        const value = native.get.call(this);
        return value === '' ? undefined : value;
      },
      set(value) {
        native.set.call(this, value ?? '');
      },
    });
  }
  overs.value = '';
  // 1 to 10 overs in T10, 1 to 20 in T20.
  format.addEventListener('change', () => {
    overs.max = format.value === 't20' ? '20' : '10';
  });
  return [
    field('format', format, undefined, t('ctg.options.format')),
    field('overs', overs, t('ctg.options.oversHint'), t('ctg.options.overs')),
    field('tie', select('tie', [['tie', t('ctg.options.tieTie')], ['chaser_loses', t('ctg.options.tieChaserLoses')]], 'tie'), undefined, t('ctg.options.tie')),
    field('bowled_chance_margin', select('bowled_chance_margin', [['3', t('ctg.options.margin3')], ['4', t('ctg.options.margin4')]], '3'), undefined, t('ctg.options.margin')),
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

/** The live list's format label: "T10", or "T10, 2 overs" for a shorter match. */
function describeOptions(options) {
  const format = String((options && options.format) || 't10').toUpperCase();
  const full = format === 'T20' ? 20 : 10;
  const overs = Number(options && options.overs);
  return overs && overs < full ? t('ctg.options.describeShort', { format, count: overs }) : format;
}

export default {
  board,
  decision,
  describe,
  story,
  get help() {
    return HELP_KEYS.map((key) => t(`ctg.help.${key}`));
  },
  optionFields,
  replay,
  describeOptions,
  headline,
  dicePanel,
  ball,
  teamName,
};
