// One WebSocket session to a match, with automatic reconnect and resume.
//
// The server sends a full snapshot on connect and then every event with its seq. On a
// dropped connection we reconnect with backoff and ask to resume from the last seq we
// hold, so nothing is missed and nothing is applied twice (events at or below the last
// seq are ignored). Everything protocol-specific sits in `wire` so a protocol change is a
// change in one place.

import { savedPlayer } from './api.js';
import { t } from './i18n.js';

/**
 * The wire protocol the browser speaks: 2 (one `step` per change, the view as a JSON merge
 * patch against the view held; proto/README.md) unless `crease.protocol` is "1" in this tab's
 * sessionStorage or in localStorage (the full view in every update; kept for comparing the
 * two: the e2e test counts the bytes of both on one match).
 */
export function protocolVersion() {
  try {
    const pick = (store) => (store ? store.getItem('crease.protocol') : null);
    return (pick(globalThis.sessionStorage) ?? pick(globalThis.localStorage)) === '1' ? 1 : 2;
  } catch {
    return 2;
  }
}

/**
 * RFC 7396 JSON Merge Patch: `patch` applied to `target` (neither is modified). A member set
 * to null is removed, an object member is itself a patch, anything else replaces.
 */
export function mergePatch(target, patch) {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete out[name];
    else out[name] = mergePatch(out[name], value);
  }
  return out;
}

export const wire = {
  /** The socket URL; browsers cannot set headers on a WebSocket, so the token rides in the query. */
  url(matchId, { token, since, protocol = 1 }) {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const params = new URLSearchParams();
    if (token) params.set('token', token);
    if (since !== null && since !== undefined) params.set('resume_from', String(since));
    if (protocol !== 1) params.set('protocol', String(protocol));
    const query = params.toString();
    return `${proto}//${location.host}/v1/matches/${matchId}/ws${query ? '?' + query : ''}`;
  },
  /** A command frame with a client-chosen id and the last seq the player had seen when it
   * decided (`after`): a copy that arrives late can never answer a later decision. */
  command(id, command, after) {
    return after === null || after === undefined ? { type: 'command', id, command } : { type: 'command', id, after, command };
  },
  /** An adjournment frame: offer (with an optional agreed time to resume), accept, decline, withdraw. */
  adjourn(id, action, resumeAt) {
    return resumeAt ? { type: 'adjourn', id, action, resume_at: resumeAt } : { type: 'adjourn', id, action };
  },
  /** Normalises one server frame to {kind, ...}: snapshot | event | ack | error | other. */
  parse(msg) {
    const type = msg.type || msg.kind || msg.t;
    const body = msg.data && typeof msg.data === 'object' ? { ...msg, ...msg.data } : msg;
    switch (type) {
      case 'snapshot':
      case 'welcome':
      case 'hello':
      case 'state':
        return { kind: 'snapshot', ...body, seq: seqOf(body) };
      case 'event':
      case 'events':
        return { kind: 'event', ...body, seq: seqOf(body) };
      case 'update':
        return { kind: 'update', ...body, seq: seqOf(body) };
      case 'step':
        return { kind: 'step', ...body, seq: seqOf(body) };
      case 'finished':
        return { kind: 'finished', ...body };
      case 'pong':
        return { kind: 'pong', ...body };
      case 'ack':
      case 'accepted':
        return { kind: 'ack', ...body };
      case 'error':
      case 'reject':
      case 'rejected': {
        const err = body.error && typeof body.error === 'object' ? body.error : body;
        return {
          kind: 'error',
          id: body.id ?? body.command_id ?? err.id,
          code: err.code || 'error',
          message: err.message || err.reason || err.code || 'refused',
          reason: err.reason ?? body.reason,
        };
      }
      default:
        return { kind: type || 'other', ...body };
    }
  },
};

function seqOf(msg) {
  const seq = msg.seq ?? msg.last_seq ?? msg.lastSeq;
  return typeof seq === 'number' ? seq : null;
}

const BACKOFF_MS = [300, 700, 1500, 3000, 5000, 8000];

/** The server's close code when the socket's login session ends (proto/README.md). */
const SESSION_ENDED = 4401;

export class Connection {
  /**
   * @param matchId the match to follow
   * @param handlers {onSnapshot, onEvent, onAck, onError, onStatus, onOther}
   * @param options {spectate: bool} spectators connect without a token
   */
  constructor(matchId, handlers, options = {}) {
    this.matchId = matchId;
    this.handlers = handlers;
    this.spectate = Boolean(options.spectate);
    this.lastSeq = options.since ?? null;
    this.ws = null;
    this.attempt = 0;
    this.closedByUs = false;
    this.timer = null;
    this.nextId = 1;
    this.inFlight = new Map();
    this.finished = false;
    this.status = 'idle';
    this.protocol = options.protocol ?? protocolVersion();
    // Protocol 2: the view the server's patches apply to (the snapshot's, patched by every
    // step since, in order).
    this.view = null;
    this.onOnline = () => this.reconnectNow();
    window.addEventListener('online', this.onOnline);
  }

  open() {
    this.closedByUs = false;
    clearTimeout(this.timer);
    const player = this.spectate ? null : savedPlayer();
    const url = wire.url(this.matchId, { token: player && player.token, since: this.lastSeq, protocol: this.protocol });
    this.setStatus(this.attempt === 0 ? 'connecting' : 'reconnecting');
    let ws;
    try {
      ws = new WebSocket(url);
    } catch (error) {
      this.scheduleReconnect(String(error));
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.setStatus('open');
    };
    ws.onmessage = (frame) => this.receive(frame.data);
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.failInFlight(t('errors.client.disconnected'));
      if (this.closedByUs || this.finished) {
        // A finished match has nothing more to send: the server closes and we stay closed.
        this.setStatus(this.finished ? 'finished' : 'closed');
      } else if (event.code === SESSION_ENDED) {
        // The token's session ended (logged out, here or everywhere, or expired): the same
        // token would be refused, so reconnecting is pointless until the player logs in.
        this.setStatus('closed', { reason: t('errors.short.session_ended') });
        this.handlers.onError?.({ code: 'session_ended', message: t('errors.client.session_ended') });
      } else {
        this.scheduleReconnect(event.reason || `code ${event.code}`);
      }
    };
    ws.onerror = () => {
      /* onclose follows and schedules the reconnect */
    };
  }

  receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      this.handlers.onError?.({ code: 'bad_frame', message: t('errors.client.bad_frame') });
      return;
    }
    const frames = Array.isArray(msg) ? msg : [msg];
    for (const frame of frames) this.dispatch(wire.parse(frame));
  }

  dispatch(msg) {
    switch (msg.kind) {
      case 'snapshot':
        // Protocol 2 leaves null members out: a missing clock is no clock.
        if (!('deadline_ms' in msg)) msg.deadline_ms = null;
        this.view = msg.view ?? null;
        // On a resume the server may replay the events after our seq behind the snapshot,
        // so the snapshot's seq only seeds a fresh session; updates advance it later.
        if (msg.seq !== null && this.lastSeq === null) this.lastSeq = msg.seq;
        this.handlers.onSnapshot?.(msg);
        break;
      case 'update':
        if (msg.seq !== null) this.lastSeq = Math.max(this.lastSeq ?? msg.seq, msg.seq);
        this.handlers.onUpdate?.(msg);
        break;
      case 'step': {
        // Protocol 2: one frame per change, the events then the view patched in place; it
        // is handed on as protocol 1's `event`s and `update`, so the page sees one protocol.
        for (const [seq, event] of Array.isArray(msg.events) ? msg.events : []) this.dispatch({ kind: 'event', seq, event });
        this.view = mergePatch(this.view, msg.view ?? {});
        this.dispatch({ kind: 'update', view: this.view, pending: msg.pending ?? [], deadline_ms: msg.deadline_ms ?? null, timed_out: msg.timed_out ?? null, last_seq: msg.last_seq, seq: msg.seq });
        break;
      }
      case 'finished':
        this.handlers.onFinished?.(msg);
        break;
      case 'adjournment':
        // An offer to adjourn, its answer, the adjournment or the resume: sent to every viewer
        // just before the update of that change (protocol 1 and 2 alike).
        this.handlers.onAdjournment?.(msg);
        break;
      case 'pong':
        break;
      case 'event': {
        if (msg.seq !== null && this.lastSeq !== null && msg.seq <= this.lastSeq) return;
        if (msg.seq !== null) this.lastSeq = msg.seq;
        this.handlers.onEvent?.(msg);
        break;
      }
      case 'ack': {
        const waiting = this.inFlight.get(msg.id);
        this.inFlight.delete(msg.id);
        waiting?.resolve(msg);
        this.handlers.onAck?.(msg);
        break;
      }
      case 'error': {
        const waiting = msg.id !== undefined ? this.inFlight.get(msg.id) : undefined;
        if (waiting) this.inFlight.delete(msg.id);
        waiting?.reject(msg);
        this.handlers.onError?.(msg);
        // Its fate is unknown: resume from the log, which shows whether it was applied and
        // asks again if it was not (proto/README.md, retrying).
        if (msg.code === 'in_doubt' && this.ws) this.ws.close(4000, 'in doubt: resuming');
        break;
      }
      default:
        this.handlers.onOther?.(msg);
    }
  }

  /** Sends a command; resolves on ack, rejects with the server's {code, message}. */
  send(command) {
    const id = `c${Date.now().toString(36)}-${this.nextId++}`;
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      return Promise.reject({ code: 'offline', message: t('errors.client.offline') });
    }
    return new Promise((resolve, reject) => {
      this.inFlight.set(id, { resolve, reject });
      this.ws.send(JSON.stringify(wire.command(id, command, this.lastSeq)));
    });
  }

  /**
   * Offers, accepts, declines or withdraws an adjournment (`action`; an offer may carry an
   * agreed `resumeAt`, RFC 3339 UTC). Resolves on ack, rejects with the server's
   * `{code: "adjourn_refused", reason}` or another error.
   */
  adjourn(action, resumeAt = null) {
    const id = `a${Date.now().toString(36)}-${this.nextId++}`;
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      return Promise.reject({ code: 'offline', message: t('errors.client.offline') });
    }
    return new Promise((resolve, reject) => {
      this.inFlight.set(id, { resolve, reject });
      this.ws.send(JSON.stringify(wire.adjourn(id, action, resumeAt)));
    });
  }

  failInFlight(message) {
    for (const [, waiting] of this.inFlight) waiting.reject({ code: 'disconnected', message });
    this.inFlight.clear();
  }

  scheduleReconnect(reason) {
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.setStatus('reconnecting', { reason, delay, attempt: this.attempt });
    this.timer = setTimeout(() => this.open(), delay);
  }

  reconnectNow() {
    if (this.closedByUs || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return;
    clearTimeout(this.timer);
    this.open();
  }

  /** Drops the socket as if the network failed (the e2e test of reconnecting uses it). */
  dropForTest() {
    this.ws?.close(4000, 'dropped by the user');
  }

  close() {
    this.closedByUs = true;
    clearTimeout(this.timer);
    window.removeEventListener('online', this.onOnline);
    this.ws?.close(1000, 'leaving');
    this.setStatus('closed');
  }

  setStatus(status, detail = {}) {
    this.status = status;
    this.handlers.onStatus?.(status, detail);
  }
}
