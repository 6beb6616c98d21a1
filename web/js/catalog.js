// The games this server runs, from GET /v1/games, and each game's browser module, loaded
// from where the catalogue says (/js/games/<id>.js). Nothing in the client lists games: a
// game the server registers (with its module shipped in its own folder) appears in the
// lobby, the live list, the leaderboards, the match screen and the replay as it is.
//
// Game modules export { board, decision, describe, help } and optionally
//   optionFields({ field, select, number }) -> the lobby's option rows,
//   replay: { step, apply(score, event, { openInnings, bowl }) } -> the replay's running score,
//   describeOptions(options) -> "T10", "3 players": the live list's format label.

import { api } from './api.js';

/** By id: { name, seats, blurb, hardBot, levels, pools, defaults }. Filled by loadCatalog. */
export const GAMES = {};
/** By id: the game's module (its default export). */
export const MODULES = {};

let loading = null;

/** Reads the catalogue and imports every game's module, once. */
export function loadCatalog() {
  loading ||= (async () => {
    const catalog = await api.games();
    await Promise.all((catalog.games || []).map(async (game) => {
      GAMES[game.id] = {
        name: game.name,
        seats: game.players,
        blurb: game.blurb,
        levels: game.bot_levels || [],
        hardBot: (game.bot_levels || []).includes('hard'),
        pools: game.rating_pools || [],
        defaults: game.default_options || {},
      };
      try {
        MODULES[game.id] = (await import(game.client_module)).default;
      } catch (err) {
        // The game still plays on the generic screen (raw view, legal commands).
        console.error(`the module of ${game.id} did not load`, err);
      }
    }));
  })();
  return loading;
}

/** The first game of the catalogue, for pages opened without one. */
export const firstGame = () => Object.keys(GAMES)[0] || 'ctg';
