"""The L game as a PettingZoo AEC environment (the API of PettingZoo's chess and connect four).

>>> import lgame
>>> env = lgame.env()                      # the classic game
>>> env.reset(seed=0)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum())
((4, 4, 3), 65)

- agents: ``"red"`` (moves first from the standard setup) and ``"blue"``;
- actions: ``Discrete(Rules.action_count())``, every move of the variant named by its
  result (the new L placement and where the neutrals end up): 5,760 in the classic game;
- observation: a dict with ``"observation"``, ``int8`` planes of shape ``(H, W, 3)`` (as
  chess: height, width, channels) from the observing agent's point of view — channel 0 its
  own L, 1 the other L, 2 the neutrals; index ``[r, c]`` is row ``r + 1``, column ``c``, so
  ``[0, 0]`` is A1 (the bottom-left cell) — and ``"action_mask"``, ``int8`` of length
  ``action_count``, 1 where the move is legal (all zeros for the agent not to move and once
  the game is over);
- rewards: +1 to the winner and -1 to the loser at the end, 0 otherwise and for a draw. The
  winner is the game's result, so misère (the trapped player wins), symmetry and scoring
  are rewarded by their own rules;
- termination: the game is over on the board; truncation: drawn by the draw rules (by
  default threefold repetition, as casual play, and a turn limit of 200 plies, as
  ``lgame match``, so every episode ends).

The game is deterministic: ``reset(seed=...)`` seeds nothing the game uses (PettingZoo's
``seed_test`` passes trivially); only action sampling is random.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._lgame import Game, Position, Rules

__all__ = ["env", "raw_env", "DEFAULT_TURN_LIMIT", "DEFAULT_REPETITION"]

#: The default turn limit (plies), as ``lgame match``; ``0`` or ``None`` means none.
DEFAULT_TURN_LIMIT = 200
#: The default repetition draw (the count at which a position repeated draws), as casual play.
DEFAULT_REPETITION = 3

_OTHER = {"red": "blue", "blue": "red"}
_REWARD_RED = {"1-0": 1, "0-1": -1}

# rgb_array colours
_EMPTY = (236, 232, 220)
_GRID = (90, 90, 90)
_RED = (200, 40, 40)
_BLUE = (40, 80, 200)
_NEUTRAL = (60, 60, 60)


def env(
    variant: str | Rules = "classic",
    render_mode: str | None = None,
    turn_limit: int | None = DEFAULT_TURN_LIMIT,
    repetition: int | None = DEFAULT_REPETITION,
    **kwargs: Any,
) -> AECEnv:
    """The environment wrapped as PettingZoo's classic environments are.

    An illegal action ends the game with -1 for the agent who played it
    (``TerminateIllegalWrapper``); an action outside the space is an assertion error.
    ``turn_limit`` / ``repetition``: the draw rules (``None`` or ``0`` turns a rule off).
    """
    e: AECEnv = raw_env(variant, render_mode, turn_limit, repetition, **kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv, EzPickle):
    """The unwrapped environment: an illegal action raises ``lgame.IllegalMoveError``."""

    metadata = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "lgame_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        variant: str | Rules = "classic",
        render_mode: str | None = None,
        turn_limit: int | None = DEFAULT_TURN_LIMIT,
        repetition: int | None = DEFAULT_REPETITION,
        cell_pixels: int = 32,
    ):
        EzPickle.__init__(self, variant, render_mode, turn_limit, repetition, cell_pixels)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}"
            )
        if cell_pixels < 4:
            raise ValueError(f"cell_pixels must be at least 4, not {cell_pixels}")
        self.rules = variant if isinstance(variant, Rules) else Rules(str(variant))
        self.render_mode = render_mode
        self.turn_limit = turn_limit
        self.repetition = repetition
        self.cell_pixels = cell_pixels
        self._height = self.rules.height
        self._width = self.rules.width
        n = self.rules.action_count()

        self.possible_agents = ["red", "blue"]
        self.agents = self.possible_agents[:]
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0, high=1, shape=(self._height, self._width, 3), dtype=np.int8
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self._no_actions = np.zeros(n, dtype=np.int8)
        self._no_actions.flags.writeable = False
        self._game: Game | None = None
        self._cached: tuple[str, np.ndarray, np.ndarray] | None = None
        self._over = False

    # -- the AEC API ---------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        # Nothing to seed: the game is deterministic.
        self._game = Game(self.rules, turn_limit=self.turn_limit, repetition=self.repetition)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._cached = None
        self._over = False
        self.agent_selection = self._game.position.turn
        # A setup may already be over (e.g. a full board): end at once.
        if self._game.is_over():
            self._finish()
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        game = self._game
        game.play_action(int(action))
        self._cached = None
        self._cumulative_rewards[agent] = 0
        self.agent_selection = _OTHER[agent]
        if game.is_over():
            self._finish()
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        cached = self._cached
        if cached is None:
            # Once per position: the planes (row-major per plane, so (3, H, W); the (H, W, 3)
            # observation is a transposed view, no copy), the mover and the mover's mask.
            position = self._game.position
            planes = np.frombuffer(position.planes(), dtype=np.int8).reshape(
                3, self._height, self._width
            )
            if self._over:
                mask = self._no_actions
            else:
                mask = np.frombuffer(position.action_mask(), dtype=np.int8)
            cached = self._cached = (position.turn, planes, mask)
        mover, planes, mask = cached
        if agent == mover:
            return {"observation": planes.transpose(1, 2, 0), "action_mask": mask}
        return {"observation": planes[[1, 0, 2]].transpose(1, 2, 0), "action_mask": self._no_actions}

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode."
            )
            return None
        if self._game is None:
            raise RuntimeError("render() before reset()")
        if self.render_mode == "ansi":
            return self._game.position.diagram()
        if self.render_mode == "human":
            # A text game: "human" prints the diagram (after every reset and step).
            print(self._game.position.diagram())
            return None
        return self._rgb_array()

    def close(self) -> None:
        pass

    # -- helpers ---------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The underlying ``lgame.Game`` (its position, plies, record)."""
        if self._game is None:
            raise RuntimeError("the environment has not been reset")
        return self._game

    @property
    def position(self) -> Position:
        """The current position."""
        return self.game.position

    def _finish(self) -> None:
        """The game has ended: rewards from its result, termination or truncation."""
        game = self._game
        red = _REWARD_RED.get(game.result(), 0)
        self.rewards = {"red": red, "blue": -red}
        # Over on the board (trap, mirror, score target) ends the game; a draw by the draw
        # rules cuts it short.
        if game.position.is_over():
            self.terminations = {a: True for a in self.agents}
        else:
            self.truncations = {a: True for a in self.agents}
        self._over = True
        self._cached = None
        info = {"result": game.result(), "termination": game.termination()}
        self.infos = {a: dict(info) for a in self.agents}

    def _rgb_array(self) -> np.ndarray:
        """The board as an (H*k, W*k, 3) uint8 image, row 1 at the bottom as in the diagrams."""
        k = self.cell_pixels
        h, w = self._height, self._width
        position = self._game.position
        planes = np.frombuffer(position.planes(), dtype=np.uint8).reshape(3, h, w)
        red, blue = (0, 1) if position.turn == "red" else (1, 0)
        cells = np.empty((h, w, 3), dtype=np.uint8)
        cells[:] = _EMPTY
        cells[planes[red] == 1] = _RED
        cells[planes[blue] == 1] = _BLUE
        neutral = planes[2] == 1
        cells = cells[::-1]  # image row 0 is the top row of the board
        neutral = neutral[::-1]
        image = np.repeat(np.repeat(cells, k, axis=0), k, axis=1)
        # Neutrals: a dark disc-like square inset in an empty cell.
        inset = max(1, k // 4)
        for r, c in zip(*np.nonzero(neutral)):
            image[r * k + inset : (r + 1) * k - inset, c * k + inset : (c + 1) * k - inset] = (
                _NEUTRAL
            )
        # Grid lines one pixel wide at each cell's top and left, and the outer border.
        image[::k, :] = _GRID
        image[:, ::k] = _GRID
        image[-1, :] = _GRID
        image[:, -1] = _GRID
        return image
