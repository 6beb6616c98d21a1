// Learning a game inside the app: the rules reference (`#/rules/<game>/<section>`, and the
// same text in a dialog opened from a decision without leaving the match), the Learn page
// (`#/learn`, `#/learn/<game>`) that starts a game's tutorial, and the loader of each game's
// learn module.
//
// A game's learn module is `js/learn/<game>.js` (optional: a game without one plays as
// before, with no reference link). Its default export:
//   sections(data, ctx) -> [{ id, title, body }]   the reference, in reading order; `data`
//       is `GET /v1/games/<game>/rules`'s `data` (the engine's own data files), so tables
//       are drawn from what the engine enforces; `ctx` = { t, h, num, lang }
//   help(view, ctx) -> { text, section } | null    one or two lines on what this seat is
//       asked now and what its options risk, and the reference section that explains it
//   tutorial: {
//     intro(ctx) -> [paragraph]                    the Learn page's words before it starts
//     ask(view, ctx) -> { key, text } | null       the coach on a decision: shown the first
//                                                  time each `key` (a kind of decision) comes up
//     ball(outcome, events, ctx) -> text | null    why the ball just played ended as it did
//     end(view, ctx) -> text                       the closing words on the end screen
//   }

import { h, mount } from './dom.js';
import { api, savedPlayer } from './api.js';
import { t, num, lang } from './i18n.js';
import { GAMES } from './catalog.js';
import { toast } from './ui.js';
import { errorText } from './errors.js';

const modules = new Map();
const rulesData = new Map();

/** The game's learn module, or null when it has none (a fourth game may not). */
export function loadLearn(game) {
  if (!game) return Promise.resolve(null);
  if (!modules.has(game)) {
    modules.set(game, import(`./learn/${encodeURIComponent(game)}.js`)
      .then((module) => module.default || null)
      .catch(() => null));
  }
  return modules.get(game);
}

/** The engine's data files of a game (`GET /v1/games/<game>/rules`), read once a page load. */
export function loadRulesData(game) {
  if (!rulesData.has(game)) {
    const promise = api.gameRules(game).then((answer) => answer.data);
    promise.catch(() => rulesData.delete(game));
    rulesData.set(game, promise);
  }
  return rulesData.get(game);
}

/** What the learn modules get to write with. */
export function learnCtx(extra = {}) {
  return { t, h, num, lang: lang(), ...extra };
}

/** The game's name as the catalogue (and the catalogues' `learn.games.<id>`) gives it. */
function gameName(game) {
  return t(`learn.games.${game}`) !== `learn.games.${game}` ? t(`learn.games.${game}`) : (GAMES[game] && GAMES[game].name) || game;
}

/** The sections of a game's reference, or an explanation of why there are none. */
async function referenceSections(game) {
  const [learn, data] = await Promise.all([loadLearn(game), loadRulesData(game)]);
  if (!learn || !learn.sections) return null;
  return learn.sections(data, learnCtx({ game }));
}

/** The reference as a table of contents and its sections; `idPrefix` keeps dialog ids apart. */
function referenceNode(game, sections, idPrefix) {
  return h('div', { class: 'reference', 'data-testid': 'reference', 'data-game': game },
    h('nav', { class: 'reference-toc', 'aria-label': t('learn.contents') },
      h('ol', {}, sections.map((section) => h('li', {},
        h('a', {
          href: `#/rules/${game}/${section.id}`,
          'data-section-link': section.id,
          onclick: (event) => {
            // In the dialog, a contents link scrolls; on the page, the address names it.
            if (!idPrefix) return;
            event.preventDefault();
            scrollToSection(event.currentTarget.closest('.reference'), section.id);
          },
        }, section.title))))),
    sections.map((section) => h('section', {
      class: 'reference-section',
      id: `${idPrefix}rules-${section.id}`,
      'data-section': section.id,
      'data-testid': `rules-${section.id}`,
    }, h('h3', {}, section.title), section.body)));
}

function scrollToSection(root, id) {
  const target = root && root.querySelector(`[data-section="${CSS.escape(id)}"]`);
  if (!target) return;
  target.scrollIntoView({ block: 'start' });
  target.classList.add('highlight');
  setTimeout(() => target.classList.remove('highlight'), 1600);
}

/** `#/rules`, `#/rules/<game>`, `#/rules/<game>/<section>`: the rules reference as a page. */
export function showRules(root, { game, section }) {
  let disposed = false;
  if (!game) {
    mount(root, learnIndex());
    return { dispose() {} };
  }
  mount(root, h('section', { class: 'card rules-page' },
    h('h2', {}, t('learn.rulesOf', { game: gameName(game) })),
    h('p', { class: 'muted' }, t('learn.loading'))));
  referenceSections(game)
    .then((sections) => {
      if (disposed) return;
      if (!sections) {
        mount(root, h('section', { class: 'card rules-page' },
          h('h2', {}, t('learn.rulesOf', { game: gameName(game) })),
          h('p', {}, t('learn.noReference')),
          h('a', { class: 'button', href: '#/learn' }, t('learn.backToLearn'))));
        return;
      }
      mount(root, h('section', { class: 'card rules-page', 'data-testid': 'rules-page' },
        h('h2', {}, t('learn.rulesOf', { game: gameName(game) })),
        h('div', { class: 'buttons wrap' },
          h('a', { class: 'button', href: `#/learn/${game}` }, t('learn.tutorialOf', { game: gameName(game) })),
          h('a', { class: 'button', href: '#/learn' }, t('learn.otherGames'))),
        referenceNode(game, sections, '')));
      if (section) scrollToSection(root, section);
    })
    .catch((err) => {
      if (disposed) return;
      mount(root, h('section', { class: 'card rules-page' },
        h('h2', {}, t('learn.rulesOf', { game: gameName(game) })),
        h('p', { class: 'error' }, t('learn.notLoaded', { reason: errorText(err, game) }))));
    });
  return { dispose() { disposed = true; } };
}

/**
 * The reference in a dialog over the match, scrolled to `section`: a player reads why a
 * field placement matters without leaving the decision (the match goes on underneath).
 */
export async function openReference(game, section) {
  const dialog = h('dialog', { class: 'reference-dialog', 'data-testid': 'reference-dialog', 'aria-label': t('learn.rulesOf', { game: gameName(game) }) });
  const close = h('button', { class: 'link close', 'data-testid': 'close-reference', onclick: () => dialog.close() }, t('learn.close'));
  dialog.addEventListener('close', () => dialog.remove());
  mount(dialog, h('div', { class: 'dialog-head' }, h('h2', {}, t('learn.rulesOf', { game: gameName(game) })), close),
    h('p', { class: 'muted' }, t('learn.loading')));
  document.body.append(dialog);
  dialog.showModal();
  try {
    const sections = await referenceSections(game);
    if (!dialog.open) return;
    mount(dialog, h('div', { class: 'dialog-head' }, h('h2', {}, t('learn.rulesOf', { game: gameName(game) })), close),
      sections ? referenceNode(game, sections, 'dialog-') : h('p', {}, t('learn.noReference')));
    if (section) scrollToSection(dialog, section);
  } catch (err) {
    mount(dialog, h('div', { class: 'dialog-head' }, h('h2', {}, t('learn.rulesOf', { game: gameName(game) })), close),
      h('p', { class: 'error' }, t('learn.notLoaded', { reason: errorText(err, game) })));
  }
}

/** A link that opens the reference at `section` in a dialog (the help line's "Rules"). */
export function referenceLink(game, section, text = t('learn.rulesLink')) {
  return h('a', {
    href: `#/rules/${game}/${section || ''}`,
    class: 'reference-link',
    'data-testid': 'reference-link',
    'data-section': section || '',
    onclick: (event) => {
      event.preventDefault();
      openReference(game, section);
    },
  }, text);
}

/** `#/learn`: every game with its reference and its tutorial. */
function learnIndex() {
  return h('section', { class: 'card learn-page', 'data-testid': 'learn-index' },
    h('h2', {}, t('learn.title')),
    h('p', {}, t('learn.lead')),
    h('ul', { class: 'learn-games' }, Object.keys(GAMES).map((game) => h('li', { 'data-game': game },
      h('strong', {}, gameName(game)),
      h('span', { class: 'buttons wrap' },
        h('a', { class: 'button', href: `#/learn/${game}`, 'data-testid': `learn-${game}` }, t('learn.tutorial')),
        h('a', { class: 'button', href: `#/rules/${game}`, 'data-testid': `rules-${game}` }, t('learn.rules')))))));
}

/**
 * `#/learn/<game>`: what the tutorial is, and the button that starts it (a guest picks a
 * name first). The tutorial itself is the match page at `#/learn/<game>/<match id>`.
 */
export function showLearn(root, { game, askName }) {
  if (!game) {
    mount(root, learnIndex());
    return { dispose() {} };
  }
  let disposed = false;
  const start = h('button', { class: 'primary', 'data-testid': 'start-tutorial', onclick: () => begin() }, t('learn.start'));
  const intro = h('div', { class: 'tutorial-intro' }, h('p', { class: 'muted' }, t('learn.loading')));
  mount(root, h('section', { class: 'card learn-page', 'data-testid': 'learn-page' },
    h('h2', {}, t('learn.tutorialOf', { game: gameName(game) })),
    intro,
    h('div', { class: 'buttons wrap' }, start,
      h('a', { class: 'button', href: `#/rules/${game}`, 'data-testid': 'to-rules' }, t('learn.rulesOf', { game: gameName(game) })))));
  loadLearn(game).then((learn) => {
    if (disposed) return;
    const words = learn && learn.tutorial && learn.tutorial.intro ? learn.tutorial.intro(learnCtx({ game })) : [t('learn.noTutorial')];
    mount(intro, words.map((line) => h('p', {}, line)));
  });
  async function begin() {
    if (!savedPlayer()) {
      askName(() => { location.hash = `#/learn/${game}`; window.dispatchEvent(new HashChangeEvent('hashchange')); });
      return;
    }
    start.disabled = true;
    try {
      const match = await api.startTutorial(game);
      location.hash = `#/learn/${game}/${match.match_id}`;
    } catch (err) {
      start.disabled = false;
      toast(t('learn.notStarted', { reason: errorText(err, game) }), 'error');
    }
  }
  return { dispose() { disposed = true; } };
}
