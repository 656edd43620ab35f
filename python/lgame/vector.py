"""N L games stepped by one call: a Gymnasium ``VectorEnv`` for two players, in Rust.

>>> from lgame.vector import VectorEnv
>>> env = VectorEnv(4, seed=0)
>>> obs, info = env.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].shape, info["to_move"].tolist()
((4, 4, 4, 3), (4, 5760), [0, 0, 0, 0])
>>> obs, rewards, terminations, truncations, info = env.step(env.random_legal_actions())
>>> rewards.shape, info["to_move"].tolist()
((4, 2), [1, 1, 1, 1])

Each game is the game of ``lgame.env`` with the same draw rules, and every array is the same
as that environment's, seen from the player to move:

- ``obs["observation"]``: ``int8 (N, H, W, 3)``, the mover's L, the other L, the neutrals;
- ``obs["action_mask"]``: ``int8 (N, action_count)``, 1 where the action is legal (all zeros
  in a finished game); only with ``action_mask=True``;
- ``rewards``: ``float32 (N, 2)``, Red's and Blue's reward for the step (+1/-1 at the end);
- ``terminations`` / ``truncations``: ``bool (N,)``, over on the board / drawn by the draw
  rules;
- ``info["to_move"]``: ``int8 (N,)``, 0 where Red moves next, 1 where Blue does;
- ``env.legal_actions()``: the legal actions compactly, ``counts`` ``int32 (N,)`` and
  ``ids`` ``int32 (N, max_legal)``, the first ``counts[i]`` entries of row ``i`` being its
  legal actions in the order the generator makes them (no dense mask needed), written when
  called.

The arrays are written in place by each call: the same NumPy arrays come back every time, so
copy what you keep. A finished game starts again at the next ``step``, which ignores its
action (``metadata["autoreset_mode"]`` is Gymnasium's ``NEXT_STEP``): its observation is the
start, its reward 0, and it is neither terminated nor truncated.
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv as _GymVectorEnv

from ._lgame import Rules, VectorCore
from .env import DEFAULT_REPETITION, DEFAULT_TURN_LIMIT

try:  # Gymnasium 1.1 and later name the modes.
    from gymnasium.vector import AutoresetMode

    _NEXT_STEP: Any = AutoresetMode.NEXT_STEP
except ImportError:  # pragma: no cover - older Gymnasium
    _NEXT_STEP = "next_step"

__all__ = ["VectorEnv", "LegalActions"]


class LegalActions(NamedTuple):
    """The legal actions of every game: row ``i`` of ``ids`` holds ``counts[i]`` of them."""

    counts: np.ndarray
    ids: np.ndarray


class _Memory:
    """Exposes one of the core's arrays to NumPy (the array keeps this, and so the core,
    alive)."""

    def __init__(self, core: VectorCore, address: int, shape: tuple, typestr: str):
        self._core = core
        self.__array_interface__ = {
            "data": (address, False),
            "shape": tuple(shape),
            "typestr": typestr,
            "version": 3,
        }


def _seed_int(seed: int | None) -> int:
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    seed = int(seed)
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed}")
    return seed % 2**64


class VectorEnv(_GymVectorEnv):
    """``num_envs`` games of ``variant``, stepped in Rust with the interpreter released.

    ``seed`` seeds ``random_legal_actions()`` (the games themselves are deterministic);
    ``action_mask=False`` leaves the dense masks out (use ``legal_actions()``);
    ``turn_limit`` and ``repetition`` are ``lgame.env``'s draw rules (``None`` or 0 turns one
    off); ``threads`` how many threads step the games (``None``: one per core; 1: the
    calling thread alone).
    """

    metadata = {"autoreset_mode": _NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        variant: str | Rules = "classic",
        seed: int | None = None,
        action_mask: bool = True,
        turn_limit: int | None = DEFAULT_TURN_LIMIT,
        repetition: int | None = DEFAULT_REPETITION,
        threads: int | None = None,
    ):
        if int(num_envs) < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        if threads is not None and int(threads) < 1:
            raise ValueError(f"threads must be at least 1 (or None), not {threads}")
        self.rules = variant if isinstance(variant, Rules) else Rules(str(variant))
        self._core = VectorCore(
            int(num_envs),
            self.rules,
            _seed_int(seed),
            bool(action_mask),
            int(turn_limit or 0),
            int(repetition or 0),
            0 if threads is None else int(threads),
        )
        self.num_envs = int(num_envs)
        self.action_mask = bool(action_mask)
        self.render_mode = None
        arrays = {
            name: np.asarray(_Memory(self._core, address, shape, typestr))
            for name, (address, shape, typestr) in self._core.buffers().items()
        }
        self._actions = arrays["actions"]
        self._rewards = arrays["rewards"]
        self._terminations = arrays["terminations"]
        self._truncations = arrays["truncations"]
        self._legal = LegalActions(arrays["counts"], arrays["ids"])
        self._obs = {"observation": arrays["observation"]}
        if self.action_mask:
            self._obs["action_mask"] = arrays["action_mask"]
        self._info = {"to_move": arrays["to_move"]}
        n = self.rules.action_count()
        h, w = self.rules.height, self.rules.width
        single_obs = {
            "observation": spaces.Box(low=0, high=1, shape=(h, w, 3), dtype=np.int8)
        }
        if self.action_mask:
            single_obs["action_mask"] = spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8)
        self.single_observation_space = spaces.Dict(single_obs)
        self.single_action_space = spaces.Discrete(n)
        batch = {
            "observation": spaces.Box(
                low=0, high=1, shape=(self.num_envs, h, w, 3), dtype=np.int8
            )
        }
        if self.action_mask:
            batch["action_mask"] = spaces.Box(
                low=0, high=1, shape=(self.num_envs, n), dtype=np.int8
            )
        self.observation_space = spaces.Dict(batch)
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, n))

    @property
    def max_legal(self) -> int:
        """The width of ``legal_actions().ids``: no position has more legal moves."""
        return self._core.max_legal

    def reset(
        self, *, seed: int | None = None, options: dict | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Starts every game again; ``seed`` restarts ``random_legal_actions()``'s numbers."""
        self._core.reset_all(None if seed is None else _seed_int(seed))
        return self._obs, self._info

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Plays one action per game (the player to move's); an illegal action raises
        ``ValueError`` naming the game, before any game moves."""
        if actions is not self._actions:
            actions = np.asarray(actions)
            if actions.shape != (self.num_envs,):
                raise ValueError(
                    f"actions must have shape ({self.num_envs},), not {actions.shape}"
                )
            if not np.issubdtype(actions.dtype, np.integer):
                raise ValueError(f"actions must be integers, not {actions.dtype}")
            self._actions[:] = actions
        self._core.step()
        return self._obs, self._rewards, self._terminations, self._truncations, self._info

    def random_legal_actions(self) -> np.ndarray:
        """One random legal action per game, drawn in Rust from the seeded numbers (0 for a
        game that starts again at the next step). The array is the one ``step`` reads, so
        ``env.step(env.random_legal_actions())`` copies nothing; it is rewritten by the
        next call."""
        self._core.random_legal_actions()
        return self._actions

    def legal_actions(self) -> LegalActions:
        """The legal actions of every game, compactly: ``ids[i, :counts[i]]`` (none in a
        finished game). Written in Rust when called (a step does not write them, so a loop
        that needs no list pays nothing), into the same two arrays every time."""
        self._core.legal_actions()
        return self._legal

    def position(self, env: int):
        """The current ``lgame.Position`` of game ``env``."""
        return self._core.position(int(env))

    def close(self, **kwargs: Any) -> None:
        self.closed = True
