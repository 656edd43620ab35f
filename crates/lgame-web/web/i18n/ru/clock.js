// @ts-check
// Слова часов (game/clock.js).
export default {
  "clock.label": "Часы: {side}, {time}",
  "clock.days": "{days} д {hours} ч",
  "clock.perMove": "{days} д на ход",
  "clock.firstMove": "Первый ход — в течение {seconds} с, иначе партия отменяется",
  "clock.firstMoveWithin": "Первый ход — в течение {time}, иначе партия отменяется",
  "clock.give": "Дать 15 с",
  "clock.gone": "{side} покинул партию.",
  "clock.claimWin": "Забрать победу",
  "clock.claimDraw": "Объявить ничью",
  "clock.notifyMe": "Сообщить, когда будет мой ход",
  "clock.notifyPushed": "Это устройство сообщит вам о вашем ходе, даже когда страница закрыта.",
  "clock.notifyNoPush": "Браузер не смог подписаться на уведомления (ему недоступна служба push): пока страница открыта, она сообщит вам сама.",
  "clock.yourTurn": "Ваш ход в игре L",
  "clock.opponentMoved": "Соперник сделал ход.",
  "clock.none": "Без часов",
  "clock.choose": "Часы",
};
