// In Node, no browser: the competitions page's pure decisions (js/competitions.js): what a
// player can do about each fixture of theirs (Ready to play, waiting, Play now, a result, a
// bye, a side not known yet), the names of knockout rounds, and the net run rate as the table
// writes it in English and Portuguese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { REPO } from './server.mjs';

const i18n = await import(join(REPO, 'web/js/i18n.js'));
const comp = await import(join(REPO, 'web/js/competitions.js'));

const running = (fixtures) => ({ status: 'running', fixtures, entries: [] });
const fixture = (extra) => ({ fixture_id: 1, round: 1, slot: 0, home: 'ana', away: 'bea', status: 'waiting', home_ready: false, away_ready: false, ...extra });

test('what a player can do about a fixture', () => {
  const f = fixture();
  const c = running([f]);
  assert.equal(comp.fixtureAction(c, f, 'ana'), 'ready', 'neither side ready');
  assert.equal(comp.fixtureAction(c, f, 'carla'), null, 'not a fixture of theirs');
  assert.equal(comp.fixtureAction(c, fixture({ status: 'ready', home_ready: true }), 'ana'), 'waiting', 'ready, the other side is not');
  assert.equal(comp.fixtureAction(c, fixture({ status: 'ready', home_ready: true }), 'bea'), 'ready', 'the other side is ready, not this one');
  assert.equal(comp.fixtureAction(c, fixture({ status: 'live', match_id: 'm' }), 'bea'), 'play');
  assert.equal(comp.fixtureAction(c, fixture({ status: 'finished', match_id: 'm', winner: 'ana' }), 'bea'), 'result');
  assert.equal(comp.fixtureAction(c, fixture({ away: null, status: 'bye', winner: 'ana' }), 'ana'), 'bye');
  assert.equal(comp.fixtureAction(c, fixture({ away: null }), 'ana'), 'unknown', 'a knockout side not known yet');
  assert.equal(comp.fixtureAction({ ...c, status: 'open' }, f, 'ana'), null, 'nothing to do before the start');
  assert.equal(comp.opponentOf(f, 'ana'), 'bea');
  assert.equal(comp.opponentOf(f, 'bea'), 'ana');
  const later = fixture({ fixture_id: 2, round: 2, home: 'bea', away: 'ana' });
  const other = fixture({ fixture_id: 3, home: 'carla', away: 'dora' });
  assert.deepEqual(comp.fixturesOf(running([later, other, f]), 'ana').map((x) => x.fixture_id), [1, 2], 'theirs, in round order');
  assert.equal(comp.isEntered({ entries: [{ player_id: 'ana' }] }, 'ana'), true);
  assert.equal(comp.isEntered({ entries: [{ player_id: 'ana' }] }, 'bea'), false);
});

test('knockout rounds by name, league rounds by number', () => {
  i18n.setLang('en');
  assert.equal(comp.roundName(3, 3), 'Final');
  assert.equal(comp.roundName(2, 3), 'Semi-finals');
  assert.equal(comp.roundName(1, 3), 'Quarter-finals');
  assert.equal(comp.roundName(1, 4), 'Round 1');
  assert.equal(comp.roundName(3, 3, 'league'), 'Round 3');
  i18n.setLang('pt-BR');
  assert.equal(comp.roundName(3, 3), 'Final');
  assert.equal(comp.roundName(2, 3), 'Semifinais');
  assert.equal(comp.roundName(1, 3), 'Quartas de final');
  assert.equal(comp.roundName(2, 5, 'league'), 'Rodada 2');
  i18n.setLang('en');
});

test('the net run rate as the table writes it', () => {
  i18n.setLang('en');
  assert.equal(comp.formatNrr(0.843), '+0.843');
  assert.equal(comp.formatNrr(-1.25), '-1.250');
  assert.equal(comp.formatNrr(0), '0.000');
  assert.equal(comp.formatNrr(12), '+12.000');
  i18n.setLang('pt-BR');
  assert.equal(comp.formatNrr(0.843), '+0,843');
  assert.equal(comp.formatNrr(-1.25), '-1,250');
  i18n.setLang('en');
  assert.equal(comp.formatNrr(null), '-', 'no value');
});

test('the kinds of competition by name', () => {
  i18n.setLang('en');
  assert.equal(comp.formatName({ format: 'league', double_round: false }), 'League');
  assert.equal(comp.formatName({ format: 'league', double_round: true }), 'League, double round');
  assert.equal(comp.formatName({ format: 'knockout' }), 'Knockout');
  i18n.setLang('pt-BR');
  assert.equal(comp.formatName({ format: 'knockout' }), 'Mata-mata');
  assert.equal(comp.formatName({ format: 'league', double_round: true }), 'Liga, turno e returno');
  i18n.setLang('en');
});
