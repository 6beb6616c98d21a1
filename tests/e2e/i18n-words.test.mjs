// The shared words in both languages, in Node with no browser: seat names and sentences about
// a seat (words.js), a match's result built from the server's Outcome (placings and the
// engines' summaries: wins by runs, wickets and an innings, ties, points, forfeits with their
// reasons, abandoned matches), errors from their codes (errors.js) and relative times.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';

const i18n = await import('../../web/js/i18n.js');
const { nameOfSeat, aboutSeat, resultLine, namedSeats, does } = await import('../../web/js/words.js');
const { errorText, errorName } = await import('../../web/js/errors.js');
const { ago } = await import('../../web/js/ratings.js');

afterEach(() => i18n.setLang('en'));

const seats = [{ seat: 0, player_id: 'p1', name: 'Ann', bot: false }, { seat: 1, player_id: null, name: null, bot: true }];
const name = (seat) => nameOfSeat(seats, seat, { me: 0 });

test('seats by name in both languages: "you", "the bot", "player N", "bot N"', () => {
  i18n.setLang('en');
  assert.equal(nameOfSeat(seats, 0, { me: 0 }), 'you');
  assert.equal(nameOfSeat(seats, 1, { capital: true }), 'The bot');
  assert.equal(nameOfSeat([], 2), 'player 3');
  assert.equal(nameOfSeat([{ bot: true }, { bot: true }, { bot: true }], 1), 'bot 2');
  i18n.setLang('pt-BR');
  assert.equal(nameOfSeat(seats, 0, { me: 0 }), 'você');
  assert.equal(nameOfSeat(seats, 1, { capital: true }), 'O bot');
  assert.equal(nameOfSeat(seats, 0), 'Ann');
  assert.equal(nameOfSeat([], 2), 'jogador 3');
  assert.equal(nameOfSeat([{ bot: true }, { bot: true }, { bot: true }], 1), 'bot 2');
  assert.equal(namedSeats('Seat 1 won', (s) => nameOfSeat(seats, s)), 'O bot won', 'the old helper still names seats');
  assert.equal(does('você', 'rolls', 'roll'), 'você roll', 'the old English helper knows "você" is the viewer');
});

test('a sentence about a seat is one message per case, the name a placeholder', () => {
  i18n.setLang('en');
  assert.equal(aboutSeat('common.match.clockRanOut', name(0)), 'Your turn clock ran out: the server played the default move for you.');
  assert.equal(aboutSeat('common.match.clockRanOut', 'Jemimah'), 'The turn clock of Jemimah ran out: the server played the default move.');
  i18n.setLang('pt-BR');
  assert.equal(aboutSeat('common.match.clockRanOut', name(0)), 'O seu tempo acabou: o servidor fez a jogada padrão por você.');
  assert.equal(aboutSeat('common.match.clockRanOut', name(1)), 'O bot ficou sem tempo: o servidor fez a jogada padrão.');
});

test('results from the Outcome in English, as the engines word them', () => {
  i18n.setLang('en');
  assert.equal(resultLine({ placings: [1, 2], summary: 'Seat 0 won by 12 runs' }, name), 'You won by 12 runs');
  assert.equal(resultLine({ placings: [2, 1], summary: 'Seat 1 won by 3 wickets' }, name), 'The bot won by 3 wickets');
  assert.equal(resultLine({ placings: [1, 2], summary: 'Seat 0 won by an innings and 5 runs (120 to 115)' }, name), 'You won by an innings and 5 runs (120 to 115)');
  assert.equal(resultLine({ placings: [2, 1], summary: 'Seat 1 won by 1 wicket (100 to 99)' }, name), 'The bot won by 1 wicket (100 to 99)');
  assert.equal(resultLine({ placings: [1, 1], summary: 'Tie on 88 runs' }, name), 'Tie on 88 runs');
  assert.equal(resultLine({ placings: [2, 1], summary: 'Seat 0 forfeited (left the match)' }, name), 'You forfeited (left the match)');
  assert.equal(resultLine({ placings: [1, 2], summary: 'Seat 1 forfeited (disconnected)' }, name), 'The bot forfeited (disconnected)');
  assert.equal(resultLine({ placings: [1, 1], summary: 'No result: abandoned (server shutdown)' }, name), 'No result: the match was abandoned.');
  assert.equal(resultLine({ placings: [2, 1, 3], summary: 'seat 1 wins with 7 points' }, (s) => ['Ann', 'Bea', 'Cy'][s]), 'Bea wins with 7 points');
  assert.equal(resultLine({ placings: [1, 2, 1], summary: 'seat 0 and seat 2 share the win with 7 points' }, (s) => ['Ann', 'Bea', 'Cy'][s]), 'Ann and Cy share the win with 7 points');
  assert.equal(resultLine({ placings: [2, 1], summary: 'something new' }, name), 'The bot won', 'an unknown summary: the placings say who won');
  assert.equal(resultLine('Seat 1 won', name), 'The bot won', 'no structure: the server text with the seats named');
  assert.equal(resultLine(null, name), 'The match is over.');
});

test('results from the Outcome in Portuguese', () => {
  i18n.setLang('pt-BR');
  assert.equal(resultLine({ placings: [1, 2], summary: 'Seat 0 won by 12 runs' }, name), 'Você venceu por 12 corridas');
  assert.equal(resultLine({ placings: [2, 1], summary: 'Seat 1 won by 1 wickets' }, name), 'O bot venceu por 1 wicket');
  assert.equal(resultLine({ placings: [1, 2], summary: 'Seat 0 won by an innings and 1 run (120 to 119)' }, name), 'Você venceu por uma entrada e 1 corrida (120 a 119)');
  assert.equal(resultLine({ placings: [1, 1], summary: 'Match tied at 1234 runs each' }, name), 'Empate em 1.234 corridas');
  assert.equal(resultLine({ placings: [2, 1], summary: 'Seat 0 forfeited (left the match)' }, name), 'Você desistiu (saiu da partida)');
  assert.equal(resultLine({ placings: [2, 1], summary: 'Seat 0 forfeited (a reason this page never heard of)' }, name), 'Você desistiu');
  assert.equal(resultLine({ placings: [1, 1], summary: 'No result: abandoned by an operator (spam)' }, name), 'Sem resultado: abandonada por um operador.');
  assert.equal(resultLine({ placings: [1, 2, 1], summary: 'seat 0 and seat 2 share the win with 1 points' }, (s) => ['Ann', 'Bea', 'Cy'][s]), 'Ann e Cy dividem a vitória com 1 ponto');
  assert.equal(resultLine({ placings: [1, 1, 1] }, name), 'Empate');
  assert.equal(resultLine(null, name), 'A partida acabou.');
});

test('errors from their codes: a game\'s reason first, then the socket or HTTP code, network, unknown', () => {
  i18n.setLang('pt-BR');
  assert.equal(errorText({ code: 'illegal_move', reason: 'card_not_in_hand', message: 'card 3 is not in the bowler\'s hand' }, 'ctg'), 'Essa carta não está na mão do Arremessador.');
  assert.equal(errorText({ code: 'illegal_move', reason: 'no_such_reason' }, 'ctg'), 'As regras não permitem essa jogada agora.');
  assert.equal(errorText({ status: 400, code: 'bad_options', message: 'invalid options: format' }), 'Essas opções não valem para este jogo.');
  assert.equal(errorText({ status: 409, code: 'not_seated' }), 'Você não tem lugar nesta partida.', 'HTTP codes read from the HTTP list');
  assert.equal(errorText({ code: 'not_seated' }), 'Espectadores não podem jogar.', 'socket codes from the socket list');
  assert.equal(errorText({ status: 0, code: 'network', message: 'The server cannot be reached (Failed to fetch).' }), 'Não foi possível falar com o servidor: confira a conexão e tente de novo.');
  assert.equal(errorText({ code: 'offline' }), 'Sem conexão: espere reconectar e tente de novo.');
  assert.equal(errorText({ status: 418, code: 'teapot', message: 'short and stout' }), 'Algo deu errado: short and stout');
  assert.equal(errorName({ code: 'illegal_move' }), 'jogada ilegal');
  i18n.setLang('en');
  assert.equal(errorText({ code: 'illegal_move', reason: 'illegal_field' }, 'ctg').includes('9 fielders'), true);
  assert.equal(errorName({ code: 'illegal_move' }), 'illegal move');
  assert.equal(errorText({ status: 401, code: 'invalid_credentials' }), 'Unknown login name or wrong password.');
});

test('relative times by Intl.RelativeTimeFormat', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  i18n.setLang('en');
  assert.equal(ago('2026-01-01T11:57:00Z', now), '3 minutes ago');
  assert.equal(ago('2025-12-31T12:00:00Z', now), 'yesterday');
  i18n.setLang('pt-BR');
  assert.equal(ago('2026-01-01T11:57:00Z', now), 'há 3 minutos');
  assert.equal(ago('2025-12-31T12:00:00Z', now), 'ontem');
  assert.equal(ago('not a date', now), '');
});

test('adjourning: the commentary line of each change and the refusals from their reasons, in both languages', async () => {
  const { adjournmentLine, resumesText } = await import('../../web/js/adjourn.js');
  const named = (seat) => nameOfSeat([{ seat: 0, player_id: 'p1', name: 'Ann' }, { seat: 1, player_id: 'p2', name: 'Raj' }], seat, { me: 0 });
  const at = '2026-12-04T18:00:00Z';
  i18n.setLang('en');
  assert.equal(adjournmentLine({ action: 'offered', seat: 0 }, named), 'You offered to adjourn the match.');
  assert.match(adjournmentLine({ action: 'offered', seat: 1, resume_at: at }, named), /^Raj offered to adjourn the match, to resume at .*2026.*\.$/);
  assert.equal(adjournmentLine({ action: 'declined', seat: 1 }, named), 'Raj declined to adjourn.');
  assert.equal(adjournmentLine({ action: 'withdrawn', seat: 0 }, named), 'You withdrew your offer to adjourn.');
  assert.equal(adjournmentLine({ action: 'agreed', seat: 1 }, named), 'Raj agreed: the match is adjourned.');
  assert.equal(adjournmentLine({ action: 'resumed' }, named), 'The match resumed.');
  assert.equal(adjournmentLine({ action: 'something_new', seat: 1 }, named), null, 'an action this client does not know tells nothing');
  assert.equal(resumesText({}, 2), 'The match resumes when both players are back.');
  assert.equal(resumesText({}, 1), 'The match resumes when you come back to it.');
  assert.match(resumesText({ resume_at: at }, 3), /^The match resumes when every player is back, or at .*2026.*\.$/);
  assert.equal(errorText({ code: 'adjourn_refused', reason: 'too_soon' }, 'ctg'), 'Your offer to adjourn was declined a moment ago: play a few balls first.');
  assert.equal(errorText({ code: 'adjourn_refused', reason: 'match_over' }, 'ctg'), 'The match is over.');
  assert.equal(errorText({ code: 'adjourn_refused', reason: 'a_new_reason' }, 'ctg'), 'The server refused that about adjourning.');
  assert.equal(errorText({ code: 'match_adjourned' }, 'ctg'), 'The match is adjourned: play resumes when the players are back.');
  assert.equal(errorName({ code: 'adjourn_refused' }), 'adjournment');
  i18n.setLang('pt-BR');
  assert.equal(adjournmentLine({ action: 'offered', seat: 0 }, named), 'Você propôs adiar a partida.');
  assert.match(adjournmentLine({ action: 'offered', seat: 1, resume_at: at }, named), /^Raj propôs adiar a partida, com retomada em .*2026.*\.$/);
  assert.equal(adjournmentLine({ action: 'declined', seat: 0 }, named), 'Você recusou o adiamento.');
  assert.equal(adjournmentLine({ action: 'withdrawn', seat: 1 }, named), 'Raj retirou a proposta de adiamento.');
  assert.equal(adjournmentLine({ action: 'agreed', seat: 0 }, named), 'Você aceitou: a partida está adiada.');
  assert.equal(adjournmentLine({ action: 'resumed' }, named), 'A partida foi retomada.');
  assert.equal(resumesText({}, 2), 'A partida será retomada quando os dois jogadores voltarem.');
  for (const reason of ['no_offer', 'own_offer', 'already_offered', 'adjourned', 'too_soon', 'resume_at_past', 'spectator', 'match_over']) {
    i18n.setLang('en');
    const english = errorText({ code: 'adjourn_refused', reason });
    i18n.setLang('pt-BR');
    const portuguese = errorText({ code: 'adjourn_refused', reason });
    assert.notEqual(portuguese, english, `${reason} has its own Portuguese`);
    assert.doesNotMatch(portuguese, /\b(the|you|your|is|offer|adjourn)\b/i, `${reason}: ${portuguese}`);
  }
  assert.equal(errorText({ code: 'match_adjourned' }), 'A partida está adiada: o jogo recomeça quando os jogadores voltarem.');
});
