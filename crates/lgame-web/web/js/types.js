// @ts-check
// Types of the server's data that the texts word (sides, values, reasons, outcomes), apart
// from api.js so that i18n.js can name them while api.js words its errors with i18n.js.
// No code: JSDoc only.

/** @typedef {'red' | 'blue'} Color */
/** @typedef {'win' | 'draw' | 'loss'} ValueName */

/**
 * Why the rules refuse a move or a cell, as data: its `kind` and the fields its words name.
 * @typedef {{ kind: string, piece?: string | null, [field: string]: string | number | null | undefined }} Reason
 */

/** How a finished position ended. @typedef {{ winner: Color | null, ending: string, conclusion?: string }} Outcome */

/**
 * A refusal's body (docs/api.md, "Refusals"): the English `error`, its `kind`, the refused
 * `input`, the rules' `reason` for an illegal move.
 * @typedef {{ error?: string, kind?: string, input?: string, reason?: Reason }} RefusalBody
 */

// The types above are written by hand for the texts; what the server sends must be one of
// them. tsc fails here if a reason, an outcome or a refusal the server's OpenAPI document
// describes (api-types.js, generated from it) does not fit.

/**
 * @template {Reason} T
 * @typedef {T} AReason
 */
/**
 * @template {Outcome} T
 * @typedef {T} AnOutcome
 */
/**
 * @template {RefusalBody} T
 * @typedef {T} ARefusal
 */
/** @typedef {AReason<import('./api-types.js').PartialLError>} ServerReasonsAreReasons */
/** @typedef {AnOutcome<import('./api-types.js').OutcomeAnswer>} ServerOutcomesAreOutcomes */
/** @typedef {ARefusal<import('./api-types.js').ErrorBody>} ServerRefusalsAreRefusals */

export {};
