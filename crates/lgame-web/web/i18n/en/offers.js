// @ts-check
// The words of what stands between two people (game/offers.js): draw offers, requests to
// take back a move, their answers, and a rematch's opponent awaited.
export default {
  "offers.accept": "Accept",
  "offers.decline": "Decline",
  "offers.drawOffered": "{side} offers a draw",
  "offers.drawWaiting": "Draw offered — waiting for the answer",
  "offers.drawDeclined": "Your draw offer was declined.",
  "offers.undoAsked": "{side} asks to take back a move",
  "offers.undoWaiting": "Takeback asked — waiting for the answer",
  "offers.undoDeclined": "Your takeback request was declined.",
  "offers.undoAccepted": "Your move was taken back.",
  "offers.rematchWaiting": "Waiting for {name}…",
  "offers.rematchWaitingAnon": "Waiting for your opponent…",
  "offers.rematchJoined": "{name} joined.",
  "offers.rematchJoinedAnon": "Your opponent joined.",
};
