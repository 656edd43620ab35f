// @ts-check
// Слова того, что стоит между двумя игроками (game/offers.js): предложения ничьей, просьбы
// вернуть ход, ответы на них и ожидание соперника в реванше.
export default {
  "offers.accept": "Принять",
  "offers.decline": "Отклонить",
  "offers.drawOffered": "{side} предлагают ничью",
  "offers.drawWaiting": "Ничья предложена — ждём ответа",
  "offers.drawDeclined": "Ваше предложение ничьей отклонено.",
  "offers.undoAsked": "{side} просят вернуть ход",
  "offers.undoWaiting": "Просьба вернуть ход отправлена — ждём ответа",
  "offers.undoDeclined": "Вашу просьбу вернуть ход отклонили.",
  "offers.undoAccepted": "Ваш ход возвращён.",
  "offers.rematchWaiting": "Ждём {name}…",
  "offers.rematchWaitingAnon": "Ждём соперника…",
  "offers.rematchJoined": "{name} присоединился.",
  "offers.rematchJoinedAnon": "Соперник присоединился.",
};
