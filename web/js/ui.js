// Shared screen pieces: toasts, the player badge, small widgets used by every game.

import { h, mount, label } from './dom.js';
import { api, savedPlayer, forgetPlayer } from './api.js';
import { t } from './i18n.js';
import { errorText } from './errors.js';

/** A short message in the corner; kind = info | error | ok. */
export function toast(message, kind = 'info', ms = 5000) {
  const box = document.getElementById('toasts');
  if (!box) return;
  const el = h('div', { class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, message);
  box.append(el);
  setTimeout(() => el.remove(), ms);
}

/**
 * The header's right side: who is playing (a link to their profile) and their account. A
 * guest gets no "sign out": its token is the only key to the account, so it is offered the
 * claim instead; a claimed account logs out through the server, which ends the session.
 */
export function renderWho() {
  const who = document.getElementById('who');
  const player = savedPlayer();
  if (!who) return;
  if (!player) {
    mount(who, h('a', { href: '#/login', 'data-testid': 'nav-login' }, t('common.who.logIn')));
    return;
  }
  mount(
    who,
    h('a', { class: 'player-name', href: `#/players/${player.player_id}`, 'data-testid': 'player-name', title: t('common.who.profile'), 'data-no-i18n': '' }, player.name || t('common.who.guest')),
    h('a', { href: '#/account', 'data-testid': 'nav-account' }, player.username ? t('common.who.account') : t('common.who.claim')),
    player.username
      ? h('button', {
          class: 'link',
          'data-testid': 'sign-out',
          title: t('common.who.signOutTitle'),
          onclick: async () => {
            try {
              await api.logOut();
            } catch (err) {
              if (err.code !== 'unauthorized') {
                toast(errorText(err), 'error');
                return;
              }
            }
            forgetPlayer();
            location.hash = '#/';
            renderWho();
            window.dispatchEvent(new HashChangeEvent('hashchange'));
          },
        }, t('common.who.signOut'))
      : null,
  );
}

/** Dice faces as boxes; `held` marks dice the player keeps, `onToggle` makes them clickable. */
export function diceRow(faces, { held = new Set(), onToggle, kind = '' } = {}) {
  return h(
    'div',
    { class: 'dice-row' },
    faces.map((face, index) =>
      h(
        onToggle ? 'button' : 'span',
        {
          class: ['die', kind, held.has(index) && 'held', faceClass(face)],
          title: onToggle ? (held.has(index) ? t('common.dice.kept') : t('common.dice.reroll')) : label(face),
          'aria-pressed': onToggle ? String(!held.has(index)) : undefined,
          dataset: { index: String(index), face: String(face) },
          onclick: onToggle ? () => onToggle(index) : undefined,
        },
        dieText(face),
      ),
    ),
  );
}

function faceClass(face) {
  return `face-${String(face).toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}

function dieText(face) {
  if (face === null || face === undefined) return '?';
  if (typeof face === 'object') {
    const value = face.value ?? face.face ?? face.roll;
    const sides = face.sides ?? face.die;
    return sides ? `${value}` : label(JSON.stringify(face));
  }
  return String(face);
}

/** A single rolled die with its size: "D6 → 4". */
export function rolledDie(name, value, sides) {
  return h(
    'span',
    { class: 'rolled', title: `${name}${sides ? ` (D${sides})` : ''}` },
    h('span', { class: 'rolled-name' }, name),
    h('span', { class: ['die', 'small', sides === 8 && 'd8'] }, String(value ?? '?')),
  );
}

/** A labelled stat cell for scoreboards. */
export function stat(name, value, testid) {
  return h(
    'div',
    { class: 'stat', 'data-testid': testid },
    h('div', { class: 'stat-value' }, value === undefined || value === null ? '-' : String(value)),
    h('div', { class: 'stat-name' }, name),
  );
}

/** A collapsible panel. */
export function panel(title, body, { open = true, cls = '', testid } = {}) {
  return h('section', { class: ['panel', cls], 'data-testid': testid }, h('h3', {}, title), body);
}
