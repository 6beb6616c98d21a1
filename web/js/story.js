// The story of a match: every event described from the state as it was at that event.
//
// One function for the live page, the watch page and the replay: `createStory` folds the
// events in order, from the match's start (the socket's, the log's, or both), and describes
// each one from what the fold holds then, never from the current or final view, so a
// reloaded page and the replay say exactly what the live page said.
//
// A game module may export `story: { init(base, options), apply(state, event) }`: the state
// it folds (for CTG a view-shaped object the board can draw: batting side, bowler, striker,
// over cards, this ball's dice, the score). `init` takes from `base` (any view of the match)
// only what never changes in a match (CTG: the two squads and the format). An optional
// `reference(data)` takes the game's data files where the fold needs them and no event
// carries them (Wicketz: the cards' rows); the replay calls it first. `describe(event,
// ctx)` reads `ctx.story`, the state with the event applied. Games without a `story`
// describe from the event alone.

import { summary } from './dom.js';
import { t } from './i18n.js';

/**
 * @param module the game's module (catalog MODULES[game])
 * @param base any view of the match, for its constants (may be null until one arrives)
 * @param seatName seat -> "you", a player's name, "the bot"
 */
export function createStory(module, { base = null, options = null, seatName = (seat) => t('common.seat.player', { n: Number(seat) + 1 }) } = {}) {
  const fold = module && module.story;
  const story = {
    state: fold ? fold.init(base || {}, options || {}) : {},
    // Figures a game tallies beside the state (CTG's batting and bowling cards).
    ui: {},
    told: 0,
    /** Applies one event and describes it: the line, or null when it says nothing. */
    tell(event) {
      if (!event || typeof event !== 'object') return null;
      story.told += 1;
      if (fold) {
        try {
          story.state = fold.apply(story.state, event) || story.state;
        } catch (err) {
          console.error('story', err);
        }
      }
      let text;
      try {
        text = module ? module.describe(event, { story: story.state, view: story.state, ui: story.ui, seat: null, spectate: true, seatName }) : undefined;
      } catch {
        text = null;
      }
      if (text === undefined) text = summary(event);
      if (!text) return null;
      return typeof text === 'string' ? text.charAt(0).toUpperCase() + text.slice(1) : text;
    },
    /** A copy of the state and tallies now (the replay keeps one per ball). */
    snapshot() {
      return { state: structuredClone(story.state), ui: structuredClone(story.ui) };
    },
  };
  return story;
}
