// The message catalogues, one module per language and namespace: a key `ctg.ask.bowl` is
// `ask.bowl` in `<language>/ctg.js`. Each namespace has one owner (a screen or a game), so
// the files stay small; `tests/e2e/unit.test.mjs` checks both languages hold the same keys.

import EnCommon from './en/common.js';
import EnErrors from './en/errors.js';
import EnLearn from './en/learn.js';
import EnCtg from './en/ctg.js';
import EnCtgLearn from './en/ctgLearn.js';
import EnWicketz from './en/wicketz.js';
import EnWicketzLearn from './en/wicketzLearn.js';
import EnChampions from './en/champions.js';
import EnChampionsLearn from './en/championsLearn.js';
import EnCompetitions from './en/competitions.js';
import PtCommon from './pt-BR/common.js';
import PtErrors from './pt-BR/errors.js';
import PtLearn from './pt-BR/learn.js';
import PtCtg from './pt-BR/ctg.js';
import PtCtgLearn from './pt-BR/ctgLearn.js';
import PtWicketz from './pt-BR/wicketz.js';
import PtWicketzLearn from './pt-BR/wicketzLearn.js';
import PtChampions from './pt-BR/champions.js';
import PtChampionsLearn from './pt-BR/championsLearn.js';
import PtCompetitions from './pt-BR/competitions.js';

export const CATALOGUES = {
  en: { common: EnCommon, errors: EnErrors, learn: EnLearn, ctg: EnCtg, ctgLearn: EnCtgLearn, wicketz: EnWicketz, wicketzLearn: EnWicketzLearn, champions: EnChampions, championsLearn: EnChampionsLearn, competitions: EnCompetitions },
  'pt-BR': { common: PtCommon, errors: PtErrors, learn: PtLearn, ctg: PtCtg, ctgLearn: PtCtgLearn, wicketz: PtWicketz, wicketzLearn: PtWicketzLearn, champions: PtChampions, championsLearn: PtChampionsLearn, competitions: PtCompetitions },
};
