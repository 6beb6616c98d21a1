// Adjourning a match by agreement: a seated player offers to stop (optionally with an agreed
// time to resume), the other accepts or declines, the offer can be withdrawn; an adjourned
// match stops its clocks and resumes by itself once every player is back (or at the agreed
// time). The server says each change to every viewer in an `adjournment` frame
// (`{state, action, seat?, resume_at?, adjourned_at?, expires_at?}`), and the snapshot carries
// the current one. This module holds the words and the pieces of screen; js/game.js the state.

import { h, fill, proper } from './dom.js';
import { t, lang, list } from './i18n.js';
import { aboutSeat } from './words.js';

/** "4 Dec 2026, 18:00" / "4 de dez. de 2026 18:00": a moment in the reader's language and time zone. */
export function when(iso) {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '';
  return new Date(at).toLocaleString(lang(), { dateStyle: 'medium', timeStyle: 'short' });
}

/** The adjournment a snapshot or frame carries, or null for "playing, nothing offered". */
export function normalise(msg) {
  if (!msg || typeof msg !== 'object' || !msg.state) return null;
  const out = { state: String(msg.state), action: msg.action ? String(msg.action) : null };
  if (typeof msg.seat === 'number') out.seat = msg.seat;
  for (const name of ['resume_at', 'adjourned_at', 'expires_at']) if (msg[name]) out[name] = String(msg[name]);
  // While offered, the seats that still have to accept (in a game of more than two seats).
  if (Array.isArray(msg.waiting_for) && msg.waiting_for.length) out.waiting_for = msg.waiting_for.map(Number);
  return out;
}

/**
 * The commentary line of a change (a frame, or a log entry's payload `{action, seat?, ...}`):
 * "Ann offered to adjourn the match." / "You agreed: the match is adjourned." / "The match resumed."
 * `seatName(seat)` names a seat ("you" for this browser's).
 */
export function adjournmentLine(change, seatName) {
  if (!change || !change.action) return null;
  const action = String(change.action);
  if (action === 'resumed') return t('common.adjourn.line.resumed');
  const name = typeof change.seat === 'number' ? seatName(change.seat) : t('common.match.opponent');
  if (action === 'offered' && change.resume_at) return aboutSeat('common.adjourn.line.offeredAt', name, { time: when(change.resume_at) });
  if (['offered', 'accepted', 'declined', 'withdrawn', 'agreed'].includes(action)) return aboutSeat(`common.adjourn.line.${action}`, name);
  return null;
}

/** "The match resumes when both players are back, or at …": by how many people play. */
export function resumesText(adj, people) {
  const who = people <= 1 ? 'You' : people === 2 ? 'Both' : 'All';
  return adj.resume_at
    ? t(`common.adjourn.resumes${who}OrAt`, { time: when(adj.resume_at) })
    : t(`common.adjourn.resumes${who}`);
}

/**
 * The strip under the match header: an offer (theirs with Accept / Decline, ours with
 * Withdraw), or the calm adjourned panel with the match link. Null when there is nothing to
 * show. `ctx`: {adj, seat, spectate, seatName, others (names), people, busy, link,
 * act(action, resumeAt)}.
 */
export function adjournStrip(ctx) {
  const { adj, seat, spectate } = ctx;
  if (adj && adj.state === 'adjourned') return adjournedPanel(ctx);
  if (adj && adj.state === 'offered') {
    const mine = !spectate && seat !== null && adj.seat === seat;
    const time = adj.resume_at ? when(adj.resume_at) : null;
    if (mine) {
      const others = ctx.others.length ? ctx.others : [t('common.match.opponent')];
      const names = others.length > 1 ? list(others) : others[0];
      return h('div', { class: 'adjourn-strip offer mine', 'data-testid': 'adjourn-banner', 'data-state': 'offered-mine', role: 'status' },
        h('span', { class: 'adjourn-text', 'data-testid': 'adjourn-text' },
          fill(time ? t('common.adjourn.sentAt', { time }) : t('common.adjourn.sent'), { name: proper(names) })),
        h('span', { class: 'adjourn-buttons' },
          h('button', { 'data-testid': 'adjourn-withdraw', disabled: ctx.busy, onclick: () => ctx.act('withdraw') }, t('common.adjourn.withdraw'))));
    }
    // In a game of more than two seats, one that has accepted waits for the rest.
    if (!spectate && seat !== null && Array.isArray(adj.waiting_for) && !adj.waiting_for.includes(seat)) {
      const names = ctx.others.length > 1 ? list(ctx.others) : ctx.others[0] || t('common.match.opponent');
      return h('div', { class: 'adjourn-strip offer mine', 'data-testid': 'adjourn-banner', 'data-state': 'accepted-waiting', role: 'status' },
        h('span', { class: 'adjourn-text', 'data-testid': 'adjourn-text' }, fill(t('common.adjourn.acceptedWaiting'), { name: proper(names) })));
    }
    const name = typeof adj.seat === 'number' ? ctx.seatName(adj.seat) : t('common.match.opponent');
    return h('div', { class: 'adjourn-strip offer theirs', 'data-testid': 'adjourn-banner', 'data-state': spectate ? 'offered-watch' : 'offered-theirs', role: 'alert' },
      h('span', { class: 'adjourn-text', 'data-testid': 'adjourn-text' },
        fill(time ? t('common.adjourn.theirOfferAt', { time }) : t('common.adjourn.theirOffer'), { name: proper(name) })),
      spectate || seat === null
        ? null
        : h('span', { class: 'adjourn-buttons' },
          h('button', { class: 'primary', 'data-testid': 'adjourn-accept', disabled: ctx.busy, onclick: () => ctx.act('accept') }, t('common.adjourn.accept')),
          h('button', { 'data-testid': 'adjourn-decline', disabled: ctx.busy, onclick: () => ctx.act('decline') }, t('common.adjourn.decline'))));
  }
  return null;
}

/**
 * Below the question (never above it, so it does not move): **Adjourn…** for a seated
 * player while nothing is offered, which opens the offer form in its place.
 * `ctx`: {canOffer, formOpen, busy, act(action, resumeAt), openForm(bool)}.
 */
export function adjournTools(ctx) {
  if (!ctx.canOffer) return null;
  if (ctx.formOpen) return offerForm(ctx);
  return h('button', { class: 'adjourn-open', 'data-testid': 'adjourn-open', title: t('common.adjourn.openTitle'), 'aria-expanded': 'false', onclick: () => ctx.openForm(true) }, t('common.adjourn.open'));
}

/** The offer: an optional time to resume (the browser's local time, sent as UTC). */
function offerForm(ctx) {
  const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'adjourn-form-error' });
  const input = h('input', { type: 'datetime-local', id: 'adjourn-resume-at', 'data-testid': 'adjourn-resume-at', min: localInputValue(new Date(Date.now() + 60000)) });
  const submit = () => {
    let resumeAt = null;
    if (input.value) {
      const at = new Date(input.value);
      if (Number.isNaN(at.getTime()) || at.getTime() <= Date.now()) {
        error.textContent = t('common.adjourn.pastTime');
        return;
      }
      resumeAt = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    ctx.act('offer', resumeAt);
  };
  return h('div', { class: 'adjourn-strip form', 'data-testid': 'adjourn-form' },
    h('p', { class: 'adjourn-text' }, t('common.adjourn.formLead')),
    h('div', { class: 'adjourn-when' },
      h('label', { for: 'adjourn-resume-at' }, t('common.adjourn.resumeAt')),
      input,
      h('small', { class: 'muted' }, t('common.adjourn.resumeAtHint'))),
    error,
    h('span', { class: 'adjourn-buttons' },
      h('button', { class: 'primary', 'data-testid': 'adjourn-offer', disabled: ctx.busy, onclick: submit }, t('common.adjourn.offer')),
      h('button', { 'data-testid': 'adjourn-cancel', onclick: () => ctx.openForm(false) }, t('common.adjourn.cancel'))));
}

/** Adjourned: when it resumes, when it lapses, and the link to come back by. */
function adjournedPanel(ctx) {
  const { adj } = ctx;
  const copied = h('span', { class: 'muted', 'data-testid': 'adjourn-copied', role: 'status' });
  const linkBox = h('input', { class: 'invite-link mono', readonly: true, value: ctx.link, 'data-testid': 'adjourn-link', 'aria-label': t('common.adjourn.linkLabel'), onfocus: (e) => e.target.select() });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(ctx.link);
      copied.textContent = t('common.adjourn.copied');
    } catch {
      linkBox.select();
      copied.textContent = t('common.invite.copyByHand');
    }
  };
  return h('section', { class: 'adjourn-strip adjourned', 'data-testid': 'adjourn-panel', 'data-state': 'adjourned', role: 'status' },
    h('strong', { class: 'adjourn-title' }, t('common.adjourn.title')),
    h('p', { 'data-testid': 'adjourn-resumes' }, resumesText(adj, ctx.people)),
    adj.expires_at ? h('p', { class: 'muted', 'data-testid': 'adjourn-expires' }, t('common.adjourn.expires', { time: when(adj.expires_at) })) : null,
    h('div', { class: 'adjourn-link' }, linkBox,
      h('button', { 'data-testid': 'adjourn-copy', onclick: copy }, t('common.adjourn.copyLink')), copied));
}

/** The "Adjourned" badge of a match in a list (`adjourned_at` present), or null. */
export function adjournedBadge(match) {
  if (!match || !match.adjourned_at) return null;
  const text = match.resume_at ? t('common.adjourn.badgeUntil', { time: when(match.resume_at) }) : t('common.adjourn.badge');
  return h('span', { class: 'badge adjourned-badge', 'data-testid': 'adjourned-badge', title: t('common.adjourn.badge') }, text);
}

/** A Date as a `datetime-local` input's value, in local time. */
function localInputValue(date) {
  const p = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}T${p(date.getHours())}:${p(date.getMinutes())}`;
}
