// Accounts: log in on this browser to an account claimed elsewhere (#/login), and the
// account page (#/account) where a guest claims itself with a password and a claimed
// account logs out here or everywhere.

import { h, mount } from './dom.js';
import { api, savedPlayer, savePlayer, forgetPlayer } from './api.js';
import { toast, renderWho } from './ui.js';
import { t, lang } from './i18n.js';
import { errorText } from './errors.js';

/** A labelled input; `id` doubles as the test id. */
function field(id, text, attrs = {}) {
  const input = h('input', { id, name: id, required: true, 'data-testid': id, ...attrs });
  return { input, node: h('div', { class: 'field' }, h('label', { for: id }, text), input) };
}

export function showLogin(root, done) {
  const username = field('login-username', t('common.account.loginName'), { autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false', maxlength: 32 });
  const password = field('login-password', t('common.account.password'), { type: 'password', autocomplete: 'current-password', maxlength: 128 });
  const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'login-error' });
  const guest = savedPlayer();
  const button = h('button', { type: 'submit', class: 'primary', 'data-testid': 'login-submit' }, t('common.account.logIn'));
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
          toast(t('common.account.loggedInAs', { name: session.name }), 'ok');
          done();
        } catch (err) {
          error.textContent = errorText(err);
          password.input.select();
        } finally {
          button.disabled = false;
        }
      },
    },
    h('h1', {}, t('common.account.logIn')),
    h('p', { class: 'muted' }, t('common.account.loginLead')),
    guest && !guest.username
      ? h('p', { class: 'warning', 'data-testid': 'guest-warning' }, t('common.account.guestWarning', { name: guest.name }))
      : null,
    username.node,
    password.node,
    button,
    error,
    h('p', { class: 'muted' }, h('a', { href: '#/' }, t('common.account.newGuest'))),
  );
  mount(root, h('div', { class: 'screen center' }, form));
  username.input.focus();
  return {};
}

export function showAccount(root) {
  const box = h('div', { class: 'card narrow', 'data-testid': 'account' }, h('p', { class: 'muted' }, t('common.loading')));
  mount(root, h('div', { class: 'screen center' }, box));
  let disposed = false;

  async function load() {
    try {
      const account = await api.account();
      if (!disposed) draw(account);
    } catch (err) {
      mount(box, h('p', { class: 'error' }, errorText(err)));
    }
  }

  function draw(account) {
    const facts = h('dl', { class: 'facts' },
      h('dt', {}, t('common.account.name')), h('dd', { 'data-testid': 'account-name', 'data-no-i18n': '' }, account.name),
      h('dt', {}, t('common.account.playerId')), h('dd', { class: 'mono' }, h('a', { href: `#/players/${account.player_id}` }, account.player_id)),
      h('dt', {}, t('common.account.loginName')), h('dd', { 'data-testid': 'account-username' }, account.username || t('common.account.noLoginName')),
      h('dt', {}, t('common.account.session')), h('dd', {}, account.session_expires_at ? t('common.account.until', { when: new Date(account.session_expires_at).toLocaleString(lang()) }) : t('common.account.keptUntilClaim')),
    );
    mount(box, h('h1', {}, t('common.account.title')), facts, account.username ? sessionControls() : claimForm());
  }

  function claimForm() {
    const username = field('claim-username', t('common.account.loginName'), { autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false', minlength: 3, maxlength: 32, pattern: '[A-Za-z0-9][A-Za-z0-9._\\-]{2,31}' });
    const password = field('claim-password', t('common.account.newPassword'), { type: 'password', autocomplete: 'new-password', minlength: 8, maxlength: 128 });
    const again = field('claim-password-again', t('common.account.passwordAgain'), { type: 'password', autocomplete: 'new-password', minlength: 8, maxlength: 128 });
    const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'claim-error' });
    return h('form', {
      onsubmit: async (event) => {
        event.preventDefault();
        error.textContent = '';
        if (password.input.value !== again.input.value) {
          error.textContent = t('common.account.differ');
          again.input.select();
          return;
        }
        try {
          const account = await api.claim(username.input.value.trim(), password.input.value);
          const player = savedPlayer();
          savePlayer({ ...player, username: account.username, expires_at: account.session_expires_at });
          renderWho();
          toast(t('common.account.claimed'), 'ok');
          draw(account);
        } catch (err) {
          error.textContent = errorText(err);
        }
      },
    },
    h('h2', {}, t('common.account.claimTitle')),
    h('p', { class: 'muted' }, t('common.account.claimLead')),
    username.node,
    h('small', { class: 'muted' }, t('common.account.loginNameHint')),
    password.node,
    again.node,
    h('button', { type: 'submit', class: 'primary', 'data-testid': 'claim-submit' }, t('common.account.claim')),
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
        toast(everywhere ? t('common.account.loggedOutEverywhere') : t('common.account.loggedOut'), 'ok');
        location.hash = '#/';
      } catch (err) {
        error.textContent = errorText(err);
      }
    };
    return h('div', { class: 'buttons' },
      h('button', { 'data-testid': 'log-out', onclick: end(false) }, t('common.account.logOut')),
      h('button', { 'data-testid': 'log-out-everywhere', onclick: end(true) }, t('common.account.logOutEverywhere')),
      error);
  }

  load();
  return { dispose() { disposed = true; } };
}
