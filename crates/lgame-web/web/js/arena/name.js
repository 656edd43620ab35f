// @ts-check
// An arena's name, as the page writes it wherever it names one: its variant and its clock
// (`Classic 3+2`), arenas having no name of their own.

import { variantLabel } from '../ui/choosers.js';
import { controlText } from '../game/clock.js';

/**
 * @param {{ variant: string, clock: import('../api-types.js').TimeControl }} arena
 */
export function arenaName(arena) {
  return `${variantLabel(arena.variant)} ${controlText(arena.clock)}`;
}
