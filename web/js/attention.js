// "Your turn" where a player looks when the tab is in the background: the tab's title and
// favicon change while a decision waits, and, if the player turned it on, a browser
// notification when the tab is hidden. Notifications are off by default; permission is
// asked once, when the player turns them on. An optional sound (off by default, remembered
// in localStorage) plays when a new decision arrives, whether the tab is hidden or not.

import { h } from './dom.js';
import { t } from './i18n.js';

const KEY = 'crease.notify';
const SOUND_KEY = 'crease.sound';
const FAVICON = '/favicon.svg';
// The usual icon with a yellow dot: a decision waits.
const FAVICON_TURN = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#2f6b3a"/><circle cx="16" cy="16" r="7" fill="#b22a2a"/><circle cx="25" cy="7" r="7" fill="#f3c24a" stroke="#fff" stroke-width="1.5"/></svg>')}`;

let waiting = false;

function favicon(href) {
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.append(link);
  }
  link.type = 'image/svg+xml';
  if (link.getAttribute('href') !== href) link.setAttribute('href', href);
}

/** Whether the player turned notifications on (and the browser still allows them). */
export function notificationsOn() {
  try {
    return localStorage.getItem(KEY) === 'on' && typeof Notification !== 'undefined' && Notification.permission === 'granted';
  } catch {
    return false;
  }
}

/**
 * Call on every redraw: `mine` is whether a decision waits for this browser. Changes the
 * title and favicon, and notifies once per new decision while the tab is hidden.
 */
export function yourTurn(mine, { game = 'crease' } = {}) {
  // The page's title in the language on screen (the header sets it on every route).
  const baseTitle = t('common.title');
  if (mine) {
    document.title = t('common.turn.title', { title: baseTitle });
    document.documentElement.dataset.yourTurn = 'true';
    favicon(FAVICON_TURN);
    if (!waiting && soundOn()) chime();
    if (!waiting && document.hidden && notificationsOn()) {
      try {
        const note = new Notification(t('common.turn.notifyTitle'), { body: t('common.turn.notifyBody', { game }), tag: 'crease-turn', icon: FAVICON });
        note.onclick = () => { window.focus(); note.close(); };
      } catch {
        /* some browsers only notify from a service worker: the title still says it */
      }
    }
  } else {
    document.title = baseTitle;
    delete document.documentElement.dataset.yourTurn;
    favicon(FAVICON);
  }
  waiting = Boolean(mine);
}

/** The header's switch: off by default; turning it on asks the browser once. */
export function notifyToggle() {
  if (typeof Notification === 'undefined') return null;
  let on = false;
  try {
    on = localStorage.getItem(KEY) === 'on';
  } catch {
    return null;
  }
  const denied = Notification.permission === 'denied';
  const box = h('input', {
    type: 'checkbox',
    checked: on && !denied,
    disabled: denied,
    'data-testid': 'notify-toggle',
    onchange: async (event) => {
      const want = event.target.checked;
      if (want && Notification.permission === 'default') {
        const answer = await Notification.requestPermission().catch(() => 'denied');
        if (answer !== 'granted') event.target.checked = false;
      }
      try {
        localStorage.setItem(KEY, event.target.checked ? 'on' : 'off');
      } catch {
        /* storage refused: the switch lasts this page */
      }
    },
  });
  return h('label', { class: 'notify', title: denied ? t('common.turn.notifyBlocked') : t('common.turn.notifyHint') },
    box, ' ', t('common.turn.notify'));
}

/** Whether the player turned the turn sound on. */
export function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) === 'on';
  } catch {
    return false;
  }
}

let audio = null;
/** Sounds counted, for the e2e test (headless Chromium plays into nothing). */
export const chimes = { played: 0 };

/** Two short soft notes, made with the Web Audio API (no sound file to download). */
export function chime() {
  chimes.played += 1;
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio ||= new Context();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
    const start = audio.currentTime + 0.01;
    [[660, 0], [880, 0.14]].forEach(([frequency, offset]) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.18, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.22);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + offset);
      osc.stop(start + offset + 0.25);
    });
  } catch {
    /* no audio here: the title and favicon still say it */
  }
}

/** The header's sound switch: off by default, kept in localStorage; turning it on plays it once. */
export function soundToggle() {
  let on = false;
  try {
    on = localStorage.getItem(SOUND_KEY) === 'on';
  } catch {
    return null;
  }
  const box = h('input', {
    type: 'checkbox',
    checked: on,
    'data-testid': 'sound-toggle',
    onchange: (event) => {
      try {
        localStorage.setItem(SOUND_KEY, event.target.checked ? 'on' : 'off');
      } catch {
        /* storage refused: the switch lasts this page */
      }
      // A click is the user gesture browsers want before a page may play sound.
      if (event.target.checked) chime();
    },
  });
  return h('label', { class: 'notify', title: t('common.turn.soundHint') }, box, ' ', t('common.turn.sound'));
}
