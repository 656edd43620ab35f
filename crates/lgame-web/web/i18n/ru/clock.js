// @ts-check
// Слова часов (game/clock.js).
export default {
  "clock.label": "Часы: {side}, {time}",
  "clock.days": "{days} д {hours} ч",
  "clock.perMove": "{days} д на ход",
  "clock.firstMove": "Первый ход — в течение {seconds} с, иначе партия отменяется",
};
