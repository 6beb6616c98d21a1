// The scorecard of a match as the server folds it from the log (GET /v1/matches/{id}/scorecard
// `card`): innings cards for CTG and Wicketz, the points table for Champions. Shared by the
// end-of-match screen and the replay viewer.

import { h } from './dom.js';

/** `card` is the scorecard's `card`; `seatName(seat)` names a seat. */
export function scorecardNode(card, seatName = (seat) => `player ${Number(seat) + 1}`) {
  if (!card) return h('p', { class: 'muted' }, 'No scorecard for this game.');
  if (card.kind === 'cricket') {
    // A match can end (a forfeit) before its first innings opens: say so, not a blank.
    if (card.innings.length === 0) return h('p', { class: 'muted', 'data-testid': 'scorecard' }, 'The match ended before a ball was bowled.');
    return h('div', { class: 'scorecard', 'data-testid': 'scorecard' }, card.innings.map((innings) => inningsNode(innings, seatName)));
  }
  if (card.kind === 'points') return pointsNode(card.table, seatName);
  return h('p', { class: 'muted' }, 'This scorecard has a shape this page does not know yet.');
}

/** "145/6 (18.4 ov)": an innings total as cricket writes it. */
export function inningsTotal({ total, wickets, overs }) {
  return `${total}/${wickets} (${overs} ov)`;
}

function inningsNode(innings, seatName) {
  const batting = h('table', { class: 'card-table' },
    h('caption', {}, 'Batting'),
    h('thead', {}, h('tr', {}, ['Batter', 'How out', 'R', 'B', '4s', '6s'].map((text) => h('th', { scope: 'col' }, text)))),
    h('tbody', {}, innings.batting.map((line) => h('tr', {},
      h('th', { scope: 'row' }, line.name || `Batter ${line.batter + 1}`),
      h('td', {}, line.how_out),
      h('td', {}, line.runs), h('td', {}, line.balls), h('td', {}, line.fours), h('td', {}, line.sixes)))),
  );
  const bowling = h('table', { class: 'card-table' },
    h('caption', {}, 'Bowling'),
    h('thead', {}, h('tr', {}, ['Bowler', 'O', 'M', 'R', 'W'].map((text) => h('th', { scope: 'col' }, text)))),
    h('tbody', {}, innings.bowling.map((line) => h('tr', {},
      h('th', { scope: 'row' }, line.bowler),
      h('td', {}, line.overs), h('td', {}, line.maidens), h('td', {}, line.runs), h('td', {}, line.wickets)))),
  );
  const falls = innings.fall_of_wickets.map((fall) => `${fall.score}-${fall.wicket} (${fall.overs})`).join(', ');
  return h('section', { class: 'innings-card', 'data-testid': `innings-${innings.number}` },
    h('h4', {}, `Innings ${innings.number}: ${seatName(innings.batting_seat)} `,
      h('span', { class: 'innings-total', 'data-testid': `innings-total-${innings.number}` }, inningsTotal(innings))),
    h('div', { class: 'table-scroll' }, batting),
    h('p', { class: 'muted' }, `Extras ${innings.extras}${falls ? ` · Fall of wickets: ${falls}` : ''}`),
    h('div', { class: 'table-scroll' }, bowling),
  );
}

function pointsNode(table, seatName) {
  return h('div', { class: 'table-scroll', 'data-testid': 'scorecard' }, h('table', { class: 'card-table' },
    h('caption', {}, 'Points'),
    h('thead', {}, h('tr', {}, ['Place', 'Player', 'Runs', 'Wickets', 'Championship', 'Unused Xp', 'Total'].map((text) => h('th', { scope: 'col' }, text)))),
    h('tbody', {}, [...table]
      .sort((a, b) => (a.placing ?? 99) - (b.placing ?? 99))
      .map((row) => h('tr', { class: row.eliminated ? 'muted' : '' },
        h('td', {}, row.placing ?? '-'),
        h('th', { scope: 'row' }, seatName(row.seat), row.eliminated ? ' (eliminated)' : ''),
        h('td', {}, row.runs), h('td', {}, row.wickets), h('td', {}, row.championship),
        h('td', {}, row.unused_xp), h('td', { 'data-testid': `points-total-${row.seat}` }, row.total)))),
  ));
}
