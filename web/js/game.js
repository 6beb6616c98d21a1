// The match screen shared by the three games: header (whose turn, turn clock, connection),
// the game's own board and decision controls, the refusal banner and the commentary.
//
// Game modules (games/*.js) only turn a view into DOM; everything about the connection,
// resuming and errors lives here so each game gets it for free.

import { h, mount, pick, summary, jsonTree, fill, proper } from './dom.js';
import { api, savedPlayer } from './api.js';
import { Connection } from './conn.js';
import { toast, panel } from './ui.js';
import { scorecardNode } from './scorecard.js';
import { GAMES, MODULES } from './catalog.js';
import { mockSession } from './mock.js';
import { nameOfSeat, resultLine, aboutSeat } from './words.js';
import { yourTurn, notifyToggle, soundToggle } from './attention.js';
import { createStory } from './story.js';
import { loadLearn, referenceLink } from './learn.js';
import { t, list } from './i18n.js';
import { errorText, errorName } from './errors.js';
import { adjournStrip, adjournTools, adjournmentLine, normalise as normaliseAdjournment } from './adjourn.js';

const COMMENTARY_LIMIT = 400;

export function showMatch(root, { matchId, spectate = false, mock = null, tutorial = false }) {
  const s = {
    matchId,
    spectate,
    game: mock || null,
    info: null,
    view: null,
    legal: null,
    seat: null,
    deadline: null,
    pendingSeats: [],
    status: 'connecting',
    statusDetail: {},
    refusal: null,
    commentary: [],
    commentarySeq: -1,
    // Every event seen, by seq (socket and log), and the story folded from them in order.
    seen: new Map(),
    story: null,
    viewSeq: -1,
    awaitingUpdate: false,
    logLoaded: false,
    ui: {},
    busy: false,
    over: false,
    // The ball banner: the events since the last ball ended, and the ball on show.
    ballEvents: [],
    banner: null,
    bannerSeq: -1,
    notice: null,
    notFound: false,
    waiting: false,
    // The game's learn module (js/learn.js): the help line under a decision, and in a
    // tutorial the coach: what each kind of decision is the first time it comes up, and
    // why the last ball ended as it did.
    learn: null,
    learnFor: null,
    coach: { seen: new Set(), ask: null, askFor: null, ball: null },
    // Adjourning by agreement (js/adjourn.js): the server's current adjournment (null: playing,
    // nothing offered), the offer form, and an adjourn message on its way.
    adjournment: null,
    adjournForm: false,
    adjournBusy: false,
    adjournKey: -1,
  };
  let conn = null;
  let clockTimer = null;
  let disposed = false;

  const els = {
    header: h('div', { class: 'match-header' }),
    board: h('div', { class: 'board', 'data-testid': 'board' }),
    decision: h('div', { class: 'decision', 'data-testid': 'decision' }),
    decisionTitle: h('h3', {}, t('common.match.yourMove')),
    scorebar: h('div', { class: 'scorebar', 'data-testid': 'scorebar' }),
    banner: h('div', { class: 'ball-banner', 'data-testid': 'ball-banner', role: 'status', 'aria-live': 'polite', hidden: true }),
    notice: h('div', { class: 'notice', 'data-testid': 'clock-notice', role: 'alert', hidden: true }),
    dice: h('div', { class: 'dice-panel', 'data-testid': 'dice-panel' }),
    refusal: h('div', { class: 'refusal', role: 'alert', 'data-testid': 'refusal', hidden: true }),
    commentary: h('ol', { class: 'commentary', 'data-testid': 'commentary' }),
    raw: h('details', { class: 'raw' }),
    help: h('details', { class: 'raw help' }),
    coach: h('div', { class: 'coach', 'data-testid': 'coach', role: 'status', hidden: true }),
    decisionHelp: h('div', { class: 'decision-help', 'data-testid': 'decision-help', hidden: true }),
    final: h('section', { class: 'panel final', 'data-testid': 'final', hidden: true }),
    // Under the header, in the page's flow (never over the board or the question): an offer
    // to adjourn, the offer form, or the adjourned panel.
    adjourn: h('div', { class: 'adjourn-slot', 'data-testid': 'adjourn-slot', hidden: true }),
    // Below this ball's dice: Adjourn…, and the offer form it opens.
    adjournTools: h('div', { class: 'adjourn-tools', 'data-testid': 'adjourn-tools', hidden: true }),
  };
  mount(
    root,
    h('div', { class: 'screen match', 'data-testid': 'match-screen' },
      els.header,
      els.refusal,
      els.adjourn,
      h('div', { class: 'match-body' },
        // First on a phone and the right-hand column on a desktop: the score, the last ball,
        // the question with its controls, and this ball's dice, all in the first screenful.
        els.side = h('aside', { class: 'match-side' },
          els.scorebar,
          els.notice,
          els.banner,
          els.coach,
          h('section', { class: 'panel decision-panel', 'data-testid': 'decision-panel' }, els.decisionTitle, els.decision, els.decisionHelp),
          els.dice,
          els.adjournTools,
          panel(t('common.match.commentary'), els.commentary, { cls: 'commentary-panel' }),
          els.help,
          els.raw,
        ),
        h('div', { class: 'match-main' }, els.final, els.board),
      ),
    ),
  );

  const module = () => MODULES[s.game] || null;

  /** Sends a command; shows the engine's reason when refused. Returns true on ack. */
  async function send(command) {
    if (s.spectate) return false;
    s.busy = true;
    drawDecision();
    try {
      const ack = await conn.send(command);
      s.refusal = null;
      drawRefusal();
      if (ack && typeof ack.last_seq === 'number' && s.viewSeq >= ack.last_seq) return true;
      // The ack can overtake the update it caused: keep the controls locked until the new
      // view is in, so the same question is never answered twice.
      s.awaitingUpdate = true;
      clearTimeout(s.awaitTimer);
      s.awaitTimer = setTimeout(() => { s.awaitingUpdate = false; drawDecision(); }, 3000);
      return true;
    } catch (err) {
      s.refusal = err;
      drawRefusal();
      return false;
    } finally {
      s.busy = false;
      drawDecision();
    }
  }

  const ctx = () => ({
    seat: s.seat,
    spectate: s.spectate,
    legal: s.legal,
    ui: s.ui,
    busy: s.busy || s.awaitingUpdate,
    info: s.info,
    send,
    redraw: draw,
    seatName,
    view: s.view,
    story: s.story && s.story.state,
    pendingMine: !s.spectate && s.seat !== null && s.pendingSeats.includes(s.seat),
  });

  /** A seat as people say it: "you", "the bot", the player's name; never "seat 0". */
  function seatName(seat) {
    const seats = s.info && asArray(pick(s.info, 'seats', 'players'));
    return nameOfSeat(seats, seat, { me: s.spectate ? null : s.seat });
  }

  function drawHeader() {
    const g = GAMES[s.game];
    const myTurn = !s.spectate && s.seat !== null && s.pendingSeats.includes(s.seat) && !adjourned();
    let turnText;
    if (s.notFound) turnText = t('common.match.noSuchMatch');
    else if (s.over) turnText = t('common.match.over');
    else if (s.waiting) turnText = t('common.match.waitingPlayers');
    else if (!s.view) turnText = t('common.loading');
    else if (adjourned()) turnText = t('common.adjourn.title');
    else if (s.pendingSeats.length === 0) turnText = t('common.match.resolving');
    else if (myTurn) turnText = s.pendingSeats.length > 1 ? t('common.match.yourMoveSealed') : t('common.match.yourMove');
    else turnText = t('common.match.waitingFor', { names: list(s.pendingSeats.map(seatName)) });
    if (!s.left) yourTurn(myTurn && !s.over, { game: g ? g.name : 'crease' });
    const statusText = s.status === 'reconnecting' && s.statusDetail.attempt
      ? t('common.conn.reconnectingTry', { n: s.statusDetail.attempt })
      : ['connecting', 'open', 'reconnecting', 'closed', 'finished', 'mock', 'waiting', 'missing'].includes(s.status) ? t(`common.conn.${s.status}`) : s.status;
    const commitment = s.info && pick(s.info, 'seed_commitment', 'seed_sha256', 'commitment');
    mount(
      els.header,
      h('div', { class: 'title' },
        // A spectator most likely came from the live list, and goes back to pick another.
        s.spectate
          ? h('a', { href: '#/live', class: 'back', title: t('common.live.title'), 'data-testid': 'back-to-live' }, '←')
          : h('a', { href: '#/', class: 'back', title: t('common.lobby.title') }, '←'),
        h('h2', {}, g ? proper(g.name) : t('common.match.match')),
        h('span', { class: 'muted mono match-id', title: s.matchId }, String(s.matchId).slice(0, 8)),
        h('span', { class: 'role' }, s.spectate ? t('common.match.spectating') : s.seat !== null ? myTeam() : ''),
      ),
      h('div', { class: ['turn', myTurn && 'mine', s.over && 'over'], 'data-testid': 'turn' }, turnText),
      h('div', { class: 'clock', 'data-testid': 'clock' }, clockText()),
      h('div', { class: ['conn', `conn-${s.status}`], 'data-testid': 'connection', title: s.statusDetail.reason || '' }, h('span', { class: 'dot' }), statusText),
      commitment ? h('div', { class: 'fair muted mono', title: `sha256(seed) = ${commitment}` }, `seed sha256 ${String(commitment).slice(0, 12)}…`) : null,
      !s.spectate && !mock && !s.notFound && !s.over ? h('span', { class: 'switches' }, notifyToggle(), soundToggle()) : null,
    );
  }

  function adjourned() {
    return Boolean(s.adjournment && s.adjournment.state === 'adjourned') && !s.over;
  }

  /** A seated player of a running match with nothing offered may offer to adjourn. */
  function canOfferAdjourn() {
    return !s.spectate && s.seat !== null && !tutorial && !s.over && !s.notFound && !s.waiting && Boolean(s.view)
      && (!s.adjournment || s.adjournment.state === 'playing');
  }

  function openAdjournForm(open) {
    s.adjournForm = open;
    drawAdjourn();
    const focus = els.adjournTools.querySelector(open ? '[data-testid=adjourn-resume-at]' : '[data-testid=adjourn-open]');
    if (focus) focus.focus();
  }

  /** Offer, accept, decline or withdraw: the server answers with an ack or `adjourn_refused`. */
  async function adjournAct(action, resumeAt = null) {
    if (s.spectate || !conn || !conn.adjourn) return;
    s.adjournBusy = true;
    drawAdjourn();
    try {
      await conn.adjourn(action, resumeAt);
      s.refusal = null;
      if (action === 'offer') s.adjournForm = false;
    } catch (err) {
      s.refusal = err;
      // Refused for its time: the form stays open to pick another; else it closes, so the
      // question keeps its place.
      if (!(err && ['resume_at_past', 'resume_at_late'].includes(err.reason))) s.adjournForm = false;
    } finally {
      s.adjournBusy = false;
      drawRefusal();
      drawAdjourn();
    }
  }

  /** The people (not bots) at the table: "both players" or "every player" are back. */
  function people() {
    const seats = asArray(s.info && pick(s.info, 'seats'));
    return seats.filter((x) => x && x.player_id && !x.bot).length || 2;
  }

  function drawAdjourn() {
    let node = null;
    if (!s.over && !s.notFound && !s.waiting) {
      // Whom an offer waits for: the other seats by name ("Ann", "the bot").
      const seats = asArray(s.info && pick(s.info, 'seats')).map((x, i) => Number(x && x.seat !== undefined ? x.seat : i));
      const waiting = s.adjournment && Array.isArray(s.adjournment.waiting_for) ? s.adjournment.waiting_for : null;
      const otherSeats = waiting || seats.filter((seat) => seat !== s.seat);
      const others = (otherSeats.length ? otherSeats : [s.seat === 0 ? 1 : 0]).map(seatName);
      node = adjournStrip({
        adj: s.adjournment,
        seat: s.spectate ? null : s.seat,
        spectate: s.spectate,
        seatName,
        others,
        people: people(),
        busy: s.adjournBusy,
        link: `${location.origin}${location.pathname}#/${s.spectate ? 'watch' : 'match'}/${matchId}`,
        act: adjournAct,
      });
    }
    // Redraw only what changed, so a typed time or the focus survives other redraws.
    const key = node ? JSON.stringify([s.adjournment, s.adjournBusy, s.seat, s.spectate, people(), s.info && pick(s.info, 'seats'), document.documentElement.lang]) : '';
    if (els.adjourn.dataset.key !== key) {
      els.adjourn.dataset.key = key;
      els.adjourn.hidden = !node;
      mount(els.adjourn, node);
    }
    const canOffer = canOfferAdjourn();
    const toolsKey = canOffer ? JSON.stringify([s.adjournForm, s.adjournBusy, document.documentElement.lang]) : '';
    if (els.adjournTools.dataset.key !== toolsKey) {
      els.adjournTools.dataset.key = toolsKey;
      const tools = adjournTools({ canOffer, formOpen: s.adjournForm, busy: s.adjournBusy, act: adjournAct, openForm: openAdjournForm });
      els.adjournTools.hidden = !tools;
      mount(els.adjournTools, tools);
    }
  }

  /**
   * True when the latest adjournment told is this very change (the log, read as the frame
   * came, held it already): two changes in a row are never the same action by the same seat.
   */
  function alreadyTold(msg) {
    let latest = null;
    for (const [key, event] of s.seen) if (event && event.adjournment && (!latest || key > latest[0])) latest = [key, event.adjournment];
    return Boolean(latest && latest[1].action === msg.action && (latest[1].seat ?? null) === (msg.seat ?? null));
  }

  /**
   * An adjournment frame (or the snapshot's current adjournment): the strip, the clock (none
   * while adjourned), the header, and a commentary line for what happened.
   */
  function takeAdjournment(msg, { live = true } = {}) {
    const before = s.adjournment ? s.adjournment.state : 'playing';
    s.adjournment = normaliseAdjournment(msg);
    if (s.adjournment && s.adjournment.state === 'playing') s.adjournment = null;
    if (adjourned()) s.deadline = null;
    if (s.adjournment) s.adjournForm = false;
    if (live && msg && msg.action && !alreadyTold(msg)) {
      // The frame comes just before the update of its change and carries no seq: it is told
      // after the events seen so far, and the log's own entry replaces it on a page load.
      const base = Math.max(s.commentarySeq, s.viewSeq);
      const key = Math.max(Math.floor(base) + 0.5, s.adjournKey + 0.01);
      s.adjournKey = key;
      addCommentary([{ seq: key, adjournment: { ...msg } }]);
      // One frame tells a change's last step: a change of several (an offer the bot agrees
      // to at once) skips some, which the log holds in their places.
      const follows = { offered: ['playing', 'offered'], accepted: ['offered'], declined: ['offered'], withdrawn: ['offered'], agreed: ['offered'], resumed: ['adjourned'] };
      if (follows[msg.action] && !follows[msg.action].includes(before)) loadAdjournments();
    }
    // A snapshot's is drawn with the rest of the snapshot.
    if (live) draw();
  }

  /** Who this browser plays as: the team's name when the game has teams, else "You". */
  function myTeam() {
    const m = module();
    const team = m && m.teamName && s.view ? m.teamName(s.view, s.seat) : null;
    return team ? fill(t('common.match.youTeam'), { team: proper(team) }) : t('common.match.you');
  }

  function clockText() {
    if (!s.deadline || s.over) return '';
    const left = Math.max(0, Math.round((s.deadline - Date.now()) / 1000));
    return t('common.match.clock', { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` });
  }

  function tickClock() {
    const el = els.header.querySelector('.clock');
    if (el) {
      el.textContent = clockText();
      const left = s.deadline ? (s.deadline - Date.now()) / 1000 : 99;
      el.classList.toggle('urgent', left < 10 && !s.over);
    }
  }

  function drawRefusal() {
    if (!s.refusal) {
      els.refusal.hidden = true;
      return;
    }
    els.refusal.hidden = false;
    mount(
      els.refusal,
      h('strong', {}, t('common.match.refused', { code: errorName(s.refusal) }), ' '),
      h('span', { 'data-testid': 'refusal-message' }, errorText(s.refusal, s.game)),
      ' ',
      h('button', { class: 'link', onclick: () => { s.refusal = null; drawRefusal(); } }, t('common.dismiss')),
    );
  }

  function drawBoard() {
    const m = module();
    if (s.notFound || s.waiting) return;
    if (!s.view) {
      mount(els.board, h('p', { class: 'muted' }, s.status === 'open' ? t('common.match.waitingStart') : t('common.match.connecting')));
      return;
    }
    try {
      mount(els.board, m ? m.board(s.view, ctx()) : jsonTree(s.view));
    } catch (err) {
      console.error(err);
      mount(els.board, h('p', { class: 'error' }, t('common.match.cannotDraw', { reason: err.message })), jsonTree(s.view));
    }
  }

  function drawDecision() {
    const m = module();
    els.decisionTitle.textContent = s.over ? t('common.match.result') : s.spectate ? t('common.match.watching') : decisionTitle();
    if (s.notFound) {
      mount(els.decision, h('p', { class: 'muted' }, t('common.match.nothingHere')));
      return;
    }
    if (s.waiting) {
      mount(els.decision, h('p', { class: 'muted' }, t('common.match.startsWhenFull')));
      return;
    }
    if (s.over) {
      mount(els.decision, h('p', { 'data-testid': 'result' }, resultText()), afterMatchLinks());
      return;
    }
    if (s.spectate) {
      mount(els.decision, h('p', { class: 'muted' }, t('common.match.watchingHint')));
      return;
    }
    if (!s.view) {
      mount(els.decision, h('p', { class: 'muted' }, t('common.match.waitingStartSeats')));
      return;
    }
    if (adjourned()) {
      mount(els.decision, h('p', { class: 'muted', 'data-testid': 'adjourn-paused' }, t('common.adjourn.paused')));
      return;
    }
    let node = null;
    try {
      node = m ? m.decision(s.view, ctx()) : null;
    } catch (err) {
      console.error(err);
      node = h('p', { class: 'error' }, t('common.match.cannotDrawControls', { reason: err.message }));
    }
    mount(els.decision, node || genericDecision());
  }

  /** Fallback controls: the server's legal commands as buttons, or a raw JSON command box. */
  function genericDecision() {
    const asked = askedOf(s.view);
    const legal = Array.isArray(s.legal) ? s.legal : null;
    if (legal && legal.length) {
      return h('div', { class: 'generic' },
        asked ? h('p', {}, summary(asked)) : null,
        h('div', { class: 'buttons wrap' }, legal.slice(0, 60).map((cmd) =>
          h('button', { class: 'action', 'data-action': 'legal', disabled: s.busy, onclick: () => send(cmd) }, summary(cmd)))),
      );
    }
    if (!asked) return h('p', { class: 'muted' }, t('common.match.nothingAsked'));
    const box = h('textarea', { rows: 4, class: 'mono', placeholder: '{"...": ...}' });
    return h('div', { class: 'generic' },
      h('p', {}, fill(t('common.match.gameAsks'), { ask: h('strong', {}, summary(asked)) })),
      jsonTree(asked),
      h('label', {}, t('common.match.commandJson')),
      box,
      h('button', {
        onclick: () => {
          try {
            send(JSON.parse(box.value));
          } catch (err) {
            s.refusal = { code: 'bad_json', message: err.message };
            drawRefusal();
          }
        },
      }, t('common.match.send')),
    );
  }

  /** What a player does next: play again, replay the match, or go back to the lobby. */
  function afterMatchLinks() {
    const seated = !s.spectate && s.seat !== null && !mock;
    const offer = s.rematchOffer;
    return h('div', { class: 'after-match' },
      seated && offer
        ? h('div', { class: 'rematch-offer', 'data-testid': 'rematch-offer', role: 'status' },
          h('span', {}, fill(t('common.match.offersRematch'), { name: proper(offer.from) })),
          h('button', { class: 'primary', 'data-testid': 'accept-rematch', onclick: (e) => acceptRematch(e.currentTarget) }, t('common.match.acceptRematch')))
        : null,
      h('div', { class: 'buttons wrap' },
      tutorial ? h('a', { class: 'button primary', href: `#/play/${encodeURIComponent(s.game || '')}`, 'data-testid': 'play-real-match' }, t('learn.playReal')) : null,
      tutorial ? h('a', { class: 'button', href: `#/rules/${s.game}`, 'data-testid': 'tutorial-rules' }, t('learn.rules')) : null,
      seated && !offer && !tutorial ? h('button', { class: 'primary', 'data-testid': 'rematch', onclick: rematch }, otherPlayers().length ? t('common.match.offerRematch') : t('common.match.rematch')) : null,
      mock ? null : h('a', { class: 'button', href: `#/replay/${matchId}`, 'data-testid': 'to-replay' }, t('common.match.replayBalls')),
      h('a', { class: 'button', href: '#/' }, t('common.nav.home'))));
  }

  /**
   * A new match of the same game with the same options, clock and bot seats; a match
   * against people opens in the lobby for them to join (the page waits for them).
   */
  async function rematch() {
    try {
      // Both offered at once: take theirs rather than open a second match.
      if (otherPlayers().length && (await findRematchOffer())) {
        drawOffer();
        return;
      }
      const info = s.info && s.info.options ? s.info : await api.getMatch(matchId);
      const bots = asArray(info.seats).filter((seat) => seat && seat.bot).length;
      const created = await api.rematch({
        game: info.game,
        options: info.options,
        bots,
        turnClockSecs: Math.round(Number(info.turn_clock_ms) / 1000) || undefined,
        disconnectGraceSecs: Number.isFinite(Number(info.disconnect_grace_ms)) ? Math.round(Number(info.disconnect_grace_ms) / 1000) : undefined,
      });
      location.hash = `#/match/${created.match_id}`;
    } catch (err) {
      s.refusal = err;
      drawRefusal();
    }
  }

  /** The other people (not bots) who played this match: who a rematch is offered to. */
  function otherPlayers() {
    const me = savedPlayer();
    return asArray(s.info && pick(s.info, 'seats')).filter((x) => x && x.player_id && !x.bot && (!me || x.player_id !== me.player_id));
  }

  /**
   * A rematch offer needs no server API: the one who offers creates the new match (same
   * game, options, clock and bot seats; open, waiting for the others), and the others'
   * finished pages look for it in the open matches: the same game and options, created
   * after this match ended, with one of this match's other players seated in it and a seat
   * still free for us.
   */
  async function findRematchOffer() {
    const others = otherPlayers();
    if (!others.length || !s.info) return null;
    const since = Date.parse(pick(s.info, 'finished_at') || pick(s.info, 'started_at') || 0) || 0;
    const me = savedPlayer();
    const same = (a, b) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
    const list = await api.listMatches('open');
    for (const m of asArray(list && (list.matches || list))) {
      if (!m || m.game !== s.info.game || !same(m.options, s.info.options)) continue;
      if (Date.parse(m.created_at) < since - 1000) continue;
      const seats = asArray(m.seats);
      if (me && seats.some((x) => x && x.player_id === me.player_id)) continue;
      const host = seats.find((x) => x && others.some((o) => o.player_id === x.player_id));
      if (!host) continue;
      s.rematchOffer = { matchId: m.match_id, from: host.name || t('common.match.opponent') };
      return s.rematchOffer;
    }
    s.rematchOffer = null;
    return null;
  }

  function drawOffer() {
    drawDecision();
    const links = els.final.querySelector('.after-match');
    if (links) links.replaceWith(afterMatchLinks());
  }

  async function acceptRematch(button) {
    const offer = s.rematchOffer;
    if (!offer) return;
    button.disabled = true;
    try {
      await api.joinMatch(offer.matchId);
      location.hash = `#/match/${offer.matchId}`;
    } catch (err) {
      button.disabled = false;
      s.rematchOffer = null;
      s.refusal = err;
      drawRefusal();
      drawOffer();
    }
  }

  /** The end-of-match panel: the result as a headline and the whole scorecard. */
  async function drawFinal() {
    if (!s.over || mock || s.finalLoading) return;
    s.finalLoading = true;
    els.final.hidden = false;
    mount(els.final, h('h3', {}, t('common.match.over')), h('p', { class: 'muted' }, t('common.loadingScorecard')));
    try {
      const card = await api.scorecard(matchId);
      const name = (seat) => teamOrName(seat);
      mount(els.final,
        h('h3', {}, t('common.match.over')),
        h('p', { class: 'final-result', 'data-testid': 'final-result' }, resultText()),
        scorecardNode(card.card, name),
        afterMatchLinks());
      els.final.scrollIntoView({ block: 'start' });
    } catch (err) {
      mount(els.final, h('h3', {}, t('common.match.over')), h('p', { class: 'error' }, t('common.match.scorecardFailed', { reason: errorText(err) })));
      s.finalLoading = false;
    }
  }

  function drawHelp() {
    const m = module();
    if (!m || !m.help || els.help.dataset.game === s.game) return;
    els.help.dataset.game = s.game;
    mount(els.help, h('summary', {}, t('common.match.howToPlay')), h('ul', {}, m.help.map((line) => h('li', {}, line))));
  }

  function drawRaw() {
    mount(els.raw, h('summary', {}, t('common.match.rawView')), h('pre', { class: 'mono' }, JSON.stringify(s.view, null, 2)));
  }

  function decisionTitle() {
    if (!s.view) return t('common.match.yourMove');
    if (adjourned()) return t('common.adjourn.title');
    const mine = s.seat !== null && s.pendingSeats.includes(s.seat);
    if (mine) return t('common.match.yourMove');
    if (s.pendingSeats.length) return t('common.match.waitingFor', { names: list(s.pendingSeats.map(seatName)) });
    return t('common.match.yourMove');
  }

  /** The score in one line at the top (the game's `headline`, else nothing). */
  function drawScorebar() {
    const m = module();
    let node = null;
    if (s.view && m && m.headline) {
      try {
        node = m.headline(s.view, ctx());
      } catch (err) {
        console.error(err);
      }
    }
    els.scorebar.hidden = !node;
    mount(els.scorebar, node);
  }

  /** This ball's dice and cards as they stand (the game's `dicePanel`). */
  function drawDice() {
    const m = module();
    let node = null;
    if (s.view && m && m.dicePanel && !s.notFound) {
      try {
        node = m.dicePanel(s.view, ctx());
      } catch (err) {
        console.error(err);
      }
    }
    els.dice.hidden = !node;
    mount(els.dice, node);
  }

  /** Loads the game's learn module once the game is known; draws again when it arrives. */
  function ensureLearn() {
    if (!s.game || s.learnFor === s.game) return;
    s.learnFor = s.game;
    loadLearn(s.game).then((learn) => {
      if (disposed) return;
      s.learn = learn;
      draw();
    });
  }

  /** The help line under the question: what the options do and risk, and the rules section. */
  function drawDecisionHelp() {
    const learn = s.learn;
    let help = null;
    if (learn && learn.help && s.view && !s.spectate && !s.over && !s.notFound && !s.waiting && !adjourned()) {
      try {
        help = learn.help(s.view, ctx());
      } catch (err) {
        console.error(err);
      }
    }
    els.decisionHelp.hidden = !help;
    if (!help) {
      delete els.decisionHelp.dataset.key;
      els.decisionHelp.replaceChildren();
      return;
    }
    const key = `${help.section}:${help.text}`;
    if (els.decisionHelp.dataset.key === key) return;
    els.decisionHelp.dataset.key = key;
    mount(els.decisionHelp, h('span', { class: 'help-text', 'data-testid': 'decision-help-text' }, help.text), ' ',
      help.section ? referenceLink(s.game, help.section) : null);
  }

  /** The tutorial's coach: a decision's explanation the first time its kind comes up. */
  function coachAsk() {
    const guide = s.learn && s.learn.tutorial;
    if (!tutorial || !guide || !guide.ask || !s.view || s.over) return;
    const mine = s.seat !== null && s.pendingSeats.includes(s.seat);
    const asked = mine ? askedOf(s.view) : null;
    const askKey = asked ? JSON.stringify(asked) : null;
    if (askKey === s.coach.askFor) return;
    s.coach.askFor = askKey;
    if (!asked) return;
    let said = null;
    try {
      said = guide.ask(s.view, ctx());
    } catch (err) {
      console.error(err);
    }
    if (said && said.text && !s.coach.seen.has(said.key)) {
      s.coach.seen.add(said.key);
      s.coach.ask = said;
    }
  }

  /** The tutorial's coach after a ball: why it ended as it did. */
  function coachBall(outcome, events) {
    const guide = s.learn && s.learn.tutorial;
    if (!guide || !guide.ball) return;
    try {
      const text = guide.ball(outcome, events, ctx());
      if (text) s.coach.ball = { text, seq: s.bannerSeq };
    } catch (err) {
      console.error(err);
    }
  }

  function drawCoach() {
    if (!tutorial) return;
    coachAsk();
    const guide = s.learn && s.learn.tutorial;
    const parts = [];
    if (s.over && guide && guide.end) {
      try {
        parts.push(h('p', { 'data-testid': 'coach-end' }, guide.end(s.view, ctx())));
      } catch (err) {
        console.error(err);
      }
    } else {
      if (s.coach.ball) parts.push(h('p', { class: 'coach-ball', 'data-testid': 'coach-ball' }, s.coach.ball.text));
      if (s.coach.ask) {
        parts.push(h('p', { class: 'coach-ask', 'data-testid': 'coach-ask', 'data-key': s.coach.ask.key }, s.coach.ask.text));
      }
    }
    els.coach.hidden = !parts.length;
    mount(els.coach, parts.length ? [h('strong', { class: 'coach-title' }, t('learn.coach')), ...parts,
      h('div', { class: 'buttons wrap' },
        h('button', { class: 'link', 'data-testid': 'coach-hide', onclick: () => { s.coach.ask = null; s.coach.ball = null; drawCoach(); } }, t('learn.coachHide')),
        h('a', { class: 'link', href: '#/', 'data-testid': 'leave-tutorial' }, t('learn.leaveTutorial')))] : null);
  }

  function draw() {
    if (s.left) return;
    ensureLearn();
    // The waiting room and the not-found page are the whole screen: no question, no commentary.
    els.side.hidden = s.waiting || s.notFound;
    if (s.over) drawFinal();
    drawScorebar();
    drawDice();
    drawBanner();
    drawHeader();
    drawAdjourn();
    // Decision first: it prepares UI state the board uses (e.g. the field being placed).
    drawDecision();
    drawDecisionHelp();
    drawCoach();
    drawBoard();
    drawRefusal();
    drawHelp();
    drawRaw();
  }

  /**
   * Follows the balls: the game's `ball.ends(event)` closes one, and `ball.outcome(end,
   * events, ctx)` says what it was ({kind, text, detail, dice}). `buffer` holds the events
   * since the last ball ended; a ball shows only if it is newer than the one on show.
   */
  function followBalls(entries, buffer, { live }) {
    const m = module();
    if (!m || !m.ball) return buffer;
    for (const { seq, event } of entries) {
      if (!event) continue;
      buffer.push(event);
      let ends = false;
      try {
        ends = m.ball.ends(event);
      } catch {
        ends = false;
      }
      if (!ends) continue;
      const events = buffer.splice(0, buffer.length);
      if (typeof seq === 'number' && seq <= s.bannerSeq) continue;
      let outcome = null;
      try {
        outcome = m.ball.outcome(event, events, ctx());
      } catch (err) {
        console.error(err);
      }
      if (!outcome) continue;
      s.banner = { ...outcome, seq, fresh: live };
      if (tutorial) coachBall(outcome, events);
      if (typeof seq === 'number') s.bannerSeq = seq;
      // A new ball ends the notice of a clock that ran out before it.
      if (live && s.notice && Date.now() - s.notice.at > 4000) s.notice = null;
    }
    return buffer;
  }

  function drawBanner() {
    const b = s.banner;
    if (!b) {
      els.banner.hidden = true;
    } else {
      const key = `${b.seq}:${b.text}`;
      if (els.banner.dataset.key !== key) {
        els.banner.dataset.key = key;
        els.banner.dataset.seq = String(b.seq ?? '');
        els.banner.dataset.kind = b.kind || '';
        els.banner.hidden = false;
        els.banner.className = ['ball-banner', `ball-${b.kind || 'runs'}`, b.fresh && 'fresh'].filter(Boolean).join(' ');
        mount(els.banner,
          h('div', { class: 'ball-head' },
            h('span', { class: 'ball-label' }, b.label || t('common.match.lastBall')),
            h('strong', { class: 'ball-text', 'data-testid': 'ball-text' }, b.text)),
          b.detail ? h('div', { class: 'ball-detail muted' }, b.detail) : null,
          b.dice && b.dice.length
            ? h('div', { class: 'dice-row ball-dice', 'data-testid': 'ball-dice' }, b.dice.map((d) =>
              h('span', { class: 'rolled', title: d.sides ? `${d.name} (D${d.sides})` : d.name },
                d.name ? h('span', { class: 'rolled-name' }, d.name) : null,
                h('span', { class: ['die', 'small', d.kind, d.sides === 8 && 'd8'] }, String(d.value ?? '?')))))
            : null);
        // Replays the entrance animation (CSS; none with prefers-reduced-motion).
        if (b.fresh) {
          els.banner.classList.remove('fresh');
          void els.banner.offsetWidth;
          els.banner.classList.add('fresh');
        }
      }
    }
    const n = s.notice;
    els.notice.hidden = !n;
    mount(els.notice, n ? [n.text,
      ' ', h('button', { class: 'link', onclick: () => { s.notice = null; drawBanner(); } }, t('common.dismiss'))] : null);
  }

  /**
   * A turn clock that ran out: the server's update (or protocol 2 step) names the seat
   * (`timed_out`) whose default move it played in this change, for us or the other side.
   */
  function noticeTimeouts(msg) {
    if (typeof msg.timed_out !== 'number') return;
    const seat = Number(msg.timed_out);
    const mine = !s.spectate && s.seat !== null ? s.seat : null;
    // One sentence per case (words.js aboutSeat): "Your turn clock ran out" / "The turn clock of Ann ran out".
    const text = aboutSeat('common.match.clockRanOut', seat === mine ? t('common.seat.you') : seatName(seat));
    s.notice = { text, at: Date.now(), seats: [seat] };
  }

  /**
   * entries: [{seq, event}], in order; an entry already told (same or lower seq) is skipped.
   * Each is told by the story (story.js): described from the state as it was at that event.
   */
  function addCommentary(entries) {
    for (const entry of entries) {
      const { seq } = entry;
      const event = entry.adjournment ? { adjournment: entry.adjournment } : entry.event;
      if (typeof seq === 'number') {
        if (seq <= s.commentarySeq) continue;
        s.commentarySeq = seq;
        s.seen.set(seq, event);
      }
      // An adjournment (offered, agreed, resumed...) is not the game's: the story skips it.
      if (event && event.adjournment) {
        const line = adjournmentLine(event.adjournment, seatName);
        if (!line) continue;
        els.commentary.prepend(h('li', { class: 'line adjourn-line', 'data-testid': 'adjourn-line', 'data-action': event.adjournment.action }, line));
        s.commentary.push(line);
        continue;
      }
      if (!s.story) s.story = createStory(module(), { base: s.view, options: s.info && s.info.options, seatName });
      const text = s.story.tell(event);
      // The board's batting and bowling cards are the story's tallies.
      s.ui.tally = s.story.ui.tally;
      if (!text) continue;
      els.commentary.prepend(h('li', { class: 'line' }, text));
      s.commentary.push(text);
    }
    while (els.commentary.childElementCount > COMMENTARY_LIMIT) els.commentary.lastElementChild.remove();
  }

  /** Tells the whole story again from the first event (the log filled in what came before). */
  function retell() {
    const entries = [...s.seen.entries()].sort((a, b) => a[0] - b[0])
      .map(([seq, event]) => (event && event.adjournment ? { seq, adjournment: event.adjournment } : { seq, event }));
    s.story = null;
    s.commentary = [];
    s.commentarySeq = -1;
    els.commentary.replaceChildren();
    addCommentary(entries);
  }

  function resultText() {
    const outcome = s.result || pick(s.view || {}, 'outcome', 'result') || (s.info && pick(s.info, 'result', 'outcome'));
    // The Outcome's placings say who won, in the player's language (words.js); a shape
    // without placings or summary reads as its JSON summary, the seats named.
    const structured = outcome && typeof outcome === 'object' && (Array.isArray(outcome.placings) || outcome.summary);
    return resultLine(structured || typeof outcome === 'string' || !outcome ? outcome : summary(outcome), (seat) => teamOrName(seat));
  }

  /** A seat for a result line: its team ("Harbour Gulls (you)") when the game has teams. */
  function teamOrName(seat) {
    const m = module();
    const team = m && m.teamName && s.view ? m.teamName(s.view, seat) : null;
    const name = seatName(seat);
    return team ? t('common.match.teamOf', { team, name }) : name;
  }

  /** Takes what a snapshot, update or finished frame carries: view, pending seats, clock, result. */
  function absorb(msg) {
    if (msg.game) s.game = msg.game;
    if (msg.kind === 'snapshot') s.seat = msg.seat === null || msg.seat === undefined ? null : Number(msg.seat);
    if (msg.view !== undefined) s.view = msg.view;
    if (typeof msg.seq === 'number' && (msg.kind === 'update' || msg.kind === 'snapshot')) s.viewSeq = Math.max(s.viewSeq, msg.seq);
    if (msg.seed_commitment && !s.info) s.info = { seed_commitment: msg.seed_commitment };
    if (msg.info && !s.info) s.info = msg.info;
    if (Array.isArray(msg.pending)) s.pendingSeats = msg.pending.map(Number);
    if ('deadline_ms' in msg) s.deadline = msg.deadline_ms === null ? null : Date.now() + Number(msg.deadline_ms);
    if (msg.result) {
      s.result = msg.result;
      s.over = true;
    }
    if (msg.status === 'finished' || msg.kind === 'finished') s.over = true;
  }

  function start() {
    if (mock) {
      s.status = 'mock';
      const session = mockSession(mock, {
        onUpdate(update) {
          absorb(update);
          if (update.events) addCommentary(update.events.map((event) => ({ event })));
          draw();
        },
        onAdjournment: (msg) => takeAdjournment(msg),
      });
      conn = { send: (command) => session.send(command), adjourn: (action, resumeAt) => session.adjourn(action, resumeAt), dropForTest() {}, close() {} };
      return;
    }
    conn = new Connection(matchId, {
      onSnapshot(msg) {
        absorb(msg);
        // The current adjournment (absent: playing, nothing offered); no commentary line.
        const before = JSON.stringify(s.adjournment);
        takeAdjournment(msg.adjournment || null, { live: false });
        // Back after a dropped socket with the adjournment changed meanwhile: the log tells
        // what was missed, in its place.
        if (s.logLoaded && JSON.stringify(s.adjournment) !== before) loadAdjournments();
        if (s.over) conn.finished = true;
        draw();
        if (!s.logLoaded) loadLog();
      },
      onEvent(msg) {
        // Views arrive in the update that follows each batch, so only the commentary moves here.
        if (msg.event) {
          addCommentary([{ seq: msg.seq, event: msg.event }]);
          s.ballEvents = followBalls([{ seq: msg.seq, event: msg.event }], s.ballEvents, { live: s.logLoaded });
        }
      },
      onUpdate(msg) {
        s.awaitingUpdate = false;
        clearTimeout(s.awaitTimer);
        noticeTimeouts(msg);
        absorb(msg);
        draw();
      },
      onFinished(msg) {
        conn.finished = true;
        absorb(msg);
        draw();
        loadInfo();
      },
      onError(err) {
        if (err.id === undefined) {
          s.refusal = err;
          drawRefusal();
        }
      },
      onStatus(status, detail) {
        s.status = status;
        s.statusDetail = detail;
        drawHeader();
        if (status === 'reconnecting' && detail.attempt === 1) toast(t('common.conn.lost'), 'error', 2500);
      },
      onAdjournment(msg) {
        takeAdjournment(msg);
      },
      onOther(msg) {
        absorb(msg);
        draw();
      },
    }, { spectate });
    conn.open();
  }

  /** After a page load the socket starts at the snapshot, so earlier balls come from the log. */
  async function loadLog() {
    s.logLoaded = true;
    try {
      const log = await api.log(matchId);
      const all = asArray(log && log.entries).filter((e) => e && typeof e === 'object');
      const entries = all
        .filter((e) => e.kind === 'event' || e.kind === undefined)
        .map((e) => ({ seq: e.seq, event: e.payload }));
      // The adjournments (offered, agreed, resumed...) are told in the commentary in their place.
      const adjournments = all.filter((e) => e.kind === 'adjournment' && e.payload && typeof e.seq === 'number');
      const live = s.commentarySeq;
      // The log holds what came before this page; the socket what came since: one story.
      for (const entry of entries) if (typeof entry.seq === 'number' && !s.seen.has(entry.seq)) s.seen.set(entry.seq, entry.event);
      const lastLogged = all.reduce((max, e) => (typeof e.seq === 'number' ? Math.max(max, e.seq) : max), -1);
      // A frame seen live (placed between seqs) that the log holds already is told from the log.
      for (const key of [...s.seen.keys()]) if (!Number.isInteger(key) && key < lastLogged && s.seen.get(key)?.adjournment) s.seen.delete(key);
      for (const e of adjournments) if (!s.seen.has(e.seq)) s.seen.set(e.seq, { adjournment: e.payload });
      retell();
      // The balls before this page: the last one shows (without its animation), and a ball
      // under way keeps its first events for when it ends on the socket.
      const earlier = entries.filter((e) => live < 0 || e.seq <= live);
      const partial = followBalls(earlier, [], { live: false });
      s.ballEvents = [...partial, ...s.ballEvents];
      // Games tally figures from the events (e.g. CTG batting card): show what the log added.
      if (s.view) draw();
    } catch (err) {
      console.warn('log', err);
    }
  }

  /** The log's adjournment entries merged into the commentary (after a reconnect). */
  async function loadAdjournments() {
    try {
      const log = await api.log(matchId);
      let added = false;
      for (const e of asArray(log && log.entries)) {
        if (!e || e.kind !== 'adjournment' || typeof e.seq !== 'number' || s.seen.has(e.seq) || !e.payload) continue;
        // A live frame told between seqs gives way to the log's entry for it.
        for (const [key, event] of [...s.seen]) {
          if (!Number.isInteger(key) && key < e.seq && event && event.adjournment && event.adjournment.action === e.payload.action) s.seen.delete(key);
        }
        s.seen.set(e.seq, { adjournment: e.payload });
        added = true;
      }
      if (added) {
        retell();
        draw();
      }
    } catch (err) {
      console.warn('log', err);
    }
  }

  async function loadInfo() {
    if (mock) return;
    try {
      s.info = await api.getMatch(matchId);
      if (!s.game) s.game = pick(s.info, 'game');
      if (s.seat === null && !spectate) {
        const me = savedPlayer();
        const seats = asArray(pick(s.info, 'seats', 'players'));
        const index = seats.findIndex((x) => x && (x.player_id === me?.player_id || x === me?.player_id));
        if (index >= 0) s.seat = Number(seats[index].seat ?? index);
      }
      if (pick(s.info, 'status') === 'finished') s.over = true;
      draw();
    } catch (err) {
      // 404: no such match; 400: not even a match id (a mistyped link).
      if (err.status === 404 || err.status === 400 || err.code === 'not_found') {
        showNotFound();
        return;
      }
      toast(t('common.match.infoFailed', { reason: errorText(err) }), 'error');
    }
  }

  /** An unknown match: a page that says so, and no socket retrying for ever. */
  function showNotFound() {
    s.notFound = true;
    s.status = 'missing';
    disposed = true;
    clearInterval(infoTimer);
    conn && conn.close();
    els.final.hidden = true;
    mount(els.board, h('section', { class: 'panel not-found', 'data-testid': 'not-found' },
      h('h2', {}, t('common.match.noSuchMatch')),
      h('p', {}, fill(t('common.match.noSuchMatchLead'), { id: h('span', { class: 'mono' }, String(matchId)) })),
      h('div', { class: 'buttons' },
        h('a', { class: 'button primary', href: '#/' }, t('common.nav.home')),
        h('a', { class: 'button', href: '#/live' }, t('common.match.watchLive')))));
    draw();
  }

  draw();
  /** A finished match has no live socket: its final view and log come over HTTP. */
  async function showFinished() {
    s.over = true;
    s.status = 'finished';
    try {
      const card = await api.scorecard(matchId);
      s.view = card.view;
      s.result = card.result || s.result;
    } catch (err) {
      toast(t('common.match.scorecardFailed', { reason: errorText(err) }), 'error');
    }
    draw();
    loadLog();
  }

  /** Opens the socket once the match is live; an open lobby match is polled until it starts. */
  async function connectWhenLive() {
    if (disposed || conn) return;
    const status = s.info && pick(s.info, 'status');
    if (status === 'finished') {
      if (!s.finishedShown) {
        s.finishedShown = true;
        await showFinished();
      }
      return;
    }
    if (status === 'open' && !mock) {
      s.waiting = true;
      s.status = 'waiting';
      drawWaitingRoom();
      draw();
      return;
    }
    if (!status && !mock) return; // the match info did not load: try again on the next tick
    if (s.waiting) {
      s.waiting = false;
      toast(t('common.match.starts'), 'ok', 3000);
    }
    start();
  }

  /**
   * The waiting room: who is in, the invite link (copy, or the phone's share sheet), and for
   * a visitor who is not seated yet, the Join button.
   */
  function drawWaitingRoom() {
    const seats = asArray(pick(s.info, 'seats'));
    const taken = seats.filter((x) => x && (x.player_id || x.bot)).length;
    const total = pick(s.info, 'seat_count') ?? seats.length;
    const me = savedPlayer();
    const seated = seats.some((x) => x && me && x.player_id === me.player_id);
    const link = `${location.origin}${location.pathname}#/match/${matchId}`;
    const game = GAMES[s.game];
    const copied = h('span', { class: 'muted', 'data-testid': 'invite-copied', role: 'status' });
    const copy = async () => {
      try {
        await navigator.clipboard.writeText(link);
        copied.textContent = t('common.invite.copied');
      } catch {
        // No clipboard permission (or no secure context): select the text to copy by hand.
        linkBox.select();
        copied.textContent = t('common.invite.copyByHand');
      }
    };
    const linkBox = h('input', { class: 'invite-link mono', readonly: true, value: link, 'data-testid': 'invite-link', 'aria-label': t('common.invite.link'), onfocus: (e) => e.target.select() });
    const share = typeof navigator.share === 'function'
      ? h('button', { 'data-testid': 'invite-share', onclick: () => navigator.share({ title: t('common.invite.shareTitle', { game: game ? game.name : t('common.match.match') }), text: t('common.invite.shareText'), url: link }).catch(() => {}) }, t('common.invite.share'))
      : null;
    const join = async (button) => {
      button.disabled = true;
      try {
        await api.joinMatch(matchId);
        // Joined from a spectator's link: play from the seat's own address.
        if (s.spectate) {
          location.hash = `#/match/${matchId}`;
          return;
        }
        await loadInfo();
        connectWhenLive();
      } catch (err) {
        button.disabled = false;
        s.refusal = err;
        drawRefusal();
      }
    };
    mount(els.board, h('section', { class: 'panel waiting', 'data-testid': 'waiting-room' },
      h('h2', {}, seated ? t('common.match.waitingPlayers') : fill(t('common.invite.invited'), { game: game ? proper(game.name) : t('common.match.match') })),
      h('ul', { class: 'seat-list' }, seats.map((x, i) => h('li', {},
        x && (x.player_id || x.bot) ? nameOfSeat(seats, x.seat ?? i, { me: seated ? s.seat : null, capital: true }) : h('span', { class: 'muted' }, t('common.lobby.seatOpen'))))),
      h('p', { 'data-testid': 'seats-taken' }, t('common.invite.seatsTaken', { taken, count: total })),
      seated
        ? [h('p', {}, t('common.invite.sendLink')),
          h('div', { class: 'invite' }, linkBox,
            h('div', { class: 'buttons' }, h('button', { class: 'primary', 'data-testid': 'invite-copy', onclick: copy }, t('common.invite.copy')), share, copied))]
        : me
          ? h('div', { class: 'buttons' }, h('button', { class: 'primary', 'data-testid': 'join-match', onclick: (e) => join(e.currentTarget) }, t('common.invite.join')))
          : h('p', {}, t('common.invite.pickName'))));
  }

  loadInfo().then(connectWhenLive);
  const infoTimer = setInterval(async () => {
    if (disposed || s.finishedShown) return;
    if (!conn || !s.info || pick(s.info, 'status') === 'open') {
      await loadInfo();
      if (s.waiting && s.info && pick(s.info, 'status') === 'open') drawWaitingRoom();
      connectWhenLive();
    }
  }, 2000);
  clockTimer = setInterval(tickClock, 500);
  // After a match against people, look for their rematch offer every few seconds.
  const offerTimer = setInterval(async () => {
    if (disposed || mock || !s.over || s.spectate || s.seat === null || !otherPlayers().length) return;
    if (document.hidden) return;
    const before = s.rematchOffer && s.rematchOffer.matchId;
    try {
      await findRematchOffer();
    } catch {
      return;
    }
    if ((s.rematchOffer && s.rematchOffer.matchId) !== before) drawOffer();
  }, 3000);

  return {
    state: s,
    /** The match's socket (the e2e test drops it to check that the client resumes). */
    get connection() { return conn; },
    /** Sends a command as the page's controls do (the e2e test sends one the engine refuses). */
    send,
    /** Shows an adjournment frame as if the server sent it (the mock screen's design work). */
    adjournmentFrame: mock ? (msg) => takeAdjournment(msg) : undefined,
    dispose() {
      // Left for another page: late frames or timers must not draw (or claim the title).
      s.left = true;
      yourTurn(false);
      disposed = true;
      clearInterval(clockTimer);
      clearInterval(infoTimer);
      clearInterval(offerTimer);
      conn && conn.close();
    },
  };
}

export function askedOf(view) {
  return pick(view || {}, 'asked', 'ask', 'decision', 'pending', 'prompt', 'awaiting', 'to_decide', 'request');
}

/** A copy with every object's keys in order, so two option objects compare as JSON. */
function sortKeys(x) {
  if (Array.isArray(x)) return x.map(sortKeys);
  if (x && typeof x === 'object') return Object.fromEntries(Object.keys(x).sort().map((k) => [k, sortKeys(x[k])]));
  return x;
}

function asArray(x) {
  if (Array.isArray(x)) return x;
  if (x && typeof x === 'object') return Object.values(x);
  return [];
}

function parseDeadline(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') return parseDeadline(value.deadline ?? value.at ?? value.remaining_ms / 1000);
  if (typeof value === 'string') {
    const t = Date.parse(value);
    return Number.isNaN(t) ? null : t;
  }
  if (value > 1e12) return value;
  if (value > 1e9) return value * 1000;
  return Date.now() + value * 1000;
}

