// @ts-check
// All of this language's texts, gathered from its files.
import ui from './ui.js';
import learn from './learn.js';
import print from './print.js';
import puzzles from './puzzles.js';
import analysis from './analysis.js';
import site from './site.js';
import account from './account.js';
import clock from './clock.js';
import offers from './offers.js';
import lobby from './lobby.js';
import ratings from './ratings.js';

export default { ...ui, ...learn, ...print, ...puzzles, ...analysis, ...site, ...account, ...clock, ...offers, ...lobby, ...ratings };
