// @ts-check
// The clocks' words (game/clock.js).
export default {
  "clock.label": "{side}'s clock: {time}",
  "clock.days": "{days} d {hours} h",
  "clock.perMove": "{days} d a move",
  "clock.firstMove": "A first move within {seconds} s, or the game is aborted",
  "clock.firstMoveWithin": "A first move within {time}, or the game is aborted",
  "clock.give": "Give 15 s",
  "clock.gone": "{side} has left the game.",
  "clock.claimWin": "Claim the win",
  "clock.claimDraw": "Call it a draw",
  "clock.notifyMe": "Notify me when it is my turn",
  "clock.notifyPushed": "You will be told on this device when it is your move, even with the page closed.",
  "clock.notifyNoPush": "This browser could not subscribe to notifications (it reaches no push service): while this page is open, it will tell you itself.",
  "clock.yourTurn": "Your turn in the L game",
  "clock.opponentMoved": "Your opponent has moved.",
  "clock.none": "No clock",
  "clock.choose": "Clock",
};
