// The match screen shared by the three games: header (whose turn, turn clock, connection),
// the game's own board and decision controls, the refusal banner and the commentary.
//
// Game modules (games/*.js) only turn a view into DOM; everything about the connection,
// resuming and errors lives here so each game gets it for free.

import { h, mount, label, pick, summary, jsonTree } from './dom.js';
import { api, savedPlayer } from './api.js';
import { Connection } from './conn.js';
import { toast, panel } from './ui.js';
import { scorecardNode } from './scorecard.js';
import { GAMES, MODULES } from './catalog.js';
import { mockSession } from './mock.js';

const COMMENTARY_LIMIT = 400;

export function showMatch(root, { matchId, spectate = false, mock = null }) {
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
    viewSeq: -1,
    awaitingUpdate: false,
    logLoaded: false,
    ui: {},
    busy: false,
    over: false,
  };
  let conn = null;
  let clockTimer = null;
  let disposed = false;

  const els = {
    header: h('div', { class: 'match-header' }),
    board: h('div', { class: 'board', 'data-testid': 'board' }),
    decision: h('div', { class: 'decision', 'data-testid': 'decision' }),
    decisionTitle: h('h3', {}, 'Your move'),
    refusal: h('div', { class: 'refusal', role: 'alert', 'data-testid': 'refusal', hidden: true }),
    commentary: h('ol', { class: 'commentary', 'data-testid': 'commentary' }),
    raw: h('details', { class: 'raw' }),
    help: h('details', { class: 'raw help' }),
    final: h('section', { class: 'panel final', 'data-testid': 'final', hidden: true }),
  };
  mount(
    root,
    h('div', { class: 'screen match', 'data-testid': 'match-screen' },
      els.header,
      els.refusal,
      h('div', { class: 'match-body' },
        h('div', { class: 'match-main' }, els.final, els.board),
        h('aside', { class: 'match-side' },
          h('section', { class: 'panel decision-panel', 'data-testid': 'decision-panel' }, els.decisionTitle, els.decision),
          panel('Commentary', els.commentary, { cls: 'commentary-panel' }),
          els.help,
          els.raw,
        ),
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
    pendingMine: !s.spectate && s.seat !== null && s.pendingSeats.includes(s.seat),
  });

  function seatName(seat) {
    const seats = s.info && asArray(pick(s.info, 'seats', 'players'));
    const entry = seats && seats[seat];
    const name = entry && (typeof entry === 'string' ? entry : pick(entry, 'name', 'player_name'));
    if (seat === s.seat && !s.spectate) return `you (seat ${seat})`;
    if (entry && (entry.bot || entry.kind === 'bot')) return `the bot (seat ${seat})`;
    return name ? `${name} (seat ${seat})` : `seat ${seat}`;
  }

  function drawHeader() {
    const g = GAMES[s.game];
    const myTurn = !s.spectate && s.seat !== null && s.pendingSeats.includes(s.seat);
    let turnText;
    if (s.over) turnText = 'Match over';
    else if (!s.view) turnText = 'Loading…';
    else if (s.pendingSeats.length === 0) turnText = 'Server is resolving…';
    else if (myTurn) turnText = s.pendingSeats.length > 1 ? 'Your move (sealed, both sides choose)' : 'Your move';
    else turnText = `Waiting for ${s.pendingSeats.map(seatName).join(' and ')}`;
    const statusText = {
      connecting: 'connecting…',
      open: 'connected',
      reconnecting: `reconnecting${s.statusDetail.attempt ? ` (try ${s.statusDetail.attempt})` : ''}…`,
      closed: 'disconnected',
      finished: 'match over: connection closed',
      mock: 'mock data',
    }[s.status] || s.status;
    const commitment = s.info && pick(s.info, 'seed_commitment', 'seed_sha256', 'commitment');
    mount(
      els.header,
      h('div', { class: 'title' },
        // A spectator most likely came from the live list, and goes back to pick another.
        s.spectate
          ? h('a', { href: '#/live', class: 'back', title: 'Live matches', 'data-testid': 'back-to-live' }, '←')
          : h('a', { href: '#/', class: 'back', title: 'Lobby' }, '←'),
        h('h2', {}, g ? g.name : 'Match'),
        h('span', { class: 'muted mono', title: s.matchId }, String(s.matchId).slice(0, 8)),
        h('span', { class: 'role' }, s.spectate ? 'Spectating' : s.seat !== null ? `Seat ${s.seat}` : ''),
      ),
      h('div', { class: ['turn', myTurn && 'mine', s.over && 'over'], 'data-testid': 'turn' }, turnText),
      h('div', { class: 'clock', 'data-testid': 'clock' }, clockText()),
      h('div', { class: ['conn', `conn-${s.status}`], 'data-testid': 'connection', title: s.statusDetail.reason || '' }, h('span', { class: 'dot' }), statusText),
      commitment ? h('div', { class: 'fair muted mono', title: `sha256(seed) = ${commitment}` }, `seed sha256 ${String(commitment).slice(0, 12)}…`) : null,
    );
  }

  function clockText() {
    if (!s.deadline || s.over) return '';
    const left = Math.max(0, Math.round((s.deadline - Date.now()) / 1000));
    return `clock ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
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
      h('strong', {}, `Refused (${label(s.refusal.code || 'error')}): `),
      h('span', { 'data-testid': 'refusal-message' }, refusalText(s.refusal)),
      h('button', { class: 'link', onclick: () => { s.refusal = null; drawRefusal(); } }, 'dismiss'),
    );
  }

  function drawBoard() {
    const m = module();
    if (!s.view) {
      mount(els.board, h('p', { class: 'muted' }, s.status === 'open' ? 'Waiting for the match to start…' : 'Connecting…'));
      return;
    }
    try {
      mount(els.board, m ? m.board(s.view, ctx()) : jsonTree(s.view));
    } catch (err) {
      console.error(err);
      mount(els.board, h('p', { class: 'error' }, `Cannot draw this view (${err.message}); raw view below.`), jsonTree(s.view));
    }
  }

  function drawDecision() {
    const m = module();
    els.decisionTitle.textContent = s.over ? 'Result' : s.spectate ? 'Watching' : 'Your move';
    if (s.over) {
      mount(els.decision, h('p', { 'data-testid': 'result' }, resultText()), afterMatchLinks());
      return;
    }
    if (s.spectate) {
      mount(els.decision, h('p', { class: 'muted' }, 'You are watching: the view hides sealed choices and face-down cards.'));
      return;
    }
    if (!s.view) {
      mount(els.decision, h('p', { class: 'muted' }, 'Waiting for the match to start (every seat must be taken).'));
      return;
    }
    let node = null;
    try {
      node = m ? m.decision(s.view, ctx()) : null;
    } catch (err) {
      console.error(err);
      node = h('p', { class: 'error' }, `Cannot draw these controls (${err.message}).`);
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
    if (!asked) return h('p', { class: 'muted' }, 'Nothing is asked of you right now.');
    const box = h('textarea', { rows: 4, class: 'mono', placeholder: '{"...": ...}' });
    return h('div', { class: 'generic' },
      h('p', {}, 'The game asks: ', h('strong', {}, summary(asked))),
      jsonTree(asked),
      h('label', {}, 'Command (JSON)'),
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
      }, 'Send'),
    );
  }

  /** What a player does next: play again, replay the match, or go back to the lobby. */
  function afterMatchLinks() {
    const seated = !s.spectate && s.seat !== null && !mock;
    return h('div', { class: 'buttons wrap' },
      seated ? h('button', { class: 'primary', 'data-testid': 'rematch', onclick: rematch }, 'Rematch') : null,
      mock ? null : h('a', { class: 'button', href: `#/replay/${matchId}`, 'data-testid': 'to-replay' }, 'Replay ball by ball'),
      h('a', { class: 'button', href: '#/' }, 'Back to the lobby'));
  }

  /**
   * A new match of the same game with the same options, clock and bot seats; a match
   * against people opens in the lobby for them to join (the page waits for them).
   */
  async function rematch() {
    try {
      const info = s.info && s.info.options ? s.info : await api.getMatch(matchId);
      const bots = asArray(info.seats).filter((seat) => seat && seat.bot).length;
      const created = await api.rematch({
        game: info.game,
        options: info.options,
        bots,
        turnClockSecs: Math.round(Number(info.turn_clock_ms) / 1000) || undefined,
      });
      location.hash = `#/match/${created.match_id}`;
    } catch (err) {
      s.refusal = err;
      drawRefusal();
    }
  }

  /** The end-of-match panel: the result as a headline and the whole scorecard. */
  async function drawFinal() {
    if (!s.over || mock || s.finalLoading) return;
    s.finalLoading = true;
    els.final.hidden = false;
    mount(els.final, h('h3', {}, 'Match over'), h('p', { class: 'muted' }, 'Loading the scorecard…'));
    try {
      const card = await api.scorecard(matchId);
      const name = (seat) => seatName(seat);
      mount(els.final,
        h('h3', {}, 'Match over'),
        h('p', { class: 'final-result', 'data-testid': 'final-result' }, resultText()),
        scorecardNode(card.card, name),
        afterMatchLinks());
      els.final.scrollIntoView({ block: 'start' });
    } catch (err) {
      mount(els.final, h('h3', {}, 'Match over'), h('p', { class: 'error' }, `Scorecard: ${err.message}`));
      s.finalLoading = false;
    }
  }

  function drawHelp() {
    const m = module();
    if (!m || !m.help || els.help.dataset.game === s.game) return;
    els.help.dataset.game = s.game;
    mount(els.help, h('summary', {}, 'How to play'), h('ul', {}, m.help.map((line) => h('li', {}, line))));
  }

  function drawRaw() {
    mount(els.raw, h('summary', {}, 'Raw view (what the server sent)'), h('pre', { class: 'mono' }, JSON.stringify(s.view, null, 2)));
  }

  function draw() {
    if (s.over) drawFinal();
    drawHeader();
    // Decision first: it prepares UI state the board uses (e.g. the field being placed).
    drawDecision();
    drawBoard();
    drawRefusal();
    drawHelp();
    drawRaw();
  }

  /** entries: [{seq, event}]; an entry already shown (same or lower seq) is skipped. */
  function addCommentary(entries) {
    const m = module();
    for (const { seq, event } of entries) {
      if (typeof seq === 'number') {
        if (seq <= s.commentarySeq) continue;
        s.commentarySeq = seq;
      }
      let text = null;
      try {
        text = m ? m.describe(event, ctx()) : undefined;
      } catch {
        text = null;
      }
      if (text === undefined) text = summary(event);
      if (!text) continue;
      const li = h('li', { class: 'line' }, text);
      els.commentary.prepend(li);
      s.commentary.push(text);
    }
    while (els.commentary.childElementCount > COMMENTARY_LIMIT) els.commentary.lastElementChild.remove();
  }

  function resultText() {
    const outcome = s.result || pick(s.view || {}, 'outcome', 'result') || (s.info && pick(s.info, 'result', 'outcome'));
    if (!outcome) return 'The match is over.';
    const text = typeof outcome === 'string' ? outcome : pick(outcome, 'summary') || summary(outcome);
    // Engines say "Seat 1 won"; people want to read who that is.
    return text.replace(/\b[Ss]eat (\d+)/g, (whole, n) => {
      const name = seatName(Number(n));
      return name === `seat ${n}` ? whole : name;
    });
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
      });
      conn = { send: (command) => session.send(command), dropForTest() {}, close() {} };
      return;
    }
    conn = new Connection(matchId, {
      onSnapshot(msg) {
        absorb(msg);
        if (s.over) conn.finished = true;
        draw();
        if (!s.logLoaded) loadLog();
      },
      onEvent(msg) {
        // Views arrive in the update that follows each batch, so only the commentary moves here.
        if (msg.event) addCommentary([{ seq: msg.seq, event: msg.event }]);
      },
      onUpdate(msg) {
        s.awaitingUpdate = false;
        clearTimeout(s.awaitTimer);
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
        if (status === 'reconnecting' && detail.attempt === 1) toast('Connection lost: reconnecting…', 'error', 2500);
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
      const entries = asArray(log && log.entries)
        .filter((e) => e && (e.kind === 'event' || e.kind === undefined))
        .map((e) => ({ seq: e.seq, event: e.payload }));
      const live = s.commentarySeq;
      s.commentarySeq = -1;
      const keep = [...els.commentary.children];
      els.commentary.replaceChildren();
      addCommentary(entries.filter((e) => live < 0 || e.seq <= live));
      s.commentarySeq = Math.max(s.commentarySeq, live);
      for (const li of keep.reverse()) els.commentary.prepend(li);
      // Games tally figures from the events (e.g. CTG batting card): show what the log added.
      if (s.view) draw();
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
      toast(`Match info: ${err.message}`, 'error');
    }
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
      toast(`Scorecard: ${err.message}`, 'error');
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
      mount(els.board, h('div', { class: 'panel', 'data-testid': 'waiting-room' },
        h('h3', {}, 'Waiting for players'),
        h('p', {}, `${asArray(pick(s.info, 'seats')).filter((x) => x && (x.player_id || x.bot)).length} of ${pick(s.info, 'seat_count') ?? '?'} seats taken. Share this page's address, or wait for someone to join from the lobby.`)));
      return;
    }
    start();
  }

  loadInfo().then(connectWhenLive);
  const infoTimer = setInterval(async () => {
    if (disposed || s.finishedShown) return;
    if (!conn || !s.info || pick(s.info, 'status') === 'open') {
      await loadInfo();
      connectWhenLive();
    }
  }, 2000);
  clockTimer = setInterval(tickClock, 500);

  return {
    state: s,
    /** The match's socket (the e2e test drops it to check that the client resumes). */
    get connection() { return conn; },
    dispose() {
      disposed = true;
      clearInterval(clockTimer);
      clearInterval(infoTimer);
      conn && conn.close();
    },
  };
}

/** The server's sentence without a repeat of the code ("illegal move: illegal field: ..."). */
function refusalText(refusal) {
  const message = String(refusal.message || refusal.reason || '');
  const code = String(refusal.code || '').replace(/_/g, ' ');
  return code && message.toLowerCase().startsWith(`${code}: `) ? message.slice(code.length + 2) : message;
}

export function askedOf(view) {
  return pick(view || {}, 'asked', 'ask', 'decision', 'pending', 'prompt', 'awaiting', 'to_decide', 'request');
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

