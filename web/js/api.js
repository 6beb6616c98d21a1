// The HTTP lobby API (/v1). Every error body is {"error": {"code", "message"}}; callers get
// an ApiError carrying both so the screen can show the server's own sentence.

const STORE_KEY = 'crease.player';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code || `http_${status}`;
  }
}

const DEVICE_KEY = 'crease.device';

/**
 * This browser's device id, made once and kept: a device that logged in to a name before
 * passes that name's login limit, so someone else's wrong guesses cannot lock its owner out.
 */
export function deviceId() {
  let id = null;
  try {
    id = localStorage.getItem(DEVICE_KEY);
    if (!id) {
      const bytes = crypto.getRandomValues(new Uint8Array(18));
      id = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
      localStorage.setItem(DEVICE_KEY, id);
    }
  } catch {
    return undefined; // storage refused (private mode): log in as an unknown device
  }
  return id;
}

/**
 * The account kept in localStorage: {player_id, token, name}, plus {username, expires_at}
 * once it is a claimed account's session (a login, or a guest that claimed itself).
 */
export function savedPlayer() {
  try {
    const raw = localStorage.getItem(STORE_KEY);
    const player = raw ? JSON.parse(raw) : null;
    return player && player.token ? player : null;
  } catch {
    return null;
  }
}

export function savePlayer(player) {
  localStorage.setItem(STORE_KEY, JSON.stringify(player));
}

export function forgetPlayer() {
  localStorage.removeItem(STORE_KEY);
}

async function request(method, path, body) {
  const headers = { Accept: 'application/json' };
  const player = savedPlayer();
  if (player) headers.Authorization = `Bearer ${player.token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    // The page shows errors.network for this code (errors.js); the message is for the console.
    throw new ApiError(0, 'network', `The server cannot be reached (${error.message}).`);
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { raw: text };
    }
  }
  if (response.status === 401 && player && data && data.error && data.error.code === 'unauthorized') {
    // The token no longer opens an account (a fresh database, an expired or revoked
    // session): start over. A wrong password at login is `invalid_credentials` and keeps it.
    forgetPlayer();
    setTimeout(() => window.dispatchEvent(new HashChangeEvent('hashchange')), 0);
  }
  if (!response.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(response.status, err.code, err.message || (data && data.raw) || response.statusText);
  }
  return data;
}

export const api = {
  createPlayer: (name) => request('POST', '/v1/players', { name }),
  listMatches: (status) => request('GET', `/v1/matches?status=${encodeURIComponent(status)}`),
  getMatch: (id) => request('GET', `/v1/matches/${id}`),
  createMatch: (game, options, opponent, turnClockSecs, botLevel, disconnectGraceSecs) => {
    const body = { game, options };
    if (opponent) body.opponent = opponent;
    if (botLevel) body.bot_level = botLevel;
    if (turnClockSecs) body.turn_clock_secs = turnClockSecs;
    if (disconnectGraceSecs !== undefined && disconnectGraceSecs !== null) body.disconnect_grace_secs = disconnectGraceSecs;
    return request('POST', '/v1/matches', body);
  },
  /** The same game, options, clock and number of bot seats as a match just played. */
  rematch: ({ game, options, bots, turnClockSecs, disconnectGraceSecs }) => {
    const body = { game, options };
    if (bots > 0) body.bots = bots;
    if (turnClockSecs) body.turn_clock_secs = turnClockSecs;
    if (disconnectGraceSecs !== undefined) body.disconnect_grace_secs = disconnectGraceSecs;
    return request('POST', '/v1/matches', body);
  },
  joinMatch: (id) => request('POST', `/v1/matches/${id}/join`, {}),
  leaveMatch: (id) => request('POST', `/v1/matches/${id}/leave`, {}),
  createTicket: (game, options) => request('POST', '/v1/matchmaking/tickets', { game, options }),
  getTicket: (id) => request('GET', `/v1/matchmaking/tickets/${id}`),
  cancelTicket: (id) => request('DELETE', `/v1/matchmaking/tickets/${id}`),
  scorecard: (id) => request('GET', `/v1/matches/${id}/scorecard`),
  log: (id) => request('GET', `/v1/matches/${id}/log`),
  account: () => request('GET', '/v1/account'),
  claim: (username, password) => request('POST', '/v1/account/claim', { username, password }),
  logIn: (username, password) => request('POST', '/v1/sessions', { username, password, device: deviceId() }),
  logOut: () => request('DELETE', '/v1/sessions/current'),
  logOutEverywhere: () => request('DELETE', '/v1/sessions'),
  leaderboard: (game, format, cursor) => {
    const query = new URLSearchParams();
    if (format) query.set('format', format);
    if (cursor) query.set('cursor', cursor);
    const text = query.toString();
    return request('GET', `/v1/leaderboards/${encodeURIComponent(game)}${text ? `?${text}` : ''}`);
  },
  profile: (id) => request('GET', `/v1/players/${encodeURIComponent(id)}`),
  games: () => request('GET', '/v1/games'),
  /** The data files a game's engine plays by (the rules reference draws its tables from them). */
  gameRules: (game) => request('GET', `/v1/games/${encodeURIComponent(game)}/rules`),
  /** Starts the game's tutorial: a short match against the bot with a fixed, public seed. */
  startTutorial: (game) => request('POST', `/v1/games/${encodeURIComponent(game)}/tutorial`, {}),
  // Competitions (leagues and knockouts): js/competitions.js.
  listCompetitions: (status) => request('GET', `/v1/competitions${status ? `?status=${encodeURIComponent(status)}` : ''}`),
  getCompetition: (id) => request('GET', `/v1/competitions/${encodeURIComponent(id)}`),
  /** `{name, game, options, format: 'league' | 'knockout', double_round}`. */
  createCompetition: (body) => request('POST', '/v1/competitions', body),
  joinCompetition: (id) => request('POST', `/v1/competitions/${encodeURIComponent(id)}/join`, {}),
  leaveCompetition: (id) => request('POST', `/v1/competitions/${encodeURIComponent(id)}/leave`, {}),
  addCompetitionBots: (id, count, level) => request('POST', `/v1/competitions/${encodeURIComponent(id)}/bots`, { count, level }),
  startCompetition: (id) => request('POST', `/v1/competitions/${encodeURIComponent(id)}/start`, {}),
  /** One of a fixture's players is ready; when both are, the server starts its match. */
  readyFixture: (id, fixtureId) => request('POST', `/v1/competitions/${encodeURIComponent(id)}/fixtures/${encodeURIComponent(fixtureId)}/ready`, {}),
};

/** A list endpoint may answer with a bare array or {matches: [...]}; accept both. */
export function asList(data, ...keys) {
  if (Array.isArray(data)) return data;
  for (const key of [...keys, 'matches', 'items', 'results']) {
    if (data && Array.isArray(data[key])) return data[key];
  }
  return [];
}
