// @ts-check
// The lobby's words (play/lobby.js): quick pairing and the open seeks.
export default {
  "lobby.title": "Open games",
  "lobby.player": "Player",
  "lobby.colour": "They play",
  "lobby.anonymous": "Anonymous",
  "lobby.play": "Play",
  "lobby.withdraw": "Cancel",
  "lobby.none": "No open games now: create one, and it waits here for an opponent.",
  "lobby.create": "Create a game",
  "lobby.waiting": "Looking for an opponent ({control})…",
  "lobby.days": "{days} d",
  "lobby.cancel": "Cancel",
};
