// @ts-check
// Texts of the analysis board, the editor and the value marks (the other views' are in ui.js).
export default {
};
