// @ts-check
// Texts of the page's shell and of the server's refusals, by their kind.
export default {
};
