// The replay viewer (#/replay/<match id>/<ball>): steps through a finished match ball by
// ball from its log (GET /v1/matches/{id}/log), with the running score, that ball's
// commentary, and the match's scorecard alongside. The address always names the ball on
// screen, so a copied link opens the replay at the same moment.
//
// The running score is folded here from the log's events, independently of the server's
// scorecard fold, so the two can be compared (the e2e test checks the last ball against it).

import { h, mount, pick, fill, proper } from './dom.js';
import { api } from './api.js';
import { GAMES, MODULES } from './catalog.js';
import { scorecardNode, inningsTotal } from './scorecard.js';
import { nameOfSeat, resultLine } from './words.js';
import { t } from './i18n.js';
import { errorText } from './errors.js';
import { createStory } from './story.js';

const AUTOPLAY_MS = 900;

/**
 * The running score is the game module's `replay` fold: which event ends a step ("a ball";
 * an over in Champions, which has no balls), and how an event moves the score, with the
 * helpers below. The score is {innings: [{number, batting, total, wickets, legal}]} for the
 * cricket games and {seats: {seat: {runs, wickets}}} for Champions.
 */
function openInnings(score, batting) {
  score.innings ||= [];
  score.innings.push({ number: score.innings.length + 1, batting_seat: batting, total: 0, wickets: 0, legal: 0 });
}

function bowl(score, runs, legal, wicket) {
  const innings = score.innings && score.innings[score.innings.length - 1];
  if (!innings) return;
  innings.total += runs;
  innings.legal += legal ? 1 : 0;
  innings.wickets += wicket ? 1 : 0;
}

export function overs(legal) {
  return `${Math.floor(legal / 6)}.${legal % 6}`;
}

/**
 * The steps of a replay: step 0 is everything before the first ball, step k ends with the
 * k-th ball (the last step also carries what follows it: the innings close, the result).
 * Each step has its events' commentary and the score after it.
 */
const HELPERS = { openInnings, bowl };

export function buildSteps(game, events, describe, scene = () => null) {
  const fold = MODULES[game] && MODULES[game].replay;
  const score = {};
  // Step 0 is the empty table; the first ball's step opens at once, so it carries what led
  // up to it (the toss, the line-ups) and ends with the ball itself.
  const steps = [{ lines: [], score: structuredClone(score) }, { lines: [], score: structuredClone(score) }];
  for (const event of events) {
    if (fold) fold.apply(score, event, HELPERS);
    const text = describe(event);
    const step = steps[steps.length - 1];
    if (text) step.lines.push(text);
    if (fold && event.type === fold.step) {
      step.score = structuredClone(score);
      step.scene = scene();
      step.ball = true;
      steps.push({ lines: [], score: structuredClone(score) });
    }
  }
  // What follows the last ball belongs to it; an empty tail step is dropped.
  const tail = steps[steps.length - 1];
  if (steps.length > 1) {
    steps.pop();
    const last = steps[steps.length - 1];
    last.lines.push(...tail.lines);
    last.score = tail.score;
    last.scene = scene() || last.scene;
  }
  return steps;
}

export function showReplay(root, { matchId, ball }) {
  let disposed = false;
  let timer = null;
  let steps = [];
  let at = 0;
  let info = null;
  const els = {
    title: h('h2', {}, t('common.replay.title')),
    position: h('div', { class: 'replay-position', 'data-testid': 'replay-position', 'aria-live': 'polite' }),
    score: h('div', { class: 'replay-score', 'data-testid': 'replay-score' }),
    lines: h('ol', { class: 'commentary', 'data-testid': 'replay-commentary' }),
    slider: h('input', { type: 'range', min: 0, max: 0, value: 0, 'aria-label': t('common.replay.ball'), 'data-testid': 'replay-slider' }),
    play: h('button', { 'data-testid': 'replay-play', 'aria-label': t('common.replay.play') }, t('common.replay.play')),
    card: h('div', { class: 'replay-card' }, h('p', { class: 'muted' }, t('common.loadingScorecard'))),
    share: h('a', { class: 'mono small', 'data-testid': 'replay-link' }),
    // The match as it stood at this ball, drawn by the match screen's own code.
    headline: h('div', { class: 'scorebar', 'data-testid': 'replay-headline' }),
    dice: h('div', { class: 'dice-panel', 'data-testid': 'replay-dice' }),
    board: h('div', { class: 'board replay-board', 'data-testid': 'replay-board' }),
  };
  const button = (text, labelText, testid, onclick) =>
    h('button', { 'aria-label': labelText, title: labelText, 'data-testid': testid, onclick }, text);

  mount(root, h('div', { class: 'screen replay', 'data-testid': 'replay' },
    h('section', { class: 'card replay-main' },
      h('div', { class: 'title' }, h('a', { href: '#/', class: 'back', title: t('common.lobby.title') }, '←'), els.title),
      els.position,
      els.score,
      h('div', { class: 'replay-controls', role: 'group', 'aria-label': t('common.replay.controls') },
        button(t('common.replay.firstButton'), t('common.replay.first'), 'replay-first', () => go(0)),
        button(t('common.replay.prevButton'), t('common.replay.prev'), 'replay-prev', () => go(at - 1)),
        els.play,
        button(t('common.replay.nextButton'), t('common.replay.next'), 'replay-next', () => go(at + 1)),
        button(t('common.replay.lastButton'), t('common.replay.last'), 'replay-last', () => go(steps.length - 1)),
      ),
      els.slider,
      h('p', { class: 'muted small' }, t('common.replay.keys'), ' ', els.share),
      els.headline,
      els.dice,
      h('h3', {}, t('common.match.commentary')),
      els.lines,
    ),
    els.board,
    h('section', { class: 'card replay-side' }, h('h3', {}, t('common.lobby.scorecard')), els.card),
  ));

  els.slider.addEventListener('input', () => go(Number(els.slider.value)));
  els.play.addEventListener('click', () => (timer ? stop() : play()));

  function onKey(event) {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = { ArrowLeft: () => go(at - 1), ArrowRight: () => go(at + 1), Home: () => go(0), End: () => go(steps.length - 1), ' ': () => (timer ? stop() : play()) };
    const action = keys[event.key];
    if (!action) return;
    // Space on a focused button would also click it: one action per key press.
    if (event.key === ' ' && event.target instanceof HTMLButtonElement) return;
    event.preventDefault();
    action();
  }
  document.addEventListener('keydown', onKey);

  function play() {
    if (at >= steps.length - 1) go(0);
    els.play.textContent = t('common.replay.pause');
    els.play.setAttribute('aria-label', t('common.replay.pause'));
    timer = setInterval(() => {
      if (at >= steps.length - 1) stop();
      else go(at + 1);
    }, AUTOPLAY_MS);
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    els.play.textContent = t('common.replay.play');
    els.play.setAttribute('aria-label', t('common.replay.play'));
  }

  const seatName = (seat) => nameOfSeat(info && info.seats, seat);

  function go(index) {
    if (steps.length === 0) return;
    at = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[at];
    const balls = steps.length - 1;
    els.slider.value = String(at);
    els.position.textContent = at === 0 ? t('common.replay.before', { count: balls }) : t('common.replay.ballOf', { n: at, count: balls });
    drawScore(step.score);
    drawScene(step.scene);
    mount(els.lines, step.lines.map((text) => h('li', { class: 'line' }, text)));
    const address = `#/replay/${matchId}/${at}`;
    if (location.hash !== address) history.replaceState(null, '', address);
    els.share.href = address;
    els.share.textContent = location.href;
  }

  /** The board, the score line and the dice at this ball, from the story's state then. */
  function drawScene(scene) {
    const module = MODULES[info && pick(info, 'game')];
    const parts = [[els.headline, 'headline'], [els.dice, 'dicePanel'], [els.board, 'board']];
    for (const [el, part] of parts) {
      let node = null;
      if (scene && module && module[part]) {
        try {
          const ctx = { seat: null, spectate: true, ui: structuredClone(scene.ui), view: scene.state, story: scene.state, info, seatName, send: () => false, redraw() {} };
          node = module[part](scene.state, ctx);
        } catch (err) {
          console.error(err);
        }
      }
      el.hidden = !node;
      mount(el, node);
    }
  }

  function drawScore(score) {
    if (score.innings) {
      mount(els.score, score.innings.length === 0
        ? h('p', { class: 'muted' }, t('common.replay.noInnings'))
        : score.innings.map((innings, index) => h('div', {
            class: ['score-line', index === score.innings.length - 1 && 'current'],
            'data-testid': `replay-innings-${innings.number}`,
          },
          h('span', {}, t('common.card.innings', { n: innings.number, name: seatName(innings.batting_seat) })),
          h('strong', { 'data-testid': `replay-total-${innings.number}` },
            inningsTotal({ total: innings.total, wickets: innings.wickets, overs: overs(innings.legal) })))));
      return;
    }
    const seats = Object.entries(score.seats || {});
    const fold = MODULES[info && pick(info, 'game')] && MODULES[info && pick(info, 'game')].replay;
    mount(els.score, seats.length === 0
      ? h('p', { class: 'muted' }, fold && fold.step === 'over_resolved' ? t('common.replay.noOver') : t('common.replay.noBall'))
      : seats.map(([seat, line]) => h('div', { class: 'score-line' },
          h('span', {}, seatName(Number(seat))), h('strong', {}, t('common.replay.runsWickets', { runs: t('common.replay.runs', { count: line.runs }), wickets: t('common.replay.wickets', { count: line.wickets }) })))));
  }

  async function load() {
    try {
      const [match, log, card] = await Promise.all([api.getMatch(matchId), api.log(matchId), api.scorecard(matchId)]);
      if (disposed) return;
      info = match;
      const game = pick(match, 'game');
      mount(els.title, fill(t('common.replay.titleGame'), { game: proper((GAMES[game] && GAMES[game].name) || game) }));
      if (match.status !== 'finished') {
        mount(els.position, h('p', { class: 'error', role: 'alert' }, t('common.replay.notFinished'), ' ', h('a', { href: `#/watch/${matchId}` }, t('common.replay.watchLive'))));
        mount(els.card);
        return;
      }
      const module = MODULES[game];
      // A game's fold may need its data files (Wicketz: the cards' rows, since an event
      // names a dealt card by id). Without them the replay still draws everything else.
      if (module && module.story && module.story.reference) {
        await api.gameRules(game).then((answer) => module.story.reference(answer.data)).catch(() => null);
        if (disposed) return;
      }
      // The story (story.js) describes each event from the state as it was then: the same
      // function as the live page's, so the two say the same, line for line.
      const story = createStory(module, { base: card.view, options: match.options, seatName });
      const describe = (event) => story.tell(event);
      const events = asArray(log.entries).filter((entry) => entry.kind === 'event').map((entry) => entry.payload);
      steps = buildSteps(game, events, describe, () => (module && module.story ? story.snapshot() : null));
      els.slider.max = String(steps.length - 1);
      mount(els.card,
        card.result ? h('p', { class: 'final-result', 'data-testid': 'replay-result' }, resultLine(card.result, (seat) => nameOfSeat(info && info.seats, seat, { capital: true }))) : null,
        scorecardNode(card.card, seatName));
      const requested = Number.isInteger(ball) ? ball : 0;
      go(requested);
    } catch (err) {
      mount(els.position, h('p', { class: 'error', role: 'alert' }, errorText(err)));
    }
  }

  load();
  return {
    get steps() { return steps; },
    get at() { return at; },
    dispose() {
      disposed = true;
      stop();
      document.removeEventListener('keydown', onKey);
    },
  };
}

function asArray(x) {
  if (Array.isArray(x)) return x;
  if (x && typeof x === 'object') return Object.values(x);
  return [];
}
