// @ts-check
// The lobby's words (play/lobby.js): quick pairing and the open seeks.
export default {
  "lobby.title": "Открытые партии",
  "lobby.player": "Игрок",
  "lobby.colour": "Играет",
  "lobby.anonymous": "Аноним",
  "lobby.play": "Играть",
  "lobby.withdraw": "Отменить",
  "lobby.none": "Сейчас открытых партий нет: создайте свою, и она будет ждать соперника здесь.",
  "lobby.create": "Создать партию",
  "lobby.waiting": "Ищем соперника ({control})…",
  "lobby.days": "{days} дн",
  "lobby.cancel": "Отменить",
};
