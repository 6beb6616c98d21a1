// English catalogue, namespace `common` (keys are `common.*`): the pages every game shares
// (header, lobby, accounts, live list, leaderboards, profiles, replay, the match screen).
export default {
  title: 'crease: cricket board games',
  language: 'Language',
  nav: {
    home: 'Back to the lobby',
    play: 'Play',
    live: 'Live',
    learn: 'Learn',
    leaderboards: 'Leaderboards',
  },
};
