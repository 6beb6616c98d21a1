// The scorecard of a match as the server folds it from the log (GET /v1/matches/{id}/scorecard
// `card`): innings cards for CTG and Wicketz, the points table for Champions. Shared by the
// end-of-match screen and the replay viewer.

import { h } from './dom.js';
import { t } from './i18n.js';

/** `card` is the scorecard's `card`; `seatName(seat)` names a seat. */
export function scorecardNode(card, seatName = (seat) => t('common.seat.player', { n: Number(seat) + 1 })) {
  if (!card) return h('p', { class: 'muted' }, t('common.card.none'));
  if (card.kind === 'cricket') {
    // A match can end (a forfeit) before its first innings opens: say so, not a blank.
    if (card.innings.length === 0) return h('p', { class: 'muted', 'data-testid': 'scorecard' }, t('common.card.noBall'));
    return h('div', { class: 'scorecard', 'data-testid': 'scorecard' }, card.innings.map((innings) => inningsNode(innings, seatName)));
  }
  if (card.kind === 'points') return pointsNode(card.table, seatName);
  return h('p', { class: 'muted' }, t('common.card.unknown'));
}

/** "145/6 (18.4 ov)": an innings total as cricket writes it. */
export function inningsTotal({ total, wickets, overs }) {
  return t('common.card.total', { total, wickets, overs });
}

function inningsNode(innings, seatName) {
  const batting = h('table', { class: 'card-table' },
    h('caption', {}, t('common.card.batting')),
    h('thead', {}, h('tr', {}, ['batter', 'howOut', 'runs', 'balls', 'fours', 'sixes'].map((key) => h('th', { scope: 'col' }, t(`common.card.col.${key}`))))),
    h('tbody', {}, innings.batting.map((line) => h('tr', {},
      h('th', { scope: 'row', 'data-no-i18n': '' }, line.name || t('common.card.batterN', { n: line.batter + 1 })),
      h('td', {}, howOut(line.how_out)),
      h('td', {}, line.runs), h('td', {}, line.balls), h('td', {}, line.fours), h('td', {}, line.sixes)))),
  );
  const bowling = h('table', { class: 'card-table' },
    h('caption', {}, t('common.card.bowling')),
    h('thead', {}, h('tr', {}, ['bowler', 'overs', 'maidens', 'runs', 'wickets'].map((key) => h('th', { scope: 'col' }, t(`common.card.col.${key}`))))),
    h('tbody', {}, innings.bowling.map((line) => h('tr', {},
      h('th', { scope: 'row', 'data-no-i18n': '' }, line.bowler),
      h('td', {}, line.overs), h('td', {}, line.maidens), h('td', {}, line.runs), h('td', {}, line.wickets)))),
  );
  const falls = innings.fall_of_wickets.map((fall) => `${fall.score}-${fall.wicket} (${fall.overs})`).join(', ');
  return h('section', { class: 'innings-card', 'data-testid': `innings-${innings.number}` },
    h('h4', {}, t('common.card.innings', { n: innings.number, name: seatName(innings.batting_seat) }), ' ',
      h('span', { class: 'innings-total', 'data-testid': `innings-total-${innings.number}` }, inningsTotal(innings))),
    h('div', { class: 'table-scroll' }, batting),
    h('p', { class: 'muted' }, falls ? t('common.card.extrasFalls', { extras: innings.extras, falls }) : t('common.card.extras', { extras: innings.extras })),
    h('div', { class: 'table-scroll' }, bowling),
  );
}

function pointsNode(table, seatName) {
  return h('div', { class: 'table-scroll', 'data-testid': 'scorecard' }, h('table', { class: 'card-table' },
    h('caption', {}, t('common.card.points')),
    h('thead', {}, h('tr', {}, ['place', 'player', 'runs', 'wickets', 'championship', 'unusedXp', 'total'].map((key) => h('th', { scope: 'col' }, t(`common.card.pointsCol.${key}`))))),
    h('tbody', {}, [...table]
      .sort((a, b) => (a.placing ?? 99) - (b.placing ?? 99))
      .map((row) => h('tr', { class: row.eliminated ? 'muted' : '' },
        h('td', {}, row.placing ?? '-'),
        h('th', { scope: 'row' }, row.eliminated ? t('common.card.eliminated', { name: seatName(row.seat) }) : seatName(row.seat)),
        h('td', {}, row.runs), h('td', {}, row.wickets), h('td', {}, row.championship),
        h('td', {}, row.unused_xp), h('td', { 'data-testid': `points-total-${row.seat}` }, row.total)))),
  ));
}

/**
 * How a batter got out: the server writes cricket's short forms ("b Eli Stone", "lbw b ...",
 * "c b ..."), kept as they are; "not out" and "run out" read in the player's language.
 */
function howOut(text) {
  const words = String(text ?? '');
  const key = { 'not out': 'notOut', 'run out': 'runOut' }[words.toLowerCase()];
  return key ? t(`common.card.out.${key}`) : words;
}
