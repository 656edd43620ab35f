// @ts-check
// The game this page shows now, and whether it is over: what a page that would open another
// game (an arena's pairing, arena/follow.js) asks first. The game view keeps it.

/** @type {{ game: string | null, over: boolean }} */
export const playing = { game: null, over: true };
