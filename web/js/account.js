// Accounts: log in on this browser to an account claimed elsewhere (#/login), and the
// account page (#/account) where a guest claims itself with a password and a claimed
// account logs out here or everywhere.

import { h, mount } from './dom.js';
import { api, savedPlayer, savePlayer, forgetPlayer } from './api.js';
import { toast, renderWho } from './ui.js';

/** A labelled input; `id` doubles as the test id. */
function field(id, text, attrs = {}) {
  const input = h('input', { id, name: id, required: true, 'data-testid': id, ...attrs });
  return { input, node: h('div', { class: 'field' }, h('label', { for: id }, text), input) };
}

export function showLogin(root, done) {
  const username = field('login-username', 'Login name', { autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false', maxlength: 32 });
  const password = field('login-password', 'Password', { type: 'password', autocomplete: 'current-password', maxlength: 128 });
  const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'login-error' });
  const guest = savedPlayer();
  const button = h('button', { type: 'submit', class: 'primary', 'data-testid': 'login-submit' }, 'Log in');
  const form = h(
    'form',
    {
      class: 'card narrow',
      onsubmit: async (event) => {
        event.preventDefault();
        error.textContent = '';
        button.disabled = true;
        try {
          const session = await api.logIn(username.input.value.trim(), password.input.value);
          savePlayer(session);
          renderWho();
          toast(`Logged in as ${session.name}.`, 'ok');
          done();
        } catch (err) {
          error.textContent = err.message;
          password.input.select();
        } finally {
          button.disabled = false;
        }
      },
    },
    h('h1', {}, 'Log in'),
    h('p', { class: 'muted' }, 'With the login name and password you chose when you claimed your account on another device.'),
    guest && !guest.username
      ? h('p', { class: 'warning', 'data-testid': 'guest-warning' }, `This browser's guest “${guest.name}” is replaced by the account you log in to. Claim it first (Account page) if you want to keep it.`)
      : null,
    username.node,
    password.node,
    button,
    error,
    h('p', { class: 'muted' }, h('a', { href: '#/' }, 'Play as a new guest instead')),
  );
  mount(root, h('div', { class: 'screen center' }, form));
  username.input.focus();
  return {};
}

export function showAccount(root) {
  const box = h('div', { class: 'card narrow', 'data-testid': 'account' }, h('p', { class: 'muted' }, 'Loading…'));
  mount(root, h('div', { class: 'screen center' }, box));
  let disposed = false;

  async function load() {
    try {
      const account = await api.account();
      if (!disposed) draw(account);
    } catch (err) {
      mount(box, h('p', { class: 'error' }, err.message));
    }
  }

  function draw(account) {
    const facts = h('dl', { class: 'facts' },
      h('dt', {}, 'Name'), h('dd', { 'data-testid': 'account-name' }, account.name),
      h('dt', {}, 'Player id'), h('dd', { class: 'mono' }, h('a', { href: `#/players/${account.player_id}` }, account.player_id)),
      h('dt', {}, 'Login name'), h('dd', { 'data-testid': 'account-username' }, account.username || 'none yet (guest)'),
      h('dt', {}, 'This session'), h('dd', {}, account.session_expires_at ? `until ${new Date(account.session_expires_at).toLocaleString()}` : 'kept until you claim the account'),
    );
    mount(box, h('h1', {}, 'Your account'), facts, account.username ? sessionControls() : claimForm());
  }

  function claimForm() {
    const username = field('claim-username', 'Login name', { autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false', minlength: 3, maxlength: 32, pattern: '[A-Za-z0-9][A-Za-z0-9._\\-]{2,31}' });
    const password = field('claim-password', 'Password (8 characters or more)', { type: 'password', autocomplete: 'new-password', minlength: 8, maxlength: 128 });
    const again = field('claim-password-again', 'Password again', { type: 'password', autocomplete: 'new-password', minlength: 8, maxlength: 128 });
    const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'claim-error' });
    return h('form', {
      onsubmit: async (event) => {
        event.preventDefault();
        error.textContent = '';
        if (password.input.value !== again.input.value) {
          error.textContent = 'The two passwords differ.';
          again.input.select();
          return;
        }
        try {
          const account = await api.claim(username.input.value.trim(), password.input.value);
          const player = savedPlayer();
          savePlayer({ ...player, username: account.username, expires_at: account.session_expires_at });
          renderWho();
          toast('Account claimed: log in anywhere with your login name and password.', 'ok');
          draw(account);
        } catch (err) {
          error.textContent = err.message;
        }
      },
    },
    h('h2', {}, 'Claim this account'),
    h('p', { class: 'muted' }, 'Today this guest lives only in this browser. Choose a login name and a password to play as yourself on any device; your ratings and matches come along.'),
    username.node,
    h('small', { class: 'muted' }, '3 to 32 letters, digits, dots, dashes or underscores; not case-sensitive.'),
    password.node,
    again.node,
    h('button', { type: 'submit', class: 'primary', 'data-testid': 'claim-submit' }, 'Claim'),
    error);
  }

  function sessionControls() {
    const error = h('p', { class: 'error', role: 'alert' });
    const end = (everywhere) => async () => {
      error.textContent = '';
      try {
        await (everywhere ? api.logOutEverywhere() : api.logOut());
        forgetPlayer();
        renderWho();
        toast(everywhere ? 'Logged out on every device.' : 'Logged out.', 'ok');
        location.hash = '#/';
      } catch (err) {
        error.textContent = err.message;
      }
    };
    return h('div', { class: 'buttons' },
      h('button', { 'data-testid': 'log-out', onclick: end(false) }, 'Log out'),
      h('button', { 'data-testid': 'log-out-everywhere', onclick: end(true) }, 'Log out everywhere'),
      error);
  }

  load();
  return { dispose() { disposed = true; } };
}
