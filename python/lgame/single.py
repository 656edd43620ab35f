"""The L game against a chosen opponent, as a single-agent Gymnasium environment.

>>> import lgame
>>> env = lgame.single_agent_env(opponent="beginner", variant="classic")
>>> obs, info = env.reset(seed=0)
>>> obs["observation"].shape, int(obs["action_mask"].sum())
((4, 4, 3), 65)

The agent plays one colour (``agent="red"`` by default, or ``"blue"``, when the opponent
moves first); each ``step`` plays the agent's move and then the opponent's reply. The
observation, the action encoding and the draw rules are ``lgame.env``'s, seen from the
agent: ``{"observation": int8 (H, W, 3), "action_mask": int8 (action_count,)}``, channel 0
the agent's L. The reward is +1 when the agent wins, -1 when it loses, 0 otherwise; the
episode terminates when the game is over on the board and is truncated when the draw rules
draw it. An illegal action ends the episode with -1 (``info["illegal_action"]``), as
PettingZoo's ``TerminateIllegalWrapper`` does.

The opponent is a computer level as ``lgame play`` names it (``random``, ``beginner``,
``intermediate``, ``perfect``, with an optional strength: ``beginner:40``), seeded by
``reset(seed=...)``, or a Python callable taking the ``lgame.Position`` and returning an
action (``int``), an ``lgame.Move`` or move text.
"""

from __future__ import annotations

from typing import Any, Callable, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from ._lgame import Game, Move, Player, Position, Rules
from .env import DEFAULT_REPETITION, DEFAULT_TURN_LIMIT

__all__ = ["single_agent_env", "SingleAgentEnv"]

Opponent = Union[str, Callable[[Position], Any]]

_REWARD_RED = {"1-0": 1.0, "0-1": -1.0}


def single_agent_env(
    opponent: Opponent = "beginner",
    variant: str | Rules = "classic",
    **kwargs: Any,
) -> "SingleAgentEnv":
    """The Gymnasium environment of the L game against ``opponent`` (see the module)."""
    return SingleAgentEnv(opponent, variant, **kwargs)


class SingleAgentEnv(gymnasium.Env):
    """One agent against a fixed opponent; see ``lgame.single``."""

    metadata = {"render_modes": ["ansi"], "render_fps": 2}

    def __init__(
        self,
        opponent: Opponent = "beginner",
        variant: str | Rules = "classic",
        agent: str = "red",
        turn_limit: int | None = DEFAULT_TURN_LIMIT,
        repetition: int | None = DEFAULT_REPETITION,
        render_mode: str | None = None,
    ):
        if agent not in ("red", "blue"):
            raise ValueError(f"agent must be 'red' or 'blue', not {agent!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of ['ansi']")
        self.rules = variant if isinstance(variant, Rules) else Rules(str(variant))
        if isinstance(opponent, str):
            Player(opponent)  # an unknown level is an error now, not at the first move
        elif not callable(opponent):
            raise TypeError("opponent must be a level's name or a callable")
        self.opponent = opponent
        self.agent = agent
        self.turn_limit = turn_limit
        self.repetition = repetition
        self.render_mode = render_mode
        n = self.rules.action_count()
        h, w = self.rules.height, self.rules.width
        self.action_space = spaces.Discrete(n)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=0, high=1, shape=(h, w, 3), dtype=np.int8),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self._player: Player | None = None
        self._game: Game | None = None
        self._ended = False

    @property
    def game(self) -> Game:
        """The ``lgame.Game`` being played."""
        if self._game is None:
            raise RuntimeError("the environment has not been reset")
        return self._game

    def reset(
        self, *, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if isinstance(self.opponent, str):
            # The level's own random numbers, from Gymnasium's seeded generator.
            self._player = Player(self.opponent, int(self.np_random.integers(2**63)))
        self._game = Game(self.rules, turn_limit=self.turn_limit, repetition=self.repetition)
        self._ended = False
        if not self._game.is_over() and self._game.position.turn != self.agent:
            self._opponent_moves()
        return self._observe(), self._info()

    def step(
        self, action: Any
    ) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        game = self.game
        if game.is_over() or self._ended:
            raise RuntimeError("step() after the end of the episode: call reset()")
        position = game.position
        if int(action) not in position.legal_actions():
            self._ended = True
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), -1.0, True, False, info
        game.play_action(int(action))
        if not game.is_over():
            self._opponent_moves()
        reward, terminated, truncated = 0.0, False, False
        if game.is_over():
            red = _REWARD_RED.get(game.result(), 0.0)
            reward = red if self.agent == "red" else -red
            terminated = game.position.is_over()
            truncated = not terminated
        return self._observe(), reward, terminated, truncated, self._info()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.game.position.diagram()
        return None

    def _opponent_moves(self) -> None:
        game = self.game
        if self._player is not None:
            move = self._player.choose(game)
            game.play(move)
            return
        choice = self.opponent(game.position)  # type: ignore[operator]
        if isinstance(choice, (Move, str)):
            game.play(choice)
        else:
            game.play_action(int(choice))

    def _observe(self) -> dict[str, np.ndarray]:
        position = self.game.position
        h, w = self.rules.height, self.rules.width
        planes = np.frombuffer(position.planes(), dtype=np.int8).reshape(3, h, w)
        if position.turn != self.agent:
            planes = planes[[1, 0, 2]]
        if position.turn == self.agent and not self.game.is_over():
            mask = np.frombuffer(position.action_mask(), dtype=np.int8).copy()
        else:
            mask = np.zeros(self.action_space.n, dtype=np.int8)
        return {"observation": np.ascontiguousarray(planes.transpose(1, 2, 0)), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        game = self.game
        info: dict[str, Any] = {"plies": game.plies}
        if game.is_over():
            info["result"] = game.result()
            info["termination"] = game.termination()
        return info
