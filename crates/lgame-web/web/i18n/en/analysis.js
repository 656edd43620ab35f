// @ts-check
// Texts of the analysis board, the editor and the value marks (the other views' are in ui.js).
export default {
  "analysis.show": "Show analysis",
  "analysis.hide": "Hide analysis",
  "analysis.showBest": "Show the best move",
  "analysis.hideBest": "Hide the best move",
  "analysis.bestIs": "The best move: {move}",
  "analysis.chartGo": "Click a point to go to that ply.",
  "analysis.change": "For the mover: {before} before the move, {after} after it",
  "analysis.mark.blunder": "Blunder: the move turns a win or a draw into a loss",
  "analysis.mark.mistake": "Mistake: the move turns a win into a draw",
  "analysis.legend": "What the marks mean",
  "analysis.legendValues": "the mover's value after the move: a win (✓), a draw (=) or a loss (✗) in so many plies",
  "editor.value": "The solver's value ({side} to move):",
  "editor.unsolved": "The solver gives no value for this variant or position.",
};
