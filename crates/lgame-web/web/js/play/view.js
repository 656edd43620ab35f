// @ts-check
// The home page, drawn: a board with the L game's starting position, what the game is in one
// sentence, and the three ways to play, each a panel with its button: quick pairing (a grid
// of controls, play/lobby.js), the computer, and a friend (by link, or two on this device);
// beside them the lobby's open seeks (`#lobby`). A way's button starts a game with what its "More options" say
// (level, strength, colour, variant, setup, turn limit), their defaults unless changed;
// nothing else is needed. play/ctrl.js creates the game.

import { h } from '../dom.js';
import * as session from '../session.js';
import { href } from '../address.js';
import { t } from '../i18n.js';
import { setup as namedSetup } from '../catalog.js';
import { Board } from '../ui/board.js';
import { radioChoices, variantChooser, clockChooser } from '../ui/choosers.js';
import { PlayCtrl, COLOURS } from './ctrl.js';
import { LobbyCtrl, poolGrid, seekList, botList } from './lobby.js';

/** @typedef {import('./ctrl.js').Choice} Choice */

/**
 * The rules fields each way has: the variant, the setup (a name or a position of one's
 * own), the turn limit and the clock; `way` keeps their ids apart.
 * @param {PlayCtrl} ctrl
 * @param {string} way
 */
function rulesFields(ctrl, way) {
  const variantHolder = h('div', { class: 'variant-holder' });
  const setup = h('select', { id: `${way}-setup`, name: 'setup' });
  const setupText = h('input', { name: 'setup-text', class: 'mono', hidden: true, 'aria-label': t('play.setupText') });
  const turnLimit = h('input', { id: `${way}-turn-limit`, name: 'turn-limit', type: 'number', min: 0, max: 10000, value: 0 });
  const clockSelect = h('select', { id: `${way}-clock`, name: 'clock' });
  const nodes = [
    h('span', { class: 'variant-label', text: t('play.variant') }), variantHolder,
    h('label', { for: `${way}-setup`, class: 'setup-label', text: t('play.setup') }),
    h('div', { class: 'row' }, setup, ' ', setupText),
    h('label', { for: `${way}-turn-limit`, class: 'limit-label', text: t('play.turnLimit') }),
    turnLimit,
    h('label', { for: `${way}-clock`, class: 'clock-label', text: t('clock.choose') }),
    clockSelect,
  ];
  const clock = clockChooser(clockSelect);
  const variant = variantChooser(variantHolder, ctrl.variant);
  for (const name of ctrl.setups) setup.add(new Option(t(`setup.${name}`), name));
  setup.add(new Option(t('setup.custom'), ''));
  setup.value = ctrl.setup;
  setupText.value = ctrl.customSetup;
  setupText.hidden = ctrl.setup !== '';
  setup.addEventListener('change', () => { setupText.hidden = setup.value !== ''; });
  return {
    nodes,
    read: () => ({ variant: variant.value(), setup: setup.value || setupText.value.trim(), turnLimit: Number(turnLimit.value), clock: clock.value() }),
  };
}

/**
 * A way to play: its heading, one line on it, its button and its options folded away.
 * @param {string} way `computer`, `friend`
 * @param {boolean} open whether the options are unfolded (the address asked for some)
 * @param {import('../dom.js').Child[]} options
 */
function wayForm(way, open, options) {
  return h('form', { class: 'way panel', 'data-way': way, 'aria-labelledby': `way-${way}` },
    h('h2', { id: `way-${way}`, text: t(`home.${way}`) }),
    h('p', { class: 'way-about', text: t(`home.${way}About`) }),
    h('div', { class: 'row way-go' },
      h('button', { type: 'submit', class: 'primary start', 'data-play': way, text: t(`home.${way}Start`) })),
    h('details', { class: 'options', open },
      h('summary', { text: t('home.options') }),
      h('div', { class: 'form-grid' }, options)));
}

/**
 * Against the computer: its level and strength, the person's colour, the rules.
 * @param {PlayCtrl} ctrl
 * @param {(choice: Choice) => void} start
 */
function computerWay(ctrl, start) {
  const level = h('select', { name: 'level', 'aria-label': t('play.level') });
  const strength = h('input', { type: 'range', name: 'strength', min: 0, max: 100, step: 5, value: 0 });
  const strengthValue = h('output', { name: 'strength-value', text: '0' });
  const levelAbout = h('p', { class: 'level-about hint' });
  const strengthHint = h('p', { class: 'strength-hint hint', text: t('play.strengthHint') });
  const strengthLabel = h('label', { class: 'strength-field' }, h('span', { class: 'strength-label', text: t('play.strength') }), ' ', strength, ' ', strengthValue);
  const colours = h('div', { class: 'choices colours' });
  const rules = rulesFields(ctrl, 'computer');
  const form = wayForm('computer', ctrl.asked === 'computer', [
    h('span', { class: 'level-label', text: t('play.level') }),
    h('div', { class: 'level-field' }, h('div', { class: 'row' }, level, ' ', strengthLabel), levelAbout, strengthHint),
    h('span', { class: 'colour-label', text: t('play.colour') }), colours,
    rules.nodes,
  ]);
  for (const name of ctrl.levels) level.add(new Option(t(`level.${name}`), name));
  level.value = ctrl.level;
  const showLevel = () => {
    levelAbout.textContent = t(`play.levelAbout.${level.value}`);
    // The perfect player has no weaker self to mix in.
    strengthLabel.hidden = level.value === 'perfect';
    strengthHint.hidden = level.value === 'perfect';
  };
  level.addEventListener('change', showLevel);
  showLevel();
  strength.addEventListener('input', () => { strengthValue.value = strength.value; });
  const colour = radioChoices(colours, 'colour', COLOURS, (c) => t(`play.colour.${c}`));
  colour.set('red');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    start({ mode: 'computer', level: level.value, strength: Number(strength.value), colour: colour.value(), ...rules.read() });
  });
  return form;
}

/**
 * With a friend: by link (the friend takes the other seat from their own device) or two
 * people on this device; the host's colour, the rules.
 * @param {PlayCtrl} ctrl
 * @param {(choice: Choice) => void} start
 */
function friendWay(ctrl, start) {
  const modes = h('div', { class: 'choices modes' });
  const colours = h('div', { class: 'choices colours' });
  const colourLabel = h('span', { class: 'colour-label', text: t('play.colour') });
  const rules = rulesFields(ctrl, 'friend');
  const form = wayForm('friend', ctrl.asked === 'friend', [
    h('span', { class: 'mode-label', text: t('home.friendHow') }), modes,
    colourLabel, colours,
    rules.nodes,
  ]);
  const mode = radioChoices(modes, 'mode', /** @type {const} */ (['friend', 'local']), (m) => t(`play.mode.${m}`));
  mode.set(ctrl.mode === 'local' ? 'local' : 'friend');
  const colour = radioChoices(colours, 'colour', COLOURS, (c) => t(`play.colour.${c}`));
  colour.set('red');
  // Two on one device play both colours.
  const showMode = () => { colourLabel.hidden = colours.hidden = mode.value() === 'local'; };
  modes.addEventListener('change', showMode);
  showMode();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    start({ mode: mode.value(), level: '', strength: 0, colour: colour.value(), ...rules.read() });
  });
  return form;
}

/**
 * Quick pairing: its grid of controls (`data-play="quick"`), each waiting for an opponent.
 * @param {{ nodes: import('../dom.js').Child[] }} pool
 */
function quickWay(pool) {
  return h('section', { id: 'quick-pairing', class: 'way panel', 'aria-labelledby': 'way-quick' },
    h('h2', { id: 'way-quick', text: t('home.quick') }),
    h('p', { class: 'way-about', text: t('home.quickAbout') }),
    pool.nodes);
}

/** The starting position, drawn as every board of the page is, as a link to the rules. */
function startingBoard() {
  const link = h('a', { class: 'home-board', href: href('learn'), title: t('home.learn') });
  const board = new Board(link, { interactive: false, label: t('home.boardLabel') });
  const { red, blue, neutrals } = namedSetup('standard');
  board.set({ width: 4, height: 4, turn: 'red', pieces: { red, blue, neutrals } });
  return link;
}

/**
 * @param {HTMLElement} main
 * @param {URLSearchParams} params
 */
export function render(main, params) {
  const ctrl = new PlayCtrl(params, () => redraw());
  const start = (/** @type {Choice} */ choice) => ctrl.start(choice);
  const error = h('p', { class: 'error', role: 'alert' });
  const lobby = new LobbyCtrl(() => redraw());
  const pool = poolGrid(lobby);
  const seeks = seekList(lobby);
  const bots = botList(lobby);
  // Two columns on a wide screen, each as tall as its own panels: the words, the ways to play
  // and the lobby; beside them the board and the bots. On a phone one column: the board small
  // beside the words, then the ways, the lobby and the bots.
  main.append(h('div', { class: 'home' },
    h('div', { class: 'home-main' },
      h('div', { class: 'home-text' },
        h('h1', { text: t('play.title') }),
        h('p', { class: 'home-about' }, t('home.about'), ' ', h('a', { href: href('learn'), text: t('home.learn') }))),
      h('div', { class: 'home-ways' }, quickWay(pool), computerWay(ctrl, start), friendWay(ctrl, start), error),
      h('section', { id: 'lobby', class: 'lobby panel', 'aria-label': t('lobby.title') }, seeks.nodes)),
    h('div', { class: 'home-aside' },
      startingBoard(),
      h('section', { id: 'bots', class: 'bots-panel panel', 'aria-labelledby': 'bots-title' }, bots.nodes))));
  redraw();
  // The rated choice is an account's: shown once the session is known, hidden at a log-out.
  const stopSession = session.onChange(() => redraw());
  session.load().then(() => redraw());

  function redraw() {
    error.textContent = ctrl.error;
    error.hidden = !ctrl.error;
    for (const button of main.querySelectorAll('button.start')) /** @type {HTMLButtonElement} */ (button).disabled = ctrl.busy;
    pool.draw();
    seeks.draw();
    bots.draw();
  }
  return () => {
    stopSession();
    lobby.stop();
  };
}
