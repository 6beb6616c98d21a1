// Mock sessions: the game screens fed with views shaped like the engines' (for design work
// and screenshots without a server). Open #/mock/ctg, #/mock/wicketz or #/mock/champions.

const VIEWS = {
  ctg: {
    format: 't10',
    innings: 1,
    batting: 0,
    pitch: 'green',
    score: { runs: 37, wickets: 2, balls: 27 },
    target: null,
    advantage: 2,
    striker: 0,
    batters: [
      { name: 'Ash Carver', runs: 21, balls: 14, confidence: 3, attitude: 'aggressive', role: 'batter' },
      { name: 'Cal Mendez', runs: 9, balls: 8, confidence: 1, attitude: 'defensive', role: 'batter' },
    ],
    bowler: { name: 'Rex Dunn', bowling: 'pace' },
    field: 0x0012_2131,
    over_cards: [{ express: 2, effect: 'play_on' }, { express: 1, effect: 'howzat' }, { express: 4, effect: 'great_catch' }, null, null, null],
    ball_in_over: 3,
    last_ball: { bowler_roll: 2, batter_roll: 5, distance: 4, bounce: '2G', zone: 3, final_distance: 6, summary: 'Driven straight, two runs' },
    skills: { reroll_to_hit: true, reroll_distance: false, reroll_bounce: true, add_one: true, roll_d8: true },
    drs: true,
    asked: { choose_zone: { attitude: 'aggressive' } },
  },
  wicketz: { note: 'mock wicketz view' },
  champions: { note: 'mock champions view' },
};

export function mockSession(game, { onUpdate }) {
  const view = VIEWS[game] || {};
  setTimeout(() => onUpdate({ kind: 'snapshot', game, seat: 0, view, pending: [0], deadline_ms: 45000, events: [{ mock: 'Ash Carver drives for two' }] }), 0);
  return {
    send(command) {
      onUpdate({ kind: 'update', events: [{ sent: command }] });
      return Promise.resolve({ kind: 'ack' });
    },
  };
}
