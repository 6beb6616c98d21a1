// The server's errors in the player's language: every error it sends carries a stable code
// (HTTP `{"error": {"code", "message"}}`, a socket `{"type": "error", code, reason}` frame),
// and the page shows the catalogue's sentence for that code, never the server's English.
// The server's own message is kept only for a code this client does not know yet.

import { t, has } from './i18n.js';

/**
 * The sentence for an error: an ApiError (api.js: `status`, `code`), a socket error frame
 * (`{code, reason, message}`), or one of the page's own (`offline`, `disconnected`, ...).
 * `game` picks the game's refusal reasons (`errors.reason.<game>.<reason>`).
 */
export function errorText(err, game) {
  if (err === null || err === undefined) return t('errors.unknown', { message: '' });
  if (typeof err === 'string') return t('errors.unknown', { message: err });
  const code = err.code ? String(err.code) : '';
  const reason = err.reason ? String(err.reason) : '';
  // An adjournment refused (offer, accept, decline, withdraw): why, from its reason.
  if (code === 'adjourn_refused' && reason && has(`errors.adjourn.${reason}`)) return t(`errors.adjourn.${reason}`);
  if (reason && game && has(`errors.reason.${game}.${reason}`)) return t(`errors.reason.${game}.${reason}`);
  if (code === 'network') return t('errors.network');
  // An HTTP error has a status; a socket frame has none. Each looks in its own list first.
  const lists = typeof err.status === 'number' ? ['http', 'ws', 'client'] : ['ws', 'client', 'http'];
  for (const list of lists) {
    if (code && has(`errors.${list}.${code}`)) return t(`errors.${list}.${code}`);
  }
  return t('errors.unknown', { message: err.message || code || '' });
}

/** "illegal move": the short name of a code, for "Refused (illegal move):". */
export function errorName(err) {
  const code = (err && err.code) || 'error';
  return has(`errors.short.${code}`) ? t(`errors.short.${code}`) : String(code).replace(/_/g, ' ');
}
