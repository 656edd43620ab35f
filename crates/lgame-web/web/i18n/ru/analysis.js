// @ts-check
// Texts of the analysis board, the editor and the value marks (the other views' are in ui.js).
export default {
  "analysis.show": "Показать анализ",
  "analysis.hide": "Скрыть анализ",
  "analysis.showBest": "Показать лучший ход",
  "analysis.hideBest": "Скрыть лучший ход",
  "analysis.bestIs": "Лучший ход: {move}",
  "analysis.chartGo": "Нажмите на точку, чтобы перейти к этому полуходу.",
  "analysis.change": "Для сделавшего ход: {before} до хода, {after} после него",
  "analysis.mark.blunder": "Грубая ошибка: ход превращает выигрыш или ничью в проигрыш",
  "analysis.mark.mistake": "Ошибка: ход превращает выигрыш в ничью",
  "analysis.legend": "Что значат отметки",
  "analysis.legendValues": "оценка для сделавшего ход после хода: выигрыш (✓), ничья (=) или проигрыш (✗) за столько-то полуходов",
  "editor.value": "Оценка решателя (ходят {side}):",
  "editor.unsolved": "Решатель не даёт оценки этого варианта или позиции.",
};
