// @ts-check
// The page's icons, drawn in SVG: characters such as ⏮ and ⏭ show as empty boxes on machines
// without those glyphs. An icon is decoration (`aria-hidden`); the button that holds it is
// named by its `aria-label`.

import { svg } from '../dom.js';

/** Path data on a 24×24 grid, stroked with the text's colour. */
const PATHS = {
  first: 'M6 5v14 M18 5l-9 7 9 7z',
  prev: 'M16 5l-9 7 9 7z',
  next: 'M8 5l9 7-9 7z',
  last: 'M18 5v14 M6 5l9 7-9 7z',
  flip: 'M7 4v16 M3 8l4-4 4 4 M17 20V4 M13 16l4 4 4-4',
  sun: 'M12 8a4 4 0 1 0 0.01 0z M12 2v3 M12 19v3 M2 12h3 M19 12h3 M4.9 4.9l2.1 2.1 M17 17l2.1 2.1 M4.9 19.1 7 17 M17 7l2.1-2.1',
  moon: 'M20 14.5A8 8 0 0 1 9.5 4 8 8 0 1 0 20 14.5z',
  soundOn: 'M4 9h4l5-4v14l-5-4H4z M16 9a4 4 0 0 1 0 6 M18.5 6.5a8 8 0 0 1 0 11',
  soundOff: 'M4 9h4l5-4v14l-5-4H4z M16 9l5 6 M21 9l-5 6',
  rematch: 'M20 11a8 8 0 1 0-2.3 5.7 M20 4v7h-7',
  undo: 'M9 14L4 9l5-5 M4 9h10a6 6 0 0 1 0 12h-3',
  close: 'M6 6l12 12 M18 6L6 18',
  user: 'M12 3a4 4 0 1 0 0.01 0z M4 21a8 8 0 0 1 16 0',
};

/** @typedef {keyof typeof PATHS} IconName */

/**
 * An icon to put in a button or a link beside (or instead of) its words.
 * @param {IconName} name
 * @returns {SVGSVGElement}
 */
export function icon(name) {
  return svg('svg', {
    class: `icon icon-${name}`,
    viewBox: '0 0 24 24',
    width: 20,
    height: 20,
    'aria-hidden': 'true',
    focusable: 'false',
  }, svg('path', {
    d: PATHS[name],
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': 2,
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
  }));
}
