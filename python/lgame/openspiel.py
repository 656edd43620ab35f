"""The L game in OpenSpiel: ``import lgame.openspiel`` registers it as ``"lgame"``.

>>> import pyspiel
>>> import lgame.openspiel
>>> game = pyspiel.load_game("lgame", {"variant": "misere"})
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.legal_actions())
(0, 65)

Parameters: ``variant`` (any rules text, e.g. each of ``lgame.VARIANTS``; default
``classic``; in a game string, where ``=`` and ``,`` are OpenSpiel's own, write them ``:``
and ``;``: ``pyspiel.load_game("lgame(variant=neutrals:1)")``, or
``lgame.openspiel.load_game("neutrals=1")`` does it), ``turn_limit`` (plies before a draw, default 200, as ``lgame.env``: OpenSpiel
needs a bound on a game's length) and ``repetition`` (the count of a position that draws,
default 3; 0 for none). Player 0 is Red, player 1 Blue; the actions are ``lgame.env``'s
(``Rules.action_count()`` of them, a move named by its result) and their strings the moves
in the notation (``A1,A2,A3,B3 D1-D2``). The returns are +1 / -1 for the winner and the
loser at the end and 0 for a draw. The observation tensor is ``(3, H, W)`` float planes from
the observing player's side: its L, the other L, the neutrals; the observation string is the
position's text. It needs OpenSpiel (``pip install ".[openspiel]"``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from ._lgame import Game, Position, Rules
from .env import DEFAULT_REPETITION, DEFAULT_TURN_LIMIT

__all__ = ["LGame", "LGameState", "GAME_TYPE", "load_game", "spiel_variant"]

_PLAYER = {"red": 0, "blue": 1}
_RETURNS = {"1-0": [1.0, -1.0], "0-1": [-1.0, 1.0]}

#: The game's type: what OpenSpiel's algorithms may assume of it.
GAME_TYPE = pyspiel.GameType(
    short_name="lgame",
    long_name="Edward de Bono's L game",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "variant": "classic",
        "turn_limit": DEFAULT_TURN_LIMIT,
        "repetition": DEFAULT_REPETITION,
    },
)


class LGame(pyspiel.Game):
    """The L game under one variant's rules and draw rules."""

    def __init__(self, params: dict[str, Any] | None = None):
        params = dict(params or {})
        rules = Rules(_rules_text(str(params.get("variant", "classic"))))
        # The text OpenSpiel writes in the game's string: no '=' nor ',' of its own syntax.
        params["variant"] = spiel_variant(rules)
        turn_limit = int(params.get("turn_limit", DEFAULT_TURN_LIMIT))
        if turn_limit < 1:
            raise ValueError("turn_limit must be at least 1: OpenSpiel needs a bound on a game's length")
        repetition = int(params.get("repetition", DEFAULT_REPETITION))
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.action_count(),
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=turn_limit,
        )
        super().__init__(GAME_TYPE, info, params)
        self.rules = rules
        self.turn_limit = turn_limit
        self.repetition = repetition

    def new_initial_state(self) -> "LGameState":
        """A game from the variant's starting setup."""
        return LGameState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The board observer (public, perfect information)."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(self.rules, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


def spiel_variant(variant: str | Rules) -> str:
    """A variant's rules text as an OpenSpiel parameter: ``=`` written ``:`` and ``,``
    written ``;`` (``neutrals=1`` is ``neutrals:1``)."""
    return str(Rules(str(variant))).replace("=", ":").replace(",", ";")


def load_game(variant: str | Rules = "classic", **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game("lgame", ...)`` for any rules text, with the other parameters."""
    return pyspiel.load_game("lgame", {"variant": spiel_variant(variant), **params})


def _rules_text(variant: str) -> str:
    """Rules text from a ``variant`` parameter, which may write ``=`` as ``:`` and ``,`` as
    ``;`` (as OpenSpiel's game strings must: ``lgame(variant=neutrals:1)``)."""
    return variant.replace(":", "=").replace(";", ",")


class LGameState(pyspiel.State):
    """A game in progress: an ``lgame.Game`` with the draw rules."""

    def __init__(self, game: LGame):
        super().__init__(game)
        self.game = Game(game.rules, turn_limit=game.turn_limit, repetition=game.repetition)

    @property
    def position(self) -> Position:
        """The current ``lgame.Position``."""
        return self.game.position

    def current_player(self) -> int:
        if self.game.is_over():
            return pyspiel.PlayerId.TERMINAL
        return _PLAYER[self.game.position.turn]

    def _legal_actions(self, player: int) -> list[int]:
        return self.game.position.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.game.play_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return str(self.game.position.move_of(int(action)))
        except ValueError:
            # Not a move here (a past action, say): the action's number.
            return f"action {action}"

    def is_terminal(self) -> bool:
        return self.game.is_over()

    def returns(self) -> list[float]:
        return list(_RETURNS.get(self.game.result() or "", [0.0, 0.0]))

    def __str__(self) -> str:
        return str(self.game.position)


class BoardObserver:
    """The position from one player's side: a ``(3, H, W)`` tensor and its text."""

    def __init__(self, rules: Rules, params: dict | None):
        if params:
            raise ValueError(f"the L game's observer takes no parameters, not {params}")
        self._shape = (3, rules.height, rules.width)
        self.tensor = np.zeros(int(np.prod(self._shape)), np.float32)
        self.dict = {"observation": np.reshape(self.tensor, self._shape)}

    def set_from(self, state: LGameState, player: int) -> None:
        position = state.game.position
        planes = np.frombuffer(position.planes(), dtype=np.int8).reshape(self._shape)
        if _PLAYER[position.turn] != player:
            planes = planes[[1, 0, 2]]
        self.dict["observation"][:] = planes

    def string_from(self, state: LGameState, player: int) -> str:
        return str(state.game.position)


pyspiel.register_game(GAME_TYPE, LGame)
