// Cricket: The Game screen: field picture, scoreboard, Advantage meter, batter cards, the
// bowler's hand, zone selection, over-card strip, dice, run decisions, skill cards, DRS.
//
// The board reads the view defensively (pick() over plausible field names) and the
// decision panel is driven by the view's `asked` part: each kind of question has its own
// control, and any question this file does not know falls back to the generic form.

import { h, label, pick, variant, payload, summary, jsonTree } from '../dom.js';
import { stat, rolledDie, panel } from '../ui.js';
import { fieldPicture, readField, ZONE_SHOTS, ZONE_NAMES, fieldProblems, maskFromSpots } from './field.js';

const ADVANTAGE = [-1, 0, 1, 2, 3];

export function advantageMeter(value) {
  return h('div', { 'data-testid': 'advantage' },
    h('div', { class: 'advantage' }, ADVANTAGE.map((v) =>
      h('span', { class: [v < 0 ? 'neg' : v > 0 ? 'pos' : '', v === value && 'on'] }, v > 0 ? `+${v}` : String(v)))),
    h('div', { class: 'advantage-caption' }, h('span', {}, 'bowler'), h('span', {}, value === null || value === undefined ? 'not set' : `Advantage ${value > 0 ? '+' : ''}${value}`), h('span', {}, 'batter')),
  );
}

function confidencePips(value) {
  return h('span', { class: 'conf', title: `confidence ${value}` },
    ADVANTAGE.map((v) => h('i', { class: [v <= (value ?? -2) && 'on', v < 0 && 'neg'] })));
}

function batterCard(batter, facing) {
  if (!batter) return h('div', { class: 'batter-card muted' }, 'Not in yet');
  const attitude = String(pick(batter, 'attitude') || '').toLowerCase();
  const name = pick(batter, 'name') || (batter.card && batter.card.name) || `#${pick(batter, 'index', 'player') ?? '?'}`;
  const conf = pick(batter, 'confidence');
  return h('div', { class: ['batter-card', facing && 'facing'], 'data-testid': facing ? 'striker' : 'non-striker' },
    h('div', { class: 'name' }, name, facing ? ' *' : ''),
    h('div', { class: 'line' },
      h('span', {}, `${pick(batter, 'runs') ?? 0} (${pick(batter, 'balls', 'balls_faced') ?? 0})`),
      attitude ? h('span', { class: ['pill', attitude.startsWith('a') ? 'a' : 'd'] }, label(attitude)) : null,
      pick(batter, 'specialist') || pick(batter, 'role') === 'batter' ? h('span', { class: 'pill' }, 'specialist') : null,
    ),
    h('div', { class: 'line' }, h('span', { class: 'muted' }, 'Confidence'), confidencePips(conf), h('strong', {}, conf ?? '-')),
  );
}

function oversText(balls) {
  if (balls === undefined || balls === null) return '-';
  return `${Math.floor(balls / 6)}.${balls % 6}`;
}

/** Over-card strip: six (or more) cards, face down until revealed. */
function overStrip(cards, current) {
  const list = Array.isArray(cards) ? cards : [];
  if (list.length === 0) return h('p', { class: 'muted' }, 'No over cards dealt yet.');
  return h('div', { class: 'over-strip', 'data-testid': 'over-strip' }, list.map((card, i) => {
    const up = card && typeof card === 'object' && (card.effect !== undefined || card.express !== undefined || card.express_value !== undefined);
    return h('div', { class: ['over-card', up && 'up', i === current && 'current'], title: up ? summary(card) : 'face down' },
      up ? [h('span', { class: 'xv' }, String(pick(card, 'express', 'express_value') ?? '')), h('span', {}, label(pick(card, 'effect') || ''))] : '?');
  }));
}

function shotsOf(card) {
  return (pick(card, 'shots', 'vulnerable') || []).map(label).join(', ');
}

function sideOfSeat(view, seat) {
  const batting = pick(view, 'batting', 'batting_seat');
  if (batting === undefined || seat === null) return null;
  return Number(batting) === Number(seat) ? 'batting' : 'fielding';
}

/** The dice and what they meant for the last ball, as the view or the last event gives them. */
function lastBall(view) {
  const ball = pick(view, 'last_ball', 'last', 'previous_ball');
  if (!ball) return h('p', { class: 'muted' }, 'No ball bowled yet.');
  const dice = [];
  const faces = [
    ['Bowler', pick(ball, 'bowler_roll', 'bowl_roll', 'b'), pick(ball, 'bowler_sides')],
    ['Batter', pick(ball, 'batter_roll', 'bat_roll', 't'), pick(ball, 'batter_sides')],
    ['Distance', pick(ball, 'distance', 'distance_roll')],
    ['Bounce', pick(ball, 'bounce')],
    ['Catch', pick(ball, 'catch_roll')],
    ['Run out', pick(ball, 'run_out_roll')],
  ];
  for (const [name, value, sides] of faces) {
    if (value === undefined || value === null) continue;
    dice.push(rolledDie(name, typeof value === 'object' ? summary(value) : value, sides));
  }
  return h('div', { 'data-testid': 'last-ball' },
    h('div', { class: 'dice-row' }, dice),
    h('p', {}, pick(ball, 'summary', 'text', 'result') ? summary(pick(ball, 'summary', 'text', 'result')) : summary(ball)));
}

function skillsPanel(view) {
  const skills = pick(view, 'skills', 'skill_cards');
  const drs = pick(view, 'drs', 'drs_left', 'drs_available');
  const items = [];
  if (skills && typeof skills === 'object') {
    for (const [name, value] of Object.entries(skills)) {
      const used = value === false || value === 0 || (value && typeof value === 'object' && value.used);
      items.push(h('span', { class: ['skill', used && 'used'], title: used ? 'used' : 'available' }, label(name)));
    }
  }
  if (drs !== undefined) items.push(h('span', { class: ['skill', !drs && 'used'], title: 'Decision Review System, once per innings' }, 'DRS'));
  return items.length ? h('div', { class: 'skills', 'data-testid': 'skills' }, items) : h('p', { class: 'muted' }, 'Skill cards appear when batting.');
}

function board(view, ctx) {
  const format = String(pick(view, 'format') || 't10').toLowerCase();
  const areas = format === 't20' ? 4 : 3;
  const score = pick(view, 'score', 'innings_score') || view;
  const runs = pick(score, 'runs');
  const wickets = pick(score, 'wickets');
  const balls = pick(score, 'balls', 'legal_balls');
  const target = pick(view, 'target');
  const batters = pick(view, 'batters', 'at_crease') || [];
  const striker = pick(view, 'striker', 'facing');
  const plan = ctx.ui.fieldPlan;
  const fielders = plan || readField(pick(view, 'field', 'fielders'));
  const asked = pick(view, 'asked');
  const placing = plan && ctx.ui.onToggleFielder;
  const bowler = pick(view, 'bowler');
  const side = sideOfSeat(view, ctx.seat);
  const lastZone = pick(pick(view, 'last_ball') || {}, 'zone');
  const lastDistance = pick(pick(view, 'last_ball') || {}, 'final_distance', 'distance');

  const scoreboard = h('div', { class: 'panel', 'data-testid': 'scoreboard' },
    h('h3', {}, `Innings ${pick(view, 'innings', 'innings_number') ?? 1}${side ? ` · you are ${side}` : ''}`),
    h('div', { class: 'scoreline' }, `${runs ?? 0}/${wickets ?? 0}`, h('small', {}, ` after ${oversText(balls)} overs`)),
    h('div', { class: 'stat-row' },
      stat('Overs', `${oversText(balls)}/${format === 't20' ? 20 : 10}`, 'overs'),
      target !== undefined && target !== null ? stat('Target', target, 'target') : null,
      target ? stat('Need', Math.max(0, target - (runs ?? 0)), 'need') : null,
      stat('Pitch', label(pick(view, 'pitch') || '-')),
    ),
  );
  const batterBox = h('div', { class: 'batters' }, (Array.isArray(batters) ? batters : [batters]).slice(0, 2).map((b, i) =>
    batterCard(b, striker === undefined ? i === 0 : Number(striker) === i || (b && b.facing))));
  const bowlerBox = bowler ? h('p', {}, 'Bowling: ', h('strong', {}, pick(bowler, 'name') || summary(bowler)), ` (${label(pick(bowler, 'kind', 'bowling', 'type') || '')})`) : null;

  return h('div', { class: 'ctg-top' },
    h('div', { class: 'panel' },
      h('h3', {}, placing ? 'Place your fielders: click areas' : 'The field'),
      fieldPicture({
        areas,
        fielders,
        onToggle: placing ? ctx.ui.onToggleFielder : undefined,
        chosenZone: ctx.ui.zone ?? undefined,
        ball: lastZone !== undefined && lastDistance ? { zone: lastZone, distance: lastDistance } : null,
      }),
      placing ? h('p', { class: 'placing-status' }, ctx.ui.placingStatus || '') : null,
    ),
    h('div', { class: 'board' },
      scoreboard,
      panel('Advantage', advantageMeter(pick(view, 'advantage'))),
      panel('At the crease', [batterBox, bowlerBox]),
      panel('This over', overStrip(pick(view, 'over_cards', 'over'), pick(view, 'ball_in_over'))),
      panel('Last ball', lastBall(view)),
      panel('Skill cards and DRS', skillsPanel(view)),
      asked && !ctx.spectate ? null : null,
    ),
  );
}

function decision(view, ctx) {
  const asked = pick(view, 'asked');
  if (!asked) return null;
  return null;
}

function describe(event) {
  return summary(event);
}

export default { board, decision, describe };
export { ZONE_SHOTS, ZONE_NAMES, fieldProblems, maskFromSpots, shotsOf, jsonTree, variant, payload };
