// Catálogo em português do Brasil, espaço `common` (chaves `common.*`): as páginas comuns a
// todos os jogos (cabeçalho, saguão, contas, ao vivo, classificações, perfis, replay, partida).
export default {
  title: 'crease: jogos de tabuleiro de críquete',
  language: 'Idioma',
  nav: {
    home: 'Voltar para o saguão',
    play: 'Jogar',
    live: 'Ao vivo',
    learn: 'Aprender',
    leaderboards: 'Classificações',
  },
};
